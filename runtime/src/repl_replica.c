/* repl_replica.c — the client's replica of the world: reads snapshot packets in two phases
 * (decode and check everything, then apply), so a packet that fails changes nothing, and
 * writes the acks. Each entity keeps a ring of its states by tick, history_depth +
 * reorder_window long: a packet up to reorder_window ticks late still finds its baselines
 * (docs/replication.md, "How much history a receiver needs"). */
#include <stdlib.h>
#include <string.h>

#include <netschema/packed.h>

#include "repl_replica_internal.h"

static uint32_t ring_depth(const ns_replica *r);

static ns_replica *fail(ns_replica *r, ns_status *status, ns_status s)
{
    ns_replica_destroy(r);
    if (status) *status = s;
    return NULL;
}

ns_replica *ns_replica_create(const ns_replica_config *cfg, ns_status *status)
{
    if (!cfg || !cfg->schema || cfg->max_entities == 0 || cfg->max_entities > (1u << 24) || cfg->history_depth < 2 ||
        cfg->reorder_window == 0 || cfg->history_depth + cfg->reorder_window > NS_HISTORY_MAX_DEPTH ||
        !ns__short_tick_bits_ok(cfg->reorder_window, cfg->short_tick_bits) ||
        (cfg->compact_acks && ns__packet_format(cfg->packet_format) < NS_PACKET_FORMAT_2))
        return fail(NULL, status, NS_ERR_ARGUMENT);
    ns_replica *r = calloc(1, sizeof *r);
    if (!r) return fail(NULL, status, NS_ERR_NOMEM);
    r->cfg = *cfg;
    r->schema = cfg->schema;
    if (ns__defaults_init(&r->defaults, r->schema) != NS_OK) return fail(r, status, NS_ERR_NOMEM);
    if (ns__dense_model_init(&r->dense) != NS_OK) return fail(r, status, NS_ERR_ARGUMENT);
    uint32_t n = cfg->max_entities, nc = r->schema->component_count ? r->schema->component_count : 1;
    r->ent = calloc(n, sizeof *r->ent);
    r->stamp = calloc(n, sizeof *r->stamp);
    r->rec = calloc(n, sizeof *r->rec);
    r->hooks = calloc(nc, sizeof *r->hooks);
    r->hook_ctx = calloc(nc, sizeof *r->hook_ctx);
    r->handle = calloc(n, sizeof *r->handle);
    r->gone = calloc(n, sizeof *r->gone);
    bool sets = ns__idset_init(&r->holders, n);
    sets = ns__idset_init(&r->alive, n) && sets;
    sets = ns__idset_init(&r->pkt_ids, n) && sets;
    size_t snap_max = 1;
    for (uint32_t c = 0; c < r->schema->component_count; c++)
        if (r->schema->components[c].desc->snap_size > snap_max) snap_max = r->schema->components[c].desc->snap_size;
    r->refsnap = malloc(snap_max);
    if (cfg->packet_format > NS_PACKET_FORMAT_5) return fail(r, status, NS_ERR_ARGUMENT);
    r->format = ns__packet_format(cfg->packet_format);
    if (r->format >= NS_PACKET_FORMAT_2) {
        r->lists = calloc(ns__idlist_slots(ring_depth(r)), sizeof *r->lists);
        if (!r->lists) return fail(r, status, NS_ERR_NOMEM);
    }
    if (!r->ent || !r->stamp || !r->rec || !r->hooks || !r->hook_ctx || !r->handle || !r->gone || !sets || !r->refsnap)
        return fail(r, status, NS_ERR_NOMEM);
    if (status) *status = NS_OK;
    return r;
}

static void forget(ns__rent *e)
{
    free(e->mem);
    memset(e, 0, sizeof *e);
}

void ns_replica_destroy(ns_replica *r)
{
    if (!r) return;
    for (uint32_t i = 0; r->ent && i < r->cfg.max_entities; i++) free(r->ent[i].mem);
    ns__defaults_free(&r->defaults);
    free(r->ent);
    free(r->stamp);
    free(r->rec);
    free(r->hooks);
    free(r->hook_ctx);
    free(r->handle);
    free(r->gone);
    ns__idset_free(&r->holders);
    ns__idset_free(&r->alive);
    ns__idset_free(&r->pkt_ids);
    free(r->refsnap);
    free(r->scratch);
    ns__idlists_free(r->lists, ns__idlist_slots(ring_depth(r)));
    free(r);
}

ns_status ns_replica_set_hooks(ns_replica *r, uint32_t type, const void *hooks, void *ctx)
{
    int32_t c = ns_schema_component_index(r->schema, type);
    if (c < 0) return NS_ERR_UNKNOWN_ID;
    r->hooks[c] = hooks;
    r->hook_ctx[c] = ctx;
    return NS_OK;
}

/* States kept per entity: history_depth + reorder_window, rounded up to a power of two. The ring
 * keeps tick t in slot t % depth, which for another length jumps where the 32-bit tick wraps:
 * the states of the ticks before the wrap would be overwritten early, and the packets coded
 * against them refused (every format), or a format-3 ladder derived wrongly (repl_ladder.c). */
