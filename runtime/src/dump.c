/* dump.c — the descriptor-driven record walker (ns_walk_record) and the text dumps of snapshots
 * and records (netschema/dump.h, docs/dump.md). The walker mirrors the generated _read of
 * compiler/src/emit_c_codec.c slot by slot (docs/wire.md sections 2-8, 12): the same reference
 * (defaults, baseline 0 or the three-baseline prediction, clamped the same way), the same
 * runtime reader per encoding and the same checks, so it accepts and rejects exactly what the
 * generated code does (tests/dump checks both on every record of its schemas). Its integer
 * helpers, payload reader and prediction are shared with the table mode (walk_internal.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/codec.h>
#include <netschema/collections.h>
#include <netschema/dump.h>
#include <netschema/floats.h>
#include <netschema/predict.h>
#include <netschema/quant.h>
#include <netschema/text.h>
#include <netschema/types.h>

#include "dump_internal.h"
#include "walk_internal.h"

/* ---- payloads ------------------------------------------------------------------------------- */

static void read_int(ns_reader *r, const ns_field_desc *f, size_t size, uint8_t *dst, const uint8_t *ref)
{
    bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    int_fn fn = fn_of(f, size);
    bool check = narrower(f, fn);
    uint64_t rv = load_int(ref, size, uns), v;
    switch (fn) {
    case FN_I32: {
        int32_t x = (int32_t)rv;
        v = (uint64_t)(int64_t)(check ? ns_read_delta_i32_in(r, x, (int32_t)f->lo, (int32_t)f->hi)
                                      : ns_read_delta_i32(r, x, NULL));
        break;
    }
    case FN_U32: {
        uint32_t x = (uint32_t)rv;
        v = check ? ns_read_delta_u32_in(r, x, (uint32_t)f->lo, (uint32_t)f->hi) : ns_read_delta_u32(r, x, NULL);
        break;
    }
    case FN_I64: {
        int64_t x = (int64_t)rv;
        v = (uint64_t)(check ? ns_read_delta_i64_in(r, x, f->lo, f->hi) : ns_read_delta_i64(r, x, NULL));
        break;
    }
    default:
        v = check ? ns_read_delta_u64_in(r, rv, (uint64_t)f->lo, (uint64_t)f->hi) : ns_read_delta_u64(r, rv, NULL);
        break;
    }
    store_int(dst, size, v);
    if (f->enum_type && !enum_name(f->enum_type, (int64_t)load_int(dst, size, uns))) ns_reader_fail(r, NS_ERR_RANGE);
}

/* read_int for each element of a signed quantized vector or quaternion (4-byte elements, no
 * enum), with the slot's questions answered once instead of per element. */
static void read_i32s(ns_reader *r, const ns_field_desc *f, uint8_t *dst, const uint8_t *ref)
{
    const bool check = narrower(f, FN_I32);
    const int32_t lo = check ? (int32_t)f->lo : INT32_MIN, hi = check ? (int32_t)f->hi : INT32_MAX;
    for (unsigned k = 0; k < f->components; k++) {
        int32_t x;
        memcpy(&x, ref + 4 * k, 4);
        x = check ? ns_read_delta_i32_in(r, x, lo, hi) : ns_read_delta_i32(r, x, NULL);
        memcpy(dst + 4 * k, &x, 4);
    }
}

static void read_raw(ns_reader *r, const ns_field_desc *f, uint8_t *dst)
{
    bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    uint64_t v;
    if (f->snap_size == 8 && uns && !(f->flags & NS_FIELD_BOUNDED)) v = ns_read_raw_u64(r, f->bits, 0, UINT64_MAX);
    else v = (uint64_t)ns_read_raw_i64(r, f->bits, f->lo, f->hi);
    store_int(dst, f->snap_size, v);
    if (f->enum_type && !enum_name(f->enum_type, (int64_t)load_int(dst, f->snap_size, uns))) ns_reader_fail(r, NS_ERR_RANGE);
}

/* A union (docs/wire.md section 12.9): its tag, then the member's record against the
 * reference's member when the reference holds the same one, else against its defaults. The
 * members not named stay zero, as the generated code keeps them. */
