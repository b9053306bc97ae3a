/* compiler.c — the public library API: contexts, options and small accessors. */
#include <stdlib.h>
#include <string.h>

#include "context.h"

void nsc_options_init(nsc_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_errors = 50;
    opt->diag_format = NSC_DIAG_TEXT;
}

nsc_context *nsc_create(const nsc_options *opt)
{
    nsc_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    if (opt) ctx->opt = *opt;
    else nsc_options_init(&ctx->opt);
    nsc_arena_init(&ctx->arena);
    nsc_diags_init(&ctx->diags, &ctx->opt, &ctx->sources);
    return ctx;
}

void nsc_destroy(nsc_context *ctx)
{
    if (!ctx) return;
    for (size_t i = 0; i < ctx->nunits; i++) nsc_map_free(&ctx->units[i]->symbols);
    free(ctx->units);
    free(ctx->stack);
    free(ctx->stack_import);
    nsc_diags_free(&ctx->diags);
    nsc_sources_free(&ctx->sources);
    nsc_arena_free(&ctx->arena);
    free(ctx);
}

unsigned nsc_error_count(const nsc_context *ctx)
{
    return ctx->diags.errors;
}

unsigned nsc_warning_count(const nsc_context *ctx)
{
    return ctx->diags.warnings;
}

void nsc_finish_diagnostics(nsc_context *ctx)
{
    nsc_diags_finish(&ctx->diags);
}

const char *nsc_unit_stem(const nsc_unit *u)
{
    return u->stem;
}

const char *nsc_unit_path(const nsc_unit *u)
{
    return u->src->path;
}

size_t nsc_file_count(const nsc_context *ctx)
{
    return ctx->sources.count;
}

const char *nsc_file_path(const nsc_context *ctx, size_t i)
{
    return i < ctx->sources.count ? ctx->sources.items[i]->path : NULL;
}
