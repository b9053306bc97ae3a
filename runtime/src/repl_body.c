/* repl_body.c — what the server and the replica code the same way: an entity's layout (its
 * components side by side in one blob), the schema's default snapshots, and an entity's body
 * (presence bits, then the components written against one shared set of baselines). */
#include <stdlib.h>
#include <string.h>

#include "repl_internal.h"

#define NS__ALIGN 16u /* every snapshot in a blob starts at a multiple of this */

static uint32_t align_up(size_t n)
{
    return (uint32_t)((n + NS__ALIGN - 1) & ~(size_t)(NS__ALIGN - 1));
}

ns_status ns__layout_init(ns__layout *l, const ns_schema *s, const uint32_t *types, uint32_t count)
{
    memset(l, 0, sizeof *l); /* unused entries compare equal (ns__layout_equal is a memcmp) */
    if (count == 0 || count > NS_REPL_MAX_COMPONENTS) return NS_ERR_CAPACITY;
    uint16_t idx[NS_REPL_MAX_COMPONENTS];
    for (uint32_t i = 0; i < count; i++) {
        int32_t c = ns_schema_component_index(s, types[i]);
        if (c < 0) return NS_ERR_UNKNOWN_ID;
        idx[i] = (uint16_t)c;
    }
    /* The table is sorted by type id, so sorting indices sorts by id (insertion sort: n <= 16). */
    for (uint32_t i = 1; i < count; i++)
        for (uint32_t j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
            uint16_t t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    size_t size = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (i && idx[i] == idx[i - 1]) return NS_ERR_DUPLICATE;
        l->comp[i] = idx[i];
        l->off[i] = (uint32_t)size;
        size = align_up(size + s->components[idx[i]].desc->snap_size);
    }
    l->ncomp = count;
    l->size = (uint32_t)size;
    return NS_OK;
}

int32_t ns__layout_find(const ns__layout *l, const ns_schema *s, uint32_t type)
{
    int32_t c = ns_schema_component_index(s, type);
    for (uint32_t i = 0; c >= 0 && i < l->ncomp; i++)
        if (l->comp[i] == (uint32_t)c) return (int32_t)i;
    return -1;
}

ns_status ns__defaults_init(ns__defaults *d, const ns_schema *s)
{
    uint32_t n = s->component_count;
    memset(d, 0, sizeof *d);
    d->audiences = NS_TO_OWNER; /* always on the wire: ns_replica_is_owner reads it */
    d->off = calloc(n ? n : 1, sizeof *d->off);
    d->visible = calloc(n ? n : 1, sizeof *d->visible);
    size_t size = 0;
    for (uint32_t c = 0; d->off && c < n; c++) d->off[c] = size, size = align_up(size + s->components[c].desc->snap_size);
    d->blob = d->off ? calloc(size ? size : 1, 1) : NULL;
    if (!d->off || !d->visible || !d->blob) {
        ns__defaults_free(d);
        return NS_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < n; c++) {
        const ns_type_desc *t = s->components[c].desc;
        s->components[c].snap_default(d->blob + d->off[c]);
        for (uint32_t f = 0; f < t->field_count; f++) {
            uint32_t flags = t->fields[f].flags;
            uint8_t in = (uint8_t)(NS__IN_FULL | (flags & NS_FIELD_INITIAL ? 0u : NS__IN_DELTA));
            for (unsigned to = 0; to < NS__AUDIENCES; to++)
                if (ns_field_reaches(flags, to)) d->visible[c][to] |= in;
            if (flags & (NS_FIELD_IF_PREDICTED | NS_FIELD_IF_INTERPOLATED)) d->audiences |= NS_TO_PREDICTED;
            if (flags & NS_FIELD_IF_CUSTOM) d->audiences |= NS_TO_CUSTOM;
        }
    }
    return NS_OK;
}

void ns__defaults_free(ns__defaults *d)
{
    free(d->blob);
    free(d->off);
    free(d->visible);
    memset(d, 0, sizeof *d);
}

