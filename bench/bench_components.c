/* bench_components — generated serializers on 10,000 entities with a Transform and a Health,
 * written and read against three acked baselines (the predictor on):
 *   - bits per entity when entities are idle, move at constant velocity, or move at random;
 *   - speed in entities per second, and as a ratio to memcpy of the raw value structs;
 *   - speed as generated ÷ hand-written time for encode, decode and quantize, for each motion:
 *     bench/hand_codec.c writes the same bytes (and makes the same snapshots) the way a
 *     programmer who knew only this schema would, timed interleaved with the generated code;
 *   - the table mode's encode and decode (netschemac --codec table: the runtime's descriptor-driven
 *     ns_table_write/ns_table_read, which its generated _write/_read call) as ratios to the
 *     default mode's and to the hand codec's time, interleaved likewise.
 * Every entity has its own random state, so the ~300,000 data-dependent branch outcomes of one
 * pass are far more than a branch predictor can learn; a small repeated data set would hide
 * mispredictions that real traffic has.
 *
 * The same source is also built with -O3 -march=native (bench_components_native, when the
 * compiler takes the flag); this program runs it and prints its rows under its own, so one run
 * reports both builds. With --rows it prints only its ratio rows (how it is run for that). */
#include "bench_common.h"

#include <math.h>
#include <stdlib.h>

#include "bench.ns.h"
#include "hand_codec.h"

#define ENTITIES 10000
#define REPS 15
#define HAND_ROUNDS 21 /* odd: the median is one round's ratio */

#ifndef BENCH_FLAGS
#define BENCH_FLAGS "build flags"
#endif

typedef struct entity {
    bench_Transform_snap t[4]; /* ticks 8, 9, 10 (the baselines) and 11 (now) */
    bench_Health_snap    h[4];
} entity;

typedef struct world {
    entity          *e;
    bench_Transform *tv;  /* value structs, for the memcpy baseline and quantize */
    bench_Health    *hv;
    void            *copy;
    uint8_t         *buf;
    size_t           cap, used;
    bench_Transform_snap *t_out;
    bench_Health_snap    *h_out;
    bench_Transform_snap *tq, *tq_hand; /* quantized by the generated and the hand code */
    bench_Health_snap    *hq, *hq_hand;
    uint8_t         *hand_buf; /* the hand codec's output, compared with buf */
    size_t           hand_used;
    int              failures;
} world;

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double unit(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

typedef enum { IDLE, LINEAR, RANDOM } motion;

/* Four ticks of one entity's state. */
static void simulate(entity *e, bench_Transform *tv, bench_Health *hv, motion m)
{
    bench_Transform t;
    bench_Health h;
    bench_Transform_init(&t);
    bench_Health_init(&h);
    t.position.x = (float)(unit() * 2000 - 1000), t.position.y = (float)(unit() * 20), t.position.z = (float)(unit() * 2000 - 1000);
    ns_quat q = {(float)unit(), (float)unit(), (float)unit(), (float)unit()};
    t.rotation = ns_quat_normalize(q);
    ns_vec3 v = {(float)(unit() * 10 - 5), 0, (float)(unit() * 10 - 5)};
    t.velocity = m == IDLE ? (ns_vec3){0, 0, 0} : v;
    h.hp = 50 + (int32_t)(unit() * 50);
    h.armor = (float)(unit() * 100);
    h.team = (uint8_t)(unit() * 4);
    for (int tick = 0; tick < 4; tick++) {
        bench_Transform_quantize(&t, &e->t[tick]);
        bench_Health_quantize(&h, &e->h[tick]);
        if (m == LINEAR) {
            /* 60 Hz: a constant step in quantized units. */
            t.position.x += t.velocity.x / 64, t.position.z += t.velocity.z / 64;
        } else if (m == RANDOM) {
            t.position.x += (float)(unit() * 0.2 - 0.1), t.position.z += (float)(unit() * 0.2 - 0.1);
            t.velocity.x += (float)(unit() * 2 - 1);
            ns_quat dq = {t.rotation.x + (float)(unit() * 0.02 - 0.01), t.rotation.y, t.rotation.z, t.rotation.w};
            t.rotation = ns_quat_normalize(dq);
            if (unit() < 0.1) h.hp -= (int32_t)(unit() * 10);
        }
    }
    /* What _quantize is timed on: the value as a game holds it, a rotation not quite unit. */
    t.rotation.x *= 1.0001f;
    *tv = t;
    *hv = h;
}

static void make_world(world *w, motion m)
{
    for (int i = 0; i < ENTITIES; i++) {
        simulate(&w->e[i], &w->tv[i], &w->hv[i], m);
        if (m == LINEAR) {
            /* Exactly linear in quantized units, as a server quantizing each tick would see. */
            for (int k = 0; k < 3; k++) {
                int32_t d = w->e[i].t[1].position[k] - w->e[i].t[0].position[k];
                for (int tick = 2; tick < 4; tick++) w->e[i].t[tick].position[k] = w->e[i].t[0].position[k] + d * tick;
            }
        }
    }
}

static ns_baselines base_of(entity *e, void *t_or_h)
{
    ns_baselines b;
    bool t = t_or_h == e->t;
    b.snap[0] = t ? (const void *)&e->t[2] : (const void *)&e->h[2];
    b.snap[1] = t ? (const void *)&e->t[1] : (const void *)&e->h[1];
    b.snap[2] = t ? (const void *)&e->t[0] : (const void *)&e->h[0];
    b.tick[0] = 10, b.tick[1] = 9, b.tick[2] = 8;
    b.count = 3;
    b.tick_now = 11;
    return b;
}

static void encode_all(void *p)
{
    world *w = p;
    ns_writer wr;
    ns_writer_init(&wr, w->buf, w->cap);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        bench_Transform_write(&wr, &e->t[3], &bt, NS_TO_OBSERVER);
        bench_Health_write(&wr, &e->h[3], &bh, NS_TO_OBSERVER);
    }
    w->used = ns_writer_flush(&wr);
}

