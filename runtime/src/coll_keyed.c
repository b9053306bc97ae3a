/* coll_keyed.c — the set and map delta: the keys that differ from the reference, ascending,
 * each with what happened to it.
 *
 *   packed U       number of operations (at most the reference's count plus the capacity)
 *   U times        the key: the first zigzagged relative to the reference's first key (or, for an
 *                  empty reference, to the valid key nearest zero), the others as their gap to the previous key minus one (packed, 64-bit
 *                  keys as two halves); then the operation:
 *                    set: 0 add, 1 remove
 *                    map: 0 change, 10 add, 11 remove; a change or add is followed by the value,
 *                         coded against the old value (change) or the default (add)
 *
 * String keys (docs/wire.md section 12.6) replace the key's coding: each is ns_write_text
 * against the previous key of the delta (the first against ""), so a key costs the length of
 * the prefix it shares with that key, the length of the rest and the rest's bytes.
 *
 * Because the operation says what the writer believed, a reader whose reference differs from
 * the writer's notices: an add of a key it holds is NS_ERR_DUPLICATE, a change or remove of
 * one it does not hold NS_ERR_UNKNOWN_ID. */
#include "coll_internal.h"

#include <netschema/text.h>

enum { OP_CHANGE, OP_ADD, OP_REMOVE };

typedef struct keyed {
    const ns_coll_ops *ops;
    const uint8_t     *keys, *values;
} keyed;

static keyed view(const ns_coll_ops *ops, const void *c)
{
    keyed k = {ops, (const uint8_t *)c + ops->items, (const uint8_t *)c + ops->values};
    return k;
}

static const uint8_t *key_ptr(const keyed *k, uint32_t i)
{
    return k->keys + (size_t)i * k->ops->stride;
}


static const uint8_t *value_at(const keyed *k, uint32_t i)
{
    return k->values + (size_t)i * k->ops->value_stride;
}

static bool is_map(const ns_coll_ops *ops)
{
    return ops->kind == NS_COLL_MAP;
}

/* Where the first key is measured from: the reference's first key, or with an empty reference
 * the valid key nearest zero, so the distance never exceeds the key type's span. */
static uint64_t origin(const ns_coll_ops *ops, const void *ref)
{
    if (ns_key_is_text(&ops->key)) return 0; /* unused: string keys start from "" */
    if (ns__count(ref)) return ns_key_load(&ops->key, (const uint8_t *)ref + ops->items);
    uint64_t zero = ops->key.is_signed ? UINT64_C(0x8000000000000000) : 0;
    return zero < ops->key.min ? ops->key.min : zero > ops->key.max ? ops->key.max : zero;
}

static void write_key(ns_writer *w, const ns_coll_ops *ops, uint64_t key, uint64_t *prev, bool first, uint64_t base)
{
    if (first) ns__write_first(w, key, base);
    else if (ops->key.size <= 4) ns_write_packed_u32(w, (uint32_t)(key - *prev - 1), NULL);
    else ns_write_packed_u64(w, key - *prev - 1, NULL);
    *prev = key;
}

/* A string key against the previous key of the delta (the first against ""). */
static void write_text_key(ns_writer *w, const ns_coll_ops *ops, const uint8_t *key, const uint8_t **prev)
{
    size_t cap = (size_t)ops->key.max;
    const uint8_t *p = *prev ? *prev : (const uint8_t *)"";
    ns_write_text(w, key, ns_strnlen((const char *)key, cap), p, ns_strnlen((const char *)p, cap));
    *prev = key;
}

static void write_op(ns_writer *w, const ns_coll_ops *ops, int op)
{
    if (!is_map(ops)) ns_write_bool(w, op == OP_REMOVE);
    else if (op == OP_CHANGE) ns_write_bool(w, false);
    else ns_write_bits(w, op == OP_ADD ? 1u : 3u, 2); /* first bit 1, then 0 add / 1 remove */
}

