/* client.c — one player's side. It learns the server's world from the handshake (the first
 * reliable message; a client of another schema refuses it), keeps an ns_replica of what it
 * sees (spawn and despawn callbacks, the generated _apply hooks), acks it, plays through an
 * ns_timeline with the generated _interpolate, and sends its inputs (ns_input_sender) and its
 * UseItem and Chat rpcs (ns_reliable, through the generated _send and _dispatch). Its own player
 * is predicted (prediction.c): each input is applied at once, and the server's states correct it.
 * The checks compare what it holds with the server's world: in this example both live in one
 * process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define TIMELINE_STATES 64
#define MSG2_RESERVE 160  /* bytes kept for the acks and the inputs when rpcs fill a datagram */
#define NO_PLAYER GAME_MAX_ENTITIES

struct client {
    unsigned          id;
    options           o;
    link             *up, *down;
    rpc_log          *log_up, *log_down;
    input_log        *input_log;
    const ns_world   *truth;          /* the server's world: the checks read it, nothing else */
    uint32_t          conn;           /* this client's connection number in it (for the checks) */
    ns_reliable      *rel;
    bool              handshake_seen;
    ns_replica       *replica;        /* NULL until the handshake was accepted */
    ns_input_sender  *inputs;
    uint32_t          first_input;    /* the tick of the first input pushed (0: none yet) */
    uint32_t          datagram_tick;  /* the timestamp of the datagram being read */
    ns_timeline       timeline;
    ns_timeline_entry timeline_store[TIMELINE_STATES];
    double            playback;       /* the last playback time drawn */
    ns_entity_id      player;         /* its own player, NO_PLAYER until it spawned */
    arena_PlayerInput input;
    player_prediction pred;           /* its own player, predicted from its inputs */
    ns_vec3           goal;           /* where the bot walks to */
    unsigned long     chat_serial;
    rng               rng;
    client_stats      stats;
    unsigned          dumped;         /* snapshot packets printed for --dump */
};

/* ---- hooks: the replica's callbacks and the generated _apply's ---------------------------- */

static void on_spawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    client *c = ctx;
    c->stats.spawns++;
    const arena_Inventory *inv = ns_replica_value(r, e, ARENA_INVENTORY_ID);
    if (!ns_replica_is_owner(r, e) || !inv) return;
    c->player = e;
    c->stats.item_adds += arena_Inventory_items_count(inv); /* _apply calls no hooks for a spawn */
}

static void on_despawn(ns_replica *r, ns_entity_id e, void *ctx)
{
    client *c = ctx;
    (void)r;
    c->stats.despawns++;
    if (e == c->player) c->player = NO_PLAYER; /* never: an owner always sees its own */
}

static void on_hp(void *ctx, arena_Health *live, int32_t old_value, int32_t new_value)
{
    (void)live, (void)old_value, (void)new_value;
    ((client *)ctx)->stats.hp_hooks++;
}

/* Only this client's own inventory ever changes: a hook for another one means owner-only data
 * leaked. The hooks run before on_spawn, so the owner is looked up, not remembered. */
static bool mine(client *c, const arena_Inventory *live)
{
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++)
        if (ns_replica_has(c->replica, e) && ns_replica_value(c->replica, e, ARENA_INVENTORY_ID) == live)
            if (ns_replica_is_owner(c->replica, e)) return true;
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

/* ---- messages from the server: the generated dispatch calls these ------------------------- */

static void on_chat_line(void *ctx, const arena_ChatLine *msg)
{
    (void)msg;
    ((client *)ctx)->stats.chat_lines++;
}

/* The server holds every input up to the datagram's tick minus `behind`: stop resending them. */
static void on_input_ack(void *ctx, const arena_InputAck *msg)
{
    client *c = ctx;
    ns_status st = msg->behind ? ns_input_sender_ack(c->inputs, c->datagram_tick - msg->behind) : NS_OK;
    if (st != NS_OK && c->stats.input_ack_errors++ < 5)
        fprintf(stderr, "arena: client %u: InputAck of tick %u (datagram %u): %s\n", c->id,
                c->datagram_tick - msg->behind, c->datagram_tick, ns_status_str(st));
}

static const arena_handlers handlers = {.on_arena_ChatLine = on_chat_line, .on_arena_InputAck = on_input_ack};

