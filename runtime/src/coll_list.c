/* coll_list.c — the list delta: what stayed at the front, what stayed at the back, and the
 * elements in between, each coded against the reference element at its index.
 *
 *   packed P   elements kept at the front (equal to the reference's first P)
 *   packed S   elements kept at the back (equal to the reference's last S)
 *   packed M   elements in between; the new length is P + M + S
 *   M times    element P + k, coded against reference element P + k while that lies in the
 *              reference's middle (before its kept back), else against the default element
 *
 * Removing or inserting one element anywhere costs the three counts and at most the elements
 * between the edit and the nearest end that stayed put; a changed element costs its own delta
 * plus one bit for each unchanged element between it and the other changes. */
#include "coll_internal.h"

static const uint8_t *elem(const void *c, const ns_coll_ops *ops, size_t i)
{
    return (const uint8_t *)c + ops->items + i * ops->stride;
}

ns_status ns__list_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref)
{
    uint32_t nc = ns__count(cur), nr = ns__count(ref);
    if (nc > ops->capacity) return NS_ERR_CAPACITY;
    uint32_t shorter = nc < nr ? nc : nr, p = 0, s = 0;
    while (p < shorter && ops->equal(elem(cur, ops, p), elem(ref, ops, p))) p++;
    while (s < shorter - p && ops->equal(elem(cur, ops, nc - 1 - s), elem(ref, ops, nr - 1 - s))) s++;
    uint32_t m = nc - p - s, ref_middle_end = nr - s;
    ns_write_packed_u32(w, p, NULL);
    ns_write_packed_u32(w, s, NULL);
    ns_write_packed_u32(w, m, NULL);
    for (uint32_t k = 0; k < m; k++) {
        uint32_t i = p + k;
        ns_status st = ops->write(w, elem(cur, ops, i), i < ref_middle_end ? elem(ref, ops, i) : NULL);
        if (st != NS_OK) return st;
    }
    return ns_writer_status(w);
}

void ns__list_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref)
{
    uint32_t nr = ns__count(ref);
    uint32_t p = ns_read_packed_u32(r, NULL), s = ns_read_packed_u32(r, NULL), m = ns_read_packed_u32(r, NULL);
    if (ns_reader_failed(r)) return;
    if (p > nr || s > nr - p) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return;
    }
    if (m > ops->capacity || p + s > ops->capacity - m) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return;
    }
    uint32_t n = p + m + s, ref_middle_end = nr - s;
    uint8_t *out = dst ? (uint8_t *)dst + ops->items : NULL;
    const uint8_t *in = (const uint8_t *)ref + ops->items;
    if (out) {
        memcpy(out, in, (size_t)p * ops->stride);
        memcpy(out + (size_t)(p + m) * ops->stride, in + (size_t)ref_middle_end * ops->stride, (size_t)s * ops->stride);
    }
    for (uint32_t k = 0; k < m && !ns_reader_failed(r); k++) {
        uint32_t i = p + k;
        ops->read(r, out ? out + (size_t)i * ops->stride : NULL, i < ref_middle_end ? in + (size_t)i * ops->stride : NULL);
    }
    if (dst) ns__set_count(dst, n);
}
