/* repl_ladder.c — format 3's ladder, shared by the writer, the replica and the dump (with the
 * reading of a packet's first bits, which format 5 codes with its steady packets): the one
 * list of baseline ticks a packet's updates share, from which each record's own baselines are
 * derived (docs/replication.md section 2, "Format 3"). A group per set of baseline ticks, as
 * formats 1 and 2 code them, splits a small scene's packet into several headers whenever one
 * entity skipped a tick the others were sent on; the ladder is one header for all of them.
 *
 * Why a record's baselines can be derived: they are the up to three newest ticks the client
 * acked at which the packet carried the entity. The ladder is the union of them over the
 * packet's records, so every ladder tick is acked, and for each record the three newest ladder
 * ticks at which the client holds the entity are exactly its baselines: a newer one would be an
 * acked tick carrying the entity, which the server would have chosen.
 *
 * The section header that carries the ladder is read here for the replica and the dump, in format
 * 3 and in format 4 (the packet of the newest tick named by the round trip, the run); so are the
 * packet's event counts, which format 4 codes shorter, and written here for the writer. */
#include <string.h>

#include <netschema/packed.h>

#include "repl_internal.h"

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

/* The drop count of a ladder from ref's: '1' the continuation (*next; format 3's drops one tick,
 * a window of ticks moving on), '01' none, '00' then a packed number: drop - 2 (format 4's crowd,
 * whose continuation is its own: drop - 1). */
static uint32_t read_drop(ns_reader *in, bool crowd4, bool *next)
{
    if ((*next = ns_read_bits(in, 1) != 0)) return 1;
    if (ns_read_bits(in, 1)) return 0;
    uint32_t v = ns_read_packed_u32(in, NULL), base = crowd4 ? 1u : 2u;
    return v > 64u - base ? 64u : v + base;
}

/* The counts format 4 names by a short code, in code order: {despawns, spawns, without baselines}. */
static const uint32_t common_counts[3][3] = {{0, 1, 0}, {1, 0, 0}, {1, 1, 0}};

void ns__read_counts3(ns_reader *in, const ns_model *dense, bool format4, uint32_t counts[3])
{
    for (int k = 0; format4 && k < 3; k++) {
        if (!ns_read_bits(in, 1)) continue;
        memcpy(counts, common_counts[k], sizeof common_counts[k]);
        return;
    }
    for (int i = 0; i < 3; i++) counts[i] = ns_read_packed_u32(in, dense);
}

void ns__write_counts3(ns_writer *out, const ns_model *dense, bool format4, const uint32_t counts[3])
{
    for (int k = 0; format4 && k < 3; k++) {
        const bool match = memcmp(counts, common_counts[k], sizeof common_counts[k]) == 0;
        ns_write_bits(out, match, 1);
        if (match) return;
    }
    for (int i = 0; i < 3; i++) ns_write_packed_u32(out, counts[i], dense); /* mostly 0 or 1: 1 or 3 bits */
}

/* Format 4's section named by the round trip: the gap of the newest packet this reader holds
 * whose round trip was `change` shorter (the writer made sure no newer packet it wrote was);
 * false when none was. */
static bool find_round_trip(const ns__idlist *lists, uint32_t nlists, uint32_t tick, uint32_t span, int change,
                            uint32_t *gap0)
{
    for (uint32_t d = 0; d < span; d++) {
        const ns__idlist *l = ns__idlist_get(lists, nlists, tick - 1u - d);
        if (l && ns__round_trip_kept(l, d, change)) return *gap0 = d, true;
    }
    return false;
}

/* The name of the ladder's newest tick: format 3 its gap (dense); format 4 '1' by the round trip
 * kept, '01' the tick before the packet, '001' then 1 bit: by the round trip grown (1) or shrunk
 * (0) by a tick, '000' then the gap. Named by the round trip, the gap is found later. */
static uint32_t read_gap0(ns_reader *in, const ns_model *dense, bool format4, ns__section3_header *h)
{
    if (format4 && (h->by_rtt = ns_read_bits(in, 1) != 0)) return 0;
    if (format4 && ns_read_bits(in, 1)) return 0;
    if (format4 && (h->by_rtt = ns_read_bits(in, 1) != 0)) return h->rtt_change = ns_read_bits(in, 1) ? 1 : -1, 0;
    return ns_read_packed_u32(in, dense);
}

/* Format 5's first bits: '1' short and steady with ref's presence, '01' short, '001' short and
 * steady with a presence of its own, '000' full. */
static unsigned read_start5(ns_reader *in, bool *short_tick)
{
    *short_tick = true;
    if (ns_read_bits(in, 1)) return NS__STEADY_SAME;
    if (ns_read_bits(in, 1)) return NS__STEADY_NO;
    if (ns_read_bits(in, 1)) return NS__STEADY_NEW;
    *short_tick = false;
    return NS__STEADY_NO;
}