ns_status client_accept_handshake(const ns_handshake *h, const ns_schema *schema, ns_replica_config *cfg, char *msg,
                                  size_t msg_size)
{
    return ns_handshake_accept(h, schema, cfg, msg, msg_size);
}

/* The first reliable message: the world's handshake. The replica is built from it, or, if the
 * server runs another schema, never: the client refuses to play. */
static void handshake(client *c, const uint8_t *msg, size_t len)
{
    ns_reader r;
    ns_reader_init(&r, msg, len);
    ns_handshake h;
    if (ns_handshake_read(&r, &h) != NS_OK) {
        snprintf(c->stats.handshake_error, sizeof c->stats.handshake_error, "unreadable handshake");
        return;
    }
    ns_replica_config rc = {.on_spawn = on_spawn, .on_despawn = on_despawn, .ctx = c};
    if (client_accept_handshake(&h, &arena_schema, &rc, c->stats.handshake_error,
                                sizeof c->stats.handshake_error) != NS_OK)
        return;
    if (!(c->replica = ns_replica_create(&rc, NULL))) return;
    ns_replica_set_hooks(c->replica, ARENA_HEALTH_ID, &health_hooks, c);
    ns_replica_set_hooks(c->replica, ARENA_INVENTORY_ID, &inventory_hooks, c);
    c->stats.handshake_ok = true;
}

/* One datagram from the server: the reliable frame (the handshake, then ChatLines), then the bit
 * stream: the snapshot and the InputAck. */
static void read_datagram(client *c, const uint8_t *bytes, size_t len)
{
    datagram_in d;
    if (datagram_parse(bytes, len, &d) != NS_OK || ns_reliable_read(c->rel, d.frame, d.frame_len) != NS_OK) {
        c->stats.bad_datagrams++;
        return;
    }
    const uint8_t *msg;
    size_t n;
    while (ns_reliable_receive(c->rel, &msg, &n)) {
        rpc_log_delivered(c->log_down, msg, n);
        if (!c->handshake_seen) {
            c->handshake_seen = true;
            handshake(c, msg, n);
            continue;
        }
        ns_reader r;
        ns_reader_init(&r, msg, n);
        uint32_t id;
        if (arena_dispatch(&r, &handlers, c, &id) != NS_OK) c->stats.bad_datagrams++;
    }
    if (!d.body_len || !c->replica) return;
    ns_reader r;
    ns_reader_init(&r, d.body, d.body_len);
    uint32_t newest = ns_replica_newest(c->replica);
    if (c->id == 0 && c->dumped < c->o.dump) { /* --dump: before the replica reads it, against its states */
        ns_reader copy = r;
        printf("-- client 0, snapshot packet %u (%zu bytes)\n", ++c->dumped, d.body_len);
        ns_dump_repl_packet(stdout, &arena_schema, c->replica, &copy);
    }
    ns_status st = ns_replica_read(c->replica, &r);
    if (st == NS_ERR_STALE) {
        c->stats.stale++;
    } else if (st != NS_OK) {
        if (c->stats.refused++ < 5)
            fprintf(stderr, "arena: client %u refused a snapshot: %s\n", c->id, ns_status_str(st));
    } else if (ns_replica_newest(c->replica) != newest) {
        /* The newest snapshot so far: play it, and read the InputAck behind it. A late or
         * duplicate one is applied as a baseline but its InputAck is old news. */
        c->stats.datagrams++;
        c->datagram_tick = ns_replica_newest(c->replica);
        (void)ns_timeline_insert(&c->timeline, c->datagram_tick, c->datagram_tick);
        uint32_t id;
        if (arena_dispatch(&r, &handlers, c, &id) != NS_OK) c->stats.refused++;
    } else {
        c->stats.datagrams++;
    }
}

/* ---- the checks ------------------------------------------------------------------------- */

/* The bits a write of snap against no baseline puts on the wire for audience `to`: what a
 * client of that audience can know of it. */
static size_t visible(const ns_component_ops *ops, const void *snap, ns_audience to, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ops->write(&w, snap, NULL, to);
    size_t bits = ns_writer_bits(&w);
    ns_writer_flush(&w);
    return bits;
}

static bool same_view(const ns_component_ops *ops, const void *a, const void *b, ns_audience to)
{
    static const size_t cap = ARENA_INVENTORY_MAX_BYTES + 64;
    uint8_t x[ARENA_INVENTORY_MAX_BYTES + 64], y[ARENA_INVENTORY_MAX_BYTES + 64];
    memset(x, 0, cap), memset(y, 0, cap);
    size_t nx = visible(ops, a, to, x, cap), ny = visible(ops, b, to, y, cap);
    return nx == ny && memcmp(x, y, (nx + 7) / 8) == 0;
}

