/* repl_ladder.c — format 3's ladder, shared by the writer, the replica and the dump: the one
 * list of baseline ticks a packet's updates share, from which each record's own baselines are
 * derived (docs/replication.md section 2, "Format 3"). A group per set of baseline ticks, as
 * formats 1 and 2 code them, splits a small scene's packet into several headers whenever one
 * entity skipped a tick the others were sent on; the ladder is one header for all of them.
 *
 * Why a record's baselines can be derived: they are the up to three newest ticks the client
 * acked at which the packet carried the entity. The ladder is the union of them over the
 * packet's records, so every ladder tick is acked, and for each record the three newest ladder
 * ticks at which the client holds the entity are exactly its baselines: a newer one would be an
 * acked tick carrying the entity, which the server would have chosen. */
#include <string.h>

#include <netschema/packed.h>

#include "repl_internal.h"

uint32_t ns__derive_baselines(uint64_t ladder, uint32_t tick, const void *(*get)(const void *ctx, uint32_t t),
                              const void *ctx, uint32_t ticks[3], const void *snaps[3])
{
    uint32_t n = 0;
    while (ladder && n < 3) {
        uint32_t t = tick - 1u - ns__lowest_bit(ladder);
        ladder &= ladder - 1u;
        if ((snaps[n] = get(ctx, t)) != NULL) ticks[n++] = t;
    }
    return n;
}

/* The mask with the `drop` highest set bits of m cleared; false if m has fewer. */
static bool drop_oldest(uint64_t *m, uint32_t drop)
{
    if (drop > ns__count_bits(*m)) return false;
    for (unsigned bit = 64; drop && bit-- > 0;)
        if (*m >> bit & 1u) *m &= ~(UINT64_C(1) << bit), drop--;
    return true;
}

uint64_t ns__ladder_from(const ns__idlist *ref, uint32_t gap0, uint32_t drop)
{
    uint64_t m = ns__ladder_shift(ref, gap0);
    if (!drop_oldest(&m, drop)) m = 0;
    return gap0 < 64u ? m | UINT64_C(1) << gap0 : 0;
}

static ns_status failed(ns_reader *in, ns_status st)
{
    if (!ns_reader_failed(in)) ns_reader_fail(in, st);
    return ns_reader_status(in);
}

/* The drop count of a ladder that continues ref's: '1' one (a window of ticks moving on), '01'
 * none, '00' then 2 + a packed number. */
static uint32_t read_drop(ns_reader *in)
{
    if (ns_read_bits(in, 1)) return 1;
    if (ns_read_bits(in, 1)) return 0;
    uint32_t v = ns_read_packed_u32(in, NULL);
    return v > 62u ? 64u : v + 2u;
}

ns_status ns__read_section3(ns_reader *in, const ns_schema *s, const ns_model *dense, const ns__idlist *lists,
                            uint32_t nlists, uint32_t tick, uint32_t history_depth, bool steady, bool need_dense,
                            ns__section3_header *h)
{
    memset(h, 0, sizeof *h);
    h->dense = !need_dense;
    /* 1: the section continues ref's (ladder less its oldest tick, all its ids, its presence) */
    const bool cont = steady || ns_read_bits(in, 1);
    uint32_t gap0 = ns_read_packed_u32(in, dense);
    h->from_ref = cont || ns_read_bits(in, 1);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    /* Ladder ticks lie within history_depth - 1 ticks before the packet: bit i < depth - 1. */
    const uint32_t span = history_depth - 1u;
    if (gap0 >= span) return failed(in, NS_ERR_BASELINE);
    h->ref = lists ? ns__idlist_get(lists, nlists, tick - gap0 - 1u) : NULL;
    if (h->from_ref) {
        h->drop = cont ? 1u : read_drop(in);
        if (ns_reader_failed(in)) return ns_reader_status(in);
        if (!h->ref) return failed(in, NS_ERR_BASELINE);
        if (h->drop > ns__count_bits(ns__ladder_shift(h->ref, gap0))) return failed(in, NS_ERR_MALFORMED);
        h->ladder = ns__ladder_from(h->ref, gap0, h->drop);
    } else {
        uint32_t more = ns_read_packed_u32(in, NULL), at = gap0;
        if (ns_reader_failed(in)) return ns_reader_status(in);
        if (more >= span) return failed(in, NS_ERR_BASELINE);
        h->ladder = UINT64_C(1) << gap0;
        for (uint32_t i = 0; i < more; i++) {
            uint32_t gap = ns_read_packed_u32(in, dense);
            if (ns_reader_failed(in)) return ns_reader_status(in);
            if (gap >= span - at - 1u) return failed(in, NS_ERR_BASELINE);
            at += gap + 1u;
            h->ladder |= UINT64_C(1) << at;
        }
    }
    if (span < 64u && h->ladder >> span) return failed(in, NS_ERR_BASELINE);
    h->ids = NS__IDS_GAPS;
    if (cont || ns_read_bits(in, 1)) h->ids = NS__IDS_ALL;
    else if (ns_read_bits(in, 1)) h->ids = NS__IDS_MASK;
    if (h->ids == NS__IDS_GAPS) {
        h->n = ns_read_packed_u32(in, NULL);
        if (need_dense) h->dense = ns_read_bits(in, 1) != 0; /* the packet's first gaps: their model */
    }
    h->same_presence = cont || ns_read_bits(in, 1);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if ((h->ids != NS__IDS_GAPS || h->same_presence) && !h->ref) return failed(in, NS_ERR_BASELINE);
    if (h->same_presence) {
        h->by_type = h->ref->ref_by_type;
        h->types = h->ref->ref_types;
    } else if ((h->by_type = ns_read_bits(in, 1) != 0)) {
        if (s->component_count > NS__MASK_TYPES) return failed(in, NS_ERR_MALFORMED);
        h->types = ns__read_types(in, s->component_count);
    }
    return ns_reader_status(in);
}
