/* server.c — the authoritative side. The game (players, NPCs, projectiles, inventories) lives in
 * `actor`s indexed by network id; every tick it stores their values in an ns_world, which does
 * all the replication: spawns, despawns, relevancy by distance, baselines from acks, priority
 * within the byte budget. Per client the server keeps an ns_reliable channel (the handshake,
 * then relayed chat; UseItem and Chat come the other way) and an ns_input_receiver. A player
 * moves by player_move (game.c) on its snapshot, the rule its client predicts with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define HALF ARENA_HALF
#define DT GAME_DT
#define NPC_SPEED 3.0f
#define SHOT_SPEED 18.0f         /* m/s */
#define SHOT_TICKS 45            /* a projectile that hits nothing despawns after this long */
#define SHOT_COOLDOWN 20         /* ticks between two shots of a player */
#define HIT_RADIUS 1.2f
#define KNOCK 1.0f               /* m a bite throws its victim back */
#define VIEW_RADIUS 35.0f        /* a client sees what is this close to its player */
#define MSG2_RESERVE 24          /* bytes kept for the bit stream when rpcs fill a datagram */

typedef enum kind { KIND_FREE, KIND_PLAYER, KIND_NPC, KIND_PROJECTILE } kind;

/* One game entity; its index is its network id. */
typedef struct actor {
    kind            kind;
    arena_Transform transform;
    arena_Transform_snap body;   /* players: the Transform as player_move moves it, sent as it is */
    arena_Health    health;
    arena_Inventory inventory;   /* players only */
    int             client;      /* a player's client; a projectile's shooter's client; else -1 */
    ns_entity_id    shooter;     /* projectiles */
    unsigned        age;         /* projectiles: ticks flown */
    float           heading, turn, speed; /* NPCs: direction (rad), turn rate (rad/s), m/s */
    unsigned        cooldown;    /* ticks before it may shoot or bite again */
} actor;

typedef struct peer {
    struct server     *srv;
    unsigned           index;
    uint32_t           conn;
    ns_entity_id       player;
    ns_reliable       *rel;
    ns_input_receiver *inputs;
    arena_PlayerInput  input;        /* the input of the tick being simulated */
    bool               streaming;    /* its inputs have begun to arrive: take them from now on */
    link              *up, *down;
    rpc_log           *log_up, *log_down;
    input_log         *input_log;
} peer;

struct server {
    options      o;
    ns_world    *world;
    actor        act[GAME_MAX_ENTITIES];
    peer         peer[GAME_MAX_CLIENTS];
    float        radius;        /* ns_relevant_by_distance's context */
    rng          rng;
    uint32_t     tick;
    server_stats stats;
};

static const uint32_t PLAYER_TYPES[] = {ARENA_TRANSFORM_ID, ARENA_HEALTH_ID, ARENA_INVENTORY_ID};
static const uint32_t NPC_TYPES[] = {ARENA_TRANSFORM_ID, ARENA_HEALTH_ID};
static const uint32_t SHOT_TYPES[] = {ARENA_TRANSFORM_ID, ARENA_SHOT_ID};

/* ---- the game --------------------------------------------------------------------------- */

static ns_vec3 random_spot(server *s)
{
    return (ns_vec3){rng_range(&s->rng, -HALF, HALF), 0.0f, rng_range(&s->rng, -HALF, HALF)};
}

static arena_Item random_item(server *s)
{
    arena_Item it = {(uint16_t)(1 + rng_below(&s->rng, 999)), (uint8_t)(1 + rng_below(&s->rng, 99))};
    return it;
}

/* Spawns a world entity with `types` and an actor of `k` for it; NULL if no id is free. */
static actor *spawn(server *s, kind k, const uint32_t *types, uint32_t count, ns_entity_id *id)
{
    if (ns_world_spawn(s->world, types, count, id) != NS_OK) return NULL;
    actor *a = &s->act[*id];
    memset(a, 0, sizeof *a);
    a->kind = k;
    a->client = -1;
    arena_Transform_init(&a->transform);
    arena_Health_init(&a->health);
    arena_Inventory_init(&a->inventory);
    return a;
}

static void despawn(server *s, ns_entity_id id)
{
    (void)ns_world_despawn(s->world, id);
    s->act[id].kind = KIND_FREE;
}

