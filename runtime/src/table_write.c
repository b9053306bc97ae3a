/* table_write.c — the table mode's writer (netschema/table.h): the mirror of the record walker's
 * reader (dump.c), writing a record slot by slot from its descriptor exactly as the generated
 * _write of compiler/src/emit_c_codec.c does — the same snapshot checks first, the same reference
 * (defaults, baseline 0, or the clamped three-baseline prediction), the same any bit and change
 * bits and the same runtime writer per encoding — so both modes put the same bits on the wire. */
#include <string.h>

#include <netschema/codec.h>
#include <netschema/collections.h>
#include <netschema/floats.h>
#include <netschema/packed.h>
#include <netschema/profile.h>
#include <netschema/quant.h>
#include <netschema/table.h>
#include <netschema/text.h>

#include "table_internal.h"
#include "walk_internal.h"

/* ---- checks: what the generated _check refuses before anything is written -------------------- */

static ns_status check_slot(const ns_field_desc *f, const uint8_t *p);

static ns_status check_fields(const ns_type_desc *t, const uint8_t *snap)
{
    for (uint32_t i = 0; t && i < t->field_count; i++) {
        const ns_status st = check_slot(&t->fields[i], snap + t->fields[i].snap_offset);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* An integer element outside the slot's bounds. Unsigned 64-bit slots compare unsigned, and an
 * upper bound of INT64_MAX does not bound them (the generated check has nothing to compare). */
static bool out_of_range(const ns_field_desc *f, const uint8_t *p, size_t size)
{
    if (!(f->flags & NS_FIELD_BOUNDED)) return false;
    const bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    const uint64_t v = load_int(p, size, uns);
    if (uns && size == 8) return (f->lo > 0 && v < (uint64_t)f->lo) || (f->hi < INT64_MAX && v > (uint64_t)f->hi);
    return (int64_t)v < f->lo || (int64_t)v > f->hi;
}

static ns_status check_slot(const ns_field_desc *f, const uint8_t *p)
{
    switch (f->encoding) {
    case NS_ENC_COMPOSITE:
        return check_fields(f->type, p);
    case NS_ENC_ARRAY:
        for (uint32_t k = 0; f->elem && k < f->capacity; k++) {
            const ns_status st = check_slot(f->elem, p + k * f->elem->snap_size);
            if (st != NS_OK) return st;
        }
        return NS_OK;
    case NS_ENC_LIST:
    case NS_ENC_MAP:
    case NS_ENC_SET:
    case NS_ENC_FASTARRAY:
        return f->coll ? ns_coll_check(f->coll, p) : NS_ERR_ARGUMENT;
    case NS_ENC_STRING:
        if (!memchr(p, 0, f->snap_size) || !ns_utf8_valid((const char *)p, strlen((const char *)p))) return NS_ERR_MALFORMED;
        return NS_OK;
    case NS_ENC_BYTES: {
        uint16_t len;
        memcpy(&len, p, 2);
        return len > f->capacity ? NS_ERR_RANGE : NS_OK;
    }
    case NS_ENC_QUAT_S3:
        return ns_smallest3_valid(load_int(p, f->snap_size, true), f->bits) ? NS_OK : NS_ERR_MALFORMED;
    case NS_ENC_INT:
    case NS_ENC_INT64:
    case NS_ENC_RAW:
    case NS_ENC_QUANT:
        if (f->enum_type)
            return enum_name(f->enum_type, (int64_t)load_int(p, f->snap_size, (f->flags & NS_FIELD_UNSIGNED) != 0))
                       ? NS_OK : NS_ERR_RANGE;
        return out_of_range(f, p, f->snap_size) ? NS_ERR_RANGE : NS_OK;
    case NS_ENC_VEC_Q:
    case NS_ENC_QUAT_Q:
        for (unsigned k = 0; k < f->components; k++)
            if (out_of_range(f, p + 4 * k, 4)) return NS_ERR_RANGE;
        return NS_OK;
    case NS_ENC_UNION: /* the tag here, even when unchanged; the member as it is written */
        return f->type && p[0] < f->type->field_count ? NS_OK : NS_ERR_RANGE;
    default: /* bools, floats: every value is valid */
        return NS_OK;
    }
}

/* ---- payloads ------------------------------------------------------------------------------ */

static ns_status write_record(ns_writer *w, const ns_type_desc *t, const uint8_t *cur, const uint8_t *ref,
                              const ns_baselines *base, ns_audience to);

static void write_int32(ns_writer *w, const ns_field_desc *f, const uint8_t *cur, const uint8_t *ref, size_t size)
{
    const bool uns = (f->flags & NS_FIELD_UNSIGNED) != 0;
    const uint64_t c = load_int(cur, size, uns), r = load_int(ref, size, uns);
    if (fn_of(f, size) == FN_U32) ns_write_delta_u32_default(w, (uint32_t)c, (uint32_t)r);
    else ns_write_delta_i32_default(w, (int32_t)c, (int32_t)r);
}

/* A union (docs/wire.md section 12.9): its tag, then the member's record against the reference's
 * member when it holds the same one, else against the member's defaults. A bad tag or member
 * leaves the writer where it was, as the generated <U>_write does. */
static ns_status write_union(ns_writer *w, const ns_field_desc *f, const uint8_t *cur, const uint8_t *ref)
{
    const ns_type_desc *u = f->type;
    if (!u) return NS_ERR_ARGUMENT;
    if (cur[0] >= u->field_count) return NS_ERR_RANGE;
    const ns_field_desc *m = &u->fields[cur[0]];
    if (!m->type || !m->type->snap_default) return NS_ERR_ARGUMENT;
    const ns_writer at = *w;
    if (f->bits) ns_write_raw(w, cur[0], f->bits);
    const uint8_t *mref = ref[0] == cur[0] ? ref + m->snap_offset : (const uint8_t *)m->type->snap_default;
    ns_status st = write_record(w, m->type, cur + m->snap_offset, mref, NULL, NS_TO_OWNER);
    if (st == NS_OK) st = ns_writer_status(w);
    if (st != NS_OK) *w = at;
    return st;
}

/* Writes one slot's payload (after its change bit, if it has one). maskless: a member of a
 * @composite struct or array, without a change bit of its own. */
static ns_status write_payload(ns_writer *w, const ns_field_desc *f, const uint8_t *cur, const uint8_t *ref, bool maskless)
{
    switch (f->encoding) {
    case NS_ENC_BOOL:
        if (maskless) ns_write_bool(w, cur[0] != 0);
        return NS_OK;
    case NS_ENC_INT:
    case NS_ENC_QUANT:
        write_int32(w, f, cur, ref, f->snap_size);
        return NS_OK;
    case NS_ENC_INT64: {
        uint64_t c, r;
        memcpy(&c, cur, 8);
        memcpy(&r, ref, 8);
        if (f->flags & NS_FIELD_UNSIGNED) ns_write_delta_u64(w, c, r, NULL);
        else ns_write_delta_i64(w, (int64_t)c, (int64_t)r, NULL);
        return NS_OK;
    }
    case NS_ENC_RAW: {
        const uint64_t c = load_int(cur, f->snap_size, (f->flags & NS_FIELD_UNSIGNED) != 0);
        ns_write_raw(w, c - (uint64_t)f->lo, f->bits);
        return NS_OK;
    }
    case NS_ENC_FLOAT32: {
        uint32_t c, r;
        memcpy(&c, cur, 4);
        memcpy(&r, ref, 4);
        if (maskless) ns_write_f32_delta(w, c, r);
        else ns_write_f32_xor(w, c, r);
        return NS_OK;
    }
    case NS_ENC_FLOAT64: {
        uint64_t c, r;
        memcpy(&c, cur, 8);
        memcpy(&r, ref, 8);
        if (maskless) ns_write_f64_delta(w, c, r);
        else ns_write_f64_xor(w, c, r);
        return NS_OK;
    }
    case NS_ENC_VEC_Q:
    case NS_ENC_QUAT_Q:
        for (unsigned k = 0; k < f->components; k++) write_int32(w, f, cur + 4 * k, ref + 4 * k, 4);
        return NS_OK;
    case NS_ENC_VEC_F:
    case NS_ENC_QUAT_F:
        for (unsigned k = 0; k < f->components; k++) {
            uint32_t c, r;
            memcpy(&c, cur + 4 * k, 4);
            memcpy(&r, ref + 4 * k, 4);
            ns_write_f32_delta(w, c, r);
        }
        return NS_OK;
    case NS_ENC_QUAT_S3:
        ns_write_raw(w, load_int(cur, f->snap_size, true), NS_SMALLEST3_BITS(f->bits));
        return NS_OK;
    case NS_ENC_STRING:
    case NS_ENC_BYTES:
        if (maskless) {
            const bool changed = ns__table_differs(f, cur, ref);
            ns_write_bool(w, changed);
            if (!changed) return NS_OK;
        }
        if (f->encoding == NS_ENC_STRING) {
            ns_write_string(w, (const char *)cur, (const char *)ref, f->capacity);
        } else {
            uint16_t cl, rl;
            memcpy(&cl, cur, 2);
            memcpy(&rl, ref, 2);
            ns_write_text(w, cur + 2, cl, ref + 2, rl);
        }
        return NS_OK;
    case NS_ENC_COMPOSITE:
        for (uint32_t i = 0; f->type && i < f->type->field_count; i++) {
            const ns_field_desc *m = &f->type->fields[i];
            const ns_status st = write_payload(w, m, cur + m->snap_offset, ref + m->snap_offset, true);
            if (st != NS_OK) return st;
        }
        return NS_OK;
    case NS_ENC_ARRAY:
        for (uint32_t k = 0; f->elem && k < f->capacity; k++) {
            const size_t at = k * f->elem->snap_size;
            const ns_status st = write_payload(w, f->elem, cur + at, ref + at, true);
            if (st != NS_OK) return st;
        }
        return NS_OK;
    case NS_ENC_LIST:
    case NS_ENC_MAP:
    case NS_ENC_SET:
    case NS_ENC_FASTARRAY:
        if (!f->coll) return NS_ERR_ARGUMENT;
        if (maskless) {
            const bool changed = ns_coll_changed(f->coll, cur, ref);
            ns_write_bool(w, changed);
            if (!changed) return NS_OK;
        }
        return ns_coll_write(w, f->coll, cur, ref);
    case NS_ENC_UNION:
        return write_union(w, f, cur, ref);
    case NS_ENC_CUSTOM: /* the user's codec: the generator keeps such records straight-line */
        return NS_ERR_ARGUMENT;
    }
    return NS_ERR_ARGUMENT;
}

/* ---- records -------------------------------------------------------------------------------- */

/* Predictions computed once per write for up to this many predicted slots (the rest twice). */
#define NS__TABLE_PREDS 8u

/* The reference of predicted slot f, the k-th predicted slot of the record: the prediction,
 * kept in saved[k] when there is room, else computed into scratch. */
static const uint8_t *predicted_ref(const ns_field_desc *f, const ns_baselines *base, const ns_predictor *p,
                                    uint32_t k, bool have, uint8_t saved[][NS__PRED_MAX], uint8_t *scratch)
{
    if (k < NS__TABLE_PREDS) {
        if (!have) ns__predict(f, base, p, saved[k]);
        return saved[k];
    }
    ns__predict(f, base, p, scratch);
    return scratch;
}

/* The checks, then the any bit and per slot sent its change bit and payload. Components are coded
 * against ref with their predicted slots against the prediction from base's three baselines. */
static ns_status write_record(ns_writer *w, const ns_type_desc *t, const uint8_t *cur, const uint8_t *ref,
                              const ns_baselines *base, ns_audience to)
{
    ns_status st = check_fields(t, cur);
    if (st != NS_OK) return st;
    const uint32_t n = ns_baselines_count(base);
    const bool predicting = t->kind == NS_KIND_COMPONENT && n == 3;
    uint8_t saved[NS__TABLE_PREDS][NS__PRED_MAX], scratch[NS__PRED_MAX];
    ns_predictor p;
    if (predicting) ns_predictor_init(&p, base->tick[0], base->tick[1], base->tick[2], base->tick_now);
    unsigned sent = 0;
    bool any = false;
    uint32_t k = 0; /* predicted slots so far */
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        const bool pred = predicting && (f->flags & NS_FIELD_PREDICTED);
        if (pred && f->snap_size > NS__PRED_MAX) return NS_ERR_ARGUMENT;
        const uint8_t *sref = pred ? predicted_ref(f, base, &p, k++, false, saved, scratch) : ref + f->snap_offset;
        if (!slot_sent(t, f, to, n == 0)) continue;
        sent++;
        any = any || ns__table_differs(f, cur + f->snap_offset, sref);
    }
    if (sent > 1) ns_write_bool(w, any);
    if (!any && sent != 1) return NS_OK;
    k = 0;
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        const bool pred = predicting && (f->flags & NS_FIELD_PREDICTED);
        const uint8_t *sref = pred ? predicted_ref(f, base, &p, k++, true, saved, scratch) : ref + f->snap_offset;
        if (!slot_sent(t, f, to, n == 0)) continue;
        const uint8_t *c = cur + f->snap_offset;
        const bool changed = ns__table_differs(f, c, sref);
        ns_write_bool(w, changed);
        if (changed) {
            st = write_payload(w, f, c, sref, false);
            if (st != NS_OK) return st;
        }
    }
    return NS_OK;
}

