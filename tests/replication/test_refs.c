/* test_refs.c — entity references through the replica (netschema/replication.h): an `entity`
 * field, fixed array element, list element, map value or fast-array item carries the target's
 * network reference; each client reads the handle it bound for that entity, 0 while the target
 * is not spawned there (and the reference resolves when it arrives, calling on_resolve), 0 for
 * good once the target is destroyed; map keys and set elements stay network references. Checked
 * after every tick on three clients over links that lose, reorder and duplicate, with relevancy
 * changing and ids reused: each live reference is exactly what the holder's newest state names,
 * as that client knows the world, and every hook sees handles. */
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
    uint32_t  resolved[CLIENTS], resolved_crowd[CLIENTS];
    uint32_t  checked, pending_seen, live_seen;
    uint32_t  elems_checked, elems_pending, elems_live, keys_checked, hook_refs;
    rf_Crowd  crowd[IDS];            /* the server's game: each Crowd's value */
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
    ck_assert(type == RF_LINK_ID || type == RF_CROWD_ID);
    cc->t->resolved[cc->c]++;
    if (type == RF_CROWD_ID) cc->t->resolved_crowd[cc->c]++;
}

/* Hooks of every client: a resolved reference is 0 or a handle handle_for() made (never a
 * network reference, which is at most IDS); map keys and set elements are network references. */
static void seen_handle(void *ctx, ns_entity h)
{
    client_ctx *cc = ctx;
    if (h != 0 && h < 1000000u) ck_abort_msg("client %u: a hook saw network reference %u", cc->c, h);
    cc->t->hook_refs++;
}

static void seen_key(void *ctx, ns_entity key)
{
    ck_assert_uint_le(key, IDS);
    ((client_ctx *)ctx)->t->hook_refs++;
}

static void h_members_insert(void *ctx, rf_Crowd *live, uint32_t index, ns_entity value)
{
    (void)live, (void)index;
    seen_handle(ctx, value);
}

static void h_members_set(void *ctx, rf_Crowd *live, uint32_t index, ns_entity old_value, ns_entity new_value)
{
    (void)live, (void)index, (void)old_value; /* old_value may be a handle since patched */
    seen_handle(ctx, new_value);
}

static void h_packs_insert(void *ctx, rf_Crowd *live, uint32_t index, const rf_Pack *value)
{
    (void)live, (void)index;
    seen_handle(ctx, value->one), seen_handle(ctx, value->aim.at);
}

static void h_packs_set(void *ctx, rf_Crowd *live, uint32_t index, const rf_Pack *old_value, const rf_Pack *new_value)
{
    (void)old_value;
    h_packs_insert(ctx, live, index, new_value);
}

static void h_seats_add(void *ctx, rf_Crowd *live, uint8_t key, ns_entity value)
{
    (void)live, (void)key;
    seen_handle(ctx, value);
}

static void h_seats_set(void *ctx, rf_Crowd *live, uint8_t key, ns_entity old_value, ns_entity new_value)
{
    (void)live, (void)key, (void)old_value;
    seen_handle(ctx, new_value);
}

static void h_scores_add(void *ctx, rf_Crowd *live, ns_entity key, uint8_t value)
{
    (void)live, (void)value;
    seen_key(ctx, key);
}

static void h_friends_add(void *ctx, rf_Crowd *live, ns_entity key)
{
    (void)live;
    seen_key(ctx, key);
}

static void h_squad_add(void *ctx, rf_Crowd *live, const rf_Crowd_squad_item *item)
{
    (void)live;
    seen_handle(ctx, item->value.at);
}

static void h_squad_change(void *ctx, rf_Crowd *live, const rf_Crowd_squad_item *item, const rf_Crowd_squad_item *old)
{
    (void)old;
    h_squad_add(ctx, live, item);
}

static void h_crew_add(void *ctx, rf_Crowd *live, const rf_Crowd_crew_item *item)
{
    (void)live;
    seen_handle(ctx, item->value.at);
}

static void h_crew_change(void *ctx, rf_Crowd *live, const rf_Crowd_crew_item *item, const rf_Crowd_crew_item *old)
{
    (void)old;
    h_crew_add(ctx, live, item);
}

static const rf_Crowd_hooks crowd_hooks = {
    .members_insert = h_members_insert,
    .members_set = h_members_set,
    .packs_insert = h_packs_insert,
    .packs_set = h_packs_set,
    .seats_add = h_seats_add,
    .seats_set = h_seats_set,
    .scores_add = h_scores_add,
    .friends_add = h_friends_add,
    .squad_add = h_squad_add,
    .squad_change = h_squad_change,
    .crew_add = h_crew_add,
    .crew_change = h_crew_change,
};

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

