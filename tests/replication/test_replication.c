/* test_replication.c — the replication layer as a user sees it: what reaches each client's
 * replica, what goes on the wire, and what a hostile packet cannot do. */
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "repl.ns.h"
#include "repl_harness.h"

static const uint32_t body_health[] = {RT_BODY_ID, RT_HEALTH_ID};

static rh_game *start(ns_world_config cfg, uint32_t n, rh_impair impair)
{
    rh_game *g = malloc(sizeof *g);
    ck_assert_ptr_nonnull(g);
    if (!cfg.max_entities) cfg.max_entities = 256;
    if (!cfg.max_connections) cfg.max_connections = 8;
    rh_start(g, cfg, n, impair, 12345);
    return g;
}

static void stop(rh_game *g)
{
    rh_stop(g);
    free(g);
}

static ns_entity_id spawn(rh_game *g, const uint32_t *types, uint32_t n)
{
    ns_entity_id id;
    ck_assert_int_eq(ns_world_spawn(g->world, types, n, &id), NS_OK);
    return id;
}

static void set_body(rh_game *g, ns_entity_id e, float x, float y, float z)
{
    rt_Body b;
    rt_Body_init(&b);
    b.pos.x = x, b.pos.y = y, b.pos.z = z;
    ck_assert_int_eq(ns_world_set(g->world, e, RT_BODY_ID, &b), NS_OK);
}

static void set_health(rh_game *g, ns_entity_id e, int32_t hp, uint16_t ammo, uint8_t team)
{
    rt_Health h;
    rt_Health_init(&h);
    h.hp = hp, h.ammo = ammo, h.team = team;
    ck_assert_int_eq(ns_world_set(g->world, e, RT_HEALTH_ID, &h), NS_OK);
}

static const rt_Health *health(rh_game *g, uint32_t c, ns_entity_id e)
{
    return ns_replica_value(g->replica[c], e, RT_HEALTH_ID);
}

static void steps(rh_game *g, int n)
{
    for (int i = 0; i < n; i++) rh_step(g);
}

static void assert_consistent(rh_game *g)
{
    char why[200];
    for (uint32_t c = 0; c < g->nclients; c++) NS_CHECK(rh_consistent(g, c, why, sizeof why), "%s", why);
    ck_assert_uint_eq(g->read_errors, 0);
}

/* ---- spawning and values ---- */

static int spawned, despawned;
static void on_spawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    (void)r, (void)e, (void)ctx;
    spawned++;
}
static void on_despawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    (void)r, (void)e, (void)ctx;
    despawned++;
}

START_TEST(spawn_update_despawn_reach_the_client)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    ns_replica_config rc = {&rt_schema, 256, NS_REPL_DEFAULT_DEPTH, NS_REPL_DEFAULT_REORDER, on_spawn, on_despawn, NULL, NULL,
                            NS_PACKET_FORMAT_1, false, 0, false};
    ns_replica_destroy(g->replica[0]);
    g->replica[0] = ns_replica_create(&rc, NULL);
    spawned = despawned = 0;
    ns_entity_id e = spawn(g, body_health, 2);
    set_body(g, e, 1.5f, 2.25f, -3.0f);
    set_health(g, e, 77, 12, 4);
    rh_step(g);
    ck_assert(ns_replica_has(g->replica[0], e));
    ck_assert_int_eq(spawned, 1);
    const rt_Body *b = ns_replica_value(g->replica[0], e, RT_BODY_ID);
    ck_assert_float_eq_tol(b->pos.y, 2.25f, 0.006f);
    ck_assert_int_eq(health(g, 0, e)->hp, 77);
    ck_assert_int_eq(health(g, 0, e)->ammo, 30); /* owner-only: an observer keeps the default */
    ck_assert_int_eq(health(g, 0, e)->team, 4);
    set_health(g, e, 50, 12, 4);
    steps(g, 3);
    ck_assert_int_eq(health(g, 0, e)->hp, 50);
    ck_assert_int_eq(spawned, 1); /* resent spawns and updates do not spawn again */
    ck_assert_int_eq(ns_world_despawn(g->world, e), NS_OK);
    steps(g, 2);
    ck_assert(!ns_replica_has(g->replica[0], e));
    ck_assert_int_eq(despawned, 1);
    ck_assert_uint_eq(g->read_errors, 0);
    stop(g);
}
END_TEST

/* A spawn lost on the way is resent until acked; so is a despawn. */
START_TEST(spawn_and_despawn_resent_until_acked)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){.loss = 1.0});
    ns_entity_id e = spawn(g, body_health, 2);
    steps(g, 10);
    ck_assert(!ns_replica_has(g->replica[0], e));
    ck_assert_uint_eq(g->last[0].spawns, 1); /* still going out every packet */
    g->down[0].impair.loss = g->up[0].impair.loss = 0;
    steps(g, 2);
    ck_assert(ns_replica_has(g->replica[0], e));
    steps(g, 2);
    ck_assert_uint_eq(g->last[0].spawns, 0); /* acked: now an update or skipped */
    g->down[0].impair.loss = 1.0;
    ck_assert_int_eq(ns_world_despawn(g->world, e), NS_OK);
    steps(g, 10);
    ck_assert(ns_replica_has(g->replica[0], e));
    ck_assert(ns_world_client_holds(g->world, g->conn[0], e));
    ck_assert_uint_eq(g->last[0].despawns, 1);
    g->down[0].impair.loss = 0;
    steps(g, 3);
    ck_assert(!ns_replica_has(g->replica[0], e));
    ck_assert(!ns_world_client_holds(g->world, g->conn[0], e));
    ck_assert_uint_eq(g->last[0].despawns, 0);
    stop(g);
}
END_TEST

