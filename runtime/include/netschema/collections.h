/* netschema/collections.h — list, set, map and fastarray fields: their wire format, checks and
 * bookkeeping (docs/wire.md section 12, "Collections").
 *
 * Generated code describes every collection field with a static `ns_coll_ops` (where the parts
 * of its snapshot live, how to code one element) and calls the functions below; users call
 * them rarely. A collection snapshot always starts with its `uint16_t count`.
 *
 *   list       elements in order;                          items[N]
 *   set        keys, ascending, distinct;                  items[N]
 *   map        ascending distinct keys and their values;   keys in items[N], values[N]
 *              (keys are integers, enums, entities or string<M> as char[M + 1])
 *   fastarray  items {uint32_t id; uint32_t key; value} ascending by ID (IDs are never 0);
 *              with @ordered also order[N] (sender position -> item index) and pos[N] (its
 *              inverse), both uint16_t.
 *
 * Readers here take `dst == NULL` to mean "check only": a generated _read runs every field once
 * to check the whole delta, and only then decodes it, so an error leaves its destination as it
 * was. `dst` must never alias `ref`. */
#ifndef NETSCHEMA_COLLECTIONS_H
#define NETSCHEMA_COLLECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_coll_kind {
    NS_COLL_LIST, NS_COLL_SET, NS_COLL_MAP, NS_COLL_FASTARRAY
} ns_coll_kind;

/* A key type (set elements, map keys). Integer keys are compared in "ordered" form: unsigned
 * keys as they are, signed keys offset by 2^63, so that unsigned comparison sorts them.
 * A string<M> key has size 0 and max M: it is stored as char[M + 1] (valid UTF-8, NUL-terminated)
 * and compared by content, byte by byte as unsigned values, a proper prefix first
 * (docs/wire.md section 12.6); the ns_key_* functions on ordered forms do not apply to it. */
typedef struct ns_key_type {
    uint8_t  size;              /* 1, 2, 4 or 8 bytes; 0 for a string key */
    bool     is_signed;
    uint64_t min, max;          /* the valid range, in ordered form; a string key: 0 and M */
    bool   (*valid)(int64_t v); /* enums: the declared values; NULL when every value in range is */
} ns_key_type;

/* How one collection field is laid out and how its elements are coded. Element functions take
 * `ref == NULL` to mean "the element's default" (what a new element is coded against). */
typedef struct ns_coll_ops {
    ns_coll_kind kind;
    uint32_t     capacity;
    size_t       items;        /* offset of items[] in the snapshot */
    size_t       stride;       /* bytes per entry of items[] */
    size_t       values;       /* map: offset of values[] */
    size_t       value_stride; /* map: bytes per value */
    size_t       item_value;   /* fastarray: offset of the value inside an item */
    size_t       order, pos;   /* @ordered fastarray: offsets of order[] and pos[]; both 0 otherwise */
    ns_key_type  key;          /* set, map */
    bool       (*equal)(const void *a, const void *b);
    ns_status  (*write)(ns_writer *w, const void *cur, const void *ref);
    void       (*read)(ns_reader *r, void *out, const void *ref); /* out NULL: check only */
} ns_coll_ops;

/* ---- keys ------------------------------------------------------------------------------- */

/* The ordered form of the integer key at p (0, reading nothing, for a string key). */
uint64_t ns_key_load(const ns_key_type *k, const void *p);

/* Stores a key given in ordered form at p. */
void ns_key_store(const ns_key_type *k, void *p, uint64_t ordered);

/* True if a key (in ordered form) lies in the key type's range and is one of its values. */
bool ns_key_valid(const ns_key_type *k, uint64_t ordered);

/* The ordered form of a signed key value. */
static inline uint64_t ns_key_ordered_i64(int64_t v)
{
    return (uint64_t)v ^ UINT64_C(0x8000000000000000);
}

/* Binary search of count ascending keys at `keys` for an ordered key: its index if present,
 * else -(insertion point) - 1. */
int32_t ns_key_search(const ns_key_type *k, const void *keys, uint32_t count, uint64_t ordered);

/* True for a string key type. */
static inline bool ns_key_is_text(const ns_key_type *k)
{
    return k->size == 0;
}

/* Compares the stored keys at a and b (either kind): negative, 0 or positive. String keys are
 * compared up to their NUL (at most M + 1 bytes), bytewise as unsigned values. */
int ns_key_compare(const ns_key_type *k, const void *a, const void *b);

/* String keys: NS_OK if key (a C string) is one a set or map can hold: at most M bytes
 * (NS_ERR_RANGE), valid UTF-8 (NS_ERR_MALFORMED). */
ns_status ns_key_text_check(const ns_key_type *k, const char *key);

/* String keys: binary search of count ascending keys (char[M + 1] each) for key: its index if
 * present, else -(insertion point) - 1. */
