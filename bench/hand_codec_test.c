/* hand_codec_test.c — holds bench/hand_codec.c to the generated code: for random Transform and
 * Health records (idle, constant velocity, random motion, values at the range edges; 0..3
 * baselines; regular, irregular, wrapped and invalid tick gaps) the hand writer must produce the
 * same bytes and statuses as bench_Transform_write / bench_Health_write, and the hand reader the
 * same snapshots and statuses as the generated readers, on whole, truncated and corrupted input
 * and into buffers too small for the records; and the hand quantizers must make the generated
 * snapshots of any float, NaN and infinities included. Exits 1 on the first difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hand_codec.h"

#define RECORDS 4000
#define ROUNDS 40

static uint64_t rng = 0x243f6a8885a308d3u;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}
static int32_t between(int32_t lo, int32_t hi) /* inclusive */
{
    return (int32_t)((int64_t)lo + (int64_t)(next() % (uint32_t)((int64_t)hi - lo + 1)));
}
static int32_t clamp(int64_t v, int32_t lo, int32_t hi)
{
    return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

static int failures;
#define CHECK(cond, ...)                                                                            \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            fprintf(stderr, "hand_codec_test: " __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                                    \
            if (++failures > 10) exit(1);                                                           \
        }                                                                                           \
    } while (0)

/* One record to write: a component's four ticks (baselines 2, 1, 0 = oldest..newest, then now). */
typedef struct rec {
    bench_Transform_snap t[4];
    bench_Health_snap    h[4];
    ns_baselines         base_t, base_h;
} rec;

/* Four values of one quantized slot: idle, linear, noisy, or wild within lo..hi. */
static void track(int32_t out[4], int32_t lo, int32_t hi, int kind)
{
    int32_t span = (int32_t)(((int64_t)hi - lo) / 4);
    int32_t v = between(lo, hi), step = kind == 0 ? 0 : between(-span / 50 - 1, span / 50 + 1);
    for (int k = 0; k < 4; k++) {
        int64_t x = (int64_t)v + (int64_t)step * k;
        if (kind == 2) x += between(-20, 20);
        if (kind == 3) x = next() % 4 == 0 ? (next() & 1 ? lo : hi) : between(lo, hi);
        out[k] = clamp(x, lo, hi);
    }
}

static void make(rec *r)
{
    static const int32_t lo[10] = {-4000000, -4000000, -4000000, -1000, -1000, -1000, -1000, -10000, -10000, -10000};
    static const int32_t hi[10] = {4000000, 4000000, 4000000, 1000, 1000, 1000, 1000, 10000, 10000, 10000};
    int kind = (int)(next() % 4);
    for (int i = 0; i < 10; i++) {
        int32_t v[4];
        track(v, lo[i], hi[i], next() % 8 == 0 ? (int)(next() % 4) : kind);
        for (int k = 0; k < 4; k++) {
            int32_t *s = (int32_t *)(void *)&r->t[k];
            s[i] = v[k];
        }
    }
    int32_t hp[4], armor[4], team[4];
    track(hp, 0, 1000, kind), track(armor, 0, 5000, kind), track(team, 0, 255, next() % 2 ? 0 : kind);
    bool alive = next() & 1;
    for (int k = 0; k < 4; k++) {
        memset(&r->h[k], 0, sizeof r->h[k]);
        r->h[k].hp = hp[k], r->h[k].armor = armor[k], r->h[k].team = (uint8_t)team[k];
        r->h[k].alive = alive ^ (next() % 8 == 0);
    }
    /* Ticks: mostly 1 apart, sometimes irregular gaps, a wrapped counter, a wide gap or unordered. */
    uint32_t t2 = next(), g12 = 1, g01 = 1, gnow = 1;
    switch (next() % 6) {
    case 0: g12 = 1 + next() % 5, g01 = 1 + next() % 5, gnow = 1 + next() % 9; break;
    case 1: t2 = 0xfffffffeu; break;
    case 2: g12 = 1u << 27, g01 = 1u << 28, gnow = 1u << 29; break; /* gaps past 32-bit division */
    case 3: g12 = 1, g01 = 0x7fffffffu; break;                       /* a fraction near 2^35 */
    case 4: g12 = next() % 2 ? 0 : 0x90000000u; break;         /* invalid: predict baseline 0 */
    default: break;
    }
    /* Baselines are not validated: a wild one must still predict the same (overflow checks). */
    if (next() % 16 == 0) r->t[next() % 3].position[next() % 3] = next() & 1 ? INT32_MAX : INT32_MIN;
    if (next() % 16 == 0) r->h[next() % 3].hp = next() & 1 ? INT32_MAX : -1;
    uint32_t count = next() % 4;
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.tick[2] = t2, b.tick[1] = t2 + g12, b.tick[0] = t2 + g12 + g01, b.tick_now = t2 + g12 + g01 + gnow;
    b.count = count;
    r->base_t = r->base_h = b;
    for (uint32_t i = 0; i < count; i++) r->base_t.snap[i] = &r->t[2 - i], r->base_h.snap[i] = &r->h[2 - i];
}