/* With spawn_resend_ticks, an unacked spawn goes out every that many ticks instead of in every
 * packet; the client still gets the entity, at the state of the copy that reached it, and once
 * the spawn is acked it is an update like any other. More than 64 is refused. */
/* Twelve ticks in which e changes: seen gets, per tick, the spawn records of client 0's packet. */
static void spawn_copies(rh_game *g, ns_entity_id e, char seen[13])
{
    for (int t = 0; t < 12; t++) {
        set_health(g, e, 10 + t, 12, 3);
        rh_step(g);
        seen[t] = (char)('0' + g->last[0].spawns);
    }
    seen[12] = '\0';
}

START_TEST(spawn_resend_ticks_spaces_the_copies_of_a_spawn)
{
    ns_status st = NS_OK;
    ns_world_config bad = {.schema = &rt_schema, .max_entities = 8, .max_connections = 1, .spawn_resend_ticks = 65};
    ck_assert_ptr_null(ns_world_create(&bad, &st));
    ck_assert_int_eq(st, NS_ERR_ARGUMENT);

    rh_game *g = start((ns_world_config){.spawn_resend_ticks = 4}, 1, (rh_impair){.loss = 1.0});
    ns_entity_id e = spawn(g, body_health, 2);
    char seen[13];
    spawn_copies(g, e, seen);
    ck_assert_str_eq(seen, "100010001000"); /* the first copy, then one every 4 ticks */
    ck_assert(!ns_replica_has(g->replica[0], e));
    g->down[0].impair.loss = g->up[0].impair.loss = 0;
    set_health(g, e, 99, 12, 3);
    int copies = 0;
    for (int t = 0; t < 4; t++) {
        rh_step(g);
        copies += (int)g->last[0].spawns;
    }
    ck_assert_int_eq(copies, 1); /* the next copy is due within 4 ticks, and arrives */
    ck_assert(ns_replica_has(g->replica[0], e));
    ck_assert_int_eq(health(g, 0, e)->hp, 99);
    set_health(g, e, 42, 12, 3);
    steps(g, 2);
    ck_assert_uint_eq(g->last[0].spawns, 0); /* acked: updates from here on */
    ck_assert_int_eq(health(g, 0, e)->hp, 42);
    assert_consistent(g);
    stop(g);
}
END_TEST

/* NS_SPAWN_RESEND_AUTO spaces the copies of an unacked spawn by a quarter of the connection's
 * round trip, which ns_world_round_trip measures from the acks: 0 before the first one, then
 * 2 x 6 ticks of latency plus the tick the ack waits for the next read. */
START_TEST(spawn_resend_auto_follows_the_round_trip)
{
    rh_game *g = start((ns_world_config){.spawn_resend_ticks = NS_SPAWN_RESEND_AUTO}, 1, (rh_impair){.latency = 6});
    ck_assert_uint_eq(ns_world_round_trip(g->world, g->conn[0]), 0);
    ck_assert_uint_eq(ns_world_round_trip(g->world, 7), 0); /* not a connection */
    ns_entity_id a = spawn(g, body_health, 2);
    for (int t = 0; t < 60; t++) {
        set_health(g, a, t, 12, 3);
        rh_step(g);
    }
    const uint32_t rtt = ns_world_round_trip(g->world, g->conn[0]);
    ck_assert_uint_ge(rtt, 12);
    ck_assert_uint_le(rtt, 13);
    g->down[0].impair.loss = 1.0;
    ns_entity_id e = spawn(g, body_health, 2);
    char seen[13];
    spawn_copies(g, e, seen);
    ck_assert_str_eq(seen, "100100100100"); /* a copy every (12 or 13) / 4 = 3 ticks */
    g->down[0].impair.loss = 0;
    steps(g, 3 + 2 * 6 + 2);
    ck_assert(ns_replica_has(g->replica[0], e));
    ck_assert_uint_eq(g->last[0].spawns, 0); /* acked */
    assert_consistent(g);
    stop(g);
    ns_status st = NS_OK;
    ns_world_config bad = {.schema = &rt_schema, .max_entities = 8, .max_connections = 1,
                           .spawn_resend_ticks = NS_SPAWN_RESEND_AUTO - 1};
    ck_assert_ptr_null(ns_world_create(&bad, &st));
    ck_assert_int_eq(st, NS_ERR_ARGUMENT);
}
END_TEST

/* A despawned entity's storage is freed reorder_window ticks after the last copy of its despawn
 * arrives (docs/replication.md section 12), including one whose despawn kept being resent (and
 * so renewed) while the client's acks were lost, ahead of the others in the replica's queue. */
