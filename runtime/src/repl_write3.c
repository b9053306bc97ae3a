/* repl_write3.c — format 3's packet (docs/replication.md section 2, "Format 3"): format 2's
 * short tick and records, with the updates that have baselines in two sections (the crowd sent
 * in the packet the client acked last, and the rest), each of whose headers codes a ladder (the
 * union of its records' baseline ticks) once; each record's own baselines are derived from it
 * by both ends (repl_ladder.c). Updates without baselines go in their own run with their
 * audience bits, as format 1's group without baselines. Format 4 is format 3 with sections that
 * stay short when the client's acks are several ticks old (section 2, "Format 4"); format 5 is
 * format 4 whose steady packet may change the presence by type (section 2, "Format 5"). */
#include <netschema/packed.h>

#include "repl_write_internal.h"

/* How the section is coded, decided before anything is written. */
typedef struct ns__plan3 {
    uint32_t          from, to;      /* the section's records, chosen[from, to) */
    bool              crowd4;        /* format 4's crowd: its header is format 4's */
    uint64_t          ladder;        /* bit i: tick now - 1 - i */
    uint32_t          gap0;          /* the ladder's newest tick is now - 1 - gap0 */
    const ns__idlist *ref;           /* the packet of the newest tick, when the server kept it */
    bool              by_rtt;        /* format 4: ref is named by the round trip ... */
    int               rtt_change;    /* ... that changed by this many ticks since ref's */
    bool              from_ref;      /* the ladder comes from ref's: ... */
    bool              next;          /* ... its continuation (format 3: less its oldest tick;
                                        format 4's crowd: ns__ladder_next4), or ... */
    uint32_t          drop;          /* ... less `drop` of its oldest ticks */
    uint8_t           ids;           /* NS__IDS_* */
    bool              by_type, same_presence;
    uint64_t          types;
    bool              toggled;       /* the presence by type is ref's with one type toggled */
} ns__plan3;

/* How a ladder from ref's is coded: '1' the continuation, '01' none of ref's ticks dropped, '00'
 * then a packed number: drop - 2 (format 4's crowd: drop - 1, whose continuation is not drop 1). */
static unsigned drop_cost(const ns__plan3 *s)
{
    return s->next ? 1u : s->drop == 0 ? 2u : 2u + ns__cost(s->drop - (s->crowd4 ? 1u : 2u));
}

/* Format 4: whether the reader finds ref, the packet of the ladder's newest tick, by the change
 * of the round trip since ref alone (-1, 0 or 1: ref's crowd's ladder began that many ticks
 * less far behind it): ref must be the newest packet with that change (ns__round_trip_kept).
 * No newer packet written to the client in the window may have it, as far as the server knows:
 * one whose list it lost might have. */
static bool by_round_trip(const ns__pass *p, ns__plan3 *s)
{
    if (!s->ref || !s->ref->ladder) return false;
    const int64_t change = (int64_t)s->gap0 - ns__lowest_bit(s->ref->ladder);
    if (change < -1 || change > 1) return false;
    s->rtt_change = (int)change;
    const uint32_t n = ns__idlist_slots(p->w->cfg.history_depth);
    for (uint32_t d = 0; d < s->gap0; d++) {
        const ns__idlist *l = &p->c->lists[(p->now - 1u - d) % n];
        if (l->tick != p->now - 1u - d) continue; /* no packet that tick */
        if (!l->valid || ns__round_trip_kept(l, d, s->rtt_change)) return false;
    }
    return true;
}

/* The ladder: every baseline tick of the section's records. */
static void plan_ladder(const ns__pass *p, ns__plan3 *s)
{
    const ns__pick *ch = p->w->chosen;
    s->ladder = 0;
    for (uint32_t i = s->from; i < s->to; i++)
        for (uint32_t j = 0; j < ch[i].base.count; j++) s->ladder |= UINT64_C(1) << (p->now - 1u - ch[i].base.tick[j]);
    s->gap0 = ns__lowest_bit(s->ladder);
    s->ref = ns__idlist_get(p->c->lists, ns__idlist_slots(p->w->cfg.history_depth), p->now - 1u - s->gap0);
    s->by_rtt = s->crowd4 && by_round_trip(p, s);
    s->from_ref = false;
    if (!s->ref) return;
    if (s->crowd4 && s->ladder == ns__ladder_next4(s->ref, s->gap0, p->w->cfg.history_depth - 1u)) {
        s->from_ref = s->next = true;
        return;
    }
    /* From ref when that is exact and no longer than listing the ticks. */
    uint64_t older = s->ladder & (s->ladder - 1u);
    uint32_t have = ns__count_bits(ns__ladder_shift(s->ref, s->gap0)), want = ns__count_bits(older);
    if (have < want) return;
    s->drop = have - want;
    s->next = !s->crowd4 && s->drop == 1;
    if (ns__ladder_from(s->ref, s->gap0, s->drop) != s->ladder) return;
    size_t listed = ns__cost(want), prev = s->gap0;
    for (uint64_t m = older; m; m &= m - 1u) {
        uint32_t at = ns__lowest_bit(m);
        listed += ns_packed_u32_cost((uint32_t)(at - prev - 1u), &p->w->dense);
        prev = at;
    }
    s->from_ref = drop_cost(s) <= listed;
}

