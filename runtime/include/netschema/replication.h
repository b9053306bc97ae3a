/* netschema/replication.h — the replication layer: entities with network ids, spawn and despawn,
 * relevancy, priority within a byte budget, send rates, and the client's replica of the world.
 *
 * The server keeps an ns_world: entities, each with a fixed set of components (any component of
 * the generated ns_schema), an owner connection and an importance. Each tick the game stores the
 * entities' new values (ns_world_set) and calls ns_world_tick, which records every entity's
 * state in its history. Then, per connection, ns_world_write writes one snapshot packet that
 * fits the byte budget: despawns, spawns (with their full state), and updates coded against up
 * to three states the client has acked. The client keeps an ns_replica: ns_replica_read applies
 * a packet (spawn and despawn callbacks, the generated _apply hooks) and ns_replica_write_ack
 * tells the server which packets arrived. The server reads that with ns_world_read_ack.
 *
 * Rules the layer keeps, explained and proved in docs/replication.md:
 *   - a baseline is only a state the client acked, still held on both sides;
 *   - an entity is left out of a packet only when every state sent since the newest acked one
 *     equals its current state (and that acked state is young enough to stay a baseline);
 *   - a late packet's states still become baselines: "newest" is tracked per entity;
 *   - leaving relevancy despawns the entity on that client and clears what the connection knew
 *     of it; re-entry is a fresh spawn, @initial fields included;
 *   - a packet that fails to read changes nothing in the replica and is not acked.
 *
 * Memory: the server holds at most NS_REPL_ID_BYTES per id, (history_depth + 1) states per
 * spawned entity, and NS_REPL_LINK_BYTES per id in use per connection. The replica holds at most
 * NS_REPL_REPLICA_ID_BYTES per id and, per spawned entity, (history_depth + reorder_window) states
 * rounded up to a power of two (64 by default) and its live values. See docs/replication.md
 * "Memory". Neither side allocates while reading or writing a packet, except the replica when an
 * entity spawns; a replica out of memory refuses the packet (NS_ERR_NOMEM) and changes nothing.
 * Not thread-safe: one thread per world or replica. */
#ifndef NETSCHEMA_REPLICATION_H
#define NETSCHEMA_REPLICATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"
#include "history.h"
#include "schema.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_REPL_MAX_COMPONENTS 16u   /* components per entity */
#define NS_REPL_DEFAULT_BUDGET 1200u /* bytes per snapshot packet */
#define NS_REPL_DEFAULT_DEPTH  32u   /* server history, ticks per entity */
#define NS_REPL_DEFAULT_REORDER 16u  /* ticks a late packet may trail the newest one */
#define NS_SPAWN_RESEND_AUTO   UINT32_MAX /* spawn_resend_ticks: a quarter of the connection's
                                        measured round trip, 1..16 ticks (ns_world_round_trip) */
#define NS_REPL_LINK_BYTES     48u   /* server memory per entity per connection (upper bound) */
#define NS_REPL_ID_BYTES       96u   /* server memory per id of max_entities, in use or not (upper
                                        bound; 88 on x86-64) */
#define NS_REPL_REPLICA_ID_BYTES 240u /* replica memory per id of max_entities, in use or not
                                        (upper bound; 232 on x86-64) */
#define NS_NO_OWNER            (-1)

typedef uint32_t ns_entity_id;       /* network id: 0 .. max_entities - 1 */

/* ---- server -------------------------------------------------------------------------------- */

typedef struct ns_world ns_world;

