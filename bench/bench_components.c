/* bench_components — generated serializers on 10,000 entities with a Transform and a Health,
 * written and read against three acked baselines (the predictor on):
 *   - speed in entities per second, and as a ratio to memcpy of the raw value structs;
 *   - speed as generated ÷ hand-written time: bench/hand_codec.c writes the same bytes the way a
 *     programmer who knew only this schema would, timed interleaved with the generated code;
 *   - bits per entity when entities are idle, move at constant velocity, or move at random. */
#include "bench_common.h"

#include <math.h>
#include <stdlib.h>

#include "bench.ns.h"
#include "hand_codec.h"

#define ENTITIES 10000
#define REPS 15
#define HAND_ROUNDS 21 /* odd: the median is one round's ratio */

typedef struct entity {
    bench_Transform_snap t[4]; /* ticks 8, 9, 10 (the baselines) and 11 (now) */
    bench_Health_snap    h[4];
} entity;

typedef struct world {
    entity          *e;
    bench_Transform *tv;  /* value structs, for the memcpy baseline */
    bench_Health    *hv;
    void            *copy;
    uint8_t         *buf;
    size_t           cap, used;
    bench_Transform_snap *t_out;
    bench_Health_snap    *h_out;
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

/* The median over HAND_ROUNDS rounds of generated ÷ hand time, each round timing the two back
 * to back (alternating which goes first), so that both see the same machine state. */
static double median_ratio(void (*gen)(void *), void (*hand)(void *), void *arg)
{
    double r[HAND_ROUNDS];
    for (int i = 0; i < HAND_ROUNDS; i++) {
        double tg, th;
        if (i & 1) th = time_once(hand, arg), tg = time_once(gen, arg);
        else tg = time_once(gen, arg), th = time_once(hand, arg);
        r[i] = tg / th;
    }
    qsort(r, HAND_ROUNDS, sizeof r[0], by_value);
    return r[HAND_ROUNDS / 2];
}

static void copy_values(void *p)
{
    world *w = p;
    memcpy(w->copy, w->tv, sizeof(bench_Transform) * ENTITIES);
    memcpy((char *)w->copy + sizeof(bench_Transform) * ENTITIES, w->hv, sizeof(bench_Health) * ENTITIES);
    bench_sink += ((unsigned char *)w->copy)[ENTITIES];
}

int main(void)
{
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
    w.hand_buf = malloc(w.cap);

    printf("bench_components: %d entities, Transform + Health, written against 3 baselines\n", ENTITIES);
    static const char *const names[] = {"idle", "constant velocity", "random motion"};
    for (int m = IDLE; m <= RANDOM; m++) {
        make_world(&w, (motion)m);
        encode_all(&w);
        double bits = w.used * 8.0 / ENTITIES;
        decode_all(&w);
        int mismatches = 0;
        for (int i = 0; i < ENTITIES; i++)
            mismatches += !bench_Transform_snap_equal(&w.t_out[i], &w.e[i].t[3]) || !bench_Health_snap_equal(&w.h_out[i], &w.e[i].h[3]);
        if (mismatches || w.failures) {
            fprintf(stderr, "decode mismatch (%d) or failure (%d)\n", mismatches, w.failures);
            return 1;
        }
        /* The yardstick must write the same bytes and read the same snapshots. */
        hand_encode_all(&w);
        hand_decode_all(&w);
        for (int i = 0; i < ENTITIES; i++)
            mismatches += !bench_Transform_snap_equal(&w.t_out[i], &w.e[i].t[3]) || !bench_Health_snap_equal(&w.h_out[i], &w.e[i].h[3]);
        if (w.hand_used != w.used || memcmp(w.hand_buf, w.buf, w.used) != 0 || mismatches || w.failures) {
            fprintf(stderr, "hand codec: different bytes, decode mismatch (%d) or failure (%d)\n", mismatches, w.failures);
            return 1;
        }
        printf("  %-18s %7.2f bits/entity  (%.0f bytes for all)\n", names[m], bits, w.used * 1.0);
        if (m != RANDOM) continue;
        double t_copy = bench_best(copy_values, &w, REPS);
        double t_enc = bench_best(encode_all, &w, REPS);
        double t_dec = bench_best(decode_all, &w, REPS);
        double value_bytes = (double)(sizeof(bench_Transform) + sizeof(bench_Health)) * ENTITIES;
        printf("  speed (random motion; raw value structs are %.0f bytes per entity):\n",
               value_bytes / ENTITIES);
        printf("    %-26s %8.2f M entities/s  %8.1f MB/s of value structs\n", "memcpy of the value structs",
               ENTITIES / t_copy / 1e6, value_bytes / t_copy / 1e6);
        printf("    %-26s %8.2f M entities/s  ratio to memcpy %.4f\n", "encode (write both)", ENTITIES / t_enc / 1e6,
               t_copy / t_enc);
        printf("    %-26s %8.2f M entities/s  ratio to memcpy %.4f\n", "decode (read both)", ENTITIES / t_dec / 1e6,
               t_copy / t_dec);
        double r_enc = median_ratio(encode_all, hand_encode_all, &w);
        double r_dec = median_ratio(decode_all, hand_decode_all, &w);
        printf("  generated / hand-written time (bench/hand_codec.c, same bytes; median of %d interleaved rounds):\n",
               HAND_ROUNDS);
        printf("    %-26s %8.2f\n", "encode (write both)", r_enc);
        printf("    %-26s %8.2f\n", "decode (read both)", r_dec);
        if (w.failures) {
            fprintf(stderr, "decode failure while timing (%d)\n", w.failures);
            return 1;
        }
    }
    free(w.e), free(w.tv), free(w.hv), free(w.copy), free(w.buf), free(w.t_out), free(w.h_out), free(w.hand_buf);
    return 0;
}
