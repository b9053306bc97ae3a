/* types.c — built-in types, type spelling and exact integer arithmetic. */
#include "types.h"

#include <string.h>

static const struct { const char *name; nsc_type type; } builtins[] = {
    {"bool", {NSC_T_BOOL, 0, NULL, NULL, NULL}},   {"i8", {NSC_T_I8, 0, NULL, NULL, NULL}},
    {"u8", {NSC_T_U8, 0, NULL, NULL, NULL}},       {"i16", {NSC_T_I16, 0, NULL, NULL, NULL}},
    {"u16", {NSC_T_U16, 0, NULL, NULL, NULL}},     {"i32", {NSC_T_I32, 0, NULL, NULL, NULL}},
    {"u32", {NSC_T_U32, 0, NULL, NULL, NULL}},     {"i64", {NSC_T_I64, 0, NULL, NULL, NULL}},
    {"u64", {NSC_T_U64, 0, NULL, NULL, NULL}},     {"f32", {NSC_T_F32, 0, NULL, NULL, NULL}},
    {"f64", {NSC_T_F64, 0, NULL, NULL, NULL}},     {"vec2", {NSC_T_VEC2, 0, NULL, NULL, NULL}},
    {"vec3", {NSC_T_VEC3, 0, NULL, NULL, NULL}},   {"vec4", {NSC_T_VEC4, 0, NULL, NULL, NULL}},
    {"quat", {NSC_T_QUAT, 0, NULL, NULL, NULL}},   {"entity", {NSC_T_ENTITY, 0, NULL, NULL, NULL}},
};

static const struct { const char *name; unsigned arity; } generics[] = {
    {"string", 1}, {"bytes", 1}, {"list", 2}, {"map", 3}, {"set", 2}, {"fastarray", 2},
};

const nsc_type *nsc_builtin_type(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(builtins[i].name, name) == 0) return &builtins[i].type;
    return NULL;
}

unsigned nsc_generic_arity(const char *name)
{
    for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
        if (strcmp(generics[i].name, name) == 0) return generics[i].arity;
    return 0;
}

bool nsc_is_builtin_name(const char *name)
{
    return nsc_builtin_type(name) || nsc_generic_arity(name);
}

void nsc_type_spell(const nsc_type *t, nsc_strbuf *sb)
{
    switch (t->kind) {
    case NSC_T_ENUM:
    case NSC_T_STRUCT:
    case NSC_T_EXTERN:
    case NSC_T_UNION:
        nsc_sb_puts(sb, t->decl->name.text);
        return;
    case NSC_T_STRING:
    case NSC_T_BYTES:
        nsc_sb_printf(sb, "%s<%u>", t->kind == NSC_T_STRING ? "string" : "bytes", t->capacity);
        return;
    case NSC_T_LIST:
    case NSC_T_SET:
    case NSC_T_FASTARRAY:
        nsc_sb_puts(sb, t->kind == NSC_T_LIST ? "list<" : t->kind == NSC_T_SET ? "set<" : "fastarray<");
        nsc_type_spell(t->elem, sb);
        nsc_sb_printf(sb, ", %u>", t->capacity);
        return;
    case NSC_T_MAP:
        nsc_sb_puts(sb, "map<");
        nsc_type_spell(t->key, sb);
        nsc_sb_puts(sb, ", ");
        nsc_type_spell(t->elem, sb);
        nsc_sb_printf(sb, ", %u>", t->capacity);
        return;
    default:
        for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
            if (builtins[i].type.kind == t->kind) nsc_sb_puts(sb, builtins[i].name);
    }
}

bool nsc_type_is_integer(const nsc_type *t)
{
    return t->kind >= NSC_T_I8 && t->kind <= NSC_T_U64;
}

bool nsc_type_is_signed(const nsc_type *t)
{
    return t->kind == NSC_T_I8 || t->kind == NSC_T_I16 || t->kind == NSC_T_I32 || t->kind == NSC_T_I64;
}

bool nsc_type_is_float(const nsc_type *t)
{
    return t->kind == NSC_T_F32 || t->kind == NSC_T_F64;
}

bool nsc_type_is_vector(const nsc_type *t)
{
    return t->kind >= NSC_T_VEC2 && t->kind <= NSC_T_VEC4;
}

bool nsc_type_is_collection(const nsc_type *t)
{
    return t->kind >= NSC_T_LIST && t->kind <= NSC_T_FASTARRAY;
}

unsigned nsc_type_int_bits(const nsc_type *t)
{
    switch (t->kind) {
    case NSC_T_I8: case NSC_T_U8: return 8;
    case NSC_T_I16: case NSC_T_U16: return 16;
    case NSC_T_I32: case NSC_T_U32: case NSC_T_ENTITY: return 32;
    case NSC_T_I64: case NSC_T_U64: return 64;
    default: return 0;
    }
}