/* One resolved element of a Crowd: live must be what network reference v names. */
static void check_elem(refs_game *t, uint32_t c, uint32_t holder, uint32_t tick, const char *what, ns_entity live,
                       uint32_t v)
{
    ns_entity want = expected(t, c, t->g.replica[c], tick, v);
    if (live != want)
        ck_abort_msg("client %u, holder %u at tick %u: %s %u (want %u, ref %u)", c, holder, tick, what, live, want, v);
    t->elems_checked++;
    if (v && !want) t->elems_pending++;
    if (want) t->elems_live++;
}

static void check_crowd(refs_game *t, uint32_t c, uint32_t id)
{
    ns_replica *r = t->g.replica[c];
    uint32_t tick;
    const rf_Crowd_snap *s = ns_replica_snap(r, id, RF_CROWD_ID, &tick);
    if (!s) return;
    const rf_Crowd *live = ns_replica_value(r, id, RF_CROWD_ID);
    ck_assert_ptr_nonnull(live);
    ck_assert_uint_lt(t->g.tick - tick, HIST);
    ck_assert_uint_eq(live->members.count, s->members.count);
    for (uint32_t i = 0; i < s->members.count; i++)
        check_elem(t, c, id, tick, "member", live->members.items[i], s->members.items[i]);
    ck_assert_uint_eq(live->packs.count, s->packs.count);
    for (uint32_t i = 0; i < s->packs.count; i++) {
        check_elem(t, c, id, tick, "pack one", live->packs.items[i].one, s->packs.items[i].one);
        check_elem(t, c, id, tick, "pack aim", live->packs.items[i].aim.at, s->packs.items[i].aim.at);
    }
    ck_assert_uint_eq(live->seats.count, s->seats.count);
    for (uint32_t i = 0; i < s->seats.count; i++) {
        ck_assert_uint_eq(live->seats.keys[i], s->seats.keys[i]);
        check_elem(t, c, id, tick, "seat", live->seats.values[i], s->seats.values[i]);
    }
    /* Keys are the collection's identity: network references, as in the snapshot. */
    ck_assert_uint_eq(live->scores.count, s->scores.count);
    for (uint32_t i = 0; i < s->scores.count; i++, t->keys_checked++) {
        ck_assert_uint_eq(live->scores.keys[i], s->scores.keys[i]);
        ck_assert_uint_eq(live->scores.values[i], s->scores.values[i]);
    }
    ck_assert_uint_eq(live->friends.count, s->friends.count);
    for (uint32_t i = 0; i < s->friends.count; i++, t->keys_checked++)
        ck_assert_uint_eq(live->friends.items[i], s->friends.items[i]);
    ck_assert_uint_eq(live->squad.count, s->squad.count);
    for (uint32_t p = 0; p < s->squad.count; p++) { /* @ordered: position p holds item order[p] */
        const rf_Crowd_squad_item_snap *it = &s->squad.items[s->squad.order[p]];
        ck_assert_uint_eq(live->squad.items[p].id, it->id);
        check_elem(t, c, id, tick, "squad", live->squad.items[p].value.at, it->value.at);
    }
    ck_assert_uint_eq(live->crew.count, s->crew.count);
    for (uint32_t p = 0; p < s->crew.count; p++) {
        ck_assert_uint_eq(live->crew.items[p].id, s->crew.items[p].id);
        check_elem(t, c, id, tick, "crew", live->crew.items[p].value.at, s->crew.items[p].value.at);
    }
    for (uint32_t i = 0; i < 2; i++) {
        check_elem(t, c, id, tick, "pair", live->pair[i], s->pair[i]);
        check_elem(t, c, id, tick, "aims", live->aims[i].at, s->aims[i].at);
        check_elem(t, c, id, tick, "duo", live->duo.two[i], s->duo.two[i]);
    }
}

static void check_client(refs_game *t, uint32_t c)
{
    ns_replica *r = t->g.replica[c];
    for (uint32_t id = 0; id < IDS; id++) check_crowd(t, c, id);
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
        /* The union's member: its references resolve while it is the member held; a member
         * without references is copied as it is. */
        ck_assert_uint_eq(live->goal.tag, s->goal.tag);
        if (s->goal.tag == RF_GOAL_AIM) {
            check_elem(t, c, id, tick, "goal aim", live->goal.aim.at, s->goal.aim.at);
            ck_assert_uint_eq(live->goal.aim.slot, s->goal.aim.slot);
        } else if (s->goal.tag == RF_GOAL_BEAM) {
            check_elem(t, c, id, tick, "goal beam from", live->goal.beam.from, s->goal.beam.from);
            check_elem(t, c, id, tick, "goal beam to", live->goal.beam.to, s->goal.beam.to);
        } else {
            ck_assert_uint_eq(live->goal.point.x, s->goal.point.x);
        }
        ck_assert_uint_eq(ns_replica_handle(r, s->target), ns_replica_has(r, s->target - 1u) && s->target
                                                                 ? handle_for(c, s->target - 1u, t->client_inc[c][s->target - 1u])
                                                                 : 0u);
    }
}