/* Writes every record with both codecs into buffers of cap bytes and compares. */
static size_t write_both(const rec *recs, int n, uint8_t *gen, uint8_t *hand, size_t cap)
{
    ns_writer w;
    hand_writer hw;
    ns_writer_init(&w, gen, cap);
    hand_writer_init(&hw, hand, cap);
    for (int i = 0; i < n; i++) {
        ns_status a = bench_Transform_write(&w, &recs[i].t[3], &recs[i].base_t, NS_TO_OBSERVER);
        ns_status b = hand_Transform_write(&hw, &recs[i].t[3], &recs[i].base_t);
        CHECK(a == b, "Transform_write record %d: status %d generated, %d hand", i, a, b);
        a = bench_Health_write(&w, &recs[i].h[3], &recs[i].base_h, NS_TO_OBSERVER);
        b = hand_Health_write(&hw, &recs[i].h[3], &recs[i].base_h);
        CHECK(a == b, "Health_write record %d: status %d generated, %d hand", i, a, b);
    }
    size_t ng = ns_writer_flush(&w), nh = hand_writer_flush(&hw);
    CHECK(ng == nh, "cap %zu: %zu bytes generated, %zu hand", cap, ng, nh);
    CHECK(ng != nh || memcmp(gen, hand, ng) == 0, "cap %zu: the bytes differ", cap);
    for (size_t i = 0; i < ng && i < nh; i++)
        if (gen[i] != hand[i]) {
            CHECK(0, "first differing byte %zu: %02x generated, %02x hand", i, gen[i], hand[i]);
            break;
        }
    CHECK(ns_writer_overflowed(&w) == (hw.status != NS_OK), "cap %zu: overflow differs", cap);
    return ng;
}

/* Reads len bytes with both readers and compares every status and snapshot. */
static void read_both(const rec *recs, int n, const uint8_t *buf, size_t len, const char *what)
{
    ns_reader r;
    hand_reader hr;
    ns_reader_init(&r, buf, len);
    hand_reader_init(&hr, buf, len);
    for (int i = 0; i < n; i++) {
        bench_Transform_snap ta, tb;
        bench_Health_snap ha, hb;
        memset(&ta, 0x5a, sizeof ta), memset(&tb, 0x5a, sizeof tb);
        memset(&ha, 0, sizeof ha), memset(&hb, 0, sizeof hb);
        ns_status a = bench_Transform_read(&r, &ta, &recs[i].base_t, NS_TO_OBSERVER);
        ns_status b = hand_Transform_read(&hr, &tb, &recs[i].base_t);
        CHECK(a == b, "%s: Transform_read record %d: status %d generated, %d hand", what, i, a, b);
        CHECK(bench_Transform_snap_equal(&ta, &tb), "%s: Transform_read record %d decodes differently", what, i);
        a = bench_Health_read(&r, &ha, &recs[i].base_h, NS_TO_OBSERVER);
        b = hand_Health_read(&hr, &hb, &recs[i].base_h);
        CHECK(a == b, "%s: Health_read record %d: status %d generated, %d hand", what, i, a, b);
        CHECK(bench_Health_snap_equal(&ha, &hb), "%s: Health_read record %d decodes differently", what, i);
    }
}

