/* check.c — runs the semantic passes over every loaded unit in dependency-safe order, then the
 * layout and hash passes when the schemas are clean. */
#include "checker.h"

#include <stdlib.h>
#include <string.h>

#include "cnames.h"
#include "hash.h"
#include "layout.h"

typedef void (*decl_pass)(nsc_checker *c, nsc_decl *d);

static void each_decl(nsc_checker *c, nsc_decl_kind kind, decl_pass pass)
{
    for (size_t i = 0; i < c->ctx->nunits; i++) {
        nsc_unit *u = c->ctx->units[i];
        for (size_t k = 0; k < u->ndecls; k++)
            if (u->decls[k]->kind == kind) pass(c, u->decls[k]);
    }
}

static void each_record(nsc_checker *c, decl_pass pass)
{
    each_decl(c, NSC_D_STRUCT, pass);
    each_decl(c, NSC_D_COMPONENT, pass);
    each_decl(c, NSC_D_INPUT, pass);
    each_decl(c, NSC_D_RPC, pass);
}

static void defaults(nsc_checker *c, nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++)
        if (d->fields[i]->sem.type) nsc_check_default(c, d, d->fields[i]);
}

unsigned nsc_check(nsc_context *ctx)
{
    if (ctx->checked) return ctx->check_errors;
    ctx->checked = true;
    nsc_checker c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.d = &ctx->diags;
    c.a = &ctx->arena;
    unsigned before = ctx->diags.errors;

    for (size_t i = 0; i < ctx->nunits; i++) nsc_check_package(&c, ctx->units[i]);
    for (size_t i = 0; i < ctx->nunits; i++) nsc_collect_symbols(&c, ctx->units[i]);
    each_decl(&c, NSC_D_CONST, nsc_resolve_const);
    each_decl(&c, NSC_D_ENUM, nsc_check_enum);
    each_decl(&c, NSC_D_COMPONENT, nsc_check_decl_attrs);
    each_decl(&c, NSC_D_INPUT, nsc_check_decl_attrs);
    each_decl(&c, NSC_D_RPC, nsc_check_decl_attrs);
    each_decl(&c, NSC_D_STRUCT, nsc_check_decl_attrs);
    each_decl(&c, NSC_D_EXTERN, nsc_check_decl_attrs);
    each_record(&c, nsc_resolve_record_types);
    each_decl(&c, NSC_D_UNION, nsc_resolve_record_types);
    each_decl(&c, NSC_D_STRUCT, nsc_check_containment);
    each_record(&c, nsc_check_record);
    each_decl(&c, NSC_D_UNION, nsc_check_union);
    each_record(&c, defaults);
    for (size_t i = 0; i < ctx->nunits; i++) nsc_fingerprint_c_names(&c, ctx->units[i]);
    for (size_t i = 0; i < ctx->nunits; i++) {
        nsc_assign_type_ids(&c, ctx->units[i]);
        nsc_check_c_names(&c, ctx->units[i]);
    }
    for (size_t i = 0; i < ctx->nunits; i++) nsc_check_unused_imports(&c, ctx->units[i]);

    /* Layout and hashes only for clean schemas: they assume every type resolved. */
    if (ctx->diags.errors == before && ctx->diags.errors == 0) {
        for (size_t i = 0; i < ctx->nunits; i++) nsc_layout_unit(&c, ctx->units[i]);
        for (size_t i = 0; i < ctx->nunits; i++) nsc_hash_unit(&c, ctx->units[i]);
    }
    nsc_map_free(&c.cnames);
    free(c.cname_fps.items);
    free(c.cname_fps.set);
    free(c.cname_fps.used);
    nsc_diags_flush(&ctx->diags);
    ctx->check_errors = ctx->diags.errors;
    return ctx->check_errors;
}
