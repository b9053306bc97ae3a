/* format_tokens.c — the token stream the formatter lays out: the compiler's own scanner gives
 * the tokens (so the formatter splits the source exactly as the parser does), and the gaps
 * between tokens give the comments, which the scanner skips. */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "lexer.h"
#include "parser.h"

/* The scanner header speaks of YYSTYPE and YYLTYPE; ours carry the nsc_yy prefix. */
#define YYSTYPE NSC_YYSTYPE
#define YYLTYPE NSC_YYLTYPE
#include "scanner.h"

static void push_comment(nsc_fmt_tokens *t, size_t *cap, nsc_fmt_comment c)
{
    if (t->ncomments == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        t->comments = nsc_xrealloc(t->comments, *cap * sizeof *t->comments);
    }
    t->comments[t->ncomments++] = c;
}

static unsigned newlines(const char *text, uint32_t a, uint32_t b)
{
    unsigned n = 0;
    for (uint32_t i = a; i < b; i++) n += text[i] == '\n';
    return n;
}

/* Where the comment starting at i ends: a line comment before its newline, a block comment
 * after its star-slash (the source is valid, so it has one). */
static uint32_t comment_end(const char *text, uint32_t i, uint32_t limit)
{
    if (text[i + 1] == '/') {
        while (i < limit && text[i] != '\n') i++;
        return i;
    }
    const char *close = strstr(text + i + 2, "*/");
    return close ? (uint32_t)(close - text) + 2 : limit;
}

/* Collects the comments in [from, to) for tok; first_token: nothing comes before the gap. */
static void scan_gap(const char *text, uint32_t from, uint32_t to, bool first_token, nsc_fmt_tokens *t,
                     size_t *cap, nsc_fmt_token *tok)
{
    tok->first_comment = t->ncomments;
    uint32_t prev = from, i = from;
    while (i < to) {
        if (text[i] != '/') {
            i++;
            continue;
        }
        uint32_t end = comment_end(text, i, to);
        unsigned nl = newlines(text, prev, i);
        nsc_fmt_comment c = {i, end, nl > 0 || (first_token && prev == from), nl > 1};
        push_comment(t, cap, c);
        prev = i = end;
    }
    tok->ncomments = t->ncomments - tok->first_comment;
    tok->blank_before = newlines(text, prev, to) > 1;
}

void nsc_fmt_scan(nsc_context *ctx, const nsc_unit *u, nsc_fmt_tokens *out)
{
    memset(out, 0, sizeof *out);
    nsc_lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.diags = &ctx->diags;
    lx.arena = &ctx->arena;
    lx.text = u->src->text;
    lx.file = u->src->id;
    yyscan_t scanner;
    if (nsc_yylex_init_extra(&lx, &scanner) != 0) nsc_out_of_memory();
    YY_BUFFER_STATE buf = nsc_yy_scan_bytes(u->src->text, (int)u->src->len, scanner);

    const char *text = u->src->text;
    /* A byte-order mark at the start is not a comment: the formatted file has none. */
    uint32_t prev_end = u->src->len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    size_t cap = 0, ccap = 0;
    for (;;) {
        NSC_YYSTYPE val;
        nsc_loc loc;
        int kind = nsc_yylex(&val, &loc, scanner);
        if (out->count == cap) {
            cap = cap ? cap * 2 : 256;
            out->toks = nsc_xrealloc(out->toks, cap * sizeof *out->toks);
        }
        nsc_fmt_token *tok = &out->toks[out->count++];
        tok->kind = kind;
        tok->start = kind == END ? (uint32_t)u->src->len : loc.start;
        tok->end = kind == END ? tok->start : loc.end;
        scan_gap(text, prev_end, tok->start, out->count == 1, out, &ccap, tok);
        prev_end = tok->end;
        if (kind == END) break;
    }
    nsc_yy_delete_buffer(buf, scanner);
    nsc_yylex_destroy(scanner);
    nsc_sb_free(&lx.doc);
    nsc_sb_free(&lx.scratch);
}

void nsc_fmt_tokens_free(nsc_fmt_tokens *t)
{
    free(t->toks);
    free(t->comments);
    memset(t, 0, sizeof *t);
}
