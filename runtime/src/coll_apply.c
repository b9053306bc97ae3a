/* coll_apply.c — bringing a receiver's live fast array to a new snapshot, with its events:
 * removes, then adds, then changes (docs/wire.md section 12.3). Works in place with one item of scratch and
 * a bitmap on the stack: no allocation, whatever the capacity. */
#include "coll_internal.h"

typedef struct apply {
    const ns_fa_live *lv;
    uint8_t          *items;   /* live items */
    const uint8_t    *snap;    /* snapshot items, ascending by ID */
    size_t            sstride; /* bytes per snapshot item */
    uint32_t          n;       /* snapshot count */
    const uint16_t   *order;   /* @ordered: position -> snapshot index; else NULL */
    const uint16_t   *pos;     /* @ordered: snapshot index -> position */
} apply;

static uint8_t *live_item(const apply *a, uint32_t i)
{
    return a->items + (size_t)i * a->lv->stride;
}

static uint32_t live_id(const apply *a, uint32_t i)
{
    return ns__id_at(a->items, a->lv->stride, i);
}

static const uint8_t *snap_item(const apply *a, uint32_t j)
{
    return a->snap + (size_t)j * a->sstride;
}

/* The snapshot index of the item at final position i, and the final position of index j. */
static uint32_t index_at(const apply *a, uint32_t i)
{
    return a->order ? a->order[i] : i;
}

static uint32_t position_of(const apply *a, uint32_t j)
{
    return a->pos ? a->pos[j] : j;
}

/* Binary search of the snapshot (always sorted) for id: its index or -1. */
static int32_t find(const apply *a, uint32_t id)
{
    uint32_t at = ns__id_lower_bound(a->snap, a->sstride, 0, a->n, id);
    return at < a->n && ns__id_at(a->snap, a->sstride, at) == id ? (int32_t)at : -1;
}

static void swap_items(const apply *a, uint8_t *x, uint8_t *y)
{
    ns__swap_bytes(x, y, a->lv->stride);
}

/* True if the live items already hold the snapshot's IDs in the snapshot's order. */
static bool same_ids(const apply *a, uint32_t n_old)
{
    if (n_old != a->n) return false;
    for (uint32_t i = 0; i < n_old; i++)
        if (live_id(a, i) != ns__id_at(a->snap, a->sstride, index_at(a, i))) return false;
    return true;
}

/* Removes the items the snapshot no longer holds (reporting each while it is still live), moves
 * the others to their final places and fills the new ones in. seen[] marks the snapshot
 * indices that were live before. Returns nothing; the live count becomes a->n. */
static void restructure(const apply *a, uint32_t n_old, uint64_t *seen, const ns_fa_events *ev)
{
    for (uint32_t i = 0; i < n_old; i++)
        if (find(a, live_id(a, i)) < 0 && ev && ev->removed) ev->removed(ev->self, live_item(a, i));
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n_old; i++) {
        int32_t j = find(a, live_id(a, i));
        if (j < 0 || ns__bit_get(seen, (size_t)j)) continue; /* removed, or a duplicate ID */
        ns__bit_set(seen, (size_t)j);
        if (kept != i) memcpy(live_item(a, kept), live_item(a, i), a->lv->stride);
        kept++;
    }
    static const uint32_t hole = 0;
    for (uint32_t i = kept; i < a->n; i++) memcpy(live_item(a, i), &hole, sizeof hole);
    /* Cycle each kept item into its final position; every swap settles one item for good. */
    for (uint32_t i = 0; i < a->n; i++) {
        while (live_id(a, i) != 0) {
            int32_t j = find(a, live_id(a, i));
            uint32_t t = j < 0 ? i : position_of(a, (uint32_t)j);
            if (t == i || t >= a->n) break;
            swap_items(a, live_item(a, i), live_item(a, t));
        }
    }
    for (uint32_t i = 0; i < a->n; i++)
        if (!ns__bit_get(seen, index_at(a, i))) a->lv->dequantize(snap_item(a, index_at(a, i)), live_item(a, i));
}

void ns_fa_apply(const ns_coll_ops *ops, const ns_fa_live *lv, void *live, const void *snap, const ns_fa_events *ev,
                 void *scratch)
{
    apply a = {lv, (uint8_t *)live + lv->items, (const uint8_t *)snap + ops->items, ops->stride, ns__count(snap),
               ops->order ? ns__u16s_c(snap, ops->order) : NULL, ops->order ? ns__u16s_c(snap, ops->pos) : NULL};
    if (a.n > ops->capacity) return; /* not a snapshot any reader makes */
    uint32_t n_old = ns__count(live);
    if (n_old > ops->capacity) n_old = ops->capacity;
    uint64_t seen[NS__BITMAP_WORDS];
    bool same = same_ids(&a, n_old);
    if (!same) {
        ns__bits_clear(seen, a.n);
        restructure(&a, n_old, seen, ev);
        ns__set_count(live, a.n);
        for (uint32_t i = 0; ev && ev->added && i < a.n; i++)
            if (!ns__bit_get(seen, index_at(&a, i))) ev->added(ev->self, live_item(&a, i));
    }
    for (uint32_t i = 0; i < a.n; i++) {
        if (!same && !ns__bit_get(seen, index_at(&a, i))) continue; /* added: already current */
        lv->dequantize(snap_item(&a, index_at(&a, i)), scratch);
        if (lv->equal(scratch, live_item(&a, i))) {
            memcpy(live_item(&a, i) + 4, (const uint8_t *)scratch + 4, 4); /* the key may differ */
            continue;
        }
        swap_items(&a, live_item(&a, i), (uint8_t *)scratch); /* scratch now holds the old item */
        if (ev && ev->changed) ev->changed(ev->self, live_item(&a, i), scratch);
    }
    uint32_t next;
    memcpy(&next, (uint8_t *)live + lv->next_id, sizeof next);
    uint32_t top = a.n ? ns__id_at(a.snap, a.sstride, a.n - 1) + 1u : 1u;
    if (top != 0 && next < top) memcpy((uint8_t *)live + lv->next_id, &top, sizeof top);
}