/* The reference a component is compared with for its presence bit. */
static const uint8_t *reference(const ns__defaults *d, const ns__layout *l, uint32_t i, const ns_baselines *b)
{
    return b->count ? (const uint8_t *)b->snap[0] + l->off[i] : d->blob + d->off[l->comp[i]];
}

ns_status ns__body_write(ns_writer *w, const ns_schema *s, const ns__defaults *d, const ns__layout *l,
                         const uint8_t *cur, const ns_baselines *b, ns_audience to, size_t *payload_bits,
                         ns__presence *pres)
{
    uint32_t present = 0, nbits = 0;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        if (!ns__carries(d, l->comp[i], to, b->count != 0)) continue;
        bool differs = !s->components[l->comp[i]].snap_equal(cur + l->off[i], reference(d, l, i, b));
        ns_write_bits(w, differs, 1);
        present |= (uint32_t)differs << i;
        nbits++;
    }
    if (pres) pres->present = present, pres->bits = nbits;
    size_t at = ns_writer_bits(w);
    for (uint32_t i = 0; i < l->ncomp; i++) {
        if (!(present >> i & 1u)) continue;
        ns_baselines part = ns__part(b, l->off[i]);
        ns_status st = s->components[l->comp[i]].write(w, cur + l->off[i], &part, to);
        if (st != NS_OK) return st;
    }
    if (payload_bits) *payload_bits += ns_writer_bits(w) - at;
    return ns_writer_status(w);
}

ns_status ns__body_read(ns_reader *r, const ns_schema *s, const ns__defaults *d, const ns__layout *l, uint8_t *out,
                        const ns_baselines *b, ns_audience to, const uint64_t *types)
{
    uint32_t present = 0;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        if (!ns__carries(d, l->comp[i], to, b->count != 0)) continue;
        uint32_t bit = types ? (uint32_t)(*types >> l->comp[i] & 1u) : ns_read_bits(r, 1);
        present |= bit << i;
    }
    for (uint32_t i = 0; i < l->ncomp; i++) {
        const ns_component_ops *ops = &s->components[l->comp[i]];
        memcpy(out + l->off[i], reference(d, l, i, b), ops->desc->snap_size);
        if (!(present >> i & 1u)) continue;
        ns_baselines part = ns__part(b, l->off[i]);
        ns_status st = ops->read(r, out + l->off[i], &part, to);
        if (st != NS_OK) return st;
    }
    return ns_reader_status(r);
}

void ns__copy_bits(ns_writer *w, const uint8_t *src, size_t from, size_t nbits)
{
    ns_reader r;
    size_t first = from / 8; /* start at the byte holding bit `from`: no walk from the start */
    ns_reader_init(&r, src + first, (from + nbits + 7) / 8 - first);
    ns__skip_bits(&r, from % 8);
    for (; nbits >= 32; nbits -= 32) ns_write_bits(w, ns_read_bits(&r, 32), 32);
    if (nbits) ns_write_bits(w, ns_read_bits(&r, (unsigned)nbits), (unsigned)nbits);
}

void ns__skip_bits(ns_reader *r, size_t nbits)
{
    for (; nbits >= 32; nbits -= 32) ns_read_bits(r, 32);
    if (nbits) ns_read_bits(r, (unsigned)nbits);
}

bool ns__ticksets_meet(const ns_tickset *a, const ns_tickset *b)
{
    if (!a->mask || !b->mask) return false;
    const ns_tickset *hi = ns__newer(b->newest, a->newest) ? b : a, *lo = hi == a ? b : a;
    uint32_t gap = hi->newest - lo->newest;  /* lo's bit i is hi's bit i + gap */
    return gap < 64 && ((lo->mask << gap) & hi->mask) != 0;
}

ns_status ns__dense_model_init(ns_model *m)
{
    /* Kraft sum 1/2 + 1/8 + 3/16 + 1/32 + 10/64 = 1: a complete prefix code. */
    static const uint8_t raw[NS_MODEL_BUCKETS] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 32};
    static const uint8_t len[NS_MODEL_BUCKETS] = {1, 3, 4, 4, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
    return ns_model_init(m, raw, len);
}