ns_status ns_table_write(ns_writer *w, const ns_type_desc *t, const void *cur, const void *ref,
                         const ns_baselines *base, ns_audience to)
{
    if (!w || !t || !cur || !t->snap_default) return NS_ERR_ARGUMENT;
    if (t->kind == NS_KIND_COMPONENT) {
        const ns_status st = ns_baselines_check(base);
        if (st != NS_OK) return st;
        ref = ns_baselines_count(base) ? base->snap[0] : NULL;
    } else {
        base = NULL;
    }
    if (!ref || t->kind == NS_KIND_RPC) ref = t->snap_default;
    return write_record(w, t, (const uint8_t *)cur, (const uint8_t *)ref, base, to);
}

ns_status ns_table_write_commit(ns_writer *w, const ns_type_desc *t, const void *cur, const void *ref,
                                const ns_baselines *base, ns_audience to)
{
    if (!w) return NS_ERR_ARGUMENT; /* t and the rest: ns_table_write checks them */
    ns_writer copy = *w;
    const ns_status st = ns_table_write(&copy, t, cur, ref, base, to);
    if (st != NS_OK) return st;
    if (t->kind != NS_KIND_STRUCT) NS_PROFILE_WRITE(t, w, &copy, base, to, ref);
    *w = copy;
    return ns_writer_status(&copy);
}