START_TEST(despawned_entities_are_freed_after_the_reorder_window)
{
    rh_game *g = start((ns_world_config){.reorder_window = 4}, 1, (rh_impair){0});
    ns_entity_id e[40];
    /* A first round grows what the replica keeps for good (its scratch), so that the memory of
     * an empty replica can be compared exactly. */
    for (int i = 0; i < 40; i++) e[i] = spawn(g, body_health, 2);
    steps(g, 6);
    for (int i = 0; i < 40; i++) ck_assert_int_eq(ns_world_despawn(g->world, e[i]), NS_OK);
    steps(g, 4 + 4);
    const size_t empty = ns_replica_memory(g->replica[0]);
    for (int i = 0; i < 40; i++) e[i] = spawn(g, body_health, 2);
    steps(g, 6);
    for (int i = 0; i < 40; i++) ck_assert(ns_replica_has(g->replica[0], e[i]));
    const size_t full = ns_replica_memory(g->replica[0]), per = (full - empty) / 40;
    ck_assert_uint_gt(per, 64);

    g->up[0].impair.loss = 1.0; /* acks lost: the first despawn goes out again every tick */
    ck_assert_int_eq(ns_world_despawn(g->world, e[0]), NS_OK);
    steps(g, 8);
    ck_assert(!ns_replica_has(g->replica[0], e[0]));
    ck_assert_uint_eq(g->last[0].despawns, 1);
    ck_assert_uint_ge(ns_replica_memory(g->replica[0]), full); /* renewed: still kept */
    g->up[0].impair.loss = 0;
    for (int i = 1; i < 40; i++) ck_assert_int_eq(ns_world_despawn(g->world, e[i]), NS_OK);
    steps(g, 2);
    ck_assert_uint_eq(ns_replica_count(g->replica[0]), 0);
    ck_assert_uint_gt(ns_replica_memory(g->replica[0]), full - per); /* within the window: kept */
    steps(g, 4 + 3);
    const size_t after = ns_replica_memory(g->replica[0]);
    NS_CHECK(after == empty, "%zu bytes after, %zu empty, %zu per entity", after, empty, per);
    stop(g);
}
END_TEST

/* A connection keeps a link per id in use (rounded up to a power of two, at least 64), not per
 * possible id: in a world of 100,000 ids, two connections cost 64 links each while 10 entities
 * live, 1,024 each once 1,000 do, and entities spawned after the links grew still reach the
 * client (docs/replication.md section 12). */
START_TEST(links_follow_the_ids_in_use)
{
    rh_game *g = start((ns_world_config){.max_entities = 100000}, 1, (rh_impair){0});
    const size_t one = ns_world_memory(g->world);
    uint32_t second;
    ck_assert_int_eq(ns_world_connect(g->world, &second), NS_OK);
    const size_t links64 = ns_world_memory(g->world) - one;
    ck_assert_uint_gt(links64, 0);
    ck_assert_uint_le(links64, 64 * NS_REPL_LINK_BYTES);
    ns_entity_id e[1000];
    for (int i = 0; i < 1000; i++) e[i] = spawn(g, body_health, 2);
    ck_assert_uint_eq(e[999], 999);
    set_health(g, e[999], 77, 1, 2);
    steps(g, 60);
    ck_assert_ptr_nonnull(health(g, 0, e[999]));
    ck_assert_int_eq(health(g, 0, e[999])->hp, 77);
    ns_world_disconnect(g->world, second);
    const size_t with = ns_world_memory(g->world);
    ck_assert_int_eq(ns_world_connect(g->world, &second), NS_OK);
    ck_assert_uint_eq(ns_world_memory(g->world) - with, 1024 / 64 * links64); /* 1,024 links */
    stop(g);
}
END_TEST

/* An id no entity uses costs the server at most NS_REPL_ID_BYTES and a replica at most
 * NS_REPL_REPLICA_ID_BYTES: the same 500 entities in a world of 101,000 ids and in one of 1,000
 * (the entity's components and the write's scratch live with the entities, not in every id). */
START_TEST(ids_not_in_use_cost_little_memory)
{
    size_t world[2], replica[2];
    for (int i = 0; i < 2; i++) {
        rh_game *g = start((ns_world_config){.max_entities = i ? 101000 : 1000}, 2, (rh_impair){0});
        for (int k = 0; k < 500; k++) spawn(g, body_health, 2);
        steps(g, 40);
        ck_assert_uint_eq(ns_replica_count(g->replica[1]), 500);
        assert_consistent(g);
        world[i] = ns_world_memory(g->world);
        replica[i] = ns_replica_memory(g->replica[1]);
        stop(g);
    }
    ck_assert_uint_gt(world[1], world[0]);
    ck_assert_uint_le(world[1] - world[0], 100000u * NS_REPL_ID_BYTES);
    ck_assert_uint_gt(replica[1], replica[0]);
    ck_assert_uint_le(replica[1] - replica[0], 100000u * NS_REPL_REPLICA_ID_BYTES);
}
END_TEST

/* A spawn reordered behind the despawn that ends it must not create an entity: nothing would
 * ever despawn it (the server saw the despawn acked). */