/* The section's ids by reference are ref's less those the packet named before the section
 * (its despawns, spawns and updates without baselines: chosen[0, s->from), three ascending
 * runs), so an entity that despawns or respawns does not break a run of packets that continue.
 * A cursor into each run, for one ascending pass over ref's ids. */
typedef struct ns__named {
    uint32_t at[3], end[3];
} ns__named;

static ns__named named_runs(const ns__pass *p, const ns__plan3 *s)
{
    const uint32_t u0 = p->ndespawn + p->nspawn;
    return (ns__named){{0, p->ndespawn, u0}, {p->ndespawn, u0, s->from}};
}

static bool named(const ns__pass *p, ns__named *n, uint32_t id)
{
    const ns__pick *ch = p->w->chosen;
    for (int k = 0; k < 3; k++) {
        while (n->at[k] < n->end[k] && ch[n->at[k]].id < id) n->at[k]++;
        if (n->at[k] < n->end[k] && ch[n->at[k]].id == id) return true;
    }
    return false;
}

/* The presence by type, and whether it is ref's; the ids' form: with by_ref (the crowd's
 * section, whose ids were all in ref), all or a mask of ref's ids when that is cheaper than
 * gaps. */
static void plan_ids(const ns__pass *p, ns__plan3 *s, const ns_model *m, bool by_ref)
{
    const ns__pick *ch = p->w->chosen;
    s->by_type = ns__presence_by_type(p, s->from, s->to, &s->types);
    s->same_presence = s->ref && s->ref->ref_by_type == s->by_type && (!s->by_type || s->ref->ref_types == s->types);
    s->toggled = !s->same_presence && s->ref && s->ref->ref_by_type && s->by_type &&
                 ns__count_bits(s->types ^ s->ref->ref_types) == 1;
    s->ids = NS__IDS_GAPS;
    if (!s->ref || !by_ref) return;
    size_t gaps = ns__cost(s->to - s->from - 1u);
    uint32_t next = 0, eligible = 0, i = s->from;
    ns__named n = named_runs(p, s);
    for (uint32_t j = 0; j < s->ref->count; j++) {
        uint32_t id = s->ref->id[j];
        if (named(p, &n, id)) continue;
        eligible++;
        if (i < s->to && ch[i].id < id) return; /* the section has an id ref does not */
        if (i < s->to && ch[i].id == id) gaps += ns_packed_u32_cost(id - next, m), next = id + 1, i++;
    }
    if (i < s->to) return; /* not a subset */
    if (eligible == s->to - s->from) s->ids = NS__IDS_ALL;
    else if (eligible < gaps) s->ids = NS__IDS_MASK;
}

/* The section continues ref's but for its presence: its ladder ref's less its oldest tick
 * (format 4's crowd: the ladder ns__ladder_next4 derives from ref's), all ref's ids. */
static bool continues_ladder_and_ids(const ns__plan3 *s)
{
    return s->from_ref && s->next && s->ids == NS__IDS_ALL;
}

/* The section continues ref's: its ladder and ids, and its presence. */
static bool continues(const ns__plan3 *s)
{
    return continues_ladder_and_ids(s) && s->same_presence;
}

/* The name of the ladder's newest tick: its gap (dense); format 4's crowd '1' by the round trip
 * kept, '01' the tick before the packet, '001' then 1 bit: by the round trip grown (1) or shrunk
 * (0) by a tick, '000' then the gap. */
