/* bench_replication.c — the replication layer's server cost and packet sizes.
 *
 * 1,000 and 10,000 entities (bench.netschema's Transform + Health) replicated to 8 connections
 * with the default 1200-byte budget, in three scenes:
 *   idle     nothing changes (the skip rule's case);
 *   moving   every entity moves smoothly, as players and NPCs do;
 *   chaotic  random positions, health changes, 1% of entities respawning per tick (in a world
 *            with room for the ids that wait out their quarantine: ids_for).
 * Reports, per scene: server µs per tick (ns_world_tick + 8 ns_world_write), ns per entity per
 * connection, bytes per client per tick, and framing (everything but the component writes) as a
 * share of the bits; and the client's side: ns per record of ns_replica_read_packet (the
 * packet read, each record applied to the replica's world). The yardsticks, timed interleaved
 * in the same process: one generated write of an entity's two components against one baseline,
 * the cost a hand-built server pays per entity per connection before any framing, and one
 * generated read of the same, what a hand-built client pays per record. Every scene runs in
 * each snapshot packet format (fmt 1 to 5, docs/replication.md section 2). Medians of 7
 * interleaved rounds. */
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
    ns_entity_id *id;         /* per slot of the scene: its entity, NO_ID while none could spawn */
    bench_Transform *t;       /* per slot */
    bench_Health    *h;
    double      bytes, bits, framing, packets, records, groups;
    double      read_time, read_records; /* the clients' reads: seconds, records read */
    uint32_t    format;       /* the packet format: NS_PACKET_FORMAT_1 to _5 */
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

#define NO_ID UINT32_MAX

/* The ids a world of n entities of scene `kind` needs: the chaotic scene's despawned ids wait
 * out the clients' acks and a quarantine (about 16% of them at a time here) before they can be
 * spawned again, so its worlds get room for that; with exactly n ids it would hold only about
 * 84% of its entities. */
static uint32_t ids_for(int kind, uint32_t n)
{
    return kind == CHAOTIC ? n + n / 2 : n;
}

static void randomize(scene *s, uint32_t e)
{
    bench_Transform_init(&s->t[e]);
    bench_Health_init(&s->h[e]);
    s->t[e].position = (ns_vec3){unit(&s->rng) * 2000 - 1000, unit(&s->rng) * 20, unit(&s->rng) * 2000 - 1000};
    s->t[e].velocity = (ns_vec3){unit(&s->rng) * 10 - 5, 0, unit(&s->rng) * 10 - 5};
    s->t[e].rotation = (ns_quat){0, 0, 0, 1};
}

/* A scene of n entities in a world of max_ids ids (n or more). */
static void scene_init(scene *s, int kind, uint32_t n, uint32_t max_ids, uint32_t format)
{
    memset(s, 0, sizeof *s);
    s->kind = kind, s->n = n, s->rng = 0x9E3779B97F4A7C15ull + (uint64_t)kind, s->format = format;
    ns_world_config cfg = {.schema = &bench_schema, .max_entities = max_ids, .max_connections = CONNS, .packet_format = format};
    s->world = ns_world_create(&cfg, NULL);
    s->id = calloc(n, sizeof *s->id);
    s->t = calloc(n, sizeof *s->t);
    s->h = calloc(n, sizeof *s->h);
    if (!s->world || !s->id || !s->t || !s->h) abort();
    for (uint32_t c = 0; c < CONNS; c++) {
        ns_world_connect(s->world, &s->conn[c]);
        ns_handshake hs = ns_world_handshake(s->world, s->conn[c]);
        ns_replica_config rc = {0};
        ns_handshake_accept(&hs, &bench_schema, &rc, NULL, 0);
        s->replica[c] = ns_replica_create(&rc, NULL);
    }
    for (uint32_t k = 0; k < n; k++) {
        if (ns_world_spawn(s->world, types, 2, &s->id[k]) != NS_OK) abort();
        randomize(s, k);
    }
}

static void scene_free(scene *s)
{
    for (uint32_t c = 0; c < CONNS; c++) ns_replica_destroy(s->replica[c]);
    ns_world_destroy(s->world);
    free(s->id);
    free(s->t);
    free(s->h);
}