static ns_entity random_ref(refs_game *t)
{
    ns_entity_id to = (ns_entity_id)(rh_next(&t->rng) % IDS);
    return ns_world_alive(t->g.world, to) && rh_next(&t->rng) % 8 ? ns_entity_ref(to) : 0;
}

/* One change to a random Crowd's references: an element added, replaced, removed or moved. */
static void change_crowd(refs_game *t)
{
    ns_world *w = t->g.world;
    ns_entity_id id = (ns_entity_id)(rh_next(&t->rng) % IDS);
    if (!ns_world_alive(w, id) || !ns_world_snap(w, id, RF_CROWD_ID)) return;
    rf_Crowd *v = &t->crowd[id];
    uint32_t op = (uint32_t)(rh_next(&t->rng) % 10), pick = (uint32_t)(rh_next(&t->rng) % 8);
    ns_entity ref = random_ref(t);
    rf_Aim aim = {ref, (uint8_t)pick};
    switch (op) {
    case 0:
        if (rf_Crowd_members_insert(v, pick % (v->members.count + 1u), ref) != NS_OK) rf_Crowd_members_remove(v, 0);
        break;
    case 1:
        if (v->members.count) rf_Crowd_members_set(v, pick % v->members.count, ref);
        break;
    case 2: {
        rf_Pack pk = {ref, {random_ref(t), 1}};
        if (v->packs.count && pick < 5) rf_Crowd_packs_set(v, pick % v->packs.count, &pk);
        else if (rf_Crowd_packs_add(v, &pk) != NS_OK) rf_Crowd_packs_remove(v, pick % v->packs.count);
        break;
    }
    case 3:
        if (rf_Crowd_seats_set(v, (uint8_t)(pick % 6), ref) != NS_OK) rf_Crowd_seats_remove(v, v->seats.keys[0]);
        break;
    case 4:
        if (ref && rf_Crowd_scores_set(v, ref, (uint8_t)pick) != NS_OK)
            rf_Crowd_scores_remove(v, v->scores.keys[pick % 4]);
        if (ref && rf_Crowd_friends_add(v, ref) != NS_OK) rf_Crowd_friends_remove(v, v->friends.items[pick % 4]);
        break;
    case 5:
    case 6:
        if (v->squad.count && pick < 4) rf_Crowd_squad_set(v, v->squad.items[pick % v->squad.count].id, &aim);
        else if (v->squad.count && pick < 6) rf_Crowd_squad_move(v, v->squad.items[0].id, v->squad.count - 1u);
        else if (rf_Crowd_squad_insert(v, pick % (v->squad.count + 1u), &aim, NULL) != NS_OK)
            rf_Crowd_squad_remove(v, v->squad.items[pick % v->squad.count].id);
        break;
    case 7:
        if (v->crew.count && pick < 4) rf_Crowd_crew_set(v, v->crew.items[pick % v->crew.count].id, &aim);
        else if (rf_Crowd_crew_add(v, &aim, NULL) != NS_OK)
            rf_Crowd_crew_remove(v, v->crew.items[pick % v->crew.count].id);
        break;
    case 8:
        if (pick < 4) rf_Crowd_set_pair(v, pick % 2, ref);
        else v->duo.two[pick % 2] = ref; /* the whole value is quantized: no setter needed */
        break;
    default:
        rf_Crowd_set_aims(v, pick % 2, &aim);
        break;
    }
    ck_assert_int_eq(ns_world_set(w, id, RF_CROWD_ID, v), NS_OK);
}

/* Crowd id stops naming ref (destroyed): list members naming it are removed, other elements
 * set to 0. A client that never held the target is not told of its destruction (docs/replication.md
 * section 13), so a game clears what names it, as it does for plain fields. */
