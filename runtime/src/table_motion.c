/* table_motion.c — the table mode's _interpolate, _prediction_error, _backup, _restore and
 * setters (netschema/table.h): one loop over a record's value table (<pkg>_<T>_values) doing per member
 * what the default mode's generated statements do (compiler/src/emit_c_smooth.c, lerp_field,
 * teleport_field; compiler/src/emit_c_predict.c, error_expr, backup; compiler/src/emit_c_setters.c,
 * setter), with the same functions of
 * netschema/interp.h and netschema/quant.h in the same order, so the floats come out bit for bit
 * the same in both modes (tests/e2e test_table_*). */
#include <string.h>

#include "netschema/floats.h"
#include "netschema/interp.h"
#include "netschema/quant.h"
#include "netschema/table.h"
#include "netschema/text.h"

#include "table_internal.h"
#include "walk_internal.h" /* load_int, store_int */

/* ---- what a snapshot member stands for ---- */

static float load_f32(const uint8_t *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

static double load_f64(const uint8_t *p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Component k of a snapshot vector as the float it stands for (the generated deq()). */
static float snap_component(const ns_value_field *f, const uint8_t *s, uint32_t k)
{
    if (f->kind == NS_VAL_VEC_Q || f->kind == NS_VAL_QUAT_Q)
        return ns_dequantize_f32((int32_t)load_int(s + k * f->snap_size, f->snap_size, false), (float)f->inverse);
    return ns_f32_from_bits((uint32_t)load_int(s + 4u * k, 4, true));
}

/* A scalar float member (NS_VAL_QUANT, NS_VAL_F32, NS_VAL_F64) as the float or double it stands
 * for; *is_f64 says which (the generated code computes in the value's type). */
static double snap_scalar(const ns_value_field *f, const uint8_t *s, bool *is_f64)
{
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_QUANT:
        *is_f64 = (f->flags & NS_VAL_DOUBLE) != 0;
        if (*is_f64) return ns_dequantize_f64((int32_t)load_int(s, f->snap_size, false), f->inverse);
        return (double)ns_dequantize_f32((int32_t)load_int(s, f->snap_size, false), (float)f->inverse);
    case NS_VAL_F64:
        *is_f64 = true;
        return ns_f64_from_bits(load_int(s, 8, true));
    default:
        *is_f64 = false;
        return (double)ns_f32_from_bits((uint32_t)load_int(s, 4, true));
    }
}

/* The rotation of a snapshot quaternion (the generated quat_of()). */
static ns_quat snap_quat(const ns_value_field *f, const uint8_t *s)
{
    if (f->kind == NS_VAL_QUAT_S3) return ns_smallest3_unpack(load_int(s, 8, true), f->arity);
    ns_quat q;
    q.x = snap_component(f, s, 0);
    q.y = snap_component(f, s, 1);
    q.z = snap_component(f, s, 2);
    q.w = snap_component(f, s, 3);
    return f->kind == NS_VAL_QUAT_Q ? ns_quat_normalize(q) : q;
}

/* An integer snapshot member as the int64_t the generated code casts it to. */
static int64_t snap_int(const ns_value_field *f, const uint8_t *s)
{
    return (int64_t)load_int(s, f->snap_size, (f->flags & NS_VAL_SNAP_SIGNED) == 0);
}

/* ---- _interpolate ---- */

/* How far member f moved from a to b (the generated distance()), for max_distance. */
static double distance(const ns_value_field *f, const uint8_t *a, const uint8_t *b)
{
    const bool wrap = f->motion && f->motion->wrap;
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_INT: {
        const bool uns = (f->flags & NS_VAL_SNAP_SIGNED) == 0;
        const double x = uns ? (double)load_int(a, f->snap_size, true) : (double)snap_int(f, a);
        const double y = uns ? (double)load_int(b, f->snap_size, true) : (double)snap_int(f, b);
        return wrap ? ns_distance_wrap(x, y, (double)f->lo, (double)f->hi) : ns_distance(x, y);
    }
    case NS_VAL_QUANT:
    case NS_VAL_F32:
    case NS_VAL_F64: {
        bool f64;
        const double x = snap_scalar(f, a, &f64), y = snap_scalar(f, b, &f64);
        return wrap ? ns_distance_wrap(x, y, f->motion->wrap_lo, f->motion->wrap_hi) : ns_distance(x, y);
    }
    case NS_VAL_VEC_Q:
    case NS_VAL_VEC_F: {
        float x[4], y[4];
        for (uint32_t k = 0; k < f->arity && k < 4; k++) x[k] = snap_component(f, a, k), y[k] = snap_component(f, b, k);
        return (double)ns_distance_vec(x, y, f->arity);
    }
    default: /* quaternions */
        return (double)ns_quat_angle(snap_quat(f, a), snap_quat(f, b));
    }
}