/* A float to quantize: ordinary values mostly, then range edges, halfway cases, NaN, infinities
 * and values beyond int32. */
static float any_float(float scale)
{
    static const float odd[] = {0.0f, -0.0f, 0.5f, -0.5f, 0.0005f, -0.0005f, 0.0015f, 2.5f, 4000.0f, -4000.0f,
                                4000.0005f, 100.0f, 100.005f, -100.005f, 500.0f, 500.05f, 1e10f, -1e10f,
                                (float)NAN, INFINITY, -INFINITY, 1e-30f};
    if (next() % 4 == 0) return odd[next() % (sizeof odd / sizeof odd[0])];
    return (float)((double)next() / 4294967296.0 * 2.0 - 1.0) * scale;
}

/* The hand quantizers must make the generated snapshots of any value, odd ones included. */
static void check_quantize(void)
{
    for (int i = 0; i < 200000; i++) {
        bench_Transform v;
        bench_Health h;
        bench_Transform_init(&v);
        bench_Health_init(&h);
        v.position = (ns_vec3){any_float(4500.0f), any_float(4500.0f), any_float(4500.0f)};
        v.rotation = (ns_quat){any_float(1.0f), any_float(1.0f), any_float(1.0f), any_float(1.0f)};
        if (i % 8 == 0) v.rotation = (ns_quat){0.0f, 0.0f, 0.0f, 0.0f};
        v.velocity = (ns_vec3){any_float(120.0f), any_float(120.0f), any_float(120.0f)};
        h.hp = (int32_t)next(), h.alive = next() & 1, h.armor = any_float(600.0f), h.team = (uint8_t)next();
        bench_Transform_snap a, b;
        bench_Health_snap ha, hb;
        bench_Transform_quantize(&v, &a);
        hand_Transform_quantize(&v, &b);
        bench_Health_quantize(&h, &ha);
        hand_Health_quantize(&h, &hb);
        CHECK(bench_Transform_snap_equal(&a, &b), "value %d: Transform quantizes differently", i);
        CHECK(bench_Health_snap_equal(&ha, &hb), "value %d: Health quantizes differently", i);
    }
}

