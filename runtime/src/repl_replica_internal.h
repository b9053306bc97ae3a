/* repl_replica_internal.h — the client replica's private structures, shared by the packet
 * reader (repl_replica.c) and the entity-reference bookkeeping (repl_refs.c). */
#ifndef NS_REPL_REPLICA_INTERNAL_H
#define NS_REPL_REPLICA_INTERNAL_H

#include "repl_internal.h"

enum { NS__R_NONE, NS__R_ALIVE, NS__R_GONE };
#define NS__SKIPPED 3 /* a record this client cannot use, skipped by its size */

typedef struct ns__rent {
    uint8_t    state;
    uint8_t    audience;              /* of the newest state applied */
    uint8_t    destroyed;             /* GONE: destroyed on the server, not just out of relevancy */
    uint8_t    queued;                /* in the replica's gone queue (each id at most once) */
    uint32_t   since;                 /* oldest packet tick of this spawn applied */
    uint32_t   newest;                /* newest tick applied to the live values */
    uint32_t   gone;                  /* tick of the despawn */
    ns__layout layout;
    ns_history ring;
    uint8_t   *ring_audience;         /* the audience of each ring slot, inside mem */
    uint8_t   *live;                  /* the live values, inside mem: one per component in the
                                         layout's order, each 16-byte aligned (ns__live_value) */
    uint8_t   *mem;                   /* ring storage, ring audiences, the live values, refs */
    uint32_t  *ref;                   /* per reference slot of its components, in order (one per
                                         entity field, `capacity` per collection entry, see
                                         ns__refs_slots): the target's id + 1 (NS__REF_PENDING
                                         while it is not spawned here), 0 for none; inside mem */
    uint32_t   nref;
} ns__rent;

/* Bytes a live value of component `ops` takes in an entity's mem: its size, 16-byte aligned. */
static inline size_t ns__value_room(const ns_component_ops *ops)
{
    return (ops->desc->value_size + 15u) & ~(size_t)15u;
}

/* The live value of e's component i (of its layout). Offsets are summed, not stored: 64 bytes
 * of offsets in every id's record cost more than a few additions of value sizes. */
static inline uint8_t *ns__live_value(const ns_schema *s, const ns__rent *e, uint32_t i)
{
    size_t at = 0;
    for (uint32_t j = 0; j < i; j++) at += ns__value_room(&s->components[e->layout.comp[j]]);
    return e->live + at;
}

#define NS__REF_PENDING 0x80000000u

/* An entry of the replica's gone queue: an entity and the tick of its despawn when queued. */
typedef struct ns__gone {
    uint32_t id, tick;
} ns__gone;

/* What phase 1 keeps of a spawn record: its layout and, when the entity will spawn, its storage,
 * allocated while the packet is read so that running out of memory refuses the packet (which is
 * then not acked, and the server sends the spawn again) instead of losing the spawn. */
typedef struct ns__spawn_prep {
    ns__layout layout;
    uint8_t   *mem;
    size_t     ring, values;          /* mem's parts: ring and audiences, live values, then refs */
    uint32_t   nref;
} ns__spawn_prep;

/* One decoded record, waiting for the packet to prove whole. */
typedef struct ns__rrec {
    uint8_t    kind;
    uint8_t    audience;
    uint8_t    destroyed;             /* despawns */
    uint8_t    prepared;              /* spawns: storage allocated while reading (ns__spawn_prep) */
    uint32_t   id;
    size_t     at;                    /* decoded state in scratch */
    size_t     lay;                   /* spawns: their ns__spawn_prep in scratch (kept out of
                                         the record, of which the replica has one per id) */
} ns__rrec;