int32_t ns_key_search_text(const ns_key_type *k, const void *keys, uint32_t count, const char *key);

/* Binary search of count fastarray items (stride bytes each, ID first) for id; falls back to a
 * linear scan when they are not sorted. The index, or -1. */
int32_t ns_fa_find(const void *items, uint32_t count, size_t stride, uint32_t id);

/* A new replication ID for an item about to join count items: *next_id (0 counts as 1), which
 * then advances; once IDs have wrapped around (*wrapped), IDs still in use are skipped. */
uint32_t ns_fa_new_id(const void *items, uint32_t count, size_t stride, uint32_t *next_id, bool *wrapped);

/* ---- snapshots -------------------------------------------------------------------------- */

/* Sorts a collection snapshot made by a generated _quantize: sets and maps by key, fastarrays
 * by ID (filling order[] and pos[] for @ordered). Keeps duplicates; ns_coll_check rejects them. */
void ns_coll_sort(const ns_coll_ops *ops, void *c);

/* NS_OK if the snapshot is one a reader could produce: count within capacity (NS_ERR_CAPACITY),
 * keys and IDs ascending (NS_ERR_ORDER), distinct (NS_ERR_DUPLICATE), keys valid and IDs
 * non-zero (NS_ERR_RANGE; a string key longer than M too), string keys valid UTF-8 and order[]
 * a permutation consistent with pos[] (NS_ERR_MALFORMED). */
ns_status ns_coll_check(const ns_coll_ops *ops, const void *c);

/* True if two snapshots hold the same state. Fastarray keys are the sender's bookkeeping, not
 * state, so they are not compared. */
bool ns_coll_equal(const ns_coll_ops *ops, const void *a, const void *b);

/* True if a write of cur against ref carries anything: !ns_coll_equal, or for a fastarray an
 * item whose key changed. */
bool ns_coll_changed(const ns_coll_ops *ops, const void *cur, const void *ref);

/* Copies the used part of src to dst (the whole struct is often much larger). */
void ns_coll_copy(const ns_coll_ops *ops, void *dst, const void *src);

/* ---- the wire ----------------------------------------------------------------------------- */

/* Writes cur as a delta against ref (ref NULL: the empty collection). Element errors (a value
 * out of range) come back as their status; the writer is then in an unspecified state. */
ns_status ns_coll_write(ns_writer *w, const ns_coll_ops *ops, const void *cur, const void *ref);

/* Reads a delta written against ref (NULL: empty) into dst, or only checks it if dst is NULL.
 * Malformed deltas fail the reader: NS_ERR_CAPACITY (count over capacity), NS_ERR_RANGE (index
 * or key out of range, a string key over M bytes), NS_ERR_ORDER (keys or IDs past their largest
 * value, string keys not ascending), NS_ERR_DUPLICATE (an add of a key or ID the reference
 * holds, a position or string key twice), NS_ERR_UNKNOWN_ID (a change or remove of one it does
 * not hold), NS_ERR_MALFORMED (a string key that is not UTF-8). dst must not alias ref. */
void ns_coll_read(ns_reader *r, const ns_coll_ops *ops, void *dst, const void *ref);

/* ---- fast-array events -------------------------------------------------------------------- */

/* What changed between the items a receiver shows (its live value) and a new snapshot, as the
 * generated _apply reports it: removes, then adds, then changes. `self` is passed back. */
typedef struct ns_fa_events {
    void  *self;
    void (*removed)(void *self, const void *item);
    void (*added)(void *self, const void *item);
    void (*changed)(void *self, const void *item, const void *old);
} ns_fa_events;

/* What generated event trampolines get as `self`: the typed hooks, their context, the record. */
typedef struct ns_hook_ctx {
    const void *hooks;
    void       *ctx;
    void       *live;
} ns_hook_ctx;

/* The layout of a fastarray's live value (the generated value struct): count at 0. */
typedef struct ns_fa_live {
    size_t items;       /* offset of items[] */
    size_t stride;      /* bytes per item ({uint32_t id; uint32_t key; value}) */
    size_t next_id;     /* offset of the uint32_t next ID */
    /* Overwrites a live item with the snapshot item `from` (id, key and dequantized value). */
    void (*dequantize)(const void *from, void *to);
    bool (*equal)(const void *a, const void *b); /* live item values, bitwise */
} ns_fa_live;

/* Brings the live fastarray `live` to the state of snapshot `snap`, reporting through ev (NULL:
 * no events): first every removed item (still in live when reported), then every added item,
 * then every changed one (with a copy of its old value in `scratch`, one live item's size), the
 * added and changed ones in their final place. Within each phase items come in the receiver's
 * order: ascending ID, or the sender's order with @ordered. */
void ns_fa_apply(const ns_coll_ops *ops, const ns_fa_live *lv, void *live, const void *snap,
                 const ns_fa_events *ev, void *scratch);

#ifdef __cplusplus
}
#endif
#endif