int main(void)
{
    check_quantize();
    rec *recs = calloc(RECORDS, sizeof *recs);
    size_t cap = (size_t)(BENCH_TRANSFORM_MAX_BYTES + BENCH_HEALTH_MAX_BYTES) * RECORDS + 16;
    uint8_t *gen = malloc(cap), *hand = malloc(cap), *bad = malloc(cap);
    if (!recs || !gen || !hand || !bad) return 1;
    size_t bytes = 0;
    int errors_seen = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < RECORDS; i++) make(&recs[i]);
        size_t n = write_both(recs, RECORDS, gen, hand, cap);
        bytes += n;
        read_both(recs, RECORDS, gen, n, "whole input");
        /* Decoding must give back the written snapshots. */
        ns_reader r;
        ns_reader_init(&r, gen, n);
        hand_reader hr;
        hand_reader_init(&hr, gen, n);
        for (int i = 0; i < RECORDS; i++) {
            bench_Transform_snap t;
            bench_Health_snap h;
            if (hand_Transform_read(&hr, &t, &recs[i].base_t) == NS_OK)
                CHECK(bench_Transform_snap_equal(&t, &recs[i].t[3]), "record %d: Transform does not round-trip", i);
            if (hand_Health_read(&hr, &h, &recs[i].base_h) == NS_OK)
                CHECK(bench_Health_snap_equal(&h, &recs[i].h[3]), "record %d: Health does not round-trip", i);
        }
        CHECK(hr.status == NS_OK, "round %d: the hand reader failed on its own output (%d)", round, hr.status);
        CHECK(hr.bit <= n * 8 && hr.bit + 8 > n * 8, "round %d: the hand reader stopped at bit %zu of %zu", round, hr.bit, n * 8);
        /* Truncated input: both readers must fail at the same record with the same status. */
        size_t cut = n ? next() % n : 0;
        read_both(recs, RECORDS, gen, cut, "truncated input");
        /* Corrupted input: flipped bits give range errors, bad codes and misaligned records. */
        memcpy(bad, gen, n);
        for (int k = 0; k < 8; k++) bad[next() % (n ? n : 1)] ^= (uint8_t)(1u << (next() % 8));
        read_both(recs, RECORDS, bad, n, "corrupted input");
        /* Random bytes, read against the same baselines. */
        for (size_t i = 0; i < 4096 && i < n; i++) bad[i] = (uint8_t)next();
        read_both(recs, 64, bad, n < 4096 ? n : 4096, "random bytes");
        /* Small buffers: the same bytes stored and the same overflow status. */
        uint8_t small_g[64], small_h[64];
        write_both(recs, 6, small_g, small_h, next() % sizeof small_g);
        hand_reader hx;
        hand_reader_init(&hx, bad, 4096 < n ? 4096 : n);
        bench_Transform_snap t;
        for (int i = 0; i < 64 && hx.status == NS_OK; i++) (void)hand_Transform_read(&hx, &t, &recs[i].base_t);
        errors_seen += hx.status != NS_OK;
    }
    /* Out-of-range snapshots are refused the same way, and nothing is written for them. */
    {
        rec *r = &recs[0];
        r->t[3].position[1] = 4000001, r->h[3].armor = -1;
        CHECK(write_both(recs, 1, gen, hand, cap) == 0, "a refused record left bytes behind");
    }
    /* A hand-made malformed record: Transform, any = 1, position changed, then the packed code of
     * bucket 15 with all 32 raw bits set: 153392480 + 2^32 − 1 does not fit in 32 bits. */
    {
        uint8_t m[16];
        memset(m, 0xff, sizeof m);
        ns_baselines none = {{NULL, NULL, NULL}, {0, 0, 0}, 0, 0};
        hand_reader hr;
        ns_reader r;
        bench_Transform_snap t;
        hand_reader_init(&hr, m, sizeof m);
        ns_reader_init(&r, m, sizeof m);
        ns_status a = bench_Transform_read(&r, &t, &none, NS_TO_OBSERVER), b = hand_Transform_read(&hr, &t, &none);
        CHECK(b == NS_ERR_MALFORMED && a == b, "malformed code: status %d generated, %d hand", a, b);
        /* The same code with raw bits that wrap to a delta of 0: malformed all the same. */
        ns_writer w;
        ns_writer_init(&w, m, sizeof m);
        ns_write_bits(&w, 3, 2);                        /* any, position changed */
        ns_write_bits(&w, 0x3f, 6);                     /* bucket 15 */
        ns_write_bits(&w, 0u - 153392480u, 32);         /* offset + raw = 2^32 */
        ns_write_bits(&w, 0, 6);                        /* y, z deltas 0; rotation, velocity same */
        size_t len = ns_writer_flush(&w);
        hand_reader_init(&hr, m, len);
        ns_reader_init(&r, m, len);
        a = bench_Transform_read(&r, &t, &none, NS_TO_OBSERVER), b = hand_Transform_read(&hr, &t, &none);
        CHECK(b == NS_ERR_MALFORMED && a == b, "wrapping code: status %d generated, %d hand", a, b);
        memset(m, 0xff, sizeof m);
        hand_reader_init(&hr, m, 3);
        b = hand_Transform_read(&hr, &t, &none);
        CHECK(b == NS_ERR_TRUNCATED, "3-byte input: status %d, not NS_ERR_TRUNCATED", b);
    }
    CHECK(errors_seen > 0, "random bytes never made the hand reader fail");
    printf("hand_codec_test: %d rounds of %d records (%zu bytes) written and read identically\n", ROUNDS, RECORDS,
           bytes);
    free(recs), free(gen), free(hand), free(bad);
    return failures ? 1 : 0;
}
