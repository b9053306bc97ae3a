/* test_refs.c — entity references through the replica (netschema/replication.h): an `entity`
 * field carries the target's network reference; each client reads the handle it bound for
 * that entity, 0 while the target is not spawned there (and the reference resolves when it
 * arrives, calling on_resolve), 0 for good once the target is destroyed. Checked after every
 * tick on three clients over links that lose, reorder and duplicate, with relevancy changing
 * and ids reused: each live reference is exactly what the holder's newest state names, as
 * that client knows the world. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "refs.ns.h"
#include "repl_harness.h"

#define IDS 48
#define CLIENTS 3
#define TICKS 3000
#define HIST 128 /* ticks of the server's incarnation table kept */

typedef struct refs_game {
    rh_game   g;
    uint32_t  inc[IDS];              /* the server's incarnation of each id (spawn counter) */
    uint32_t  inc_at[HIST][IDS];     /* inc[] as it was at each tick */
    uint32_t  client_inc[CLIENTS][IDS]; /* the incarnation each client spawned */
    uint32_t  resolved[CLIENTS];
    uint32_t  checked, pending_seen, live_seen;
    uint64_t  rng;
} refs_game;

typedef struct client_ctx {
    refs_game *t;
    uint32_t   c;
} client_ctx;

static client_ctx ctxs[CLIENTS];

/* A handle per client and incarnation, so a stale one cannot pass for the right one. */
static ns_entity handle_for(uint32_t c, uint32_t id, uint32_t inc)
{
    return 1000000u * (c + 1) + 1000u * inc + id;
}

static void on_spawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    client_ctx *cc = ctx;
    /* The server cannot have reused the id yet: this client has not acked the old one's despawn. */
    cc->t->client_inc[cc->c][e] = cc->t->inc[e];
    ck_assert_int_eq(ns_replica_bind(r, e, handle_for(cc->c, e, cc->t->inc[e])), NS_OK);
}

static void on_resolve(ns_replica *r, ns_entity_id holder, uint32_t type, ns_entity_id target, void *ctx)
{
    client_ctx *cc = ctx;
    (void)r, (void)holder, (void)target;
    ck_assert_uint_eq(type, RF_LINK_ID);
    cc->t->resolved[cc->c]++;
}

/* Relevancy changes every 30 ticks, differently per client and entity. */
static bool relevant(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx)
{
    const refs_game *t = ctx;
    (void)w;
    uint32_t phase = t->g.tick / 30;
    return ((e * 2654435761u + conn * 40503u + phase * 97u) >> 7) % 4 != 0;
}

/* What a client's live reference must read: the handle of the incarnation the server's ref
 * named at the holder's tick, if that client holds that incarnation; else 0. */
static ns_entity expected(const refs_game *t, uint32_t c, ns_replica *r, uint32_t tick, uint32_t v)
{
    if (v == 0) return 0;
    uint32_t id = v - 1, named = t->inc_at[tick % HIST][id];
    if (!ns_replica_has(r, id) || t->client_inc[c][id] != named) return 0;
    return handle_for(c, id, named);
}

static void check_client(refs_game *t, uint32_t c)
{
    ns_replica *r = t->g.replica[c];
    for (uint32_t id = 0; id < IDS; id++) {
        uint32_t tick;
        const rf_Link_snap *s = ns_replica_snap(r, id, RF_LINK_ID, &tick);
        if (!s) continue;
        const rf_Link *live = ns_replica_value(r, id, RF_LINK_ID);
        ck_assert_ptr_nonnull(live);
        ck_assert_uint_lt(t->g.tick - tick, HIST);
        ns_entity want = expected(t, c, r, tick, s->target), want_aim = expected(t, c, r, tick, s->aim.at);
        if (live->target != want || live->aim.at != want_aim)
            ck_abort_msg("client %u, holder %u at tick %u: target %u (want %u, ref %u), aim %u (want %u, ref %u)", c, id,
                         tick, live->target, want, s->target, live->aim.at, want_aim, s->aim.at);
        t->checked++;
        if (s->target && !want) t->pending_seen++;
        if (want) t->live_seen++;
        ck_assert_uint_eq(ns_replica_handle(r, s->target), ns_replica_has(r, s->target - 1u) && s->target
                                                                 ? handle_for(c, s->target - 1u, t->client_inc[c][s->target - 1u])
                                                                 : 0u);
    }
}