static void spawn_player(server *s, peer *p)
{
    actor *a = spawn(s, KIND_PLAYER, PLAYER_TYPES, 3, &p->player);
    if (!a) abort(); /* the first ids are always free */
    a->client = (int)p->index;
    arena_Transform_set_position(&a->transform, random_spot(s));
    arena_Transform_quantize(&a->transform, &a->body);
    for (int i = 0; i < 8; i++) {
        arena_Item it = random_item(s);
        arena_Inventory_items_add(&a->inventory, &it, NULL);
        arena_Inventory_hotbar_add(&a->inventory, it.kind);
    }
    ns_world_set_owner(s->world, p->player, (int32_t)p->conn);
    ns_world_set_importance(s->world, p->player, 2.0f);
    ns_world_set(s->world, p->player, ARENA_INVENTORY_ID, &a->inventory);
}

static void spawn_npc(server *s, unsigned npc)
{
    ns_entity_id id;
    actor *a = spawn(s, KIND_NPC, NPC_TYPES, 2, &id);
    if (!a) abort();
    arena_Transform_set_position(&a->transform, random_spot(s));
    a->heading = rng_range(&s->rng, -3.14159f, 3.14159f);
    unsigned role = npc % 4;                     /* of every 4 NPCs: */
    a->turn = role < 2 ? 0.5f : 0.0f;            /* 2 walk circles, 1 walks straight, */
    a->speed = role < 3 ? NPC_SPEED : 0.0f;      /* and 1 stands guard */
}

/* A player fires where it is heading: a projectile entity, owned by the shooter's client. */
static void fire(server *s, ns_entity_id shooter)
{
    actor *from = &s->act[shooter];
    ns_vec3 v = from->transform.velocity;
    float speed = sqrtf(v.x * v.x + v.z * v.z);
    if (speed < 0.1f) return; /* standing still: no direction to shoot in */
    ns_entity_id id;
    actor *a = spawn(s, KIND_PROJECTILE, SHOT_TYPES, 2, &id);
    if (!a) return;
    a->client = from->client;
    a->shooter = shooter;
    arena_Transform_set_position(&a->transform, from->transform.position);
    arena_Transform_set_velocity(&a->transform, (ns_vec3){v.x / speed * SHOT_SPEED, 0, v.z / speed * SHOT_SPEED});
    arena_Transform_set_rotation(&a->transform, from->transform.rotation);
    arena_Shot shot;
    arena_Shot_init(&shot);
    arena_Shot_set_shooter(&shot, (uint16_t)shooter);
    ns_world_set(s->world, id, ARENA_SHOT_ID, &shot); /* @initial: goes out with the spawn only */
    if (a->client >= 0) ns_world_set_owner(s->world, id, (int32_t)s->peer[a->client].conn);
    from->cooldown = SHOT_COOLDOWN;
    s->stats.projectiles_fired++;
}

/* Moves an entity by its velocity; false if it hit a wall (a player or NPC bounces off it). */
static bool move(actor *a)
{
    ns_vec3 p = a->transform.position, v = a->transform.velocity;
    bool inside = true;
    p.x += v.x * DT, p.z += v.z * DT;
    if (fabsf(p.x) > HALF) p.x = copysignf(HALF, p.x), v.x = -v.x, inside = false;
    if (fabsf(p.z) > HALF) p.z = copysignf(HALF, p.z), v.z = -v.z, inside = false;
    arena_Transform_set_position(&a->transform, p);
    arena_Transform_set_velocity(&a->transform, v);
    if (v.x != 0 || v.z != 0) {
        float yaw = atan2f(v.x, v.z);
        arena_Transform_set_rotation(&a->transform, (ns_quat){0, sinf(yaw / 2), 0, cosf(yaw / 2)});
    }
    return inside;
}

/* The nearest player (or NPC, unless players_only) within reach of `at`, other than `self`. */
static ns_entity_id nearest(const server *s, ns_vec3 at, ns_entity_id self, float reach, bool players_only)
{
    ns_entity_id best = GAME_MAX_ENTITIES;
    float best_d2 = reach * reach;
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        const actor *a = &s->act[e];
        if (e == self || !(a->kind == KIND_PLAYER || (a->kind == KIND_NPC && !players_only))) continue;
        float dx = at.x - a->transform.position.x, dz = at.z - a->transform.position.z;
        if (dx * dx + dz * dz <= best_d2) best = e, best_d2 = dx * dx + dz * dz;
    }
    return best;
}