static void forget(refs_game *t, ns_entity_id id, ns_entity ref)
{
    rf_Crowd *v = &t->crowd[id];
    for (int32_t at; (at = rf_Crowd_members_find(v, ref)) >= 0;)
        ck_assert_int_eq(rf_Crowd_members_remove(v, (uint32_t)at), NS_OK);
    for (uint32_t i = 0; i < v->packs.count; i++) {
        rf_Pack pk = v->packs.items[i];
        if (pk.one == ref) pk.one = 0;
        if (pk.aim.at == ref) pk.aim.at = 0;
        rf_Crowd_packs_set(v, i, &pk);
    }
    for (uint32_t i = 0; i < v->seats.count; i++)
        if (v->seats.values[i] == ref) rf_Crowd_seats_set(v, v->seats.keys[i], 0);
    rf_Crowd_scores_remove(v, ref);
    rf_Crowd_friends_remove(v, ref);
    for (uint32_t i = 0; i < v->squad.count; i++)
        if (v->squad.items[i].value.at == ref) rf_Crowd_squad_set(v, v->squad.items[i].id, &(rf_Aim){0, 0});
    for (uint32_t i = 0; i < v->crew.count; i++)
        if (v->crew.items[i].value.at == ref) rf_Crowd_crew_set(v, v->crew.items[i].id, &(rf_Aim){0, 0});
    for (uint32_t i = 0; i < 2; i++) {
        if (v->pair[i] == ref) rf_Crowd_set_pair(v, i, 0);
        if (v->aims[i].at == ref) rf_Crowd_set_aims(v, i, &(rf_Aim){0, 0});
        if (v->duo.two[i] == ref) v->duo.two[i] = 0;
    }
    ck_assert_int_eq(ns_world_set(t->g.world, id, RF_CROWD_ID, v), NS_OK);
}

/* The server's game: spawns, destroys (clearing references to what it destroys), relinks,
 * changes crowds. */
