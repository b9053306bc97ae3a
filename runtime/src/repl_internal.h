/* repl_internal.h — what the replication layer's files share: the entity layout (an entity's
 * state is one blob, its components side by side), the record coding both sides use, and the
 * server's and the replica's private structures. See docs/replication.md for the packet. */
#ifndef NS_REPL_INTERNAL_H
#define NS_REPL_INTERNAL_H

#include <netschema/packed.h>
#include <netschema/replication.h>

#include "history_internal.h"
#include "repl_idset.h"

/* How one entity's components sit in its state blob. */
typedef struct ns__layout {
    uint32_t ncomp;
    uint16_t comp[NS_REPL_MAX_COMPONENTS];  /* schema component indices, ascending type id */
    uint32_t off[NS_REPL_MAX_COMPONENTS];   /* byte offset of each component's snapshot */
    uint32_t size;                          /* bytes of the blob */
} ns__layout;

/* Fills l for the component type ids types[0..count), which must be distinct and known to s.
 * NS_ERR_UNKNOWN_ID, NS_ERR_DUPLICATE or NS_ERR_CAPACITY otherwise. */
ns_status ns__layout_init(ns__layout *l, const ns_schema *s, const uint32_t *types, uint32_t count);

/* The slot of component type `type` in l, or -1. */
int32_t ns__layout_find(const ns__layout *l, const ns_schema *s, uint32_t type);

/* The ns_audience values: every combination of NS_TO_OWNER, NS_TO_PREDICTED, NS_TO_CUSTOM. */
#define NS__AUDIENCES 8u

/* Per schema component: its default snapshot, and which records can carry it to each audience. */
typedef struct ns__defaults {
    uint8_t  *blob;       /* every component's default snapshot, at off[c] */
    size_t   *off;
    uint8_t (*visible)[NS__AUDIENCES]; /* [c][audience]: NS__IN_FULL | NS__IN_DELTA */
    uint8_t   audiences;  /* the NS_TO_* bits the schema's fields depend on: NS_TO_OWNER, plus
                             NS_TO_PREDICTED and NS_TO_CUSTOM when some field tests them */
} ns__defaults;

/* A record's audience on the wire (docs/replication.md section 2): one bit per NS_TO_* bit of
 * d->audiences, owner first, then predicted, then custom. Schemas whose fields use only all,
 * owner, others and none have d->audiences == NS_TO_OWNER: one bit, as before the conditions. */
static inline void ns__write_audience(ns_writer *w, const ns__defaults *d, unsigned to)
{
    for (unsigned bit = NS_TO_OWNER; bit <= NS_TO_CUSTOM; bit <<= 1)
        if (d->audiences & bit) ns_write_bits(w, (to & bit) != 0, 1);
}

static inline unsigned ns__read_audience(ns_reader *r, const ns__defaults *d)
{
    unsigned to = 0;
    for (unsigned bit = NS_TO_OWNER; bit <= NS_TO_CUSTOM; bit <<= 1)
        if ((d->audiences & bit) && ns_read_bits(r, 1)) to |= bit;
    return to;
}

#define NS__IN_FULL  1u /* some field of the component is sent to the audience */
#define NS__IN_DELTA 2u /* ... and is not @initial, so records with baselines can carry it too */

/* True when a record (with or without baselines) has a presence bit for slot comp: a component
 * that can send nothing to `to` in such a record has none, and equals its reference. */
static inline bool ns__carries(const ns__defaults *d, uint32_t comp, ns_audience to, bool baselines)
{
    return (d->visible[comp][to] & (baselines ? NS__IN_DELTA : NS__IN_FULL)) != 0;
}

ns_status ns__defaults_init(ns__defaults *d, const ns_schema *s);
void ns__defaults_free(ns__defaults *d);

/* The component baselines of slot i: the entity baselines with each pointer moved to it. */
static inline ns_baselines ns__part(const ns_baselines *b, uint32_t off)
{
    ns_baselines p = *b;
    for (uint32_t k = 0; k < b->count; k++) p.snap[k] = (const uint8_t *)b->snap[k] + off;
    return p;
}

/* What ns__body_write reports about the presence bits it wrote first. */
typedef struct ns__presence {
    uint32_t present;  /* bit i: slot i was written */
    uint32_t bits;     /* presence bits written: one per slot the record can carry */
} ns__presence;

