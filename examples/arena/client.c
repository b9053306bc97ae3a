/* client.c — one player's side: sends its input every tick, decodes the server's datagrams
 * against its own history of decoded snapshots, acks them, checks them against the server's
 * snapshots, applies them with hooks and interpolates the other entities for display. */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define RENDER_DELAY 0.5f  /* display this many ticks behind the newest snapshot */

/* What the client knows of one entity. */
typedef struct view {
    ns_history      history;      /* decoded snapshots by tick, over store: the baselines */
    entity_snap    *store;
    uint32_t        newest, previous; /* ticks of the two newest decoded snapshots (0: none) */
    arena_Transform transform;    /* the newest state, kept by the generated _apply */
    arena_Health    health;
    arena_Inventory inventory;
    arena_Transform shown;        /* between `previous` and `newest`, for display */
} view;

struct client {
    unsigned           id, entities;  /* it owns entity `id` */
    net_socket         sock;
    struct sockaddr_in server_addr;
    const server      *truth;         /* the checks compare with the server's own snapshots */
    view               view[GAME_MAX_ENTITIES];
    ns_tickset         decoded;       /* ticks whose datagram it decoded: its acks */
    entity_snap        got[GAME_MAX_ENTITIES]; /* one datagram's entities, until all decoded */
    uint32_t           got_id[GAME_MAX_ENTITIES];
    arena_PlayerInput  input;
    arena_PlayerInput_snap inputs[WIRE_INPUTS]; /* the last inputs, tick t in slot t % 3 */
    ns_vec3            goal;          /* where the bot walks to */
    uint32_t           rpc_seq, rpc_acked; /* the last UseItem sent, and acked by the server */
    arena_UseItem_snap rpc;
    rng                rng;
    client_stats       stats;
};

/* ---- hooks: the generated _apply calls them when a @notify field or fast-array item changes */

static void on_hp(void *ctx, arena_Health *live, int32_t old_value, int32_t new_value)
{
    (void)live, (void)old_value, (void)new_value;
    ((client *)ctx)->stats.hp_hooks++;
}

/* Only our own inventory ever has items: a hook for another one means it leaked. */
static bool mine(client *c, const arena_Inventory *live)
{
    if (live == &c->view[c->id].inventory) return true;
    c->stats.foreign_inventory_hooks++;
    return false;
}

static void on_item_add(void *ctx, arena_Inventory *live, const arena_Inventory_items_item *item)
{
    (void)item;
    if (mine(ctx, live)) ((client *)ctx)->stats.item_adds++;
}

static void on_item_remove(void *ctx, arena_Inventory *live, const arena_Inventory_items_item *item)
{
    (void)item;
    if (mine(ctx, live)) ((client *)ctx)->stats.item_removes++;
}

static void on_item_change(void *ctx, arena_Inventory *live, const arena_Inventory_items_item *item,
                           const arena_Inventory_items_item *old)
{
    (void)item, (void)old;
    if (mine(ctx, live)) ((client *)ctx)->stats.item_changes++;
}

static void on_hotbar(void *ctx, arena_Inventory *live)
{
    if (mine(ctx, live)) ((client *)ctx)->stats.hotbar_hooks++;
}

static const arena_Health_hooks health_hooks = {.hp = on_hp};
static const arena_Inventory_hooks inventory_hooks = {
    .items_add = on_item_add, .items_remove = on_item_remove, .items_change = on_item_change, .hotbar = on_hotbar};

/* ---- receiving ---------------------------------------------------------------------------- */

/* The check: what we decoded is what the server had at that tick, except that we must never
 * see another player's inventory (@sync(owner)). Threads share memory, so we look it up. */
static void check(client *c, uint32_t id, uint32_t tick, const entity_snap *got)
{
    const entity_snap *want = server_snapshot(c->truth, id, tick);
    if (!want) {
        c->stats.unchecked++;
        return;
    }
    c->stats.checked++;
    bool own = id == c->id;
    if (!own && (got->inventory.items.count || got->inventory.hotbar.count)) c->stats.leaks++;
    if (!arena_Transform_snap_equal(&got->transform, &want->transform) ||
        !arena_Health_snap_equal(&got->health, &want->health) ||
        (own && !arena_Inventory_snap_equal(&got->inventory, &want->inventory))) {
        if (c->stats.mismatches++ < 5)
            fprintf(stderr, "arena: client %u: entity %u of tick %u differs from the server's\n", c->id, id, tick);
    }
}

