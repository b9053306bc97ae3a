/* hand_codec.c — the hand-written Transform and Health codec of hand_codec.h: the speed a
 * programmer who knew only this schema could reach, for bench_components to compare with.
 *
 * How it is fast, and why it stays exact:
 *   - Writing: the record's room is checked once (the component's worst case plus the 8 bytes an
 *     unaligned 64-bit store touches); then every put ORs bits into one 64-bit accumulator and
 *     stores all 8 bytes unconditionally. A record near the end of the buffer is written into a
 *     local scratch buffer and copied, so the fast path never tests for room.
 *   - Reading: the same one check per record; each field is then one unaligned 64-bit load at
 *     the bit position, one lookup in the packed model's 6-bit decode table, and no bounds test.
 *     Range and encoding errors are OR-ed into one flag; only when it is set (or the record is
 *     near the end of the input) does a cold path replay the record with the runtime's checked
 *     reader, so the status is exactly the one the generated reader reports.
 *   - The predictor (docs/wire.md section 3) is inlined. With evenly spaced ticks (both
 *     fractions 16, the usual case) and baselines inside their ranges it is int32 adds and
 *     compares over all slots at once, with no division or multiply; otherwise the fractions use
 *     32-bit divisions when the gaps allow, 64-bit arithmetic, and ns_predict_i64's overflow
 *     checks once a fraction exceeds 2^30.
 * The packed codes come from ns_default_model, the tables of the wire format itself.
 *
 * Quantizing: round(v · Q) in double, half away from zero, clamped to the field's range, written
 * out per field with no call and no branch; the quaternion normalized inline in double (the
 * rounding rule of docs/wire.md section 5 that every build must reproduce). */
#include "hand_codec.h"

#include <math.h>
#include <string.h>

#include <netschema/codec.h>
#include <netschema/packed.h>
#include <netschema/predict.h>

_Static_assert(sizeof(bench_Transform_snap) == 10 * sizeof(int32_t), "Transform snapshot is 10 int32");

#define T_SLOTS 10
/* The longest record either component can be on the wire: every change bit set and every code
 * the longest (38 bits). Longer than BENCH_*_MAX_BITS, which bounds what a writer with valid
 * baselines produces: a reader must expect any code, and baselines are not validated. */
#define T_WORST_BYTES ((7 + 4 + T_SLOTS * 38 + 7) / 8)
#define H_WORST_BYTES ((7 + 5 + 3 * 38 + 7) / 8)
/* Each quantized component's range: position ±4000 at 1/1000, rotation ±1 at 1/1000, velocity
 * ±100 at 1/100 (bench.netschema). */
static const int32_t t_lo[T_SLOTS] = {-4000000, -4000000, -4000000, -1000, -1000, -1000, -1000, -10000, -10000, -10000};
static const int32_t t_hi[T_SLOTS] = {4000000, 4000000, 4000000, 1000, 1000, 1000, 1000, 10000, 10000, 10000};

/* ---- the predictor ------------------------------------------------------------------------ */

typedef struct pred {
    int64_t pf, af;   /* predict and apply fractions, 1/16 fixed point; 0 and 0 predict v0 */
    bool    unit;     /* both fractions 16 (evenly spaced ticks, the usual case): no multiply */
    bool    wide;     /* a fraction above 2^30: use the overflow-checked runtime predictor */
    ns_predictor np;  /* only filled when wide */
} pred;

static inline void pred_init(pred *p, const ns_baselines *b)
{
    uint32_t d01 = b->tick[0] - b->tick[1], d12 = b->tick[1] - b->tick[2], dnow = b->tick_now - b->tick[0];
    p->wide = false;
    p->unit = d01 == d12 && d01 == dnow && d01 != 0 && d01 < 0x80000000u;
    p->pf = p->af = 16;
    if (p->unit) return; /* 16 · d / d, without the two divisions */
    p->pf = p->af = 0; /* invalid ticks: with both fractions 0 the formula below gives v0 */
    if (!(d01 != 0 && d12 != 0 && d01 < 0x80000000u && d12 < 0x80000000u && dnow < 0x80000000u)) return;
    if (NS__LIKELY((d01 | dnow) < (1u << 27))) { /* 16 · gap fits in 32 bits */
        p->pf = (int64_t)(16u * d01 / d12);
        p->af = (int64_t)(16u * dnow / d01);
    } else {
        p->pf = (int64_t)(16u * (uint64_t)d01 / d12);
        p->af = (int64_t)(16u * (uint64_t)dnow / d01);
    }
    if (p->pf > (INT64_C(1) << 30) || p->af > (INT64_C(1) << 30)) {
        p->wide = true;
        ns_predictor_init(&p->np, b->tick[0], b->tick[1], b->tick[2], b->tick_now);
    }
}

