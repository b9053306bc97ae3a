/* coll_fastarray.c — the fast-array delta, by item ID.
 *
 *   packed U       number of operations (at most the reference's count plus the capacity)
 *   U times        the ID: the first zigzagged relative to the reference's first ID (or to
 *                  zero), the others as their gap to the previous ID minus one; then the
 *                  operation, 0 change, 10 add, 11 remove; a change is followed by the item's
 *                  value coded against the reference item (so only its changed fields travel),
 *                  an add by the value coded against the default item
 *   @ordered only  1 bit: the sender's order is the reference's order with removed items left
 *                  out and added ones appended by ascending ID; if 0, for each position the
 *                  index of its item among the items sorted by ID, as zigzag(index − previous
 *                  index − 1), so runs in ID order cost 2 bits an item
 *
 * The writer sends an item when its replication key or its value differs from the reference
 * item: keys make forced resends possible, values make a mutation that bypassed the setters
 * travel anyway. The reader rejects an add of an ID it holds (NS_ERR_DUPLICATE), a change or
 * remove of one it does not (NS_ERR_UNKNOWN_ID), ID 0 (NS_ERR_RANGE), IDs past 2^32 − 1
 * (NS_ERR_ORDER), more items than the capacity (NS_ERR_CAPACITY), and an explicit order with
 * an index out of range (NS_ERR_RANGE) or repeated (NS_ERR_DUPLICATE). */
#include "coll_internal.h"

enum { OP_CHANGE, OP_ADD, OP_REMOVE };

typedef struct fa {
    const ns_coll_ops *ops;
    const uint8_t     *items;
    uint32_t           n;
} fa;

static fa view(const ns_coll_ops *ops, const void *c)
{
    fa v = {ops, (const uint8_t *)c + ops->items, ns__count(c)};
    return v;
}

static const uint8_t *item(const fa *v, uint32_t i)
{
    return v->items + (size_t)i * v->ops->stride;
}

static uint32_t id_of(const fa *v, uint32_t i)
{
    return ns__id_at(v->items, v->ops->stride, i);
}

/* ---- writing -------------------------------------------------------------------------------- */

typedef struct fa_diff {
    uint32_t  count;
    uint64_t *removed; /* over reference indices; NULL if not wanted */
    uint64_t *added;   /* over current indices */
} fa_diff;

/* Items compared as one block before item by item: unchanged runs, the common case, then cost a
 * memcmp of the block rather than a comparison per item. */
#define BLOCK 32u

/* The number of leading items of cur (from i) and ref (from j) that are byte-identical, found a
 * block at a time; stops at the first block that differs. */
static uint32_t identical_run(const ns_coll_ops *ops, const fa *c, uint32_t i, const fa *f, uint32_t j)
{
    uint32_t run = 0;
    for (;;) {
        uint32_t k = BLOCK;
        if (c->n - i - run < k) k = c->n - i - run;
        if (f->n - j - run < k) k = f->n - j - run;
        if (k == 0 || memcmp(item(c, i + run), item(f, j + run), (size_t)k * ops->stride) != 0) return run;
        run += k;
    }
}

/* Walks cur and ref by ID; with w NULL only counts the operations and fills the bitmaps. */
static ns_status diff(ns_writer *w, const ns_coll_ops *ops, const fa *c, const fa *f, fa_diff *d)
{
    uint32_t i = 0, j = 0, n = 0, prev = 0, block_end = 0;
    uint64_t base = f->n ? id_of(f, 0) : 0;
    while (i < c->n || j < f->n) {
        if (i >= block_end && i < c->n && j < f->n) { /* past the last block that differed */
            uint32_t run = identical_run(ops, c, i, f, j);
            i += run, j += run;
            block_end = i + BLOCK;
            if (i >= c->n && j >= f->n) break;
        }
        uint32_t ic = i < c->n ? id_of(c, i) : 0, ir = j < f->n ? id_of(f, j) : 0;
        int op;
        uint32_t id;
        if (j >= f->n || (i < c->n && ic < ir)) op = OP_ADD, id = ic;
        else if (i >= c->n || ir < ic) op = OP_REMOVE, id = ir;
        else if (!ns__item_same(ops, item(c, i), item(f, j), true)) op = OP_CHANGE, id = ic;
        else {
            i++, j++;
            continue;
        }
        if (w) {
            if (n == 0) ns__write_first(w, id, base);
            else ns_write_packed_u32(w, id - prev - 1, NULL);
            if (op == OP_CHANGE) ns_write_bool(w, false);
            else ns_write_bits(w, op == OP_ADD ? 1u : 3u, 2);
            if (op != OP_REMOVE) {
                const uint8_t *v = item(c, i) + ops->item_value;
                ns_status st = ops->write(w, v, op == OP_CHANGE ? item(f, j) + ops->item_value : NULL);
                if (st != NS_OK) return st;
            }
        } else {
            if (op == OP_REMOVE && d->removed) ns__bit_set(d->removed, j);
            if (op == OP_ADD && d->added) ns__bit_set(d->added, i);
        }
        prev = id;
        n++;
        if (op != OP_REMOVE) i++;
        if (op != OP_ADD) j++;
    }
    d->count = n;
    return NS_OK;
}