/* Keeps one decoded entity state: in its history (a baseline for later datagrams), checked,
 * and applied to the live components if it is the newest. */
static void keep(client *c, uint32_t id, uint32_t tick, const entity_snap *got)
{
    view *v = &c->view[id];
    entity_snap *slot = ns_history_put(&v->history, tick);
    *slot = *got;
    check(c, id, tick, got);
    if (tick <= v->newest) return; /* a late datagram: already showing something newer */
    v->previous = v->newest, v->newest = tick;
    arena_Transform_apply(&v->transform, &got->transform, NULL, NULL);
    arena_Health_apply(&v->health, &got->health, &health_hooks, c);
    arena_Inventory_apply(&v->inventory, &got->inventory, &inventory_hooks, c);
}

/* Counts a datagram that did not decode; returns false, for `return malformed(...)`. */
static bool malformed(client *c, uint32_t tick, const char *what)
{
    if (c->stats.malformed++ < 5) fprintf(stderr, "arena: client %u: datagram of tick %u: %s\n", c->id, tick, what);
    return false;
}

/* Decodes one datagram. Every entity is read into `got` first: the tick is kept and acked only
 * if all of them decode, so that an ack always means "I hold every entity you sent me then".
 * False if it was not kept. */
static bool datagram(client *c, const uint8_t *buf, size_t len)
{
    ns_reader r;
    ns_reader_init(&r, buf, len);
    uint32_t tick, rpc_ack, n = 0;
    wire_read_downlink_head(&r, &tick, &rpc_ack);
    if (c->decoded.mask && (int32_t)(c->decoded.newest - tick) >= WIRE_HISTORY / 2) {
        c->stats.stale++; /* too old to be worth keeping */
        return false;
    }
    wire_entity e;
    while (wire_read_entity_head(&r, tick, &e)) {
        if (e.id >= c->entities || n == c->entities) return malformed(c, tick, "bad entity id or count");
        view *v = &c->view[e.id];
        for (uint32_t k = 0; k < e.base.count; k++) /* the baselines the server named */
            if ((e.base.snap[k] = ns_history_get(&v->history, e.base.tick[k])) == NULL) {
                c->stats.missing_baseline++;
                return false;
            }
        ns_status st = wire_read_entity(&r, &c->got[n], &e, e.id == c->id ? NS_TO_OWNER : NS_TO_OBSERVER);
        if (st != NS_OK) return malformed(c, tick, ns_status_str(st));
        c->got_id[n++] = e.id;
    }
    if (ns_reader_failed(&r)) return malformed(c, tick, ns_status_str(ns_reader_status(&r)));
    for (uint32_t i = 0; i < n; i++) keep(c, c->got_id[i], tick, &c->got[i]);
    ns_tickset_add(&c->decoded, tick); /* acked in every datagram we send from now on */
    c->stats.decoded++;
    if (rpc_ack > c->rpc_acked && rpc_ack <= c->rpc_seq) { /* the server has our UseItem */
        c->stats.rpcs_confirmed += rpc_ack - c->rpc_acked;
        c->rpc_acked = rpc_ack;
    }
    return true;
}

static void receive(client *c, int wait_ms)
{
    uint8_t buf[WIRE_MAX_DATAGRAM];
    struct sockaddr_in from;
    long n;
    while ((n = net_recv(&c->sock, buf, sizeof buf, &from, wait_ms)) >= 0)
        if (from.sin_port == c->server_addr.sin_port) (void)datagram(c, buf, (size_t)n);
}

/* ---- display and input -------------------------------------------------------------------- */

/* Interpolates every other entity between its two newest snapshots, RENDER_DELAY ticks behind
 * the newest tick received (a renderer would draw `shown`). */
static void render(client *c)
{
    float now = (float)c->decoded.newest - RENDER_DELAY;
    for (unsigned e = 0; e < c->entities; e++) {
        view *v = &c->view[e];
        if (e == c->id || !v->previous) continue;
        const entity_snap *a = ns_history_get(&v->history, v->previous);
        const entity_snap *b = ns_history_get(&v->history, v->newest);
        if (!a || !b) continue;
        float t = (now - (float)v->previous) / (float)(v->newest - v->previous);
        arena_Transform_interpolate(&a->transform, &b->transform, t, &v->shown);
        c->stats.interpolated++;
    }
}

