/* lexer.h — what the scanner (lexer.l) and the parser (parser.y) share: the token value and the
 * scanner's per-file state. */
#ifndef NSC_LEXER_H
#define NSC_LEXER_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "strbuf.h"

/* The semantic value of every token. */
typedef struct nsc_token {
    const char *text;     /* source spelling (identifiers, keywords, numbers) or decoded string */
    size_t      len;
    const char *doc;      /* /// doc comment just before this token, or NULL */
    uint64_t    ival;     /* integer literals */
    bool        bad;      /* a literal the scanner already reported (too large, bad UTF-8) */
    double      fval;     /* floating-point literals */
} nsc_token;

typedef struct nsc_lexer {
    nsc_diags  *diags;
    nsc_arena  *arena;
    const char *text;          /* the whole source */
    uint32_t    file;          /* source id for locations */
    uint32_t    offset;        /* byte offset of the next character */
    uint32_t    comment_start; /* where an open block comment began */
    uint32_t    last_end;      /* end of the last token returned */
    uint32_t    prev_end;      /* end of the token before it (syntax errors point after it) */
    nsc_strbuf  doc;           /* pending /// lines */
    bool        has_doc;
    nsc_strbuf  scratch;
} nsc_lexer;

#endif