typedef struct ns_world_config {
    const ns_schema *schema;        /* the generated <pkg>_schema */
    uint32_t max_entities;          /* ids are 0 .. max_entities - 1 (required, <= 2^24) */
    uint32_t max_connections;       /* required, <= 256 */
    uint32_t history_depth;         /* ticks of history per entity; 0: NS_REPL_DEFAULT_DEPTH */
    uint32_t reorder_window;        /* 0: NS_REPL_DEFAULT_REORDER; depth + window must be <= 64 */
    uint32_t tick_rate;             /* ticks per second, for @send_rate; 0: 60 */
    uint32_t budget;                /* bytes per packet; 0: NS_REPL_DEFAULT_BUDGET */
    bool     entity_sizes;          /* write each entity's size in bits, so that a receiver can
                                       skip entities it cannot decode (see docs/replication.md) */
    uint32_t packet_format;         /* 0 or 1: the snapshot packet of format 1; NS_PACKET_FORMAT_2
                                       to 5: the compact ones (docs/replication.md section 2),
                                       which the handshake tells the replica to read */
    uint32_t spawn_resend_ticks;    /* ticks between the copies of a spawn not yet acked, at most
                                       64; 0 or 1: one in every packet until the ack;
                                       NS_SPAWN_RESEND_AUTO: per connection, from its round trip
                                       (docs/replication.md section 6, "Spawns on a long round
                                       trip") */
    uint32_t short_tick_bits;       /* formats 2-5: the low bits of the tick a packet carries
                                       when the client acked recently: 0, the fewest that cover
                                       twice reorder_window (6 by default), or more, up to 16. A
                                       datagram delayed by 2^(bits - 1) ticks or more may be read
                                       as a newer tick (docs/replication.md section 2, "Very late
                                       datagrams") */
    bool     compact_acks;          /* formats 2-5: the replica acks in about 10-20 bits instead of
                                       64: a short tick and only the ticks the server may not know
                                       yet (docs/replication.md section 3); format 1 refuses it */
} ns_world_config;

#define NS_PACKET_FORMAT_1 1u        /* the snapshot packet format every version reads */
#define NS_PACKET_FORMAT_2 2u        /* compact framing: short ticks, ids by reference */
#define NS_PACKET_FORMAT_3 3u        /* format 2 with one section of updates whose baselines the
                                        client derives from one list of ticks (the ladder) */
#define NS_PACKET_FORMAT_4 4u        /* format 3 whose sections stay short on a long round trip:
                                        the acked packet named by the round trip, its ladder a
                                        run of ticks */
#define NS_PACKET_FORMAT_5 5u        /* format 4 whose steady packet may change which component
                                        types are present, and says so in 1 bit less */

/* Decides whether connection `conn` sees entity `e`. Owners always see their own entities. */
typedef bool (*ns_relevancy_fn)(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx);

/* What one ns_world_write put in its packet (and what it had to leave out). */
typedef struct ns_repl_stats {
    uint32_t bits;                  /* the packet's size in bits */
    uint32_t framing_bits;          /* everything but the component writes themselves */
    uint32_t spawns, despawns, updates;
    uint32_t skipped;               /* relevant entities left out by the skip rule */
    uint32_t deferred;              /* records that wanted to go but did not fit */
    uint32_t full_states;           /* updates coded against no baseline */
    uint32_t groups;                /* groups of updates (one header of baseline ticks each) */
} ns_repl_stats;

/* Creates a world; NULL (and *status, if not NULL) on a bad config or when out of memory.
 * ns_world_destroy frees it and everything it holds (NULL is ignored). */
ns_world *ns_world_create(const ns_world_config *cfg, ns_status *status);
void ns_world_destroy(ns_world *w);

/* Spawns an entity with the given component type ids (distinct, at most
 * NS_REPL_MAX_COMPONENTS): every component starts at its schema defaults. NS_ERR_FULL when no
 * id is free; NS_ERR_UNKNOWN_ID for a type the schema does not have; NS_ERR_NOMEM when its
 * state, or the connections' links for a new highest id, cannot be allocated. */
ns_status ns_world_spawn(ns_world *w, const uint32_t *types, uint32_t count, ns_entity_id *id);

/* Despawns e: clients are told until each acks it; its id is reused only after every client
 * acked and a quarantine of reorder_window ticks passed. */
ns_status ns_world_despawn(ns_world *w, ns_entity_id e);

/* True while e is spawned (not yet despawned). */
bool ns_world_alive(const ns_world *w, ns_entity_id e);

/* Quantizes `value` (a <pkg>_<T> of component type `type`) into e's state for the next tick. */
ns_status ns_world_set(ns_world *w, ns_entity_id e, uint32_t type, const void *value);

