/* repl_refs.c — entity references on the client: each `entity` reference of a held entity (a
 * field, a member of the union member a union holds, or an element of a list, of a map's
 * values, of a fast array or a fixed array) is
 * resolved to the target's handle when _apply sees it, waits (pending) while the target is not
 * spawned here, and is nulled or re-pended when the target despawns (docs/replication.md
 * section 13). */
#include <string.h>

#include "repl_replica_internal.h"

static ns_entity handle_of(const ns_replica *r, uint32_t id)
{
    return r->handle[id] ? r->handle[id] : id + 1;
}

/* What an entity field holding network reference v (0, or id + 1) in the packet of `tick`
 * reads on this client: the target's handle if it is spawned here; 0 if there is none, it is
 * out of range, or it was despawned since; 0 for now if it has not spawned here yet, with
 * *slot marked pending so that its spawn resolves it. */
static ns_entity resolve(const ns_replica *r, uint32_t v, uint32_t tick, uint32_t *slot)
{
    *slot = 0;
    if (v == 0 || v > r->cfg.max_entities) return 0;
    const ns__rent *t = &r->ent[v - 1];
    if (t->state == NS__R_ALIVE) {
        *slot = v;
        return handle_of(r, v - 1);
    }
    if (t->state == NS__R_GONE && t->destroyed && !ns__newer(tick, t->gone)) return 0; /* destroyed since */
    *slot = v | NS__REF_PENDING; /* not spawned here yet, or out of relevancy: it may come (back) */
    return 0;
}

uint32_t ns__refs_slots(const ns_component_ops *ops)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < ops->entity_field_count; j++)
        n += ops->entity_fields[j].capacity ? ops->entity_fields[j].capacity : 1u; /* 0: a plain field */
    return n;
}

/* Resolves the reference at `from` (the decoded snapshot) into `to` (the same place in
 * r->refsnap), recording its state in slot k. */
static void resolve_slot(ns_replica *r, ns__rent *e, uint32_t k, const uint8_t *from, uint8_t *to, uint32_t tick)
{
    uint32_t v, slot;
    memcpy(&v, from, sizeof v);
    ns_entity h = resolve(r, v, tick, &slot);
    if (e->ref[k] & NS__REF_PENDING) r->npending--;
    if (slot & NS__REF_PENDING) r->npending++;
    e->ref[k] = slot;
    memcpy(to, &h, sizeof h);
}