/* The server put a player somewhere its input did not take it: its body takes the new position
 * (the rest of the body stays bit for bit). Its client learns it from the next server state. */
static void placed(actor *a)
{
    if (a->kind != KIND_PLAYER) return;
    arena_Transform_snap q;
    arena_Transform_quantize(&a->transform, &q);
    memcpy(a->body.position, q.position, sizeof q.position);
}

/* A bite throws the victim back, away from the biter: a push no client can foresee. */
static void knock(actor *victim, ns_vec3 from)
{
    ns_vec3 p = victim->transform.position;
    float dx = p.x - from.x, dz = p.z - from.z, d = sqrtf(dx * dx + dz * dz);
    if (d < 0.01f) dx = 1, dz = 0, d = 1;
    p.x = fminf(HALF, fmaxf(-HALF, p.x + dx / d * KNOCK));
    p.z = fminf(HALF, fmaxf(-HALF, p.z + dz / d * KNOCK));
    arena_Transform_set_position(&victim->transform, p);
    placed(victim);
}

static void hurt(server *s, actor *victim, int32_t damage, ns_entity_id by)
{
    int32_t hp = victim->health.hp - damage;
    if (hp > 0) {
        arena_Health_set_hp(&victim->health, hp);
        return;
    }
    actor *killer = &s->act[by];
    if (killer->kind == KIND_PLAYER || killer->kind == KIND_NPC)
        arena_Health_set_kills(&killer->health, (uint16_t)(killer->health.kills + 1));
    arena_Health_set_hp(&victim->health, 100); /* respawn somewhere else */
    arena_Transform_set_position(&victim->transform, random_spot(s));
    placed(victim);
}

/* Now and then an item is found, used up or changed, and the hotbar rearranged. */
static void shuffle_inventory(server *s, actor *a)
{
    arena_Inventory *inv = &a->inventory;
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
    if (rng_below(&s->rng, 200) == 0) {
        arena_Inventory_hotbar_clear(inv);
        n = arena_Inventory_items_count(inv);
        for (uint32_t i = 0; i < n && i < 8; i++)
            arena_Inventory_hotbar_add(inv, arena_Inventory_items_at(inv, i)->value.kind);
        s->stats.hotbar_changes++;
    }
}

static void simulate_player(server *s, ns_entity_id e)
{
    actor *a = &s->act[e];
    const arena_PlayerInput *in = &s->peer[a->client].input;
    player_move(&a->body, in); /* the client predicts its player with the same rule on the same bytes */
    arena_Transform_dequantize(&a->body, &a->transform);
    if (a->cooldown) a->cooldown--;
    if (in->fire && !a->cooldown && !s->o.calm) fire(s, e);
    if (s->tick % GAME_RATE == 0 && a->health.hp < 100) arena_Health_set_hp(&a->health, a->health.hp + 2);
    if (!s->o.calm) shuffle_inventory(s, a);
}

static void simulate_npc(server *s, ns_entity_id e)
{
    actor *a = &s->act[e];
    a->heading += a->turn * DT;
    arena_Transform_set_velocity(&a->transform,
                                 (ns_vec3){sinf(a->heading) * a->speed, 0, cosf(a->heading) * a->speed});
    move(a);
    if (a->cooldown) a->cooldown--;
    ns_entity_id bitten = a->cooldown || s->o.calm ? GAME_MAX_ENTITIES : nearest(s, a->transform.position, e, 5.0f, true);
    if (bitten < GAME_MAX_ENTITIES) {
        knock(&s->act[bitten], a->transform.position);
        hurt(s, &s->act[bitten], 5, e);
        a->cooldown = 30;
    }
}

static void simulate_projectile(server *s, ns_entity_id e)
{
    actor *a = &s->act[e];
    bool inside = move(a);
    ns_entity_id hit = nearest(s, a->transform.position, a->shooter, HIT_RADIUS, false);
    if (hit < GAME_MAX_ENTITIES) {
        hurt(s, &s->act[hit], 10, a->shooter);
        s->stats.projectile_hits++;
        despawn(s, e);
    } else if (++a->age >= SHOT_TICKS || !inside) {
        s->stats.projectiles_expired++;
        despawn(s, e);
    }
}