/* The server's game: spawns, destroys (clearing references to what it destroys), relinks. */
static void play(refs_game *t)
{
    ns_world *w = t->g.world;
    uint32_t roll = (uint32_t)rh_next(&t->rng) % 100;
    if (roll < 12 && ns_world_count(w) < IDS - 4) {
        uint32_t types[2] = {RF_BODY_ID, RF_LINK_ID};
        ns_entity_id id;
        if (ns_world_spawn(w, types, 1 + (uint32_t)(rh_next(&t->rng) % 2), &id) == NS_OK) t->inc[id]++;
    } else if (roll < 20 && ns_world_count(w) > 8) {
        ns_entity_id victim = (ns_entity_id)(rh_next(&t->rng) % IDS);
        if (ns_world_alive(w, victim)) {
            ck_assert_int_eq(ns_world_despawn(w, victim), NS_OK);
            for (uint32_t id = 0; id < IDS; id++) {
                rf_Link_snap *l = ns_world_snap(w, id, RF_LINK_ID);
                if (!l || !ns_world_alive(w, id)) continue;
                if (l->target == ns_entity_ref(victim)) l->target = 0;
                if (l->aim.at == ns_entity_ref(victim)) l->aim.at = 0;
            }
        }
    }
    for (uint32_t k = 0; k < 2 && roll % 8 == 0; k++) { /* now and then a link changes its targets: most
                                                           references outlive a relevancy change */
        ns_entity_id id = (ns_entity_id)(rh_next(&t->rng) % IDS), to = (ns_entity_id)(rh_next(&t->rng) % IDS);
        rf_Link_snap *l = ns_world_alive(w, id) ? ns_world_snap(w, id, RF_LINK_ID) : NULL;
        if (!l) continue;
        uint32_t ref = ns_world_alive(w, to) ? ns_entity_ref(to) : 0;
        if (k == 0) l->target = ref;
        else l->aim.at = ref;
    }
}

START_TEST(references_resolve_as_each_client_knows_the_world)
{
    refs_game *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    t->rng = 7;
    ns_world_config cfg = {.schema = &rf_schema, .max_entities = IDS, .max_connections = CLIENTS};
    rh_impair bad = {.loss = 0.2, .reorder = 0.2, .duplicate = 0.1, .latency = 2, .jitter = 3};
    rh_start(&t->g, cfg, CLIENTS, bad, 11);
    for (uint32_t c = 0; c < CLIENTS; c++) {
        ns_replica_destroy(t->g.replica[c]);
        ns_handshake h = ns_world_handshake(t->g.world, t->g.conn[c]);
        ctxs[c] = (client_ctx){t, c};
        ns_replica_config rc = {0};
        ck_assert_int_eq(ns_handshake_accept(&h, &rf_schema, &rc, NULL, 0), NS_OK);
        rc.on_spawn = on_spawn;
        rc.on_resolve = on_resolve;
        rc.ctx = &ctxs[c];
        ns_status st;
        t->g.replica[c] = ns_replica_create(&rc, &st);
        ck_assert_int_eq(st, NS_OK);
        ns_world_set_relevancy(t->g.world, t->g.conn[c], relevant, t);
    }
    for (uint32_t i = 0; i < TICKS; i++) {
        play(t);
        memcpy(t->inc_at[(t->g.tick + 1) % HIST], t->inc, sizeof t->inc); /* rh_step records tick + 1 */
        rh_step(&t->g);
        ck_assert_uint_eq(t->g.read_errors, 0);
        for (uint32_t c = 0; c < CLIENTS; c++) check_client(t, c);
    }
    /* The run saw every case: live references, references waiting for their target, and
     * references resolved by a later spawn on every client. */
    ck_assert_uint_gt(t->checked, 50000);
    ck_assert_uint_gt(t->live_seen, 10000);
    ck_assert_uint_gt(t->pending_seen, 1000);
    printf("%u references checked: %u live, %u waiting; resolved later: %u, %u, %u\n", t->checked, t->live_seen,
           t->pending_seen, t->resolved[0], t->resolved[1], t->resolved[2]);
    for (uint32_t c = 0; c < CLIENTS; c++) ck_assert_uint_gt(t->resolved[c], 20);
    rh_stop(&t->g);
    free(t);
}
END_TEST

/* A quiet link, one holder whose reference never changes (so its state is never resent), and a
 * target that leaves the client's relevancy and comes back: the reference reads 0 while it is
 * away and its handle again once it is back, though the holder was not resent; on_resolve says
 * so. Then the target is destroyed (the server leaves the reference dangling): 0 for good. */
