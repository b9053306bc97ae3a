/* types.h — semantic types (what a field's type resolved to) and the exact integers the checker
 * computes with. */
#ifndef NSC_TYPES_H
#define NSC_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "strbuf.h"

typedef enum nsc_type_kind {
    NSC_T_BOOL, NSC_T_I8, NSC_T_U8, NSC_T_I16, NSC_T_U16, NSC_T_I32, NSC_T_U32, NSC_T_I64, NSC_T_U64,
    NSC_T_F32, NSC_T_F64, NSC_T_VEC2, NSC_T_VEC3, NSC_T_VEC4, NSC_T_QUAT, NSC_T_ENTITY,
    NSC_T_ENUM, NSC_T_STRUCT, NSC_T_STRING, NSC_T_BYTES,
    NSC_T_LIST, NSC_T_MAP, NSC_T_SET, NSC_T_FASTARRAY,
    NSC_T_EXTERN,  /* an extern struct: the user's codec (decl->max_bits) */
    NSC_T_UNION    /* a union: a tag, then one member struct (decl->fields) */
} nsc_type_kind;

typedef struct nsc_type {
    nsc_type_kind          kind;
    uint32_t               capacity;  /* string, bytes and collections */
    const struct nsc_type *elem;      /* list, set and fastarray element; map value */
    const struct nsc_type *key;       /* map key */
    nsc_decl              *decl;      /* enum, struct, extern struct or union */
} nsc_type;

/* The built-in scalar type of that name (bool, u16, vec3, quat, entity, ...), or NULL. */
const nsc_type *nsc_builtin_type(const char *name);

/* Number of arguments of a built-in generic (string 1, bytes 1, list 2, map 3, set 2,
 * fastarray 2), or 0 if name is not one. */
unsigned nsc_generic_arity(const char *name);

/* True if name is a built-in type or generic name (reserved for user types). */
bool nsc_is_builtin_name(const char *name);

/* The type as written in a schema: "u16", "list<u32, 16>", "arena.Team". */
void nsc_type_spell(const nsc_type *t, nsc_strbuf *sb);

bool     nsc_type_is_integer(const nsc_type *t);   /* i8..u64 */
bool     nsc_type_is_signed(const nsc_type *t);
bool     nsc_type_is_float(const nsc_type *t);     /* f32, f64 */
bool     nsc_type_is_vector(const nsc_type *t);    /* vec2..vec4 */
bool     nsc_type_is_collection(const nsc_type *t);
unsigned nsc_type_int_bits(const nsc_type *t);     /* 8..64 for integers, 32 for entity */
unsigned nsc_type_arity(const nsc_type *t);        /* components of vectors (2..4) and quat (4), else 1 */

/* ---- exact integers: sign and 64-bit magnitude, so every i64 and u64 value fits ---------- */

typedef struct nsc_int {
    bool     neg;
    uint64_t mag;
} nsc_int;

nsc_int nsc_int_from_i64(int64_t v);
nsc_int nsc_int_from_u64(uint64_t v);
bool    nsc_int_add(nsc_int a, nsc_int b, nsc_int *out);   /* false on overflow */
bool    nsc_int_sub(nsc_int a, nsc_int b, nsc_int *out);
bool    nsc_int_mul(nsc_int a, nsc_int b, nsc_int *out);
bool    nsc_int_div(nsc_int a, nsc_int b, nsc_int *out);   /* truncating; false on overflow */
bool    nsc_int_mod(nsc_int a, nsc_int b, nsc_int *out);
nsc_int nsc_int_neg(nsc_int a);
int     nsc_int_cmp(nsc_int a, nsc_int b);
bool    nsc_int_to_i64(nsc_int a, int64_t *out);
double  nsc_int_to_double(nsc_int a);
void    nsc_int_spell(nsc_int a, nsc_strbuf *sb);

/* The values an integer type holds (entity: u32; enums: their underlying type). */
void nsc_type_int_range(const nsc_type *t, nsc_int *lo, nsc_int *hi);

#endif