/* Writes an entity body: one presence bit per component the record can carry (1: written, 0:
 * equal to its reference, baseline 0 or the defaults), then each present component against the
 * baselines. Adds the bits of the component writes to *payload_bits; fills *pres if not NULL. */
ns_status ns__body_write(ns_writer *w, const ns_schema *s, const ns__defaults *d, const ns__layout *l,
                         const uint8_t *cur, const ns_baselines *b, ns_audience to, size_t *payload_bits,
                         ns__presence *pres);

/* Reads a body into out (l->size bytes); absent components are copied from their reference.
 * With types (a group's presence mask, bit c: schema component c), the body has no presence
 * bits: a slot the record can carry is present when its type's bit is set. */
ns_status ns__body_read(ns_reader *r, const ns_schema *s, const ns__defaults *d, const ns__layout *l, uint8_t *out,
                        const ns_baselines *b, ns_audience to, const uint64_t *types);

/* Presence masks by type fit schemas of up to this many components. */
#define NS__MASK_TYPES 64u

/* A group's presence mask: n bits (n <= NS__MASK_TYPES), bit c for schema component c. */
void ns__write_types(ns_writer *w, uint64_t types, uint32_t n);
uint64_t ns__read_types(ns_reader *r, uint32_t n);

/* Copies nbits bits from a buffer written by an ns_writer, starting at bit `from`, into w. */
void ns__copy_bits(ns_writer *w, const uint8_t *src, size_t from, size_t nbits);

/* Skips nbits bits of r. */
void ns__skip_bits(ns_reader *r, size_t nbits);

/* True if tick a is newer than tick b (wrap-around safe). */
static inline bool ns__newer(uint32_t a, uint32_t b)
{
    return a != b && a - b < 0x80000000u;
}

/* True if two tick sets share a tick. */
bool ns__ticksets_meet(const ns_tickset *a, const ns_tickset *b);

/* ---- the server's world ---- */

enum { NS__FREE, NS__ALIVE, NS__DEAD };                       /* an entity slot */
/* What a connection knows of an entity. COOLING: the client acked a despawn; the entity may
 * not be spawned on it again for reorder_window ticks, so that no late packet of the old spawn
 * can reach the client after the new one (docs/replication.md, "Ids and re-entry"). */
enum { NS__NONE, NS__SPAWNING, NS__LIVE, NS__DESPAWNING, NS__COOLING };

typedef struct ns__entity {
    uint8_t     state;
    uint8_t     has_pos;
    int32_t     owner;
    float       importance;
    float       pos[3];
    uint32_t    changed;      /* newest recorded tick whose state differs from the one before */
    uint32_t    recorded;     /* newest recorded tick (valid once hist.held != 0) */
    ns__layout *layout;       /* its components; one allocation with cur (not in the slot: a
                                 world has max_entities slots, most of them free) */
    uint8_t    *cur;          /* the state being set for the next tick */
    ns_history  hist;         /* recorded states by tick, over store */
    uint8_t    *store;
} ns__entity;

/* e's recorded state of tick t, where its history holds t for sure: its newest recorded tick,
 * or a tick it was sent at less than depth ticks ago (the world records every live entity at
 * every tick, and only a tick depth or more later evicts one). With a power-of-two depth this
 * skips reading the slot's tick (a cache miss per lookup in a large world); otherwise
 * ns_history_get checks it, since t % depth jumps where the 32-bit tick wraps. */
static inline const void *ns__state_at(const ns__entity *e, uint32_t t)
{
    const ns_history *h = &e->hist;
    return h->mask ? h->slots + (size_t)(t & h->mask) * h->size : ns_history_get(h, t);
}

/* What one connection knows of one entity: NS_REPL_LINK_BYTES at most. */
typedef struct ns__link {
    uint8_t    state;
    uint8_t    audience;      /* the audience its states were last written for */
    uint8_t    waiting;       /* wants to go out since `since` */
    uint8_t    mode;          /* NS_MODE_DEFAULT, NS_MODE_PREDICTED or NS_MODE_INTERPOLATED */
    uint32_t   since;         /* tick it last went out, began to wait, or began to cool */
    uint32_t   moved;         /* tick its audience last changed while the client held states of
                                 the old one (format 3's derived baselines avoid them); 0: never */
    ns_tickset sent;          /* ticks whose packet carried its state */
    ns_tickset event;         /* ticks whose packet carried its spawn or despawn */
} ns__link;

