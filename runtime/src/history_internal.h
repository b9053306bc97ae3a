/* history_internal.h — the coding of baseline ticks, shared by the component codec (the packed
 * model: ns_write_baseline_ticks, docs/wire.md) and the replication layer's group headers (the
 * dense model: docs/replication.md §2). One implementation, so both refuse bad gaps alike. */
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

#endif
