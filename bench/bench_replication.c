/* bench_replication.c — the replication layer's server cost and packet sizes.
 *
 * 1,000 and 10,000 entities (bench.netschema's Transform + Health) replicated to 8 connections
 * with the default 1200-byte budget, in three scenes:
 *   idle     nothing changes (the skip rule's case);
 *   moving   every entity moves smoothly, as players and NPCs do;
 *   chaotic  random positions, health changes, 1% of entities respawning per tick.
 * Reports, per scene: server µs per tick (ns_world_tick + 8 ns_world_write), ns per entity per
 * connection, bytes per client per tick, and framing (everything but the component writes) as a
 * share of the bits. The yardstick, timed interleaved in the same process: one generated write
 * of an entity's two components against one baseline, the cost a hand-built server pays per
 * entity per connection before any framing. Every scene runs in each snapshot packet format
 * (fmt 1, 2 and 3, docs/replication.md section 2). Medians of 7 interleaved rounds. */
#include "bench_common.h" /* first: it sets _POSIX_C_SOURCE for clock_gettime */

#include <math.h>
#include <stdlib.h>

#include "bench.ns.h"

#define CONNS 8
#define ROUNDS 7
#define TICKS_PER_ROUND 20

enum { IDLE, MOVING, CHAOTIC, SCENES };
static const char *const scene_name[SCENES] = {"idle", "moving", "chaotic"};

typedef struct scene {
    int         kind;
    uint32_t    n;
    ns_world   *world;
    ns_replica *replica[CONNS];
    uint32_t    conn[CONNS];
    uint32_t    tick;
    uint64_t    rng;
    bench_Transform *t;
    bench_Health    *h;
    double      bytes, bits, framing, packets, records, groups;
    uint32_t    format;       /* the packet format: NS_PACKET_FORMAT_1, _2 or _3 */
} scene;

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static float unit(uint64_t *s)
{
    return (float)(next(s) >> 40) / 16777216.0f;
}

static const uint32_t types[] = {BENCH_TRANSFORM_ID, BENCH_HEALTH_ID};

static void randomize(scene *s, uint32_t e)
{
    bench_Transform_init(&s->t[e]);
    bench_Health_init(&s->h[e]);
    s->t[e].position = (ns_vec3){unit(&s->rng) * 2000 - 1000, unit(&s->rng) * 20, unit(&s->rng) * 2000 - 1000};
    s->t[e].velocity = (ns_vec3){unit(&s->rng) * 10 - 5, 0, unit(&s->rng) * 10 - 5};
    s->t[e].rotation = (ns_quat){0, 0, 0, 1};
}

static void scene_init(scene *s, int kind, uint32_t n, uint32_t format)
{
    memset(s, 0, sizeof *s);
    s->kind = kind, s->n = n, s->rng = 0x9E3779B97F4A7C15ull + (uint64_t)kind, s->format = format;
    ns_world_config cfg = {.schema = &bench_schema, .max_entities = n, .max_connections = CONNS, .packet_format = format};
    s->world = ns_world_create(&cfg, NULL);
    s->t = calloc(n, sizeof *s->t);
    s->h = calloc(n, sizeof *s->h);
    if (!s->world || !s->t || !s->h) abort();
    for (uint32_t c = 0; c < CONNS; c++) {
        ns_world_connect(s->world, &s->conn[c]);
        ns_handshake hs = ns_world_handshake(s->world, s->conn[c]);
        ns_replica_config rc = {0};
        ns_handshake_accept(&hs, &bench_schema, &rc, NULL, 0);
        s->replica[c] = ns_replica_create(&rc, NULL);
    }
    for (uint32_t e = 0; e < n; e++) {
        ns_entity_id id;
        ns_world_spawn(s->world, types, 2, &id);
        randomize(s, id);
    }
}

static void scene_free(scene *s)
{
    for (uint32_t c = 0; c < CONNS; c++) ns_replica_destroy(s->replica[c]);
    ns_world_destroy(s->world);
    free(s->t);
    free(s->h);
}

/* The game's part of a tick: not timed. */
static void simulate(scene *s)
{
    if (s->kind == IDLE) return;
    for (uint32_t e = 0; e < s->n; e++) {
        bench_Transform *t = &s->t[e];
        if (s->kind == MOVING) {
            t->position.x += t->velocity.x / 60, t->position.z += t->velocity.z / 60;
            float a = (float)(s->tick + e) * 0.01f;
            t->rotation = (ns_quat){0, sinf(a), 0, cosf(a)};
        } else {
            randomize(s, e);
            s->h[e].hp = (int32_t)(next(&s->rng) % 1000);
        }
        ns_world_set(s->world, e, BENCH_TRANSFORM_ID, t);
        ns_world_set(s->world, e, BENCH_HEALTH_ID, &s->h[e]);
    }
    if (s->kind == CHAOTIC)
        for (uint32_t k = 0; k < s->n / 100; k++) {
            ns_entity_id e = (ns_entity_id)(next(&s->rng) % s->n), id;
            if (ns_world_despawn(s->world, e) == NS_OK) ns_world_spawn(s->world, types, 2, &id);
        }
}