static void play(refs_game *t)
{
    ns_world *w = t->g.world;
    uint32_t roll = (uint32_t)rh_next(&t->rng) % 100;
    if (roll < 12 && ns_world_count(w) < IDS - 4) {
        static const uint32_t kinds[4][3] = {{RF_BODY_ID}, {RF_BODY_ID, RF_LINK_ID}, {RF_CROWD_ID, RF_BODY_ID},
                                             {RF_LINK_ID, RF_CROWD_ID, RF_BODY_ID}};
        static const uint32_t nkinds[4] = {1, 2, 2, 3};
        uint32_t k = (uint32_t)(rh_next(&t->rng) % 4);
        ns_entity_id id;
        if (ns_world_spawn(w, kinds[k], nkinds[k], &id) == NS_OK) t->inc[id]++, rf_Crowd_init(&t->crowd[id]);
    } else if (roll < 20 && ns_world_count(w) > 8) {
        ns_entity_id victim = (ns_entity_id)(rh_next(&t->rng) % IDS);
        if (ns_world_alive(w, victim)) {
            ck_assert_int_eq(ns_world_despawn(w, victim), NS_OK);
            for (uint32_t id = 0; id < IDS; id++) {
                rf_Link_snap *l = ns_world_snap(w, id, RF_LINK_ID);
                if (!l || !ns_world_alive(w, id)) continue;
                if (l->target == ns_entity_ref(victim)) l->target = 0;
                if (l->aim.at == ns_entity_ref(victim)) l->aim.at = 0;
                if (l->goal.tag == RF_GOAL_AIM && l->goal.aim.at == ns_entity_ref(victim)) l->goal.aim.at = 0;
                if (l->goal.tag == RF_GOAL_BEAM && l->goal.beam.from == ns_entity_ref(victim)) l->goal.beam.from = 0;
                if (l->goal.tag == RF_GOAL_BEAM && l->goal.beam.to == ns_entity_ref(victim)) l->goal.beam.to = 0;
            }
            for (uint32_t id = 0; id < IDS; id++)
                if (ns_world_alive(w, id) && ns_world_snap(w, id, RF_CROWD_ID)) forget(t, id, ns_entity_ref(victim));
        }
    }
    for (uint32_t k = 0; k < 3 && roll % 3 == 0; k++) change_crowd(t);
    for (uint32_t k = 0; k < 2 && roll % 8 == 0; k++) { /* now and then a link changes its targets: most
                                                           references outlive a relevancy change */
        ns_entity_id id = (ns_entity_id)(rh_next(&t->rng) % IDS), to = (ns_entity_id)(rh_next(&t->rng) % IDS);
        rf_Link_snap *l = ns_world_alive(w, id) ? ns_world_snap(w, id, RF_LINK_ID) : NULL;
        if (!l) continue;
        uint32_t ref = ns_world_alive(w, to) ? ns_entity_ref(to) : 0;
        if (k == 0) l->target = ref;
        else l->aim.at = ref;
    }
    if (roll % 6 == 1) { /* a link's goal switches member, or a member's references change */
        ns_entity_id id = (ns_entity_id)(rh_next(&t->rng) % IDS);
        rf_Link_snap *l = ns_world_alive(w, id) ? ns_world_snap(w, id, RF_LINK_ID) : NULL;
        if (l) {
            uint8_t tag = (uint8_t)(rh_next(&t->rng) % RF_GOAL_COUNT);
            if (tag != l->goal.tag) memset(&l->goal, 0, sizeof l->goal), l->goal.tag = tag;
            if (tag == RF_GOAL_POINT) l->goal.point.x = (uint16_t)rh_next(&t->rng);
            if (tag == RF_GOAL_AIM) l->goal.aim.at = random_ref(t), l->goal.aim.slot = (uint8_t)rh_next(&t->rng);
            if (tag == RF_GOAL_BEAM) l->goal.beam.from = random_ref(t), l->goal.beam.to = random_ref(t);
        }
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
        ck_assert_int_eq(ns_replica_set_hooks(t->g.replica[c], RF_CROWD_ID, &crowd_hooks, &ctxs[c]), NS_OK);
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
    ck_assert_uint_gt(t->elems_checked, 100000);
    ck_assert_uint_gt(t->elems_live, 20000);
    ck_assert_uint_gt(t->elems_pending, 2000);
    ck_assert_uint_gt(t->keys_checked, 10000);
    ck_assert_uint_gt(t->hook_refs, 1000);
    printf("%u references checked: %u live, %u waiting; resolved later: %u, %u, %u\n", t->checked, t->live_seen,
           t->pending_seen, t->resolved[0], t->resolved[1], t->resolved[2]);
    printf("%u collection and array elements checked: %u live, %u waiting; %u keys; %u seen by hooks; resolved "
           "later: %u, %u, %u\n",
           t->elems_checked, t->elems_live, t->elems_pending, t->keys_checked, t->hook_refs, t->resolved_crowd[0],
           t->resolved_crowd[1], t->resolved_crowd[2]);
    for (uint32_t c = 0; c < CLIENTS; c++) ck_assert_uint_gt(t->resolved[c] - t->resolved_crowd[c], 20);
    for (uint32_t c = 0; c < CLIENTS; c++) ck_assert_uint_gt(t->resolved_crowd[c], 20);
    rh_stop(&t->g);
    free(t);
}
END_TEST

/* Gives client 0 of g a replica with the given callbacks (the harness's has none), and the
 * server that client's relevancy. */
static void client_with(rh_game *g, ns_spawn_fn spawned, ns_resolve_fn resolved, void *ctx, ns_relevancy_fn sees)
{
    ns_replica_destroy(g->replica[0]);
    ns_handshake h = ns_world_handshake(g->world, g->conn[0]);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&h, &rf_schema, &rc, NULL, 0), NS_OK);
    rc.on_spawn = spawned;
    rc.on_resolve = resolved;
    rc.ctx = ctx;
    ns_status st;
    g->replica[0] = ns_replica_create(&rc, &st);
    ck_assert_int_eq(st, NS_OK);
    ns_world_set_relevancy(g->world, g->conn[0], sees, ctx);
}

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
    client_with(&g, NULL, away_resolve, &a, away_relevant);

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

/* A crowd names a target the client does not have yet, in every kind of place: each element
 * reads 0 and waits; when the target arrives each resolves (on_resolve once per reference) though
 * the holder was not resent; a rebind reaches the elements; hooks of new elements see the handle;
 * the target's destruction turns every element to 0. Map keys and set elements stay network
 * references throughout. */
typedef struct crowd_ctx {
    bool         away;
    ns_entity_id target;
    uint32_t     resolved;
    ns_entity    inserted, seated, squad_added; /* what the hooks saw last */
} crowd_ctx;

static void crowd_spawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    (void)ctx;
    ck_assert_int_eq(ns_replica_bind(r, e, 500u + e), NS_OK);
}

static void crowd_resolve(ns_replica *r, ns_entity_id holder, uint32_t type, ns_entity_id target, void *ctx)
{
    crowd_ctx *a = ctx;
    (void)r, (void)holder;
    ck_assert_uint_eq(type, RF_CROWD_ID);
    ck_assert_uint_eq(target, a->target);
    a->resolved++;
}

static bool crowd_relevant(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx)
{
    const crowd_ctx *a = ctx;
    (void)w, (void)conn;
    return !(a->away && e == a->target);
}

static void c_members_insert(void *ctx, rf_Crowd *live, uint32_t index, ns_entity value)
{
    (void)live, (void)index;
    ((crowd_ctx *)ctx)->inserted = value;
}