static void read_union(ns_reader *r, const ns_field_desc *f, uint8_t *dst, const uint8_t *ref)
{
    const ns_type_desc *u = f->type;
    if (!u || u->field_count == 0) {
        ns_reader_fail(r, NS_ERR_ARGUMENT);
        return;
    }
    uint64_t tag = ns_read_raw(r, f->bits);
    if (tag >= u->field_count) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return;
    }
    const ns_field_desc *m = &u->fields[tag];
    if (!m->type || !m->type->snap_default) {
        ns_reader_fail(r, NS_ERR_ARGUMENT);
        return;
    }
    const uint8_t *mref = ref[0] == tag ? ref + m->snap_offset : (const uint8_t *)m->type->snap_default;
    /* dst and ref are never the same snapshot (ns__walk refuses out == ref), so clearing dst
     * first cannot clear the reference. */
    memset(dst, 0, f->snap_size);
    dst[0] = (uint8_t)tag;
    /* The member is a struct coded by its own _write: the walker reads it as any struct record. */
    const ns_status st = ns__walk(r, m->type, mref, NULL, NS_TO_OWNER, dst + m->snap_offset, NULL, NULL);
    if (st != NS_OK) ns_reader_fail(r, st);
}

void ns__read_payload(ns_reader *r, const ns_field_desc *f, uint8_t *dst, const uint8_t *ref, bool maskless)
{
    switch (f->encoding) {
    case NS_ENC_BOOL: {
        uint8_t b;
        memcpy(&b, ref, 1);
        bool v = maskless ? ns_read_bool(r) : !b;
        memcpy(dst, &v, sizeof v);
        return;
    }
    case NS_ENC_INT:
    case NS_ENC_INT64:
    case NS_ENC_QUANT:
        read_int(r, f, f->snap_size, dst, ref);
        return;
    case NS_ENC_RAW:
        read_raw(r, f, dst);
        return;
    case NS_ENC_FLOAT32: {
        uint32_t x;
        memcpy(&x, ref, 4);
        x = maskless ? ns_read_f32_delta(r, x) : ns_read_f32_xor(r, x);
        memcpy(dst, &x, 4);
        return;
    }
    case NS_ENC_FLOAT64: {
        uint64_t x;
        memcpy(&x, ref, 8);
        x = maskless ? ns_read_f64_delta(r, x) : ns_read_f64_xor(r, x);
        memcpy(dst, &x, 8);
        return;
    }
    case NS_ENC_VEC_Q:
    case NS_ENC_QUAT_Q:
        if (!(f->flags & NS_FIELD_UNSIGNED)) {
            read_i32s(r, f, dst, ref);
            return;
        }
        for (unsigned k = 0; k < f->components; k++) read_int(r, f, 4, dst + 4 * k, ref + 4 * k);
        return;
    case NS_ENC_VEC_F:
    case NS_ENC_QUAT_F:
        for (unsigned k = 0; k < f->components; k++) {
            uint32_t x;
            memcpy(&x, ref + 4 * k, 4);
            x = ns_read_f32_delta(r, x);
            memcpy(dst + 4 * k, &x, 4);
        }
        return;
    case NS_ENC_QUAT_S3:
        store_int(dst, f->snap_size, ns_read_smallest3_packed(r, f->bits));
        return;
    case NS_ENC_STRING:
        if (maskless && !ns_read_bool(r)) return;
        ns_read_string(r, (char *)dst, (const char *)ref, f->capacity);
        return;
    case NS_ENC_BYTES: {
        if (maskless && !ns_read_bool(r)) return;
        uint16_t ref_len, len;
        memcpy(&ref_len, ref, 2);
        len = (uint16_t)ns_read_text(r, dst + 2, f->capacity, ref + 2, ref_len);
        memcpy(dst, &len, 2);
        return;
    }
    case NS_ENC_COMPOSITE:
        for (uint32_t i = 0; f->type && i < f->type->field_count; i++) {
            const ns_field_desc *m = &f->type->fields[i];
            ns__read_payload(r, m, dst + m->snap_offset, ref + m->snap_offset, true);
        }
        return;
    case NS_ENC_LIST:
    case NS_ENC_MAP:
    case NS_ENC_SET:
    case NS_ENC_FASTARRAY:
        if (maskless && !ns_read_bool(r)) return;
        if (!f->coll) {
            ns_reader_fail(r, NS_ERR_ARGUMENT);
            return;
        }
        ns_coll_read(r, f->coll, dst, ref);
        return;
    case NS_ENC_ARRAY: /* a @composite fixed array: every element maskless, against ref's */
        if (!f->elem) {
            ns_reader_fail(r, NS_ERR_ARGUMENT);
            return;
        }
        for (uint32_t k = 0; k < f->capacity; k++)
            ns__read_payload(r, f->elem, dst + k * f->elem->snap_size, ref + k * f->elem->snap_size, true);
        return;
    case NS_ENC_CUSTOM: /* the user's bits: ns_walk_record refuses such records before reading */
        ns_reader_fail(r, NS_ERR_ARGUMENT);
        return;
    case NS_ENC_UNION: /* never maskless: unions are not members of composites */
        read_union(r, f, dst, ref);
        return;
    }
}