/* The clamped reference of one predicted slot, as ns_predict_i32 then ns_clamp_i64. */
static inline int32_t pred_i32(const pred *p, int32_t v0, int32_t v1, int32_t v2, int32_t lo, int32_t hi)
{
    int64_t out;
    if (NS__LIKELY(!p->wide)) {
        int64_t expected = v1 + ((int64_t)v1 - v2) * p->pf / 16;
        int64_t step = (int64_t)v0 - v1;
        int64_t miss = expected > v0 ? expected - v0 : v0 - expected;
        int64_t len = step < 0 ? -step : step;
        out = miss >= len ? v0 : v0 + step * p->af / 16;
    } else {
        out = ns_predict_i64(&p->np, v0, v1, v2);
    }
    if (out < INT32_MIN || out > INT32_MAX) out = v0;
    return (int32_t)(out < lo ? lo : out > hi ? hi : out);
}

/* pred_i32 with both fractions 16 for values inside lo..hi (so that nothing below overflows
 * int32): v0 + (v0 − v1), unless v0 missed 2·v1 − v2 by a whole step or more. */
static inline int32_t pred_unit_i32(int32_t v0, int32_t v1, int32_t v2, int32_t lo, int32_t hi)
{
    int32_t expected = 2 * v1 - v2, step = v0 - v1;
    int32_t miss = expected > v0 ? expected - v0 : v0 - expected;
    int32_t len = step < 0 ? -step : step;
    int32_t out = miss >= len ? v0 : v0 + step;
    out = out < lo ? lo : out;
    return out > hi ? hi : out;
}