static uint32_t ring_depth(const ns_replica *r)
{
    return ns__idlist_slots(r->cfg.history_depth + r->cfg.reorder_window);
}

/* ---- phase 1: decode and check ---- */

/* Room for one more decoded state of `size` bytes in scratch; its offset, or SIZE_MAX. */
static size_t scratch_take(ns_replica *r, size_t size)
{
    size_t at = (r->scratch_used + 15u) & ~(size_t)15u;
    if (at + size > r->scratch_cap) {
        size_t cap = r->scratch_cap ? r->scratch_cap : 4096;
        while (cap < at + size) cap *= 2;
        uint8_t *p = realloc(r->scratch, cap);
        if (!p) return SIZE_MAX;
        r->scratch = p;
        r->scratch_cap = cap;
    }
    r->scratch_used = at + size;
    return at;
}

/* Reads the id gap of the next record of a run and marks the id: each id once per packet. */
static ns_status read_id(ns_replica *r, ns_reader *in, uint32_t *next, uint32_t *id)
{
    uint32_t gap = ns_read_packed_u32(in, r->gaps);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (gap >= r->cfg.max_entities || *next > r->cfg.max_entities - 1u - gap) return NS_ERR_RANGE;
    *id = *next + gap;
    *next = *id + 1;
    if (r->stamp[*id] == r->serial) return NS_ERR_DUPLICATE;
    r->stamp[*id] = r->serial;
    return NS_OK;
}

/* Checks that a body read exactly `size` bits when sizes are on. */
static ns_status check_size(ns_reader *in, bool sizes, size_t start, uint32_t size)
{
    if (ns_reader_failed(in)) return ns_reader_status(in);
    return !sizes || ns_reader_bits(in) - start == size ? NS_OK : NS_ERR_MALFORMED;
}

/* The parts of an entity's storage (mem): its ring and ring audiences, then its live values,
 * then its reference slots; returns the whole size. */
static size_t storage_of(const ns_replica *r, const ns__layout *l, size_t *ring, size_t *values, uint32_t *nref)
{
    *ring = (NS_HISTORY_BYTES(l->size, ring_depth(r)) + ring_depth(r) + 15u) & ~(size_t)15u;
    *values = 0, *nref = 0;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        *values += ns__value_room(&r->schema->components[l->comp[i]]);
        *nref += ns__refs_slots(&r->schema->components[l->comp[i]]);
    }
    return *ring + *values + (size_t)*nref * sizeof(uint32_t);
}

/* Whether a spawn of e at tick creates it here: not when it is held, nor when it is a late copy
 * of a spawn that a despawn already applied ended. */
static bool spawns_here(const ns__rent *e, uint32_t tick)
{
    return e->state != NS__R_ALIVE && !(e->state == NS__R_GONE && !ns__newer(tick, e->gone));
}

static ns_status read_spawn(ns_replica *r, ns_reader *in, bool sizes, uint32_t tick, ns__rrec *rec)
{
    rec->kind = NS__SPAWN;
    rec->audience = (uint8_t)ns__read_audience(in, &r->defaults);
    uint32_t n = ns_read_packed_u32(in, NULL) + 1u, types[NS_REPL_MAX_COMPONENTS], prev = 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (n > NS_REPL_MAX_COMPONENTS) return NS_ERR_CAPACITY;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = ns_read_packed_u32(in, NULL);
        if (i && v > UINT32_MAX - prev - 1u) return NS_ERR_RANGE;
        types[i] = i == 0 ? v : prev + v + 1u;
        prev = types[i];
    }
    uint32_t size = sizes ? ns_read_packed_u32(in, NULL) : 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    ns__layout l;
    ns_status st = ns__layout_init(&l, r->schema, types, n);
    if (st == NS_ERR_UNKNOWN_ID && sizes) { /* a component this client does not know: skip it */
        if (ns_reader_remaining_bits(in) < size) return NS_ERR_TRUNCATED;
        ns__skip_bits(in, size);
        rec->kind = NS__SKIPPED;
        return NS_OK;
    }
    if (st != NS_OK) return NS_ERR_MALFORMED;
    const ns__rent *e = &r->ent[rec->id];
    if (e->state == NS__R_ALIVE && memcmp(&e->layout, &l, sizeof l) != 0 /* zero-filled: ns__layout_init */) return NS_ERR_MALFORMED;
    rec->lay = scratch_take(r, sizeof(ns__spawn_prep));
    if (rec->lay == SIZE_MAX) return NS_ERR_NOMEM;
    ns__spawn_prep prep = {l, NULL, 0, 0, 0};
    memcpy(r->scratch + rec->lay, &prep, sizeof prep);
    rec->at = scratch_take(r, l.size);
    if (rec->at == SIZE_MAX) return NS_ERR_NOMEM;
    ns_baselines none = {.tick_now = tick};
    size_t start = ns_reader_bits(in);
    ns__body_read(in, r->schema, &r->defaults, &l, r->scratch + rec->at, &none, (ns_audience)rec->audience, NULL);
    st = check_size(in, sizes, start, size);
    if (st != NS_OK || !spawns_here(e, tick)) return st;
    prep.mem = calloc(1, storage_of(r, &l, &prep.ring, &prep.values, &prep.nref));
    if (!prep.mem) return NS_ERR_NOMEM;
    memcpy(r->scratch + rec->lay, &prep, sizeof prep);
    rec->prepared = 1;
    r->nprepared++;
    return NS_OK;
}

