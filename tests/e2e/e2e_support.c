/* e2e_support.c — descriptor-driven random snapshots, trajectories and slot comparison. */
#include "e2e_support.h"

#include <stdlib.h>
#include <string.h>

static void fill_slots(const ns_type_desc *desc, ns_rng *rng, unsigned char *snap);

/* A random integer in [lo, hi], often near the edges or zero. */
static int64_t random_in(ns_rng *rng, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    switch (ns_rng_below(rng, 8)) {
    case 0: return lo;
    case 1: return hi;
    case 2: return lo <= 0 && hi >= 0 ? 0 : lo;
    default: break;
    }
    uint64_t r = span == UINT64_MAX ? ns_rng_next(rng) : ns_rng_next(rng) % (span + 1);
    if (ns_rng_below(rng, 2) && span > 64) r = ns_rng_next(rng) % 64 + span / 2; /* small magnitudes */
    return ns__u64_as_i64((uint64_t)lo + (r > span ? span : r));
}

/* Writes v into an integer of `size` bytes at p (the snapshot member's width). */
static void store_int(unsigned char *p, size_t size, int64_t v)
{
    uint64_t u = (uint64_t)v;
    uint8_t b8 = (uint8_t)u;
    uint16_t b16 = (uint16_t)u;
    uint32_t b32 = (uint32_t)u;
    if (size == 1) memcpy(p, &b8, 1);
    else if (size == 2) memcpy(p, &b16, 2);
    else if (size == 4) memcpy(p, &b32, 4);
    else memcpy(p, &u, 8);
}

static int64_t load_int(const unsigned char *p, size_t size, bool is_signed)
{
    uint8_t b8;
    uint16_t b16;
    uint32_t b32;
    uint64_t u;
    switch (size) {
    case 1: memcpy(&b8, p, 1); return is_signed ? (int64_t)(int8_t)b8 : (int64_t)b8;
    case 2: memcpy(&b16, p, 2); return is_signed ? (int64_t)(int16_t)b16 : (int64_t)b16;
    case 4: memcpy(&b32, p, 4); return is_signed ? (int64_t)(int32_t)b32 : (int64_t)b32;
    default: memcpy(&u, p, 8); return ns__u64_as_i64(u);
    }
}

static bool integer_like(ns_encoding e)
{
    return e == NS_ENC_INT || e == NS_ENC_INT64 || e == NS_ENC_RAW || e == NS_ENC_QUANT || e == NS_ENC_VEC_Q ||
           e == NS_ENC_QUAT_Q;
}

static void fill_slot(const ns_field_desc *f, ns_rng *rng, unsigned char *p)
{
    size_t comp = f->components ? f->components : 1;
    size_t each = f->snap_size / comp;
    switch (f->encoding) {
    case NS_ENC_BOOL:
        *(bool *)p = ns_rng_below(rng, 2) != 0;
        return;
    case NS_ENC_FLOAT32:
    case NS_ENC_FLOAT64:
    case NS_ENC_VEC_F:
    case NS_ENC_QUAT_F:
    case NS_ENC_QUAT_S3:
        for (size_t i = 0; i < f->snap_size; i++) p[i] = (unsigned char)ns_rng_next(rng);
        if (ns_rng_below(rng, 4) == 0) memset(p, 0, f->snap_size);
        return;
    case NS_ENC_STRING: {
        size_t n = ns_rng_below(rng, f->capacity + 1);
        static const char *const pieces[] = {"a", "Z", "7", " ", "\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xff", "~"};
        size_t at = 0;
        while (at < n) {
            const char *piece = pieces[ns_rng_below(rng, sizeof pieces / sizeof pieces[0])];
            size_t len = strlen(piece);
            if (at + len > n) break;
            memcpy(p + at, piece, len);
            at += len;
        }
        p[at] = 0;
        return;
    }
    case NS_ENC_BYTES: {
        uint16_t len = (uint16_t)ns_rng_below(rng, f->capacity + 1);
        memcpy(p, &len, 2);
        for (size_t i = 0; i < f->capacity; i++) p[2 + i] = (unsigned char)ns_rng_next(rng);
        return;
    }
    case NS_ENC_COMPOSITE:
        fill_slots(f->type, rng, p);
        return;
    default:
        break;
    }
    if (!integer_like(f->encoding)) return;
    bool unbounded = f->lo == 0 && f->hi == 0 && each == 8;
    for (size_t k = 0; k < comp; k++) {
        int64_t v = unbounded ? ns__u64_as_i64(ns_rng_next(rng)) : random_in(rng, f->lo, f->hi);
        store_int(p + k * each, each, v);
    }
}

static void fill_slots(const ns_type_desc *desc, ns_rng *rng, unsigned char *snap)
{
    for (uint32_t i = 0; i < desc->field_count; i++) fill_slot(&desc->fields[i], rng, snap + desc->fields[i].snap_offset);
}