/* The writable snapshot of component `type` of e for the next tick (to quantize into directly),
 * or NULL if e has no such component. */
void *ns_world_snap(ns_world *w, ns_entity_id e, uint32_t type);

/* Owner connection (NS_NO_OWNER for none): the owner gets @sync(owner) fields, others don't.
 * A change takes effect at the next tick for every client, with a full state. */
ns_status ns_world_set_owner(ns_world *w, ns_entity_id e, int32_t conn);
int32_t ns_world_owner(const ns_world *w, ns_entity_id e);

/* How connection `conn` sees entity e (ns_world_set_predicted): NS_MODE_DEFAULT (the owner
 * predicts its entities, others interpolate), or forced predicted or interpolated. */
enum { NS_MODE_DEFAULT = 0, NS_MODE_PREDICTED = 1, NS_MODE_INTERPOLATED = 2 };

/* Sets conn's mode for e (NS_MODE_*): it decides NS_TO_PREDICTED, so @sync(predicted) and
 * @sync(interpolated) fields; a change sends a full state. Reset to default when e's id is freed. */
ns_status ns_world_set_predicted(ns_world *w, uint32_t conn, ns_entity_id e, int mode);

/* Sets conn's custom condition flag (NS_TO_CUSTOM: @sync(custom) fields), for every entity;
 * a change sends full states. */
ns_status ns_world_set_condition(ns_world *w, uint32_t conn, bool on);

/* Importance (default 1, > 0): an entity's priority is importance × ticks it has waited. */
ns_status ns_world_set_importance(ns_world *w, ns_entity_id e, float importance);

/* The entity's position for ns_relevant_by_distance (and your own relevancy functions). */
ns_status ns_world_set_position(ns_world *w, ns_entity_id e, float x, float y, float z);
bool ns_world_position(const ns_world *w, ns_entity_id e, float xyz[3]);

/* Overrides a component type's send interval (in ticks, >= 1) set by @send_rate. */
ns_status ns_world_set_send_interval(ns_world *w, uint32_t type, uint32_t ticks);

/* Records every entity's state as tick `tick`. Ticks must increase (by at least 1) from call
 * to call: NS_ERR_ARGUMENT, and nothing recorded, otherwise. A component with a send interval
 * k is sampled every k ticks. */
ns_status ns_world_tick(ns_world *w, uint32_t tick);

/* Adds a connection; NS_ERR_FULL when max_connections are in use. */
ns_status ns_world_connect(ns_world *w, uint32_t *conn);

/* Removes a connection: its state is freed, entities it owned keep NS_NO_OWNER. */
void ns_world_disconnect(ns_world *w, uint32_t conn);

/* Sets the connection's relevancy function (NULL: every entity is relevant). */
void ns_world_set_relevancy(ns_world *w, uint32_t conn, ns_relevancy_fn fn, void *ctx);

/* Sets the connection's point of view, for ns_relevant_by_distance. */
void ns_world_set_viewpoint(ns_world *w, uint32_t conn, float x, float y, float z);

/* A ready relevancy function: relevant when within *(const float *)ctx metres (in x and z, a
 * ground-plane distance) of the connection's viewpoint, or without a position. */
bool ns_relevant_by_distance(const ns_world *w, uint32_t conn, ns_entity_id e, void *ctx);

/* Writes the snapshot packet of the current tick for `conn` into out, at most `budget_bits` bits
 * (0, or more than the world's byte budget: the world's budget), for example what is left of a
 * datagram after acks and messages. Call once per connection per tick, after ns_world_tick. */
ns_status ns_world_write(ns_world *w, uint32_t conn, ns_writer *out, size_t budget_bits, ns_repl_stats *stats);

/* ns_world_write into buf; *len gets the packet's length in bytes. */
ns_status ns_world_write_packet(ns_world *w, uint32_t conn, void *buf, size_t cap, size_t *len, ns_repl_stats *stats);

/* Reads the acks a replica wrote (ns_replica_write_ack). A malformed ack changes nothing. */
ns_status ns_world_read_ack(ns_world *w, uint32_t conn, ns_reader *r);