static void simulate(server *s)
{
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        switch (s->act[e].kind) {
        case KIND_PLAYER: simulate_player(s, e); break;
        case KIND_NPC: simulate_npc(s, e); break;
        case KIND_PROJECTILE: simulate_projectile(s, e); break;
        case KIND_FREE: break;
        }
    }
}

/* Stores every live actor's values in the world for the coming tick. The inventory, the
 * expensive one to quantize, only when a helper marked it dirty. */
static void store(server *s)
{
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        actor *a = &s->act[e];
        if (a->kind == KIND_FREE) continue;
        if (a->kind == KIND_PLAYER) /* its snapshot is the state: quantizing it again could move a bit */
            memcpy(ns_world_snap(s->world, e, ARENA_TRANSFORM_ID), &a->body, sizeof a->body);
        else
            ns_world_set(s->world, e, ARENA_TRANSFORM_ID, &a->transform);
        ns_world_set_position(s->world, e, a->transform.position.x, 0, a->transform.position.z);
        if (a->kind == KIND_PROJECTILE) continue;
        ns_world_set(s->world, e, ARENA_HEALTH_ID, &a->health);
        if (a->kind == KIND_PLAYER && arena_Inventory_is_dirty(&a->inventory)) {
            ns_world_set(s->world, e, ARENA_INVENTORY_ID, &a->inventory);
            arena_Inventory_clear_dirty(&a->inventory);
        }
    }
}

/* ---- rpcs: the generated dispatch calls these ------------------------------------------- */

/* UseItem: one of the item is used up, and heals a little. */
static void on_use_item(void *ctx, const arena_UseItem *msg)
{
    peer *p = ctx;
    server *s = p->srv;
    actor *a = &s->act[p->player];
    int32_t at = arena_Inventory_items_find(&a->inventory, msg->item);
    if (at < 0) { /* gone by the time the rpc arrived */
        s->stats.use_item_gone++;
        return;
    }
    arena_Item it = arena_Inventory_items_at(&a->inventory, (uint32_t)at)->value;
    s->stats.use_item_applied++;
    if (it.count > 1) {
        it.count--;
        arena_Inventory_items_set(&a->inventory, msg->item, &it);
        s->stats.item_changes++;
    } else {
        arena_Inventory_items_remove(&a->inventory, msg->item);
        s->stats.item_removes++;
    }
    arena_Health_set_hp(&a->health, a->health.hp + 5 > 100 ? 100 : a->health.hp + 5);
}

/* Queues a reliable message for p, logged for the exactly-once check. */
static void send_reliable(server *s, peer *p, const void *msg, size_t len)
{
    if (ns_reliable_send(p->rel, msg, len) != NS_OK) {
        s->stats.rpc_window_full++;
        return;
    }
    rpc_log_sent(p->log_down, msg, len);
}

/* Chat: relayed to every client, the speaker included, as a ChatLine. */
static void on_chat(void *ctx, const arena_Chat *msg)
{
    peer *from = ctx;
    server *s = from->srv;
    arena_ChatLine line;
    arena_ChatLine_init(&line);
    line.from = (uint8_t)from->index;
    memcpy(line.text, msg->text, sizeof line.text);
    uint8_t buf[128];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    if (arena_ChatLine_send(&w, &line) != NS_OK) return;
    size_t len = ns_writer_flush(&w);
    for (unsigned c = 0; c < s->o.clients; c++) send_reliable(s, &s->peer[c], buf, len);
    s->stats.chats_relayed++;
}

static const arena_handlers rpc_handlers = {.on_arena_UseItem = on_use_item, .on_arena_Chat = on_chat};

/* ---- the network ------------------------------------------------------------------------ */

/* True once the client acked the handshake: it has a replica, snapshots may go. */
static bool connected(const peer *p)
{
    return ns_reliable_get_stats(p->rel).acked > 0;
}

/* One datagram from p's client: the reliable frame (its rpcs go to the dispatch), then the bit
 * stream of the replica's acks and the inputs. */