/* Walks cur and ref in key order; with w NULL only counts the operations. */
static ns_status diff(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref, uint32_t *count)
{
    keyed c = view(ops, cur), f = view(ops, ref);
    uint32_t nc = ns__count(cur), nr = ns__count(ref), i = 0, j = 0, ops_n = 0;
    uint64_t prev = 0, base = origin(ops, ref);
    const uint8_t *prev_text = NULL;
    while (i < nc || j < nr) {
        const uint8_t *pc = i < nc ? key_ptr(&c, i) : NULL, *pr = j < nr ? key_ptr(&f, j) : NULL;
        int d = !pc ? 1 : !pr ? -1 : ns_key_compare(&ops->key, pc, pr), op;
        const uint8_t *key;
        if (d < 0) {
            op = OP_ADD, key = pc;
        } else if (d > 0) {
            op = OP_REMOVE, key = pr;
        } else if (is_map(ops) && !ns__same(ops, value_at(&c, i), value_at(&f, j), ops->value_stride)) {
            op = OP_CHANGE, key = pc;
        } else {
            i++, j++;
            continue;
        }
        if (w) {
            if (ns_key_is_text(&ops->key)) write_text_key(w, ops, key, &prev_text);
            else write_key(w, ops, ns_key_load(&ops->key, key), &prev, ops_n == 0, base);
            write_op(w, ops, op);
            if (is_map(ops) && op != OP_REMOVE) {
                ns_status st = ops->write(w, value_at(&c, i), op == OP_CHANGE ? value_at(&f, j) : NULL);
                if (st != NS_OK) return st;
            }
        }
        ops_n++;
        if (op != OP_REMOVE) i++;
        if (op != OP_ADD) j++;
    }
    *count = ops_n;
    return NS_OK;
}

ns_status ns__keyed_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref)
{
    if (ns__count(cur) > ops->capacity) return NS_ERR_CAPACITY;
    uint32_t n = 0;
    diff(NULL, ops, cur, ref, &n);
    ns_write_packed_u32(w, n, NULL);
    ns_status st = diff(w, ops, cur, ref, &n);
    return st != NS_OK ? st : ns_writer_status(w);
}

/* Longest string key: string<N> allows N up to 4096 (idl/SPEC.md section 5.3). */
#define TEXT_KEY_MAX 4096u

/* The key being read, in stored form: an integer key as the key type stores it, a string key
 * as char[M + 1], NUL-terminated. `prev` is the delta's previous string key. */
typedef struct key_buf {
    uint8_t  key[TEXT_KEY_MAX + 1];
    uint8_t  prev[TEXT_KEY_MAX + 1];
    size_t   prev_len;
    uint64_t ordered; /* integer keys: the key in ordered form */
} key_buf;

/* Reads one integer key; false (with the reader failed) if it runs past the key type's range. */
static bool read_key(ns_reader *r, const ns_coll_ops *ops, key_buf *b, bool first, uint64_t base)
{
    uint64_t *key = &b->ordered;
    if (first) {
        *key = ns__read_first(r, base);
    } else {
        uint64_t gap = ops->key.size <= 4 ? ns_read_packed_u32(r, NULL) : ns_read_packed_u64(r, NULL);
        if (gap >= ops->key.max - *key) {
            ns_reader_fail(r, NS_ERR_ORDER);
            return false;
        }
        *key += gap + 1;
    }
    if (ns_reader_failed(r)) return false;
    if (!ns_key_valid(&ops->key, *key)) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return false;
    }
    ns_key_store(&ops->key, b->key, *key);
    return true;
}

/* Reads one string key against the previous one; false (with the reader failed) if it is over
 * M bytes, not UTF-8, or not above the previous key. */
static bool read_text_key(ns_reader *r, const ns_coll_ops *ops, key_buf *b, bool first)
{
    size_t cap = (size_t)ops->key.max;
    size_t n = ns_read_text(r, b->key, cap, b->prev, b->prev_len);
    if (ns_reader_failed(r)) return false;
    b->key[n] = 0;
    if (!ns_utf8_valid((const char *)b->key, n)) {
        ns_reader_fail(r, NS_ERR_MALFORMED);
        return false;
    }
    if (!first) {
        int d = ns_key_compare(&ops->key, b->prev, b->key);
        if (d >= 0) {
            ns_reader_fail(r, d == 0 ? NS_ERR_DUPLICATE : NS_ERR_ORDER);
            return false;
        }
    }
    memcpy(b->prev, b->key, n + 1);
    b->prev_len = n;
    return true;
}