/* Connection conn's round trip in ticks, smoothed: from each ack that names a newer packet, the
 * world's tick when it is read less that packet's tick (1/8 of each new sample, as TCP's
 * smoothed RTT); 0 before the first ack or for a connection not in use. */
uint32_t ns_world_round_trip(const ns_world *w, uint32_t conn);

/* Live entities, and the server's memory in bytes (for docs and tests). */
uint32_t ns_world_count(const ns_world *w);
size_t ns_world_memory(const ns_world *w);

/* True while connection `conn` may still hold entity e (spawned on it, or its despawn unacked). */
bool ns_world_client_holds(const ns_world *w, uint32_t conn, ns_entity_id e);

/* The recorded snapshot of component `type` of e at `tick`, or NULL if the history no longer
 * holds it (for tests and tools). */
const void *ns_world_recorded(const ns_world *w, ns_entity_id e, uint32_t type, uint32_t tick);

/* ---- client-authoritative fields (@authority(owner)) ----------------------------------------- */

/* Fields marked @authority(owner) are written by the client that owns the entity
 * (ns_world_set_owner) and sent to the server in an authority message: the entity id (24 bits),
 * the component type id (16 bits), then the component's generated _authority_write payload
 * (the owner-written fields, fixed width, in the field's quantization). The generated
 * <pkg>_<T>_authority_send writes one. The server reads it with ns_world_read_authority, which
 * refuses writes from anyone but the owner, checks every value (finite floats, enum values,
 * @range: refused, or clamped with @authority(owner, clamp)), asks the application's
 * validation hook, and only then stores the values in the entity's state for the next tick,
 * from where they replicate as usual (docs/replication.md section 14). */

#define NS_AUTHORITY_HEADER_BITS 40u /* entity id (24 bits) and component type id (16 bits) */

/* What happened to one authority message. */
typedef struct ns_authority_report {
    ns_status    status;        /* NS_OK: applied; else why it was refused (nothing applied) */
    const char  *field;         /* the field refused (out of range, not finite, or named by the hook), or NULL */
    const char  *clamped_field; /* the first field clamped into its @range, or NULL */
    uint32_t     clamped;       /* how many fields were clamped */
    ns_entity_id entity;        /* ns_world_read_authority: the entity and component type read */
    uint32_t     type;
    uint32_t     conn;          /* ... and the connection that sent it */
} ns_authority_report;

/* The application's check of a write, after the generated range checks: proposed is the
 * component's snapshot with the owner's values in, current the one it would replace. Return
 * NS_OK to accept; any other status refuses the write (setting report->field names the field).
 * The generated <pkg>_<T>_validate_fn is the same with typed snapshots. */
typedef ns_status (*ns_authority_validate_fn)(const void *proposed, const void *current, void *ctx,
                                              ns_authority_report *report);

/* Starts a report (generated _authority_decode calls it): no refusal, nothing clamped. */
static inline void ns_authority_begin(ns_authority_report *report)
{
    if (!report) return;
    report->status = NS_OK;
    report->field = NULL;
    report->clamped_field = NULL;
    report->clamped = 0;
}

/* Records a refusal with status s of `field` (or NULL) and returns s. */
static inline ns_status ns_authority_refuse(ns_authority_report *report, ns_status s, const char *field)
{
    if (report) report->status = s, report->field = field;
    return s;
}

/* Records that `field` was clamped into its @range. */
static inline void ns_authority_clamped(ns_authority_report *report, const char *field)
{
    if (!report) return;
    if (!report->clamped_field) report->clamped_field = field;
    report->clamped++;
}

/* Records a validation hook's answer s (a refusal keeps the field the hook named) and returns it. */
static inline ns_status ns_authority_checked(ns_authority_report *report, ns_status s)
{
    if (s != NS_OK && report) report->status = s;
    return s;
}

/* Writes an authority message's header; then write the payload with <pkg>_<T>_authority_write. */
static inline void ns_authority_write_header(ns_writer *w, ns_entity_id e, uint32_t type)
{
    ns_write_bits(w, e & 0xffffffu, 24);
    ns_write_bits(w, type & 0xffffu, 16);
}

