/* netschema/history.h — which baselines a writer may use, and where they are (docs/wire.md section 3).
 *
 * Over an unreliable transport a writer may only code against snapshots the receiver is known
 * to hold. The pieces:
 *   ns_tickset  a set of recent ticks (the newest and the 63 before it): the ticks a receiver
 *               acked, or the ticks at which an entity was written to it;
 *   ns_history  a ring of the writer's snapshots of one entity (or of anything), by tick, over
 *               caller-owned storage of NS_HISTORY_BYTES(size, depth): `depth` slots, tick t in
 *               slot t % depth (a mask when depth is a power of two);
 *   ns_history_baselines  the up-to-three newest ticks held by the history, acked by the
 *               receiver and (optionally) sent to it, as ns_baselines.
 * This is also the per-connection base state of fast arrays: a fastarray snapshot holds every
 * item's ID, key and value, so the acked snapshots are the acked base states.
 *
 * Memory per history: sizeof(ns_history) (32 bytes on 64-bit machines) plus
 * NS_HISTORY_BYTES(size, depth) = depth × (size + 4) bytes of storage. Eviction: writing tick t overwrites
 * tick t − depth. A receiver that has acked nothing still held (it fell more than `depth` ticks
 * behind) gets a full state, coded against the defaults, which needs no baseline at all.
 *
 * Baselines are per audience: a receiver's copy of an owner-only field is the reference it was
 * last sent (not the sender's value) while it observes the entity. When the entity's owner
 * changes, clear the `sent` set of the receivers whose audience changed, so their next write
 * is coded against the defaults.
 *
 * Over a reliable ordered transport, use the "last sent" policy instead: baseline 0 is the
 * snapshot last written to that receiver (count 1), no acks needed. Both use one wire format. */
#ifndef NETSCHEMA_HISTORY_H
#define NETSCHEMA_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "baselines.h"
#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_HISTORY_MAX_DEPTH 64u

typedef struct ns_tickset {
    uint32_t newest;  /* the newest tick in the set (valid when mask != 0) */
    uint64_t mask;    /* bit i: tick newest − i is in the set */
} ns_tickset;

/* Empties s. */
void ns_tickset_clear(ns_tickset *s);

/* Adds tick t; ticks more than 63 behind the newest are forgotten. */
void ns_tickset_add(ns_tickset *s, uint32_t t);

/* True if tick t is in s. */
bool ns_tickset_has(const ns_tickset *s, uint32_t t);

/* Bytes of storage for a history of `depth` snapshots of `size` bytes: the snapshots, then the
 * tick each slot holds. Storage must be aligned for the snapshot type (malloc's is). */
#define NS_HISTORY_BYTES(size, depth) ((size_t)(depth) * ((size_t)(size) + sizeof(uint32_t)))

/* The same storage as a count of snapshots, for a static array of the snapshot type:
 *   static Pkg_T_snap store[NS_HISTORY_LEN(sizeof(Pkg_T_snap), 16)]; */
#define NS_HISTORY_LEN(size, depth) ((NS_HISTORY_BYTES(size, depth) + (size) - 1u) / (size))

typedef struct ns_history {
    uint8_t  *slots;   /* NS_HISTORY_BYTES(size, depth) bytes owned by the caller: the snapshots,
                          then the tick each slot holds */
    size_t    size;    /* bytes per snapshot */
    uint32_t  depth;   /* 1..NS_HISTORY_MAX_DEPTH */
    uint32_t  mask;    /* depth − 1 when depth is a power of two (slot = t & mask), else 0 */
    uint64_t  held;    /* bit per slot: holds a snapshot */
} ns_history;

/* Sets h up over NS_HISTORY_BYTES(size, depth) bytes of storage; NS_ERR_ARGUMENT if depth is 0
 * or above NS_HISTORY_MAX_DEPTH. */
ns_status ns_history_init(ns_history *h, void *storage, size_t size, uint32_t depth);

/* The slot to fill with the snapshot of tick t (evicting whatever it held). */
void *ns_history_put(ns_history *h, uint32_t t);

/* The snapshot of tick t, or NULL if h does not hold it. */
const void *ns_history_get(const ns_history *h, uint32_t t);

/* Forgets tick t (for example when the entity it belonged to was destroyed). */
void ns_history_drop(ns_history *h, uint32_t t);

/* Fills b for writing tick `now`: up to max (at most 3) of the newest ticks before now that h
 * holds, `acked` contains and, if `sent` is not NULL, `sent` contains. Returns the count. */
uint32_t ns_history_baselines(const ns_history *h, const ns_tickset *acked, const ns_tickset *sent, uint32_t now,
                              uint32_t max, ns_baselines *b);

/* Writes which ticks b uses (count and their distances from b->tick_now), so a reader can find
 * the same baselines: 2 bits, then one packed value per baseline. */
void ns_write_baseline_ticks(ns_writer *w, const ns_baselines *b);

/* Reads what ns_write_baseline_ticks wrote for tick `now`: fills ticks[0..*count), newest
 * first. Fails the reader with NS_ERR_BASELINE for a distance of 2^31 ticks or more (every tick
 * must be older than the one before it); *count is 0 after any failure. */
void ns_read_baseline_ticks(ns_reader *r, uint32_t now, uint32_t ticks[3], uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
