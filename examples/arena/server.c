/* server.c — the authoritative side: applies the clients' inputs and rpcs, simulates the players
 * and NPCs, keeps every entity's snapshots by tick, and sends each client one datagram a tick,
 * coded against the newest snapshots that client acknowledged. */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define HALF 50.0f               /* the arena is 100 m x 100 m */
#define DT (1.0f / GAME_RATE)
#define PLAYER_SPEED 6.0f        /* m/s at full stick */
#define NPC_SPEED 3.0f
#define REACH 10.0f              /* how far a player's shot reaches, m */

typedef struct entity {
    arena_Transform transform;
    arena_Health    health;
    arena_Inventory inventory;   /* players only; stays empty for NPCs */
    int             owner;       /* the client that owns it, or -1 for an NPC */
    float           heading, turn, speed; /* NPCs: direction (rad), turn rate (rad/s), m/s */
    unsigned        cooldown;    /* ticks before it may hit again */
    ns_history      history;     /* its snapshots by tick, over store */
    entity_snap    *store;
} entity;

/* What the server knows of one client. */
typedef struct peer {
    bool               known;    /* a datagram from it has arrived: addr is valid */
    struct sockaddr_in addr;
    ns_tickset         acked;    /* ticks whose datagram it decoded */
    ns_tickset         sent[GAME_MAX_ENTITIES]; /* per entity: ticks it was written to it */
    uint32_t           input_tick;
    arena_PlayerInput  input;    /* its newest input */
    bool               fire;     /* an input since the last shot asked to fire */
    uint32_t           rpc_seq;  /* the newest UseItem applied */
    unsigned           cursor;   /* the entity the next datagram starts its round at */
} peer;

struct server {
    net_socket   sock;
    unsigned     clients, entities;
    entity       ent[GAME_MAX_ENTITIES];
    peer         peer[GAME_MAX_CLIENTS];
    rng          rng;
    server_stats stats;
};

/* ---- simulation -------------------------------------------------------------------------- */

static ns_vec3 random_spot(server *s)
{
    return (ns_vec3){rng_range(&s->rng, -HALF, HALF), 0.0f, rng_range(&s->rng, -HALF, HALF)};
}

static arena_Item random_item(server *s)
{
    arena_Item it = {(uint16_t)(1 + rng_below(&s->rng, 999)), (uint8_t)(1 + rng_below(&s->rng, 99))};
    return it;
}

static void entity_init(server *s, unsigned e)
{
    entity *en = &s->ent[e];
    arena_Transform_init(&en->transform);
    arena_Health_init(&en->health);
    arena_Inventory_init(&en->inventory);
    arena_Transform_set_position(&en->transform, random_spot(s));
    en->owner = e < s->clients ? (int)e : -1;
    unsigned npc = en->owner < 0 ? e - s->clients : 0;
    en->heading = rng_range(&s->rng, -3.14159f, 3.14159f);
    en->turn = en->owner < 0 && npc < 2 ? 0.5f : 0.0f;   /* NPCs 0, 1 walk circles, 2 walks */
    en->speed = en->owner < 0 && npc < 3 ? NPC_SPEED : 0; /* straight, 3 stands guard */
    for (int i = 0; en->owner >= 0 && i < 8; i++) {
        arena_Item it = random_item(s);
        arena_Inventory_items_add(&en->inventory, &it, NULL);
        arena_Inventory_hotbar_add(&en->inventory, it.kind);
    }
    en->store = calloc(WIRE_HISTORY, sizeof *en->store);
    ns_history_init(&en->history, en->store, sizeof *en->store, WIRE_HISTORY);
}

/* Moves an entity by its velocity, bouncing off the walls, facing where it goes. */
static void entity_move(entity *en)
{
    ns_vec3 p = en->transform.position, v = en->transform.velocity;
    p.x += v.x * DT, p.z += v.z * DT;
    if (fabsf(p.x) > HALF) p.x = copysignf(HALF, p.x), v.x = -v.x;
    if (fabsf(p.z) > HALF) p.z = copysignf(HALF, p.z), v.z = -v.z;
    arena_Transform_set_position(&en->transform, p);
    arena_Transform_set_velocity(&en->transform, v);
    if (v.x != 0 || v.z != 0) {
        float yaw = atan2f(v.x, v.z);
        arena_Transform_set_rotation(&en->transform, (ns_quat){0, sinf(yaw / 2), 0, cosf(yaw / 2)});
    }
}

