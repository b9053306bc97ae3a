/* parse.c — runs the flex scanner and bison parser over one unit. */
#include <string.h>

#include "context.h"
#include "lexer.h"
#include "parser.h"

/* The scanner header speaks of YYSTYPE and YYLTYPE; ours carry the nsc_yy prefix. */
#define YYSTYPE NSC_YYSTYPE
#define YYLTYPE NSC_YYLTYPE
#include "scanner.h"

/* Called by bison only for "memory exhausted" (syntax errors go to yyreport_syntax_error). */
void nsc_yyerror(nsc_loc *loc, void *scanner, nsc_parser *ps, const char *msg)
{
    (void)scanner;
    (void)msg;
    nsc_error(ps->diags, "E-syntax-depth", *loc, "the schema is nested too deeply to parse");
}

void nsc_parse_unit(nsc_context *ctx, nsc_unit *u)
{
    nsc_lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.diags = &ctx->diags;
    lx.arena = &ctx->arena;
    lx.text = u->src->text;
    lx.file = u->src->id;

    yyscan_t scanner;
    if (nsc_yylex_init_extra(&lx, &scanner) != 0) nsc_out_of_memory();
    YY_BUFFER_STATE buf = nsc_yy_scan_bytes(u->src->text, (int)u->src->len, scanner);

    nsc_parser ps;
    memset(&ps, 0, sizeof ps);
    ps.arena = &ctx->arena;
    ps.diags = &ctx->diags;
    ps.text = u->src->text;
    ps.decls = nsc_ptrvec_new();
    unsigned errors_before = ctx->diags.errors;
    int rc = nsc_yyparse(scanner, &ps);

    nsc_yy_delete_buffer(buf, scanner);
    nsc_yylex_destroy(scanner);
    nsc_sb_free(&lx.doc);
    nsc_sb_free(&lx.scratch);

    u->decls = (nsc_decl **)nsc_ptrvec_finish(ps.decls, &ctx->arena, &u->ndecls);
    for (size_t i = 0; i < u->ndecls; i++) u->decls[i]->index = (uint32_t)i;
    u->parse_failed = rc != 0 || ctx->diags.errors > errors_before;
}