/* ---- the walker ----------------------------------------------------------------------------- */

/* The int32 element at p: load_int of a signed 4-byte slot, named for the fast paths below. */
static int32_t load_i32(const uint8_t *p)
{
    return (int32_t)load_int(p, 4, false);
}

/* What the fast path limits a signed slot of 4 bytes or fewer to: its bounds, which then lie
 * within int32 (narrower() is this, less the test whether they narrow anything). */
static void unit_bounds(const ns_field_desc *f, int32_t *lo, int32_t *hi)
{
    const bool bounded = (f->flags & NS_FIELD_BOUNDED) != 0;
    *lo = bounded ? (int32_t)f->lo : INT32_MIN;
    *hi = bounded ? (int32_t)f->hi : INT32_MAX;
}

/* The usual slot: n signed 32-bit elements (ranged ints, quantized floats, vectors, quaternions)
 * and evenly spaced ticks. The generated code's fast path, with its result; false when an element
 * is too large for it (ns_predict_wide), and then nothing is stored. Inlined for each n in
 * predict_unit_i32, so that its loops unroll. */
NS__HOT bool predict_unit_i32_n(const uint8_t *s0, const uint8_t *s1, const uint8_t *s2, unsigned n,
                                int32_t lo, int32_t hi, uint8_t *pred)
{
    uint32_t wide = 0;
    for (unsigned k = 0; k < n; k++)
        wide |= ns_predict_wide(load_i32(s0 + 4 * k)) | ns_predict_wide(load_i32(s1 + 4 * k)) |
                ns_predict_wide(load_i32(s2 + 4 * k));
    if (wide) return false;
    for (unsigned k = 0; k < n; k++) {
        const int32_t out = ns_predict_unit_i32_in(load_i32(s0 + 4 * k), load_i32(s1 + 4 * k), load_i32(s2 + 4 * k), lo, hi);
        memcpy(pred + 4 * k, &out, 4);
    }
    return true;
}

/* The fast path for a 1- or 2-byte integer slot, whose values are all small enough for it. */
static void predict_unit_small(const ns_field_desc *f, const ns_baselines *b, uint8_t *pred)
{
    const size_t size = f->snap_size, at = f->snap_offset;
    const bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    const int32_t v0 = (int32_t)load_int((const uint8_t *)b->snap[0] + at, size, uns),
                  v1 = (int32_t)load_int((const uint8_t *)b->snap[1] + at, size, uns),
                  v2 = (int32_t)load_int((const uint8_t *)b->snap[2] + at, size, uns);
    int32_t lo, hi;
    unit_bounds(f, &lo, &hi);
    const int32_t out = ns_predict_unit_i32_in(v0, v1, v2, lo, hi);
    store_int(pred, size, (uint64_t)(int64_t)out);
}

