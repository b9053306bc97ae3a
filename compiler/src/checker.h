/* checker.h — the semantic pass, split by concern: names (check_names.c), constant expressions
 * (check_expr.c), types and declarations (check_types.c), attributes (check_attrs.c), defaults
 * (check_defaults.c) and generated C names (cnames.c). check.c runs them in order. */
#ifndef NSC_CHECKER_H
#define NSC_CHECKER_H

#include "context.h"
#include "types.h"

typedef struct nsc_checker {
    nsc_context *ctx;
    nsc_diags   *d;
    nsc_arena   *a;
    nsc_map      cnames;   /* generated C identifier → owner, for names whose fingerprint repeats */
    struct {               /* fingerprints of every generated C name (cnames.c) */
        uint32_t *items;
        size_t    count, cap;
        uint32_t *set;     /* then: the fingerprints that repeat (cnames.c, find_repeats) */
        unsigned char *used;
        size_t    set_mask;
        bool      sorted;  /* the first pass is over: report */
        bool      kept;    /* the map holds strings of the current declaration */
    } cname_fps;
    struct {               /* the unit's name prefixes when no reserved name starts with them */
        const char *lower, *upper; /* "<prefix>_" and "<PREFIX>_", or NULL */
        size_t      len;
    } unreserved;
} nsc_checker;

/* ---- limits (SPEC.md, "Limits") ---- */
#define NSC_MAX_FIELDS        255u
#define NSC_MAX_LIST          1024u
#define NSC_MAX_MAP           1024u
#define NSC_MAX_ARRAY         1024u   /* elements of a fixed array T name[N] */
#define NSC_MAX_FASTARRAY     65535u
#define NSC_MAX_STRING        4096u
#define NSC_MAX_ENUM_VALUES   65536u
#define NSC_MAX_TYPE_ID       65535u
#define NSC_MAX_EXTERN_BITS   4096u  /* @max_bits(N) of an extern struct */
#define NSC_MAX_UNION_MEMBERS 256u    /* members of a union: its tag fits a byte */
#define NSC_MAX_NESTING       8u      /* structs inside structs */
#define NSC_MAX_NAME_LENGTH   1000    /* characters in one identifier (C keeps string literals under 4095) */

/* ---- names: check_names.c ---- */
void      nsc_check_package(nsc_checker *c, nsc_unit *u);
void      nsc_collect_symbols(nsc_checker *c, nsc_unit *u);
/* Resolves a (possibly qualified) name to a top-level declaration visible in u: its own, or one
 * of a directly imported unit (bare when unambiguous, or qualified by package). Ambiguous names
 * are always reported; unknown ones when report is set. */
nsc_decl *nsc_lookup(nsc_checker *c, nsc_unit *u, const nsc_qname *q, bool report);
/* Resolves Enum.value (or pkg.Enum.value); NULL if q names no enum value. */
const nsc_enum_value *nsc_lookup_enum_value(nsc_checker *c, nsc_unit *u, const nsc_qname *q, nsc_decl **owner);
void      nsc_check_identifier(nsc_checker *c, nsc_name n, const char *what);
/* Why a C name is reserved (the runtime's prefixes, the C library's names, predefined macros),
 * or NULL if generated code may define it. */
const char *nsc_reserved_c_name(nsc_arena *a, const char *name);
/* False when no name nsc_reserved_c_name refuses can start with `prefix` (say "game_"): then
 * generated names that start with it need no lookup (cnames.c checks hundreds of thousands). */
bool nsc_reserved_c_prefix(const char *prefix);
/* An enum's values for a message: "red, blue", the first 12 then "... (300 in all)". */
const char *nsc_enum_value_list(nsc_checker *c, const nsc_decl *e);
void      nsc_check_field_name(nsc_checker *c, nsc_name n);
void      nsc_check_unused_imports(nsc_checker *c, nsc_unit *u);
/* "a" or "an" for a word as it is read aloud ("an i32", "a u16", "an enum", "an f32"). */
const char *nsc_article(const char *word);
/* A number the way a user would write it: 5000000, 0.25, 1e-07 (arena string). */
const char *nsc_number_text(nsc_checker *c, double v);
/* Suggests the closest of candidates to word (a likely typo), or NULL. */
const char *nsc_suggest(const char *word, const char *const *candidates, size_t n);

/* ---- constant expressions: check_expr.c ---- */
typedef enum nsc_value_kind {
    NSC_V_ERROR, NSC_V_INT, NSC_V_FLOAT, NSC_V_BOOL, NSC_V_STRING, NSC_V_ENUM, NSC_V_LIST
} nsc_value_kind;

typedef struct nsc_value {
    nsc_value_kind kind;
    nsc_int        i;
    double         f;
    bool           b;
    const char    *s;
    size_t         n;
    const nsc_enum_value *ev;
    const nsc_expr *expr;
} nsc_value;

/* Evaluates a constant expression: literals, constants, Enum.value, + - * / %. Errors are
 * reported and give NSC_V_ERROR. Bare names that are neither constants nor enum values are
 * reported as unknown. */
nsc_value nsc_eval(nsc_checker *c, nsc_unit *u, const nsc_expr *e);
/* An integer, or reports "expected an integer" and returns false. */
bool      nsc_eval_int(nsc_checker *c, nsc_unit *u, const nsc_expr *e, const char *what, nsc_int *out);
/* A number (integer or float) as double, or reports and returns false. */
bool      nsc_eval_number(nsc_checker *c, nsc_unit *u, const nsc_expr *e, const char *what, nsc_number *out);
void      nsc_resolve_const(nsc_checker *c, nsc_decl *d);

/* ---- types and declarations: check_types.c ---- */
void nsc_check_enum(nsc_checker *c, nsc_decl *d);
void nsc_resolve_record_types(nsc_checker *c, nsc_decl *d);
void nsc_check_containment(nsc_checker *c, nsc_decl *d);
void nsc_check_record(nsc_checker *c, nsc_decl *d);
/* The first field type of struct d, through its nested structs, for which match holds; NULL if
 * none (cyclic structs hold nothing: their error is reported on its own). */
const nsc_type *nsc_struct_holds(const nsc_decl *d, bool (*match)(const nsc_type *t));
void nsc_assign_type_ids(nsc_checker *c, nsc_unit *u);

/* ---- unions: check_unions.c ---- */
void nsc_check_union(nsc_checker *c, nsc_decl *d);

/* ---- attributes: check_attrs.c ---- */
void nsc_check_decl_attrs(nsc_checker *c, nsc_decl *d);
void nsc_check_field_attrs(nsc_checker *c, nsc_decl *owner, nsc_field *f);

/* ---- defaults: check_defaults.c ---- */
void nsc_check_default(nsc_checker *c, nsc_decl *owner, nsc_field *f);

/* ---- generated C names: cnames.c ---- */
/* First pass over every unit (reports nothing), then nsc_check_c_names on each unit reports
 * collisions and reserved names. */
void nsc_fingerprint_c_names(nsc_checker *c, nsc_unit *u);
void nsc_check_c_names(nsc_checker *c, nsc_unit *u);

#endif