/* True if cur's order is the one the reader predicts from ref (see the top of the file). */
static bool order_predicted(const ns_coll_ops *ops, const void *cur, const void *ref, const fa_diff *d)
{
    fa c = view(ops, cur), f = view(ops, ref);
    const uint16_t *co = ns__u16s_c(cur, ops->order), *fo = ns__u16s_c(ref, ops->order);
    uint32_t j = 0;
    for (uint32_t k = 0; k < f.n; k++) {
        uint32_t ri = fo[k];
        if (ns__bit_get(d->removed, ri)) continue;
        if (j >= c.n || id_of(&c, co[j]) != id_of(&f, ri)) return false;
        j++;
    }
    for (uint32_t last = 0, first = 1; j < c.n; j++, first = 0) {
        if (!ns__bit_get(d->added, co[j]) || (!first && co[j] <= last)) return false;
        last = co[j];
    }
    return true;
}

static void write_order(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref, const fa_diff *d)
{
    bool predicted = order_predicted(ops, cur, ref, d);
    ns_write_bool(w, predicted);
    if (predicted) return;
    const uint16_t *co = ns__u16s_c(cur, ops->order);
    int32_t prev = -1;
    for (uint32_t k = 0; k < ns__count(cur); k++) {
        ns_write_packed_u32(w, ns_zigzag32((int32_t)co[k] - prev - 1), NULL);
        prev = co[k];
    }
}

ns_status ns__fa_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref)
{
    fa c = view(ops, cur), f = view(ops, ref);
    if (c.n > ops->capacity) return NS_ERR_CAPACITY;
    uint64_t removed[NS__BITMAP_WORDS], added[NS__BITMAP_WORDS];
    fa_diff d = {0, NULL, NULL};
    if (ops->order) {
        ns__bits_clear(removed, f.n);
        ns__bits_clear(added, c.n);
        d.removed = removed;
        d.added = added;
    }
    diff(NULL, ops, &c, &f, &d);
    ns_write_packed_u32(w, d.count, NULL);
    ns_status st = diff(w, ops, &c, &f, &d);
    if (st != NS_OK) return st;
    if (ops->order) write_order(w, ops, cur, ref, &d);
    return ns_writer_status(w);
}

/* ---- reading -------------------------------------------------------------------------------- */

typedef struct fa_out {
    const ns_coll_ops *ops;
    void     *dst;       /* NULL when only checking */
    uint8_t  *items;
    uint32_t  n;
    uint16_t *fate;      /* @ordered with dst: per reference position, the new index (or NONE) */
    uint16_t *is_add;    /* @ordered with dst: per new index, 1 if added */
    const uint16_t *ref_pos;
} fa_out;

#define NONE 0xffffu

/* Records what became of reference item j (a new index, or NONE); ref_pos is trusted only as
 * far as the capacity, so a damaged reference cannot make this write out of bounds. */
static void set_fate(fa_out *o, uint32_t j, uint16_t fate)
{
    if (!o->fate) return;
    uint16_t p = o->ref_pos[j];
    if (p < o->ops->capacity) o->fate[p] = fate;
    if (fate != NONE) o->is_add[fate] = 0;
}

static uint8_t *out_item(fa_out *o)
{
    return o->items ? o->items + (size_t)(o->n - 1) * o->ops->stride : NULL;
}

/* Appends an item slot; false (reader failed) when the capacity is full. */
static bool put(ns_reader *r, fa_out *o)
{
    if (o->n >= o->ops->capacity) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return false;
    }
    o->n++;
    return true;
}

/* Keeps reference items [j, end) unchanged, as one copy. */
static bool keep_run(ns_reader *r, fa_out *o, const fa *f, uint32_t j, uint32_t end)
{
    uint32_t n = end - j;
    if (n == 0) return true;
    if (o->n + n > o->ops->capacity) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return false;
    }
    if (o->items) memcpy(o->items + (size_t)o->n * o->ops->stride, item(f, j), (size_t)n * o->ops->stride);
    for (uint32_t k = 0; o->fate && k < n; k++) set_fate(o, j + k, (uint16_t)(o->n + k));
    o->n += n;
    return true;
}

static bool read_id(ns_reader *r, uint32_t *id, bool first, uint64_t base)
{
    if (first) {
        uint64_t v = ns__read_first(r, base);
        if (v > UINT32_MAX) {
            ns_reader_fail(r, NS_ERR_ORDER);
            return false;
        }
        *id = (uint32_t)v;
    } else {
        uint32_t gap = ns_read_packed_u32(r, NULL);
        if (gap >= UINT32_MAX - *id) {
            ns_reader_fail(r, NS_ERR_ORDER);
            return false;
        }
        *id += gap + 1;
    }
    if (ns_reader_failed(r)) return false;
    if (*id == 0) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return false;
    }
    return true;
}