/* predict_unit_i32_n for slot f of n elements, limited to its bounds. */
static bool predict_unit_i32(const ns_field_desc *f, const ns_baselines *b, unsigned n, uint8_t *pred)
{
    const uint8_t *s0 = (const uint8_t *)b->snap[0] + f->snap_offset, *s1 = (const uint8_t *)b->snap[1] + f->snap_offset,
                  *s2 = (const uint8_t *)b->snap[2] + f->snap_offset;
    int32_t lo, hi;
    unit_bounds(f, &lo, &hi);
    switch (n) {
    case 1: return predict_unit_i32_n(s0, s1, s2, 1, lo, hi, pred);
    case 3: return predict_unit_i32_n(s0, s1, s2, 3, lo, hi, pred);
    case 4: return predict_unit_i32_n(s0, s1, s2, 4, lo, hi, pred);
    default: return predict_unit_i32_n(s0, s1, s2, n, lo, hi, pred);
    }
}

#if defined(__GNUC__) || defined(__clang__)
#  define NS__NOINLINE __attribute__((noinline))
#else
#  define NS__NOINLINE
#endif

/* ns__predict for any slot, ticks and values: apart, so that the usual slots' path stays small. */
static NS__NOINLINE void predict_any(const ns_field_desc *f, const ns_baselines *b, const ns_predictor *p, uint8_t *pred,
                                     unsigned n)
{
    bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    size_t size = f->snap_size / n;
    int_fn fn = fn_of(f, size);
    bool clamp = narrower(f, fn);
    for (unsigned k = 0; k < n; k++) {
        size_t at = f->snap_offset + k * size;
        uint64_t v[3];
        for (int i = 0; i < 3; i++) v[i] = load_int((const uint8_t *)b->snap[i] + at, size, uns);
        uint64_t out;
        switch (fn) {
        case FN_I32: {
            const int32_t a = (int32_t)v[0], b1 = (int32_t)v[1], b2 = (int32_t)v[2];
            if (ns_predictor_unit(p) && !(ns_predict_wide(a) | ns_predict_wide(b1) | ns_predict_wide(b2))) {
                /* Evenly spaced ticks and small values: the generated code's fast path, same result. */
                out = (uint64_t)(int64_t)ns_predict_unit_i32_in(a, b1, b2, clamp ? (int32_t)f->lo : INT32_MIN,
                                                                clamp ? (int32_t)f->hi : INT32_MAX);
                break;
            }
            int64_t x = ns_predict_i32(p, a, b1, b2);
            out = (uint64_t)(clamp ? ns_clamp_i64(x, f->lo, f->hi) : x);
            break;
        }
        case FN_U32: {
            int64_t x = ns_predict_u32(p, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
            out = (uint64_t)(clamp ? ns_clamp_i64(x, f->lo, f->hi) : x);
            break;
        }
        case FN_I64: {
            int64_t x = ns_predict_i64(p, (int64_t)v[0], (int64_t)v[1], (int64_t)v[2]);
            out = (uint64_t)(clamp ? ns_clamp_i64(x, f->lo, f->hi) : x);
            break;
        }
        default: {
            uint64_t x = ns_predict_u64(p, v[0], v[1], v[2]);
            out = clamp ? ns_clamp_u64(x, (uint64_t)f->lo, (uint64_t)f->hi) : x;
            break;
        }
        }
        store_int(pred + k * size, size, out);
    }
}

void ns__predict(const ns_field_desc *f, const ns_baselines *b, const ns_predictor *p, uint8_t *pred)
{
    const unsigned n = f->encoding == NS_ENC_VEC_Q || f->encoding == NS_ENC_QUAT_Q ? f->components : 1u;
    if (ns_predictor_unit(p)) {
        if (n == 1 && f->snap_size < 4) { /* u8, i8, u16, i16: never too large for the fast path */
            predict_unit_small(f, b, pred);
            return;
        }
        if (!(f->flags & NS_FIELD_UNSIGNED) && f->snap_size == 4 * n && predict_unit_i32(f, b, n, pred)) return;
    }
    predict_any(f, b, p, pred, n);
}

ns_status ns_walk_record(ns_reader *r, const ns_type_desc *t, const ns_baselines *base, ns_audience to, void *out_v,
                         ns_slot_fn fn, void *ctx)
{
    if (!r || !t || !t->snap_default) return NS_ERR_ARGUMENT;
    if (ns_baselines_check(base) != NS_OK) return NS_ERR_BASELINE;
    uint32_t n = ns_baselines_count(base);
    const uint8_t *ref = n && t->kind != NS_KIND_RPC ? (const uint8_t *)base->snap[0] : (const uint8_t *)t->snap_default;
    return ns__walk(r, t, ref, base, to, out_v, fn, ctx);
}

ns_status ns__walk(ns_reader *r, const ns_type_desc *t, const void *ref_v, const ns_baselines *base, ns_audience to,
                   void *out_v, ns_slot_fn fn, void *ctx)
{
    /* An extern struct's bits are its user's codec: no descriptor can decode them, so a record
     * holding one is refused whole, before any bit is read. */
    for (uint32_t i = 0; i < t->field_count; i++)
        if (t->fields[i].encoding == NS_ENC_CUSTOM) return NS_ERR_ARGUMENT;
    uint32_t n = ns_baselines_count(base);
    const uint8_t *ref = (const uint8_t *)ref_v;
    bool comp = t->kind == NS_KIND_COMPONENT, predicting = comp && n == 3;
    uint8_t *out = (uint8_t *)out_v, *scratch = NULL;
    if ((const uint8_t *)out == ref) return NS_ERR_ARGUMENT; /* collections decode from ref into out */
    if (!out) {
        out = scratch = (uint8_t *)malloc(t->snap_size ? t->snap_size : 1);
        if (!scratch) return NS_ERR_NOMEM;
    }
    memcpy(out, ref, t->snap_size);
    ns_predictor p;
    if (predicting) ns_predictor_init(&p, base->tick[0], base->tick[1], base->tick[2], base->tick_now);
    unsigned sent = 0;
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        sent += slot_sent(t, f, to, n == 0);
        if (predicting && (f->flags & NS_FIELD_PREDICTED)) {
            if (f->snap_size > NS__PRED_MAX) {
                free(scratch);
                return NS_ERR_ARGUMENT;
            }
            ns__predict(f, base, &p, out + f->snap_offset);
        }
    }
    bool any = sent == 1;
    if (sent > 1) {
        any = ns_read_bool(r);
        ns_slot_info info = {NS_SLOT_ANY, true, any, 1};
        if (fn && !ns_reader_failed(r)) fn(ctx, t, &info);
    }
    for (uint32_t i = 0; i < t->field_count && !ns_reader_failed(r); i++) {
        const ns_field_desc *f = &t->fields[i];
        ns_slot_info info = {i, any && slot_sent(t, f, to, n == 0), false, 0};
        if (info.sent) {
            size_t start = ns_reader_bits(r);
            info.changed = ns_read_bool(r);
            if (info.changed) {
                uint8_t pred[NS__PRED_MAX];
                const uint8_t *sref = ref + f->snap_offset;
                if (predicting && (f->flags & NS_FIELD_PREDICTED)) {
                    memcpy(pred, out + f->snap_offset, f->snap_size); /* the prediction stored above */
                    sref = pred;
                }
                ns__read_payload(r, f, out + f->snap_offset, sref, false);
            }
            info.bits = (uint32_t)(ns_reader_bits(r) - start);
        }
        if (fn) fn(ctx, t, &info);
    }
    free(scratch);
    return ns_reader_status(r);
}