static void read_datagram(server *s, peer *p, const uint8_t *bytes, size_t len)
{
    datagram_in d;
    if (datagram_parse(bytes, len, &d) != NS_OK) {
        s->stats.bad_datagrams++;
        return;
    }
    if (ns_reliable_read(p->rel, d.frame, d.frame_len) != NS_OK) s->stats.bad_messages++;
    const uint8_t *msg;
    size_t n;
    while (ns_reliable_receive(p->rel, &msg, &n)) {
        rpc_log_delivered(p->log_up, msg, n);
        ns_reader r;
        ns_reader_init(&r, msg, n);
        uint32_t id;
        if (arena_dispatch(&r, &rpc_handlers, p, &id) != NS_OK) s->stats.bad_messages++;
    }
    if (!d.body_len) return; /* not connected yet: no replica, no inputs */
    ns_reader r;
    ns_reader_init(&r, d.body, d.body_len);
    size_t at = ns_reader_bits(&r);
    if (ns_world_read_ack(s->world, p->conn, &r) != NS_OK) s->stats.bad_acks++;
    s->stats.replica_ack_bits += ns_reader_bits(&r) - at;
    if (ns_input_receiver_read(p->inputs, &r) != NS_OK) s->stats.bad_inputs++;
    else p->streaming = true;
    s->stats.input_bytes += d.body_len, s->stats.input_streams++;
}

void server_receive(server *s, uint32_t now)
{
    for (unsigned c = 0; c < s->o.clients; c++) {
        link_datagram d;
        while (link_take(s->peer[c].up, now, &d)) {
            read_datagram(s, &s->peer[c], d.data, d.len);
            free(d.data);
        }
    }
}

/* The input each player plays this tick: the one its client sent for tick - input_delay. */
static void take_inputs(server *s)
{
    uint32_t delay = input_delay(&s->o.impair);
    if (s->tick <= delay) return;
    uint32_t tick = s->tick - delay;
    for (unsigned c = 0; c < s->o.clients; c++) {
        peer *p = &s->peer[c];
        /* Not before the first inputs came: taking (missing) ticks the client never played would
         * make the receiver ack ticks the client has not reached. */
        if (!p->streaming) continue;
        arena_PlayerInput_snap snap;
        ns_status st = ns_input_receiver_take(p->inputs, tick, &snap);
        if (st == NS_OK) {
            input_log_applied(p->input_log, tick, &snap);
            arena_PlayerInput_dequantize(&snap, &p->input);
            s->stats.inputs_taken++;
        } else {
            s->stats.inputs_missing++;
            p->input.fire = false; /* keep moving as before, but do not repeat a shot */
        }
    }
}

/* The bit stream of client p's datagram: the snapshot, with the room left after the InputAck,
 * then the InputAck, coded as a distance back from the snapshot's tick. Its length in bytes, or
 * 0 if the snapshot could not be written. */
static size_t write_body(server *s, peer *p, uint8_t *body, size_t cap, size_t room_bits)
{
    arena_InputAck ack;
    arena_InputAck_init(&ack);
    uint32_t upto;
    if (ns_input_receiver_ack(p->inputs, &upto) && s->tick - upto <= 1023) ack.behind = (uint16_t)(s->tick - upto);
    uint8_t scratch[16];
    ns_writer w;
    ns_writer_init(&w, scratch, sizeof scratch); /* only to learn its size */
    if (arena_InputAck_send(&w, &ack) != NS_OK) abort();
    size_t ack_bits = ns_writer_bits(&w);

    ns_writer_init(&w, body, cap);
    if (s->o.profile) ns_writer_set_profile(&w, s->o.profile); /* --profile */
    const ns_vec3 *at = &s->act[p->player].transform.position; /* the client sees around its player */
    ns_world_set_viewpoint(s->world, p->conn, at->x, 0, at->z);
    ns_repl_stats rs;
    if (ns_world_write(s->world, p->conn, &w, room_bits - ack_bits, &rs) != NS_OK) {
        s->stats.write_errors++;
        return 0;
    }
    s->stats.snapshot_bits += rs.bits, s->stats.framing_bits += rs.framing_bits;
    s->stats.spawn_records += rs.spawns, s->stats.despawn_records += rs.despawns;
    s->stats.update_records += rs.updates, s->stats.deferred += rs.deferred;
    s->stats.skipped += rs.skipped, s->stats.full_states += rs.full_states;
    if (arena_InputAck_send(&w, &ack) != NS_OK) abort();
    size_t bits = ns_writer_bits(&w), len = ns_writer_flush(&w);
    s->stats.input_ack_bits += ack_bits, s->stats.padding_bits += len * 8 - bits;
    return len;
}

/* Client p's datagram of this tick, within the budget: the reliable frame first (acks, then due
 * rpcs), then the bit stream, whose snapshot gets whatever room is left. */