START_TEST(spawn_reordered_behind_its_despawn_is_not_applied)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    uint8_t first[RH_MAX_PACKET], second[RH_MAX_PACKET];
    size_t first_len, second_len;
    spawned = despawned = 0;
    ns_replica *r = g->replica[0];
    ns_entity_id e = spawn(g, body_health, 2);
    ck_assert_int_eq(ns_world_tick(g->world, 1), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], first, sizeof first, &first_len, NULL), NS_OK);
    ck_assert_int_eq(ns_world_despawn(g->world, e), NS_OK);
    ck_assert_int_eq(ns_world_tick(g->world, 2), NS_OK);
    ns_repl_stats st;
    ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], second, sizeof second, &second_len, &st), NS_OK);
    ck_assert_uint_eq(st.despawns, 1);
    ck_assert_int_eq(ns_replica_read_packet(r, second, second_len), NS_OK); /* the despawn first */
    ck_assert_int_eq(ns_replica_read_packet(r, first, first_len), NS_OK);   /* then its spawn, late */
    ck_assert(!ns_replica_has(r, e));
    ck_assert_uint_eq(ns_replica_count(r), 0);
    stop(g);
}
END_TEST

/* ---- acks ---- */

START_TEST(acks_newer_than_any_packet_are_refused)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    spawn(g, body_health, 2);
    steps(g, 5);
    uint8_t buf[32];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 1, 1);
    ns_write_bits(&w, g->tick + 1, 32);
    ns_write_bits(&w, 0, NS_REPL_DEFAULT_DEPTH - 1);
    size_t len = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(ns_world_read_ack(g->world, g->conn[0], &r), NS_ERR_RANGE);
    ns_reader_init(&r, buf, 3); /* truncated */
    ck_assert_int_eq(ns_world_read_ack(g->world, g->conn[0], &r), NS_ERR_TRUNCATED);
    ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_ERR_ARGUMENT); /* not newer: refused */
    steps(g, 3);
    assert_consistent(g);
    ck_assert_uint_eq(g->read_errors, 0);
    stop(g);
}
END_TEST

/* The replica's ack names the newest packet and the history_depth − 1 before it, exactly. */
START_TEST(ack_layout)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    steps(g, 3);
    uint8_t buf[16] = {0};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_replica_write_ack(g->replica[0], &w);
    ck_assert_uint_eq(ns_writer_bits(&w), 1 + 32 + NS_REPL_DEFAULT_DEPTH - 1);
    ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_read_bits(&r, 1), 1);
    ck_assert_uint_eq(ns_read_bits(&r, 32), 3);
    ck_assert_uint_eq(ns_read_bits(&r, 32), 3); /* ticks 2 and 1 */
    stop(g);
}
END_TEST

/* The first packet carries all 32 tick bits; once acks flow, 16; ticks extend across the wrap of
 * the low 16 bits (and of 32 bits). */
START_TEST(short_ticks_cross_the_wrap)
{
    static const uint32_t starts[] = {65500u, 0xffffffd0u};
    for (int k = 0; k < 2; k++) {
        rh_game *g = start((ns_world_config){0}, 1, (rh_impair){.reorder = 0.3, .jitter = 2});
        g->tick = starts[k];
        ns_entity_id e = spawn(g, body_health, 2);
        for (int t = 0; t < 100; t++) {
            set_health(g, e, t % 100, 30, 1);
            rh_step(g);
        }
        ck_assert_uint_ge(ns_replica_newest(g->replica[0]) - starts[k], 90); /* some still in flight */
        uint8_t pkt[RH_MAX_PACKET];
        size_t len;
        g->tick++;
        ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_OK);
        ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], pkt, sizeof pkt, &len, NULL), NS_OK);
        ck_assert_uint_eq(pkt[0] & 1u, 1); /* short */
        ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
        ck_assert_uint_eq(ns_replica_newest(g->replica[0]), g->tick);
        assert_consistent(g);
        stop(g);
    }
}
END_TEST

/* ---- the skip rule ---- */

START_TEST(unchanged_entities_are_skipped_once_acked)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    for (int i = 0; i < 20; i++) spawn(g, body_health, 2);
    steps(g, 4);
    ck_assert_uint_eq(g->last[0].skipped, 20);
    ck_assert_uint_eq(g->last[0].updates, 0);
    ns_entity_id moving = 7;
    set_body(g, moving, 3, 0, 0);
    rh_step(g);
    ck_assert_uint_eq(g->last[0].updates, 1);
    ck_assert_uint_eq(g->last[0].skipped, 19);
    /* The age cap: an unchanged entity is refreshed before its baseline could leave history. */
    uint32_t refreshed = 0;
    for (uint32_t i = 0; i < NS_REPL_DEFAULT_DEPTH; i++) rh_step(g), refreshed += g->last[0].updates;
    ck_assert_uint_ge(refreshed, 20);
    assert_consistent(g);
    stop(g);
}
END_TEST

/* State A acked, then B written and received but not yet acked, then back to A: comparing A
 * with baseline 0 (A) would skip it and leave the client at B. */
START_TEST(skip_rule_sees_received_but_unacked_writes)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    ns_entity_id e = spawn(g, body_health, 2);
    set_health(g, e, 10, 30, 1);
    steps(g, 4); /* A = 10, acked */
    g->up[0].impair.loss = 1.0; /* acks lost from now on */
    set_health(g, e, 20, 30, 1);
    rh_step(g); /* B = 20 reaches the client */
    ck_assert_int_eq(health(g, 0, e)->hp, 20);
    set_health(g, e, 10, 30, 1);
    rh_step(g); /* back to A */
    ck_assert_uint_eq(g->last[0].updates, 1);
    ck_assert_int_eq(health(g, 0, e)->hp, 10);
    g->up[0].impair.loss = 0;
    steps(g, 5);
    ck_assert_int_eq(health(g, 0, e)->hp, 10);
    assert_consistent(g);
    stop(g);
}
END_TEST

