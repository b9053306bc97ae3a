/* soak_replication.c — 8 clients over links with 20% loss, reordering, duplication and jitter
 * for 20,000 ticks, while entities spawn and despawn, move in and out of each client's
 * relevancy and change owners. Every state a client holds must equal the server's state of the
 * same tick for that client's audience; once the links go quiet, every client must hold
 * exactly what the server says it holds, at the newest state, and every despawn is acked.
 * Memory must stay bounded. The soak runs once per snapshot packet format: format 1, format 2
 * (docs/replication.md section 2), whose packets refer to earlier ones, and format 3, whose
 * updates derive their baselines from one ladder of ticks; format 3 once more with
 * spawn_resend_ticks, whose unacked spawns go out every third tick instead of in every packet;
 * and format 3 with 12-bit short ticks and NS_SPAWN_RESEND_AUTO (copies a quarter of each
 * connection's measured round trip apart); format 4, whose sections name the acked packet by the
 * round trip; and format 5, whose steady packets may change their presence by type. The runs of
 * format 3 with 12-bit ticks and of format 5 ack in the compact form (ns_world_config.compact_acks),
 * which names the newest tick in a few bits and leaves out ticks the server already knows. */
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "repl.ns.h"
#include "repl_harness.h"

#define CLIENTS 8
#define ENTITIES 96
#ifndef NS_SOAK_TICKS
#define NS_SOAK_TICKS 20000 /* fewer under the sanitizers (CMakeLists.txt) */
#endif

static float radius = 30.0f;

typedef struct mover {
    float x, z, vx, vz;
} mover;

static void move_all(rh_game *g, mover *m, uint64_t *rng)
{
    for (ns_entity_id e = 0; e < ENTITIES; e++) {
        if (!ns_world_alive(g->world, e)) continue;
        mover *k = &m[e];
        k->x += k->vx, k->z += k->vz;
        if (k->x < -60 || k->x > 60) k->vx = -k->vx;
        if (k->z < -60 || k->z > 60) k->vz = -k->vz;
        ns_world_set_position(g->world, e, k->x, 0, k->z);
        rt_Body b;
        rt_Body_init(&b);
        b.pos.x = k->x, b.pos.z = k->z;
        b.heading = (int16_t)((int)(rh_next(rng) % 7) - 3);
        ns_world_set(g->world, e, RT_BODY_ID, &b);
        if (rh_uniform(rng) < 0.05) {
            rt_Health h;
            rt_Health_init(&h);
            h.hp = (int32_t)(rh_next(rng) % 101);
            h.ammo = (uint16_t)(rh_next(rng) % 100);
            ns_world_set(g->world, e, RT_HEALTH_ID, &h);
        }
        if (rh_uniform(rng) < 0.02) {
            rt_Secret s = {.code = (uint32_t)rh_next(rng)};
            ns_world_set(g->world, e, RT_SECRET_ID, &s);
        }
    }
}

static void churn(rh_game *g, mover *m, uint64_t *rng)
{
    static const uint32_t kinds[3][3] = {{RT_BODY_ID, RT_HEALTH_ID, 0}, {RT_BODY_ID, RT_HEALTH_ID, RT_SECRET_ID},
                                         {RT_BODY_ID, 0, 0}};
    static const uint32_t counts[3] = {2, 3, 1};
    if (rh_uniform(rng) < 0.3) {
        uint32_t k = (uint32_t)(rh_next(rng) % 3);
        ns_entity_id id;
        if (ns_world_spawn(g->world, kinds[k], counts[k], &id) == NS_OK) {
            m[id] = (mover){(float)(rh_uniform(rng) * 120 - 60), (float)(rh_uniform(rng) * 120 - 60),
                            (float)(rh_uniform(rng) - 0.5), (float)(rh_uniform(rng) - 0.5)};
            ns_world_set_importance(g->world, id, 1.0f + (float)(rh_next(rng) % 4));
        }
    }
    if (rh_uniform(rng) < 0.25) ns_world_despawn(g->world, (ns_entity_id)(rh_next(rng) % ENTITIES));
    if (rh_uniform(rng) < 0.05) {
        ns_entity_id e = (ns_entity_id)(rh_next(rng) % ENTITIES);
        uint32_t c = (uint32_t)(rh_next(rng) % (CLIENTS + 1));
        if (ns_world_alive(g->world, e)) ns_world_set_owner(g->world, e, c == CLIENTS ? NS_NO_OWNER : (int32_t)g->conn[c]);
    }
}