static uint16_t u16_at(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

const uint8_t *ns__refs_resolve(ns_replica *r, ns__rent *e, const ns_component_ops *ops, const uint8_t *snap,
                                uint32_t tick, uint32_t *k)
{
    memcpy(r->refsnap, snap, ops->desc->snap_size);
    for (uint32_t j = 0; j < ops->entity_field_count; j++) {
        const ns_entity_field *f = &ops->entity_fields[j];
        if (f->capacity == 0 && f->tag_offset && snap[f->tag_offset - 1u] != f->tag) {
            /* A member the union does not hold now: its bytes are another member's. */
            if (e->ref[*k] & NS__REF_PENDING) r->npending--;
            e->ref[(*k)++] = 0;
            continue;
        }
        if (f->capacity == 0) {
            resolve_slot(r, e, (*k)++, snap + f->snap_offset, r->refsnap + f->snap_offset, tick);
            continue;
        }
        /* Slot p follows element p of the live collection: the snapshot's element p, or
         * order[p] in an @ordered fast array (where ns_fa_apply puts it). Reads come from snap,
         * so a repeated order[] entry cannot resolve a handle a second time. */
        uint32_t n = u16_at(snap + f->count_offset), p = 0;
        if (n > f->capacity) n = f->capacity; /* as _apply clamps it */
        for (; p < n; p++) {
            uint32_t x = f->order_offset ? u16_at(snap + f->order_offset + 2u * p) : p;
            if (x >= n) x = p; /* not an order any reader accepts */
            size_t at = f->snap_offset + (size_t)x * f->snap_stride;
            resolve_slot(r, e, *k + p, snap + at, r->refsnap + at, tick);
        }
        for (; p < f->capacity; p++) { /* absent elements hold no reference */
            if (e->ref[*k + p] & NS__REF_PENDING) r->npending--;
            e->ref[*k + p] = 0;
        }
        *k += f->capacity;
    }
    return r->refsnap;
}

void ns__refs_hold(ns_replica *r, uint32_t id)
{
    ns__idset_add(&r->holders, id);
    r->nholders++;
}

/* Calls fn for every reference slot k of every spawned entity (holder) that holds `want`, the
 * holders in ascending id order (repl_idset.h: their cost, not a look at every id). */
static void each_ref(ns_replica *r, uint32_t want, void (*fn)(ns_replica *r, uint32_t holder, ns__rent *e, uint32_t k))
{
    if (r->nholders == 0) return; /* a despawn or spawn costs nothing when no entity can refer */
    for (uint32_t id = ns__idset_next(&r->holders, 0); id != UINT32_MAX; id = ns__idset_next(&r->holders, id + 1)) {
        ns__rent *e = &r->ent[id];
        for (uint32_t k = 0; k < e->nref; k++)
            if (e->ref[k] == want) fn(r, id, e, k);
    }
}

/* Writes handle h into the live value of reference slot k of e; returns the type id of the
 * component holding it. Slots follow e's components, their entity_fields and, within a
 * collection's entry, the live elements. */
static uint32_t set_live_ref(ns_replica *r, ns__rent *e, uint32_t k, ns_entity h)
{
    for (uint32_t i = 0; i < e->layout.ncomp; i++) {
        const ns_component_ops *ops = &r->schema->components[e->layout.comp[i]];
        for (uint32_t j = 0; j < ops->entity_field_count; j++) {
            const ns_entity_field *f = &ops->entity_fields[j];
            uint32_t n = f->capacity ? f->capacity : 1u;
            if (k >= n) {
                k -= n;
                continue;
            }
            memcpy(ns__live_value(r->schema, e, i) + f->value_offset + (size_t)k * f->value_stride, &h, sizeof h);
            return ops->desc->id;
        }
    }
    return 0; /* not reached: k < e->nref */
}

static uint32_t target_of(uint32_t slot)
{
    return (slot & ~NS__REF_PENDING) - 1u;
}

static void resolve_one(ns_replica *r, uint32_t holder, ns__rent *e, uint32_t k)
{
    uint32_t target = target_of(e->ref[k]);
    e->ref[k] = target + 1;
    r->npending--;
    uint32_t type = set_live_ref(r, e, k, handle_of(r, target));
    if (r->cfg.on_resolve) r->cfg.on_resolve(r, holder, type, target, r->cfg.ctx);
}

static void null_one(ns_replica *r, uint32_t holder, ns__rent *e, uint32_t k)
{
    (void)holder;
    if (e->ref[k] & NS__REF_PENDING) r->npending--;
    e->ref[k] = 0;
    set_live_ref(r, e, k, 0);
}

/* The target left relevancy: the reference reads 0 and waits for it to come back. */
static void pend_one(ns_replica *r, uint32_t holder, ns__rent *e, uint32_t k)
{
    (void)holder;
    e->ref[k] |= NS__REF_PENDING;
    r->npending++;
    set_live_ref(r, e, k, 0);
}

static void rebind_one(ns_replica *r, uint32_t holder, ns__rent *e, uint32_t k)
{
    (void)holder;
    set_live_ref(r, e, k, handle_of(r, target_of(e->ref[k])));
}

void ns__refs_unheld_despawn(ns_replica *r, uint32_t id, bool destroyed)
{
    if (destroyed && r->npending) each_ref(r, (id + 1) | NS__REF_PENDING, null_one);
}

void ns__refs_despawn(ns_replica *r, uint32_t id, ns__rent *e, bool destroyed)
{
    for (uint32_t k = 0; k < e->nref; k++)
        if (e->ref[k] & NS__REF_PENDING) r->npending--;
    if (e->nref) ns__idset_remove(&r->holders, id), r->nholders--;
    each_ref(r, id + 1, destroyed ? null_one : pend_one);
}

void ns__refs_spawn(ns_replica *r, uint32_t id)
{
    if (r->npending) each_ref(r, (id + 1) | NS__REF_PENDING, resolve_one);
}

ns_status ns_replica_bind(ns_replica *r, ns_entity_id id, ns_entity handle)
{
    if (!ns__held(r, id) || handle == 0) return NS_ERR_ARGUMENT;
    r->handle[id] = handle;
    each_ref(r, id + 1, rebind_one);
    return NS_OK;
}

ns_entity ns_replica_handle(const ns_replica *r, ns_entity ref)
{
    return ref && ref <= r->cfg.max_entities && ns__held(r, ref - 1) ? handle_of(r, ref - 1) : 0;
}
