/* arena.h — what the files of the arena example share: options, limits, a random generator, the
 * simulated link (link.c), the datagram container (datagram.c), the rpc logs the checks use, and
 * the entry points of server.c and client.c. */
#ifndef ARENA_EXAMPLE_H
#define ARENA_EXAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.ns.h"

#define GAME_RATE 60              /* ticks per simulated second */
#define GAME_NPCS 4               /* entities the server moves by itself (--npcs) */
#define GAME_MAX_NPCS 256
#define GAME_MAX_CLIENTS 32
#define GAME_MAX_ENTITIES 512     /* network ids: players, NPCs, projectiles, ids cooling down */
#define GAME_QUIET_TICKS 60       /* the last ticks run on an honest link, to check settling (at least) */
#define GAME_PAUSE_TICKS 20       /* and in the last of them nothing moves, spawns or talks */
#define DATAGRAM_MAX 1400         /* largest --budget: below any path MTU with UDP/IP headers */
#define DATAGRAM_MIN 300          /* smallest --budget: a player's spawn must fit */
#define GAME_DT (1.0f / GAME_RATE)
#define ARENA_HALF 50.0f          /* the arena is 100 m x 100 m */
#define PLAYER_SPEED 6.0f         /* m/s at full stick */
#define PREDICTION_DEPTH 64       /* ticks a client keeps to re-simulate: how far it runs ahead, and more */

/* ---- options --------------------------------------------------------------------------- */

/* How a link mistreats datagrams: percentages and delays in ticks, the same both ways. */
typedef struct impairment {
    unsigned loss, reorder, duplicate; /* percent */
    unsigned latency, jitter;          /* ticks */
} impairment;

typedef struct options {
    unsigned   clients, npcs, ticks, budget;
    uint64_t   seed;
    impairment impair;
    unsigned   dump;        /* --dump N: client 0 prints its first N snapshot packets */
    unsigned   spawn_resend; /* --spawn-resend K: ticks between copies of an unacked spawn (0: every tick) */
    unsigned   short_tick_bits; /* --short-tick-bits B: ns_world_config.short_tick_bits (0: derived) */
    unsigned   format;      /* --format: the snapshot packet format, NS_PACKET_FORMAT_1 to _5 */
    bool       calm;        /* --calm: players and NPCs only walk; nobody fires, bites or uses or
                               finds items (the moving half of the game, for framing) */
    bool       compact_acks; /* --compact-acks: ns_world_config.compact_acks */
    bool       quiet_frames; /* --quiet-frames: ns_reliable_config.quiet_after = RPC_QUIET_AFTER */
    bool       short_input_ticks; /* --short-input-ticks: ns_inputs_config.short_ticks */
    ns_profile *profile;    /* --profile: the server's snapshot writes count into it (NULL: off) */
} options;

/* The PlayerInput's entry in the generated message table, for ns_input_sender / _receiver. */
static inline const ns_message_ops *player_input_ops(void)
{
    return &arena_schema.messages[ns_schema_message_index(&arena_schema, ARENA_PLAYERINPUT_ID)];
}

/* The tick the server consumes input of: this many ticks behind its own. The inputs of a tick
 * must have crossed the uplink by then, with room for two resends. */
static inline uint32_t input_delay(const impairment *im)
{
    return im->latency + im->jitter + 3;
}

/* The server's history depth for this link. A state becomes a baseline once its ack is back,
 * and only while it is still in the history: with a round trip longer than the depth every update
 * is a full state (docs/replication.md section 10). So the depth covers the longest round trip
 * (latency, jitter and a reordering's 4 ticks each way, and a tick at each end), within what
 * the ack mask reaches beside the default reorder window. */
static inline uint32_t history_depth_for(const impairment *im)
{
    uint32_t rtt = 2u * (im->latency + im->jitter + 4u) + 2u;
    uint32_t most = 64u - NS_REPL_DEFAULT_REORDER;
    return rtt < NS_REPL_DEFAULT_DEPTH ? NS_REPL_DEFAULT_DEPTH : rtt > most ? most : rtt;
}