/* ---- relevancy ---- */

static bool far_hidden(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx)
{
    float r = 10.0f;
    (void)ctx;
    return ns_relevant_by_distance(w, conn, e, &r);
}

START_TEST(leaving_relevancy_despawns_and_reentry_is_a_fresh_spawn)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    ns_world_set_relevancy(g->world, g->conn[0], far_hidden, NULL);
    ns_entity_id e = spawn(g, body_health, 2);
    ns_world_set_position(g->world, e, 1, 0, 1);
    set_health(g, e, 90, 30, 2);
    steps(g, 3);
    ck_assert_int_eq(health(g, 0, e)->team, 2);
    set_health(g, e, 90, 30, 3); /* @initial: not sent in updates */
    steps(g, 3);
    ck_assert_int_eq(health(g, 0, e)->team, 2);
    ns_world_set_position(g->world, e, 50, 0, 1);
    steps(g, 3);
    ck_assert(!ns_replica_has(g->replica[0], e));
    ns_world_set_position(g->world, e, 2, 0, 2);
    steps(g, NS_REPL_DEFAULT_REORDER + 4); /* the id cools down for reorder_window ticks first */
    ck_assert(ns_replica_has(g->replica[0], e));
    ck_assert_int_eq(health(g, 0, e)->team, 3); /* a fresh spawn carries @initial fields */
    assert_consistent(g);
    stop(g);
}
END_TEST

/* ---- ownership ---- */

START_TEST(ownership_change_moves_owner_fields)
{
    static const uint32_t types[] = {RT_HEALTH_ID, RT_SECRET_ID};
    rh_game *g = start((ns_world_config){0}, 2, (rh_impair){0});
    ns_entity_id e = spawn(g, types, 2);
    ck_assert_int_eq(ns_world_set_owner(g->world, e, (int32_t)g->conn[0]), NS_OK);
    set_health(g, e, 60, 7, 1);
    rt_Secret s = {.code = 4242};
    ck_assert_int_eq(ns_world_set(g->world, e, RT_SECRET_ID, &s), NS_OK);
    steps(g, 3);
    ck_assert(ns_replica_is_owner(g->replica[0], e));
    ck_assert(!ns_replica_is_owner(g->replica[1], e));
    ck_assert_int_eq(health(g, 0, e)->ammo, 7);
    ck_assert_int_eq(health(g, 1, e)->ammo, 30);
    ck_assert_uint_eq(((const rt_Secret *)ns_replica_value(g->replica[0], e, RT_SECRET_ID))->code, 4242);
    ck_assert_uint_eq(((const rt_Secret *)ns_replica_value(g->replica[1], e, RT_SECRET_ID))->code, 0);
    ck_assert_int_eq(ns_world_set_owner(g->world, e, (int32_t)g->conn[1]), NS_OK);
    steps(g, 3);
    ck_assert(!ns_replica_is_owner(g->replica[0], e));
    ck_assert(ns_replica_is_owner(g->replica[1], e));
    ck_assert_int_eq(health(g, 1, e)->ammo, 7);
    ck_assert_uint_eq(((const rt_Secret *)ns_replica_value(g->replica[1], e, RT_SECRET_ID))->code, 4242);
    assert_consistent(g);
    ck_assert_uint_eq(g->read_errors, 0);
    stop(g);
}
END_TEST

/* A record has a presence bit only for components it can carry: none for a component whose
 * fields all go to the other audience, none in a record with baselines for a component whose
 * fields are all @initial. Games that differ only in such a component write update packets of
 * exactly as many bits (ns_repl_stats.bits, before byte padding); the owner, who receives
 * Secret, one bit more per record. */
static uint64_t update_bits(const uint32_t *types, uint32_t n, bool owned)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    ns_entity_id e = spawn(g, types, n);
    if (owned) ck_assert_int_eq(ns_world_set_owner(g->world, e, (int32_t)g->conn[0]), NS_OK);
    steps(g, 4);
    uint64_t before = g->bits_down[0];
    for (int i = 1; i <= 10; i++) {
        set_body(g, e, (float)i, 0, 0);
        rh_step(g);
        ck_assert_uint_eq(g->last[0].updates, 1);
        ck_assert_uint_eq(g->last[0].full_states, 0);
    }
    assert_consistent(g);
    uint64_t bits = g->bits_down[0] - before;
    stop(g);
    return bits;
}

START_TEST(records_have_presence_bits_only_for_what_they_can_carry)
{
    static const uint32_t plain[] = {RT_BODY_ID, RT_HEALTH_ID};
    static const uint32_t secret[] = {RT_BODY_ID, RT_HEALTH_ID, RT_SECRET_ID};
    static const uint32_t tagged[] = {RT_BODY_ID, RT_HEALTH_ID, RT_TAG_ID};
    uint64_t base = update_bits(plain, 2, false);
    ck_assert_uint_eq(update_bits(secret, 3, false), base); /* an observer: no bit for Secret */
    ck_assert_uint_eq(update_bits(tagged, 3, false), base); /* baselines: no bit for Tag */
    ck_assert_uint_eq(update_bits(tagged, 3, true), update_bits(plain, 2, true));
    /* The owner's records carry Secret's bit (0: unchanged): one bit in each of 10 packets. */
    ck_assert_uint_eq(update_bits(secret, 3, true), update_bits(plain, 2, true) + 10);
}
END_TEST

