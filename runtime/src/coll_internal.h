/* coll_internal.h — shared pieces of the collection code (coll*.c); not installed. */
#ifndef NS_COLL_INTERNAL_H
#define NS_COLL_INTERNAL_H

#include <string.h>

#include <netschema/collections.h>
#include <netschema/packed.h>

/* Largest capacity of any collection (fastarrays): bitmaps over items are sized by it. */
#define NS__COLL_MAX 65535u
#define NS__BITMAP_WORDS ((NS__COLL_MAX + 63u) / 64u)

static inline uint16_t ns__count(const void *c)
{
    uint16_t n;
    memcpy(&n, c, sizeof n);
    return n;
}

static inline void ns__set_count(void *c, uint32_t n)
{
    uint16_t v = (uint16_t)n;
    memcpy(c, &v, sizeof v);
}

static inline uint32_t ns__id_at(const void *items, size_t stride, size_t i)
{
    uint32_t id;
    memcpy(&id, (const uint8_t *)items + i * stride, sizeof id);
    return id;
}

/* The first index in [lo, hi) of items sorted by ID whose ID is not below id (binary search). */
static inline uint32_t ns__id_lower_bound(const void *items, size_t stride, uint32_t lo, uint32_t hi, uint32_t id)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ns__id_at(items, stride, mid) < id) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static inline uint32_t ns__key_at(const void *items, size_t stride, size_t i)
{
    uint32_t key;
    memcpy(&key, (const uint8_t *)items + i * stride + 4, sizeof key);
    return key;
}

static inline uint16_t *ns__u16s(void *c, size_t offset)
{
    return (uint16_t *)(void *)((uint8_t *)c + offset);
}

static inline const uint16_t *ns__u16s_c(const void *c, size_t offset)
{
    return (const uint16_t *)(const void *)((const uint8_t *)c + offset);
}

static inline void ns__bit_set(uint64_t *bits, size_t i)
{
    bits[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline bool ns__bit_get(const uint64_t *bits, size_t i)
{
    return (bits[i / 64] >> (i % 64)) & 1u;
}

static inline void ns__bits_clear(uint64_t *bits, size_t n)
{
    memset(bits, 0, ((n + 63) / 64) * sizeof *bits);
}

/* True if two element snapshots are equal: identical bytes settle it at once (equal bytes mean
 * equal members for every snapshot type); otherwise the generated comparison decides, since
 * padding or bytes after a string's NUL may differ. */
static inline bool ns__same(const ns_coll_ops *ops, const void *a, const void *b, size_t size)
{
    return memcmp(a, b, size) == 0 || ops->equal(a, b);
}

/* True if two fast-array items are the same: ID and value, and with `keys` the replication key
 * too (what decides whether a writer sends the item). */
static inline bool ns__item_same(const ns_coll_ops *ops, const uint8_t *x, const uint8_t *y, bool keys)
{
    if (memcmp(x, y, ops->stride) == 0) return true; /* the common case, settled at once */
    if (ns__id_at(x, 0, 0) != ns__id_at(y, 0, 0)) return false;
    if (keys && ns__key_at(x, 0, 0) != ns__key_at(y, 0, 0)) return false;
    return ops->equal(x + ops->item_value, y + ops->item_value);
}

/* Exchanges n bytes at x and y (no scratch needed). */
static inline void ns__swap_bytes(uint8_t *x, uint8_t *y, size_t n)
{
    while (n--) {
        uint8_t t = *x;
        *x++ = *y;
        *y++ = t;
    }
}

ns_status ns__list_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref);
void      ns__list_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref);
ns_status ns__keyed_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref);
void      ns__keyed_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref);
ns_status ns__fa_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref);
void      ns__fa_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref);

/* The first key or ID of a delta is coded relative to the reference's first one (or to zero),
 * zigzagged; every further one as its gap minus one. */
static inline void ns__write_first(ns_writer *w, uint64_t v, uint64_t base)
{
    ns_write_packed_u64(w, ns_zigzag64((int64_t)(v - base)), NULL);
}

static inline uint64_t ns__read_first(ns_reader *r, uint64_t base)
{
    return base + (uint64_t)ns_unzigzag64(ns_read_packed_u64(r, NULL));
}

#endif