/* Blends member f from a to b at tt into the value member v (the generated lerp_field()). */
static void blend(const ns_value_field *f, const uint8_t *a, const uint8_t *b, float tt, uint8_t *v)
{
    const bool wrap = f->motion && f->motion->wrap;
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_INT: {
        const int64_t x = snap_int(f, a), y = snap_int(f, b);
        const int64_t r = wrap ? ns_lerp_wrap_int(x, y, tt, f->lo, f->hi) : ns_lerp_int(x, y, tt, f->lo, f->hi);
        /* (snap type)r, then converted to the value's type on assignment */
        uint8_t snap[8];
        store_int(snap, f->snap_size, (uint64_t)r);
        store_int(v, f->value_size, load_int(snap, f->snap_size, (f->flags & NS_VAL_SNAP_SIGNED) == 0));
        return;
    }
    case NS_VAL_QUANT:
    case NS_VAL_F32:
    case NS_VAL_F64: {
        bool f64;
        const double x = snap_scalar(f, a, &f64), y = snap_scalar(f, b, &f64);
        if (f64) {
            const double r = wrap ? ns_lerp_wrap_f64(x, y, tt, f->motion->wrap_lo, f->motion->wrap_hi) : ns_lerp_f64(x, y, tt);
            memcpy(v, &r, sizeof r);
        } else {
            const float r = wrap ? ns_lerp_wrap_f32((float)x, (float)y, tt, (float)f->motion->wrap_lo, (float)f->motion->wrap_hi)
                                 : ns_lerp_f32((float)x, (float)y, tt);
            memcpy(v, &r, sizeof r);
        }
        return;
    }
    case NS_VAL_VEC_Q:
    case NS_VAL_VEC_F:
        for (uint32_t k = 0; k < f->arity; k++) {
            const float r = ns_lerp_f32(snap_component(f, a, k), snap_component(f, b, k), tt);
            memcpy(v + 4u * k, &r, sizeof r);
        }
        return;
    default: { /* quaternions: the shortest arc */
        const ns_quat r = ns_quat_slerp(snap_quat(f, a), snap_quat(f, b), tt);
        memcpy(v, &r, sizeof r);
        return;
    }
    }
}

static void interpolate(const ns_value_table *t, const uint8_t *from, const uint8_t *to, float at, float ti, float te,
                        uint8_t *out)
{
    /* @smooth(clamp), values that cannot be blended and teleports: from until t reaches 1, then to. */
    const uint8_t *jump = at >= 1.0f ? to : from;
    for (uint32_t i = 0; i < t->count; i++) {
        const ns_value_field *f = &t->fields[i];
        const uint8_t *a = from + f->snap_offset, *b = to + f->snap_offset;
        uint8_t *v = out + f->value_offset;
        if (f->kind == NS_VAL_STRUCT) {
            interpolate(f->sub, a, b, at, ti, te, v);
        } else if (!(f->flags & (NS_VAL_INTERPOLATE | NS_VAL_EXTRAPOLATE)) ||
                   (f->motion && f->motion->max_distance > 0 && distance(f, a, b) > f->motion->max_distance)) {
            ns__table_dequantize_field(f, jump + f->snap_offset, v);
        } else {
            blend(f, a, b, (f->flags & NS_VAL_EXTRAPOLATE) ? te : ti, v);
        }
    }
}

void ns_table_interpolate(const ns_value_table *t, const void *from, const void *to, float at, float te, void *out)
{
    interpolate(t, (const uint8_t *)from, (const uint8_t *)to, at, ns_t_interpolate(at), te, (uint8_t *)out);
}

/* ---- _prediction_error ---- */

/* A numeric value member as the double the generated code casts it to. */
static double value_number(const ns_value_field *f, const uint8_t *p)
{
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_INT: {
        const uint64_t x = load_int(p, f->value_size, (f->flags & NS_VAL_SIGNED) == 0);
        return (f->flags & NS_VAL_SIGNED) ? (double)(int64_t)x : (double)x;
    }
    case NS_VAL_QUANT:
        return (f->flags & NS_VAL_DOUBLE) ? load_f64(p) : (double)load_f32(p);
    case NS_VAL_F64:
        return load_f64(p);
    default:
        return (double)load_f32(p);
    }
}

