/* table_quant.c — the table mode's _quantize, _dequantize and _equal (netschema/table.h): one loop over a
 * record's value table (<pkg>_<T>_values, emitted beside its descriptor) doing per member what
 * the default mode's generated statements do (compiler/src/emit_c_values.c,
 * nsc_cg_quantize_value / nsc_cg_dequantize_value / nsc_cg_value_differs), with the same arithmetic: floats are widened
 * to double before the product, f32 fields dequantize in float with (float)(1/Q), so the bits
 * are the same in both modes (tests/e2e test_table_*). */
#include <string.h>

#include "netschema/codec.h"
#include "netschema/floats.h"
#include "netschema/quant.h"
#include "netschema/table.h"
#include "netschema/text.h"

#include "table_internal.h"
#include "walk_internal.h" /* load_int, store_int */

static float load_f32(const uint8_t *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* round(v · Q) as ns_quantize_range / ns_quantize_f64 compute it. */
static int32_t quantize_one(const ns_value_field *f, double v)
{
    return (f->flags & NS_VAL_RANGED) ? ns_quantize_range(v, f->scale, (int32_t)f->lo, (int32_t)f->hi)
                                      : ns_quantize_f64(v, f->scale);
}

static void store_q(uint8_t *p, const ns_value_field *f, int32_t q)
{
    store_int(p, f->snap_size, (uint64_t)(int64_t)q);
}

static int32_t load_q(const uint8_t *p, const ns_value_field *f)
{
    return (int32_t)load_int(p, f->snap_size, false);
}

static void quantize_fields(const ns_value_table *t, const uint8_t *value, uint8_t *snap)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const ns_value_field *f = &t->fields[i];
        const uint8_t *v = value + f->value_offset;
        uint8_t *s = snap + f->snap_offset;
        switch ((ns_value_kind)f->kind) {
        case NS_VAL_COPY:
            memcpy(s, v, f->value_size);
            break;
        case NS_VAL_INT: {
            uint64_t x = load_int(v, f->value_size, (f->flags & NS_VAL_SIGNED) == 0);
            /* As generated: ns_clamp_u64 for u64 only; everything narrower fits int64. */
            if (f->flags & NS_VAL_RANGED)
                x = (f->flags & NS_VAL_SIGNED) || f->value_size < 8
                        ? (uint64_t)ns_clamp_i64((int64_t)x, f->lo, f->hi)
                        : ns_clamp_u64(x, (uint64_t)f->lo, (uint64_t)f->hi);
            store_int(s, f->snap_size, x);
            break;
        }
        case NS_VAL_ENUM: {
            const uint64_t x = load_int(v, f->value_size, (f->flags & NS_VAL_SIGNED) == 0);
            store_int(s, f->snap_size, f->valid((int64_t)x) ? x : (uint64_t)f->lo);
            break;
        }
        case NS_VAL_QUANT:
            if (f->flags & NS_VAL_DOUBLE) {
                double d;
                memcpy(&d, v, sizeof d);
                store_q(s, f, quantize_one(f, d));
            } else {
                store_q(s, f, quantize_one(f, (double)load_f32(v)));
            }
            break;
        case NS_VAL_F32:
            store_int(s, 4, ns_f32_bits(load_f32(v)));
            break;
        case NS_VAL_F64:
            memcpy(s, v, 8); /* ns_f64_bits is the double's bit pattern */
            break;
        case NS_VAL_VEC_Q:
            for (uint32_t k = 0; k < f->arity; k++)
                store_q(s + k * f->snap_size, f, quantize_one(f, (double)load_f32(v + 4 * k)));
            break;
        case NS_VAL_VEC_F:
        case NS_VAL_QUAT_F:
            for (uint32_t k = 0; k < f->arity; k++) store_int(s + 4 * k, 4, ns_f32_bits(load_f32(v + 4 * k)));
            break;
        case NS_VAL_QUAT_Q: {
            ns_quat q;
            memcpy(&q, v, sizeof q);
            q = ns_quat_normalize(q);
            const float c[4] = {q.x, q.y, q.z, q.w};
            for (unsigned k = 0; k < 4; k++) store_q(s + k * f->snap_size, f, quantize_one(f, (double)c[k]));
            break;
        }
        case NS_VAL_QUAT_S3: {
            ns_quat q;
            memcpy(&q, v, sizeof q);
            const uint64_t packed = ns_smallest3_pack(q, f->arity);
            memcpy(s, &packed, sizeof packed);
            break;
        }
        case NS_VAL_STRING:
            ns_string_sanitize((char *)s, f->arity, (const char *)v, (size_t)f->arity + 1u);
            break;
        case NS_VAL_BYTES: {
            uint16_t len;
            memcpy(&len, v, sizeof len);
            if (len > f->arity) len = (uint16_t)f->arity;
            memcpy(s, &len, sizeof len);
            memcpy(s + offsetof(bytes_layout, data), v + offsetof(bytes_layout, data), len);
            break;
        }
        case NS_VAL_STRUCT:
            quantize_fields(f->sub, v, s);
            break;
        }
    }
}