/* --quiet-frames: an unchanged ack header goes out in 3 frames (all 3 lost: 0.1% at 10% loss,
 * and the peer's resend brings it back), then frames with no rpc are empty. */
#define RPC_QUIET_AFTER 3u

/* How long a reliable message waits for its resend, in ticks: a round trip at the link's worst
 * delay, and 3 ticks more. */
static inline uint32_t rpc_resend_interval(const impairment *im)
{
    return 2u * (im->latency + im->jitter) + 3u;
}

/* The input sender's and receiver's config, the same at both ends. */
static inline ns_inputs_config input_channel_config(const options *o)
{
    return (ns_inputs_config){.short_ticks = o->short_input_ticks};
}

/* The reliable channel's config, the same at both ends. */
static inline ns_reliable_config rpc_channel_config(const options *o)
{
    return (ns_reliable_config){.resend_interval = rpc_resend_interval(&o->impair),
                                .quiet_after = o->quiet_frames ? RPC_QUIET_AFTER : 0u};
}

/* The honest ticks at the end of a run: GAME_QUIET_TICKS, or more on a slow link, where a message
 * lost just before the link turns honest waits a resend interval for its next send, datagrams
 * still in flight take up to latency + jitter to land, and the pause must still follow. */
static inline uint32_t quiet_ticks(const impairment *im)
{
    uint32_t need = rpc_resend_interval(im) + im->latency + im->jitter + GAME_PAUSE_TICKS;
    return need > GAME_QUIET_TICKS ? need : GAME_QUIET_TICKS;
}

/* Whether the server plays the input of client tick t: it plays it at its tick t + input_delay,
 * and in the end's pause (the last GAME_PAUSE_TICKS ticks) nothing moves. */
static inline bool input_played(const options *o, uint32_t t)
{
    return t + input_delay(&o->impair) + GAME_PAUSE_TICKS <= o->ticks;
}

/* ---- a small deterministic random generator (splitmix64) --------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static inline uint32_t rng_next(rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* A number in 0..n-1. */
static inline uint32_t rng_below(rng *r, uint32_t n)
{
    return (uint32_t)(((uint64_t)rng_next(r) * n) >> 32);
}

/* A number in [lo, hi). */
static inline float rng_range(rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next(r) >> 8) / 16777216.0f;
}

/* ---- link.c: one direction of one connection, simulated in process ---------------------- */

#define LINK_QUEUE 512 /* datagrams in flight; more is counted as an overflow */

typedef struct link_datagram {
    uint32_t due;   /* the tick it arrives */
    size_t   len;
    uint8_t *data;
} link_datagram;

typedef struct link_stats {
    unsigned long sent, lost, duplicated, delivered, overflows;
    unsigned long bytes, max_bytes;   /* of the datagrams sent (lost ones included) */
} link_stats;

typedef struct link {
    const impairment *impair;  /* what the link does now (main.c switches it off at the end) */
    rng               rng;
    link_datagram     q[LINK_QUEUE];
    uint32_t          n;
    link_stats        stats;
} link;

void link_init(link *l, const impairment *impair, uint64_t seed);
void link_free(link *l);
/* Sends a copy of data at tick now: it may be lost, duplicated, delayed and so reordered. */
void link_send(link *l, const void *data, size_t len, uint32_t now);
/* The next datagram due by tick now, oldest due first (the caller frees d->data); false if none. */
bool link_take(link *l, uint32_t now, link_datagram *d);

/* ---- datagram.c: the container --------------------------------------------------------- */

/* Bytes the reliable frame takes in a datagram: its varint length and itself. */
size_t datagram_frame_cost(size_t frame_len);
/* Writes a datagram: the frame's length, the frame, then the bit stream's bytes (body_len may
 * be 0). Returns its length, or 0 if it does not fit cap. */