/* The error of one member (the generated error_expr()). */
static float member_error(const ns_value_field *f, const uint8_t *p, const uint8_t *a)
{
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_COPY: /* bools */
    case NS_VAL_ENUM:
        return memcmp(p, a, f->value_size) != 0 ? 1.0f : 0.0f;
    case NS_VAL_VEC_Q:
    case NS_VAL_VEC_F: {
        float x[4], y[4];
        memcpy(x, p, 4u * f->arity);
        memcpy(y, a, 4u * f->arity);
        return ns_distance_vec(x, y, f->arity);
    }
    case NS_VAL_QUAT_Q:
    case NS_VAL_QUAT_S3:
    case NS_VAL_QUAT_F: {
        ns_quat x, y;
        memcpy(&x, p, sizeof x);
        memcpy(&y, a, sizeof y);
        return ns_quat_angle(x, y);
    }
    default: {
        const double x = value_number(f, p), y = value_number(f, a);
        if (f->motion && f->motion->wrap) return (float)ns_distance_wrap(x, y, f->motion->wrap_lo, f->motion->wrap_hi);
        return (float)ns_distance(x, y);
    }
    }
}

/* Writes t's entries from out[0]; returns how many. */
static size_t prediction_error(const ns_value_table *t, const uint8_t *p, const uint8_t *a, float *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        const ns_value_field *f = &t->fields[i];
        if (!(f->flags & NS_VAL_ERROR)) continue;
        if (f->kind == NS_VAL_STRUCT)
            k += prediction_error(f->sub, p + f->value_offset, a + f->value_offset, out + k);
        else
            out[k++] = member_error(f, p + f->value_offset, a + f->value_offset);
    }
    return k;
}

void ns_table_prediction_error(const ns_value_table *t, const void *predicted, const void *authoritative, float *out)
{
    (void)prediction_error(t, (const uint8_t *)predicted, (const uint8_t *)authoritative, out);
}

/* ---- _backup and _restore ---- */

/* A run of adjacent predicted members goes in one copy, padding between them included, so that
 * every byte of `into` is what the default mode's NS_COPY_FIELDS leaves (test_table_stream). */
void ns_table_copy_predicted(const ns_value_table *t, const void *from, void *into)
{
    for (uint32_t i = 0; i < t->count;) {
        uint32_t end = i;
        while (end < t->count && (t->fields[end].flags & NS_VAL_PREDICTED)) end++;
        if (end > i) {
            const ns_value_field *a = &t->fields[i], *z = &t->fields[end - 1];
            memcpy((uint8_t *)into + a->snap_offset, (const uint8_t *)from + a->snap_offset,
                   z->snap_offset + z->snap_bytes - a->snap_offset);
        }
        i = end + (end == i);
    }
}

/* ---- setters ---- */

/* Sets dirty bit i of value v (its words at t->dirty_offset). */
static void mark_dirty(const ns_value_table *t, void *v, uint32_t i)
{
    uint8_t *word = (uint8_t *)v + t->dirty_offset + 4u * (i / 32u);
    uint32_t dirty;
    memcpy(&dirty, word, sizeof dirty);
    dirty |= UINT32_C(1) << (i % 32u);
    memcpy(word, &dirty, sizeof dirty);
}

void ns_table_set(const ns_value_table *t, uint32_t i, void *v, const void *src)
{
    const ns_value_field *f = &t->fields[i];
    uint8_t *member = (uint8_t *)v + f->value_offset;
    const size_t n = ns__table_value_bytes(f);
    if (memcmp(member, src, n) == 0) return; /* bitwise, so NaN and -0 count */
    memcpy(member, src, n);
    mark_dirty(t, v, i);
}

void ns_table_set_string(const ns_value_table *t, uint32_t i, void *v, const char *value)
{
    const ns_value_field *f = &t->fields[i];
    char *member = (char *)v + f->value_offset;
    const size_t len = strlen(value);
    if (ns_string_sanitize_equal(member, f->arity, value, len)) return;
    const size_t out = ns_string_sanitize(member, f->arity, value, len); /* value may be member */
    memset(member + out, 0, f->arity + 1u - out); /* what the member holds after the string: zeros */
    mark_dirty(t, v, i);
}

void ns_table_set_bytes(const ns_value_table *t, uint32_t i, void *v, const void *data, size_t len)
{
    const ns_value_field *f = &t->fields[i];
    uint8_t *member = (uint8_t *)v + f->value_offset;
    if (len > f->arity) len = f->arity;
    uint16_t have;
    memcpy(&have, member, sizeof have);
    uint8_t *bytes = member + offsetof(bytes_layout, data);
    if (have == len && memcmp(bytes, data, len) == 0) return;
    have = (uint16_t)len;
    memcpy(member, &have, sizeof have);
    memmove(bytes, data, len);
    mark_dirty(t, v, i);
}

void ns_table_set_struct(const ns_value_table *t, uint32_t i, void *v, const void *value, size_t size)
{
    const ns_value_field *f = &t->fields[i];
    uint8_t *member = (uint8_t *)v + f->value_offset;
    if (ns_table_equal(f->sub, member, value)) return;
    memmove(member, value, size);
    mark_dirty(t, v, i);
}