/* The bot that plays: walks to random goals, fires now and then, uses an item now and then. */
static void think(client *c, uint32_t t)
{
    ns_vec3 me = c->view[c->id].transform.position;
    float dx = c->goal.x - me.x, dz = c->goal.z - me.z, d = sqrtf(dx * dx + dz * dz);
    if (d < 2.0f || t % 300 == 0)
        c->goal = (ns_vec3){rng_range(&c->rng, -40, 40), 0, rng_range(&c->rng, -40, 40)};
    arena_PlayerInput_set_move(&c->input, d > 0.1f ? (ns_vec2){dx / d, dz / d} : (ns_vec2){0, 0});
    arena_PlayerInput_set_fire(&c->input, rng_below(&c->rng, 6) == 0);
    const arena_Inventory *inv = &c->view[c->id].inventory;
    uint32_t items = arena_Inventory_items_count(inv);
    if (c->rpc_acked == c->rpc_seq && items && rng_below(&c->rng, 40) == 0) {
        c->rpc.item = arena_Inventory_items_at(inv, rng_below(&c->rng, items))->id;
        c->rpc_seq++; /* sent with every datagram until the server acks it */
        c->stats.rpcs_sent++;
    }
}

/* This tick's datagram: the acks, the newest inputs (repeated, so one loss costs nothing) and
 * the pending UseItem. */
static void send_input(client *c, uint32_t t)
{
    wire_uplink u;
    memset(&u, 0, sizeof u);
    arena_PlayerInput_quantize(&c->input, &c->inputs[t % WIRE_INPUTS]);
    u.client = c->id;
    u.acks = c->decoded;
    u.input_tick = t;
    u.input_count = t < WIRE_INPUTS ? t : WIRE_INPUTS;
    for (uint32_t i = 0; i < u.input_count; i++) u.input[i] = c->inputs[(t - u.input_count + 1 + i) % WIRE_INPUTS];
    if (c->rpc_acked != c->rpc_seq) u.rpc_seq = c->rpc_seq, u.use = c->rpc;
    uint8_t buf[64];
    size_t len = wire_write_uplink(&u, buf, sizeof buf);
    if (len) net_send(&c->sock, &c->server_addr, buf, len);
    else (void)malformed(c, t, "input did not fit");
}

/* ---- the API of client.c ----------------------------------------------------------------- */

client *client_create(unsigned id, unsigned clients, uint16_t server_port, const server *truth,
                      unsigned loss_percent, uint64_t seed)
{
    client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->id = id;
    c->entities = clients + GAME_NPCS;
    c->truth = truth;
    c->rng.s = seed;
    if (!net_open(&c->sock, loss_percent, seed ^ 0xc11e)) {
        free(c);
        return NULL;
    }
    c->server_addr = c->sock.addr;
    c->server_addr.sin_port = htons(server_port);
    for (unsigned e = 0; e < c->entities; e++) {
        view *v = &c->view[e];
        v->store = calloc(WIRE_HISTORY, sizeof *v->store);
        ns_history_init(&v->history, v->store, sizeof *v->store, WIRE_HISTORY);
        arena_Transform_init(&v->transform);
        arena_Health_init(&v->health);
        arena_Inventory_init(&v->inventory);
        arena_Transform_init(&v->shown);
    }
    arena_PlayerInput_init(&c->input);
    return c;
}

void client_destroy(client *c)
{
    for (unsigned e = 0; e < c->entities; e++) free(c->view[e].store);
    net_close(&c->sock);
    free(c);
}

void client_tick(client *c, uint32_t tick)
{
    receive(c, 0);
    render(c);
    think(c, tick);
    send_input(c, tick);
}

void client_finish(client *c)
{
    receive(c, 50);
    /* Every item the add hook reported and the remove hook did not is in the live inventory. */
    const arena_Inventory *inv = &c->view[c->id].inventory;
    if (c->stats.item_adds - c->stats.item_removes != arena_Inventory_items_count(inv)) c->stats.inventory_mismatch++;
}

const client_stats *client_get_stats(const client *c)
{
    return &c->stats;
}

const net_stats *client_net(const client *c)
{
    return &c->sock.stats;
}
