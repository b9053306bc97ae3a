/* netschema/dump.h — what is in a snapshot or a packet, for people (docs/dump.md): a snapshot
 * printed as `Type { field: value, … }` with dequantized values, a record printed field by field
 * with the bits each field took, and the descriptor-driven walker behind both (and behind the
 * bandwidth profile, netschema/profile.h).
 *
 * The walker decodes a record slot by slot exactly as the generated _read does (docs/wire.md),
 * from the type's descriptor alone: it reads only through an ns_reader, so it never reads past
 * the buffer, and it fails with the status _read would give on malformed input. Not for the hot
 * path: it is a tool, one descriptor lookup per field.
 *
 * Records the replication dump cannot decode (no replica, an entity or baseline it does not
 * hold) are skipped by their size when the packet has sizes; otherwise it stops with
 * NS_ERR_BASELINE. A failing slot's bits in ns_slot_info are meaningless. */
#ifndef NETSCHEMA_DUMP_H
#define NETSCHEMA_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "baselines.h"
#include "bits.h"
#include "desc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_SLOT_ANY UINT32_MAX /* ns_slot_info.slot of a record's leading "any" bit */

/* What the walker found for one slot of one record (or for the record's "any" bit). */
typedef struct ns_slot_info {
    uint32_t slot;     /* index into desc->fields, or NS_SLOT_ANY */
    bool     sent;     /* the slot has a change bit in this record (audience, @initial, any bit) */
    bool     changed;  /* its change bit was 1 (for NS_SLOT_ANY: the any bit was 1) */
    uint32_t bits;     /* its change bit and payload (meaningless for a slot whose read failed) */
} ns_slot_info;

/* Called once per slot in wire order (first NS_SLOT_ANY when the record has an any bit); after
 * a slot's call, `out` (if the walk has one) holds its decoded value. */
typedef void (*ns_slot_fn)(void *ctx, const ns_type_desc *t, const ns_slot_info *s);

/* Reads one record of type t as its _read would (inputs and structs: against base->snap[0] if
 * any), decoding into out (NULL: scratch) and calling fn per slot; NS_OK or _read's error. */
ns_status ns_walk_record(ns_reader *r, const ns_type_desc *t, const ns_baselines *base, ns_audience to, void *out,
                         ns_slot_fn fn, void *ctx);

/* Prints a snapshot of type t as `Type { field: value, … }` (dequantized, no newline). */
void ns_dump_snapshot(FILE *out, const ns_type_desc *t, const void *snap);

/* Reads one record from r (as ns_walk_record) and prints it, one line per slot with its bits and
 * value; a malformed record prints what was read and the error, and returns it. */
ns_status ns_dump_record(FILE *out, const ns_type_desc *t, ns_reader *r, const ns_baselines *base, ns_audience to);

/* ns_dump_record over buf, limited to the bytes that hold its first `bits` bits (0: all len bytes). */
ns_status ns_dump_packet(FILE *out, const ns_type_desc *t, const void *buf, size_t len, size_t bits,
                         const ns_baselines *base, ns_audience to);

struct ns_replica;
struct ns_schema;

/* Prints a replication snapshot packet record by record with every field's bits, updates decoded
 * against the states `replica` holds (may be NULL): call it on a copy of r before ns_replica_read. */
ns_status ns_dump_repl_packet(FILE *out, const struct ns_schema *schema, const struct ns_replica *replica, ns_reader *r);

#ifdef __cplusplus
}
#endif
#endif
