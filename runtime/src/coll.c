/* coll.c — what every collection kind shares: keys in ordered form, searches, the sort that
 * follows a generated _quantize, snapshot checks, equality and copies. The wire formats live
 * in coll_list.c, coll_keyed.c and coll_fastarray.c. */
#include <string.h>

#include "coll_internal.h"

#include <netschema/text.h>

uint64_t ns_key_load(const ns_key_type *k, const void *p)
{
    if (ns_key_is_text(k)) return 0; /* a string key has no ordered form: read nothing */
    switch (k->size) {
    case 1: {
        uint8_t v;
        memcpy(&v, p, 1);
        return k->is_signed ? ns_key_ordered_i64((int8_t)v) : v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return k->is_signed ? ns_key_ordered_i64((int16_t)v) : v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return k->is_signed ? ns_key_ordered_i64((int32_t)v) : v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return k->is_signed ? v ^ UINT64_C(0x8000000000000000) : v;
    }
    }
}

void ns_key_store(const ns_key_type *k, void *p, uint64_t ordered)
{
    uint64_t v = k->is_signed ? ordered ^ UINT64_C(0x8000000000000000) : ordered;
    switch (k->size) {
    case 1: {
        uint8_t b = (uint8_t)v;
        memcpy(p, &b, 1);
        break;
    }
    case 2: {
        uint16_t b = (uint16_t)v;
        memcpy(p, &b, 2);
        break;
    }
    case 4: {
        uint32_t b = (uint32_t)v;
        memcpy(p, &b, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
    }
}

bool ns_key_valid(const ns_key_type *k, uint64_t ordered)
{
    if (ordered < k->min || ordered > k->max) return false;
    if (!k->valid) return true;
    return k->valid(k->is_signed ? (int64_t)(ordered ^ UINT64_C(0x8000000000000000)) : (int64_t)ordered);
}

int32_t ns_key_search(const ns_key_type *k, const void *keys, uint32_t count, uint64_t ordered)
{
    const uint8_t *base = (const uint8_t *)keys;
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t v = ns_key_load(k, base + (size_t)mid * k->size);
        if (v == ordered) return (int32_t)mid;
        if (v < ordered) lo = mid + 1;
        else hi = mid;
    }
    return -(int32_t)lo - 1;
}

/* ---- string keys -------------------------------------------------------------------------- */

int ns_key_compare(const ns_key_type *k, const void *a, const void *b)
{
    if (ns_key_is_text(k)) return strncmp((const char *)a, (const char *)b, (size_t)k->max + 1u); /* as unsigned char */
    uint64_t x = ns_key_load(k, a), y = ns_key_load(k, b);
    return x < y ? -1 : x > y;
}

ns_status ns_key_text_check(const ns_key_type *k, const char *key)
{
    size_t n = ns_strnlen(key, (size_t)k->max + 1u);
    if (n > k->max) return NS_ERR_RANGE;
    return ns_utf8_valid(key, n) ? NS_OK : NS_ERR_MALFORMED;
}

int32_t ns_key_search_text(const ns_key_type *k, const void *keys, uint32_t count, const char *key)
{
    const uint8_t *base = (const uint8_t *)keys;
    size_t stride = (size_t)k->max + 1u;
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int d = strncmp((const char *)base + (size_t)mid * stride, key, stride);
        if (d == 0) return (int32_t)mid;
        if (d < 0) lo = mid + 1;
        else hi = mid;
    }
    return -(int32_t)lo - 1;
}

int32_t ns_fa_find(const void *items, uint32_t count, size_t stride, uint32_t id)
{
    uint32_t at = ns__id_lower_bound(items, stride, 0, count, id);
    if (at < count && ns__id_at(items, stride, at) == id) return (int32_t)at;
    /* Not found where a sorted array would hold it: the array may be in the sender's order. */
    for (uint32_t i = 0; i < count; i++)
        if (ns__id_at(items, stride, i) == id) return (int32_t)i;
    return -1;
}

uint32_t ns_fa_new_id(const void *items, uint32_t count, size_t stride, uint32_t *next_id, bool *wrapped)
{
    for (;;) {
        uint32_t id = *next_id ? *next_id : 1u;
        *next_id = id + 1u;
        if (*next_id == 0) {
            *next_id = 1u;
            *wrapped = true;
        }
        if (!*wrapped || ns_fa_find(items, count, stride, id) < 0) return id;
    }
}

/* ---- sorting ------------------------------------------------------------------------------ */

/* Up to two parallel arrays sorted together by a key in the first. Heapsort: no allocation, no
 * recursion, n log n whatever the input. */
typedef struct sorter {
    uint8_t *a;
    size_t   a_size;
    uint8_t *b;          /* NULL, or moved along with a */
    size_t   b_size;
    const ns_key_type *key; /* NULL: a fastarray ID (uint32_t) leads each entry of a */
} sorter;