size_t datagram_write(uint8_t *out, size_t cap, const uint8_t *frame, size_t frame_len, const uint8_t *body,
                      size_t body_len);

/* A received datagram's two parts, pointing into it. */
typedef struct datagram_in {
    const uint8_t *frame;
    size_t         frame_len;
    const uint8_t *body;       /* the bit stream; empty before the client has its replica */
    size_t         body_len;
} datagram_in;

/* Splits a datagram: NS_OK, or the varint's error, or NS_ERR_TRUNCATED for a frame past the end. */
ns_status datagram_parse(const uint8_t *bytes, size_t len, datagram_in *out);

/* ---- rpc logs (datagram.c): what the checks know of every reliable message ---------------- */

/* One direction of one connection's reliable channel: the sender appends the fingerprint of
 * every message it queues; the receiver checks each delivery against the next one. */
typedef struct rpc_log {
    uint64_t     *sent;
    uint32_t      count, cap;
    uint32_t      delivered;   /* deliveries that matched, in order */
    uint32_t      wrong;       /* deliveries that did not match the next expected message */
} rpc_log;

void rpc_log_sent(rpc_log *log, const void *msg, size_t len);
void rpc_log_delivered(rpc_log *log, const void *msg, size_t len);
void rpc_log_free(rpc_log *log);

/* One client's inputs: the client appends the fingerprint of each input it pushes (one per
 * tick, from `first` on); the server checks each input it applies against the one of its tick. */
typedef struct input_log {
    uint64_t     *pushed;
    uint32_t      first, count, cap;
    uint32_t      last_applied;   /* the tick of the newest input applied */
    unsigned long applied, wrong, twice;
} input_log;

void input_log_pushed(input_log *log, uint32_t tick, const arena_PlayerInput_snap *snap);
void input_log_applied(input_log *log, uint32_t tick, const arena_PlayerInput_snap *snap);
void input_log_free(input_log *log);

/* ---- game.c: the rule the server plays and the clients predict --------------------------- */

/* One tick of a player's movement, on its snapshot: the stick sets the velocity, the player moves
 * by it, bounces off the walls and faces where it goes. Same bytes in, same bytes out. */
void player_move(arena_Transform_snap *body, const arena_PlayerInput *in);

/* ---- prediction.c: a client predicts its own player ---------------------------------------- */

typedef struct player_prediction {
    const options        *o;
    ns_prediction         ring;        /* the inputs and predicted states of the last ticks */
    _Alignas(16) uint8_t  store[NS_PREDICTION_BYTES(sizeof(arena_Transform_snap), sizeof(arena_PlayerInput_snap),
                                                   PREDICTION_DEPTH)];
    arena_Transform_snap  state;       /* the player now, as predicted */
    bool                  active;      /* a server state of the player has arrived */
    bool                  recorded;    /* a tick has been predicted; `first` is valid */
    uint32_t              first;       /* the first tick predicted */
    uint32_t              confirmed;   /* the server tick of the newest server state taken */
    ns_error_stats        errors;      /* per Transform field, over every comparison */
    unsigned long         compared, rollbacks, resimulated, adopted, stale;
} player_prediction;

/* Empties p; false if the ring or the error stats refuse their sizes. */
bool prediction_init(player_prediction *p, const options *o);
/* The server's state of the player at its tick server_tick: compared with the prediction for the
 * same input, and on a difference rolled back to and re-simulated. The first one starts prediction. */
void prediction_correct(player_prediction *p, uint32_t server_tick, const arena_Transform_snap *authoritative);
/* Applies the input of client tick `tick` to the predicted player and records both. */
void prediction_step(player_prediction *p, uint32_t tick, const arena_PlayerInput_snap *input);
/* True if the predicted player is exactly server_now. */
bool prediction_settled(const player_prediction *p, const arena_Transform_snap *server_now);