/* When every record of a group has the same component types present (a moving crowd: Body
 * changed, Health not), the group writes one mask over the schema's types instead of each
 * record's presence bits. 20 records × 2 presence bits become 5 mask bits (rt has 5 component
 * types); one Health change among them breaks the agreement and the bits come back. */
static uint32_t crowd_framing(bool one_hurt)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    for (int i = 0; i < 20; i++) spawn(g, body_health, 2);
    steps(g, 4);
    for (int t = 1; t <= 3; t++) {
        for (ns_entity_id e = 0; e < 20; e++) set_body(g, e, (float)(t * 3 + (int)e), 0, 0);
        if (one_hurt && t == 3) set_health(g, 7, 50, 30, 1);
        rh_step(g);
        ck_assert_uint_eq(g->last[0].updates, 20);
        ck_assert_uint_eq(g->last[0].groups, 1);
    }
    uint32_t framing = g->last[0].framing_bits;
    assert_consistent(g);
    ck_assert_int_eq(health(g, 0, 7)->hp, one_hurt ? 50 : 100);
    stop(g);
    return framing;
}

START_TEST(a_group_that_agrees_on_presence_writes_one_mask)
{
    ck_assert_uint_eq(crowd_framing(true), crowd_framing(false) + 20 * 2 - 5);
}
END_TEST

/* ---- priority and budget ---- */

START_TEST(budget_is_never_exceeded_and_nothing_starves)
{
    ns_world_config cfg = {.budget = 200};
    rh_game *g = start(cfg, 1, (rh_impair){0});
    enum { N = 120 };
    uint32_t last_seen[N] = {0}, worst = 0;
    for (int i = 0; i < N; i++) spawn(g, body_health, 2);
    ns_world_set_importance(g->world, 0, 8.0f);
    uint64_t rng = 99;
    uint32_t vip_sent = 0, other_sent = 0;
    for (int t = 0; t < 400; t++) {
        for (ns_entity_id e = 0; e < N; e++)
            set_body(g, e, (float)(rh_uniform(&rng) * 100), (float)t * 0.01f, (float)e);
        rh_step(g);
        NS_CHECK(g->last[0].bits <= 200 * 8, "packet of %u bits over a 1600-bit budget", g->last[0].bits);
        for (ns_entity_id e = 0; e < N; e++) {
            uint32_t tick;
            if (ns_replica_snap(g->replica[0], e, RT_BODY_ID, &tick) && tick == g->tick) {
                if (last_seen[e] && g->tick - last_seen[e] > worst) worst = g->tick - last_seen[e];
                last_seen[e] = g->tick;
                if (e == 0) vip_sent++;
                else if (e == 1) other_sent++;
            }
        }
    }
    for (ns_entity_id e = 0; e < N; e++) ck_assert_uint_ne(last_seen[e], 0);
    ck_assert_uint_lt(worst, 10);                /* every entity goes out regularly */
    ck_assert_uint_gt(vip_sent, 2 * other_sent); /* importance 8 goes out far more often */
    ck_assert_uint_gt(g->last[0].deferred, 0);   /* the budget was the limit */
    assert_consistent(g);
    stop(g);
}
END_TEST

/* ---- send rates ---- */

/* How often Slow's value changes on the client over 40 ticks when the server sets it every tick. */
static uint32_t changes_seen(rh_game *g)
{
    static const uint32_t types[] = {RT_SLOW_ID};
    ns_entity_id e = spawn(g, types, 1);
    uint32_t changes = 0, prev = UINT32_MAX;
    for (uint32_t t = 0; t < 40; t++) {
        rt_Slow s = {.value = t};
        ns_world_set(g->world, e, RT_SLOW_ID, &s);
        rh_step(g);
        uint32_t v = ((const rt_Slow *)ns_replica_value(g->replica[0], e, RT_SLOW_ID))->value;
        if (v != prev) changes++, prev = v;
    }
    return changes;
}

START_TEST(send_rate_samples_a_component)
{
    ck_assert_uint_eq(rt_schema.components[ns_schema_component_index(&rt_schema, RT_SLOW_ID)].send_rate_hz, 15);
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0}); /* 60 Hz: @send_rate(15) is every 4 ticks */
    uint32_t n = changes_seen(g);
    ck_assert_uint_ge(n, 9);
    ck_assert_uint_le(n, 11);
    stop(g);
    g = start((ns_world_config){0}, 1, (rh_impair){0});
    ck_assert_int_eq(ns_world_set_send_interval(g->world, RT_SLOW_ID, 8), NS_OK);
    n = changes_seen(g);
    ck_assert_uint_ge(n, 4);
    ck_assert_uint_le(n, 6);
    stop(g);
}
END_TEST

/* ---- ids ---- */