/* What both ends keep of a format-2 packet for later packets to refer to: the ids it carried
 * (spawns and updates, ascending), which a group whose newest baseline is this packet's tick may
 * name as a subset, and its reference group (the one with the most records, the first of
 * those): its baseline ticks and presence by type, which such a group may repeat. */
typedef struct ns__idlist {
    uint32_t  tick;
    bool      valid;          /* holds packet `tick` */
    uint32_t  count, cap;
    uint32_t *id;
    uint32_t  ref_count;      /* the reference group's baselines, 0 if none (or no group) */
    uint32_t  ref_tick[3];
    bool      ref_by_type;    /* its presence by type, and the mask */
    uint64_t  ref_types;
    uint64_t  ladder;         /* format 3: its update section's ladder, bit i: tick `tick` − 1 − i */
} ns__idlist;

/* The baselines of a format-2 group that repeats the reference group of the packet of its
 * newest baseline b0 (ref): b0, then ref's group's first ones, at most three. */
static inline uint32_t ns__chain(const ns__idlist *ref, uint32_t b0, uint32_t ticks[3])
{
    uint32_t n = 1;
    ticks[0] = b0;
    for (uint32_t i = 0; i < ref->ref_count && n < 3; i++) ticks[n++] = ref->ref_tick[i];
    return n;
}

/* How a format-2 group names its ids (docs/replication.md section 2): '1' every id the packet of
 * its newest baseline carried, '01' a bit per id of that packet, '00' count and gaps. */
enum { NS__IDS_ALL, NS__IDS_MASK, NS__IDS_GAPS };

/* A format-2 group's header as read. */
typedef struct ns__group2_header {
    uint32_t          ticks[3], count; /* its baselines */
    bool              repeat;          /* baselines and presence repeat ref's reference group */
    bool              by_type;
    uint64_t          types;
    uint8_t           ids;             /* NS__IDS_* */
    uint32_t          n;               /* NS__IDS_GAPS: the record count - 1 */
    const ns__idlist *ref;             /* the packet of ticks[0], when the group refers to it */
} ns__group2_header;

/* Reads a format-2 group header of packet `tick` (docs/replication.md section 2), up to its id
 * mask; steady: the packet's header said it all, the newest baseline's gap was gap0. The lists
 * (a ring of nlists) are the reader's packets; NS_ERR_BASELINE when the group refers to one it
 * does not hold. */
ns_status ns__read_group2(ns_reader *in, const ns_schema *s, const ns_model *dense, const ns__idlist *lists,
                          uint32_t nlists, uint32_t tick, bool steady, uint32_t gap0, ns__group2_header *h);

/* Format 3's update section header as read (docs/replication.md section 2, "Format 3"): the
 * ladder, the ids' form and the presence by type; ref is the packet of the ladder's newest tick
 * when the section names it. Presence by type and ids "all" or "mask" as format 2's group. */
typedef struct ns__section3_header {
    uint64_t          ladder;          /* bit i: tick `tick` − 1 − i */
    bool              by_type;
    uint64_t          types;
    uint8_t           ids;             /* NS__IDS_* */
    uint32_t          n;               /* NS__IDS_GAPS: the record count - 1 */
    uint32_t          drop;            /* bits of ref's ladder dropped (from_ref) */
    bool              from_ref;        /* the ladder continues ref's */
    bool              by_rtt;          /* format 4: ref was named by the round trip ... */
    int               rtt_change;      /* ... that changed by this many ticks (-1, 0, 1) since ref */
    bool              run;             /* format 4: the ladder is ref's tick and the ones just before */
    bool              same_presence;   /* the presence by type is ref's */
    bool              toggled;         /* format 5: ref's presence by type with one type toggled */
    bool              dense;           /* need_dense: its id gaps are in the dense model */
    const ns__idlist *ref;
} ns__section3_header;

/* What a packet's first bits said of its crowd's section: nothing (not a steady packet), that it
 * continues ref's with ref's presence by type (formats 2 to 5), or that it continues ref's and
 * its presence code follows the newest tick's name, less its first bit (format 5). */
enum { NS__STEADY_NO, NS__STEADY_SAME, NS__STEADY_NEW };

