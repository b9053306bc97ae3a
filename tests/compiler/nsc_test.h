/* nsc_test.h — helpers for the compiler's Check tests: compile a schema from a string and keep
 * its diagnostics for assertions. */
#ifndef NSC_TEST_H
#define NSC_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netschemac/netschemac.h"
#include "ns_test.h"

typedef struct captured {
    nsc_severity severity;
    char         code[32];
    char         message[512];
    unsigned     line, column, end_column, notes;
} captured;

typedef struct capture {
    captured items[256];
    size_t   count;
} capture;

static void capture_sink(void *user, const nsc_diagnostic *d)
{
    capture *c = user;
    if (c->count == sizeof c->items / sizeof c->items[0]) return;
    captured *x = &c->items[c->count++];
    x->severity = d->severity;
    snprintf(x->code, sizeof x->code, "%s", d->code ? d->code : "");
    snprintf(x->message, sizeof x->message, "%s", d->message);
    x->line = d->span.line;
    x->column = d->span.column;
    x->end_column = d->span.end_column;
    x->notes = (unsigned)d->note_count;
}

/* A compiled schema: the context stays open for inspection until test_free(). */
typedef struct compiled {
    nsc_context *ctx;
    nsc_unit    *unit;
    capture      diags;
    unsigned     errors;
} compiled;

static inline void test_compile(compiled *c, const char *src)
{
    memset(c, 0, sizeof *c);
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = capture_sink;
    opt.sink_user = &c->diags;
    opt.max_errors = 1000;
    c->ctx = nsc_create(&opt);
    c->unit = nsc_load_buffer(c->ctx, "test.netschema", src, strlen(src));
    c->errors = nsc_check(c->ctx);
    nsc_finish_diagnostics(c->ctx);
}

static inline void test_free(compiled *c)
{
    nsc_destroy(c->ctx);
}

/* The first diagnostic with this code, or NULL. */
static inline const captured *find_code(const compiled *c, const char *code)
{
    for (size_t i = 0; i < c->diags.count; i++)
        if (strcmp(c->diags.items[i].code, code) == 0) return &c->diags.items[i];
    return NULL;
}

/* Compiles src and asserts one diagnostic with this code at line:col. */
#define ck_assert_diag(src, code_, line_, col_)                                                   \
    do {                                                                                          \
        compiled c_;                                                                              \
        test_compile(&c_, (src));                                                                 \
        const captured *d_ = find_code(&c_, (code_));                                             \
        ck_assert_msg(d_ != NULL, "no %s diagnostic (got %zu, first: %s)", (code_), c_.diags.count, \
                      c_.diags.count ? c_.diags.items[0].message : "-");                          \
        ck_assert_uint_eq(d_->line, (line_));                                                     \
        ck_assert_uint_eq(d_->column, (col_));                                                    \
        test_free(&c_);                                                                           \
    } while (0)

#endif