static void decode_all(void *p)
{
    world *w = p;
    ns_reader r;
    ns_reader_init(&r, w->buf, w->used);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        bench_Transform_read(&r, &w->t_out[i], &bt, NS_TO_OBSERVER);
        bench_Health_read(&r, &w->h_out[i], &bh, NS_TO_OBSERVER);
    }
    w->failures += ns_reader_failed(&r);
}

static void quantize_all(void *p)
{
    world *w = p;
    for (int i = 0; i < ENTITIES; i++) {
        bench_Transform_quantize(&w->tv[i], &w->tq[i]);
        bench_Health_quantize(&w->hv[i], &w->hq[i]);
    }
}

static void hand_encode_all(void *p)
{
    world *w = p;
    hand_writer wr;
    hand_writer_init(&wr, w->hand_buf, w->cap);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        hand_Transform_write(&wr, &e->t[3], &bt);
        hand_Health_write(&wr, &e->h[3], &bh);
    }
    w->hand_used = hand_writer_flush(&wr);
}

static void hand_decode_all(void *p)
{
    world *w = p;
    hand_reader r;
    hand_reader_init(&r, w->buf, w->used);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        hand_Transform_read(&r, &w->t_out[i], &bt);
        hand_Health_read(&r, &w->h_out[i], &bh);
    }
    w->failures += r.status != NS_OK;
}

static void hand_quantize_all(void *p)
{
    world *w = p;
    for (int i = 0; i < ENTITIES; i++) {
        hand_Transform_quantize(&w->tv[i], &w->tq_hand[i]);
        hand_Health_quantize(&w->hv[i], &w->hq_hand[i]);
    }
}

/* The table mode (netschemac --codec table): its generated _write and _read are these calls on
 * the same descriptors, so they are timed here, in the same process as the default mode's code. */
static void table_encode_all(void *p)
{
    world *w = p;
    ns_writer wr;
    ns_writer_init(&wr, w->buf, w->cap);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        ns_writer x = wr;
        if (ns_table_write(&x, &bench_Transform_desc, &e->t[3], NULL, &bt, NS_TO_OBSERVER) == NS_OK) wr = x;
        x = wr;
        if (ns_table_write(&x, &bench_Health_desc, &e->h[3], NULL, &bh, NS_TO_OBSERVER) == NS_OK) wr = x;
    }
    w->used = ns_writer_flush(&wr);
}

static void table_decode_all(void *p)
{
    world *w = p;
    ns_reader r;
    ns_reader_init(&r, w->buf, w->used);
    for (int i = 0; i < ENTITIES; i++) {
        entity *e = &w->e[i];
        ns_baselines bt = base_of(e, e->t), bh = base_of(e, e->h);
        ns_table_read(&r, &bench_Transform_desc, &w->t_out[i], NULL, &bt, NS_TO_OBSERVER);
        ns_table_read(&r, &bench_Health_desc, &w->h_out[i], NULL, &bh, NS_TO_OBSERVER);
    }
    w->failures += ns_reader_failed(&r);
}

