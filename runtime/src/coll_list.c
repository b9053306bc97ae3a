/* coll_list.c — the list delta: how many elements left the front, what stayed at the front and
 * at the back, and the elements in between, each coded against the reference element at its
 * index.
 *
 *   packed F   elements dropped from the front of the reference (a queue's pop); the rest of
 *              the reference, ref[F..], is what P, S and the middle refer to
 *   packed P   elements kept at the front (equal to the first P of ref[F..])
 *   packed S   elements kept at the back (equal to the last S of ref[F..])
 *   packed M   elements in between; the new length is P + M + S
 *   M times    element P + k, coded against ref[F + P + k] while that lies before the kept
 *              back, else against the default element
 *
 * An append, a removal or insertion anywhere, a change, and a queue's pop-front-push-back all
 * cost the four counts plus the elements that really changed; two edits far apart also pay one
 * bit for each unchanged element between them. */
#include "coll_internal.h"

static const uint8_t *elem(const void *c, const ns_coll_ops *ops, size_t i)
{
    return (const uint8_t *)c + ops->items + i * ops->stride;
}

typedef struct shape {
    uint32_t f, p, s, m;
} shape;

/* The shape of cur against ref with the first f reference elements dropped. */
static shape shape_for(const ns_coll_ops *ops, const void *cur, const void *ref, uint32_t f)
{
    uint32_t nc = ns__count(cur), nr = ns__count(ref) - f;
    uint32_t shorter = nc < nr ? nc : nr;
    shape sh = {f, 0, 0, 0};
    while (sh.p < shorter && ops->equal(elem(cur, ops, sh.p), elem(ref, ops, f + sh.p))) sh.p++;
    while (sh.s < shorter - sh.p && ops->equal(elem(cur, ops, nc - 1 - sh.s), elem(ref, ops, f + nr - 1 - sh.s))) sh.s++;
    sh.m = nc - sh.p - sh.s;
    return sh;
}

/* Keeps everything in place, or drops the reference's front up to where cur starts, whichever
 * leaves fewer elements to code. */
static shape best_shape(const ns_coll_ops *ops, const void *cur, const void *ref)
{
    shape best = shape_for(ops, cur, ref, 0);
    uint32_t nr = ns__count(ref);
    if (best.m == 0 || ns__count(cur) == 0) return best;
    for (uint32_t f = 1; f < nr; f++) {
        if (!ops->equal(elem(cur, ops, 0), elem(ref, ops, f))) continue;
        shape s = shape_for(ops, cur, ref, f);
        if (s.m < best.m) best = s;
        break;
    }
    return best;
}

ns_status ns__list_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref)
{
    if (ns__count(cur) > ops->capacity) return NS_ERR_CAPACITY;
    shape sh = best_shape(ops, cur, ref);
    uint32_t middle_end = ns__count(ref) - sh.s; /* in reference indices */
    ns_write_packed_u32(w, sh.f, NULL);
    ns_write_packed_u32(w, sh.p, NULL);
    ns_write_packed_u32(w, sh.s, NULL);
    ns_write_packed_u32(w, sh.m, NULL);
    for (uint32_t k = 0; k < sh.m; k++) {
        uint32_t i = sh.p + k, j = sh.f + i;
        ns_status st = ops->write(w, elem(cur, ops, i), j < middle_end ? elem(ref, ops, j) : NULL);
        if (st != NS_OK) return st;
    }
    return ns_writer_status(w);
}

void ns__list_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref)
{
    uint32_t nr = ns__count(ref);
    shape sh;
    sh.f = ns_read_packed_u32(r, NULL);
    sh.p = ns_read_packed_u32(r, NULL);
    sh.s = ns_read_packed_u32(r, NULL);
    sh.m = ns_read_packed_u32(r, NULL);
    if (ns_reader_failed(r)) return;
    if (sh.f > nr || sh.p > nr - sh.f || sh.s > nr - sh.f - sh.p) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return;
    }
    if (sh.m > ops->capacity || sh.p + sh.s > ops->capacity - sh.m) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return;
    }
    uint32_t middle_end = nr - sh.s;
    uint8_t *out = dst ? (uint8_t *)dst + ops->items : NULL;
    const uint8_t *in = (const uint8_t *)ref + ops->items;
    if (out) {
        memcpy(out, in + (size_t)sh.f * ops->stride, (size_t)sh.p * ops->stride);
        memcpy(out + (size_t)(sh.p + sh.m) * ops->stride, in + (size_t)middle_end * ops->stride, (size_t)sh.s * ops->stride);
    }
    for (uint32_t k = 0; k < sh.m && !ns_reader_failed(r); k++) {
        uint32_t i = sh.p + k, j = sh.f + i;
        ops->read(r, out ? out + (size_t)i * ops->stride : NULL, j < middle_end ? in + (size_t)j * ops->stride : NULL);
    }
    if (dst) ns__set_count(dst, sh.p + sh.m + sh.s);
}