START_TEST(ids_are_not_reused_while_a_client_holds_them)
{
    rh_game *g = start((ns_world_config){.max_entities = 8}, 2, (rh_impair){.loss = 0.3, .reorder = 0.3})
    ;
    uint64_t rng = 5;
    for (int t = 0; t < 600; t++) {
        ns_entity_id id;
        if (rh_uniform(&rng) < 0.5 && ns_world_spawn(g->world, body_health, 2, &id) == NS_OK) {
            for (uint32_t c = 0; c < 2; c++)
                NS_CHECK(!ns_world_client_holds(g->world, g->conn[c], id) && !ns_replica_has(g->replica[c], id),
                         "id %u reused while client %u holds it", id, c);
        }
        id = (ns_entity_id)(rh_next(&rng) % 8);
        if (rh_uniform(&rng) < 0.3) ns_world_despawn(g->world, id);
        rh_step(g);
    }
    ck_assert_uint_eq(g->read_errors, 0);
    stop(g);
}
END_TEST

/* A spawn takes the lowest free id, so ids stay small and their gaps cheap: once id 1's despawn
 * is acked everywhere and has cooled down, the next spawn is 1 again, not 3. */
START_TEST(spawns_take_the_lowest_free_id)
{
    rh_game *g = start((ns_world_config){0}, 2, (rh_impair){0});
    ck_assert_uint_eq(spawn(g, body_health, 2), 0);
    ck_assert_uint_eq(spawn(g, body_health, 2), 1);
    ck_assert_uint_eq(spawn(g, body_health, 2), 2);
    steps(g, 3);
    ck_assert_int_eq(ns_world_despawn(g->world, 1), NS_OK);
    ck_assert_uint_eq(spawn(g, body_health, 2), 3); /* 1 is still held or cooling */
    steps(g, (int)NS_REPL_DEFAULT_REORDER + 4);
    ck_assert_uint_eq(spawn(g, body_health, 2), 1);
    ck_assert_uint_eq(spawn(g, body_health, 2), 4);
    steps(g, 3);
    assert_consistent(g);
    stop(g);
}
END_TEST

/* ---- handshake ---- */

START_TEST(handshake_refuses_another_schema_naming_both_hashes)
{
    rh_game *g = start((ns_world_config){0}, 1, (rh_impair){0});
    uint8_t buf[64];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_handshake h = ns_world_handshake(g->world, 0);
    ns_handshake_write(&w, &h);
    ck_assert_uint_eq(ns_writer_flush(&w), 24);
    ck_assert_mem_eq(buf, "NSHS", 4);
    ns_reader r;
    ns_reader_init(&r, buf, 24);
    ns_handshake back;
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_OK);
    ck_assert_uint_eq(back.schema_hash, RT_SCHEMA_HASH);
    ns_schema other = rt_schema;
    other.hash = 0x1234;
    other.package = "other";
    ns_replica_config rc = {0};
    char msg[256];
    ck_assert_int_eq(ns_handshake_accept(&back, &other, &rc, msg, sizeof msg), NS_ERR_MISMATCH);
    char want[32];
    snprintf(want, sizeof want, "%016llx", (unsigned long long)RT_SCHEMA_HASH);
    ck_assert_ptr_nonnull(strstr(msg, want));
    ck_assert_ptr_nonnull(strstr(msg, "0000000000001234"));
    buf[0] = 'X';
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MALFORMED);
    stop(g);
}
END_TEST

/* ---- unknown component types ---- */

START_TEST(unknown_component_type_is_skipped_by_size)
{
    static const uint32_t slow_body[] = {RT_BODY_ID, RT_SLOW_ID};
    rh_game *g = start((ns_world_config){.entity_sizes = true}, 1, (rh_impair){0});
    /* This client was built without Slow. */
    static ns_schema older;
    older = rt_schema;
    older.component_count = 3;
    ns_replica_config rc = {&older, 256, NS_REPL_DEFAULT_DEPTH, NS_REPL_DEFAULT_REORDER, NULL, NULL, NULL, NULL,
                            NS_PACKET_FORMAT_1, false, 0, false};
    ns_replica_destroy(g->replica[0]);
    g->replica[0] = ns_replica_create(&rc, NULL);
    ns_entity_id a = spawn(g, slow_body, 2), b = spawn(g, body_health, 2);
    for (int t = 0; t < 10; t++) {
        set_body(g, a, (float)t, 0, 0);
        set_body(g, b, 0, (float)t, 0);
        rh_step(g);
    }
    ck_assert(!ns_replica_has(g->replica[0], a));
    ck_assert(ns_replica_has(g->replica[0], b));
    ck_assert_float_eq_tol(((const rt_Body *)ns_replica_value(g->replica[0], b, RT_BODY_ID))->pos.y, 9.0f, 0.006f);
    ck_assert_uint_eq(g->read_errors, 0);
    stop(g);
}
END_TEST

/* ---- hostile packets ---- */

