/* history_internal.h — the coding of ticks: baseline ticks, shared by the component codec (the
 * packed model: ns_write_baseline_ticks, docs/wire.md) and the replication layer's group headers
 * (the dense model: docs/replication.md §2), so both refuse bad gaps alike; and a tick read back
 * from its low bits, shared by short snapshot ticks, compact acks and short input ticks. */
#ifndef NS_HISTORY_INTERNAL_H
#define NS_HISTORY_INTERNAL_H

#include <netschema/baselines.h>
#include <netschema/bits.h>
#include <netschema/packed.h>

/* 2 bits for the count, then each tick as its gap − 1 from the one before (the tick of `now`
 * first) in model m (NULL: the default packed model). */
void ns__write_ticks(ns_writer *w, const ns_baselines *b, const ns_model *m);

/* Reads what ns__write_ticks wrote; a gap that leaves 31-bit tick order fails the reader with
 * NS_ERR_BASELINE. *count is 0 whenever the reader has failed. */
void ns__read_ticks(ns_reader *r, uint32_t now, uint32_t ticks[3], uint32_t *count, const ns_model *m);

/* The tick with these low k bits nearest `ref`: from 2^(k-1) below it to 2^(k-1) - 1 above. A
 * tick written further than that from the reader's `ref` resolves to another one. */
static inline uint32_t ns__resolve_tick(uint32_t low, unsigned k, uint32_t ref)
{
    const uint32_t span = 1u << k, half = span >> 1, up = (low - ref) & (span - 1u);
    return up < half ? ref + up : ref - (span - up);
}

#endif