static void write_datagram(server *s, peer *p)
{
    size_t budget = s->o.budget, frame_len = 0, body_len = 0;
    uint8_t frame[DATAGRAM_MAX], body[DATAGRAM_MAX], out[DATAGRAM_MAX];
    if (ns_reliable_write(p->rel, s->tick, frame, budget - 2 - MSG2_RESERVE, &frame_len) != NS_OK) abort();
    if (connected(p)) body_len = write_body(s, p, body, sizeof body, (budget - datagram_frame_cost(frame_len)) * 8);
    size_t len = datagram_write(out, budget, frame, frame_len, body, body_len);
    if (!len) {
        s->stats.over_budget++; /* the accounting above is wrong: the checks report it */
        return;
    }
    s->stats.container_bytes += len - frame_len - body_len; /* the frame's length */
    s->stats.reliable_bytes += frame_len;
    link_send(p->down, out, len, s->tick);
}

/* ---- the API of server.c ---------------------------------------------------------------- */

static bool connect_client(server *s, unsigned c, link *up, link *down, rpc_log *log_up, rpc_log *log_down,
                           input_log *inputs)
{
    peer *p = &s->peer[c];
    *p = (peer){.srv = s, .index = c, .up = up, .down = down, .log_up = log_up, .log_down = log_down,
                .input_log = inputs};
    ns_reliable_config rc = rpc_channel_config(&s->o);
    ns_inputs_config ic = input_channel_config(&s->o);
    const ns_message_ops *input_ops = player_input_ops();
    if (ns_world_connect(s->world, &p->conn) != NS_OK || ns_reliable_create(&rc, &p->rel) != NS_OK ||
        ns_input_receiver_create(input_ops, &ic, &p->inputs) != NS_OK)
        return false;
    ns_world_set_relevancy(s->world, p->conn, ns_relevant_by_distance, &s->radius);
    arena_PlayerInput_init(&p->input);
    /* The handshake is the first reliable message: the client builds its replica from it. */
    ns_handshake h = ns_world_handshake(s->world, p->conn);
    uint8_t buf[32];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_handshake_write(&w, &h);
    send_reliable(s, p, buf, ns_writer_flush(&w));
    spawn_player(s, p);
    return true;
}

server *server_create(const options *o, link *up, link *down, rpc_log *logs_up, rpc_log *logs_down, input_log *inputs)
{
    server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->o = *o;
    s->radius = VIEW_RADIUS;
    s->rng.s = o->seed;
    ns_world_config cfg = {.schema = &arena_schema, .max_entities = GAME_MAX_ENTITIES,
                           .max_connections = GAME_MAX_CLIENTS, .tick_rate = GAME_RATE, .budget = o->budget,
                           .packet_format = o->format, .history_depth = history_depth_for(&o->impair),
                           .spawn_resend_ticks = o->spawn_resend, .short_tick_bits = o->short_tick_bits,
                           .compact_acks = o->compact_acks};
    s->world = ns_world_create(&cfg, NULL);
    bool ok = s->world != NULL;
    for (unsigned c = 0; ok && c < o->clients; c++)
        ok = connect_client(s, c, &up[c], &down[c], &logs_up[c], &logs_down[c], &inputs[c]);
    for (unsigned n = 0; ok && n < s->o.npcs; n++) spawn_npc(s, n);
    if (!ok) {
        server_destroy(s);
        return NULL;
    }
    return s;
}

void server_destroy(server *s)
{
    if (!s) return;
    for (unsigned c = 0; c < s->o.clients; c++) {
        ns_reliable_destroy(s->peer[c].rel);
        ns_input_receiver_destroy(s->peer[c].inputs);
    }
    ns_world_destroy(s->world);
    free(s);
}

void server_tick(server *s, uint32_t tick)
{
    s->tick = tick;
    server_receive(s, tick);
    take_inputs(s);
    if (tick + GAME_PAUSE_TICKS <= s->o.ticks) simulate(s); /* the end's pause: see main.c */
    store(s);
    if (ns_world_tick(s->world, tick) != NS_OK) abort();
    for (unsigned c = 0; c < s->o.clients; c++) write_datagram(s, &s->peer[c]);
}

const server_stats *server_get_stats(const server *s)
{
    return &s->stats;
}

const ns_world *server_world(const server *s)
{
    return s->world;
}

uint32_t server_conn(const server *s, unsigned index)
{
    return s->peer[index].conn;
}