static void c_seats_add(void *ctx, rf_Crowd *live, uint8_t key, ns_entity value)
{
    (void)live, (void)key;
    ((crowd_ctx *)ctx)->seated = value;
}

static void c_squad_add(void *ctx, rf_Crowd *live, const rf_Crowd_squad_item *item)
{
    (void)live;
    ((crowd_ctx *)ctx)->squad_added = item->value.at;
}

/* The nine references to the target the crowd below holds, as the client reads them. */
static void crowd_refs(const rf_Crowd *v, ns_entity out[9])
{
    out[0] = v->members.items[0];
    out[1] = v->packs.items[0].one;
    out[2] = v->packs.items[0].aim.at;
    out[3] = v->seats.values[0];
    out[4] = v->squad.items[0].value.at;
    out[5] = v->crew.items[0].value.at;
    out[6] = v->pair[1];
    out[7] = v->aims[0].at;
    out[8] = v->duo.two[1];
}

static void assert_crowd_reads(const rf_Crowd *v, ns_entity want)
{
    ns_entity got[9];
    crowd_refs(v, got);
    for (int i = 0; i < 9; i++)
        if (got[i] != want) ck_abort_msg("reference %d reads %u, want %u", i, got[i], want);
}

START_TEST(collection_elements_wait_resolve_rebind_and_end)
{
    rh_game g;
    crowd_ctx a = {.away = true};
    ns_world_config cfg = {.schema = &rf_schema, .max_entities = 8, .max_connections = 1, .history_depth = 56,
                           .reorder_window = 4};
    rh_impair quiet = {0};
    rh_start(&g, cfg, 1, quiet, 5);
    client_with(&g, crowd_spawn, crowd_resolve, &a, crowd_relevant);
    static const rf_Crowd_hooks hooks = {.members_insert = c_members_insert, .seats_add = c_seats_add,
                                         .squad_add = c_squad_add};
    ck_assert_int_eq(ns_replica_set_hooks(g.replica[0], RF_CROWD_ID, &hooks, &a), NS_OK);

    static const uint32_t crowd_types[] = {RF_CROWD_ID}, body_types[] = {RF_BODY_ID};
    ns_entity_id holder, target, other;
    ck_assert_int_eq(ns_world_spawn(g.world, body_types, 1, &target), NS_OK);
    ck_assert_int_eq(ns_world_spawn(g.world, body_types, 1, &other), NS_OK);
    ck_assert_int_eq(ns_world_spawn(g.world, crowd_types, 1, &holder), NS_OK);
    a.target = target;
    const ns_entity ref = ns_entity_ref(target);
    rf_Crowd v;
    rf_Crowd_init(&v);
    ck_assert_int_eq(rf_Crowd_members_add(&v, ref), NS_OK);
    ck_assert_int_eq(rf_Crowd_members_add(&v, ns_entity_ref(other)), NS_OK);
    rf_Pack pk = {ref, {ref, 2}};
    ck_assert_int_eq(rf_Crowd_packs_add(&v, &pk), NS_OK);
    ck_assert_int_eq(rf_Crowd_seats_set(&v, 3, ref), NS_OK);
    ck_assert_int_eq(rf_Crowd_scores_set(&v, ref, 9), NS_OK);
    ck_assert_int_eq(rf_Crowd_friends_add(&v, ref), NS_OK);
    rf_Aim aim = {ref, 1};
    ck_assert_int_eq(rf_Crowd_squad_add(&v, &aim, NULL), NS_OK);
    ck_assert_int_eq(rf_Crowd_crew_add(&v, &aim, NULL), NS_OK);
    rf_Crowd_set_pair(&v, 1, ref);
    rf_Crowd_set_aims(&v, 0, &aim);
    v.duo.two[1] = ref;
    ck_assert_int_eq(ns_world_set(g.world, holder, RF_CROWD_ID, &v), NS_OK);
    for (int i = 0; i < 10; i++) rh_step(&g);

    /* The target is not here: every reference to it reads 0 and waits, hooks saw 0. */
    ns_replica *r = g.replica[0];
    ck_assert(!ns_replica_has(r, target));
    const rf_Crowd *live = ns_replica_value(r, holder, RF_CROWD_ID);
    ck_assert_ptr_nonnull(live);
    assert_crowd_reads(live, 0);
    ck_assert_uint_eq(live->members.items[1], 500u + other); /* a present target: its handle */
    ck_assert_uint_eq(live->scores.keys[0], ref);            /* keys: network references */
    ck_assert_uint_eq(live->friends.items[0], ref);
    ck_assert_uint_eq(a.seated, 0);
    ck_assert_uint_eq(a.squad_added, 0);
    ck_assert_uint_eq(a.resolved, 0);
    uint32_t before;
    ck_assert_ptr_nonnull(ns_replica_snap(r, holder, RF_CROWD_ID, &before));

    a.away = false; /* the target arrives; the holder does not change */
    for (int i = 0; i < 10 && !ns_replica_has(r, target); i++) rh_step(&g);
    ck_assert(ns_replica_has(r, target));
    uint32_t after;
    ck_assert_ptr_nonnull(ns_replica_snap(r, holder, RF_CROWD_ID, &after));
    ck_assert_uint_eq(after, before); /* not resent: the pending elements resolved */
    live = ns_replica_value(r, holder, RF_CROWD_ID);
    assert_crowd_reads(live, 500u + target);
    ck_assert_uint_eq(a.resolved, 9);
    ck_assert_uint_eq(live->scores.keys[0], ref);
    ck_assert_uint_eq(ns_replica_handle(r, live->friends.items[0]), 500u + target);

    ck_assert_int_eq(ns_replica_bind(r, target, 4242), NS_OK); /* a rebind reaches every element */
    assert_crowd_reads(live, 4242);

    /* New elements naming the target: the hooks see its handle, never the network reference. */
    ck_assert_int_eq(rf_Crowd_members_add(&v, ref), NS_OK);
    ck_assert_int_eq(rf_Crowd_seats_set(&v, 5, ref), NS_OK);
    ck_assert_int_eq(rf_Crowd_squad_add(&v, &aim, NULL), NS_OK);
    ck_assert_int_eq(ns_world_set(g.world, holder, RF_CROWD_ID, &v), NS_OK);
    for (int i = 0; i < 10; i++) rh_step(&g);
    ck_assert_uint_eq(live->members.count, 3);
    ck_assert_uint_eq(live->members.items[2], 4242);
    ck_assert_uint_eq(a.inserted, 4242);
    ck_assert_uint_eq(a.seated, 4242);
    ck_assert_uint_eq(a.squad_added, 4242);

    ck_assert_int_eq(ns_world_despawn(g.world, target), NS_OK); /* the references are left dangling */
    for (int i = 0; i < 10; i++) rh_step(&g);
    ck_assert(!ns_replica_has(r, target));
    live = ns_replica_value(r, holder, RF_CROWD_ID);
    assert_crowd_reads(live, 0);
    ck_assert_uint_eq(live->members.items[2], 0);
    ck_assert_uint_eq(live->seats.values[1], 0);
    ck_assert_uint_eq(live->squad.items[1].value.at, 0);
    ck_assert_uint_eq(live->members.items[1], 500u + other);
    ck_assert_uint_eq(live->scores.keys[0], ref);
    ck_assert_uint_eq(a.resolved, 9);
    ck_assert_uint_eq(g.read_errors, 0);
    rh_stop(&g);
}
END_TEST