/* Reads the update section header (format 3's, 4's or 5's: `format`) of packet `tick`, up to its
 * id mask; crowd: the crowd's section (else the rest's); steady: what the packet's first bits said
 * of it (NS__STEADY_*). need_dense: no gaps came before (no events), so a section with id gaps
 * says their model. Ladder ticks must lie within history_depth − 1 ticks of the packet
 * (NS_ERR_BASELINE); the lists are the reader's packets (NS_ERR_BASELINE when the section names
 * one it does not hold). */
ns_status ns__read_section3(ns_reader *in, const ns_schema *s, const ns_model *dense, const ns__idlist *lists,
                            uint32_t nlists, uint32_t tick, uint32_t history_depth, unsigned steady, bool need_dense,
                            uint32_t format, bool crowd, ns__section3_header *h);

/* Reads a packet's first bits in `format`: the short-tick bit, the tick (its low tick_bits bits
 * when short, as sent) and, from format 2 on, the steady bit; format 5 codes them together
 * (docs/replication.md section 2, "Format 5": '1' a short tick and a steady packet with ref's
 * presence by type, '01' a short tick, '001' a short tick and a steady packet whose presence
 * code follows, '000' a full tick, never steady). Returns NS__STEADY_*. */
unsigned ns__read_start(ns_reader *in, uint32_t format, unsigned tick_bits, bool *short_tick, uint32_t *tick);

/* Format 5's steady packet with new presence codes it after the crowd's newest tick's name: '1'
 * ref's presence by type with one type toggled, then that type's index, '0' then format 3's
 * by-type bit and mask. The index takes this many bits: ceil(log2 ntypes), 0 for one type. */
static inline unsigned ns__type_index_bits(uint32_t ntypes)
{
    unsigned b = 0;
    while (ntypes > 1u && (1u << b) < ntypes) b++;
    return b;
}

/* Format 3's event counts (despawns, spawns, updates without baselines), each in the dense model.
 * Format 4 (format4) codes the three commonest first: '1' one spawn, '01' one despawn, '001' one
 * of each, '000' then format 3's counts. */
void ns__read_counts3(ns_reader *in, const ns_model *dense, bool format4, uint32_t counts[3]);
void ns__write_counts3(ns_writer *out, const ns_model *dense, bool format4, const uint32_t counts[3]);

/* Format 4: whether the packet of list l, d + 1 ticks before a packet whose newest ladder tick it
 * may be, was written with acks as old as that packet's (d + 1 ticks) less `change`: the newest
 * tick of its own crowd's ladder lay d + 1 - change ticks before it. A section names its packet P
 * by the change alone (one bit when it is 0) when P is the newest such packet
 * (docs/replication.md section 2, "Format 4"). */
static inline bool ns__round_trip_kept(const ns__idlist *l, uint32_t d, int change)
{
    return l->ladder != 0 && (int64_t)ns__lowest_bit(l->ladder) == (int64_t)d - change;
}

/* Set bits of m (a ladder holds a few). */
static inline uint32_t ns__count_bits(uint64_t m)
{
    uint32_t n = 0;
    for (; m; m &= m - 1u) n++;
    return n;
}

/* ref's ladder as bits of a packet whose ladder's newest tick (ref's packet) is gap0 + 1 before
 * it: ref's ticks, re-counted from the new packet's tick. */
static inline uint64_t ns__ladder_shift(const ns__idlist *ref, uint32_t gap0)
{
    return gap0 + 1u < 64u ? ref->ladder << (gap0 + 1u) : 0;
}

/* The ladder of a section continuing ref's, with the newest tick gap0 + 1 before the packet and
 * `drop` of ref's oldest ticks left out. */
uint64_t ns__ladder_from(const ns__idlist *ref, uint32_t gap0, uint32_t drop);

/* Whether format 4's crowd continuing ref's (ref's tick gap0 + 1 before the packet) takes the
 * run: when this packet's acks and ref's were both more than a tick old (a long round trip:
 * ref's ladder is as old as the acks it saw, so it says nothing of the ticks just before ref). */
static inline bool ns__ladder_runs(const ns__idlist *ref, uint32_t gap0)
{
    return gap0 > 0 && ref->ladder && !(ref->ladder & 1u);
}

/* The ladder of format 4's crowd that continues ref's (ref's tick gap0 + 1 before the packet):
 * the run, ref's tick and the ticks just before it, as many in all as ref's ladder had ticks (3
 * at most), or 0 when they do not all lie within span ticks of the packet; else format 3's, ref's
 * tick and ref's ladder less its oldest tick. */