/* Entry i against entry j: negative, 0 or positive. */
static int sort_cmp(const sorter *s, size_t i, size_t j)
{
    if (s->key) return ns_key_compare(s->key, s->a + i * s->a_size, s->a + j * s->a_size);
    uint32_t x = ns__id_at(s->a, s->a_size, i), y = ns__id_at(s->a, s->a_size, j);
    return x < y ? -1 : x > y;
}

static void swap_entries(const sorter *s, size_t i, size_t j)
{
    ns__swap_bytes(s->a + i * s->a_size, s->a + j * s->a_size, s->a_size);
    if (s->b) ns__swap_bytes(s->b + i * s->b_size, s->b + j * s->b_size, s->b_size);
}

static void sift_down(const sorter *s, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && sort_cmp(s, child + 1, child) > 0) child++;
        if (sort_cmp(s, root, child) >= 0) return;
        swap_entries(s, root, child);
        root = child;
    }
}

static bool is_sorted(const sorter *s, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (sort_cmp(s, i - 1, i) > 0) return false;
    return true;
}

static void heap_sort(const sorter *s, size_t n)
{
    if (n < 2 || is_sorted(s, n)) return;
    for (size_t i = n / 2; i-- > 0;) sift_down(s, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        swap_entries(s, 0, end);
        sift_down(s, 0, end);
    }
}

void ns_coll_sort(const ns_coll_ops *ops, void *c)
{
    uint8_t *base = (uint8_t *)c;
    uint16_t n = ns__count(c);
    if (n > ops->capacity) return; /* ns_coll_check reports it */
    sorter s = {base + ops->items, ops->stride, NULL, 0, &ops->key};
    switch (ops->kind) {
    case NS_COLL_LIST:
        return;
    case NS_COLL_MAP:
        s.b = base + ops->values;
        s.b_size = ops->value_stride;
        break;
    case NS_COLL_FASTARRAY:
        s.key = NULL;
        if (ops->order) {
            /* Sort the items with their sender positions alongside, then invert. */
            uint16_t *pos = ns__u16s(c, ops->pos), *order = ns__u16s(c, ops->order);
            for (uint16_t i = 0; i < n; i++) pos[i] = i;
            s.b = (uint8_t *)pos;
            s.b_size = sizeof *pos;
            heap_sort(&s, n);
            for (uint16_t i = 0; i < n; i++) order[pos[i]] = i;
            return;
        }
        break;
    default:
        break;
    }
    heap_sort(&s, n);
}

/* ---- checks, equality, copies ------------------------------------------------------------- */

static ns_status check_order(const ns_coll_ops *ops, const void *c, uint16_t n)
{
    const uint16_t *order = ns__u16s_c(c, ops->order), *pos = ns__u16s_c(c, ops->pos);
    for (uint16_t k = 0; k < n; k++) {
        if (order[k] >= n || pos[order[k]] != k) return NS_ERR_MALFORMED;
    }
    return NS_OK;
}

ns_status ns_coll_check(const ns_coll_ops *ops, const void *c)
{
    const uint8_t *items = (const uint8_t *)c + ops->items;
    uint16_t n = ns__count(c);
    if (n > ops->capacity) return NS_ERR_CAPACITY;
    if ((ops->kind == NS_COLL_SET || ops->kind == NS_COLL_MAP) && ns_key_is_text(&ops->key)) {
        for (uint16_t i = 0; i < n; i++) {
            const uint8_t *k = items + (size_t)i * ops->stride;
            ns_status st = ns_key_text_check(&ops->key, (const char *)k);
            if (st != NS_OK) return st;
            if (i == 0) continue;
            int d = ns_key_compare(&ops->key, k - ops->stride, k);
            if (d == 0) return NS_ERR_DUPLICATE;
            if (d > 0) return NS_ERR_ORDER;
        }
    } else if (ops->kind == NS_COLL_SET || ops->kind == NS_COLL_MAP) {
        for (uint16_t i = 0; i < n; i++) {
            uint64_t k = ns_key_load(&ops->key, items + (size_t)i * ops->stride);
            if (!ns_key_valid(&ops->key, k)) return NS_ERR_RANGE;
            if (i == 0) continue;
            uint64_t prev = ns_key_load(&ops->key, items + (size_t)(i - 1) * ops->stride);
            if (prev == k) return NS_ERR_DUPLICATE;
            if (prev > k) return NS_ERR_ORDER;
        }
    } else if (ops->kind == NS_COLL_FASTARRAY) {
        for (uint16_t i = 0; i < n; i++) {
            uint32_t id = ns__id_at(items, ops->stride, i);
            if (id == 0) return NS_ERR_RANGE;
            if (i == 0) continue;
            uint32_t prev = ns__id_at(items, ops->stride, i - 1u);
            if (prev == id) return NS_ERR_DUPLICATE;
            if (prev > id) return NS_ERR_ORDER;
        }
        if (ops->order) return check_order(ops, c, n);
    }
    return NS_OK;
}