/* Reads one authority message sent by connection `conn` and, if conn owns the entity and every
 * check passes (validate, if not NULL, is called last), stores the values in the entity's state
 * for the next tick. *report (if not NULL) says what happened: NS_ERR_DENIED when conn does not
 * own the entity or the component has no owner-written fields, NS_ERR_UNKNOWN_ID when the entity
 * or its component does not exist, NS_ERR_RANGE for a refused value, the reader's error for a
 * malformed message. Whenever the type is known, the reader ends after the message; on any
 * error nothing in the world changes. */
ns_status ns_world_read_authority(ns_world *w, uint32_t conn, ns_reader *r, ns_authority_validate_fn validate,
                                  void *ctx, ns_authority_report *report);

/* ---- client -------------------------------------------------------------------------------- */

typedef struct ns_replica ns_replica;

/* Called after entity e spawned with its initial state applied (read it with ns_replica_value). */
typedef void (*ns_spawn_fn)(ns_replica *r, ns_entity_id e, void *ctx);
/* Called before entity e is removed: its values are still readable. */
typedef void (*ns_despawn_fn)(ns_replica *r, ns_entity_id e, void *ctx);

/* Called when a reference that was waiting resolves: component `type` of entity `holder` held
 * a reference to `target` before target spawned here, and now reads its handle. */
typedef void (*ns_resolve_fn)(ns_replica *r, ns_entity_id holder, uint32_t type, ns_entity_id target, void *ctx);

typedef struct ns_replica_config {
    const ns_schema *schema;
    uint32_t max_entities;          /* the server's (see ns_handshake) */
    uint32_t history_depth;         /* the server's history_depth */
    uint32_t reorder_window;        /* the server's reorder_window */
    ns_spawn_fn   on_spawn;         /* may be NULL */
    ns_despawn_fn on_despawn;       /* may be NULL */
    void         *ctx;
    ns_resolve_fn on_resolve;       /* may be NULL */
    uint32_t packet_format;         /* the server's (see ns_handshake): 0 or 1, NS_PACKET_FORMAT_2 to 5 */
    bool     entity_sizes;          /* formats 2-5: the server's entity_sizes (format 1 packets say it) */
    uint32_t short_tick_bits;       /* formats 2-5: the server's short_tick_bits */
    bool     compact_acks;          /* formats 2-5: the server's compact_acks */
} ns_replica_config;

/* Creates a client's replica from cfg (ns_handshake_accept fills it from the server's handshake);
 * NULL (and *status, if not NULL) on a bad config or when out of memory. ns_replica_destroy frees
 * it and everything it holds (NULL is ignored). */
ns_replica *ns_replica_create(const ns_replica_config *cfg, ns_status *status);
void ns_replica_destroy(ns_replica *r);

/* Sets the hooks (a const <pkg>_<T>_hooks *) the generated _apply calls for component `type`. */
ns_status ns_replica_set_hooks(ns_replica *r, uint32_t type, const void *hooks, void *ctx);

/* Reads one snapshot packet. NS_OK: applied (or a duplicate, ignored), and acked. Any error:
 * nothing changed, nothing acked (NS_ERR_STALE: older than reorder_window behind the newest). */
ns_status ns_replica_read(ns_replica *r, ns_reader *in);
ns_status ns_replica_read_packet(ns_replica *r, const void *buf, size_t len);

/* Writes the acks: the newest packet applied and a mask of the ones before it (64 bits; with
 * compact_acks a short tick and the mask of the ticks the server may not know yet). */
void ns_replica_write_ack(const ns_replica *r, ns_writer *w);

/* Entity references. An `entity` field carries a network reference: 0 for none, else the
 * target's id + 1 (ns_entity_ref). The server's game writes those. In the replica's live values
 * (what _apply fills and hooks see) every reference is resolved: the target's handle when it is
 * spawned here (its id + 1 unless the application bound another), 0 when there is none, when
 * the target was despawned, or while it has not spawned here yet; such a pending reference
 * resolves when the target spawns, and on_resolve is called. A despawn turns every reference to
 * the entity into 0: for good if it was destroyed, pending if it only left this client's relevancy
 * (docs/replication.md section 13). Fixed-array elements, list elements, map values and
 * fast-array items (their structs' members included) resolve the same way, each on its own; set
 * elements and map keys are the collection's identity and stay network references. Snapshots
 * (ns_replica_snap, _interpolate's input) keep the network reference: ns_replica_handle
 * resolves one. */