static void write_gap0(const ns__pass *p, ns_writer *out, const ns__plan3 *s)
{
    const bool kept = s->by_rtt && s->rtt_change == 0;
    if (s->crowd4) ns_write_bits(out, kept, 1);
    if (s->crowd4 && !kept) ns_write_bits(out, s->gap0 == 0, 1);
    if (s->crowd4 && (kept || s->gap0 == 0)) return;
    if (s->crowd4) ns_write_bits(out, s->by_rtt, 1);
    if (s->by_rtt) ns_write_bits(out, s->rtt_change > 0, 1);
    else ns_write_packed_u32(out, s->gap0, &p->w->dense);
}

/* The section's ladder (from ref's or listed) and the form of its ids. */
static void write_ladder_and_ids(const ns__pass *p, ns_writer *out, const ns__plan3 *s, const bool *dense)
{
    ns_write_bits(out, s->from_ref, 1);
    if (s->from_ref) {
        ns_write_bits(out, s->next, 1);
        if (!s->next) ns_write_bits(out, s->drop == 0, 1);
        if (!s->next && s->drop > 0) ns_write_packed_u32(out, s->drop - (s->crowd4 ? 1u : 2u), NULL);
    } else {
        uint64_t older = s->ladder & (s->ladder - 1u);
        ns_write_packed_u32(out, ns__count_bits(older), NULL);
        uint32_t prev = s->gap0;
        for (; older; older &= older - 1u) {
            uint32_t at = ns__lowest_bit(older);
            ns_write_packed_u32(out, at - prev - 1u, &p->w->dense);
            prev = at;
        }
    }
    ns_write_bits(out, s->ids == NS__IDS_ALL, 1);
    if (s->ids != NS__IDS_ALL) ns_write_bits(out, s->ids == NS__IDS_MASK, 1);
    if (s->ids == NS__IDS_GAPS) ns_write_packed_u32(out, s->to - s->from - 1u, NULL);
    if (s->ids == NS__IDS_GAPS && dense) ns_write_bits(out, *dense, 1);
}

/* The presence by type: 1 bit "ref's", then the by-type bit and mask; in format 5's steady packet
 * with new presence (steady), whose first bits said "not ref's", the toggle bit first, then the
 * toggled type's index or the by-type bit and mask. */
static void write_presence(const ns__pass *p, ns_writer *out, const ns__plan3 *s, unsigned steady)
{
    const uint32_t ntypes = p->w->schema->component_count;
    if (steady == NS__STEADY_NO) ns_write_bits(out, s->same_presence, 1);
    if (s->same_presence) return;
    if (steady == NS__STEADY_NEW) ns_write_bits(out, s->toggled, 1);
    if (steady == NS__STEADY_NEW && s->toggled) {
        const unsigned index_bits = ns__type_index_bits(ntypes); /* 0 for one type */
        if (index_bits) ns_write_bits(out, ns__lowest_bit(s->types ^ s->ref->ref_types), index_bits);
        return;
    }
    ns_write_bits(out, s->by_type, 1);
    if (s->by_type) ns__write_types(out, s->types, ntypes);
}

/* The section's header but for its first bit (continues or not); dense: the gap model, when
 * no events said it and the ids come by gaps; steady: what the packet's first bits said (format
 * 5's steady packet with new presence continues ref's but for its presence). */
static void write_header(const ns__pass *p, ns_writer *out, const ns__plan3 *s, const bool *dense, unsigned steady)
{
    write_gap0(p, out, s);
    if (steady == NS__STEADY_NEW) write_presence(p, out, s, steady);
    if (steady != NS__STEADY_NO || continues(s)) return;
    write_ladder_and_ids(p, out, s, dense);
    write_presence(p, out, s, steady);
}

/* The bit per id of ref: 1 when the section has it. */
static void write_id_mask(const ns__pass *p, ns_writer *out, const ns__plan3 *s)
{
    const ns__pick *ch = p->w->chosen;
    uint32_t i = s->from;
    ns__named n = named_runs(p, s);
    for (uint32_t j = 0; j < s->ref->count; j++) {
        if (named(p, &n, s->ref->id[j])) continue;
        bool has = i < s->to && ch[i].id == s->ref->id[j];
        ns_write_bits(out, has, 1);
        i += has;
    }
}

/* Puts each update in its section: without baselines (0); the crowd's (1), whose newest
 * baseline is the newest of all, the packet P the client acked last: they were all in P, so
 * their ids are P's (all, or a mask) and their ladder mostly continues P's; the rest's (2),
 * entities not sent in P, with a ladder and ids of their own. */