struct ns_replica {
    ns_replica_config cfg;
    ns_model          dense;           /* the dense id-gap model */
    const ns_model   *gaps;            /* the packet being read: its id-gap model */
    const ns_schema  *schema;
    ns__defaults      defaults;
    ns__rent         *ent;
    uint32_t         *stamp;           /* per id: the packet serial that last named it */
    ns__idset         pkt_ids;         /* the ids of the packet being applied, empty between packets
                                          (remember_ids) */
    uint32_t          serial;
    ns__rrec         *rec;
    uint32_t          nrec, count;
    uint32_t          nprepared;       /* records of the packet being read with prepared storage */
    ns__gone         *gone;            /* entities despawned here, oldest first, for collect(): a
                                          ring of max_entities slots, enough as each id is in it once */
    uint32_t          gone_head, gone_len;
    ns_tickset        received;
    uint32_t          heard;           /* compact acks: a tick the server is known to hold an ack
                                          of (a baseline it used), the newest such; valid when */
    bool              heard_known;     /* ... this is set (repl_ack.c) */
    uint32_t          pkt_heard;       /* ... the same for the packet being read, until it */
    bool              pkt_heard_known; /*     proves whole */
    const void      **hooks;           /* per schema component */
    void            **hook_ctx;
    ns_entity        *handle;          /* per id: the application's handle, 0 for id + 1 */
    uint8_t          *refsnap;         /* a snapshot with its references resolved, for _apply */
    uint32_t          npending;        /* references waiting for their entity to spawn */
    uint32_t          nholders;        /* spawned entities with entity fields: each_ref's work */
    ns__idset         holders;         /* their ids */
    ns__idset         alive;           /* the ids of the spawned entities (ns_replica_each) */
    uint8_t          *scratch;
    size_t            scratch_cap, scratch_used;
    ns__idlist       *lists;           /* format 2: the ids of the packets applied, one slot per
                                          ring tick (history_depth + reorder_window) */
    ns__idlist        note;            /* the packet being read: its reference group so far */
    uint32_t          note_records;    /* ... and that group's records */
    uint32_t          format;          /* the packet format it reads, NS_PACKET_FORMAT_1 to _5 (from
                                          2 on, lists are set too) */
    uint8_t           steady;          /* the packet being read is a steady packet: NS__STEADY_* */
    bool              told;            /* ... format 3: it said its id gaps' model already */
    uint32_t          gap0;            /* ... and its newest baseline's gap */
};

/* e when entity id is spawned on this client, else NULL. */
static inline const ns__rent *ns__held(const ns_replica *r, ns_entity_id id)
{
    return id < r->cfg.max_entities && r->ent[id].state == NS__R_ALIVE ? &r->ent[id] : NULL;
}

/* A record's derived baselines (format 3): the up to three newest ticks of the ladder of packet
 * `tick` (bit g: tick - 1 - g) at which e's ring holds a state, newest first, and those states;
 * their count. Why they are the record's baselines: repl_ladder.c. For the replica's reader and
 * the dump alike. */
static inline uint32_t ns__derive_baselines(uint64_t ladder, uint32_t tick, const ns__rent *e, uint32_t ticks[3],
                                            const void *snaps[3])
{
    uint32_t n = 0;
    while (ladder && n < 3) {
        uint32_t t = tick - 1u - ns__lowest_bit(ladder);
        ladder &= ladder - 1u;
        if ((snaps[n] = ns_history_get(&e->ring, t)) != NULL) ticks[n++] = t;
    }
    return n;
}

/* The packet being read shows that the server held an ack of `tick` when it wrote it (a
 * baseline it coded against, or what its short tick implies): compact acks start after it. */
static inline void ns__heard(ns_replica *r, uint32_t tick)
{
    if (!r->pkt_heard_known || ns__newer(tick, r->pkt_heard)) r->pkt_heard = tick, r->pkt_heard_known = true;
}

/* ---- entity references (repl_refs.c) ---- */

/* The reference slots component `ops` needs in ns__rent.ref: one per plain entity field, the
 * capacity of each collection entry (slot p follows the live collection's element p). */
uint32_t ns__refs_slots(const ns_component_ops *ops);

/* Component `ops` of e's snapshot `snap` (of packet `tick`) with its references resolved, in
 * r->refsnap; records each reference's state in e->ref from index *k on (*k advances by
 * ns__refs_slots(ops); slots of absent collection elements become 0). */
const uint8_t *ns__refs_resolve(ns_replica *r, ns__rent *e, const ns_component_ops *ops, const uint8_t *snap,
                                uint32_t tick, uint32_t *k);

/* Entity id was despawned while this client did not hold it: if it was destroyed, references
 * waiting for it never resolve (its id may be reused later). */
void ns__refs_unheld_despawn(ns_replica *r, uint32_t id, bool destroyed);

/* Held entity e (id) is despawned: its own pending references stop counting, and what pointed at
 * it reads 0, for good if it was destroyed, else until it comes back. */
void ns__refs_despawn(ns_replica *r, uint32_t id, ns__rent *e, bool destroyed);

/* Held entity id has reference slots: it joins the holders that each_ref visits. */
void ns__refs_hold(ns_replica *r, uint32_t id);

/* Entity id spawned: references waiting for it resolve (on_resolve is called for each). */
void ns__refs_spawn(ns_replica *r, uint32_t id);

#endif
