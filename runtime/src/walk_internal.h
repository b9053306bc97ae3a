/* walk_internal.h — what the descriptor-driven record walker (dump.c) shares with the table mode's
 * runtime (table_*.c, netschema/table.h): how a slot's integers sit in a snapshot, which runtime
 * delta function the generator picks for them, the payload reader, the three-baseline prediction
 * and the walk itself against a given reference. One copy of each rule, so the dump, the table
 * mode and the generated code cannot drift apart. */
#ifndef NS_WALK_INTERNAL_H
#define NS_WALK_INTERNAL_H

#include <string.h>

#include <netschema/dump.h>
#include <netschema/predict.h>

/* ---- integers in snapshots ------------------------------------------------------------------ */

/* The runtime delta reader a slot uses, as the generator picks it from the snapshot C type. */
typedef enum int_fn { FN_I32, FN_U32, FN_I64, FN_U64 } int_fn;

static inline int_fn fn_of(const ns_field_desc *f, size_t size)
{
    bool u = (f->flags & NS_FIELD_UNSIGNED) != 0;
    if (size == 8) return u ? FN_U64 : FN_I64;
    return u && size == 4 ? FN_U32 : FN_I32;
}

/* An integer of `size` bytes at p, sign- or zero-extended to 64 bits. */
static inline uint64_t load_int(const uint8_t *p, size_t size, bool uns)
{
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, p, 1);
        return uns ? v : (uint64_t)(int64_t)(int8_t)v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return uns ? v : (uint64_t)(int64_t)(int16_t)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return uns ? v : (uint64_t)(int64_t)(int32_t)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

/* Stores the low `size` bytes' worth of v at p, as the generated cast to the snapshot type does. */
static inline void store_int(uint8_t *p, size_t size, uint64_t v)
{
    switch (size) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        return;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        return;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        return;
    }
    default:
        memcpy(p, &v, 8);
    }
}

/* True if the slot's bounds are narrower than what the reader function returns: the generated
 * code then range-checks (and clamps predictions). */
static inline bool narrower(const ns_field_desc *f, int_fn fn)
{
    if (!(f->flags & NS_FIELD_BOUNDED)) return false;
    switch (fn) {
    case FN_I32: return f->lo > INT32_MIN || f->hi < INT32_MAX;
    case FN_U32: return f->lo > 0 || f->hi < (int64_t)UINT32_MAX;
    case FN_I64: return f->lo > INT64_MIN || f->hi < INT64_MAX;
    default: return f->lo > 0 || f->hi < INT64_MAX;
    }
}

static inline const char *enum_name(const ns_enum_desc *e, int64_t v)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (e->values[i].value == v) return e->values[i].name;
    return NULL;
}

/* True if slot f has a change bit in a record of t for `to` (full: written with no baselines). */
static inline bool slot_sent(const ns_type_desc *t, const ns_field_desc *f, ns_audience to, bool full)
{
    if (t->kind != NS_KIND_COMPONENT) return true;
    if (!ns_field_reaches(f->flags, (unsigned)to)) return false;
    return !(f->flags & NS_FIELD_INITIAL) || full;
}

/* The largest predicted slot: a quantized quaternion or a 64-bit integer fits. */
#define NS__PRED_MAX 32u

/* Reads one slot's payload into dst against ref (both point at the slot's snapshot member), as
 * the generated _read does. maskless: a member of a @composite struct, without a change bit. */
void ns__read_payload(ns_reader *r, const ns_field_desc *f, uint8_t *dst, const uint8_t *ref, bool maskless);

/* The three-baseline prediction of a predicted slot into pred, clamped as the generated code
 * clamps it (b holds three baselines; p: ns_predictor_init of their ticks, once per record). */
void ns__predict(const ns_field_desc *f, const ns_baselines *b, const ns_predictor *p, uint8_t *pred);

/* ns_walk_record against the reference ref (a snapshot of t) instead of one chosen from base;
 * base only decides the predictions (three baselines) and full states (none). out must not be
 * ref; NULL: scratch. Records with extern fields are refused (NS_ERR_ARGUMENT). */
ns_status ns__walk(ns_reader *r, const ns_type_desc *t, const void *ref, const ns_baselines *base, ns_audience to,
                   void *out, ns_slot_fn fn, void *ctx);

#endif