/* Entity e as this client holds it against the server's state of tick `tick` (0: of the tick of
 * each component's newest state): false, with why, on a difference. */
static bool entity_matches(client *c, ns_entity_id e, uint32_t tick, char *why, size_t why_size)
{
    const ns_schema *s = &arena_schema;
    bool owner = ns_replica_is_owner(c->replica, e);
    /* A despawned entity has no owner any more; the client holds it until the despawn arrives. */
    if (ns_world_alive(c->truth, e) && (ns_world_owner(c->truth, e) == (int32_t)c->conn) != owner) {
        c->stats.wrong_audience++;
        snprintf(why, why_size, "client %u has the wrong audience for entity %u", c->id, e);
        return false;
    }
    ns_audience to = owner ? NS_TO_OWNER : NS_TO_OBSERVER;
    const arena_Inventory *inv = ns_replica_value(c->replica, e, ARENA_INVENTORY_ID);
    if (!owner && inv && (arena_Inventory_items_count(inv) || arena_Inventory_hotbar_count(inv))) {
        c->stats.leaks++; /* another player's backpack: @sync(owner) */
        snprintf(why, why_size, "client %u sees entity %u's inventory", c->id, e);
        return false;
    }
    for (uint32_t k = 0; k < s->component_count; k++) {
        uint32_t type = s->components[k].desc->id, at;
        const void *held = ns_replica_snap(c->replica, e, type, &at);
        if (!held) continue;
        const void *truth = ns_world_recorded(c->truth, e, type, tick ? tick : at);
        if (!truth) continue; /* older than the server's history (none in practice) */
        c->stats.checked++;
        if (!same_view(&s->components[k], held, truth, to)) {
            snprintf(why, why_size, "client %u entity %u %s differs from the server's at tick %u", c->id, e,
                     s->components[k].desc->name, tick ? tick : at);
            return false;
        }
    }
    return true;
}

/* Every state the client holds equals the server's state of the same tick, as its audience
 * sees it. */
static void check(client *c)
{
    char why[160];
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        if (!ns_replica_has(c->replica, e) || entity_matches(c, e, 0, why, sizeof why)) continue;
        if (c->stats.mismatches++ < 5) fprintf(stderr, "arena: %s\n", why);
    }
}

bool client_settled(client *c, uint32_t tick, char *why, size_t why_size)
{
    if (!c->replica) return snprintf(why, why_size, "client %u never got a replica", c->id), false;
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        bool alive = ns_world_alive(c->truth, e), held = ns_world_client_holds(c->truth, c->conn, e);
        if (!alive && held) return snprintf(why, why_size, "client %u never acked the despawn of %u", c->id, e), false;
        if ((alive && held) != ns_replica_has(c->replica, e))
            return snprintf(why, why_size, "client %u %s entity %u", c->id, held ? "lacks" : "still holds", e), false;
        if (held && !entity_matches(c, e, tick, why, why_size)) return false;
    }
    const arena_Inventory *inv =
        c->player == NO_PLAYER ? NULL : ns_replica_value(c->replica, c->player, ARENA_INVENTORY_ID);
    if (!inv || c->stats.item_adds - c->stats.item_removes != arena_Inventory_items_count(inv)) {
        c->stats.inventory_mismatch++;
        return snprintf(why, why_size, "client %u: fast-array hooks do not add up to its inventory", c->id), false;
    }
    return true;
}

/* ---- display and play --------------------------------------------------------------------- */

/* The entity's Transform at `tick` or, if it was left out of that packet (unchanged), the
 * newest before it. */
static const arena_Transform_snap *transform_at(const client *c, ns_entity_id e, uint32_t tick)
{
    for (uint32_t k = 0; k < 32 && k <= tick; k++) {
        const arena_Transform_snap *s = ns_replica_snap_at(c->replica, e, ARENA_TRANSFORM_ID, tick - k);
        if (s) return s;
    }
    return NULL;
}

/* The server's newest state of the player corrects the prediction (prediction.c). */
static void correct(client *c)
{
    uint32_t tick;
    const arena_Transform_snap *auth =
        c->player == NO_PLAYER ? NULL : ns_replica_snap(c->replica, c->player, ARENA_TRANSFORM_ID, &tick);
    if (auth) prediction_correct(&c->pred, tick, auth);
}