/* One server tick, timed; then the clients read and ack (not timed). */
static double step(scene *s)
{
    static uint8_t pkt[CONNS][2048];
    size_t len[CONNS];
    simulate(s);
    double t0 = bench_now();
    ns_world_tick(s->world, ++s->tick);
    for (uint32_t c = 0; c < CONNS; c++) {
        ns_repl_stats st;
        if (ns_world_write_packet(s->world, s->conn[c], pkt[c], sizeof pkt[c], &len[c], &st) != NS_OK) abort();
        s->bits += st.bits, s->framing += st.framing_bits;
        s->records += st.updates + st.spawns + st.despawns, s->groups += st.groups;
    }
    double dt = bench_now() - t0;
    for (uint32_t c = 0; c < CONNS; c++) {
        s->bytes += (double)len[c], s->packets++;
        if (ns_replica_read_packet(s->replica[c], pkt[c], len[c]) != NS_OK) abort();
        uint8_t ack[16];
        ns_writer w;
        ns_writer_init(&w, ack, sizeof ack);
        ns_replica_write_ack(s->replica[c], &w);
        ns_reader r;
        ns_reader_init(&r, ack, ns_writer_flush(&w));
        ns_world_read_ack(s->world, s->conn[c], &r);
    }
    return dt;
}

/* The yardstick: n generated writes of Transform + Health against one baseline. */
typedef struct yard {
    uint32_t n;
    bench_Transform_snap *t, *tb;
    bench_Health_snap    *h, *hb;
    uint8_t buf[1 << 16];
} yard;

static double yardstick(yard *y, scene *s)
{
    for (uint32_t e = 0; e < y->n; e++) {
        y->tb[e] = y->t[e], y->hb[e] = y->h[e];
        bench_Transform_quantize(&s->t[e], &y->t[e]);
        bench_Health_quantize(&s->h[e], &y->h[e]);
    }
    double t0 = bench_now();
    ns_writer w;
    ns_writer_init(&w, y->buf, sizeof y->buf);
    for (uint32_t e = 0; e < y->n; e++) {
        if (ns_writer_bits(&w) > 8 * (sizeof y->buf - 1024)) ns_writer_init(&w, y->buf, sizeof y->buf);
        ns_baselines b = {{&y->tb[e]}, {1}, 1, 2};
        bench_Transform_write(&w, &y->t[e], &b, NS_TO_OBSERVER);
        b.snap[0] = &y->hb[e];
        bench_Health_write(&w, &y->h[e], &b, NS_TO_OBSERVER);
    }
    bench_sink += ns_writer_flush(&w);
    return (bench_now() - t0) / y->n;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Every scene in each packet format: index k * FORMATS + (format - 1). */
#define FORMATS 3
#define RUNS (SCENES * FORMATS)

int main(void)
{
    static const uint32_t sizes[] = {1000, 10000};
    printf("bench_replication: %d connections, 1200-byte budget, medians of %d interleaved rounds\n", CONNS, ROUNDS);
    printf("%-8s %3s %6s %10s %12s %10s %9s %9s %8s %7s\n", "scene", "fmt", "ents", "us/tick", "ns/ent/conn", "vs write",
           "B/client", "framing", "rec/pkt", "groups");
    for (size_t si = 0; si < 2; si++) {
        uint32_t n = sizes[si];
        scene sc[RUNS];
        yard *y = calloc(1, sizeof *y);
        y->n = n;
        y->t = calloc(n, sizeof *y->t), y->tb = calloc(n, sizeof *y->tb);
        y->h = calloc(n, sizeof *y->h), y->hb = calloc(n, sizeof *y->hb);
        for (int k = 0; k < RUNS; k++) scene_init(&sc[k], k / FORMATS, n, (uint32_t)(k % FORMATS) + NS_PACKET_FORMAT_1);
        for (int k = 0; k < RUNS; k++)
            for (int i = 0; i < 40; i++) step(&sc[k]); /* warm up: every spawn acked */
        for (int k = 0; k < RUNS; k++) sc[k].bytes = sc[k].bits = sc[k].framing = sc[k].packets = sc[k].records = sc[k].groups = 0;
        double tick_time[RUNS][ROUNDS], write_time[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < RUNS; k++) {
                double sum = 0;
                for (int i = 0; i < TICKS_PER_ROUND; i++) sum += step(&sc[k]);
                tick_time[k][r] = sum / TICKS_PER_ROUND;
            }
            write_time[r] = yardstick(y, &sc[MOVING * FORMATS]);
        }
        qsort(write_time, ROUNDS, sizeof(double), by_value);
        double write_ns = write_time[ROUNDS / 2] * 1e9;
        for (int k = 0; k < RUNS; k++) {
            qsort(tick_time[k], ROUNDS, sizeof(double), by_value);
            double us = tick_time[k][ROUNDS / 2] * 1e6, per = us * 1e3 / ((double)n * CONNS);
            printf("%-8s %3u %6u %10.1f %12.1f %9.2fx %9.1f %8.1f%% %8.1f %7.1f\n", scene_name[sc[k].kind], sc[k].format, n, us,
                   per, per / write_ns, sc[k].bytes / sc[k].packets, 100.0 * sc[k].framing / (sc[k].bits ? sc[k].bits : 1),
                   sc[k].records / sc[k].packets, sc[k].groups / sc[k].packets);
            scene_free(&sc[k]);
        }
        printf("%-8s %3s %6u %10s %12.1f %9s   (one generated write of Transform + Health, 1 baseline)\n", "yardstick", "",
               n, "", write_ns, "1.00x");
        free(y->t), free(y->tb), free(y->h), free(y->hb), free(y);
    }
    return 0;
}