/* Holders far apart (ids 5, 70, 4100 and 8200 of 9,000, so in three words of the replica's
 * holder bits and in three of their summary's bits) wait for a target the client does not have:
 * its arrival resolves them in ascending id order. A holder that leaves relevancy in the same
 * packet as the target is not visited again: when the target comes back only the other three
 * resolve, and its destruction turns those to 0. Bodies on both sides of each word boundary are
 * relevant too, and ns_replica_each lists exactly what the client holds, in id order. */
#define FAR_IDS 9000u
static const ns_entity_id far_holders[4] = {5, 70, 4100, 8200};
static const ns_entity_id far_bodies[7] = {0, 63, 64, 4095, 4096, 8191, 8192};

typedef struct far_list {
    ns_entity_id id[16];
    uint32_t     n;
} far_list;

static void far_each(const ns_replica *r, ns_entity_id e, void *ctx)
{
    far_list *l = ctx;
    (void)r;
    ck_assert_uint_lt(l->n, 16);
    l->id[l->n++] = e;
}

/* ns_replica_each lists the bodies, the first `holders` holders and, if `target`, the target. */
static void assert_far_each(const ns_replica *r, uint32_t holders, bool target)
{
    bool want[FAR_IDS] = {0};
    for (int k = 0; k < 7; k++) want[far_bodies[k]] = true;
    for (uint32_t k = 0; k < holders; k++) want[far_holders[k]] = true;
    want[FAR_IDS - 1] = target;
    far_list got = {0};
    ns_replica_each(r, far_each, &got);
    uint32_t k = 0;
    for (uint32_t id = 0; id < FAR_IDS; id++)
        if (want[id]) {
            ck_assert_uint_lt(k, got.n);
            ck_assert_uint_eq(got.id[k], id);
            k++;
        }
    ck_assert_uint_eq(got.n, k);
}