typedef struct away_ctx {
    bool     away;
    uint32_t resolved;
    ns_entity_id target;
} away_ctx;

static bool away_relevant(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx)
{
    const away_ctx *a = ctx;
    (void)w, (void)conn;
    return !(a->away && e == a->target);
}

static void away_resolve(ns_replica *r, ns_entity_id holder, uint32_t type, ns_entity_id target, void *ctx)
{
    away_ctx *a = ctx;
    (void)r, (void)holder, (void)type;
    ck_assert_uint_eq(target, a->target);
    a->resolved++;
}

START_TEST(a_reference_survives_its_target_leaving_and_ends_when_it_is_destroyed)
{
    rh_game g;
    away_ctx a = {0};
    /* A deep history and a short reorder window: the target is back before the holder's
     * periodic refresh, so only the pending reference can bring it back. */
    ns_world_config cfg = {.schema = &rf_schema, .max_entities = 8, .max_connections = 1, .history_depth = 56,
                           .reorder_window = 4};
    rh_impair quiet = {0};
    rh_start(&g, cfg, 1, quiet, 3);
    ns_replica_destroy(g.replica[0]);
    ns_handshake h = ns_world_handshake(g.world, g.conn[0]);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&h, &rf_schema, &rc, NULL, 0), NS_OK);
    rc.on_resolve = away_resolve;
    rc.ctx = &a;
    ns_status st;
    g.replica[0] = ns_replica_create(&rc, &st);
    ck_assert_int_eq(st, NS_OK);
    ns_world_set_relevancy(g.world, g.conn[0], away_relevant, &a);

    static const uint32_t link_types[] = {RF_LINK_ID}, body_types[] = {RF_BODY_ID};
    ns_entity_id holder, target;
    ck_assert_int_eq(ns_world_spawn(g.world, body_types, 1, &target), NS_OK);
    ck_assert_int_eq(ns_world_spawn(g.world, link_types, 1, &holder), NS_OK);
    a.target = target;
    rf_Link link;
    rf_Link_init(&link);
    link.target = ns_entity_ref(target);
    ck_assert_int_eq(ns_world_set(g.world, holder, RF_LINK_ID, &link), NS_OK);
    for (int i = 0; i < 10; i++) rh_step(&g);
    const rf_Link *live = ns_replica_value(g.replica[0], holder, RF_LINK_ID);
    ck_assert_ptr_nonnull(live);
    ck_assert_uint_eq(live->target, target + 1u); /* no handle bound: the id + 1 */

    a.away = true; /* the target leaves relevancy; the holder stays and does not change */
    for (int i = 0; i < 4 && ns_replica_has(g.replica[0], target); i++) rh_step(&g);
    ck_assert(!ns_replica_has(g.replica[0], target));
    uint32_t before;
    ck_assert_ptr_nonnull(ns_replica_snap(g.replica[0], holder, RF_LINK_ID, &before));
    live = ns_replica_value(g.replica[0], holder, RF_LINK_ID);
    ck_assert_uint_eq(live->target, 0);

    a.away = false; /* back: a fresh spawn after the cooling window */
    for (int i = 0; i < 80 && !ns_replica_has(g.replica[0], target); i++) rh_step(&g);
    ck_assert(ns_replica_has(g.replica[0], target));
    uint32_t after;
    ck_assert_ptr_nonnull(ns_replica_snap(g.replica[0], holder, RF_LINK_ID, &after));
    ck_assert_uint_eq(after, before); /* the holder was not resent: the pending reference resolved */
    live = ns_replica_value(g.replica[0], holder, RF_LINK_ID);
    ck_assert_uint_eq(live->target, target + 1u);
    ck_assert_uint_eq(a.resolved, 1);

    ck_assert_int_eq(ns_world_despawn(g.world, target), NS_OK); /* the reference is left dangling */
    for (int i = 0; i < 10; i++) rh_step(&g);
    ck_assert(!ns_replica_has(g.replica[0], target));
    live = ns_replica_value(g.replica[0], holder, RF_LINK_ID);
    ck_assert_uint_eq(live->target, 0);
    ck_assert_uint_eq(ns_replica_handle(g.replica[0], ns_entity_ref(target)), 0);
    ck_assert_uint_eq(a.resolved, 1);
    ck_assert_uint_eq(g.read_errors, 0);
    rh_stop(&g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("refs");
    TCase *tc = tcase_create("resolve");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, references_resolve_as_each_client_knows_the_world);
    tcase_add_test(tc, a_reference_survives_its_target_leaving_and_ends_when_it_is_destroyed);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
