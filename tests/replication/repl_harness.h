/* repl_harness.h — a server world and its clients' replicas over simulated links that lose,
 * reorder, duplicate and delay datagrams in both directions: what the replication tests and
 * the soak run on. Deterministic for a given seed. */
#ifndef REPL_HARNESS_H
#define REPL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "repl.ns.h"


#define RH_MAX_CLIENTS 8
#define RH_MAX_PACKET 1600
#define RH_QUEUE 64

/* How a link mistreats datagrams (probabilities 0..1, delays in ticks). */
typedef struct rh_impair {
    double   loss, reorder, duplicate;
    uint32_t latency, jitter;
} rh_impair;

typedef struct rh_datagram {
    uint32_t due;
    size_t   len;
    uint8_t  data[RH_MAX_PACKET];
} rh_datagram;

/* One direction of one link: datagrams in flight. */
typedef struct rh_link {
    rh_impair   impair;
    uint64_t   *rng;
    rh_datagram q[RH_QUEUE];
    uint32_t    n;
    uint64_t    sent, lost, delivered;
} rh_link;

typedef struct rh_game {
    ns_world   *world;
    ns_replica *replica[RH_MAX_CLIENTS];
    uint32_t    conn[RH_MAX_CLIENTS];
    rh_link     down[RH_MAX_CLIENTS], up[RH_MAX_CLIENTS];
    uint32_t    nclients;
    uint32_t    max_entities;
    uint32_t    tick;
    uint64_t    rng;
    uint64_t    bits_down[RH_MAX_CLIENTS];
    uint64_t    bits_up[RH_MAX_CLIENTS];  /* the acks' bits, as written */
    ns_repl_stats last[RH_MAX_CLIENTS];
    uint64_t    read_errors;       /* packets a replica refused (must stay 0 on honest links) */
    rh_datagram scratch[RH_QUEUE];
} rh_game;

/* A deterministic PRNG (xorshift64*); rh_uniform is in [0, 1). */
uint64_t rh_next(uint64_t *s);
double rh_uniform(uint64_t *s);

/* Creates a world from cfg (schema filled in if NULL) and n clients with matching replicas. */
void rh_start(rh_game *g, ns_world_config cfg, uint32_t n, rh_impair impair, uint64_t seed);
void rh_stop(rh_game *g);

/* rh_start on a game it allocates, with max_entities 64 and max_connections 8 where cfg has 0;
 * rh_free stops and frees it. */
rh_game *rh_new(ns_world_config cfg, uint32_t n, rh_impair impair, uint64_t seed);
void rh_free(rh_game *g);

/* One tick: ns_world_tick, a packet to each client, deliveries, acks back. */
void rh_step(rh_game *g);

/* Hands replica r's ack straight to the world's connection conn (no link): what
 * ns_world_read_ack says of it. */
ns_status rh_ack(ns_world *w, uint32_t conn, const ns_replica *r);

/* True when a world and a replica (rt_schema, 4 entities, 1 connection, the default depth and
 * window) with these packet_format, short_tick_bits and compact_acks are both refused with
 * NS_ERR_ARGUMENT. */
bool rh_config_refused(uint32_t packet_format, uint32_t short_tick_bits, bool compact_acks);

/* Sends a datagram into a link / takes the datagrams due at `now` (returns how many). */
void rh_link_send(rh_link *l, const void *data, size_t len, uint32_t now);
uint32_t rh_link_take(rh_link *l, uint32_t now, rh_datagram *out, uint32_t max);

/* True if client c's replica holds exactly what the server would send it for every entity:
 * the same entities, and for each component the snapshot of the replica's newest tick equals
 * the server's recorded snapshot of that tick as the client's audience sees it. On a mismatch,
 * writes a description into why. */
bool rh_consistent(const rh_game *g, uint32_t c, char *why, size_t why_size);

/* True if client c holds exactly the entities the server has live for it (link spawned and
 * acked), each at the server's newest recorded state as the client's audience sees it: what a
 * client must reach once the link is quiet. */
bool rh_settled(const rh_game *g, uint32_t c, char *why, size_t why_size);

#endif