/* The game's part of a tick: not timed. Slot k's entity is s->id[k]: in the chaotic scene
 * 1% of the slots a tick get a new entity (the old one despawned), whose id is the lowest free
 * one, not necessarily the old one's. */
static void simulate(scene *s)
{
    if (s->kind == IDLE) return;
    for (uint32_t k = 0; k < s->n; k++) {
        bench_Transform *t = &s->t[k];
        if (s->kind == MOVING) {
            t->position.x += t->velocity.x / 60, t->position.z += t->velocity.z / 60;
            float a = (float)(s->tick + k) * 0.01f;
            t->rotation = (ns_quat){0, sinf(a), 0, cosf(a)};
        } else {
            randomize(s, k);
            s->h[k].hp = (int32_t)(next(&s->rng) % 1000);
        }
        ns_world_set(s->world, s->id[k], BENCH_TRANSFORM_ID, t);
        ns_world_set(s->world, s->id[k], BENCH_HEALTH_ID, &s->h[k]);
    }
    if (s->kind == CHAOTIC)
        for (uint32_t j = 0; j < s->n / 100; j++) {
            const uint32_t k = (uint32_t)(next(&s->rng) % s->n);
            if (ns_world_despawn(s->world, s->id[k]) != NS_OK || ns_world_spawn(s->world, types, 2, &s->id[k]) != NS_OK) {
                fprintf(stderr, "bench_replication: no free id for a respawn (ids_for is too small)\n");
                abort();
            }
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
        s->read_records += st.updates + st.spawns + st.despawns;
    }
    double dt = bench_now() - t0;
    double r0 = bench_now();
    for (uint32_t c = 0; c < CONNS; c++)
        if (ns_replica_read_packet(s->replica[c], pkt[c], len[c]) != NS_OK) abort();
    s->read_time += bench_now() - r0;
    for (uint32_t c = 0; c < CONNS; c++) {
        s->bytes += (double)len[c], s->packets++;
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

/* The yardsticks: n generated writes of Transform + Health against one baseline, and the
 * reads of what they wrote. */
typedef struct yard {
    uint32_t n;
    bench_Transform_snap *t, *tb;
    bench_Health_snap    *h, *hb;
    uint8_t buf[1 << 16];
    size_t  len;     /* bytes of buf the last write pass left */
    uint32_t first;  /* the first entity in it (the ones before went to earlier buffers) */
} yard;

/* Passes over n entities per timing, so that one timing covers at least 20,000 entities (1,000
 * entities alone take 50 µs, too short a span for a steady reading). */
static int reps_for(uint32_t n)
{
    return (int)((20000u + n - 1u) / n);
}

/* One pass of generated writes over every entity, the writer rewound when its buffer nears its
 * end; the last buffer's entities stay in y->buf (from entity y->first on) for yard_read. */
static void write_pass(yard *y)
{
    ns_writer w;
    ns_writer_init(&w, y->buf, sizeof y->buf);
    y->first = 0;
    for (uint32_t e = 0; e < y->n; e++) {
        if (ns_writer_bits(&w) > 8 * (sizeof y->buf - 1024)) ns_writer_init(&w, y->buf, sizeof y->buf), y->first = e;
        ns_baselines b = {{&y->tb[e]}, {1}, 1, 2};
        bench_Transform_write(&w, &y->t[e], &b, NS_TO_OBSERVER);
        b.snap[0] = &y->hb[e];
        bench_Health_write(&w, &y->h[e], &b, NS_TO_OBSERVER);
    }
    y->len = ns_writer_flush(&w);
    bench_sink += y->len;
}

/* Seconds per entity of the writes, the scene's current state against the previous call's:
 * one untimed pass warms the caches, then reps_for(n) passes are timed. */
static double yardstick(yard *y, scene *s)
{
    for (uint32_t e = 0; e < y->n; e++) {
        y->tb[e] = y->t[e], y->hb[e] = y->h[e];
        bench_Transform_quantize(&s->t[e], &y->t[e]);
        bench_Health_quantize(&s->h[e], &y->h[e]);
    }
    write_pass(y);
    double t0 = bench_now();
    const int reps = reps_for(y->n);
    for (int i = 0; i < reps; i++) write_pass(y);
    return (bench_now() - t0) / ((double)y->n * reps);
}

/* One pass of generated reads over what the last write pass left in y->buf. */
static void read_pass(yard *y)
{
    ns_reader r;
    ns_reader_init(&r, y->buf, y->len);
    for (uint32_t e = y->first; e < y->n; e++) {
        bench_Transform_snap t;
        bench_Health_snap h;
        ns_baselines b = {{&y->tb[e]}, {1}, 1, 2};
        if (bench_Transform_read(&r, &t, &b, NS_TO_OBSERVER) != NS_OK) abort();
        b.snap[0] = &y->hb[e];
        if (bench_Health_read(&r, &h, &b, NS_TO_OBSERVER) != NS_OK) abort();
        bench_sink += (uint32_t)t.position[0] ^ (uint32_t)h.hp;
    }
}

/* Seconds per entity of reading back the last write pass's buffer: one untimed pass, then
 * enough timed passes to cover 20,000 entities. */
static double yard_read(yard *y)
{
    const uint32_t n = y->n - y->first;
    const int reps = reps_for(n);
    read_pass(y);
    double t0 = bench_now();
    for (int i = 0; i < reps; i++) read_pass(y);
    return (bench_now() - t0) / ((double)n * reps);
}

/* Runs ticks until the first spawns are over, then 40 more, so that the rounds time the scene
 * and not its first spawns: under the 1200-byte budget, 10,000 moving entities take about 175
 * ticks to reach a client. Over means every client holds 95% of the entities, or (chaotic
 * scenes, whose 1% respawning a tick keeps more than 5% waiting to spawn) no client's count has
 * grown for 40 ticks. */
static void warm_up(scene *s)
{
    uint32_t most[CONNS] = {0};
    for (int tick = 0, settled = -1, grew = 0; tick < 5000 && (settled < 0 || tick < settled + 40); tick++) {
        step(s);
        bool all = true;
        for (uint32_t c = 0; c < CONNS; c++) {
            uint32_t held = ns_replica_count(s->replica[c]);
            if (held > most[c]) most[c] = held, grew = tick;
            all = all && held >= s->n / 20 * 19;
        }
        if ((all || tick - grew >= 40) && settled < 0) settled = tick;
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n timings (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

/* One round of scene s: TICKS_PER_ROUND ticks; the server's seconds per tick into *tick, the
 * client's seconds per record read into *read (0 when no record went out). */
static void round_of(scene *s, double *tick, double *read)
{
    double sum = 0, t0 = s->read_time, n0 = s->read_records;
    for (int i = 0; i < TICKS_PER_ROUND; i++) sum += step(s);
    *tick = sum / TICKS_PER_ROUND;
    double records = s->read_records - n0;
    *read = records > 0 ? (s->read_time - t0) / records : 0;
}

/* Every scene in each packet format: index k * FORMATS + (format - 1). */
#define FORMATS 5
#define RUNS (SCENES * FORMATS)

/* --sparse: the moving and chaotic scenes of 1,000 entities (format 3), each in a world of the ids
 * it needs (ids_for: 1,000, or 1,500 for the chaotic scene) and in one of 100,000, interleaved:
 * a generous max_entities should cost memory, not time
 * (docs/replication.md section 6). Reports both ends' time per tick and per record, and ratios. */
static int sparse(void)
{
    static const int kinds[2] = {MOVING, CHAOTIC};
    scene sc[4]; /* kind k, ids i: sc[k * 2 + i] */
    uint32_t ids[4];
    double tick_time[4][ROUNDS], read_time[4][ROUNDS];
    for (int k = 0; k < 4; k++) {
        ids[k] = k % 2 ? 100000 : ids_for(kinds[k / 2], 1000);
        scene_init(&sc[k], kinds[k / 2], 1000, ids[k], NS_PACKET_FORMAT_3);
    }
    for (int k = 0; k < 4; k++) warm_up(&sc[k]);
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < 4; k++) round_of(&sc[k], &tick_time[k][r], &read_time[k][r]);
    double us[4], rd[4];
    for (int k = 0; k < 4; k++) {
        us[k] = median(tick_time[k], ROUNDS) * 1e6, rd[k] = median(read_time[k], ROUNDS) * 1e9;
        printf("%-8s 1000 entities, fmt 3, max_entities %6u: server %8.1f us/tick, client read %7.1f ns/rec\n",
               scene_name[sc[k].kind], ids[k], us[k], rd[k]);
        scene_free(&sc[k]);
    }
    for (int k = 0; k < 4; k += 2)
        printf("%-8s %u ids / %u ids: server %.2fx, client read %.2fx (medians of %d interleaved rounds)\n",
               scene_name[kinds[k / 2]], ids[k + 1], ids[k], us[k + 1] / us[k], rd[k + 1] / rd[k], ROUNDS);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--sparse") == 0) return sparse();
    if (argc > 1) {
        fprintf(stderr, "usage: bench_replication [--sparse]\n");
        return 2;
    }
    static const uint32_t sizes[] = {1000, 10000};
    printf("bench_replication: %d connections, 1200-byte budget, medians of %d interleaved rounds\n", CONNS, ROUNDS);
    printf("%-8s %3s %6s %10s %12s %10s %9s %9s %8s %7s %11s %8s\n", "scene", "fmt", "ents", "us/tick", "ns/ent/conn",
           "vs write", "B/client", "framing", "rec/pkt", "groups", "read ns/rec", "vs read");
    for (size_t si = 0; si < 2; si++) {
        uint32_t n = sizes[si];
        scene sc[RUNS];
        yard *y = calloc(1, sizeof *y);
        y->n = n;
        y->t = calloc(n, sizeof *y->t), y->tb = calloc(n, sizeof *y->tb);
        y->h = calloc(n, sizeof *y->h), y->hb = calloc(n, sizeof *y->hb);
        for (int k = 0; k < RUNS; k++) scene_init(&sc[k], k / FORMATS, n, ids_for(k / FORMATS, n), (uint32_t)(k % FORMATS) + NS_PACKET_FORMAT_1);
        for (int k = 0; k < RUNS; k++)
            warm_up(&sc[k]);
        for (int k = 0; k < RUNS; k++) sc[k].bytes = sc[k].bits = sc[k].framing = sc[k].packets = sc[k].records = sc[k].groups = 0;
        double tick_time[RUNS][ROUNDS], read_time[RUNS][ROUNDS], write_time[ROUNDS], yard_read_time[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < RUNS; k++) round_of(&sc[k], &tick_time[k][r], &read_time[k][r]);
            write_time[r] = yardstick(y, &sc[MOVING * FORMATS]);
            yard_read_time[r] = yard_read(y);
        }
        double write_ns = median(write_time, ROUNDS) * 1e9, read_ns = median(yard_read_time, ROUNDS) * 1e9;
        for (int k = 0; k < RUNS; k++) {
            double us = median(tick_time[k], ROUNDS) * 1e6, per = us * 1e3 / ((double)n * CONNS);
            double rd = median(read_time[k], ROUNDS) * 1e9;
            printf("%-8s %3u %6u %10.1f %12.1f %9.2fx %9.1f %8.1f%% %8.1f %7.1f %11.1f %7.2fx\n", scene_name[sc[k].kind],
                   sc[k].format, n, us, per, per / write_ns, sc[k].bytes / sc[k].packets,
                   100.0 * sc[k].framing / (sc[k].bits ? sc[k].bits : 1), sc[k].records / sc[k].packets,
                   sc[k].groups / sc[k].packets, rd, rd / read_ns);
            scene_free(&sc[k]);
        }
        printf("%-8s %3s %6u %10s %12.1f %9s   (one generated write of Transform + Health, 1 baseline)\n", "yardstick", "",
               n, "", write_ns, "1.00x");
        printf("%-8s %3s %6u %10s %12.1f %9s   (one generated read of the same: read ns/rec's yardstick)\n", "yardstick",
               "", n, "", read_ns, "1.00x");
        free(y->t), free(y->tb), free(y->h), free(y->hb), free(y);
    }
    return 0;
}