/* Plays one tick of the timeline and interpolates every other entity between the two states it
 * names (a renderer would draw `shown`, and its own player where c->pred.state has it). */
static void render(client *c)
{
    ns_timeline_sample now = ns_timeline_advance(&c->timeline, 1.0);
    if (!now.valid) return;
    if (now.time < c->playback) c->stats.playback_backwards++;
    c->playback = now.time;
    for (ns_entity_id e = 0; e < GAME_MAX_ENTITIES; e++) {
        if (e == c->player || !ns_replica_has(c->replica, e)) continue;
        const arena_Transform_snap *from = transform_at(c, e, now.from_id), *to = transform_at(c, e, now.to_id);
        if (!from || !to) { /* spawned after the state being played: shown when playback gets there */
            c->stats.held++;
            continue;
        }
        arena_Transform shown;
        arena_Transform_interpolate(from, to, now.t, &shown);
        c->stats.interpolated++;
    }
}

/* Queues one rpc (already written by its generated _send) on the reliable channel. */
static void send_rpc(client *c, const uint8_t *msg, size_t len)
{
    if (ns_reliable_send(c->rel, msg, len) != NS_OK) {
        c->stats.rpc_window_full++;
        return;
    }
    rpc_log_sent(c->log_up, msg, len);
}

/* Now and then the player uses an item from its backpack, or says something. */
static void talk(client *c, uint32_t t)
{
    uint8_t buf[128];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    const arena_Inventory *inv = ns_replica_value(c->replica, c->player, ARENA_INVENTORY_ID);
    uint32_t items = inv ? arena_Inventory_items_count(inv) : 0;
    if (items && rng_below(&c->rng, 40) == 0 && !c->o.calm) {
        arena_UseItem use;
        arena_UseItem_init(&use);
        use.item = arena_Inventory_items_at(inv, rng_below(&c->rng, items))->id;
        if (arena_UseItem_send(&w, &use) == NS_OK) send_rpc(c, buf, ns_writer_flush(&w)), c->stats.use_items_sent++;
    } else if (rng_below(&c->rng, 120) == 0) {
        arena_Chat chat;
        arena_Chat_init(&chat);
        snprintf(chat.text, sizeof chat.text, "client %u, line %lu, tick %u", c->id, ++c->chat_serial, t);
        if (arena_Chat_send(&w, &chat) == NS_OK) send_rpc(c, buf, ns_writer_flush(&w)), c->stats.chats_sent++;
    }
}

/* The bot that plays: walks to random goals, fires now and then. Its input goes into the
 * sender's ring for this tick. */
static void think(client *c, uint32_t t)
{
    arena_Transform predicted;
    const arena_Transform *me = NULL;
    if (c->player != NO_PLAYER && c->pred.active) { /* where it predicts it is */
        arena_Transform_init(&predicted);
        arena_Transform_dequantize(&c->pred.state, &predicted);
        me = &predicted;
    }
    arena_PlayerInput_init(&c->input);
    if (me) {
        float dx = c->goal.x - me->position.x, dz = c->goal.z - me->position.z, d = sqrtf(dx * dx + dz * dz);
        if (d < 2.0f || t % 300 == 0)
            c->goal = (ns_vec3){rng_range(&c->rng, -40, 40), 0, rng_range(&c->rng, -40, 40)};
        arena_PlayerInput_set_move(&c->input, d > 0.1f ? (ns_vec2){dx / d, dz / d} : (ns_vec2){0, 0});
        arena_PlayerInput_set_fire(&c->input, rng_below(&c->rng, 6) == 0);
        if (t + GAME_PAUSE_TICKS <= c->o.ticks) talk(c, t); /* silent in the pause: see main.c */
    }
    arena_PlayerInput_snap snap;
    arena_PlayerInput_quantize(&c->input, &snap);
    if (ns_input_sender_push(c->inputs, t, &snap) == NS_OK) {
        input_log_pushed(c->input_log, t, &snap);
        if (!c->first_input) c->first_input = t;
        c->stats.inputs_pushed++;
    }
    prediction_step(&c->pred, t, &snap); /* played at once, here; on the server input_delay later */
}

/* This tick's datagram: the reliable frame (acks, due rpcs), then, once connected, the bit
 * stream of the replica's acks and the inputs. */