void ns__write_types(ns_writer *w, uint64_t types, uint32_t n)
{
    if (n > 32) ns_write_bits(w, (uint32_t)types, 32), types >>= 32, n -= 32;
    ns_write_bits(w, (uint32_t)types, n);
}

uint64_t ns__read_types(ns_reader *r, uint32_t n)
{
    uint64_t low = 0;
    unsigned shift = 0;
    if (n > 32) low = ns_read_bits(r, 32), n -= 32, shift = 32;
    return low | (uint64_t)ns_read_bits(r, n) << shift;
}

void ns__idlists_free(ns__idlist *lists, uint32_t n)
{
    for (uint32_t i = 0; lists && i < n; i++) free(lists[i].id);
    free(lists);
}

bool ns__idlist_reserve(ns__idlist *lists, uint32_t n, uint32_t tick, uint32_t count)
{
    ns__idlist *l = &lists[tick % n];
    if (count <= l->cap) return true;
    uint32_t cap = l->cap ? l->cap : 16;
    while (cap < count) cap *= 2;
    uint32_t *p = realloc(l->id, (size_t)cap * sizeof *p);
    if (!p) return false;
    l->id = p;
    l->cap = cap;
    return true;
}

/* A baseline's gap (dense) after `prev`; fails the reader as ns__read_ticks does. */
static bool read_tick_gap(ns_reader *in, const ns_model *dense, uint32_t prev, uint32_t *tick)
{
    uint32_t gap = ns_read_packed_u32(in, dense);
    if (ns_reader_failed(in)) return false;
    if (gap >= 0x7fffffffu) return ns_reader_fail(in, NS_ERR_BASELINE), false;
    *tick = prev - gap - 1u;
    return true;
}

ns_status ns__read_group2(ns_reader *in, const ns_schema *s, const ns_model *dense, const ns__idlist *lists,
                          uint32_t nlists, uint32_t tick, bool steady, uint32_t gap0, ns__group2_header *h)
{
    memset(h, 0, sizeof *h);
    h->ids = NS__IDS_GAPS;
    if (steady || ns_read_bits(in, 1)) { /* baselines */
        if (steady) h->ticks[0] = tick - gap0 - 1u;
        else if (!read_tick_gap(in, dense, tick, &h->ticks[0])) return ns_reader_status(in);
        h->count = 1;
        h->repeat = steady || ns_read_bits(in, 1);
        if (!h->repeat) {
            uint32_t more = ns_read_bits(in, 2);
            if (more > 2) return ns_reader_fail(in, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
            for (uint32_t i = 0; i < more; i++, h->count++)
                if (!read_tick_gap(in, dense, h->ticks[i], &h->ticks[i + 1])) return ns_reader_status(in);
        }
        if (steady || ns_read_bits(in, 1)) h->ids = NS__IDS_ALL;
        else h->ids = ns_read_bits(in, 1) ? NS__IDS_MASK : NS__IDS_GAPS;
    }
    if (h->ids == NS__IDS_GAPS) h->n = ns_read_packed_u32(in, NULL);
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (h->repeat || h->ids != NS__IDS_GAPS) {
        h->ref = lists ? ns__idlist_get(lists, nlists, h->ticks[0]) : NULL;
        if (!h->ref) return ns_reader_fail(in, NS_ERR_BASELINE), NS_ERR_BASELINE;
    }
    if (h->repeat) {
        h->count = ns__chain(h->ref, h->ticks[0], h->ticks);
        h->by_type = h->ref->ref_by_type;
        h->types = h->ref->ref_types;
    } else if ((h->by_type = ns_read_bits(in, 1) != 0)) {
        if (s->component_count > NS__MASK_TYPES) return ns_reader_fail(in, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
        h->types = ns__read_types(in, s->component_count);
    }
    return ns_reader_status(in);
}
