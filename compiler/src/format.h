/* format.h — the schema formatter (idl/SPEC.md section 14): the token stream it works on
 * (format_tokens.c, the compiler's own scanner plus the comments between tokens) and the
 * printer that lays it out in the one canonical style (format.c). */
#ifndef NSC_FORMAT_H
#define NSC_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "strbuf.h"

/* One comment in the source, as a byte range. */
typedef struct nsc_fmt_comment {
    uint32_t start, end;
    bool     own_line;      /* a line break separates it from the token or comment before it */
    bool     blank_before;  /* a blank line separates it from what comes before it */
} nsc_fmt_comment;

/* One token, and the comments in the gap before it. */
typedef struct nsc_fmt_token {
    int      kind;          /* the parser's token kind (parser.h); END for the end of the file */
    uint32_t start, end;
    size_t   first_comment, ncomments;  /* into nsc_fmt_tokens.comments */
    bool     blank_before;  /* a blank line separates it from the last token or comment */
} nsc_fmt_token;

typedef struct nsc_fmt_tokens {
    nsc_fmt_token   *toks;  /* ends with one END token */
    size_t           count;
    nsc_fmt_comment *comments;
    size_t           ncomments;
} nsc_fmt_tokens;

/* Scans a unit's source (which must have parsed without errors) into tokens and comments. */
void nsc_fmt_scan(nsc_context *ctx, const nsc_unit *u, nsc_fmt_tokens *out);
void nsc_fmt_tokens_free(nsc_fmt_tokens *t);

/* Appends the formatted source of a unit that checked without errors. */
void nsc_format_unit(nsc_context *ctx, const nsc_unit *u, nsc_strbuf *out);

/* Each top-level declaration of such a unit formatted on its own, with its comments, into
 * texts[i] for u->decls[i] (u->ndecls buffers): what --compat compares beyond the hash. */
void nsc_format_decls(nsc_context *ctx, const nsc_unit *u, nsc_strbuf *texts);

#endif