/* Frees the storage phase 1 allocated for the spawns of a packet that is refused. */
static void unprepare(ns_replica *r)
{
    for (uint32_t i = 0; r->nprepared && i < r->nrec; i++) {
        ns__rrec *rec = &r->rec[i];
        if (!rec->prepared) continue;
        ns__spawn_prep *p = (ns__spawn_prep *)(void *)(r->scratch + rec->lay);
        free(p->mem);
        p->mem = NULL;
        rec->prepared = 0;
        r->nprepared--;
    }
}

/* Finds the baselines of an update to e in e's ring; false if any is missing. */
static bool ring_baselines(const ns__rent *e, const uint32_t *ticks, uint32_t count, uint32_t now, ns_baselines *b)
{
    b->count = count;
    b->tick_now = now;
    for (uint32_t i = 0; i < count; i++) {
        b->tick[i] = ticks[i];
        b->snap[i] = ns_history_get(&e->ring, ticks[i]);
        if (!b->snap[i]) return false;
    }
    return true;
}

static uint8_t ring_audience(const ns__rent *e, uint32_t tick)
{
    return e->ring_audience[tick % e->ring.depth];
}

/* Reads an update against the baselines ticks[0, count), or with a ladder (format 3's section:
 * count is 0) against those the entity's ring derives from it. */
static ns_status read_update(ns_replica *r, ns_reader *in, bool sizes, uint32_t tick, const uint32_t *ticks,
                             uint32_t count, uint64_t ladder, const uint64_t *types, ns__rrec *rec)
{
    rec->kind = NS__UPDATE;
    uint32_t size = sizes ? ns_read_packed_u32(in, NULL) : 0;
    rec->audience = count == 0 && !ladder ? (uint8_t)ns__read_audience(in, &r->defaults) : 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    const ns__rent *e = &r->ent[rec->id];
    /* Only a state of the spawn the client holds, not older than it, can be decoded. */
    if (e->state == NS__R_NONE || !e->mem || ns__newer(e->since, tick)) { /* !mem: a despawn's mark */
        if (!sizes) return NS_ERR_UNKNOWN_ID;
        if (ns_reader_remaining_bits(in) < size) return NS_ERR_TRUNCATED;
        ns__skip_bits(in, size);
        rec->kind = NS__SKIPPED;
        return NS_OK;
    }
    ns_baselines b;
    if (ladder) { /* derived with their states: no second lookup */
        b.count = count = ns__derive_baselines(ladder, tick, e, b.tick, b.snap), ticks = b.tick;
        b.tick_now = tick;
        if (count == 0) return NS_ERR_BASELINE;
    } else if (!ring_baselines(e, ticks, count, tick, &b)) {
        return NS_ERR_BASELINE;
    }
    if (count) {
        ns__heard(r, ticks[0]); /* baselines are acked ticks, the newest first */
        rec->audience = ring_audience(e, ticks[0]);
        for (uint32_t i = 1; i < count; i++)
            if (ring_audience(e, ticks[i]) != rec->audience) return NS_ERR_BASELINE;
    }
    rec->at = scratch_take(r, e->layout.size);
    if (rec->at == SIZE_MAX) return NS_ERR_NOMEM;
    size_t start = ns_reader_bits(in);
    ns__body_read(in, r->schema, &r->defaults, &e->layout, r->scratch + rec->at, &b, (ns_audience)rec->audience, types);
    return check_size(in, sizes, start, size);
}