START_TEST(soak_replication)
{
    rh_game *g = malloc(sizeof *g);
    /* Runs 0-2: formats 1, 2 and 3; run 3: format 3 with a spawn's copies 3 ticks apart; run 4:
     * format 3, 12-bit short ticks, copies by the round trip; runs 5 and 6: formats 4 and 5.
     * Runs 4 and 6 ack in the compact form (its short tick then 13 and 7 bits). */
    const uint32_t format = _i < 3 ? NS_PACKET_FORMAT_1 + (uint32_t)_i : _i < 5 ? NS_PACKET_FORMAT_3 : (uint32_t)_i - 1;
    const uint32_t spawn_resend = _i < 3 || _i >= 5 ? 0 : _i == 3 ? 3 : NS_SPAWN_RESEND_AUTO;
    ns_world_config cfg = {.max_entities = ENTITIES, .max_connections = CLIENTS, .budget = 600, .packet_format = format,
                           .spawn_resend_ticks = spawn_resend, .short_tick_bits = _i == 4 ? 12u : 0u,
                           .compact_acks = _i == 4 || _i == 6};
    rh_impair bad = {.loss = 0.2, .reorder = 0.2, .duplicate = 0.1, .latency = 2, .jitter = 3};
    rh_start(g, cfg, CLIENTS, bad, 2026);
    for (uint32_t c = 0; c < CLIENTS; c++) ns_world_set_relevancy(g->world, g->conn[c], ns_relevant_by_distance, &radius);
    static mover m[ENTITIES];
    uint64_t rng = 7;
    size_t world_peak = 0, replica_peak = 0;
    uint64_t spawns = 0, despawns = 0, bits = 0, framing = 0;
    char why[200];
    memset(m, 0, sizeof m);
    for (uint32_t t = 0; t < NS_SOAK_TICKS; t++) {
        churn(g, m, &rng);
        move_all(g, m, &rng);
        for (uint32_t c = 0; c < CLIENTS; c++) {
            float a = (float)t * 0.003f + (float)c;
            ns_world_set_viewpoint(g->world, g->conn[c], 40 * cosf(a), 0, 40 * sinf(a));
        }
        rh_step(g);
        for (uint32_t c = 0; c < CLIENTS; c++) {
            spawns += g->last[c].spawns, despawns += g->last[c].despawns;
            bits += g->last[c].bits, framing += g->last[c].framing_bits;
            NS_CHECK(g->last[c].bits <= 600 * 8, "tick %u: %u bits over the budget", g->tick, g->last[c].bits);
        }
        if (t % 7 == 0)
            for (uint32_t c = 0; c < CLIENTS; c++) NS_CHECK(rh_consistent(g, c, why, sizeof why), "tick %u: %s", g->tick, why);
        size_t wm = ns_world_memory(g->world);
        if (wm > world_peak) world_peak = wm;
        for (uint32_t c = 0; c < CLIENTS; c++) {
            size_t rm = ns_replica_memory(g->replica[c]);
            if (rm > replica_peak) replica_peak = rm;
        }
    }
    ck_assert_uint_eq(g->read_errors, 0);
    /* Quiet links: everything must settle. */
    rh_impair calm = {0};
    for (uint32_t c = 0; c < CLIENTS; c++) g->down[c].impair = g->up[c].impair = calm;
    for (uint32_t t = 0; t < 3 * NS_REPL_DEFAULT_REORDER + 16; t++) rh_step(g);
    for (uint32_t c = 0; c < CLIENTS; c++) {
        NS_CHECK(rh_settled(g, c, why, sizeof why), "after the soak: %s", why);
        for (ns_entity_id e = 0; e < ENTITIES; e++)
            NS_CHECK(ns_world_alive(g->world, e) || !ns_world_client_holds(g->world, g->conn[c], e),
                     "client %u: the despawn of %u was never acked", c, e);
    }
    /* Memory: bounded by the configuration, whatever the traffic. */
    size_t blob = 3 * 16 * 2; /* the largest entity: Body, Health and Secret, 16-aligned */
    size_t world_bound = sizeof(void *) * 64 + (size_t)ENTITIES * (1024 + blob * (1 + NS_REPL_DEFAULT_DEPTH)) +
                         (size_t)CLIENTS * (64 + ENTITIES * NS_REPL_LINK_BYTES) + 600 * 2 + 64 + 1024 * 8 + 4096 +
                         /* formats 2, 3: each connection's ids of its last history_depth packets */
                         (size_t)CLIENTS * NS_REPL_DEFAULT_DEPTH * (64 + (ENTITIES + 16) * 2 * sizeof(uint32_t));
    ck_assert_uint_le(world_peak, world_bound);
    ck_assert_uint_le(replica_peak, (size_t)ENTITIES * (1024 + blob * 64 + 128) + 65536 +
                                        64 * (64 + (ENTITIES + 16) * 2 * sizeof(uint32_t)));
    char every[40] = "a quarter round trip apart"; /* NS_SPAWN_RESEND_AUTO */
    if (spawn_resend != NS_SPAWN_RESEND_AUTO) snprintf(every, sizeof every, "every %u ticks", spawn_resend ? spawn_resend : 1);
    fprintf(stderr, "soak (format %u, spawn copies %s): %llu spawns, %llu despawns, %.1f%% framing, world %zu B,"
                    " replica peak %zu B\n",
            format, every, (unsigned long long)spawns, (unsigned long long)despawns, 100.0 * (double)framing / (double)bits,
            world_peak, replica_peak);
    rh_stop(g);
    free(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("soak");
    TCase *tc = tcase_create("replication");
    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, soak_replication, 0, 7); /* formats 1-3; spawn_resend_ticks; wide ticks; formats 4, 5 */
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