static inline uint64_t ns__ladder_next4(const ns__idlist *ref, uint32_t gap0, uint32_t span)
{
    if (!ns__ladder_runs(ref, gap0)) return ns__ladder_from(ref, gap0, 1);
    const uint32_t n = ns__count_bits(ref->ladder) < 3u ? ns__count_bits(ref->ladder) : 3u;
    return gap0 + n <= span ? ((UINT64_C(1) << n) - 1u) << gap0 : 0;
}

/* Slots of a ring of lists that keeps at least `ticks` ticks: a power of two, so that tick t's
 * slot t % n runs on without a jump where the 32-bit tick wraps. */
static inline uint32_t ns__idlist_slots(uint32_t ticks)
{
    uint32_t n = 1;
    while (n < ticks) n <<= 1;
    return n;
}

/* Frees the lists of a ring of n. */
void ns__idlists_free(ns__idlist *lists, uint32_t n);

/* The list of packet `tick` in a ring of n, or NULL when the ring does not hold it. */
static inline const ns__idlist *ns__idlist_get(const ns__idlist *lists, uint32_t n, uint32_t tick)
{
    const ns__idlist *l = lists ? &lists[tick % n] : NULL;
    return l && l->valid && l->tick == tick ? l : NULL;
}

/* Room for `count` ids in the slot of `tick` (its ids are kept until ns__idlist_set); false when
 * out of memory. */
bool ns__idlist_reserve(ns__idlist *lists, uint32_t n, uint32_t tick, uint32_t count);

typedef struct ns__conn {
    bool            used;
    bool            wrote;    /* a packet went out: last is valid */
    uint32_t        last;     /* tick of the newest packet written */
    ns_tickset      acked;    /* packets the client applied */
    uint32_t        rtt8;     /* the smoothed round trip in ticks, times 8 (0: none measured) */
    bool            custom;   /* the application's condition flag (NS_TO_CUSTOM) */
    ns_relevancy_fn relevant;
    void           *ctx;
    float           view[3];
    ns__link       *links;    /* per id below nlinks (the ids above are free: no link) */
    uint32_t        nlinks;   /* the world's id_end rounded up to a power of two (at least 64,
                                 at most max_entities), grown as spawns raise id_end */
    ns__idlist     *lists;    /* format 2: the ids of the packets written, history_depth slots */
} ns__conn;

enum { NS__DESPAWN, NS__SPAWN, NS__UPDATE };                  /* a record's kind */

/* One record a write considers. */
typedef struct ns__pick {
    uint32_t     id;
    uint8_t      kind;
    uint8_t      audience;
    float        priority;
    ns_baselines base;        /* updates: the group key is (base.count, base.tick[]) */
    size_t       at, bits;    /* the body in the scratch buffer */
    size_t       payload;     /* bits of component writes in the body */
    ns__presence pres;        /* the body's leading presence bits */
    uint8_t      lazy;        /* updates: base is chosen when the record is tried */
    uint8_t      section;     /* format 3 updates: 0 without baselines, 1 the crowd's section, 2
                                 the rest's (repl_write3.c) */
} ns__pick;

/* A candidate in the write's priority order, as one key (repl_write.c, heap_key): the
 * priority's float bits above, UINT32_MAX − its index into ns_world.pick below. */
typedef uint64_t ns__heap_entry;

struct ns_world {
    ns_world_config  cfg;
    ns_model         dense;       /* the dense id-gap model */
    const ns_schema *schema;
    ns__defaults     defaults;
    uint32_t        *interval;    /* per schema component: record every interval ticks */
    ns__entity      *ent;         /* max_entities */
    uint32_t         alive;
    uint32_t         id_end;      /* 1 + the highest id not free: every scan of ids stops there
                                     (ids are handed out lowest first, so it follows the peak of
                                     entities alive, not max_entities) */
    uint64_t        *free_ids;    /* bit i of word i / 64: id i is free (lowest first) */
    ns__idset        pkt_ids;     /* the ids of the packet being written, empty between writes */
    ns__conn        *conn;        /* max_connections */
    uint32_t         tick;
    bool             ticked;
    /* scratch for ns_world_write: a write considers at most one record per id below id_end */
    uint32_t         npicks;      /* room in pick, heap and chosen: id_end rounded up as a
                                     connection's links are (repl_world.c, links_for) */
    ns__pick        *pick;        /* npicks */
    ns__heap_entry  *heap;        /* npicks: candidates by priority, then the packet's sort keys */
    ns__pick        *chosen;      /* npicks: copies of the picks that go into the packet */
    uint64_t        *groups;      /* signature table for the packet being filled */
    uint32_t         group_cap;
    uint8_t         *scratch;     /* encoded bodies */
    size_t           scratch_cap;
};