unsigned ns__read_start(ns_reader *in, uint32_t format, unsigned tick_bits, bool *short_tick, uint32_t *tick)
{
    unsigned steady = NS__STEADY_NO;
    if (format >= NS_PACKET_FORMAT_5) steady = read_start5(in, short_tick);
    else *short_tick = ns_read_bits(in, 1) != 0;
    *tick = ns_read_bits(in, *short_tick ? tick_bits : 32);
    if (format >= NS_PACKET_FORMAT_2 && format < NS_PACKET_FORMAT_5 && ns_read_bits(in, 1)) steady = NS__STEADY_SAME;
    return steady;
}

/* The presence by type, after the ids: ref's when the section continues ref's; else 1 bit "ref's",
 * then the by-type bit and mask. In format 5's steady packet with new presence (steady), the
 * toggle bit first, then a type's index (ns__type_index_bits) or the by-type bit and mask. */
static ns_status read_presence(ns_reader *in, const ns_schema *s, unsigned steady, bool cont, ns__section3_header *h)
{
    h->same_presence = steady == NS__STEADY_SAME || (steady == NS__STEADY_NO && (cont || ns_read_bits(in, 1)));
    h->toggled = steady == NS__STEADY_NEW && ns_read_bits(in, 1);
    const unsigned index_bits = ns__type_index_bits(s->component_count); /* 0 for one type */
    uint32_t at = h->toggled && index_bits ? ns_read_bits(in, index_bits) : 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if ((h->ids != NS__IDS_GAPS || h->same_presence || h->toggled) && !h->ref) return failed(in, NS_ERR_BASELINE);
    if (h->same_presence || h->toggled) {
        h->by_type = h->ref->ref_by_type;
        h->types = h->ref->ref_types;
    }
    if (h->toggled) { /* one type more or less than ref's, which had presence by type */
        if (!h->by_type) return failed(in, NS_ERR_BASELINE);
        if (at >= s->component_count) return failed(in, NS_ERR_MALFORMED);
        h->types ^= UINT64_C(1) << at;
    } else if (!h->same_presence && (h->by_type = ns_read_bits(in, 1) != 0)) {
        if (s->component_count > NS__MASK_TYPES) return failed(in, NS_ERR_MALFORMED);
        h->types = ns__read_types(in, s->component_count);
    }
    return ns_reader_status(in);
}

ns_status ns__read_section3(ns_reader *in, const ns_schema *s, const ns_model *dense, const ns__idlist *lists,
                            uint32_t nlists, uint32_t tick, uint32_t history_depth, unsigned steady, bool need_dense,
                            uint32_t format, bool crowd, ns__section3_header *h)
{
    memset(h, 0, sizeof *h);
    h->dense = !need_dense;
    /* Format 4's crowd names ref by the round trip, and its drop of 1 is ns__ladder_next4; the
     * rest's header is format 3's. */
    const bool crowd4 = format >= NS_PACKET_FORMAT_4 && crowd;
    /* 1: the section continues ref's (ladder less its oldest tick, all its ids, its presence but
     * in format 5's steady packet with new presence) */
    const bool cont = steady != NS__STEADY_NO || ns_read_bits(in, 1);
    uint32_t gap0 = read_gap0(in, dense, crowd4, h);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    /* Ladder ticks lie within history_depth - 1 ticks before the packet: bit i < depth - 1. */
    const uint32_t span = history_depth - 1u;
    if (h->by_rtt && !find_round_trip(lists, nlists, tick, span, h->rtt_change, &gap0))
        return failed(in, NS_ERR_BASELINE);
    h->from_ref = cont || ns_read_bits(in, 1);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (gap0 >= span) return failed(in, NS_ERR_BASELINE);
    h->ref = lists ? ns__idlist_get(lists, nlists, tick - gap0 - 1u) : NULL;
    if (h->from_ref) {
        bool next = cont;
        h->drop = cont ? 1u : read_drop(in, crowd4, &next);
        if (ns_reader_failed(in)) return ns_reader_status(in);
        if (!h->ref) return failed(in, NS_ERR_BASELINE);
        if (crowd4 && next) {
            h->run = ns__ladder_runs(h->ref, gap0);
            if (!(h->ladder = ns__ladder_next4(h->ref, gap0, span))) return failed(in, NS_ERR_BASELINE);
        } else {
            if (h->drop > ns__count_bits(ns__ladder_shift(h->ref, gap0))) return failed(in, NS_ERR_MALFORMED);
            h->ladder = ns__ladder_from(h->ref, gap0, h->drop);
        }
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
    return read_presence(in, s, steady, cont, h);
}