static void sanitize(const codec *c, void *snap)
{
    _Alignas(16) unsigned char value[8192]; /* no allocation: this runs millions of times */
    ck_assert_uint_le(c->desc->value_size, sizeof value);
    c->init(value);
    c->dequantize(snap, value);
    c->quantize(value, snap);
}

void e2e_random_snap(const codec *c, ns_rng *rng, void *snap)
{
    memset(snap, 0, c->desc->snap_size);
    fill_slots(c->desc, rng, snap);
    sanitize(c, snap);
}

/* Moves integer-like slots along a line (or not) from b2 to cur. */
static void trajectory_slots(const ns_type_desc *desc, ns_rng *rng, unsigned char *s[4])
{
    for (uint32_t i = 0; i < desc->field_count; i++) {
        const ns_field_desc *f = &desc->fields[i];
        size_t off = f->snap_offset;
        if (f->encoding == NS_ENC_COMPOSITE) {
            unsigned char *sub[4] = {s[0] + off, s[1] + off, s[2] + off, s[3] + off};
            trajectory_slots(f->type, rng, sub);
            continue;
        }
        unsigned mode = (unsigned)ns_rng_below(rng, 5);
        if (mode == 4) continue; /* independent random values in all four */
        if (!integer_like(f->encoding) || mode == 0) {
            /* Constant: all four equal to the oldest. */
            for (int k = 1; k < 4; k++) memcpy(s[k] + off, s[0] + off, f->snap_size);
            continue;
        }
        size_t comp = f->components ? f->components : 1, each = f->snap_size / comp;
        bool is_signed = f->lo < 0;
        for (size_t k = 0; k < comp; k++) {
            int64_t start = load_int(s[0] + off + k * each, each, is_signed);
            int64_t step = (int64_t)ns_rng_below(rng, mode == 1 ? 3 : 200) - (mode == 1 ? 1 : 100);
            for (int t = 1; t < 4; t++) {
                int64_t v = start;
                /* Stay inside the slot's range, and away from 64-bit overflow. */
                if (start > INT64_MIN / 2 && start < INT64_MAX / 2) v = start + step * t;
                if (mode == 3 && t == 3 && v > INT64_MIN / 2 && v < INT64_MAX / 2)
                    v += (int64_t)ns_rng_below(rng, 5) - 2; /* off the line */
                if (!(f->lo == 0 && f->hi == 0)) v = v < f->lo ? f->lo : v > f->hi ? f->hi : v;
                store_int(s[t] + off + k * each, each, v);
            }
        }
    }
}

void e2e_trajectory(const codec *c, ns_rng *rng, void *b2, void *b1, void *b0, void *cur)
{
    e2e_random_snap(c, rng, b2);
    e2e_random_snap(c, rng, b1);
    e2e_random_snap(c, rng, b0);
    e2e_random_snap(c, rng, cur);
    unsigned char *s[4] = {b2, b1, b0, cur};
    trajectory_slots(c->desc, rng, s);
    sanitize(c, b1);
    sanitize(c, b0);
    sanitize(c, cur);
}

bool e2e_slot_sent(const ns_type_desc *desc, uint32_t i, ns_audience to, uint32_t nbase)
{
    if (desc->kind != NS_KIND_COMPONENT) return true;
    uint32_t flags = desc->fields[i].flags;
    uint32_t aud = to == NS_TO_OWNER ? NS_FIELD_TO_OWNER : NS_FIELD_TO_OTHERS;
    return (flags & aud) && (!(flags & NS_FIELD_INITIAL) || nbase == 0);
}

static bool slots_equal(const ns_field_desc *f, const unsigned char *a, const unsigned char *b)
{
    switch (f->encoding) {
    case NS_ENC_STRING:
        return strcmp((const char *)a, (const char *)b) == 0;
    case NS_ENC_BYTES: {
        uint16_t la, lb;
        memcpy(&la, a, 2);
        memcpy(&lb, b, 2);
        return la == lb && memcmp(a + 2, b + 2, la) == 0;
    }
    case NS_ENC_BOOL:
        return (*(const bool *)a) == (*(const bool *)b);
    case NS_ENC_COMPOSITE:
        for (uint32_t i = 0; i < f->type->field_count; i++)
            if (!e2e_slot_equal(f->type, i, a, b)) return false;
        return true;
    default:
        return memcmp(a, b, f->snap_size) == 0;
    }
}

bool e2e_slot_equal(const ns_type_desc *desc, uint32_t i, const void *a, const void *b)
{
    const ns_field_desc *f = &desc->fields[i];
    return slots_equal(f, (const unsigned char *)a + f->snap_offset, (const unsigned char *)b + f->snap_offset);
}
