/* arena.h — what the files of the arena example share: limits, the entity snapshot, a random
 * generator, and each file's entry points (net.c, wire.c, server.c, client.c). */
#ifndef ARENA_EXAMPLE_H
#define ARENA_EXAMPLE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "arena.ns.h"

#define GAME_RATE 60            /* ticks per simulated second */
#define GAME_NPCS 4             /* entities the server moves by itself */
#define GAME_MAX_CLIENTS 32
#define GAME_MAX_ENTITIES (GAME_MAX_CLIENTS + GAME_NPCS)
#define WIRE_HISTORY 32         /* snapshots each side keeps per entity, by tick */
#define WIRE_MAX_DATAGRAM 1200  /* bytes: below any path MTU */
#define WIRE_INPUTS 3           /* inputs per client datagram: the newest and two repeats */

/* Everything the server replicates of one entity at one tick. Entity e is owned by client e when
 * e < clients; the others are NPCs, whose inventory stays empty. */
typedef struct entity_snap {
    arena_Transform_snap transform;
    arena_Health_snap    health;
    arena_Inventory_snap inventory;
} entity_snap;

/* A small deterministic random generator (splitmix64). */
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

/* ---- net.c: UDP sockets on 127.0.0.1 that drop a share of what they send ---------------- */

typedef struct net_stats {
    unsigned long sent, dropped, received; /* datagrams: written, dropped on purpose, read */
    unsigned long bytes, max_bytes;        /* of the datagrams written, dropped ones included */
    unsigned long errors;                  /* sendto failures */
} net_stats;

typedef struct net_socket {
    int                fd;
    struct sockaddr_in addr;  /* where it is bound */
    unsigned           loss;  /* percent of the datagrams net_send drops */
    rng                rng;
    net_stats          stats;
} net_socket;

/* Opens a non-blocking UDP socket on 127.0.0.1 with a port the system picks; false on error. */
bool net_open(net_socket *s, unsigned loss_percent, uint64_t seed);
void net_close(net_socket *s);

/* Sends one datagram, unless the loss draw drops it. */
void net_send(net_socket *s, const struct sockaddr_in *to, const void *data, size_t len);

/* Receives one datagram, waiting up to wait_ms for it; its length, or -1 if none came. */
long net_recv(net_socket *s, void *buf, size_t cap, struct sockaddr_in *from, int wait_ms);

/* ---- wire.c: the datagrams around the generated writes, both directions --------------------- */

/* Bits one entity write took, per component. */
typedef struct wire_bits {
    size_t transform, health, inventory;
} wire_bits;

/* An entity's header as the client reads it: base.tick[] and count are filled, base.snap[] are
 * for the client to find in its own history. */
typedef struct wire_entity {
    uint32_t     id;
    bool         has_inventory;
    ns_baselines base;
} wire_entity;

/* Server to client: the tick, the newest UseItem applied, then entities until a 0 bit. */
void wire_write_downlink_head(ns_writer *w, uint32_t tick, uint32_t rpc_ack);
void wire_read_downlink_head(ns_reader *r, uint32_t *tick, uint32_t *rpc_ack);

/* One entity: a 1 bit, its id, the baseline ticks, then its components against b. */
ns_status wire_write_entity(ns_writer *w, uint32_t id, bool has_inventory, const entity_snap *cur,
                            const ns_baselines *b, ns_audience to, wire_bits *bits);
void wire_write_end(ns_writer *w);

/* Reads an entity's header; false at the end of the list (or if r failed). */
bool wire_read_entity_head(ns_reader *r, uint32_t tick, wire_entity *e);
ns_status wire_read_entity(ns_reader *r, entity_snap *out, const wire_entity *e, ns_audience to);

/* Client to server, every tick. */
typedef struct wire_uplink {
    uint32_t               client;
    ns_tickset             acks;        /* ticks decoded: the newest and the 31 before it */
    uint32_t               input_tick;  /* the tick of input[count - 1] */
    uint32_t               input_count; /* 1..WIRE_INPUTS, oldest first */
    arena_PlayerInput_snap input[WIRE_INPUTS];
    uint32_t               rpc_seq;     /* 0: no rpc; else the UseItem's sequence number */
    arena_UseItem_snap     use;
} wire_uplink;

/* The datagram's length, or 0 if it did not fit or a snapshot was refused. */
size_t wire_write_uplink(const wire_uplink *u, uint8_t *buf, size_t cap);
bool wire_read_uplink(const void *buf, size_t len, wire_uplink *u);

/* ---- server.c -------------------------------------------------------------------------- */

typedef struct server_stats {
    unsigned long writes[4];          /* entity writes by number of baselines */
    unsigned long bits_transform, bits_health, bits_inventory_owner, bits_inventory_observer;
    unsigned long owner_writes, observer_inventory_writes;
    unsigned long deferred;           /* entity states left for a later datagram */
    unsigned long item_adds, item_removes, item_changes, hotbar_changes;
    unsigned long rpcs_applied, rpcs_gone;  /* UseItem on an item that still existed / not */
    unsigned long bad_datagrams, failures;
} server_stats;

typedef struct server server;

server *server_create(unsigned clients, unsigned loss_percent, uint64_t seed);
void server_destroy(server *s);
uint16_t server_port(const server *s);
/* One tick: read the clients' datagrams, simulate, send each client its datagram. */
void server_tick(server *s, uint32_t tick);
/* After the last tick: read what is still on its way. */
void server_finish(server *s);
const server_stats *server_get_stats(const server *s);
const net_stats *server_net(const server *s);
/* The server's snapshot of entity e at tick t, or NULL if it no longer holds it. The clients
 * compare against it; they call it only while the server thread waits (see main.c). */
const entity_snap *server_snapshot(const server *s, uint32_t e, uint32_t t);

/* ---- client.c -------------------------------------------------------------------------- */

typedef struct client_stats {
    unsigned long decoded, stale, missing_baseline, malformed;  /* datagrams */
    unsigned long checked, mismatches, unchecked, leaks;        /* entity states */
    unsigned long hp_hooks, item_adds, item_removes, item_changes, hotbar_hooks;
    unsigned long foreign_inventory_hooks;  /* inventory hooks for another player's entity */
    unsigned long inventory_mismatch;       /* adds - removes != items held at the end */
    unsigned long interpolated;             /* entity frames interpolated for display */
    unsigned long rpcs_sent, rpcs_confirmed;
} client_stats;

typedef struct client client;

client *client_create(unsigned id, unsigned clients, uint16_t server_port, const server *truth,
                      unsigned loss_percent, uint64_t seed);
void client_destroy(client *c);
/* One tick: read the server's datagrams, interpolate, send the input of this tick. */
void client_tick(client *c, uint32_t tick);
/* After the last tick: read what is still on its way, check the inventory's callbacks. */
void client_finish(client *c);
const client_stats *client_get_stats(const client *c);
const net_stats *client_net(const client *c);

#endif