void ns_table_quantize(const ns_value_table *t, const void *value, void *snap)
{
    memset(snap, 0, (size_t)t->snap_size);
    quantize_fields(t, (const uint8_t *)value, (uint8_t *)snap);
}

void ns__table_dequantize_field(const ns_value_field *f, const uint8_t *s, uint8_t *v)
{
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_COPY:
        memcpy(v, s, f->value_size);
        break;
    case NS_VAL_INT:
    case NS_VAL_ENUM: /* the snapshot's value converted to the value's C type */
        store_int(v, f->value_size, load_int(s, f->snap_size, (f->flags & NS_VAL_SNAP_SIGNED) == 0));
        break;
    case NS_VAL_QUANT:
        if (f->flags & NS_VAL_DOUBLE) {
            const double d = ns_dequantize_f64(load_q(s, f), f->inverse);
            memcpy(v, &d, sizeof d);
        } else {
            const float x = ns_dequantize_f32(load_q(s, f), (float)f->inverse);
            memcpy(v, &x, sizeof x);
        }
        break;
    case NS_VAL_F32:
    case NS_VAL_F64:
        memcpy(v, s, f->kind == NS_VAL_F32 ? 4u : 8u);
        break;
    case NS_VAL_VEC_Q:
        for (uint32_t k = 0; k < f->arity; k++) {
            const float x = ns_dequantize_f32(load_q(s + k * f->snap_size, f), (float)f->inverse);
            memcpy(v + 4 * k, &x, sizeof x);
        }
        break;
    case NS_VAL_VEC_F:
    case NS_VAL_QUAT_F:
        memcpy(v, s, 4u * f->arity);
        break;
    case NS_VAL_QUAT_Q: {
        ns_quat q;
        q.x = ns_dequantize_f32(load_q(s, f), (float)f->inverse);
        q.y = ns_dequantize_f32(load_q(s + f->snap_size, f), (float)f->inverse);
        q.z = ns_dequantize_f32(load_q(s + 2u * f->snap_size, f), (float)f->inverse);
        q.w = ns_dequantize_f32(load_q(s + 3u * f->snap_size, f), (float)f->inverse);
        q = ns_quat_normalize(q);
        memcpy(v, &q, sizeof q);
        break;
    }
    case NS_VAL_QUAT_S3: {
        uint64_t packed;
        memcpy(&packed, s, sizeof packed);
        const ns_quat q = ns_smallest3_unpack(packed, f->arity);
        memcpy(v, &q, sizeof q);
        break;
    }
    case NS_VAL_STRING:
        memcpy(v, s, (size_t)f->arity + 1u);
        break;
    case NS_VAL_BYTES:
        memcpy(v, s, offsetof(bytes_layout, data) + f->arity);
        break;
    case NS_VAL_STRUCT:
        ns_table_dequantize(f->sub, s, v);
        break;
    }
}

void ns_table_dequantize(const ns_value_table *t, const void *snap, void *value)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const ns_value_field *f = &t->fields[i];
        ns__table_dequantize_field(f, (const uint8_t *)snap + f->snap_offset, (uint8_t *)value + f->value_offset);
    }
}

size_t ns__table_value_bytes(const ns_value_field *f)
{
    switch ((ns_value_kind)f->kind) {
    case NS_VAL_QUANT: return (f->flags & NS_VAL_DOUBLE) ? 8u : 4u;
    case NS_VAL_F32: return 4u;
    case NS_VAL_F64: return 8u;
    case NS_VAL_VEC_Q:
    case NS_VAL_VEC_F:
    case NS_VAL_QUAT_F: return 4u * f->arity;
    case NS_VAL_QUAT_Q:
    case NS_VAL_QUAT_S3: return sizeof(ns_quat);
    default: return f->value_size;
    }
}

bool ns_table_equal(const ns_value_table *t, const void *a, const void *b)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const ns_value_field *f = &t->fields[i];
        const uint8_t *x = (const uint8_t *)a + f->value_offset, *y = (const uint8_t *)b + f->value_offset;
        switch ((ns_value_kind)f->kind) {
        case NS_VAL_STRING:
            if (strncmp((const char *)x, (const char *)y, (size_t)f->arity + 1u) != 0) return false;
            break;
        case NS_VAL_BYTES: {
            uint16_t lx, ly;
            memcpy(&lx, x, sizeof lx);
            memcpy(&ly, y, sizeof ly);
            const size_t n = lx < f->arity ? lx : f->arity;
            if (lx != ly || memcmp(x + offsetof(bytes_layout, data), y + offsetof(bytes_layout, data), n) != 0) return false;
            break;
        }
        case NS_VAL_STRUCT:
            if (!ns_table_equal(f->sub, x, y)) return false;
            break;
        default:
            if (memcmp(x, y, ns__table_value_bytes(f)) != 0) return false;
            break;
        }
    }
    return true;
}
