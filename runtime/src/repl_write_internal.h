/* repl_write_internal.h — the state of one ns_world_write and the helpers its packet formats
 * share: repl_write.c (scan, choose, formats 1 and 2, commit) and repl_write3.c (format 3). */
#ifndef NS_REPL_WRITE_INTERNAL_H
#define NS_REPL_WRITE_INTERNAL_H

#include "repl_internal.h"

#include <netschema/packed.h>

/* Bits of v in the default packed model. */
static inline unsigned ns__cost(uint32_t v)
{
    return ns_packed_u32_cost(v, NULL);
}

typedef struct ns__pass {
    ns_world   *w;
    ns__conn   *c;
    uint32_t    conn, now;
    uint32_t    npick, nchosen, ndespawn, nspawn, ngroups;
    size_t      used, budget;     /* bits: an upper bound of the packet so far, and the limit */
    bool        sizes;
    uint32_t    format;       /* the packet format, NS_PACKET_FORMAT_1 to _5 (docs/replication.md
                                 section 2): from 2 short ticks and packets named by reference; from
                                 3 one section of updates over a ladder; from 4 sections for a long
                                 round trip; 5 a steady packet that may change presence */
    uint32_t    ref_records;  /* format 2: records of the packet's reference group so far */
    ns__idlist  ref;          /* ... and that group's header (ref_* fields and ladder only) */
    ns_writer   scratch;
    ns_repl_stats stats;
} ns__pass;

/* Sorts the chosen records into packet order: despawns, spawns, then updates by their
 * baselines (format 3: those without baselines, then the others), each run by id. */
void ns__sort_chosen(ns__pass *p);

/* True when the chosen ids cost fewer bits in the dense gap model than in the default one. */
bool ns__dense_is_cheaper(const ns__pass *p);

/* Whether the records chosen[from, to) agree on presence by component type (the mask in
 * *types), and writing that mask once is shorter than their presence bits. */
bool ns__presence_by_type(const ns__pass *p, uint32_t from, uint32_t to, uint64_t *types);

/* Writes the records chosen[from, to): id gaps in model m (none when ids is false), then each
 * record; by_type: the section's presence mask stands for the records' presence bits. */
void ns__write_run(ns__pass *p, ns_writer *out, uint32_t from, uint32_t to, const ns_model *m, bool by_type, bool ids);

/* Whether the packet's tick may be short (its low bits): the client acked a recent packet. */
bool ns__tick_is_short(const ns__pass *p);

/* Writes a packet's first bits (formats 2 to 5): the short-tick bit, the tick and the steady bit;
 * format 5 codes them as ns__read_start reads them. steady: NS__STEADY_*. */
void ns__write_start(const ns__pass *p, ns_writer *out, bool short_tick, unsigned steady);

/* Format 3's packet (docs/replication.md section 2, "Format 3"), from the chosen records. */
void ns__emit3(ns__pass *p, ns_writer *out);

#endif