/* The nearest entity other than `self` within `reach` metres, or NULL. */
static entity *nearest(server *s, unsigned self, float reach, bool players_only)
{
    entity *best = NULL;
    float best_d2 = reach * reach;
    const ns_vec3 *a = &s->ent[self].transform.position;
    for (unsigned e = 0; e < s->entities; e++) {
        const ns_vec3 *b = &s->ent[e].transform.position;
        float dx = a->x - b->x, dz = a->z - b->z, d2 = dx * dx + dz * dz;
        if (e == self || (players_only && s->ent[e].owner < 0) || d2 > best_d2) continue;
        best = &s->ent[e], best_d2 = d2;
    }
    return best;
}

static void hurt(server *s, entity *victim, int32_t damage, entity *by)
{
    int32_t hp = victim->health.hp - damage;
    if (hp > 0) {
        arena_Health_set_hp(&victim->health, hp);
        return;
    }
    if (by) arena_Health_set_kills(&by->health, (uint16_t)(by->health.kills + 1));
    arena_Health_set_hp(&victim->health, 100); /* respawn somewhere else */
    arena_Transform_set_position(&victim->transform, random_spot(s));
}

/* The server's own inventory logic: now and then an item is found, used up or changed, and the
 * hotbar rearranged, through the generated fast-array and list helpers. */
static void shuffle_inventory(server *s, entity *en)
{
    arena_Inventory *inv = &en->inventory;
    uint32_t n = arena_Inventory_items_count(inv), roll = rng_below(&s->rng, 100);
    arena_Item it = random_item(s);
    if (roll < 3 || (roll < 8 && n < 4)) {
        if (arena_Inventory_items_add(inv, &it, NULL) == NS_OK) s->stats.item_adds++;
    } else if (roll < 8) {
        const arena_Inventory_items_item *pick = arena_Inventory_items_at(inv, rng_below(&s->rng, n));
        it.kind = pick->value.kind;
        if (roll < 6 && arena_Inventory_items_set(inv, pick->id, &it) == NS_OK) s->stats.item_changes++;
        if (roll >= 6 && arena_Inventory_items_remove(inv, pick->id) == NS_OK) s->stats.item_removes++;
    }
    if (rng_below(&s->rng, 200) == 0) { /* put the first items' kinds on the hotbar */
        arena_Inventory_hotbar_clear(inv);
        n = arena_Inventory_items_count(inv);
        for (uint32_t i = 0; i < n && i < 8; i++) arena_Inventory_hotbar_add(inv, arena_Inventory_items_at(inv, i)->value.kind);
        s->stats.hotbar_changes++;
    }
}

/* The UseItem rpc: one of the item is used up (and heals a little). */
static void use_item(server *s, unsigned c, uint32_t id)
{
    entity *en = &s->ent[c];
    int32_t at = arena_Inventory_items_find(&en->inventory, id);
    if (at < 0) { /* gone by the time the rpc arrived */
        s->stats.rpcs_gone++;
        return;
    }
    arena_Item it = arena_Inventory_items_at(&en->inventory, (uint32_t)at)->value;
    s->stats.rpcs_applied++;
    if (it.count > 1) {
        it.count--;
        arena_Inventory_items_set(&en->inventory, id, &it);
        s->stats.item_changes++;
    } else {
        arena_Inventory_items_remove(&en->inventory, id);
        s->stats.item_removes++;
    }
    arena_Health_set_hp(&en->health, en->health.hp + 5 > 100 ? 100 : en->health.hp + 5);
}

