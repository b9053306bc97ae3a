/* cnames.h — the C identifiers a schema generates. The collision check and the emitters both
 * take names from here, so what is checked is exactly what is emitted. */
#ifndef NSC_CNAMES_H
#define NSC_CNAMES_H

#include "arena.h"
#include "ast.h"
#include "context.h"

/* "<prefix>_<Name>" for a declaration (types, enums). */
const char *nsc_cname(nsc_arena *a, const nsc_decl *d);
/* "<prefix>_<Name>_<suffix>". */
const char *nsc_cname_suffix(nsc_arena *a, const nsc_decl *d, const char *suffix);
/* "<PREFIX>_<NAME>_<SUFFIX>" (suffix may be NULL). */
const char *nsc_macro_name(nsc_arena *a, const nsc_decl *d, const char *suffix);
/* "<PREFIX>_<suffix>" for unit-wide macros such as SCHEMA_HASH. */
const char *nsc_unit_macro(nsc_arena *a, const nsc_unit *u, const char *suffix);
/* "<prefix>_<Enum>_<value>". */
const char *nsc_enum_value_cname(nsc_arena *a, const nsc_decl *e, const nsc_enum_value *v);
/* Upper-cases ASCII letters. */
char *nsc_upper(nsc_arena *a, const char *s);

/* The functions generated per record type and per collection field. */
extern const char *const nsc_record_suffixes[];
extern const size_t nsc_record_suffix_count;
/* The suffixes of the names generated for a collection field of type t (NULL-terminated). */
const char *const *nsc_collection_suffixes(const struct nsc_type *t);
/* "<prefix>_<Record>_<field>_<suffix>", or without "_<suffix>" when it is empty. */
const char *nsc_coll_name(nsc_arena *a, const nsc_decl *d, const nsc_field *f, const char *suffix);

#endif