/* Fast arrays of equal counts: the same items (keys too with `keys`) in the same order. */
static bool fa_same(const ns_coll_ops *ops, const void *a, const void *b, bool keys)
{
    uint16_t n = ns__count(a);
    const uint8_t *ia = (const uint8_t *)a + ops->items, *ib = (const uint8_t *)b + ops->items;
    if (memcmp(ia, ib, (size_t)n * ops->stride) != 0) /* not the usual unchanged array */
        for (uint16_t i = 0; i < n; i++)
            if (!ns__item_same(ops, ia + (size_t)i * ops->stride, ib + (size_t)i * ops->stride, keys)) return false;
    return !ops->order || memcmp(ns__u16s_c(a, ops->order), ns__u16s_c(b, ops->order), (size_t)n * 2) == 0;
}

/* Equal keys: identical bytes, or (string keys, whose bytes after the NUL may differ) the same
 * content. */
static bool keys_same(const ns_coll_ops *ops, const uint8_t *ia, const uint8_t *ib, uint16_t n)
{
    if (memcmp(ia, ib, (size_t)n * ops->stride) == 0) return true;
    if (!ns_key_is_text(&ops->key)) return false;
    for (uint16_t i = 0; i < n; i++)
        if (ns_key_compare(&ops->key, ia + (size_t)i * ops->stride, ib + (size_t)i * ops->stride) != 0) return false;
    return true;
}

bool ns_coll_equal(const ns_coll_ops *ops, const void *a, const void *b)
{
    uint16_t n = ns__count(a);
    if (n != ns__count(b)) return false;
    if (n > ops->capacity) n = (uint16_t)ops->capacity;
    const uint8_t *ia = (const uint8_t *)a + ops->items, *ib = (const uint8_t *)b + ops->items;
    switch (ops->kind) {
    case NS_COLL_SET:
        return keys_same(ops, ia, ib, n);
    case NS_COLL_MAP:
        if (!keys_same(ops, ia, ib, n)) return false;
        ia = (const uint8_t *)a + ops->values;
        ib = (const uint8_t *)b + ops->values;
        for (uint16_t i = 0; i < n; i++)
            if (!ns__same(ops, ia + (size_t)i * ops->value_stride, ib + (size_t)i * ops->value_stride, ops->value_stride))
                return false;
        return true;
    case NS_COLL_FASTARRAY:
        return fa_same(ops, a, b, false);
    default:
        for (uint16_t i = 0; i < n; i++)
            if (!ns__same(ops, ia + (size_t)i * ops->stride, ib + (size_t)i * ops->stride, ops->stride)) return false;
        return true;
    }
}

bool ns_coll_changed(const ns_coll_ops *ops, const void *cur, const void *ref)
{
    if (ops->kind != NS_COLL_FASTARRAY) return !ns_coll_equal(ops, cur, ref);
    return ns__count(cur) != ns__count(ref) || !fa_same(ops, cur, ref, true);
}

void ns_coll_copy(const ns_coll_ops *ops, void *dst, const void *src)
{
    uint16_t n = ns__count(src);
    if (n > ops->capacity) n = (uint16_t)ops->capacity;
    memcpy(dst, src, sizeof n);
    memcpy((uint8_t *)dst + ops->items, (const uint8_t *)src + ops->items, (size_t)n * ops->stride);
    if (ops->kind == NS_COLL_MAP)
        memcpy((uint8_t *)dst + ops->values, (const uint8_t *)src + ops->values, (size_t)n * ops->value_stride);
    if (ops->order) {
        memcpy((uint8_t *)dst + ops->order, (const uint8_t *)src + ops->order, (size_t)n * 2);
        memcpy((uint8_t *)dst + ops->pos, (const uint8_t *)src + ops->pos, (size_t)n * 2);
    }
}

/* ---- dispatch ----------------------------------------------------------------------------- */

ns_status ns_coll_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref)
{
    static const uint16_t empty = 0;
    if (!ref) ref = &empty; /* only its count is read */
    switch (ops->kind) {
    case NS_COLL_LIST: return ns__list_write(w, ops, cur, ref);
    case NS_COLL_FASTARRAY: return ns__fa_write(w, ops, cur, ref);
    default: return ns__keyed_write(w, ops, cur, ref);
    }
}

void ns_coll_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref)
{
    static const uint16_t empty = 0;
    if (!ref) ref = &empty;
    switch (ops->kind) {
    case NS_COLL_LIST: ns__list_read(r, ops, dst, ref); return;
    case NS_COLL_FASTARRAY: ns__fa_read(r, ops, dst, ref); return;
    default: ns__keyed_read(r, ops, dst, ref); return;
    }
}
