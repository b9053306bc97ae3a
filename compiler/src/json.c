/* json.c — the JSON writer behind --emit json. */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsc_json_init(nsc_json *j, nsc_strbuf *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->first[0] = true;
}

static void indent(nsc_json *j)
{
    nsc_sb_putc(j->out, '\n');
    for (int i = 0; i < j->depth; i++) nsc_sb_puts(j->out, "  ");
}

/* Separator and indentation before a value (or a key). */
static void before(nsc_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0) {
        if (!j->first[j->depth]) nsc_sb_puts(j->out, j->inline_[j->depth] ? ", " : ",");
        if (!j->inline_[j->depth]) indent(j);
    }
    j->first[j->depth] = false;
}

static void open_scope(nsc_json *j, char c, bool one_line)
{
    before(j);
    nsc_sb_putc(j->out, c);
    if (j->depth + 1 < NSC_JSON_MAX_DEPTH) j->depth++;
    j->first[j->depth] = true;
    j->inline_[j->depth] = one_line;
}

static void close_scope(nsc_json *j, char c)
{
    bool empty = j->first[j->depth], one_line = j->inline_[j->depth];
    if (j->depth > 0) j->depth--;
    if (!empty && !one_line) indent(j);
    nsc_sb_putc(j->out, c);
    if (j->depth == 0) nsc_sb_putc(j->out, '\n');
}

void nsc_json_object(nsc_json *j) { open_scope(j, '{', false); }
void nsc_json_array(nsc_json *j) { open_scope(j, '[', false); }
void nsc_json_array_inline(nsc_json *j) { open_scope(j, '[', true); }
void nsc_json_end_object(nsc_json *j) { close_scope(j, '}'); }
void nsc_json_end_array(nsc_json *j) { close_scope(j, ']'); }

void nsc_json_key(nsc_json *j, const char *key)
{
    before(j);
    nsc_sb_json_string(j->out, key, strlen(key));
    nsc_sb_puts(j->out, ": ");
    j->after_key = true;
}

void nsc_json_string(nsc_json *j, const char *s)
{
    nsc_json_string_n(j, s, strlen(s));
}

void nsc_json_string_n(nsc_json *j, const char *s, size_t n)
{
    before(j);
    nsc_sb_json_string(j->out, s, n);
}

void nsc_json_int(nsc_json *j, int64_t v)
{
    before(j);
    nsc_sb_printf(j->out, "%lld", (long long)v);
}

void nsc_json_uint(nsc_json *j, uint64_t v)
{
    before(j);
    nsc_sb_printf(j->out, "%llu", (unsigned long long)v);
}

void nsc_json_double(nsc_json *j, double v)
{
    before(j);
    if (!isfinite(v)) {
        nsc_sb_puts(j->out, "null");
        return;
    }
    /* The shortest of %.17g that still reads back as v keeps output stable and readable. */
    char buf[40];
    if (v == floor(v) && fabs(v) < 1e15) {
        nsc_sb_printf(j->out, "%.1f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    nsc_sb_puts(j->out, buf);
    if (!strpbrk(buf, ".eE")) nsc_sb_puts(j->out, ".0");
}

void nsc_json_bool(nsc_json *j, bool v)
{
    before(j);
    nsc_sb_puts(j->out, v ? "true" : "false");
}

void nsc_json_null(nsc_json *j)
{
    before(j);
    nsc_sb_puts(j->out, "null");
}

void nsc_json_hex64(nsc_json *j, uint64_t v)
{
    before(j);
    nsc_sb_printf(j->out, "\"0x%016llx\"", (unsigned long long)v);
}