static void simulate(server *s, uint32_t t)
{
    for (unsigned e = 0; e < s->entities; e++) {
        entity *en = &s->ent[e];
        if (en->owner >= 0) {
            const ns_vec2 m = s->peer[en->owner].input.move;
            arena_Transform_set_velocity(&en->transform, (ns_vec3){m.x * PLAYER_SPEED, 0, m.y * PLAYER_SPEED});
        } else {
            en->heading += en->turn * DT;
            arena_Transform_set_velocity(&en->transform, (ns_vec3){sinf(en->heading) * en->speed, 0,
                                                                   cosf(en->heading) * en->speed});
        }
        entity_move(en);
        if (en->cooldown) en->cooldown--;
        entity *target = NULL;
        if (en->owner >= 0 && s->peer[en->owner].fire && !en->cooldown) { /* a player shoots */
            s->peer[en->owner].fire = false;
            if ((target = nearest(s, e, REACH, false)) != NULL) hurt(s, target, 10, en), en->cooldown = 15;
        } else if (en->owner < 0 && !en->cooldown && (target = nearest(s, e, 5.0f, true)) != NULL) {
            hurt(s, target, 5, en), en->cooldown = 30; /* an NPC bites */
        }
        if (t % GAME_RATE == 0 && en->health.hp < 100) arena_Health_set_hp(&en->health, en->health.hp + 2);
        if (en->owner >= 0) shuffle_inventory(s, en);
    }
}

/* Quantizes entity e into its history as tick t. The inventory, the expensive one, is quantized
 * only if a helper marked it dirty since the last tick; otherwise last tick's snapshot is kept. */
static void record(entity *en, uint32_t t)
{
    const entity_snap *prev = ns_history_get(&en->history, t - 1);
    entity_snap *now = ns_history_put(&en->history, t);
    arena_Transform_quantize(&en->transform, &now->transform);
    arena_Health_quantize(&en->health, &now->health);
    if (prev && !arena_Inventory_is_dirty(&en->inventory)) now->inventory = prev->inventory;
    else arena_Inventory_quantize(&en->inventory, &now->inventory);
    arena_Inventory_clear_dirty(&en->inventory);
}

/* ---- the network ------------------------------------------------------------------------- */

/* Reads every client datagram that has arrived (waiting up to wait_ms for each): acks, inputs,
 * rpcs. */
static void receive(server *s, int wait_ms)
{
    uint8_t buf[WIRE_MAX_DATAGRAM];
    struct sockaddr_in from;
    long n;
    while ((n = net_recv(&s->sock, buf, sizeof buf, &from, wait_ms)) >= 0) {
        wire_uplink u;
        if (!wire_read_uplink(buf, (size_t)n, &u) || u.client >= s->clients) {
            s->stats.bad_datagrams++;
            continue;
        }
        peer *p = &s->peer[u.client];
        p->known = true, p->addr = from;
        for (uint32_t i = 0; i < 32; i++) /* the client repeats its last 32 acks every time */
            if ((u.acks.mask >> i) & 1u) ns_tickset_add(&p->acked, u.acks.newest - i);
        for (uint32_t i = 0; i < u.input_count; i++) {
            uint32_t tick = u.input_tick - (u.input_count - 1 - i);
            if (tick <= p->input_tick) continue; /* a repeat of one we have */
            p->input_tick = tick;
            arena_PlayerInput_dequantize(&u.input[i], &p->input);
            p->fire |= p->input.fire;
        }
        if (u.rpc_seq > p->rpc_seq) { /* the client resends it until we ack it: apply it once */
            p->rpc_seq = u.rpc_seq;
            use_item(s, u.client, u.use.item);
        }
    }
}

/* Appends entity e's state of tick t for client c, against up to three snapshots that client
 * acked and was sent. False, with w as it was, if it does not fit in the datagram. */