unsigned nsc_type_arity(const nsc_type *t)
{
    switch (t->kind) {
    case NSC_T_VEC2: return 2;
    case NSC_T_VEC3: return 3;
    case NSC_T_VEC4: case NSC_T_QUAT: return 4;
    default: return 1;
    }
}

/* ---- exact integers ------------------------------------------------------------------- */

nsc_int nsc_int_from_i64(int64_t v)
{
    nsc_int r;
    r.neg = v < 0;
    r.mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return r;
}

nsc_int nsc_int_from_u64(uint64_t v)
{
    nsc_int r = {false, v};
    return r;
}

static nsc_int norm(nsc_int a)
{
    if (a.mag == 0) a.neg = false;
    return a;
}

nsc_int nsc_int_neg(nsc_int a)
{
    a.neg = !a.neg;
    return norm(a);
}

bool nsc_int_add(nsc_int a, nsc_int b, nsc_int *out)
{
    if (a.neg == b.neg) {
        if (a.mag > UINT64_MAX - b.mag) return false;
        out->neg = a.neg;
        out->mag = a.mag + b.mag;
    } else if (a.mag >= b.mag) {
        out->neg = a.neg;
        out->mag = a.mag - b.mag;
    } else {
        out->neg = b.neg;
        out->mag = b.mag - a.mag;
    }
    *out = norm(*out);
    return true;
}

bool nsc_int_sub(nsc_int a, nsc_int b, nsc_int *out)
{
    return nsc_int_add(a, nsc_int_neg(b), out);
}

bool nsc_int_mul(nsc_int a, nsc_int b, nsc_int *out)
{
    if (a.mag != 0 && b.mag > UINT64_MAX / a.mag) return false;
    out->neg = a.neg != b.neg;
    out->mag = a.mag * b.mag;
    *out = norm(*out);
    return true;
}

bool nsc_int_div(nsc_int a, nsc_int b, nsc_int *out)
{
    if (b.mag == 0) return false;
    out->neg = a.neg != b.neg;
    out->mag = a.mag / b.mag;
    *out = norm(*out);
    return true;
}

bool nsc_int_mod(nsc_int a, nsc_int b, nsc_int *out)
{
    if (b.mag == 0) return false;
    out->neg = a.neg; /* the sign of the dividend, as in C */
    out->mag = a.mag % b.mag;
    *out = norm(*out);
    return true;
}

int nsc_int_cmp(nsc_int a, nsc_int b)
{
    a = norm(a);
    b = norm(b);
    if (a.neg != b.neg) return a.neg ? -1 : 1;
    if (a.mag == b.mag) return 0;
    return (a.mag < b.mag) != a.neg ? -1 : 1;
}

bool nsc_int_to_i64(nsc_int a, int64_t *out)
{
    if (!a.neg && a.mag > (uint64_t)INT64_MAX) return false;
    if (a.neg && a.mag > (uint64_t)INT64_MAX + 1u) return false;
    *out = a.neg ? (a.mag == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)a.mag) : (int64_t)a.mag;
    return true;
}

double nsc_int_to_double(nsc_int a)
{
    return a.neg ? -(double)a.mag : (double)a.mag;
}

void nsc_int_spell(nsc_int a, nsc_strbuf *sb)
{
    nsc_sb_printf(sb, "%s%llu", a.neg ? "-" : "", (unsigned long long)a.mag);
}

void nsc_type_int_range(const nsc_type *t, nsc_int *lo, nsc_int *hi)
{
    const nsc_type *base = t;
    if (t->kind == NSC_T_ENUM && t->decl && t->decl->underlying_type) base = t->decl->underlying_type;
    switch (base->kind) {
    case NSC_T_BOOL: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_i64(1); return;
    case NSC_T_I8: *lo = nsc_int_from_i64(INT8_MIN), *hi = nsc_int_from_i64(INT8_MAX); return;
    case NSC_T_U8: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_i64(UINT8_MAX); return;
    case NSC_T_I16: *lo = nsc_int_from_i64(INT16_MIN), *hi = nsc_int_from_i64(INT16_MAX); return;
    case NSC_T_U16: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_i64(UINT16_MAX); return;
    case NSC_T_I32: *lo = nsc_int_from_i64(INT32_MIN), *hi = nsc_int_from_i64(INT32_MAX); return;
    case NSC_T_U32: case NSC_T_ENTITY: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_i64(UINT32_MAX); return;
    case NSC_T_I64: *lo = nsc_int_from_i64(INT64_MIN), *hi = nsc_int_from_i64(INT64_MAX); return;
    case NSC_T_U64: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_u64(UINT64_MAX); return;
    default: *lo = nsc_int_from_i64(0), *hi = nsc_int_from_i64(0); return;
    }
}