/* Sends before now − age_cap keep an unchanged entity skipped; older ones are refreshed. */
static inline uint32_t ns__age_cap(const ns_world *w)
{
    return w->cfg.history_depth / 2;
}

/* The audience connection `conn` gets for e, through link l: owner or not, predicting (its
 * mode, by default the owner's), its condition flag; only the bits the schema's fields test, so
 * that a change of bits no field reads never throws baselines away. */
static inline ns_audience ns__audience(const ns_world *w, const ns__entity *e, uint32_t conn, const ns__link *l)
{
    const bool owner = e->owner == (int32_t)conn;
    const bool predicted = l->mode == NS_MODE_DEFAULT ? owner : l->mode == NS_MODE_PREDICTED;
    unsigned to = (owner ? NS_TO_OWNER : 0u) | (predicted ? NS_TO_PREDICTED : 0u) | (w->conn[conn].custom ? NS_TO_CUSTOM : 0u);
    return (ns_audience)(to & w->defaults.audiences);
}

/* Frees the entity slot's storage and marks it FREE (server). */
void ns__entity_release(ns_world *w, ns_entity_id id);

/* ---- the packet's header, both sides ---- */

#define NS__HDR_SIZES 1u  /* flag: every entity record carries its size in bits */
#define NS__HDR_DENSE 2u  /* flag: id gaps use the dense model (a gap of 0 costs 1 bit) */
#define NS__HDR_EVENTS 4u /* flag: the despawn and spawn counts follow (else both are 0) */
#define NS__HDR_BITS  3u

/* Format 2's header: only the dense and events flags (the handshake says whether records carry
 * their sizes). */
#define NS__HDR2_DENSE 1u
#define NS__HDR2_EVENTS 2u
#define NS__HDR2_BITS 2u

/* 0 (not set) means format 1. */
static inline uint32_t ns__packet_format(uint32_t f)
{
    return f == 0 ? NS_PACKET_FORMAT_1 : f;
}

/* Format 2's short tick: its low ns__tick_bits(reorder_window) bits, read as the tick nearest
 * the client's newest applied one, within half = 2^(bits - 1) >= 2 * reorder_window below it and
 * half - 1 above. The server writes them when the newest tick the client acked is less than
 * half ticks old: the client's newest lies between that and the packet. A packet late by up to
 * half ticks is read right (and refused as stale beyond reorder_window). */
static inline unsigned ns__tick_bits(uint32_t reorder_window)
{
    unsigned k = 1;
    while ((1u << (k - 1)) < 2u * reorder_window) k++;
    return k;
}

/* The short tick's bits: `set` (a config's short_tick_bits) when not 0, else ns__tick_bits.
 * More bits than needed widen the span, so that only a datagram delayed by half of it or more
 * can resolve to a newer tick than its own. */
static inline unsigned ns__short_tick_bits(uint32_t reorder_window, uint32_t set)
{
    return set ? (unsigned)set : ns__tick_bits(reorder_window);
}

/* A short_tick_bits a config may hold: 0, or from the derived bits up to 16. */
static inline bool ns__short_tick_bits_ok(uint32_t reorder_window, uint32_t set)
{
    return set == 0 || (set >= ns__tick_bits(reorder_window) && set <= 16u);
}

/* The packet's tick: 1 bit, then its low 16 bits when the client acked a packet less than
 * NS__SHORT_TICK_AGE ticks before it (the client then holds a newer tick, well within ±2^15 of
 * it, to extend them from), else all 32 bits. */
#define NS__SHORT_TICK_AGE 1024u

/* The id-gap model for packets whose ids run mostly consecutively: 0 costs 1 bit, 1 costs 3,
 * 2-3 cost 5, 4-7 6, 8-15 7, then longer than the default model's (docs/replication.md §2). */
ns_status ns__dense_model_init(ns_model *m);

#endif