static int read_op(ns_reader *r, const ns_coll_ops *ops)
{
    if (!is_map(ops)) return ns_read_bool(r) ? OP_REMOVE : OP_ADD;
    if (!ns_read_bool(r)) return OP_CHANGE;
    return ns_read_bool(r) ? OP_REMOVE : OP_ADD;
}

typedef struct output {
    const ns_coll_ops *ops;
    uint8_t *keys, *values; /* NULL when only checking */
    uint32_t n;
} output;

/* Appends a key in stored form (a string key with its NUL, the rest of its room zeroed, so
 * that equal keys are equal bytes). */
static bool put(output *o, const uint8_t *key)
{
    if (o->n >= o->ops->capacity) return false;
    if (o->keys) {
        uint8_t *to = o->keys + (size_t)o->n * o->ops->stride;
        if (ns_key_is_text(&o->ops->key)) {
            size_t len = ns_strnlen((const char *)key, (size_t)o->ops->key.max);
            memcpy(to, key, len);
            memset(to + len, 0, o->ops->stride - len);
        } else {
            memcpy(to, key, o->ops->key.size);
        }
    }
    o->n++;
    return true;
}

static uint8_t *out_value(output *o)
{
    return o->values ? o->values + (size_t)(o->n - 1) * o->ops->value_stride : NULL;
}

/* Copies reference entries with keys below `limit` (all of them when limit is NULL). */
static bool keep_below(ns_reader *r, output *o, const keyed *f, uint32_t *j, uint32_t nr, const uint8_t *limit)
{
    for (; *j < nr && (!limit || ns_key_compare(&o->ops->key, key_ptr(f, *j), limit) < 0); (*j)++) {
        if (!put(o, key_ptr(f, *j))) {
            ns_reader_fail(r, NS_ERR_CAPACITY);
            return false;
        }
        if (is_map(o->ops) && o->values) memcpy(out_value(o), value_at(f, *j), o->ops->value_stride);
    }
    return true;
}

void ns__keyed_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref)
{
    keyed f = view(ops, ref);
    uint32_t nr = ns__count(ref), j = 0;
    uint32_t count = ns_read_packed_u32(r, NULL);
    if (ns_reader_failed(r)) return;
    if (count > nr + ops->capacity) {
        ns_reader_fail(r, NS_ERR_CAPACITY);
        return;
    }
    if (ns_key_is_text(&ops->key) && ops->key.max > TEXT_KEY_MAX) { /* not a table netschemac makes */
        ns_reader_fail(r, NS_ERR_ARGUMENT);
        return;
    }
    output o = {ops, dst ? (uint8_t *)dst + ops->items : NULL, dst && is_map(ops) ? (uint8_t *)dst + ops->values : NULL, 0};
    uint64_t base = origin(ops, ref);
    key_buf b;
    b.prev[0] = 0, b.prev_len = 0, b.ordered = 0;
    for (uint32_t k = 0; k < count; k++) {
        bool ok = ns_key_is_text(&ops->key) ? read_text_key(r, ops, &b, k == 0) : read_key(r, ops, &b, k == 0, base);
        if (!ok) return;
        if (!keep_below(r, &o, &f, &j, nr, b.key)) return;
        bool held = j < nr && ns_key_compare(&ops->key, key_ptr(&f, j), b.key) == 0;
        int op = read_op(r, ops);
        if (held == (op == OP_ADD)) {
            ns_reader_fail(r, held ? NS_ERR_DUPLICATE : NS_ERR_UNKNOWN_ID);
            return;
        }
        if (op == OP_REMOVE) {
            j++;
            continue;
        }
        if (!put(&o, b.key)) {
            ns_reader_fail(r, NS_ERR_CAPACITY);
            return;
        }
        if (is_map(ops)) ops->read(r, out_value(&o), held ? value_at(&f, j) : NULL);
        if (held) j++;
        if (ns_reader_failed(r)) return;
    }
    if (!keep_below(r, &o, &f, &j, nr, NULL)) return;
    if (dst) ns__set_count(dst, o.n);
}