/* Reads a format-1 group: its baseline ticks, record count and presence, then its records. */
static ns_status read_group(ns_replica *r, ns_reader *in, uint32_t tick, bool sizes)
{
    uint32_t ticks[3], count, n;
    ns__read_ticks(in, tick, ticks, &count, &r->dense);
    n = ns_read_packed_u32(in, NULL);
    uint64_t types = 0;
    bool by_type = ns_read_bits(in, 1) != 0;
    if (by_type) {
        if (r->schema->component_count > NS__MASK_TYPES) return ns_reader_fail(in, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
        types = ns__read_types(in, r->schema->component_count);
    }
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (n >= r->cfg.max_entities - r->nrec) return NS_ERR_CAPACITY;
    uint32_t next = 0;
    for (uint32_t i = 0; i <= n; i++) {
        ns__rrec *rec = &r->rec[r->nrec++];
        ns_status st = read_id(r, in, &next, &rec->id);
        if (st == NS_OK) st = read_update(r, in, sizes, tick, ticks, count, 0, by_type ? &types : NULL, rec);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* A group's or section's ids (formats 2, 3): with gaps, checks room for its n + 1 records; taken
 * from ref (all, or those its mask picks), adds a record for each and sets *n to their count - 1.
 * Format 3 leaves out ref's ids the packet already named (despawns, spawns, updates without
 * baselines): they are stamped with this packet's serial. */
static ns_status read_ref_ids(ns_replica *r, ns_reader *in, uint8_t ids, const ns__idlist *ref, uint32_t *n)
{
    const uint32_t from = r->nrec;
    if (ids == NS__IDS_GAPS) return *n >= r->cfg.max_entities - r->nrec ? NS_ERR_CAPACITY : NS_OK;
    for (uint32_t j = 0; j < ref->count; j++) {
        if (r->format >= NS_PACKET_FORMAT_3 && r->stamp[ref->id[j]] == r->serial) continue;
        if (ids != NS__IDS_ALL && !ns_read_bits(in, 1)) continue;
        if (r->nrec >= r->cfg.max_entities) return NS_ERR_CAPACITY;
        ns__rrec *rec = &r->rec[r->nrec++];
        rec->id = ref->id[j];
        if (r->stamp[rec->id] == r->serial) return NS_ERR_DUPLICATE;
        r->stamp[rec->id] = r->serial;
    }
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (r->nrec == from) return NS_ERR_MALFORMED; /* a group has records */
    *n = r->nrec - from - 1u;
    return NS_OK;
}

/* How a group's or section's updates are read: their ids' form (and the packet they name), and
 * their baselines: ticks[0, count), or those each entity's ring derives from a ladder. */
typedef struct ns__run {
    uint8_t           ids;
    const ns__idlist *ref;
    const uint32_t   *ticks;
    uint32_t          count;
    uint64_t          ladder;
    const uint64_t   *types;   /* presence by type, or NULL */
} ns__run;

/* Reads the ids and records of a group or section (formats 2, 3); *n: with gaps, the record count
 * - 1 the header said; it becomes the count - 1 of the records read. */
static ns_status read_updates(ns_replica *r, ns_reader *in, uint32_t tick, bool sizes, const ns__run *run, uint32_t *n)
{
    const uint32_t from = r->nrec;
    ns_status st = read_ref_ids(r, in, run->ids, run->ref, n);
    if (st != NS_OK) return st;
    uint32_t next = 0;
    for (uint32_t i = 0; i <= *n; i++) {
        ns__rrec *rec = run->ids == NS__IDS_GAPS ? &r->rec[r->nrec++] : &r->rec[from + i];
        st = run->ids == NS__IDS_GAPS ? read_id(r, in, &next, &rec->id) : NS_OK;
        if (st == NS_OK) st = read_update(r, in, sizes, tick, run->ticks, run->count, run->ladder, run->types, rec);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* Reads format 3's update section (docs/replication.md section 2, "Format 3"): its header, its
 * ids, then its records, each against the baselines its ring derives from the ladder. */
static ns_status read_section3(ns_replica *r, ns_reader *in, uint32_t tick, bool sizes, bool crowd)
{
    ns__section3_header h;
    ns_status st = ns__read_section3(in, r->schema, &r->dense, r->lists, ns__idlist_slots(ring_depth(r)), tick,
                                     r->cfg.history_depth, crowd ? r->steady : NS__STEADY_NO, !r->told, r->format,
                                     crowd, &h);
    if (st != NS_OK) return st;
    if (!r->told && h.ids == NS__IDS_GAPS) r->gaps = h.dense ? &r->dense : NULL, r->told = true;
    const ns__run run = {h.ids, h.ref, NULL, 0, h.ladder, h.by_type ? &h.types : NULL};
    st = read_updates(r, in, tick, sizes, &run, &h.n);
    if (st != NS_OK) return st;
    if (crowd) { /* what later packets may refer to */
        r->note.ladder = h.ladder;
        r->note.ref_by_type = h.by_type;
        r->note.ref_types = h.by_type ? h.types : 0;
    }
    return NS_OK;
}

/* Reads a format-2 group (docs/replication.md section 2): its header, its ids (gaps, or taken
 * from the packet of its newest baseline), then its records; notes the packet's reference
 * group (the first with the most records) for later packets. */
static ns_status read_group2(ns_replica *r, ns_reader *in, uint32_t tick, bool sizes, bool steady, uint32_t gap0)
{
    ns__group2_header h;
    const uint32_t slots = ns__idlist_slots(ring_depth(r));
    ns_status st = ns__read_group2(in, r->schema, &r->dense, r->lists, slots, tick, steady, gap0, &h);
    if (st != NS_OK) return st;
    const ns__run run = {h.ids, h.ref, h.ticks, h.count, 0, h.by_type ? &h.types : NULL};
    st = read_updates(r, in, tick, sizes, &run, &h.n);
    if (st != NS_OK) return st;
    if (h.n + 1u > r->note_records) {
        r->note_records = h.n + 1u;
        r->note.ref_count = h.count;
        for (uint32_t i = 0; i < 3; i++) r->note.ref_tick[i] = i < h.count ? h.ticks[i] : 0;
        r->note.ref_by_type = h.by_type;
        r->note.ref_types = h.by_type ? h.types : 0;
    }
    return NS_OK;
}

static ns_status read_records(ns_replica *r, ns_reader *in, uint32_t tick, bool sizes, const uint32_t counts[3])
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < counts[0]; i++) { /* despawns */
        ns__rrec *rec = &r->rec[r->nrec++];
        rec->kind = NS__DESPAWN;
        ns_status st = read_id(r, in, &next, &rec->id);
        if (st != NS_OK) return st;
        rec->destroyed = (uint8_t)ns_read_bits(in, 1);
    }
    next = 0;
    for (uint32_t i = 0; i < counts[1]; i++) { /* spawns */
        ns__rrec *rec = &r->rec[r->nrec++];
        ns_status st = read_id(r, in, &next, &rec->id);
        if (st == NS_OK) st = read_spawn(r, in, sizes, tick, rec);
        if (st != NS_OK) return st;
    }
    if (r->format >= NS_PACKET_FORMAT_3) {
        next = 0;
        for (uint32_t i = 0; i < counts[2]; i++) { /* updates without baselines */
            ns__rrec *rec = &r->rec[r->nrec++];
            ns_status st = read_id(r, in, &next, &rec->id);
            if (st == NS_OK) st = read_update(r, in, sizes, tick, NULL, 0, 0, NULL, rec);
            if (st != NS_OK) return st;
        }
        /* The crowd's section (the steady packet's only one), then the rest's. */
        for (int crowd = 1; crowd >= 0 && !(r->steady && !crowd); crowd--) {
            if (!(crowd && r->steady) && !ns_read_bits(in, 1)) continue;
            ns_status st = read_section3(r, in, tick, sizes, crowd != 0);
            if (st != NS_OK) return st;
        }
        return ns_reader_status(in);
    }
    for (uint32_t g = 0; g < counts[2]; g++) { /* groups of updates sharing baselines */
        ns_status st = r->lists ? read_group2(r, in, tick, sizes, g == 0 && r->steady, r->gap0)
                                : read_group(r, in, tick, sizes);
        if (st != NS_OK) return st;
    }
    return ns_reader_status(in);
}

/* Format 2: keeps the ids packet `tick` carried (its spawns and updates, skipped ones too: the
 * server wrote them), for later packets to name by reference. Room was reserved in phase 1. */
static void remember_ids(ns_replica *r, uint32_t tick)
{
    ns__idlist *l = &r->lists[tick % ns__idlist_slots(ring_depth(r))];
    for (uint32_t i = 0; i < r->nrec; i++)
        if (r->rec[i].kind != NS__DESPAWN) ns__idset_add(&r->pkt_ids, r->rec[i].id);
    l->count = ns__idset_drain(&r->pkt_ids, l->id);
    l->tick = tick;
    l->ref_count = r->note.ref_count;
    memcpy(l->ref_tick, r->note.ref_tick, sizeof l->ref_tick);
    l->ref_by_type = r->note.ref_by_type;
    l->ref_types = r->note.ref_types;
    l->ladder = r->note.ladder;
    l->valid = true;
}

/* ---- phase 2: apply ---- */

static void store(ns__rent *e, uint32_t tick, const uint8_t *state, uint8_t audience)
{
    memcpy(ns_history_put(&e->ring, tick), state, e->layout.size);
    e->ring_audience[tick % e->ring.depth] = audience;
}

/* Brings e's live values to the state of `tick` (newest), calling hooks unless it spawns.
 * Entity references reach _apply resolved, so hooks compare handles with handles. */
static void apply_live(ns_replica *r, ns__rent *e, const uint8_t *state, uint32_t tick, bool hooks)
{
    uint32_t k = 0;
    uint8_t *live = e->live;
    for (uint32_t i = 0; i < e->layout.ncomp; i++) {
        uint32_t c = e->layout.comp[i];
        const ns_component_ops *ops = &r->schema->components[c];
        const uint8_t *snap = state + e->layout.off[i];
        if (ops->entity_field_count) snap = ns__refs_resolve(r, e, ops, snap, tick, &k);
        ops->apply(live, snap, hooks ? r->hooks[c] : NULL, hooks ? r->hook_ctx[c] : NULL);
        live += ns__value_room(ops); /* as ns__live_value */
    }
}

/* Creates e from its spawn record, in the storage phase 1 allocated (which e now owns). */
static void spawn(ns_replica *r, ns__rent *e, ns__rrec *rec, uint32_t tick)
{
    ns__spawn_prep *prep = (ns__spawn_prep *)(void *)(r->scratch + rec->lay);
    const ns__layout *l = &prep->layout;
    uint8_t *mem = prep->mem;
    const size_t ring = prep->ring, values = prep->values, hist = NS_HISTORY_BYTES(l->size, ring_depth(r));
    const uint32_t nref = prep->nref;
    prep->mem = NULL;
    rec->prepared = 0;
    r->nprepared--;
    const uint8_t queued = e->queued; /* its slot in the gone queue stays until collect() passes it */
    forget(e);
    e->queued = queued;
    e->mem = mem;
    e->layout = *l;
    e->live = mem + ring;
    ns_history_init(&e->ring, mem, l->size, ring_depth(r));
    e->ring_audience = mem + hist;
    e->ref = (uint32_t *)(void *)(mem + ring + values);
    e->nref = nref;
    uint8_t *live = e->live;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        const ns_component_ops *ops = &r->schema->components[l->comp[i]];
        ops->init(live);
        live += ns__value_room(ops); /* as ns__live_value */
    }
    e->state = NS__R_ALIVE;
    ns__idset_add(&r->alive, rec->id);
    if (nref) ns__refs_hold(r, rec->id);
    e->since = e->newest = tick;
    e->audience = rec->audience;
    r->count++;
}

/* Entity id is despawned here at tick: collect() frees it once no accepted packet can name it. */
static void mark_gone(ns_replica *r, ns__rent *e, uint32_t id, uint32_t tick)
{
    e->state = NS__R_GONE;
    e->gone = tick;
    if (e->queued) return; /* still in the queue from an earlier despawn: that slot serves */
    e->queued = 1;
    r->gone[(r->gone_head + r->gone_len++) % r->cfg.max_entities] = (ns__gone){id, tick};
}

static void apply_record(ns_replica *r, ns__rrec *rec, uint32_t tick)
{
    ns__rent *e = &r->ent[rec->id];
    if (rec->kind == NS__DESPAWN) {
        ns__refs_unheld_despawn(r, rec->id, rec->destroyed);
        if (e->state != NS__R_ALIVE) {
            /* Not held: remember the despawn, so that a copy of the spawn it ends, reordered
             * behind it, is refused below instead of creating an entity nothing will despawn. */
            if (e->state == NS__R_NONE) mark_gone(r, e, rec->id, tick);
            else if (ns__newer(tick, e->gone)) e->gone = tick;
            e->destroyed |= rec->destroyed;
            return;
        }
        if (!ns__newer(tick, e->since)) return; /* of an older spawn */
        if (r->cfg.on_despawn) r->cfg.on_despawn(r, rec->id, r->cfg.ctx);
        mark_gone(r, e, rec->id, tick);
        ns__idset_remove(&r->alive, rec->id);
        r->count--;
        e->destroyed = rec->destroyed;
        r->handle[rec->id] = 0;
        ns__refs_despawn(r, rec->id, e, rec->destroyed); /* after: e no longer refers to itself */
        return;
    }
    if (rec->kind != NS__SPAWN && rec->kind != NS__UPDATE) return; /* skipped by its size */
    const uint8_t *state = r->scratch + rec->at; /* only now: the scratch is NULL before any state */
    if (rec->kind == NS__SPAWN && e->state != NS__R_ALIVE) {
        if (!rec->prepared) return; /* a late copy of a despawned spawn (spawns_here) */
        spawn(r, e, rec, tick);
        store(e, tick, state, rec->audience);
        apply_live(r, e, state, tick, false);
        if (r->cfg.on_spawn) r->cfg.on_spawn(r, rec->id, r->cfg.ctx);
        ns__refs_spawn(r, rec->id);
        return;
    }
    /* A state of the spawn the client holds (a resent spawn is a full state). */
    store(e, tick, state, rec->audience);
    if (ns__newer(e->since, tick)) e->since = tick;
    if (e->state == NS__R_ALIVE && ns__newer(tick, e->newest)) {
        e->newest = tick;
        e->audience = rec->audience;
        apply_live(r, e, state, tick, true);
    }
}

/* Frees entities despawned so long ago that no packet still accepted can name them, from the
 * front of the gone queue: its work is what it frees, not max_entities (a client that sees a few
 * hundred of a million ids looked at every id each packet). The queue is in the order of the
 * despawns (within the reorder window: a late packet's despawn may be older than the one before
 * it), so the first entry that has not expired ends the pass. An entry whose despawn a resent
 * copy renewed goes to the back with its new tick; one that spawned again leaves the queue. */
static void collect(ns_replica *r)
{
    const uint32_t newest = r->received.newest, slots = r->cfg.max_entities;
    while (r->gone_len) {
        const ns__gone q = r->gone[r->gone_head];
        ns__rent *e = &r->ent[q.id];
        if (e->state == NS__R_GONE && e->gone == q.tick && newest - e->gone <= r->cfg.reorder_window) break;
        r->gone_head = (r->gone_head + 1) % slots;
        r->gone_len--;
        if (e->state != NS__R_GONE) e->queued = 0; /* spawned again */
        else if (e->gone == q.tick) forget(e);     /* expired */
        else r->gone[(r->gone_head + r->gone_len++) % slots] = (ns__gone){q.id, e->gone}; /* renewed */
    }
}

/* Reads a packet's header: its tick (resolved against the newest applied one when short), the
 * record sizes flag, the dense-ids flag, and the despawn, spawn and group counts. Format 2's
 * steady packet (one group, all said by the header) sets r->steady and r->gap0; format 5's first
 * bits say the short tick and the steady packet together. */
static ns_status read_header(ns_replica *r, ns_reader *in, uint32_t *tick, bool *sizes, bool *dense, uint32_t counts[3])
{
    const bool format2 = r->lists != NULL;
    const unsigned k = format2 ? ns__short_tick_bits(r->cfg.reorder_window, r->cfg.short_tick_bits) : 16u;
    bool short_tick;
    r->steady = (uint8_t)ns__read_start(in, r->format, k, &short_tick, tick);
    counts[0] = counts[1] = 0;
    /* format 3 on, steady: nothing more; else the events bit, and with it the gap model and counts */
    if (r->format >= NS_PACKET_FORMAT_3) {
        const bool events = !r->steady && ns_read_bits(in, 1);
        r->told = events;
        *sizes = r->cfg.entity_sizes;
        *dense = events && ns_read_bits(in, 1);
        counts[2] = 0;
        if (events) ns__read_counts3(in, &r->dense, r->format >= NS_PACKET_FORMAT_4, counts);
    } else if (r->steady) {
        r->gap0 = ns_read_packed_u32(in, &r->dense);
        *sizes = r->cfg.entity_sizes;
        *dense = false;
        counts[2] = 1;
    } else if (format2) {
        uint32_t flags = ns_read_bits(in, NS__HDR2_BITS);
        *sizes = r->cfg.entity_sizes;
        *dense = (flags & NS__HDR2_DENSE) != 0;
        if (flags & NS__HDR2_EVENTS) counts[0] = ns_read_packed_u32(in, NULL), counts[1] = ns_read_packed_u32(in, NULL);
        counts[2] = ns_read_bits(in, 1) ? 1u : ns_read_packed_u32(in, NULL); /* 1 bit for one group */
    } else {
        uint32_t flags = ns_read_bits(in, NS__HDR_BITS);
        *sizes = (flags & NS__HDR_SIZES) != 0;
        *dense = (flags & NS__HDR_DENSE) != 0;
        for (int i = flags & NS__HDR_EVENTS ? 0 : 2; i < 3; i++) counts[i] = ns_read_packed_u32(in, NULL);
    }
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (r->steady && r->format < NS_PACKET_FORMAT_3 && r->gap0 >= 0x7fffffffu)
        return ns_reader_fail(in, NS_ERR_BASELINE), NS_ERR_BASELINE;
    if (short_tick) { /* the tick nearest the newest applied with these low bits */
        if (!r->received.mask) return ns_reader_fail(in, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
        *tick = ns__resolve_tick(*tick, k, r->received.newest);
        /* written only while the newest ack the server held was less than 2^(k-1) ticks old */
        if (format2) ns__heard(r, *tick - (1u << (k - 1)) + 1u);
    }
    return NS_OK;
}

/* Reads a packet; with `whole`, the packet must end within the byte after its last record. */
static ns_status read_packet(ns_replica *r, ns_reader *in, bool whole)
{
    uint32_t tick, counts[3];
    bool sizes, dense;
    r->pkt_heard_known = false;
    ns_status st = read_header(r, in, &tick, &sizes, &dense, counts);
    if (st != NS_OK) return st;
    if (r->received.mask) {
        if (ns__newer(r->received.newest, tick) && r->received.newest - tick > r->cfg.reorder_window) return NS_ERR_STALE;
        if (ns_tickset_has(&r->received, tick)) return NS_OK; /* a duplicate: already applied */
    }
    /* counts[2]: from format 3 on, the updates without baselines, records beside the events */
    const uint32_t events = r->format >= NS_PACKET_FORMAT_3 ? counts[0] + counts[1] : 0u;
    if (counts[0] > r->cfg.max_entities || counts[1] > r->cfg.max_entities - counts[0] ||
        counts[2] > r->cfg.max_entities - events)
        return NS_ERR_CAPACITY;
    if (++r->serial == 0) { /* the stamps wrapped: start them over */
        memset(r->stamp, 0, (size_t)r->cfg.max_entities * sizeof *r->stamp);
        r->serial = 1;
    }
    r->nrec = 0;
    r->note_records = 0;
    memset(&r->note, 0, sizeof r->note);
    r->scratch_used = 0;
    r->gaps = dense ? &r->dense : NULL;
    st = read_records(r, in, tick, sizes, counts);
    if (st == NS_OK && whole && ns_reader_remaining_bits(in) >= 8) st = NS_ERR_MALFORMED;
    /* Format 2: room for this packet's ids, before anything changes (the slot keeps its ids). */
    if (st == NS_OK && r->lists && !ns__idlist_reserve(r->lists, ns__idlist_slots(ring_depth(r)), tick, r->nrec))
        st = NS_ERR_NOMEM;
    if (st != NS_OK) {
        unprepare(r);
        if (!ns_reader_failed(in)) ns_reader_fail(in, st);
        return st;
    }
    ns_tickset_add(&r->received, tick);
    if (r->pkt_heard_known && (!r->heard_known || ns__newer(r->pkt_heard, r->heard)))
        r->heard = r->pkt_heard, r->heard_known = true;
    for (uint32_t i = 0; i < r->nrec; i++) apply_record(r, &r->rec[i], tick);
    unprepare(r); /* a guard, free when every prepared spawn spawned (as expected: its entity is in
                     the same state in phase 2); no prepared flag may outlive its packet's scratch */
    if (r->lists) remember_ids(r, tick);
    collect(r);
    return NS_OK;
}

ns_status ns_replica_read(ns_replica *r, ns_reader *in)
{
    return read_packet(r, in, false);
}

ns_status ns_replica_read_packet(ns_replica *r, const void *buf, size_t len)
{
    ns_reader in;
    ns_reader_init(&in, buf, len);
    return read_packet(r, &in, true);
}

/* ---- inspection ---- */

bool ns_replica_has(const ns_replica *r, ns_entity_id e)
{
    return ns__held(r, e) != NULL;
}

bool ns_replica_is_owner(const ns_replica *r, ns_entity_id id)
{
    const ns__rent *e = ns__held(r, id);
    return e && (e->audience & NS_TO_OWNER) != 0;
}

ns_audience ns_replica_audience(const ns_replica *r, ns_entity_id id)
{
    const ns__rent *e = ns__held(r, id);
    return e ? (ns_audience)e->audience : NS_TO_OBSERVER;
}

const void *ns_replica_value(const ns_replica *r, ns_entity_id id, uint32_t type)
{
    const ns__rent *e = ns__held(r, id);
    int32_t i = e ? ns__layout_find(&e->layout, r->schema, type) : -1;
    return i < 0 ? NULL : ns__live_value(r->schema, e, (uint32_t)i);
}

const void *ns_replica_snap_at(const ns_replica *r, ns_entity_id id, uint32_t type, uint32_t tick)
{
    const ns__rent *e = ns__held(r, id);
    int32_t i = e ? ns__layout_find(&e->layout, r->schema, type) : -1;
    const uint8_t *s = i < 0 ? NULL : ns_history_get(&e->ring, tick);
    return s ? s + e->layout.off[i] : NULL;
}

const void *ns_replica_snap(const ns_replica *r, ns_entity_id id, uint32_t type, uint32_t *tick)
{
    const ns__rent *e = ns__held(r, id);
    if (!e) return NULL;
    if (tick) *tick = e->newest;
    return ns_replica_snap_at(r, id, type, e->newest);
}

uint32_t ns_replica_count(const ns_replica *r)
{
    return r->count;
}

uint32_t ns_replica_newest(const ns_replica *r)
{
    return r->received.newest;
}

/* The storage of one entity (storage_of), 0 when it has none. */
static size_t entity_bytes(const ns_replica *r, const ns__rent *e)
{
    size_t ring, values;
    uint32_t nref;
    return e->mem ? storage_of(r, &e->layout, &ring, &values, &nref) : 0;
}

size_t ns_replica_memory(const ns_replica *r)
{
    size_t n = sizeof *r + (size_t)r->cfg.max_entities * (sizeof *r->ent + sizeof *r->stamp + sizeof *r->rec + sizeof *r->handle + sizeof *r->gone) +
               3 * ns__idset_bytes(r->cfg.max_entities);
    n += r->scratch_cap;
    for (uint32_t i = 0; r->lists && i < ns__idlist_slots(ring_depth(r)); i++)
        n += sizeof *r->lists + (size_t)r->lists[i].cap * sizeof(uint32_t);
    /* Storage is held by the entities spawned here and by those despawned but not yet freed,
     * which wait in the gone queue (one that spawned again is in both: counted once). */
    for (uint32_t id = ns__idset_next(&r->alive, 0); id != UINT32_MAX; id = ns__idset_next(&r->alive, id + 1))
        n += entity_bytes(r, &r->ent[id]);
    for (uint32_t k = 0; k < r->gone_len; k++) {
        const ns__rent *e = &r->ent[r->gone[(r->gone_head + k) % r->cfg.max_entities].id];
        if (e->state == NS__R_GONE) n += entity_bytes(r, e);
    }
    return n;
}

void ns_replica_each(const ns_replica *r, void (*fn)(const ns_replica *r, ns_entity_id e, void *ctx), void *ctx)
{
    for (uint32_t id = ns__idset_next(&r->alive, 0); id != UINT32_MAX; id = ns__idset_next(&r->alive, id + 1))
        fn(r, id, ctx);
}