typedef struct far_ctx {
    bool         target_away, last_away;
    ns_entity_id target;
    ns_entity_id seen[8];
    uint32_t     resolved;
} far_ctx;

static bool far_relevant(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx)
{
    const far_ctx *f = ctx;
    (void)w, (void)conn;
    if (e == f->target) return !f->target_away;
    if (e == far_holders[3]) return !f->last_away;
    for (int k = 0; k < 7; k++)
        if (e == far_bodies[k]) return true;
    return e == far_holders[0] || e == far_holders[1] || e == far_holders[2];
}

static void far_resolve(ns_replica *r, ns_entity_id holder, uint32_t type, ns_entity_id target, void *ctx)
{
    far_ctx *f = ctx;
    (void)r;
    ck_assert_uint_eq(type, RF_LINK_ID);
    ck_assert_uint_eq(target, f->target);
    ck_assert_uint_lt(f->resolved, 8);
    f->seen[f->resolved++] = holder;
}

static void assert_far_links(const ns_replica *r, uint32_t holders, ns_entity want)
{
    for (uint32_t k = 0; k < holders; k++) {
        const rf_Link *live = ns_replica_value(r, far_holders[k], RF_LINK_ID);
        ck_assert_ptr_nonnull(live);
        if (live->target != want) ck_abort_msg("holder %u reads %u, want %u", far_holders[k], live->target, want);
    }
}

START_TEST(holders_far_apart_resolve_in_id_order)
{
    rh_game g;
    far_ctx f = {.target_away = true, .target = FAR_IDS - 1};
    ns_world_config cfg = {.schema = &rf_schema, .max_entities = FAR_IDS, .max_connections = 1, .history_depth = 56,
                           .reorder_window = 4};
    rh_start(&g, cfg, 1, (rh_impair){0}, 5);
    client_with(&g, NULL, far_resolve, &f, far_relevant);
    ns_replica *r = g.replica[0];

    static const uint32_t link_types[] = {RF_LINK_ID}, body_types[] = {RF_BODY_ID};
    for (uint32_t i = 0; i < FAR_IDS; i++) {
        bool holds = i == far_holders[0] || i == far_holders[1] || i == far_holders[2] || i == far_holders[3];
        ns_entity_id id;
        ck_assert_int_eq(ns_world_spawn(g.world, holds ? link_types : body_types, 1, &id), NS_OK);
        ck_assert_uint_eq(id, i);
    }
    rf_Link link;
    rf_Link_init(&link);
    link.target = ns_entity_ref(f.target);
    for (int k = 0; k < 4; k++) ck_assert_int_eq(ns_world_set(g.world, far_holders[k], RF_LINK_ID, &link), NS_OK);
    for (int i = 0; i < 10; i++) rh_step(&g);
    assert_far_links(r, 4, 0); /* waiting */
    assert_far_each(r, 4, false);

    f.target_away = false;
    for (int i = 0; i < 20 && !ns_replica_has(r, f.target); i++) rh_step(&g);
    ck_assert(ns_replica_has(r, f.target));
    ck_assert_uint_eq(f.resolved, 4);
    for (int k = 0; k < 4; k++) ck_assert_uint_eq(f.seen[k], far_holders[k]);
    assert_far_links(r, 4, f.target + 1u);
    assert_far_each(r, 4, true);

    f.target_away = f.last_away = true; /* despawned here in one packet, the holder first */
    for (int i = 0; i < 20 && ns_replica_has(r, f.target); i++) rh_step(&g);
    ck_assert(!ns_replica_has(r, f.target));
    ck_assert(!ns_replica_has(r, far_holders[3]));
    assert_far_links(r, 3, 0);
    assert_far_each(r, 3, false);

    f.target_away = false;
    for (int i = 0; i < 80 && !ns_replica_has(r, f.target); i++) rh_step(&g);
    ck_assert(ns_replica_has(r, f.target));
    ck_assert_uint_eq(f.resolved, 7);
    for (int k = 0; k < 3; k++) ck_assert_uint_eq(f.seen[4 + k], far_holders[k]);
    assert_far_links(r, 3, f.target + 1u);

    ck_assert_int_eq(ns_world_despawn(g.world, f.target), NS_OK);
    for (int i = 0; i < 10; i++) rh_step(&g);
    assert_far_links(r, 3, 0);
    ck_assert_uint_eq(f.resolved, 7);
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
    tcase_add_test(tc, collection_elements_wait_resolve_rebind_and_end);
    tcase_add_test(tc, holders_far_apart_resolve_in_id_order);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