static int read_op(ns_reader *r)
{
    if (!ns_read_bool(r)) return OP_CHANGE;
    return ns_read_bool(r) ? OP_REMOVE : OP_ADD;
}

/* One operation on ID id; j is the reference cursor. */
static bool apply_op(ns_reader *r, fa_out *o, const fa *f, uint32_t *j, uint32_t id)
{
    const ns_coll_ops *ops = o->ops;
    bool held = *j < f->n && id_of(f, *j) == id;
    int op = read_op(r);
    if (ns_reader_failed(r)) return false;
    if (held == (op == OP_ADD)) {
        ns_reader_fail(r, held ? NS_ERR_DUPLICATE : NS_ERR_UNKNOWN_ID);
        return false;
    }
    if (op == OP_REMOVE) {
        set_fate(o, *j, NONE);
        (*j)++;
        return true;
    }
    if (!put(r, o)) return false;
    uint8_t *out = out_item(o);
    const uint8_t *ref_value = NULL;
    if (held) {
        if (out) memcpy(out, item(f, *j), ops->stride);
        ref_value = item(f, *j) + ops->item_value;
        set_fate(o, *j, (uint16_t)(o->n - 1));
        (*j)++;
    } else if (out) {
        memset(out, 0, 8); /* ID and key */
        memcpy(out, &id, sizeof id);
        if (o->is_add) o->is_add[o->n - 1] = 1;
    }
    ops->read(r, out ? out + ops->item_value : NULL, ref_value);
    return !ns_reader_failed(r);
}

/* The order the reader predicts: the reference's order without removed items, then the added
 * items by ascending ID. fate[] (in order[]) is compacted in place, which is safe because the
 * write position never passes the read position. */
static void predict_order(fa_out *o, uint32_t nr)
{
    uint16_t *order = o->fate;
    uint32_t k = 0;
    for (uint32_t p = 0; p < nr; p++)
        if (order[p] != NONE) order[k++] = order[p];
    for (uint32_t i = 0; i < o->n; i++)
        if (o->is_add[i]) order[k++] = (uint16_t)i;
}

/* Reads the order bit and, if present, the explicit order; fills order[] and pos[] of dst. */
static void read_order(ns_reader *r, fa_out *o, uint32_t nr)
{
    uint16_t *order = o->dst ? ns__u16s(o->dst, o->ops->order) : NULL;
    uint16_t *pos = o->dst ? ns__u16s(o->dst, o->ops->pos) : NULL;
    if (ns_read_bool(r)) {
        if (order) predict_order(o, nr);
    } else {
        uint64_t seen[NS__BITMAP_WORDS];
        ns__bits_clear(seen, o->n);
        int32_t prev = -1;
        for (uint32_t k = 0; k < o->n; k++) {
            int64_t idx = (int64_t)prev + 1 + ns_unzigzag32(ns_read_packed_u32(r, NULL));
            if (ns_reader_failed(r)) return;
            if (idx < 0 || idx >= (int64_t)o->n) {
                ns_reader_fail(r, NS_ERR_RANGE);
                return;
            }
            if (ns__bit_get(seen, (size_t)idx)) {
                ns_reader_fail(r, NS_ERR_DUPLICATE);
                return;
            }
            ns__bit_set(seen, (size_t)idx);
            if (order) order[k] = (uint16_t)idx;
            prev = (int32_t)idx;
        }
    }
    if (pos && !ns_reader_failed(r))
        for (uint32_t k = 0; k < o->n; k++)
            if (order[k] < o->ops->capacity) pos[order[k]] = (uint16_t)k; /* a damaged reference could break it */
}

void ns__fa_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref)
{
    fa f = view(ops, ref);
    uint32_t count = ns_read_packed_u32(r, NULL);
    if (ns_reader_failed(r)) return;
    if (count > f.n + ops->capacity) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return;
    }
    fa_out o = {ops, dst, dst ? (uint8_t *)dst + ops->items : NULL, 0, NULL, NULL, NULL};
    if (dst && ops->order) {
        /* order[] and pos[] of dst serve as scratch until the order is known. */
        o.fate = ns__u16s(dst, ops->order);
        o.is_add = ns__u16s(dst, ops->pos);
        o.ref_pos = ns__u16s_c(ref, ops->pos);
    }
    uint32_t j = 0, id = 0;
    uint64_t base = f.n ? id_of(&f, 0) : 0;
    for (uint32_t k = 0; k < count; k++) {
        if (!read_id(r, &id, k == 0, base)) return;
        uint32_t end = ns__id_lower_bound(f.items, ops->stride, j, f.n, id);
        if (!keep_run(r, &o, &f, j, end)) return;
        j = end;
        if (!apply_op(r, &o, &f, &j, id)) return;
    }
    if (!keep_run(r, &o, &f, j, f.n)) return;
    if (ops->order) read_order(r, &o, f.n);
    if (dst && !ns_reader_failed(r)) ns__set_count(dst, o.n);
}