/* ---- printing values ------------------------------------------------------------------------ */

static void print_string(FILE *out, const uint8_t *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c == '\n') fputs("\\n", out);
        else if (c < 0x20 || c == 0x7f) fprintf(out, "\\x%02x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

static float f32_at(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return ns_f32_from_bits(x);
}

static void print_int(FILE *out, const ns_field_desc *f, const uint8_t *p, size_t size)
{
    bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    uint64_t v = load_int(p, size, uns);
    const char *name = f->enum_type ? enum_name(f->enum_type, (int64_t)v) : NULL;
    if (name) fputs(name, out);
    else if (uns) fprintf(out, "%" PRIu64, v);
    else fprintf(out, "%" PRId64, (int64_t)v);
}

static void print_fields(FILE *out, const ns_field_desc *fields, uint32_t n, size_t skip, const uint8_t *snap);
static void print_value(FILE *out, const ns_field_desc *f, const uint8_t *p);

/* A struct element of a collection (or a composite member): `Type { … }`. */
static void print_struct(FILE *out, const ns_type_desc *t, const uint8_t *p)
{
    ns_dump_snapshot(out, t, p);
}

static void print_key(FILE *out, const ns_key_type *k, const uint8_t *p)
{
    if (ns_key_is_text(k)) { /* a string key: its bytes up to the NUL, at most max */
        print_string(out, p, ns_strnlen((const char *)p, (size_t)k->max));
        return;
    }
    uint64_t ordered = ns_key_load(k, p);
    if (k->is_signed) fprintf(out, "%" PRId64, (int64_t)(ordered ^ UINT64_C(0x8000000000000000)));
    else fprintf(out, "%" PRIu64, ordered);
}

static void print_collection(FILE *out, const ns_field_desc *f, const uint8_t *p)
{
    const ns_coll_ops *ops = f->coll;
    uint16_t count;
    memcpy(&count, p, 2);
    if (!ops || count > ops->capacity) {
        fprintf(out, "<%u entries>", count);
        return;
    }
    const uint8_t *items = p + ops->items;
    switch (ops->kind) {
    case NS_COLL_LIST:
        if (!f->type && !f->elem) {
            fprintf(out, "[%u entries]", count);
            return;
        }
        fputc('[', out);
        for (uint32_t i = 0; i < count; i++) {
            fputs(i ? ", " : "", out);
            if (f->type) print_struct(out, f->type, items + i * ops->stride);
            else print_value(out, f->elem, items + i * ops->stride);
        }
        fputc(']', out);
        return;
    case NS_COLL_SET:
    case NS_COLL_MAP:
        fputc('{', out);
        for (uint32_t i = 0; i < count; i++) {
            fputs(i ? ", " : "", out);
            print_key(out, &ops->key, items + i * ops->stride);
            if (ops->kind != NS_COLL_MAP) continue;
            fputs(": ", out);
            const uint8_t *value = p + ops->values + i * ops->value_stride;
            if (f->type) print_struct(out, f->type, value);
            else if (f->elem) print_value(out, f->elem, value);
            else fputs("?", out);
        }
        fputc('}', out);
        return;
    case NS_COLL_FASTARRAY:
        fputc('[', out);
        for (uint32_t k = 0; k < count; k++) {
            uint32_t i = k;
            if (ops->order) { /* @ordered: the sender's order */
                uint16_t o;
                memcpy(&o, p + ops->order + 2u * k, 2);
                i = o < count ? o : k;
            }
            const uint8_t *item = items + i * ops->stride;
            uint32_t id;
            memcpy(&id, item, 4);
            fprintf(out, "%s#%" PRIu32, k ? ", " : "", id);
            if (f->type) {
                fputc(' ', out);
                print_struct(out, f->type, item + ops->item_value);
            }
        }
        fputc(']', out);
        return;
    }
}

static void print_value(FILE *out, const ns_field_desc *f, const uint8_t *p)
{
    switch (f->encoding) {
    case NS_ENC_BOOL:
        fputs(*p ? "true" : "false", out);
        return;
    case NS_ENC_INT:
    case NS_ENC_INT64:
    case NS_ENC_RAW:
        print_int(out, f, p, f->snap_size);
        return;
    case NS_ENC_QUANT: {
        int32_t q;
        memcpy(&q, p, 4);
        fprintf(out, "%g", f->scale != 0 ? q / f->scale : (double)q);
        return;
    }
    case NS_ENC_FLOAT32:
        fprintf(out, "%g", (double)f32_at(p));
        return;
    case NS_ENC_FLOAT64: {
        uint64_t x;
        memcpy(&x, p, 8);
        fprintf(out, "%g", ns_f64_from_bits(x));
        return;
    }
    case NS_ENC_VEC_Q:
    case NS_ENC_QUAT_Q:
    case NS_ENC_VEC_F:
    case NS_ENC_QUAT_F:
        fputc('(', out);
        for (unsigned k = 0; k < f->components; k++) {
            double v;
            if (f->encoding == NS_ENC_VEC_Q || f->encoding == NS_ENC_QUAT_Q) {
                int32_t q;
                memcpy(&q, p + 4 * k, 4);
                v = f->scale != 0 ? q / f->scale : (double)q;
            } else {
                v = (double)f32_at(p + 4 * k);
            }
            fprintf(out, "%s%g", k ? ", " : "", v);
        }
        fputc(')', out);
        return;
    case NS_ENC_QUAT_S3: {
        ns_quat q = ns_smallest3_unpack(load_int(p, f->snap_size, true), f->bits);
        fprintf(out, "(%g, %g, %g, %g)", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
        return;
    }
    case NS_ENC_STRING:
        print_string(out, p, ns_strnlen((const char *)p, f->capacity));
        return;
    case NS_ENC_BYTES: {
        uint16_t len;
        memcpy(&len, p, 2);
        if (len > f->capacity) len = (uint16_t)f->capacity;
        fputc('<', out);
        for (uint16_t i = 0; i < len; i++) fprintf(out, "%s%02x", i ? " " : "", p[2 + i]);
        fputc('>', out);
        return;
    }
    case NS_ENC_COMPOSITE:
        if (f->type) print_struct(out, f->type, p);
        return;
    case NS_ENC_CUSTOM: /* the user's type: only its name is known */
        fprintf(out, "<extern %s>", f->type ? f->type->name : "?");
        return;
    case NS_ENC_UNION: /* `member Type { … }` */
        if (!f->type || p[0] >= f->type->field_count || !f->type->fields[p[0]].type) {
            fprintf(out, "<tag %u>", p[0]);
            return;
        }
        fprintf(out, "%s ", f->type->fields[p[0]].path);
        print_struct(out, f->type->fields[p[0]].type, p + f->type->fields[p[0]].snap_offset);
        return;
    case NS_ENC_LIST:
    case NS_ENC_MAP:
    case NS_ENC_SET:
    case NS_ENC_FASTARRAY:
        print_collection(out, f, p);
        return;
    case NS_ENC_ARRAY:
        fputc('[', out);
        for (uint32_t k = 0; f->elem && k < f->capacity; k++) {
            fputs(k ? ", " : "", out);
            print_value(out, f->elem, p + k * f->elem->snap_size);
        }
        fputc(']', out);
        return;
    }
}

/* Prints fields[0..n) of snap as `name: value, …`, gathering flattened members that share a
 * path prefix back into `name: { … }`; `skip` characters of each path are already printed. */
static void print_fields(FILE *out, const ns_field_desc *fields, uint32_t n, size_t skip, const uint8_t *snap)
{
    for (uint32_t i = 0; i < n;) {
        const char *path = fields[i].path + skip;
        const char *dot = strchr(path, '.');
        fputs(i ? ", " : "", out);
        if (!dot) {
            fprintf(out, "%s: ", path);
            print_value(out, &fields[i], snap + fields[i].snap_offset);
            i++;
            continue;
        }
        size_t len = (size_t)(dot - path) + 1; /* "box." */
        uint32_t j = i;
        while (j < n && strncmp(fields[j].path + skip, path, len) == 0) j++;
        fprintf(out, "%.*s: { ", (int)(len - 1), path);
        print_fields(out, fields + i, j - i, skip + len, snap);
        fputs(" }", out);
        i = j;
    }
}

void ns_dump_snapshot(FILE *out, const ns_type_desc *t, const void *snap)
{
    if (!t->field_count) {
        fprintf(out, "%s {}", t->name);
        return;
    }
    fprintf(out, "%s { ", t->name);
    print_fields(out, t->fields, t->field_count, 0, (const uint8_t *)snap);
    fputs(" }", out);
}

/* ---- dumping records ------------------------------------------------------------------------ */

typedef struct collect {
    ns_slot_info *slots; /* field_count + 1 */
    uint32_t      n;
} collect;

static void collect_slot(void *ctx, const ns_type_desc *t, const ns_slot_info *s)
{
    collect *c = (collect *)ctx;
    if (c->n <= t->field_count) c->slots[c->n++] = *s;
}

static void print_against(FILE *out, const ns_type_desc *t, const ns_baselines *base, ns_audience to)
{
    uint32_t n = ns_baselines_count(base);
    if (t->kind == NS_KIND_RPC || n == 0) fputs("against the defaults", out);
    else if (t->kind == NS_KIND_INPUT) fputs("against the previous input", out);
    else if (t->kind != NS_KIND_COMPONENT) fputs("against a reference", out);
    else {
        fprintf(out, "against baseline%s", n > 1 ? "s" : "");
        for (uint32_t i = 0; i < n; i++) fprintf(out, "%s tick %" PRIu32, i ? "," : "", base->tick[i]);
        if (n == 3) fprintf(out, " (predicting tick %" PRIu32 ")", base->tick_now);
    }
    if (t->kind == NS_KIND_COMPONENT) {
        fputs(to & NS_TO_OWNER ? ", for the owner" : ", for an observer", out);
        if (to & (NS_TO_PREDICTED | NS_TO_CUSTOM)) /* only schemas with @sync(predicted/interpolated/custom) */
            fprintf(out, " (%s%s%s)", to & NS_TO_PREDICTED ? "predicting" : "",
                    (to & NS_TO_PREDICTED) && (to & NS_TO_CUSTOM) ? ", " : "", to & NS_TO_CUSTOM ? "custom" : "");
    }
}

ns_status ns__dump_record(FILE *out, int indent, const ns_type_desc *t, ns_reader *r, const ns_baselines *base,
                          ns_audience to)
{
    if (!out || !t || !r) return NS_ERR_ARGUMENT;
    collect c = {(ns_slot_info *)calloc(t->field_count + 1u, sizeof(ns_slot_info)), 0};
    uint8_t *snap = (uint8_t *)malloc(t->snap_size ? t->snap_size : 1);
    if (!c.slots || !snap) {
        free(c.slots);
        free(snap);
        return NS_ERR_NOMEM;
    }
    size_t start = ns_reader_bits(r);
    ns_status st = ns_walk_record(r, t, base, to, snap, collect_slot, &c);
    size_t bits = ns_reader_bits(r) - start;
    fprintf(out, "%*s%s: ", indent, "", t->name);
    if (st == NS_OK) fprintf(out, "%zu bit%s ", bits, bits == 1 ? "" : "s");
    print_against(out, t, base, to);
    fputc('\n', out);
    for (uint32_t i = 0; i < c.n; i++) {
        const ns_slot_info *s = &c.slots[i];
        if (s->slot == NS_SLOT_ANY) {
            fprintf(out, "%*s  %5" PRIu32 "  (any: %s)\n", indent, "", s->bits, s->changed ? "something changed" : "nothing changed");
            continue;
        }
        const ns_field_desc *f = &t->fields[s->slot];
        bool failed_here = st != NS_OK && i + 1 == c.n; /* a failed read drops its position */
        if (failed_here) fprintf(out, "%*s  %5s  %s = ?", indent, "", "?", f->path);
        else if (s->sent) fprintf(out, "%*s  %5" PRIu32 "  %s = ", indent, "", s->bits, f->path);
        else fprintf(out, "%*s  %5s  %s = ", indent, "", "-", f->path);
        if (!failed_here) print_value(out, f, snap + f->snap_offset);
        fputs(s->changed ? "  (changed)\n" : "\n", out);
    }
    if (st != NS_OK) fprintf(out, "%*s  error: %s\n", indent, "", ns_status_str(st));
    free(c.slots);
    free(snap);
    return st;
}

ns_status ns_dump_record(FILE *out, const ns_type_desc *t, ns_reader *r, const ns_baselines *base, ns_audience to)
{
    return ns__dump_record(out, 0, t, r, base, to);
}

ns_status ns_dump_packet(FILE *out, const ns_type_desc *t, const void *buf, size_t len, size_t bits,
                         const ns_baselines *base, ns_audience to)
{
    ns_reader r;
    if (bits && bits < len * 8) len = (bits + 7) / 8;
    ns_reader_init(&r, buf, len);
    return ns_dump_record(out, t, &r, base, to);
}
