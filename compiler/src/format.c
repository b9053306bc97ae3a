/* format.c — `netschemac --format`: lays a valid schema out in the one canonical style of
 * idl/SPEC.md section 14.
 *
 * It works on the token stream (format_tokens.c), not on the syntax tree, so that every token
 * keeps its spelling (0xFF_FF, 2.5e-3, "\x01", parentheses) and every comment its place: a
 * comment on the line of a token stays at the end of that token's line, a comment on a line of
 * its own stays before what follows it. The only tokens that move are attributes (sorted into
 * the order of SPEC section 6.2) and optional commas (added after every enum value of a
 * multi-line enum, dropped at the end of brace initializers): none of that changes a hash.
 *
 * Parsing builds rows (one per output line of code, with their comments), then rendering aligns
 * them: field names in a column, trailing comments in a column, `=` of consecutive constants. */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "lexer.h"
#include "parser.h"

enum { INDENT = 4, MAX_WIDTH = 100, ALIGN_CAP = 28, MAX_ATTRS = 16 };

typedef enum { R_PACKAGE, R_IMPORT, R_CONST, R_DECL, R_FIELD, R_VALUE, R_COMMENTS } row_kind;

typedef struct cvec {
    nsc_fmt_comment *items;
    size_t count, cap;
} cvec;

typedef struct row row;
typedef struct rows {
    row  **items;
    size_t count, cap;
} rows;

/* One line of code (a declaration with a body: its header, body and closing line). */
struct row {
    row_kind   kind;
    nsc_strbuf head, rest;    /* code: the head, then the rest after an aligned gap */
    nsc_strbuf trail;         /* comments that end the line */
    cvec       leading;       /* comments on lines of their own before it */
    cvec       after;         /* comments on lines of their own inside it, printed after it */
    bool       started;       /* a token has been taken for it */
    bool       blank_before;  /* a blank line before its first line (comment or code) */
    bool       blank_before_code;
    bool       has_body, one_line_src;
    rows       body;
    nsc_strbuf close_trail;   /* comments after the closing '}' */
};

typedef struct fmt {
    const char           *src;
    const nsc_fmt_tokens *t;
    size_t                pos;
    nsc_strbuf           *trail;    /* the line the last token taken is on */
    cvec                  pending;  /* own-line comments not yet given to a row */
} fmt;

/* ---- rows ----------------------------------------------------------------------------- */

static void cvec_push(cvec *v, nsc_fmt_comment c)
{
    if (v->count == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 4;
        v->items = nsc_xrealloc(v->items, v->cap * sizeof *v->items);
    }
    v->items[v->count++] = c;
}

static row *new_row(rows *rs, row_kind kind)
{
    row *r = calloc(1, sizeof *r);
    if (!r) nsc_out_of_memory();
    r->kind = kind;
    if (rs->count == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 16;
        rs->items = nsc_xrealloc(rs->items, rs->cap * sizeof *rs->items);
    }
    rs->items[rs->count++] = r;
    return r;
}

static void free_rows(rows *rs)
{
    for (size_t i = 0; i < rs->count; i++) {
        row *r = rs->items[i];
        nsc_sb_free(&r->head);
        nsc_sb_free(&r->rest);
        nsc_sb_free(&r->trail);
        nsc_sb_free(&r->close_trail);
        free(r->leading.items);
        free(r->after.items);
        free_rows(&r->body);
        free(r);
    }
    free(rs->items);
}

/* A comment as printed: CRs dropped and no spaces at the ends of its lines. */
static void put_comment(nsc_strbuf *sb, const char *src, nsc_fmt_comment c)
{
    size_t line_start = sb->len;
    for (uint32_t i = c.start; i < c.end; i++) {
        char ch = src[i];
        if (ch == '\r') continue;
        if (ch == '\n') {
            while (sb->len > line_start && (sb->data[sb->len - 1] == ' ' || sb->data[sb->len - 1] == '\t')) sb->len--;
            line_start = sb->len + 1;
        }
        nsc_sb_putc(sb, ch);
    }
    while (sb->len > line_start && (sb->data[sb->len - 1] == ' ' || sb->data[sb->len - 1] == '\t')) sb->len--;
    if (sb->data) sb->data[sb->len] = '\0';
}

/* ---- taking tokens -------------------------------------------------------------------- */

static const nsc_fmt_token *peek(const fmt *f)
{
    return &f->t->toks[f->pos];
}

/* Takes the comments before the next token: those on the line of the token before go to that
 * line, the others wait for the row that takes them. */
static const nsc_fmt_token *advance(fmt *f)
{
    const nsc_fmt_token *tok = peek(f);
    for (size_t i = 0; i < tok->ncomments; i++) {
        nsc_fmt_comment c = f->t->comments[tok->first_comment + i];
        if (!c.own_line && f->trail) {
            if (f->trail->len) nsc_sb_putc(f->trail, ' ');
            put_comment(f->trail, f->src, c);
        } else {
            cvec_push(&f->pending, c);
        }
    }
    if (tok->kind != END) f->pos++;
    return tok;
}

/* Takes the next token for row r: the first token of a row takes the waiting comments as the
 * row's leading ones; a later token puts them after the row. */
static const nsc_fmt_token *eat(fmt *f, row *r)
{
    const nsc_fmt_token *tok = advance(f);
    if (!r->started) {
        r->blank_before = f->pending.count ? f->pending.items[0].blank_before : tok->blank_before;
        r->blank_before_code = f->pending.count && tok->blank_before;
        for (size_t i = 0; i < f->pending.count; i++) cvec_push(&r->leading, f->pending.items[i]);
    } else {
        for (size_t i = 0; i < f->pending.count; i++) cvec_push(&r->after, f->pending.items[i]);
    }
    f->pending.count = 0;
    r->started = true;
    f->trail = &r->trail;
    return tok;
}

static void put_text(nsc_strbuf *sb, const fmt *f, const nsc_fmt_token *tok)
{
    nsc_sb_append(sb, f->src + tok->start, tok->end - tok->start);
}

static bool is_operator(int k)
{
    return k == MINUS || k == PLUS || k == STAR || k == SLASH || k == PERCENT;
}

/* Whether a space separates two tokens of a type, an expression or an initializer. */
static bool space_between(int prev, bool prev_unary, int cur)
{
    if (prev < 0) return false;
    if (prev_unary) return cur == MINUS || cur == PLUS; /* - -2, not --2 */
    if (cur == RPAREN || cur == COMMA || cur == SEMI || cur == RANGLE || cur == DOT || cur == RBRACE || cur == LANGLE)
        return false;
    if (prev == LPAREN || prev == DOT || prev == LANGLE || prev == LBRACE || prev == AT) return false;
    return !(cur == LPAREN && prev == IDENT);
}

/* Where put_until stops, at nesting depth 0: before one of the kinds in stop, before a closing
 * bracket it did not open, or (type) before the name that follows a type. */
typedef struct stop_set {
    int  kinds[4];
    bool type;
} stop_set;

static bool stops(const stop_set *s, int prev, int cur)
{
    for (int i = 0; i < 4; i++)
        if (s->kinds[i] && s->kinds[i] == cur) return true;
    return s->type && cur == IDENT && (prev == IDENT || prev == RANGLE);
}

/* Prints tokens (a type, an expression, an initializer) with the canonical spacing. */
static void put_until(fmt *f, row *r, nsc_strbuf *sb, stop_set s)
{
    int depth = 0, prev = -1;
    bool prev_unary = false;
    for (;;) {
        int k = peek(f)->kind;
        if (k == END || (depth == 0 && stops(&s, prev, k))) break;
        if (k == LPAREN || k == LBRACE || k == LANGLE) depth++;
        if (k == RPAREN || k == RBRACE || k == RANGLE) {
            if (depth == 0) break;
            depth--;
        }
        /* A trailing comma in a brace list: {a, b,} is printed {a, b}. */
        if (k == COMMA && f->pos + 1 < f->t->count && f->t->toks[f->pos + 1].kind == RBRACE) {
            eat(f, r);
            continue;
        }
        bool unary = (k == MINUS || k == PLUS) && (prev < 0 || prev == LPAREN || prev == COMMA || prev == LBRACE ||
                                                   prev == LANGLE || is_operator(prev));
        if (space_between(prev, prev_unary, k)) nsc_sb_putc(sb, ' ');
        put_text(sb, f, eat(f, r));
        prev = k;
        prev_unary = unary;
    }
}

/* ---- declarations --------------------------------------------------------------------- */

static const char *const field_attr_order[] = {"quantize", "range", "smallest_three", "smooth", "sync", "notify",
                                               "initial", "composite", "nopredict", "raw", "ordered", NULL};
static const char *const decl_attr_order[] = {"sync", "id", "send_rate", "unreliable", "model", "codec", "max_bits", NULL};

static size_t attr_rank(const char *const *order, const char *name, size_t len)
{
    size_t i = 0;
    for (; order[i]; i++)
        if (strlen(order[i]) == len && memcmp(order[i], name, len) == 0) return i;
    return i;
}

/* Prints the attributes (if any), each after a space, in the canonical order. */
static void put_attrs(fmt *f, row *r, nsc_strbuf *sb, const char *const *order)
{
    nsc_strbuf text[MAX_ATTRS];
    size_t rank[MAX_ATTRS], n = 0;
    while (peek(f)->kind == AT && n < MAX_ATTRS) {
        nsc_strbuf *a = &text[n];
        *a = (nsc_strbuf)NSC_STRBUF_INIT;
        nsc_sb_putc(a, '@');
        eat(f, r);
        const nsc_fmt_token *name = eat(f, r);
        put_text(a, f, name);
        rank[n] = attr_rank(order, f->src + name->start, name->end - name->start);
        if (peek(f)->kind == LPAREN) {
            nsc_sb_putc(a, '(');
            eat(f, r);
            put_until(f, r, a, (stop_set){{0}, false});
            nsc_sb_putc(a, ')');
            eat(f, r);
        }
        n++;
    }
    /* Stable: attributes of equal rank (none in a valid schema) keep their order. */
    for (size_t want = 0; want < MAX_ATTRS; want++)
        for (size_t i = 0; i < n; i++)
            if (rank[i] == want) {
                nsc_sb_putc(sb, ' ');
                nsc_sb_append(sb, text[i].data, text[i].len);
            }
    for (size_t i = 0; i < n; i++) nsc_sb_free(&text[i]);
}

static void parse_field(fmt *f, rows *body)
{
    row *r = new_row(body, R_FIELD);
    put_until(f, r, &r->head, (stop_set){{SEMI, 0}, true});
    put_text(&r->rest, f, eat(f, r)); /* the name */
    if (peek(f)->kind == LBRACKET) { /* a fixed array: name[N] */
        eat(f, r);
        nsc_sb_putc(&r->rest, '[');
        put_until(f, r, &r->rest, (stop_set){{RBRACKET, SEMI}, false});
        if (peek(f)->kind == RBRACKET) eat(f, r);
        nsc_sb_putc(&r->rest, ']');
    }
    if (peek(f)->kind == EQ) {
        eat(f, r);
        nsc_sb_puts(&r->rest, " = ");
        put_until(f, r, &r->rest, (stop_set){{AT, SEMI}, false});
    }
    put_attrs(f, r, &r->rest, field_attr_order);
    eat(f, r);
    nsc_sb_putc(&r->rest, ';');
}

static void parse_enum_value(fmt *f, rows *body)
{
    row *r = new_row(body, R_VALUE);
    put_text(&r->head, f, eat(f, r));
    if (peek(f)->kind == EQ) {
        eat(f, r);
        nsc_sb_puts(&r->head, " = ");
        put_until(f, r, &r->head, (stop_set){{COMMA, AT}, false});
    }
    put_attrs(f, r, &r->head, field_attr_order);
    if (peek(f)->kind == COMMA) eat(f, r);
}

/* The closing '}': comments on lines of their own before it stay inside the body. */
static void parse_close(fmt *f, row *decl)
{
    row *c = new_row(&decl->body, R_COMMENTS);
    advance(f);
    for (size_t i = 0; i < f->pending.count; i++) cvec_push(&c->leading, f->pending.items[i]);
    c->blank_before = f->pending.count && f->pending.items[0].blank_before;
    f->pending.count = 0;
    if (!c->leading.count) {
        decl->body.count--;
        free(c);
    }
    f->trail = &decl->close_trail;
}

static void parse_body(fmt *f, row *r, bool is_enum)
{
    uint32_t open = eat(f, r)->start;
    r->has_body = true;
    while (peek(f)->kind != RBRACE && peek(f)->kind != END) {
        if (is_enum) parse_enum_value(f, &r->body);
        else parse_field(f, &r->body);
    }
    r->one_line_src = !memchr(f->src + open, '\n', peek(f)->start - open);
    parse_close(f, r);
}

static void parse_decl(fmt *f, rows *top)
{
    int kind = peek(f)->kind;
    row *r = new_row(top, kind == PACKAGE ? R_PACKAGE : kind == IMPORT ? R_IMPORT : kind == CONST ? R_CONST : R_DECL);
    put_text(&r->head, f, eat(f, r)); /* the keyword */
    nsc_sb_putc(&r->head, ' ');
    if (kind == PACKAGE || kind == IMPORT) {
        put_until(f, r, &r->head, (stop_set){{SEMI, 0}, false});
    } else if (kind == CONST) {
        put_text(&r->head, f, eat(f, r));
        eat(f, r);
        nsc_sb_puts(&r->rest, "= ");
        put_until(f, r, &r->rest, (stop_set){{SEMI, 0}, false});
    } else {
        if (kind == EXTERN) { /* extern struct Name @max_bits(N); */
            put_text(&r->head, f, eat(f, r));
            nsc_sb_putc(&r->head, ' ');
        }
        put_text(&r->head, f, eat(f, r)); /* the name */
        if (kind == EXTERN && peek(f)->kind != LBRACE) {
            put_attrs(f, r, &r->head, decl_attr_order);
            eat(f, r);
            nsc_sb_putc(&r->head, ';');
            return;
        }
        if (peek(f)->kind == COLON) {
            eat(f, r);
            nsc_sb_puts(&r->head, " : ");
            put_until(f, r, &r->head, (stop_set){{AT, LBRACE}, false});
        }
        put_attrs(f, r, &r->head, decl_attr_order);
        parse_body(f, r, kind == ENUM);
        return;
    }
    eat(f, r);
    nsc_sb_putc(kind == CONST ? &r->rest : &r->head, ';');
}

/* ---- rendering ------------------------------------------------------------------------ */

static void put_indent(nsc_strbuf *out, int indent)
{
    for (int i = 0; i < indent; i++) nsc_sb_putc(out, ' ');
}

static void put_comments(nsc_strbuf *out, const char *src, const cvec *v, int indent, bool first_blank)
{
    for (size_t i = 0; i < v->count; i++) {
        if (i > 0 ? v->items[i].blank_before : first_blank) nsc_sb_putc(out, '\n');
        put_indent(out, indent);
        put_comment(out, src, v->items[i]);
        nsc_sb_putc(out, '\n');
    }
}

/* Whether the row prints a blank line between its first line and its code. */
static bool blank_inside(const row *r)
{
    for (size_t i = 1; i < r->leading.count; i++)
        if (r->leading.items[i].blank_before) return true;
    return r->blank_before_code;
}

static bool blank_before(const rows *rs, size_t i, bool top)
{
    const row *r = rs->items[i];
    if (i == 0) return false;
    if (!top || r->kind == R_COMMENTS) return r->blank_before;
    const row *p = rs->items[i - 1];
    bool grouped = (r->kind == R_IMPORT || r->kind == R_CONST) && p->kind == r->kind;
    return grouped ? r->blank_before : true;
}

static bool alignable(const row *r)
{
    return r->kind == R_FIELD || r->kind == R_VALUE || r->kind == R_CONST || r->kind == R_IMPORT;
}

/* A run: rows aligned together, of one kind, with no blank line between them. */
static size_t run_end(const rows *rs, size_t i, bool top)
{
    size_t j = i + 1;
    if (!alignable(rs->items[i])) return j;
    while (j < rs->count && rs->items[j]->kind == rs->items[i]->kind && !blank_before(rs, j, top) &&
           !blank_inside(rs->items[j]))
        j++;
    return j;
}

static size_t head_gap(const row *r, size_t head_col)
{
    if (!r->rest.len) return 0;
    return r->head.len <= ALIGN_CAP && head_col > r->head.len ? head_col - r->head.len + 1 : 1;
}

static void render_rows(nsc_strbuf *out, const char *src, const rows *rs, int indent, bool top);

/* The declaration on one line, when its source was and it fits: `enum Team { red, blue }`. */
static bool one_line(const row *r, int indent, nsc_strbuf *line)
{
    if (!r->one_line_src || r->trail.len || r->after.count) return false;
    nsc_sb_append(line, r->head.data, r->head.len);
    nsc_sb_puts(line, r->body.count ? " { " : " {");
    for (size_t i = 0; i < r->body.count; i++) {
        const row *b = r->body.items[i];
        if (b->kind == R_COMMENTS || b->trail.len || b->leading.count || b->after.count) return false;
        if (i) nsc_sb_puts(line, b->kind == R_VALUE ? ", " : " ");
        nsc_sb_append(line, b->head.data, b->head.len);
        if (b->rest.len) nsc_sb_putc(line, ' ');
        nsc_sb_append(line, b->rest.data, b->rest.len);
    }
    nsc_sb_puts(line, r->body.count ? " }" : "}");
    return (size_t)indent + line->len <= MAX_WIDTH;
}

static void render_code(nsc_strbuf *out, const char *src, const row *r, int indent, size_t head_col, size_t trail_col)
{
    size_t line_start = out->len;
    put_indent(out, indent);
    nsc_strbuf line = NSC_STRBUF_INIT;
    if (r->has_body && one_line(r, indent, &line)) {
        nsc_sb_append(out, line.data, line.len);
    } else if (r->has_body) {
        nsc_sb_append(out, r->head.data, r->head.len);
        nsc_sb_puts(out, " {");
        if (r->trail.len) nsc_sb_printf(out, " %s", r->trail.data);
        nsc_sb_putc(out, '\n');
        put_comments(out, src, &r->after, indent + INDENT, false);
        render_rows(out, src, &r->body, indent + INDENT, false);
        line_start = out->len;
        put_indent(out, indent);
        nsc_sb_putc(out, '}');
    } else {
        nsc_sb_append(out, r->head.data, r->head.len);
        for (size_t k = head_gap(r, head_col); k > 0; k--) nsc_sb_putc(out, ' ');
        nsc_sb_append(out, r->rest.data, r->rest.len);
        if (r->kind == R_VALUE) nsc_sb_putc(out, ',');
    }
    nsc_sb_free(&line);
    const nsc_strbuf *trail = r->has_body ? &r->close_trail : &r->trail;
    if (trail->len) {
        size_t width = out->len - line_start;
        for (size_t k = width < trail_col ? trail_col - width : 1; k > 0; k--) nsc_sb_putc(out, ' ');
        nsc_sb_append(out, trail->data, trail->len);
    }
    nsc_sb_putc(out, '\n');
    if (!r->has_body) put_comments(out, src, &r->after, indent, false);
}

/* The width of a row's code line, as render_code prints it without trailing comments. */
static size_t code_width(const row *r, int indent, size_t head_col)
{
    return (size_t)indent + r->head.len + head_gap(r, head_col) + r->rest.len + (r->kind == R_VALUE);
}

static void render_run(nsc_strbuf *out, const char *src, const rows *rs, size_t from, size_t to, int indent)
{
    size_t head_col = 0, trail_col = 0;
    for (size_t i = from; i < to; i++) {
        const row *r = rs->items[i];
        if (r->rest.len && r->head.len <= ALIGN_CAP && r->head.len > head_col) head_col = r->head.len;
    }
    for (size_t i = from; i < to && alignable(rs->items[from]); i++) {
        const row *r = rs->items[i];
        size_t w = code_width(r, indent, head_col) + 1;
        if (r->trail.len && w > trail_col) trail_col = w;
    }
    for (size_t i = from; i < to; i++) {
        const row *r = rs->items[i];
        put_comments(out, src, &r->leading, indent, false);
        if (r->leading.count && r->blank_before_code) nsc_sb_putc(out, '\n');
        if (r->kind != R_COMMENTS) render_code(out, src, r, indent, head_col, trail_col);
    }
}

static void render_rows(nsc_strbuf *out, const char *src, const rows *rs, int indent, bool top)
{
    for (size_t i = 0; i < rs->count;) {
        size_t j = run_end(rs, i, top);
        if (blank_before(rs, i, top)) nsc_sb_putc(out, '\n');
        render_run(out, src, rs, i, j, indent);
        i = j;
    }
}

/* Scans and parses a unit into its top-level rows; the caller frees tokens, rows and f. */
static void parse_unit(nsc_context *ctx, const nsc_unit *u, nsc_fmt_tokens *t, fmt *f, rows *top)
{
    nsc_fmt_scan(ctx, u, t);
    memset(f, 0, sizeof *f);
    f->src = u->src->text;
    f->t = t;
    memset(top, 0, sizeof *top);
    while (peek(f)->kind != END) parse_decl(f, top);
}

void nsc_format_unit(nsc_context *ctx, const nsc_unit *u, nsc_strbuf *out)
{
    nsc_fmt_tokens t;
    fmt f;
    rows top;
    parse_unit(ctx, u, &t, &f, &top);
    /* Comments after the last declaration. */
    row *end = new_row(&top, R_COMMENTS);
    eat(&f, end);
    if (!end->leading.count) {
        top.count--;
        free(end);
    }
    render_rows(out, f.src, &top, 0, true);
    free_rows(&top);
    free(f.pending.items);
    nsc_fmt_tokens_free(&t);
}

void nsc_format_decls(nsc_context *ctx, const nsc_unit *u, nsc_strbuf *texts)
{
    nsc_fmt_tokens t;
    fmt f;
    rows top;
    parse_unit(ctx, u, &t, &f, &top);
    /* A valid unit parses into one row per declaration, in order. */
    for (size_t i = 0; i < top.count && i < u->ndecls; i++) render_run(&texts[i], f.src, &top, i, i + 1, 0);
    free_rows(&top);
    free(f.pending.items);
    nsc_fmt_tokens_free(&t);
}

char *nsc_format(nsc_context *ctx, const nsc_unit *u, size_t *len)
{
    if (!ctx->checked || ctx->check_errors || u->parse_failed) return NULL;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_format_unit(ctx, u, &sb);
    nsc_sb_putc(&sb, '\0');
    if (len) *len = sb.len - 1;
    return sb.data;
}