static void write_datagram(client *c, uint32_t t)
{
    size_t budget = c->o.budget, frame_len = 0, body_len = 0;
    uint8_t frame[DATAGRAM_MAX], body[DATAGRAM_MAX], out[DATAGRAM_MAX];
    if (ns_reliable_write(c->rel, t, frame, budget - 2 - MSG2_RESERVE, &frame_len) != NS_OK) abort();
    c->stats.uplink_bytes_rpc += frame_len;
    if (c->replica) {
        ns_writer w;
        ns_writer_init(&w, body, budget - datagram_frame_cost(frame_len));
        ns_replica_write_ack(c->replica, &w);
        ns_status st = ns_input_sender_write(c->inputs, &w);
        body_len = ns_writer_flush(&w);
        if (st != NS_OK) body_len = 0, c->stats.bad_datagrams++;
    }
    size_t len = datagram_write(out, budget, frame, frame_len, body, body_len);
    if (len) link_send(c->up, out, len, t);
    else c->stats.bad_datagrams++;
}

/* ---- the API of client.c ---------------------------------------------------------------- */

client *client_create(unsigned id, const options *o, link *up, link *down, rpc_log *log_up, rpc_log *log_down,
                      input_log *inputs, const ns_world *truth, uint32_t conn)
{
    client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = (client){.id = id, .o = *o, .up = up, .down = down, .log_up = log_up, .log_down = log_down,
                  .input_log = inputs, .truth = truth, .conn = conn, .player = NO_PLAYER,
                  .rng = {o->seed * 1000 + id + 1}};
    ns_reliable_config rc = rpc_channel_config(o);
    ns_inputs_config ic = input_channel_config(o);
    const ns_message_ops *input_ops = player_input_ops();
    ns_timeline_config tc = {.send_interval = 1.0}; /* a snapshot every tick; time is in ticks */
    if (ns_reliable_create(&rc, &c->rel) != NS_OK || ns_input_sender_create(input_ops, &ic, &c->inputs) != NS_OK ||
        ns_timeline_init(&c->timeline, &tc, c->timeline_store, TIMELINE_STATES) != NS_OK ||
        !prediction_init(&c->pred, &c->o)) {
        client_destroy(c);
        return NULL;
    }
    arena_PlayerInput_init(&c->input);
    return c;
}

void client_destroy(client *c)
{
    if (!c) return;
    ns_replica_destroy(c->replica);
    ns_reliable_destroy(c->rel);
    ns_input_sender_destroy(c->inputs);
    free(c);
}

void client_tick(client *c, uint32_t tick)
{
    link_datagram d;
    while (link_take(c->down, tick, &d)) {
        read_datagram(c, d.data, d.len);
        free(d.data);
    }
    if (c->replica) {
        correct(c);
        check(c);
        render(c);
        think(c, tick);
    }
    write_datagram(c, tick);
}

unsigned long client_inputs_upto(const client *c, uint32_t tick)
{
    if (!c->first_input || tick < c->first_input) return 0;
    unsigned long n = tick - c->first_input + 1;
    return n < c->stats.inputs_pushed ? n : c->stats.inputs_pushed;
}

const client_stats *client_get_stats(client *c)
{
    c->stats.timeline = ns_timeline_get_stats(&c->timeline); /* the net-graph figures, fresh */
    return &c->stats;
}

const player_prediction *client_prediction(const client *c)
{
    return &c->pred;
}

bool client_prediction_settled(client *c, uint32_t tick, char *why, size_t why_size)
{
    const arena_Transform_snap *truth =
        c->player == NO_PLAYER ? NULL : ns_world_recorded(c->truth, c->player, ARENA_TRANSFORM_ID, tick);
    if (!truth) return snprintf(why, why_size, "client %u has no player to predict", c->id), false;
    if (!prediction_settled(&c->pred, truth)) {
        arena_Transform mine, theirs;
        arena_Transform_init(&mine), arena_Transform_init(&theirs);
        arena_Transform_dequantize(&c->pred.state, &mine);
        arena_Transform_dequantize(truth, &theirs);
        snprintf(why, why_size, "client %u predicts its player at (%.2f, %.2f), the server has it at (%.2f, %.2f)",
                 c->id, (double)mine.position.x, (double)mine.position.z, (double)theirs.position.x,
                 (double)theirs.position.z);
        return false;
    }
    return true;
}