/* The table mode writes the bytes the default mode writes and reads them back to the same states. */
static bool table_same_results(world *w)
{
    encode_all(w);
    size_t used = w->used;
    memcpy(w->hand_buf, w->buf, used);
    table_encode_all(w);
    int mismatches = 0;
    table_decode_all(w);
    for (int i = 0; i < ENTITIES; i++)
        mismatches += !bench_Transform_snap_equal(&w->t_out[i], &w->e[i].t[3]) || !bench_Health_snap_equal(&w->h_out[i], &w->e[i].h[3]);
    if (used != w->used || memcmp(w->hand_buf, w->buf, used) != 0 || mismatches || w->failures) {
        fprintf(stderr, "bench_components: the table mode differs (bytes, %d snapshots) or failed (%d)\n", mismatches,
                w->failures);
        return false;
    }
    return true;
}

static double time_once(void (*fn)(void *), void *arg)
{
    double t0 = bench_now();
    fn(arg);
    return bench_now() - t0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Generated ÷ hand time over HAND_ROUNDS rounds, each round timing the two back to back
 * (alternating which goes first) so that both see the same machine state: the median ratio,
 * and the median generated time per entity in ns. */
typedef struct ratio {
    double ratio, gen_ns;
} ratio;

static ratio median_ratio(void (*gen)(void *), void (*hand)(void *), void *arg)
{
    double r[HAND_ROUNDS], tg[HAND_ROUNDS];
    for (int i = 0; i < HAND_ROUNDS; i++) {
        double th;
        if (i & 1) th = time_once(hand, arg), tg[i] = time_once(gen, arg);
        else tg[i] = time_once(gen, arg), th = time_once(hand, arg);
        r[i] = tg[i] / th;
    }
    qsort(r, HAND_ROUNDS, sizeof r[0], by_value);
    qsort(tg, HAND_ROUNDS, sizeof tg[0], by_value);
    return (ratio){r[HAND_ROUNDS / 2], tg[HAND_ROUNDS / 2] / ENTITIES * 1e9};
}

static void copy_values(void *p)
{
    world *w = p;
    memcpy(w->copy, w->tv, sizeof(bench_Transform) * ENTITIES);
    memcpy((char *)w->copy + sizeof(bench_Transform) * ENTITIES, w->hv, sizeof(bench_Health) * ENTITIES);
    bench_sink += ((unsigned char *)w->copy)[ENTITIES];
}

/* Both codecs must write the same bytes, read the same snapshots and quantize the same values. */
static bool same_results(world *w)
{
    int mismatches = 0;
    encode_all(w);
    decode_all(w);
    for (int i = 0; i < ENTITIES; i++)
        mismatches += !bench_Transform_snap_equal(&w->t_out[i], &w->e[i].t[3]) || !bench_Health_snap_equal(&w->h_out[i], &w->e[i].h[3]);
    hand_encode_all(w);
    hand_decode_all(w);
    for (int i = 0; i < ENTITIES; i++)
        mismatches += !bench_Transform_snap_equal(&w->t_out[i], &w->e[i].t[3]) || !bench_Health_snap_equal(&w->h_out[i], &w->e[i].h[3]);
    quantize_all(w);
    hand_quantize_all(w);
    for (int i = 0; i < ENTITIES; i++)
        mismatches += !bench_Transform_snap_equal(&w->tq[i], &w->tq_hand[i]) || !bench_Health_snap_equal(&w->hq[i], &w->hq_hand[i]);
    if (w->hand_used != w->used || memcmp(w->hand_buf, w->buf, w->used) != 0 || mismatches || w->failures) {
        fprintf(stderr, "bench_components: the codecs differ (bytes, %d snapshots) or failed (%d)\n", mismatches, w->failures);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    bool rows_only = argc > 1 && strcmp(argv[1], "--rows") == 0;
    world w;
    memset(&w, 0, sizeof w);
    w.e = calloc(ENTITIES, sizeof *w.e);
    w.tv = calloc(ENTITIES, sizeof *w.tv);
    w.hv = calloc(ENTITIES, sizeof *w.hv);
    w.copy = malloc((sizeof(bench_Transform) + sizeof(bench_Health)) * ENTITIES);
    w.cap = (size_t)(BENCH_TRANSFORM_MAX_BYTES + BENCH_HEALTH_MAX_BYTES + 2) * ENTITIES;
    w.buf = malloc(w.cap);
    w.t_out = calloc(ENTITIES, sizeof *w.t_out);
    w.h_out = calloc(ENTITIES, sizeof *w.h_out);
    w.tq = calloc(ENTITIES, sizeof *w.tq);
    w.tq_hand = calloc(ENTITIES, sizeof *w.tq_hand);
    w.hq = calloc(ENTITIES, sizeof *w.hq);
    w.hq_hand = calloc(ENTITIES, sizeof *w.hq_hand);
    w.hand_buf = malloc(w.cap);

    static const char *const names[] = {"idle", "constant velocity", "random motion"};
    if (!rows_only) {
        printf("bench_components: %d entities, Transform + Health, written against 3 baselines\n", ENTITIES);
        for (int m = IDLE; m <= RANDOM; m++) {
            make_world(&w, (motion)m);
            if (!same_results(&w)) return 1;
            printf("  %-18s %7.2f bits/entity  (%.0f bytes for all)\n", names[m], w.used * 8.0 / ENTITIES, w.used * 1.0);
        }
        double t_copy = bench_best(copy_values, &w, REPS);
        double t_enc = bench_best(encode_all, &w, REPS);
        double t_dec = bench_best(decode_all, &w, REPS);
        double value_bytes = (double)(sizeof(bench_Transform) + sizeof(bench_Health)) * ENTITIES;
        printf("  speed (random motion; raw value structs are %.0f bytes per entity):\n", value_bytes / ENTITIES);
        printf("    %-26s %8.2f M entities/s  %8.1f MB/s of value structs\n", "memcpy of the value structs",
               ENTITIES / t_copy / 1e6, value_bytes / t_copy / 1e6);
        printf("    %-26s %8.2f M entities/s  ratio to memcpy %.4f\n", "encode (write both)", ENTITIES / t_enc / 1e6,
               t_copy / t_enc);
        printf("    %-26s %8.2f M entities/s  ratio to memcpy %.4f\n", "decode (read both)", ENTITIES / t_dec / 1e6,
               t_copy / t_dec);
        printf("  generated / hand-written time (bench/hand_codec.c: same bytes, same snapshots; median of %d\n"
               "  interleaved rounds; in brackets the generated code's ns per entity):\n", HAND_ROUNDS);
        printf("    %-24s %-18s %-16s %-16s %-16s\n", "build", "motion", "encode", "decode", "quantize");
    }
    for (int m = IDLE; m <= RANDOM; m++) {
        make_world(&w, (motion)m);
        if (!same_results(&w)) return 1;
        ratio e = median_ratio(encode_all, hand_encode_all, &w);
        ratio d = median_ratio(decode_all, hand_decode_all, &w);
        ratio q = median_ratio(quantize_all, hand_quantize_all, &w);
        if (w.failures) {
            fprintf(stderr, "decode failure while timing (%d)\n", w.failures);
            return 1;
        }
        printf("    %-24s %-18s %5.2f (%5.1f ns)   %5.2f (%5.1f ns)   %5.2f (%5.1f ns)\n", BENCH_FLAGS, names[m], e.ratio,
               e.gen_ns, d.ratio, d.gen_ns, q.ratio, q.gen_ns);
    }
    if (!rows_only)
        printf("  table mode (--codec table) / default mode and / hand-written time (median of %d interleaved\n"
               "  rounds; in brackets the table mode's ns per entity):\n"
               "    %-24s %-18s %-16s %-16s %-16s %-16s\n", HAND_ROUNDS, "build", "motion", "encode / default",
               "decode / default", "encode / hand", "decode / hand");
    for (int m = IDLE; m <= RANDOM; m++) {
        make_world(&w, (motion)m);
        if (!table_same_results(&w)) return 1;
        ratio e = median_ratio(table_encode_all, encode_all, &w);
        ratio d = median_ratio(table_decode_all, decode_all, &w);
        ratio eh = median_ratio(table_encode_all, hand_encode_all, &w);
        ratio dh = median_ratio(table_decode_all, hand_decode_all, &w);
        if (w.failures) {
            fprintf(stderr, "decode failure while timing the table mode (%d)\n", w.failures);
            return 1;
        }
        printf("    %-24s %-18s %5.2f (%5.1f ns)   %5.2f (%5.1f ns)   %5.2f             %5.2f\n", BENCH_FLAGS, names[m],
               e.ratio, e.gen_ns, d.ratio, d.gen_ns, eh.ratio, dh.ratio);
    }
    fflush(stdout);
#ifdef BENCH_NATIVE
    /* The same benchmark built with -O3 -march=native: its rows under these. */
    if (!rows_only && system("\"" BENCH_NATIVE "\" --rows") != 0) {
        fprintf(stderr, "bench_components: the -O3 -march=native build failed\n");
        return 1;
    }
#else
    if (!rows_only) printf("    (no -O3 -march=native build: the compiler does not take -march=native)\n");
#endif
    free(w.e), free(w.tv), free(w.hv), free(w.copy), free(w.buf), free(w.t_out), free(w.h_out), free(w.hand_buf);
    free(w.tq), free(w.tq_hand), free(w.hq), free(w.hq_hand);
    return 0;
}