static void assign_sections(ns__pass *p)
{
    ns__pick *ch = p->w->chosen;
    uint32_t newest = 0;
    bool any = false;
    for (uint32_t i = 0; i < p->nchosen; i++)
        if (ch[i].kind == NS__UPDATE && ch[i].base.count && (!any || ns__newer(ch[i].base.tick[0], newest)))
            newest = ch[i].base.tick[0], any = true;
    for (uint32_t i = 0; i < p->nchosen; i++)
        ch[i].section = ch[i].kind != NS__UPDATE || !ch[i].base.count ? 0 : ch[i].base.tick[0] == newest ? 1 : 2;
}

/* One section: its presence bit, header, id mask and records. */
static void write_section(ns__pass *p, ns_writer *out, const ns__plan3 *s, const ns_model *gaps, const bool *dense)
{
    ns_write_bits(out, s->to > s->from, 1);
    if (s->to == s->from) return;
    ns_write_bits(out, continues(s), 1);
    write_header(p, out, s, dense, NS__STEADY_NO);
    if (s->ids == NS__IDS_MASK) write_id_mask(p, out, s);
    ns__write_run(p, out, s->from, s->to, gaps, s->by_type, s->ids == NS__IDS_GAPS);
}

void ns__emit3(ns__pass *p, ns_writer *out)
{
    assign_sections(p);
    ns__sort_chosen(p);
    const ns__pick *ch = p->w->chosen;
    const ns_model *gaps = ns__dense_is_cheaper(p) ? &p->w->dense : NULL;
    const uint32_t u0 = p->ndespawn + p->nspawn;
    uint32_t a0 = u0, b0; /* updates without baselines: chosen[u0, a0); the crowd's: [a0, b0) */
    while (a0 < p->nchosen && ch[a0].section == 0) a0++;
    for (b0 = a0; b0 < p->nchosen && ch[b0].section == 1;) b0++;
    ns__plan3 crowd = {.from = a0, .to = b0, .crowd4 = p->format >= NS_PACKET_FORMAT_4};
    ns__plan3 rest = {.from = b0, .to = p->nchosen};
    if (crowd.to > crowd.from) plan_ladder(p, &crowd), plan_ids(p, &crowd, gaps, true);
    if (rest.to > rest.from) plan_ladder(p, &rest), plan_ids(p, &rest, gaps, false);
    p->stats.groups = (a0 > u0) + (b0 > a0) + (p->nchosen > b0);
    const bool events = a0 != 0, dense = gaps != NULL;
    const bool short_tick = ns__tick_is_short(p);
    /* the crowd continues ref's section: format 5 with a short tick, its presence may change */
    const bool continued = p->format >= NS_PACKET_FORMAT_5 ? short_tick && continues_ladder_and_ids(&crowd)
                                                           : continues(&crowd);
    const bool steady = !events && crowd.to > crowd.from && rest.to == rest.from && continued;
    const unsigned said = !steady ? NS__STEADY_NO : crowd.same_presence ? NS__STEADY_SAME : NS__STEADY_NEW;
    ns__write_start(p, out, short_tick, said);
    if (steady) {
        write_header(p, out, &crowd, NULL, said);
        ns__write_run(p, out, crowd.from, crowd.to, gaps, crowd.by_type, false);
    } else {
        ns_write_bits(out, events, 1);
        if (events) {
            ns_write_bits(out, dense, 1);
            const uint32_t counts[3] = {p->ndespawn, p->nspawn, a0 - u0};
            ns__write_counts3(out, &p->w->dense, p->format >= NS_PACKET_FORMAT_4, counts);
        }
        ns__write_run(p, out, 0, p->ndespawn, gaps, false, true);
        ns__write_run(p, out, p->ndespawn, u0, gaps, false, true);
        ns__write_run(p, out, u0, a0, gaps, false, true);
        /* The packet's first id gaps say their model, unless the events did. */
        bool told = events || (crowd.to > crowd.from && crowd.ids == NS__IDS_GAPS);
        write_section(p, out, &crowd, gaps, events ? NULL : &dense);
        write_section(p, out, &rest, gaps, told ? NULL : &dense);
    }
    /* What later packets may refer to: the crowd's ladder and presence by type. */
    p->ref.ref_count = 0;
    p->ref.ref_by_type = crowd.to > crowd.from && crowd.by_type;
    p->ref.ref_types = p->ref.ref_by_type ? crowd.types : 0;
    p->ref.ladder = crowd.to > crowd.from ? crowd.ladder : 0;
}