/* 1 if v lies outside lo..hi: an int, so that many can be OR-ed without branches. */
static inline unsigned outside(int32_t v, int32_t lo, int32_t hi)
{
    return (uint32_t)v - (uint32_t)lo > (uint32_t)hi - (uint32_t)lo;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* The writer's hot state, kept in registers for one record. */
typedef struct bw {
    uint8_t *p;
    uint64_t acc;
    unsigned n;
} bw;

/* Appends the low n bits of v (no bits above n; with the pending bits, at most 63): no room
 * check, the record has it. */
static inline void put(bw *w, uint64_t v, unsigned n)
{
    w->acc |= v << w->n;
    w->n += n;
    ns__store_le64(w->p, w->acc);
    w->p += w->n >> 3;
    w->acc >>= w->n & ~7u;
    w->n &= 7u;
}

/* The packed code of u in the default model, without a branch on its size; *len its length. */
static inline uint64_t packed(uint32_t u, unsigned *len)
{
    const ns_model *m = &ns_default_model;
    unsigned bits = 63u - (unsigned)__builtin_clzll((uint64_t)u << 1 | 1u); /* bit length, 0 for 0 */
    unsigned b = m->first_bucket[bits];
    b += u >= m->limit[b]; /* each bit length spans at most two buckets */
    *len = (unsigned)m->code_len[b] + m->raw_bits[b];
    return m->code[b] | (uint64_t)(u - m->offset[b]) << m->code_len[b];
}

static inline uint32_t zz(int32_t value, int32_t ref)
{
    return ns_zigzag32(ns__u32_as_i32((uint32_t)value - (uint32_t)ref));
}

/* The change bit of a vector slot, then its components' codes when it changed. */
static inline void put_vec(bw *w, const uint32_t *z, unsigned count)
{
    uint32_t any = 0;
    for (unsigned i = 0; i < count; i++) any |= z[i];
    if (!any) {
        put(w, 0, 1);
        return;
    }
    unsigned len;
    uint64_t c = packed(z[0], &len);
    put(w, c << 1 | 1u, len + 1); /* the change bit rides with the first code */
    for (unsigned i = 1; i < count; i++) {
        c = packed(z[i], &len);
        put(w, c, len);
    }
}

void hand_writer_init(hand_writer *w, void *buf, size_t cap)
{
    w->start = w->p = buf;
    w->end = buf ? w->start + cap : NULL;
    w->acc = 0;
    w->nacc = 0;
    w->status = NS_OK;
}

size_t hand_writer_flush(hand_writer *w)
{
    if (w->nacc) {
        if (w->status == NS_OK && w->p < w->end) *w->p++ = (uint8_t)w->acc;
        else w->status = NS_ERR_OVERFLOW;
        w->acc = 0;
        w->nacc = 0;
    }
    return (size_t)(w->p - w->start);
}

/* Begins a record of at most max_bytes: on the buffer itself when it has room for the record
 * and one 8-byte store past it, else on scratch (at least max_bytes + 9 bytes). */
static inline bw record_begin(const hand_writer *hw, uint8_t *scratch, size_t max_bytes)
{
    bw w = {hw->p, hw->acc, hw->nacc};
    if (NS__UNLIKELY((size_t)(hw->end - hw->p) < max_bytes + 8)) w.p = scratch;
    return w;
}

/* Ends a record: copies it out of scratch when it was written there (what does not fit is
 * dropped and the writer overflows, as ns_writer does). */
static inline ns_status record_end(hand_writer *hw, const bw *w, const uint8_t *scratch, size_t max_bytes)
{
    if (NS__LIKELY((size_t)(hw->end - hw->p) >= max_bytes + 8)) {
        hw->p = w->p;
    } else {
        size_t n = (size_t)(w->p - scratch), room = (size_t)(hw->end - hw->p);
        if (n > room) n = room, hw->status = NS_ERR_OVERFLOW;
        if (n) memcpy(hw->p, scratch, n);
        hw->p += n;
    }
    hw->acc = w->acc;
    hw->nacc = w->n;
    return hw->status;
}

/* The references of Transform's ten slots: defaults, baseline 0, or the clamped prediction. */
NS__HOT void t_reference(const ns_baselines *base, int32_t ref[T_SLOTS])
{
    uint32_t n = ns_baselines_count(base);
    if (n < 3) {
        memcpy(ref, n ? base->snap[0] : (const void *)&bench_Transform_snap_default, sizeof(int32_t) * T_SLOTS);
        return;
    }
    int32_t v0[T_SLOTS], v1[T_SLOTS], v2[T_SLOTS];
    memcpy(v0, base->snap[0], sizeof v0);
    memcpy(v1, base->snap[1], sizeof v1);
    memcpy(v2, base->snap[2], sizeof v2);
    pred p;
    pred_init(&p, base);
    /* Baselines are trusted to be valid snapshots (docs/wire.md section 3), but checking costs
     * little when done for all slots at once, and keeps wild ones exact. */
    unsigned wild = 0;
    for (unsigned i = 0; i < T_SLOTS; i++)
        wild |= outside(v0[i], t_lo[i], t_hi[i]) | outside(v1[i], t_lo[i], t_hi[i]) | outside(v2[i], t_lo[i], t_hi[i]);
    if (NS__LIKELY(p.unit && !wild))
        for (unsigned i = 0; i < T_SLOTS; i++) ref[i] = pred_unit_i32(v0[i], v1[i], v2[i], t_lo[i], t_hi[i]);
    else
        for (unsigned i = 0; i < T_SLOTS; i++) ref[i] = pred_i32(&p, v0[i], v1[i], v2[i], t_lo[i], t_hi[i]);
}

ns_status hand_Transform_write(hand_writer *hw, const bench_Transform_snap *cur, const ns_baselines *base)
{
    ns_status st = ns_baselines_check(base);
    if (st != NS_OK) return st;
    int32_t c[T_SLOTS], ref[T_SLOTS];
    memcpy(c, cur, sizeof c);
    bool bad = false;
    for (unsigned i = 0; i < T_SLOTS; i++) bad |= c[i] < t_lo[i] || c[i] > t_hi[i];
    if (bad) return NS_ERR_RANGE;
    if (hw->status != NS_OK) return hw->status;
    t_reference(base, ref);
    uint32_t z[T_SLOTS], any = 0;
    for (unsigned i = 0; i < T_SLOTS; i++) any |= z[i] = zz(c[i], ref[i]);

    uint8_t scratch[T_WORST_BYTES + 16];
    bw w = record_begin(hw, scratch, T_WORST_BYTES);
    put(&w, any != 0, 1);
    if (any) {
        put_vec(&w, z, 3);
        put_vec(&w, z + 3, 4);
        put_vec(&w, z + 7, 3);
    }
    return record_end(hw, &w, scratch, T_WORST_BYTES);
}

/* Health's references: hp, armor and team predicted (clamped to 0..1000, 0..5000, 0..255);
 * alive, a bool, always against baseline 0 (or the default). */
typedef struct h_ref {
    int32_t hp, armor, team;
    bool alive;
} h_ref;

NS__HOT h_ref h_reference(const ns_baselines *base)
{
    uint32_t n = ns_baselines_count(base);
    const bench_Health_snap *b0 = n ? base->snap[0] : &bench_Health_snap_default;
    h_ref r = {b0->hp, b0->armor, b0->team, b0->alive};
    if (n == 3) {
        const bench_Health_snap *b1 = base->snap[1], *b2 = base->snap[2];
        pred p;
        pred_init(&p, base);
        unsigned wild = outside(b0->hp, 0, 1000) | outside(b1->hp, 0, 1000) | outside(b2->hp, 0, 1000) |
                    outside(b0->armor, 0, 5000) | outside(b1->armor, 0, 5000) | outside(b2->armor, 0, 5000);
        if (NS__LIKELY(p.unit && !wild)) {
            r.hp = pred_unit_i32(b0->hp, b1->hp, b2->hp, 0, 1000);
            r.armor = pred_unit_i32(b0->armor, b1->armor, b2->armor, 0, 5000);
            r.team = pred_unit_i32(b0->team, b1->team, b2->team, 0, 255);
        } else {
            r.hp = pred_i32(&p, b0->hp, b1->hp, b2->hp, 0, 1000);
            r.armor = pred_i32(&p, b0->armor, b1->armor, b2->armor, 0, 5000);
            r.team = pred_i32(&p, b0->team, b1->team, b2->team, 0, 255);
        }
    }
    return r;
}

ns_status hand_Health_write(hand_writer *hw, const bench_Health_snap *cur, const ns_baselines *base)
{
    ns_status st = ns_baselines_check(base);
    if (st != NS_OK) return st;
    if (cur->hp < 0 || cur->hp > 1000 || cur->armor < 0 || cur->armor > 5000) return NS_ERR_RANGE;
    if (hw->status != NS_OK) return hw->status;
    h_ref r = h_reference(base);
    uint32_t zh = zz(cur->hp, r.hp), za = zz(cur->armor, r.armor), zt = zz(cur->team, r.team);
    uint64_t c1 = cur->alive != r.alive;

    uint8_t scratch[H_WORST_BYTES + 16];
    bw w = record_begin(hw, scratch, H_WORST_BYTES);
    if (!(zh | za | zt | c1)) {
        put(&w, 0, 1);
    } else {
        /* Branch-free: an unchanged slot's code has length 0. Two puts: any, hp, alive and the
         * armor change bit (at most 42 bits), then armor, team's change bit and team (at most
         * 54, 33 with valid baselines). */
        unsigned lh, la, lt;
        uint64_t ch = packed(zh, &lh), ca = packed(za, &la), ct = packed(zt, &lt);
        uint64_t c0 = zh != 0, c2 = za != 0, c3 = zt != 0;
        lh = c0 ? lh : 0, la = c2 ? la : 0, lt = c3 ? lt : 0;
        ch = c0 ? ch : 0, ca = c2 ? ca : 0, ct = c3 ? ct : 0;
        uint64_t a = 1u | c0 << 1 | ch << 2 | (c1 | c2 << 1) << (2 + lh);
        put(&w, a, 4 + lh);
        put(&w, ca | (c3 | ct << 1) << la, la + 1 + lt);
    }
    return record_end(hw, &w, scratch, H_WORST_BYTES);
}

/* ---- reading ------------------------------------------------------------------------------ */

void hand_reader_init(hand_reader *r, const void *buf, size_t len)
{
    r->buf = buf;
    r->len = buf ? len : 0;
    r->bit = 0;
    r->status = NS_OK;
}

/* At least 57 bits from bit position bit (the caller guarantees 8 readable bytes). */
static inline uint64_t peek(const uint8_t *base, size_t bit)
{
    return ns__load_le64(base + (bit >> 3)) >> (bit & 7u);
}

static inline bool get_bit(const uint8_t *base, size_t *bit)
{
    bool b = (base[*bit >> 3] >> (*bit & 7u)) & 1u;
    ++*bit;
    return b;
}

/* One delta against ref; a code past 2^32 − 1 or a value outside lo..hi sets *bad. */
static inline int32_t get_delta(const uint8_t *base, size_t *bit, int32_t ref, int32_t lo, int32_t hi, bool *bad)
{
    const ns_model *m = &ns_default_model;
    uint64_t x = peek(base, *bit);
    uint32_t e = m->decode[x & 63u]; /* the default model's codes are complete: no NONE entry */
    unsigned total = e & 0xffu, len = (e >> 8) & 0xffu, b = (e >> 16) & 0x0fu;
    uint64_t u = m->offset[b] + ((x & ((UINT64_C(1) << total) - 1u)) >> len);
    *bit += total;
    int32_t v = ns__u32_as_i32((uint32_t)ref + (uint32_t)ns_unzigzag32((uint32_t)u));
    *bad |= (u > 0xffffffffu) | (v < lo) | (v > hi);
    return v;
}

/* Where a record is read from: the input itself when it has the record's worst case plus 8
 * bytes left at the record's first byte, else a zero-padded copy of what is left. */
typedef struct src {
    const uint8_t *base;
    size_t bit, limit; /* start bit in base; bits of input there (SIZE_MAX on the fast path) */
} src;

static inline src record_src(const hand_reader *r, uint8_t *pad, size_t pad_size, size_t max_bytes)
{
    size_t byte = r->bit >> 3, left = r->len - byte;
    src s = {r->buf + byte, r->bit & 7u, SIZE_MAX};
    if (NS__UNLIKELY(left < max_bytes + 9)) {
        memset(pad, 0, pad_size);
        if (left) memcpy(pad, r->buf + byte, left);
        s.base = pad;
        s.limit = left * 8;
    }
    return s;
}

/* The slow, exact replay for a record that failed a check: the runtime's checked reader, in the
 * generated reader's order, decides which error the generated code would have reported. */
static ns_status fail_exactly(hand_reader *r, bool transform, const int32_t *ref)
{
    ns_reader nr;
    size_t byte = r->bit >> 3;
    ns_reader_init(&nr, r->buf + byte, r->len - byte);
    if (r->bit & 7u) ns_read_bits(&nr, (unsigned)(r->bit & 7u));
    if (ns_read_bool(&nr)) {
        if (transform) {
            static const unsigned first[4] = {0, 3, 7, 10};
            for (unsigned f = 0; f < 3; f++)
                if (ns_read_bool(&nr))
                    for (unsigned i = first[f]; i < first[f + 1]; i++)
                        (void)ns_read_delta_i32_in(&nr, ref[i], t_lo[i], t_hi[i]);
        } else {
            if (ns_read_bool(&nr)) (void)ns_read_delta_i32_in(&nr, ref[0], 0, 1000);
            (void)ns_read_bool(&nr);
            if (ns_read_bool(&nr)) (void)ns_read_delta_i32_in(&nr, ref[1], 0, 5000);
            if (ns_read_bool(&nr)) (void)ns_read_delta_i32_in(&nr, ref[2], 0, 255);
        }
    }
    /* Only reached when the fast path saw an error, so the replay fails too. */
    r->status = ns_reader_failed(&nr) ? ns_reader_status(&nr) : NS_ERR_MALFORMED;
    r->bit = r->len * 8;
    return r->status;
}

ns_status hand_Transform_read(hand_reader *r, bench_Transform_snap *out, const ns_baselines *base)
{
    ns_status st = ns_baselines_check(base);
    if (st != NS_OK) return st;
    if (r->status != NS_OK) return r->status;
    int32_t v[T_SLOTS];
    t_reference(base, v);
    int32_t ref[T_SLOTS];
    memcpy(ref, v, sizeof ref);

    uint8_t pad[T_WORST_BYTES + 16];
    src s = record_src(r, pad, sizeof pad, T_WORST_BYTES);
    size_t bit = s.bit;
    bool bad = false;
    uint64_t head = peek(s.base, bit);
    if (head & 1u) {
        bit++;
        static const unsigned first[4] = {0, 3, 7, 10};
        for (unsigned f = 0; f < 3; f++)
            if (get_bit(s.base, &bit))
                for (unsigned i = first[f]; i < first[f + 1]; i++)
                    v[i] = get_delta(s.base, &bit, ref[i], t_lo[i], t_hi[i], &bad);
    } else {
        bit++;
    }
    if (NS__UNLIKELY(bad || bit > s.limit)) return fail_exactly(r, true, ref);
    r->bit += bit - s.bit;
    memcpy(out, v, sizeof v);
    return NS_OK;
}

ns_status hand_Health_read(hand_reader *r, bench_Health_snap *out, const ns_baselines *base)
{
    ns_status st = ns_baselines_check(base);
    if (st != NS_OK) return st;
    if (r->status != NS_OK) return r->status;
    h_ref ref = h_reference(base);
    bench_Health_snap v = {ref.hp, ref.alive, ref.armor, (uint8_t)ref.team};

    uint8_t pad[H_WORST_BYTES + 16];
    src s = record_src(r, pad, sizeof pad, H_WORST_BYTES);
    size_t bit = s.bit;
    bool bad = false;
    uint64_t head = peek(s.base, bit);
    if ((head & 1u) == 0) {
        bit++;
    } else {
        bit += 2;
        if (head & 2u) v.hp = get_delta(s.base, &bit, ref.hp, 0, 1000, &bad);
        if (get_bit(s.base, &bit)) v.alive = !ref.alive;
        if (get_bit(s.base, &bit)) v.armor = get_delta(s.base, &bit, ref.armor, 0, 5000, &bad);
        if (get_bit(s.base, &bit)) v.team = (uint8_t)get_delta(s.base, &bit, ref.team, 0, 255, &bad);
    }
    if (NS__UNLIKELY(bad || bit > s.limit)) {
        int32_t refs[3] = {ref.hp, ref.armor, ref.team};
        return fail_exactly(r, false, refs);
    }
    r->bit += bit - s.bit;
    *out = v;
    return NS_OK;
}

/* ---- quantizing --------------------------------------------------------------------------- */

/* round(x) half away from zero, clamped to lo..hi, NaN as 0: min/max selects and one truncation. */
static inline int32_t round_clamp(double x, double lo, double hi)
{
    x = x == x ? x : 0.0;
    x = x < lo ? lo : x;
    x = x > hi ? hi : x;
    int64_t t = (int64_t)x;
    double f = x - (double)t;
    return (int32_t)(t + (f >= 0.5) - (f <= -0.5));
}

void hand_Transform_quantize(const bench_Transform *v, bench_Transform_snap *s)
{
    s->position[0] = round_clamp((double)v->position.x * 1000.0, -4000000.0, 4000000.0);
    s->position[1] = round_clamp((double)v->position.y * 1000.0, -4000000.0, 4000000.0);
    s->position[2] = round_clamp((double)v->position.z * 1000.0, -4000000.0, 4000000.0);
    double x = v->rotation.x, y = v->rotation.y, z = v->rotation.z, w = v->rotation.w;
    double len2 = x * x + y * y + z * z + w * w;
    float q[4] = {0.0f, 0.0f, 0.0f, 1.0f}; /* a zero, tiny or non-finite quaternion: identity */
    if (NS__LIKELY(len2 > 1e-20 && isfinite(len2))) {
        double inv = 1.0 / sqrt(len2);
        q[0] = (float)(x * inv), q[1] = (float)(y * inv), q[2] = (float)(z * inv), q[3] = (float)(w * inv);
    }
    for (unsigned k = 0; k < 4; k++) s->rotation[k] = round_clamp((double)q[k] * 1000.0, -1000.0, 1000.0);
    s->velocity[0] = round_clamp((double)v->velocity.x * 100.0, -10000.0, 10000.0);
    s->velocity[1] = round_clamp((double)v->velocity.y * 100.0, -10000.0, 10000.0);
    s->velocity[2] = round_clamp((double)v->velocity.z * 100.0, -10000.0, 10000.0);
}

void hand_Health_quantize(const bench_Health *v, bench_Health_snap *s)
{
    s->hp = v->hp < 0 ? 0 : v->hp > 1000 ? 1000 : v->hp;
    s->alive = v->alive;
    s->armor = round_clamp((double)v->armor * 10.0, 0.0, 5000.0);
    s->team = v->team;
}