/* ---- server.c ------------------------------------------------------------------------------ */

typedef struct server_stats {
    /* snapshots, summed over every ns_world_write */
    unsigned long snapshot_bits, framing_bits, spawn_records, despawn_records, update_records;
    unsigned long deferred, skipped, full_states, write_errors;
    /* the rest of each downlink datagram, in bytes */
    unsigned long container_bytes, reliable_bytes, input_ack_bits, padding_bits;
    unsigned long projectiles_fired, projectile_hits, projectiles_expired;
    unsigned long item_adds, item_changes, item_removes, hotbar_changes;
    unsigned long use_item_applied, use_item_gone, chats_relayed, rpc_window_full;
    unsigned long inputs_taken, inputs_missing;
    unsigned long bad_datagrams, bad_messages, bad_acks, bad_inputs;
    unsigned long over_budget;
    unsigned long input_bytes, input_streams, replica_ack_bits; /* the uplink bit streams read */
} server_stats;

typedef struct server server;

/* The server: a world with a player per client and o.npcs NPCs; `up` and `down` are the
 * links of each client (up[c]: client to server), `logs_up` / `logs_down` their rpc logs,
 * `inputs` their input logs. */
server *server_create(const options *o, link *up, link *down, rpc_log *logs_up, rpc_log *logs_down, input_log *inputs);
void server_destroy(server *s);
/* One tick: read the clients' datagrams, take inputs, simulate, record, write each client's. */
void server_tick(server *s, uint32_t tick);
/* Reads what has arrived without starting a tick (after the last tick: the last acks). */
void server_receive(server *s, uint32_t now);
const server_stats *server_get_stats(const server *s);
const ns_world *server_world(const server *s);
uint32_t server_conn(const server *s, unsigned index);

/* ---- client.c ------------------------------------------------------------------------------ */

typedef struct client_stats {
    unsigned long datagrams, bad_datagrams, refused, stale;   /* downlink */
    unsigned long checked, mismatches, leaks, wrong_audience; /* entity states */
    unsigned long spawns, despawns, hp_hooks, item_adds, item_removes, item_changes, hotbar_hooks;
    unsigned long foreign_inventory_hooks, inventory_mismatch;
    unsigned long interpolated, held, playback_backwards;
    unsigned long inputs_pushed, input_ack_errors;
    unsigned long use_items_sent, chats_sent, chat_lines, rpc_window_full;
    unsigned long uplink_bytes_rpc;
    bool          handshake_ok;
    char          handshake_error[160];
    ns_timeline_stats timeline;
} client_stats;

typedef struct client client;

/* Client number `id`; `truth` is the server's world, read by the checks only. */
client *client_create(unsigned id, const options *o, link *up, link *down, rpc_log *log_up, rpc_log *log_down,
                      input_log *inputs, const ns_world *truth, uint32_t conn);
void client_destroy(client *c);
/* One tick: read the server's datagrams, check, interpolate, play, send this tick's datagram. */
void client_tick(client *c, uint32_t tick);
/* After the last tick: every entity the client holds is the server's newest state (true), and
 * the fast-array hooks add up. Fills why on failure. */
bool client_settled(client *c, uint32_t tick, char *why, size_t why_size);
/* Inputs pushed with a tick up to `tick`. */
unsigned long client_inputs_upto(const client *c, uint32_t tick);
const client_stats *client_get_stats(client *c);
/* The client's prediction of its own player. */
const player_prediction *client_prediction(const client *c);
/* After the last tick: the predicted player is exactly the server's newest state. Fills why. */
bool client_prediction_settled(client *c, uint32_t tick, char *why, size_t why_size);

/* Whether a client of `schema` accepts the handshake h; the refusal message goes into msg. */
ns_status client_accept_handshake(const ns_handshake *h, const ns_schema *schema, ns_replica_config *cfg, char *msg,
                                  size_t msg_size);

#endif