static bool put_entity(server *s, unsigned c, unsigned e, uint32_t t, ns_writer *w)
{
    peer *p = &s->peer[c];
    entity *en = &s->ent[e];
    ns_audience to = e == c ? NS_TO_OWNER : NS_TO_OBSERVER;
    ns_baselines b;
    uint32_t n = ns_history_baselines(&en->history, &p->acked, &p->sent[e], t, 3, &b);
    ns_writer mark = *w; /* a copy of the writer: where to go back to if the entity does not fit */
    wire_bits bits;
    ns_status st = wire_write_entity(w, e, en->owner >= 0, ns_history_get(&en->history, t), &b, to, &bits);
    if (st != NS_OK || ns_writer_bits(w) + 1 > WIRE_MAX_DATAGRAM * 8) { /* + 1: the end bit */
        if (st != NS_OK && st != NS_ERR_OVERFLOW) {
            fprintf(stderr, "arena: server: entity %u of tick %u not written: %s\n", e, t, ns_status_str(st));
            s->stats.failures++;
        }
        *w = mark;
        return false;
    }
    ns_tickset_add(&p->sent[e], t);
    s->stats.writes[n]++;
    s->stats.bits_transform += bits.transform, s->stats.bits_health += bits.health;
    if (to == NS_TO_OWNER) s->stats.owner_writes++, s->stats.bits_inventory_owner += bits.inventory;
    else if (en->owner >= 0) s->stats.observer_inventory_writes++, s->stats.bits_inventory_observer += bits.inventory;
    return true;
}

/* A client's own entity always fits in a datagram, whatever its state, so it is never deferred. */
_Static_assert(16 + ARENA_TRANSFORM_MAX_BYTES + ARENA_HEALTH_MAX_BYTES + ARENA_INVENTORY_MAX_BYTES <= WIRE_MAX_DATAGRAM,
               "a player's own entity must fit in one datagram");

/* Client c's datagram of tick t: its own entity first, then the others, starting where the last
 * datagram stopped, as many as fit in WIRE_MAX_DATAGRAM bytes. */
static void send_datagram(server *s, unsigned c, uint32_t t)
{
    uint8_t buf[WIRE_MAX_DATAGRAM];
    peer *p = &s->peer[c];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    wire_write_downlink_head(&w, t, p->rpc_seq);
    unsigned written = put_entity(s, c, c, t, &w); /* always fits (the assertion above) */
    for (unsigned k = 0; k < s->entities; k++) {
        unsigned e = (p->cursor + k) % s->entities;
        if (e == c) continue;
        if (!put_entity(s, c, e, t, &w)) {
            p->cursor = e; /* the next datagram starts with it */
            break;
        }
        written++;
    }
    s->stats.deferred += s->entities - written;
    wire_write_end(&w);
    size_t len = ns_writer_flush(&w);
    net_send(&s->sock, &p->addr, buf, len);
}

/* ---- the API of server.c ----------------------------------------------------------------- */

server *server_create(unsigned clients, unsigned loss_percent, uint64_t seed)
{
    server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->clients = clients;
    s->entities = clients + GAME_NPCS;
    s->rng.s = seed;
    if (!net_open(&s->sock, loss_percent, seed ^ 0x5e7e7)) {
        free(s);
        return NULL;
    }
    for (unsigned e = 0; e < s->entities; e++) entity_init(s, e);
    return s;
}

void server_destroy(server *s)
{
    for (unsigned e = 0; e < s->entities; e++) free(s->ent[e].store);
    net_close(&s->sock);
    free(s);
}

uint16_t server_port(const server *s)
{
    return ntohs(s->sock.addr.sin_port);
}

void server_tick(server *s, uint32_t tick)
{
    receive(s, 0);
    simulate(s, tick);
    for (unsigned e = 0; e < s->entities; e++) record(&s->ent[e], tick);
    for (unsigned c = 0; c < s->clients; c++)
        if (s->peer[c].known) send_datagram(s, c, tick);
}

void server_finish(server *s)
{
    receive(s, 20);
}

const server_stats *server_get_stats(const server *s)
{
    return &s->stats;
}

const net_stats *server_net(const server *s)
{
    return &s->sock.stats;
}

const entity_snap *server_snapshot(const server *s, uint32_t e, uint32_t t)
{
    return e < s->entities ? ns_history_get(&s->ent[e].history, t) : NULL;
}