static inline ns_entity ns_entity_ref(ns_entity_id e)
{
    return e + 1u;
}

/* Binds the application's handle (not 0) for spawned entity e, typically in on_spawn:
 * references to e read it from now on, those already resolved included. Cleared on despawn. */
ns_status ns_replica_bind(ns_replica *r, ns_entity_id e, ns_entity handle);

/* The handle network reference `ref` resolves to now: 0 if none or not spawned here. */
ns_entity ns_replica_handle(const ns_replica *r, ns_entity ref);

/* True if e is spawned on this client. */
bool ns_replica_has(const ns_replica *r, ns_entity_id e);

/* True if this client owns e (it receives e's @sync(owner) fields). */
bool ns_replica_is_owner(const ns_replica *r, ns_entity_id e);

/* The audience of e's newest state here (NS_TO_* bits the schema's fields test: owner,
 * predicted, custom), NS_TO_OBSERVER when e is not held. */
ns_audience ns_replica_audience(const ns_replica *r, ns_entity_id e);

/* The live value (a <pkg>_<T>) of component `type` of e, kept up to date by _apply, or NULL. */
const void *ns_replica_value(const ns_replica *r, ns_entity_id e, uint32_t type);

/* The newest snapshot of component `type` of e, and its tick; NULL if none. */
const void *ns_replica_snap(const ns_replica *r, ns_entity_id e, uint32_t type, uint32_t *tick);

/* The snapshot of component `type` of e at `tick`, or NULL if not held (for interpolation). */
const void *ns_replica_snap_at(const ns_replica *r, ns_entity_id e, uint32_t type, uint32_t tick);

/* Spawned entities, the newest packet tick applied, and the replica's memory in bytes. */
uint32_t ns_replica_count(const ns_replica *r);
uint32_t ns_replica_newest(const ns_replica *r);
size_t ns_replica_memory(const ns_replica *r);

/* Calls fn for every spawned entity, in ascending id order; costs the spawned entities and
 * max_entities / 4096 words, not a look at every id. */
void ns_replica_each(const ns_replica *r, void (*fn)(const ns_replica *r, ns_entity_id e, void *ctx), void *ctx);

/* ---- handshake ----------------------------------------------------------------------------- */

/* What a server tells a connecting client, so the replica matches the world. */
typedef struct ns_handshake {
    uint64_t schema_hash;
    uint32_t max_entities, history_depth, reorder_window, tick_rate;
    uint32_t conn;                  /* the client's connection number on the server */
    uint32_t packet_format;         /* 0 or 1: format 1; NS_PACKET_FORMAT_2 to 5 */
    bool     entity_sizes;          /* formats 2-5: records carry their sizes */
    uint32_t short_tick_bits;       /* formats 2-5: the world's short_tick_bits (0: derived) */
    bool     compact_acks;          /* formats 2-5: the replica writes compact acks */
} ns_handshake;

/* The handshake a world sends to connection `conn`. */
ns_handshake ns_world_handshake(const ns_world *w, uint32_t conn);

/* Writes / reads a handshake: "NSHS", the packet format (1, or 2 with a flags byte), then the
 * fields (24 bytes in all). A client that reads only format 1 refuses a format-2 handshake. */
void ns_handshake_write(ns_writer *w, const ns_handshake *h);
ns_status ns_handshake_read(ns_reader *r, ns_handshake *h);

/* NS_OK if h was made for `schema`; else NS_ERR_MISMATCH with a message naming both hashes in
 * msg (if not NULL). On NS_OK, fills cfg's schema, max_entities, history_depth, reorder_window,
 * packet_format, entity_sizes and short_tick_bits (callbacks are left as they are). */
ns_status ns_handshake_accept(const ns_handshake *h, const ns_schema *schema, ns_replica_config *cfg, char *msg,
                              size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif
