/* parser.y — the netschema grammar: a pure, reentrant bison parser that only builds the AST.
 *
 * Every semantic rule lives in the check pass; this file knows syntax only. Syntax errors are
 * reported by yyreport_syntax_error() in words ("expected ';' or an attribute, found '}'"), with
 * LAC so the expected list is exact. Recovery happens at two levels: a broken declaration is
 * skipped up to the next declaration keyword, a broken field up to the next field, so one run
 * reports several independent errors. Lists are collected in heap vectors while parsing (freed by
 * %destructor if recovery discards them) and copied into the arena when complete. */
%require "3.6"
%define api.pure full
%define api.prefix {nsc_yy}
%define api.location.type {nsc_loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {void *scanner}
%parse-param {struct nsc_parser *ps}

%code requires {
#include "ast.h"
#include "lexer.h"
#include "ptrvec.h"

/* What the parser needs besides the scanner. */
typedef struct nsc_parser {
    nsc_arena  *arena;
    nsc_diags  *diags;
    const char *text;        /* the source, to quote tokens in messages */
    nsc_ptrvec *decls;       /* every complete declaration, kept even if parsing aborts */
} nsc_parser;

/* A qualified name while it is read. A one-part name (nearly all of them) allocates nothing;
 * longer ones gather their parts in a heap array (freed by %destructor if recovery discards
 * them) that is copied into the arena once the name is complete. */
typedef struct nsc_name_parts {
    nsc_name   *items;    /* heap; NULL while there is one part */
    size_t      count, cap;
    nsc_name    first;
    const char *doc;      /* the first token's doc comment */
} nsc_name_parts;

/* A name or type with the doc comment before its first token: a field's doc comment comes
 * before its type, and only the field keeps it. */
typedef struct nsc_doc_qname {
    nsc_qname   name;
    const char *doc;
} nsc_doc_qname;
typedef struct nsc_doc_type {
    nsc_typeref *type;
    const char  *doc;
} nsc_doc_type;

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
    do {                                                                   \
        if (N) {                                                           \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                            \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                          \
            (Cur).end = YYRHSLOC(Rhs, N).end;                              \
        } else {                                                           \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                            \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                \
        }                                                                  \
    } while (0)
}

%code provides {
int nsc_yylex(NSC_YYSTYPE *lval, nsc_loc *lloc, void *scanner);
void nsc_yyerror(nsc_loc *loc, void *scanner, nsc_parser *ps, const char *msg);
}

%code {
#include <stdlib.h>
#include <string.h>

static nsc_name name_of(const nsc_token *t, nsc_loc loc)
{
    nsc_name n;
    n.text = t->text;
    n.loc = loc;
    return n;
}

static nsc_expr *new_expr(nsc_parser *ps, nsc_expr_kind kind, nsc_loc loc)
{
    nsc_expr *e = NSC_NEW(ps->arena, nsc_expr);
    e->kind = kind;
    e->loc = loc;
    return e;
}

static nsc_expr *binary(nsc_parser *ps, char op, nsc_expr *l, nsc_expr *r, nsc_loc loc)
{
    nsc_expr *e = new_expr(ps, NSC_EX_BINARY, loc);
    e->op = op;
    e->lhs = l;
    e->rhs = r;
    return e;
}

static nsc_doc_qname qname_finish(nsc_parser *ps, nsc_name_parts *parts, nsc_loc loc)
{
    nsc_doc_qname r;
    r.doc = parts->doc;
    r.name.loc = loc;
    r.name.count = (uint32_t)parts->count;
    if (!parts->items) {
        r.name.text = parts->first.text;
        r.name.parts = NULL;
        return r;
    }
    nsc_strbuf sb = NSC_STRBUF_INIT;
    for (size_t i = 0; i < parts->count; i++) {
        if (i) nsc_sb_putc(&sb, '.');
        nsc_sb_puts(&sb, parts->items[i].text);
    }
    r.name.text = nsc_arena_strdup(ps->arena, nsc_sb_str(&sb));
    r.name.parts = nsc_arena_memdup(ps->arena, parts->items, parts->count, sizeof *parts->items);
    nsc_sb_free(&sb);
    free(parts->items);
    return r;
}

static void add_part(nsc_name_parts *parts, nsc_name n)
{
    if (!parts->items) {
        parts->cap = 4;
        parts->items = nsc_xrealloc(NULL, parts->cap * sizeof *parts->items);
        parts->items[0] = parts->first;
    } else if (parts->count == parts->cap) {
        parts->cap *= 2;
        parts->items = nsc_xrealloc(parts->items, parts->cap * sizeof *parts->items);
    }
    parts->items[parts->count++] = n;
}

static nsc_typeref *new_typeref(nsc_parser *ps, const nsc_doc_qname *q, nsc_loc loc)
{
    nsc_typeref *t = NSC_NEW(ps->arena, nsc_typeref);
    t->name = q->name;
    t->loc = loc;
    return t;
}

static nsc_decl *new_decl(nsc_parser *ps, nsc_decl_kind kind, const nsc_token *kw, nsc_loc kw_loc, nsc_loc loc)
{
    nsc_decl *d = NSC_NEW(ps->arena, nsc_decl);
    d->kind = kind;
    d->kw_loc = kw_loc;
    d->loc = loc;
    d->doc = kw->doc;
    return d;
}

#define FINISH(vec, type, out, n) ((out) = (type **)nsc_ptrvec_finish((vec), ps->arena, &(n)))

/* Error recovery: after a broken field, enum value or declaration, bison stays quiet until three
 * tokens parse, which would hide the next error if it came right away. When the token that
 * stopped the parser clearly starts the next item, the parser is back in step and yyerrok lets
 * the next error be reported: a '}' or ',' that ends or separates items, or a name or keyword
 * that is the first token on its line (the usual shape of a missing ';'). A keyword in the
 * middle of a line (`component rpc {`) is not a fresh start, so it stays quiet. */
struct nsc_lexer *nsc_yyget_extra(void *scanner);
static bool first_on_line(const nsc_parser *ps, void *scanner, nsc_loc at)
{
    uint32_t prev = nsc_yyget_extra(scanner)->prev_end;
    if (prev >= at.start) return at.start == 0;
    for (uint32_t i = prev; i < at.start; i++)
        if (ps->text[i] == '\n') return true;
    return false;
}
/* Only tokens the parser accepts right after the recovery count, so a resync always makes
 * progress. */
#define RESYNC_FIELDS()                                                                           \
    do {                                                                                          \
        if (yychar == RBRACE || (yychar == IDENT && first_on_line(ps, scanner, yylloc))) yyerrok;  \
    } while (0)
#define RESYNC_ENUM()                                                                             \
    do {                                                                                          \
        if (yychar == COMMA || yychar == RBRACE) yyerrok;                                         \
    } while (0)
#define RESYNC_DECL()                                                                             \
    do {                                                                                          \
        if ((yychar == PACKAGE || yychar == IMPORT || yychar == CONST || yychar == ENUM ||        \
             yychar == STRUCT || yychar == COMPONENT || yychar == INPUT || yychar == RPC ||         \
             yychar == EXTERN || yychar == UNION) &&                                                                 \
            first_on_line(ps, scanner, yylloc))                                                   \
            yyerrok;                                                                              \
    } while (0)
}

%union {
    nsc_token     tok;
    nsc_expr     *expr;
    nsc_typeref  *type;
    nsc_typearg  *typearg;
    nsc_attr     *attr;
    nsc_field    *field;
    nsc_enum_value *enumval;
    nsc_decl     *decl;
    nsc_doc_type  dtype;
    nsc_doc_qname qname;
    nsc_name_parts parts;
    nsc_ptrvec   *list;
}

%destructor { nsc_ptrvec_free($$); } <list>
%destructor { free($$.items); } <parts>

%token END 0                "end of file"
%token <tok> PACKAGE        "'package'"
%token <tok> IMPORT         "'import'"
%token <tok> CONST          "'const'"
%token <tok> ENUM           "'enum'"
%token <tok> STRUCT         "'struct'"
%token <tok> COMPONENT      "'component'"
%token <tok> INPUT          "'input'"
%token <tok> RPC            "'rpc'"
%token <tok> EXTERN         "'extern'"
%token <tok> UNION          "'union'"
%token <tok> TRUE           "'true'"
%token <tok> FALSE          "'false'"
%token <tok> IDENT          "identifier"
%token <tok> INT            "integer"
%token <tok> FLOAT          "number"
%token <tok> STRING         "string"
%token <tok> LBRACE         "'{'"
%token <tok> RBRACE         "'}'"
%token <tok> LPAREN         "'('"
%token <tok> RPAREN         "')'"
%token <tok> LANGLE         "'<'"
%token <tok> RANGLE         "'>'"
%token <tok> COMMA          "','"
%token <tok> SEMI           "';'"
%token <tok> EQ             "'='"
%token <tok> COLON          "':'"
%token <tok> DOT            "'.'"
%token <tok> AT             "'@'"
%token <tok> LBRACKET       "'['"
%token <tok> RBRACKET       "']'"
%token <tok> MINUS          "'-'"
%token <tok> PLUS           "'+'"
%token <tok> STAR           "'*'"
%token <tok> SLASH          "'/'"
%token <tok> PERCENT        "'%'"

%left PLUS MINUS
%left STAR SLASH PERCENT
%precedence UNARY

%type <list>    fields enum_values enum_value_list attrs args type_args init_list
%type <decl>    decl package_decl import_decl const_decl enum_decl record_decl extern_decl union_decl
%type <tok>     record_kw_tok
%type <field>   field
%type <expr>    array_len
%type <enumval> enum_value
%type <attr>    attr
%type <dtype>   type
%type <type>    enum_base
%type <typearg> type_arg
%type <expr>    expr init arg
%type <qname>   qname
%type <parts>   qname_parts

%%

schema
    : decls
    ;

decls
    : %empty
    | decls decl                    { nsc_ptrvec_push(ps->decls, $2); }
    | decls error                   { RESYNC_DECL(); }
    ;

decl
    : package_decl
    | import_decl
    | const_decl
    | enum_decl
    | record_decl
    | extern_decl
    | union_decl
    ;

package_decl
    : PACKAGE qname SEMI            {
                                      $$ = new_decl(ps, NSC_D_PACKAGE, &$1, @1, @$);
                                      $$->package = $2.name;
                                    }
    ;

import_decl
    : IMPORT STRING SEMI            {
                                      $$ = new_decl(ps, NSC_D_IMPORT, &$1, @1, @$);
                                      $$->path = $2.text;
                                      $$->path_len = $2.len;
                                      $$->path_loc = @2;
                                    }
    ;

const_decl
    : CONST IDENT EQ expr SEMI      {
                                      $$ = new_decl(ps, NSC_D_CONST, &$1, @1, @$);
                                      $$->name = name_of(&$2, @2);
                                      $$->value = $4;
                                    }
    ;

enum_decl
    : ENUM IDENT enum_base attrs LBRACE enum_values RBRACE {
                                      $$ = new_decl(ps, NSC_D_ENUM, &$1, @1, @$);
                                      $$->name = name_of(&$2, @2);
                                      $$->underlying = $3;
                                      FINISH($4, nsc_attr, $$->attrs, $$->nattrs);
                                      FINISH($6, nsc_enum_value, $$->values, $$->nvalues);
                                    }
    ;

enum_base
    : %empty                        { $$ = NULL; }
    | COLON type                    { $$ = $2.type; }
    ;

enum_values
    : %empty                        { $$ = nsc_ptrvec_new(); }
    | enum_value_list
    | enum_value_list COMMA         { $$ = $1; }
    ;

enum_value_list
    : enum_value                    { $$ = nsc_ptrvec_new(); nsc_ptrvec_push($$, $1); }
    | enum_value_list COMMA enum_value { $$ = $1; nsc_ptrvec_push($$, $3); }
    | enum_value_list enum_value    {
                                      /* Accepted and reported, so the values on both sides survive. */
                                      if ($1->count) {
                                          nsc_enum_value *prev = (nsc_enum_value *)$1->items[$1->count - 1];
                                          nsc_error(ps->diags, "E-syntax", $2->name.loc,
                                                    "missing ',' between enum values '%s' and '%s'", prev->name.text,
                                                    $2->name.text);
                                      } else {
                                          nsc_error(ps->diags, "E-syntax", $2->name.loc, "missing ',' before enum value '%s'",
                                                    $2->name.text);
                                      }
                                      $$ = $1;
                                      nsc_ptrvec_push($$, $2);
                                    }
    | error                         { $$ = nsc_ptrvec_new(); RESYNC_ENUM(); }
    | enum_value_list error         { $$ = $1; RESYNC_ENUM(); }
    ;

enum_value
    : IDENT attrs                   {
                                      $$ = NSC_NEW(ps->arena, nsc_enum_value);
                                      $$->name = name_of(&$1, @1);
                                      $$->doc = $1.doc;
                                      FINISH($2, nsc_attr, $$->attrs, $$->nattrs);
                                    }
    | IDENT EQ expr attrs           {
                                      $$ = NSC_NEW(ps->arena, nsc_enum_value);
                                      $$->name = name_of(&$1, @1);
                                      $$->doc = $1.doc;
                                      $$->value = $3;
                                      FINISH($4, nsc_attr, $$->attrs, $$->nattrs);
                                    }
    ;

record_decl
    : record_kw_tok IDENT attrs LBRACE fields RBRACE {
                                      nsc_decl_kind k = $1.ival == 0 ? NSC_D_STRUCT : $1.ival == 1 ? NSC_D_COMPONENT
                                                      : $1.ival == 2 ? NSC_D_INPUT : NSC_D_RPC;
                                      $$ = new_decl(ps, k, &$1, @1, @$);
                                      $$->name = name_of(&$2, @2);
                                      FINISH($3, nsc_attr, $$->attrs, $$->nattrs);
                                      FINISH($5, nsc_field, $$->fields, $$->nfields);
                                    }
    ;

/* A custom type: the user writes its codec (idl/SPEC.md, "Custom types"). A body is parsed so
 * that the checker can point at it. */
extern_decl
    : EXTERN STRUCT IDENT attrs SEMI {
                                      $$ = new_decl(ps, NSC_D_EXTERN, &$1, @1, @$);
                                      $$->name = name_of(&$3, @3);
                                      FINISH($4, nsc_attr, $$->attrs, $$->nattrs);
                                    }
    | EXTERN STRUCT IDENT attrs LBRACE fields RBRACE {
                                      $$ = new_decl(ps, NSC_D_EXTERN, &$1, @1, @$);
                                      $$->name = name_of(&$3, @3);
                                      FINISH($4, nsc_attr, $$->attrs, $$->nattrs);
                                      nsc_ptrvec_free($6); /* the fields are not kept */
                                      nsc_error(ps->diags, "E-extern-body", @5, "an extern struct has no body: its codec is written by hand");
                                    }
    ;

/* A tagged union of structs (idl/SPEC.md, "Unions"): members are written like fields. */
union_decl
    : UNION IDENT attrs LBRACE fields RBRACE {
                                      $$ = new_decl(ps, NSC_D_UNION, &$1, @1, @$);
                                      $$->name = name_of(&$2, @2);
                                      FINISH($3, nsc_attr, $$->attrs, $$->nattrs);
                                      FINISH($5, nsc_field, $$->fields, $$->nfields);
                                    }
    ;

record_kw_tok
    : STRUCT                        { $$ = $1; $$.ival = 0; }
    | COMPONENT                     { $$ = $1; $$.ival = 1; }
    | INPUT                         { $$ = $1; $$.ival = 2; }
    | RPC                           { $$ = $1; $$.ival = 3; }
    ;

fields
    : %empty                        { $$ = nsc_ptrvec_new(); }
    | fields field                  { $$ = $1; nsc_ptrvec_push($$, $2); }
    | fields error                  { $$ = $1; RESYNC_FIELDS(); }
    | fields error SEMI             { $$ = $1; yyerrok; /* the broken field ended: report the next error */ }
    ;

field
    : type IDENT array_len attrs SEMI {
                                      $$ = NSC_NEW(ps->arena, nsc_field);
                                      $$->type = $1.type;
                                      $$->name = name_of(&$2, @2);
                                      $$->array_len = $3;
                                      $$->doc = $1.doc;
                                      $$->loc = @$;
                                      FINISH($4, nsc_attr, $$->attrs, $$->nattrs);
                                    }
    | type IDENT array_len EQ init attrs SEMI {
                                      $$ = NSC_NEW(ps->arena, nsc_field);
                                      $$->type = $1.type;
                                      $$->name = name_of(&$2, @2);
                                      $$->array_len = $3;
                                      $$->doc = $1.doc;
                                      $$->init = $5;
                                      $$->loc = @$;
                                      FINISH($6, nsc_attr, $$->attrs, $$->nattrs);
                                    }
    ;

/* A fixed array's length: `T name[N]` (idl/SPEC.md, "Fixed arrays"). */
array_len
    : %empty                        { $$ = NULL; }
    | LBRACKET expr RBRACKET        { $$ = $2; }
    ;

init
    : expr
    | LBRACE init_list RBRACE       {
                                      $$ = new_expr(ps, NSC_EX_LIST, @$);
                                      FINISH($2, nsc_expr, $$->items, $$->count);
                                    }
    | LBRACE init_list COMMA RBRACE {
                                      $$ = new_expr(ps, NSC_EX_LIST, @$);
                                      FINISH($2, nsc_expr, $$->items, $$->count);
                                    }
    | LBRACE RBRACE                 { $$ = new_expr(ps, NSC_EX_LIST, @$); }
    ;

init_list
    : init                          { $$ = nsc_ptrvec_new(); nsc_ptrvec_push($$, $1); }
    | init_list COMMA init          { $$ = $1; nsc_ptrvec_push($$, $3); }
    ;

attrs
    : %empty                        { $$ = nsc_ptrvec_new(); }
    | attrs attr                    { $$ = $1; nsc_ptrvec_push($$, $2); }
    ;

attr
    : AT IDENT                      {
                                      $$ = NSC_NEW(ps->arena, nsc_attr);
                                      $$->name = name_of(&$2, @2);
                                      $$->loc = @$;
                                    }
    | AT IDENT LPAREN RPAREN        {
                                      $$ = NSC_NEW(ps->arena, nsc_attr);
                                      $$->name = name_of(&$2, @2);
                                      $$->has_parens = true;
                                      $$->loc = @$;
                                    }
    | AT IDENT LPAREN args RPAREN   {
                                      $$ = NSC_NEW(ps->arena, nsc_attr);
                                      $$->name = name_of(&$2, @2);
                                      $$->has_parens = true;
                                      $$->loc = @$;
                                      FINISH($4, nsc_expr, $$->args, $$->argc);
                                    }
    ;

args
    : arg                           { $$ = nsc_ptrvec_new(); nsc_ptrvec_push($$, $1); }
    | args COMMA arg                { $$ = $1; nsc_ptrvec_push($$, $3); }
    ;

/* An attribute argument: a value, or a named one such as max_distance = 5. */
arg
    : expr                          { $$ = $1; }
    | IDENT EQ expr                 { $$ = $3; $$->key = name_of(&$1, @1); }
    ;

type
    : qname                         { $$.type = new_typeref(ps, &$1, @$); $$.doc = $1.doc; }
    | qname LANGLE type_args RANGLE {
                                      $$.type = new_typeref(ps, &$1, @$);
                                      $$.doc = $1.doc;
                                      $$.type->generic = true;
                                      size_t n;
                                      nsc_typearg **a;
                                      FINISH($3, nsc_typearg, a, n);
                                      $$.type->argc = (uint32_t)n;
                                      $$.type->args = NSC_NEW_ARRAY(ps->arena, nsc_typearg, n ? n : 1);
                                      for (size_t i = 0; i < n; i++) $$.type->args[i] = *a[i];
                                    }
    ;

type_args
    : type_arg                      { $$ = nsc_ptrvec_new(); nsc_ptrvec_push($$, $1); }
    | type_args COMMA type_arg      { $$ = $1; nsc_ptrvec_push($$, $3); }
    ;

type_arg
    : type                          { $$ = NSC_NEW(ps->arena, nsc_typearg); $$->type = $1.type; $$->loc = @$; }
    | INT                           {
                                      $$ = NSC_NEW(ps->arena, nsc_typearg);
                                      $$->expr = new_expr(ps, NSC_EX_INT, @1);
                                      $$->expr->ival = $1.ival;
                                      $$->expr->bad = $1.bad;
                                      $$->loc = @$;
                                    }
    | LPAREN expr RPAREN            { $$ = NSC_NEW(ps->arena, nsc_typearg); $$->expr = $2; $$->loc = @$; }
    ;

qname
    : qname_parts                   { $$ = qname_finish(ps, &$1, @$); }
    ;

qname_parts
    : IDENT                         {
                                      $$.items = NULL;
                                      $$.count = 1;
                                      $$.cap = 0;
                                      $$.first = name_of(&$1, @1);
                                      $$.doc = $1.doc;
                                    }
    | qname_parts DOT IDENT         { $$ = $1; add_part(&$$, name_of(&$3, @3)); }
    ;

expr
    : INT                           { $$ = new_expr(ps, NSC_EX_INT, @$); $$->ival = $1.ival; $$->bad = $1.bad; }
    | FLOAT                         { $$ = new_expr(ps, NSC_EX_FLOAT, @$); $$->fval = $1.fval; $$->bad = $1.bad; }
    | STRING                        {
                                      $$ = new_expr(ps, NSC_EX_STRING, @$);
                                      $$->str = $1.text;
                                      $$->str_len = $1.len;
                                      $$->bad = $1.bad;
                                    }
    | TRUE                          { $$ = new_expr(ps, NSC_EX_BOOL, @$); $$->bval = true; }
    | FALSE                         { $$ = new_expr(ps, NSC_EX_BOOL, @$); $$->bval = false; }
    | qname                         { $$ = new_expr(ps, NSC_EX_NAME, @$); $$->name = $1.name; }
    | LPAREN expr RPAREN            { $$ = $2; $$->loc = @$; }
    | MINUS expr %prec UNARY        { $$ = new_expr(ps, NSC_EX_NEG, @$); $$->lhs = $2; }
    | PLUS expr %prec UNARY         { $$ = $2; $$->loc = @$; }
    | expr PLUS expr                { $$ = binary(ps, '+', $1, $3, @$); }
    | expr MINUS expr               { $$ = binary(ps, '-', $1, $3, @$); }
    | expr STAR expr                { $$ = binary(ps, '*', $1, $3, @$); }
    | expr SLASH expr               { $$ = binary(ps, '/', $1, $3, @$); }
    | expr PERCENT expr             { $$ = binary(ps, '%', $1, $3, @$); }
    ;

%%

/* ---- syntax error messages ------------------------------------------------------------- */

/* How a token is named in a message: keywords and punctuation by their spelling, the rest by
 * what they are, with the text that was found. */
static void describe_found(nsc_parser *ps, yysymbol_kind_t kind, nsc_loc loc, nsc_strbuf *sb)
{
    size_t len = loc.end - loc.start;
    const char *text = ps->text + loc.start;
    switch (kind) {
    case YYSYMBOL_YYEOF:
        nsc_sb_puts(sb, "end of file");
        break;
    case YYSYMBOL_IDENT:
        nsc_sb_puts(sb, "identifier '");
        nsc_sb_printable(sb, text, len > 40 ? 40 : len);
        nsc_sb_puts(sb, len > 40 ? "...'" : "'");
        break;
    case YYSYMBOL_INT:
    case YYSYMBOL_FLOAT:
        nsc_sb_puts(sb, "number ");
        nsc_sb_printable(sb, text, len > 40 ? 40 : len);
        break;
    case YYSYMBOL_STRING:
        nsc_sb_puts(sb, "string ");
        nsc_sb_printable(sb, text, len > 40 ? 40 : len);
        if (len > 40) nsc_sb_puts(sb, "...");
        break;
    default:
        nsc_sb_puts(sb, yysymbol_name(kind));
    }
}

static bool is_declaration_keyword(yysymbol_kind_t k)
{
    return k == YYSYMBOL_PACKAGE || k == YYSYMBOL_IMPORT || k == YYSYMBOL_CONST || k == YYSYMBOL_ENUM ||
           k == YYSYMBOL_STRUCT || k == YYSYMBOL_COMPONENT || k == YYSYMBOL_INPUT || k == YYSYMBOL_RPC ||
           k == YYSYMBOL_EXTERN || k == YYSYMBOL_UNION;
}

/* Tokens that can start a value: where all of them are expected, the list says "a value". */
static bool starts_value(yysymbol_kind_t k)
{
    return k == YYSYMBOL_INT || k == YYSYMBOL_FLOAT || k == YYSYMBOL_STRING || k == YYSYMBOL_TRUE ||
           k == YYSYMBOL_FALSE || k == YYSYMBOL_IDENT || k == YYSYMBOL_LPAREN || k == YYSYMBOL_MINUS ||
           k == YYSYMBOL_PLUS;
}

/* Words for the expected tokens: the declaration keywords collapse into "a declaration", the
 * starts of an expression into "a value", and '@' reads as "an attribute"; identifiers come
 * first. */
static int describe_expected(const yysymbol_kind_t *exp, int n, nsc_strbuf *sb)
{
    const char *words[YYNTOKENS];
    int count = 0, decl_keywords = 0, value_starts = 0;
    for (int i = 0; i < n; i++) decl_keywords += is_declaration_keyword(exp[i]), value_starts += starts_value(exp[i]);
    bool value = value_starts == 9;
    if (value) words[count++] = "a value";
    for (int i = 0; i < n && !value; i++)
        if (exp[i] == YYSYMBOL_IDENT) words[count++] = "identifier";
    if (decl_keywords == 10) words[count++] = "a declaration";
    for (int i = 0; i < n; i++) {
        if (exp[i] == YYSYMBOL_IDENT || (decl_keywords == 10 && is_declaration_keyword(exp[i]))) continue;
        if (value && starts_value(exp[i])) continue;
        /* An array length after a field's name is optional and rarely the token that is missing. */
        if (exp[i] == YYSYMBOL_LBRACKET) continue;
        words[count++] = exp[i] == YYSYMBOL_AT ? "an attribute" : exp[i] == YYSYMBOL_LBRACE && value ? "'{'" : yysymbol_name(exp[i]);
    }
    for (int i = 0; i < count; i++) {
        if (i) nsc_sb_puts(sb, i + 1 == count ? " or " : ", ");
        nsc_sb_puts(sb, words[i]);
    }
    return count;
}

/* Newlines between offsets a and b. */
static unsigned line_breaks_between(const char *text, uint32_t a, uint32_t b)
{
    unsigned n = 0;
    for (uint32_t i = a; i < b; i++) n += text[i] == '\n';
    return n;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, nsc_parser *ps)
{
    enum { MAX_LISTED = 6 };
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    yysymbol_kind_t found = yypcontext_token(ctx);
    nsc_loc loc = *yypcontext_location(ctx);
    /* At the end of the file, point just after the last token rather than at an empty line. */
    if (found == YYSYMBOL_YYEOF) loc.start = loc.end = nsc_yyget_extra(scanner)->last_end;
    nsc_strbuf msg = NSC_STRBUF_INIT, what = NSC_STRBUF_INIT;
    describe_found(ps, found, loc, &what);
    nsc_strbuf list = NSC_STRBUF_INIT;
    int words = n > 0 ? describe_expected(expected, n, &list) : 0;
    bool wants_semi = false;
    for (int i = 0; i < n; i++) wants_semi |= expected[i] == YYSYMBOL_SEMI;
    /* A missing ';' at the end of a line is reported where it belongs, not at the next line. */
    uint32_t prev_end = nsc_yyget_extra(scanner)->prev_end;
    unsigned below = wants_semi && found != YYSYMBOL_YYEOF && prev_end < loc.start
                   ? line_breaks_between(ps->text, prev_end, loc.start) : 0;
    if (below > 0) {
        nsc_sb_printf(&msg, "expected %s after this, found %s ", words <= MAX_LISTED ? nsc_sb_str(&list) : "';'",
                      nsc_sb_str(&what));
        if (below == 1) nsc_sb_puts(&msg, "on the next line");
        else nsc_sb_printf(&msg, "%u lines below", below);
        loc.start = loc.end = prev_end;
    } else if (words > 0 && words <= MAX_LISTED) {
        nsc_sb_printf(&msg, "expected %s, found %s", nsc_sb_str(&list), nsc_sb_str(&what));
    } else {
        nsc_sb_printf(&msg, "unexpected %s", nsc_sb_str(&what));
    }
    /* A keyword where a name was expected: a '}' missing before a new declaration, or a keyword
     * used as a name. */
    bool wants_ident = false, wants_close = false, wants_attr = false, wants_decl = false;
    for (int i = 0; i < n; i++) {
        wants_ident |= expected[i] == YYSYMBOL_IDENT, wants_close |= expected[i] == YYSYMBOL_RBRACE;
        wants_attr |= expected[i] == YYSYMBOL_AT, wants_decl |= is_declaration_keyword(expected[i]);
    }
    /* The token before the one found: "}" then ";" is C's habit of ending a struct with ';'. */
    uint32_t before = nsc_yyget_extra(scanner)->prev_end;
    bool after_close = found != YYSYMBOL_YYEOF && before > 0 && ps->text[before - 1] == '}';
    if (found == YYSYMBOL_EQ && wants_attr && wants_semi)
        nsc_sb_puts(&msg, " (the default goes before the attributes: 'u8 hp = 100 @range(0, 100);')");
    else if (found == YYSYMBOL_SEMI && wants_decl && after_close)
        nsc_sb_puts(&msg, " (no ';' follows a declaration: its '}' ends it)");
    else if (wants_close && is_declaration_keyword(found) && first_on_line(ps, scanner, loc))
        nsc_sb_puts(&msg, " (is a '}' missing before it?)");
    else if (wants_ident && (is_declaration_keyword(found) || found == YYSYMBOL_TRUE || found == YYSYMBOL_FALSE))
        nsc_sb_printf(&msg, " (%s is a keyword and cannot be a name)", yysymbol_name(found));
    nsc_sb_free(&list);
    nsc_error(ps->diags, "E-syntax", loc, "%s", nsc_sb_str(&msg));
    nsc_sb_free(&msg);
    nsc_sb_free(&what);
    return 0;
}