/* Everything a client holds, as bytes: what must not change when a packet is refused. */
static size_t digest(const ns_replica *r, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (ns_entity_id e = 0; e < 256; e++) {
        if (!ns_replica_has(r, e)) continue;
        for (uint32_t k = 0; k < rt_schema.component_count; k++) {
            const ns_component_ops *ops = &rt_schema.components[k];
            uint32_t tick;
            const void *s = ns_replica_snap(r, e, ops->desc->id, &tick);
            const void *v = ns_replica_value(r, e, ops->desc->id);
            if (!s) continue;
            if (n + 8 + ops->desc->snap_size + ops->desc->value_size > cap) abort();
            memcpy(out + n, &e, 4), memcpy(out + n + 4, &tick, 4), n += 8;
            memcpy(out + n, s, ops->desc->snap_size), n += ops->desc->snap_size;
            memcpy(out + n, v, ops->desc->value_size), n += ops->desc->value_size;
        }
    }
    uint32_t count = ns_replica_count(r), newest = ns_replica_newest(r);
    memcpy(out + n, &count, 4), memcpy(out + n + 4, &newest, 4);
    return n + 8;
}

START_TEST(hostile_packets_change_nothing)
{
    rh_game *g = start((ns_world_config){.entity_sizes = (_i & 1) != 0}, 2, (rh_impair){0});
    for (int i = 0; i < 30; i++) spawn(g, body_health, 2);
    ns_world_set_owner(g->world, 3, (int32_t)g->conn[0]);
    static uint8_t before[1 << 16], after[1 << 16];
    uint8_t pkt[RH_MAX_PACKET], bad[RH_MAX_PACKET];
    uint64_t rng = 77 + (uint64_t)_i;
    uint32_t refused = 0;
    for (int t = 0; t < 300; t++) {
        for (ns_entity_id e = 0; e < 30; e++)
            if (ns_world_alive(g->world, e)) set_body(g, e, (float)(rh_uniform(&rng) * 50), 0, (float)t);
        if (t % 50 == 10) ns_world_despawn(g->world, (ns_entity_id)(rh_next(&rng) % 30));
        g->tick++;
        ns_world_tick(g->world, g->tick);
        size_t len = 0;
        ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[1], pkt, sizeof pkt, &len, NULL), NS_OK);
        for (int k = 0; k < 8; k++) {
            memcpy(bad, pkt, len);
            size_t blen = len;
            switch (rh_next(&rng) % 3) {
            case 0: bad[rh_next(&rng) % len] ^= (uint8_t)(1u << (rh_next(&rng) % 8)); break;
            case 1: blen = (size_t)(rh_next(&rng) % len); break;
            default:
                for (int j = 0; j < 4; j++) bad[rh_next(&rng) % len] = (uint8_t)rh_next(&rng);
            }
            size_t nb = digest(g->replica[1], before, sizeof before);
            ns_status st = ns_replica_read_packet(g->replica[1], bad, blen);
            if (st != NS_OK) {
                refused++;
                size_t na = digest(g->replica[1], after, sizeof after);
                NS_CHECK(na == nb && memcmp(before, after, nb) == 0, "a refused packet (%s) changed the replica",
                         ns_status_str(st));
            } else if (memcmp(bad, pkt, blen) != 0 || blen != len) {
                break; /* a mangled packet that still decodes: the replica now differs, start over */
            }
        }
        /* The real packet: applied unless a mangled copy with the same tick got in first. */
        ns_replica_read_packet(g->replica[1], pkt, len);
        ck_assert_int_eq(rh_ack(g->world, g->conn[1], g->replica[1]), NS_OK);
    }
    ck_assert_uint_gt(refused, 100);
    stop(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("replication");
    TCase *tc = tcase_create("world");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, spawn_update_despawn_reach_the_client);
    tcase_add_test(tc, spawn_and_despawn_resent_until_acked);
    tcase_add_test(tc, spawn_resend_ticks_spaces_the_copies_of_a_spawn);
    tcase_add_test(tc, spawn_resend_auto_follows_the_round_trip);
    tcase_add_test(tc, despawned_entities_are_freed_after_the_reorder_window);
    tcase_add_test(tc, links_follow_the_ids_in_use);
    tcase_add_test(tc, ids_not_in_use_cost_little_memory);
    tcase_add_test(tc, spawn_reordered_behind_its_despawn_is_not_applied);
    tcase_add_test(tc, acks_newer_than_any_packet_are_refused);
    tcase_add_test(tc, ack_layout);
    tcase_add_test(tc, short_ticks_cross_the_wrap);
    tcase_add_test(tc, unchanged_entities_are_skipped_once_acked);
    tcase_add_test(tc, skip_rule_sees_received_but_unacked_writes);
    tcase_add_test(tc, leaving_relevancy_despawns_and_reentry_is_a_fresh_spawn);
    tcase_add_test(tc, ownership_change_moves_owner_fields);
    tcase_add_test(tc, records_have_presence_bits_only_for_what_they_can_carry);
    tcase_add_test(tc, a_group_that_agrees_on_presence_writes_one_mask);
    tcase_add_test(tc, budget_is_never_exceeded_and_nothing_starves);
    tcase_add_test(tc, send_rate_samples_a_component);
    tcase_add_test(tc, ids_are_not_reused_while_a_client_holds_them);
    tcase_add_test(tc, spawns_take_the_lowest_free_id);
    tcase_add_test(tc, handshake_refuses_another_schema_naming_both_hashes);
    tcase_add_test(tc, unknown_component_type_is_skipped_by_size);
    tcase_add_loop_test(tc, hostile_packets_change_nothing, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
