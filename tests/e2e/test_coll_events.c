/* test_coll_events.c — the per-element events of list, set and map fields (idl/SPEC.md,
 * "Per-element collection events"), on coll.netschema. A receiver keeps a mirror of every list,
 * set and map built only from the events _apply reports, through the generated helpers, and
 * after every apply the mirror must equal the live collection. Inside every hook the live
 * collection must equal the mirror (before the event for removes and clear, after it for the
 * others), removes must come first from the highest index or key down, then sets and inserts
 * (adds) in ascending order, a clear alone, a set only for an element that changed, and no
 * event at all for a collection that did not change. Random states reach _apply directly and
 * through _write/_read over a lossy link (coll_link.c), with hooks pointers and members
 * sometimes NULL. */
#include <stdio.h>
#include <string.h>

#include "coll.ns.h"
#include "coll_link.h"

/* ---- event order ------------------------------------------------------------------------------ */

/* Per field and apply: removes descending, then sets and inserts ascending; a clear alone. */
typedef struct order {
    int      phase; /* 0 removes, 1 sets and inserts, 2 cleared */
    uint64_t last;  /* the previous event's index, or key in ordered form */
    unsigned in_phase, events;
} order;

static void order_remove(order *o, uint64_t key, const char *what)
{
    NS_CHECK(o->phase == 0, "%s: a remove after a set, an insert or a clear", what);
    NS_CHECK(o->in_phase == 0 || key < o->last, "%s: removes not from the highest down", what);
    o->last = key, o->in_phase++, o->events++;
}

static void order_up(order *o, uint64_t key, const char *what)
{
    NS_CHECK(o->phase != 2, "%s: an event after a clear", what);
    if (o->phase == 0) o->phase = 1, o->in_phase = 0;
    NS_CHECK(o->in_phase == 0 || key > o->last, "%s: sets and inserts not in ascending order", what);
    o->last = key, o->in_phase++, o->events++;
}

static void order_clear(order *o, const char *what)
{
    NS_CHECK(o->events == 0, "%s: a clear with other events", what);
    o->phase = 2, o->events++;
}

/* ---- the receiver's mirrors ------------------------------------------------------------------- */

typedef struct ev_check {
    coll_Lists lists; /* the mirrors: only their collection fields are used */
    coll_Maps  maps;
    coll_Sets  sets;
    order o_nums, o_things, o_names, o_path, o_paints, o_slots, o_big, o_tint, o_flags, o_colors, o_wide, o_seen;
    unsigned long inserts, sets_, removes, clears, adds, applies, notified;
} ev_check;

#define SAME_ELEMS(NAME, TYPE, EQ)                                                  \
    static bool NAME(const TYPE *a, const TYPE *b)                                  \
    {                                                                               \
        if (a->count != b->count) return false;                                     \
        for (uint32_t i = 0; i < a->count; i++)                                     \
            if (!(EQ)) return false;                                                \
        return true;                                                                \
    }

SAME_ELEMS(same_nums, coll_Lists_nums, a->items[i] == b->items[i])
SAME_ELEMS(same_things, coll_Lists_things, coll_Item_equal(&a->items[i], &b->items[i]))
SAME_ELEMS(same_names, coll_Lists_names, strcmp(a->items[i], b->items[i]) == 0)
SAME_ELEMS(same_path, coll_Lists_path, memcmp(&a->items[i], &b->items[i], sizeof a->items[i]) == 0)
SAME_ELEMS(same_paints, coll_Lists_paints, a->items[i] == b->items[i])
SAME_ELEMS(same_slots, coll_Maps_slots, a->keys[i] == b->keys[i] && coll_Item_equal(&a->values[i], &b->values[i]))
SAME_ELEMS(same_big, coll_Maps_big, a->keys[i] == b->keys[i] && a->values[i] == b->values[i])
SAME_ELEMS(same_tint, coll_Maps_tint, a->keys[i] == b->keys[i] && a->values[i] == b->values[i])
SAME_ELEMS(same_flags, coll_Sets_flags, a->items[i] == b->items[i])
SAME_ELEMS(same_colors, coll_Sets_colors, a->items[i] == b->items[i])
SAME_ELEMS(same_wide, coll_Sets_wide, a->items[i] == b->items[i])
SAME_ELEMS(same_seen, coll_Sets_seen, a->items[i] == b->items[i])

/* How a hook's element compares with the mirror's (at: what _at returns), and becomes a helper's
 * argument. */
#define EQ_VALUE(a, at) ((a) == *(at))
#define EQ_ITEM(a, at) coll_Item_equal((a), (at))
#define EQ_STRING(a, at) (strcmp((a), (at)) == 0)
#define EQ_BYTES(a, at) (memcmp((a), (at), sizeof *(at)) == 0)
#define AS_IS(x) (x)
#define DEREF(x) (*(x))
#define ORD_U(k) ((uint64_t)(k))
#define ORD_S(k) ns_key_ordered_i64((int64_t)(k))

#define LIST_HOOKS(F, P, ARG, EQ, SAME)                                                                   \
    static void F##_insert(void *ctx, coll_Lists *live, uint32_t i, P value)                               \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_up(&c->o_##F, i, #F);                                                                        \
        NS_CHECK(coll_Lists_##F##_insert(&c->lists, i, ARG(value)) == NS_OK, #F ": insert at %u of %u", i,  \
                 coll_Lists_##F##_count(&c->lists));                                                       \
        NS_CHECK(SAME(&c->lists.F, &live->F), #F ": inside insert, live is not the mirror");              \
        c->inserts++;                                                                                      \
    }                                                                                                      \
    static void F##_set(void *ctx, coll_Lists *live, uint32_t i, P old, P now)                             \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_up(&c->o_##F, i, #F);                                                                        \
        NS_CHECK(i < coll_Lists_##F##_count(&c->lists), #F ": set at %u of %u", i,                          \
                 coll_Lists_##F##_count(&c->lists));                                                       \
        NS_CHECK(EQ(old, coll_Lists_##F##_at(&c->lists, i)), #F ": set %u: the old value is not the mirror's", i); \
        NS_CHECK(!EQ(now, coll_Lists_##F##_at(&c->lists, i)), #F ": set %u changes nothing", i);           \
        ck_assert_int_eq(coll_Lists_##F##_set(&c->lists, i, ARG(now)), NS_OK);                              \
        NS_CHECK(SAME(&c->lists.F, &live->F), #F ": inside set, live is not the mirror");                 \
        c->sets_++;                                                                                        \
    }                                                                                                      \
    static void F##_remove(void *ctx, coll_Lists *live, uint32_t i, P old)                                 \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_remove(&c->o_##F, i, #F);                                                                    \
        NS_CHECK(SAME(&c->lists.F, &live->F), #F ": inside remove, live is not the mirror");              \
        NS_CHECK(i < coll_Lists_##F##_count(&c->lists) && EQ(old, coll_Lists_##F##_at(&c->lists, i)),       \
                 #F ": remove %u: not the mirror's element", i);                                           \
        ck_assert_int_eq(coll_Lists_##F##_remove(&c->lists, i), NS_OK);                                     \
        c->removes++;                                                                                      \
    }                                                                                                      \
    static void F##_clear(void *ctx, coll_Lists *live)                                                     \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_clear(&c->o_##F, #F);                                                                        \
        NS_CHECK(SAME(&c->lists.F, &live->F), #F ": inside clear, live is not the mirror");               \
        NS_CHECK(coll_Lists_##F##_count(&c->lists) > 0, #F ": a clear of an empty list");                  \
        coll_Lists_##F##_clear(&c->lists);                                                                 \
        c->clears++;                                                                                       \
    }

LIST_HOOKS(nums, uint32_t, AS_IS, EQ_VALUE, same_nums)
LIST_HOOKS(things, const coll_Item *, AS_IS, EQ_ITEM, same_things)
LIST_HOOKS(names, const char *, AS_IS, EQ_STRING, same_names)
LIST_HOOKS(path, const ns_vec2 *, DEREF, EQ_BYTES, same_path)
LIST_HOOKS(paints, coll_Color, AS_IS, EQ_VALUE, same_paints)

#define MAP_HOOKS(F, K, ORD, P, ARG, EQ, SAME)                                                            \
    static void F##_add(void *ctx, coll_Maps *live, K key, P value)                                        \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_up(&c->o_##F, ORD(key), #F);                                                                 \
        NS_CHECK(coll_Maps_##F##_find(&c->maps, key) < 0, #F ": add of a key the mirror holds");           \
        ck_assert_int_eq(coll_Maps_##F##_set(&c->maps, key, ARG(value)), NS_OK);                           \
        NS_CHECK(SAME(&c->maps.F, &live->F), #F ": inside add, live is not the mirror");                  \
        c->adds++;                                                                                         \
    }                                                                                                      \
    static void F##_set(void *ctx, coll_Maps *live, K key, P old, P now)                                   \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_up(&c->o_##F, ORD(key), #F);                                                                 \
        int32_t at = coll_Maps_##F##_find(&c->maps, key);                                                  \
        NS_CHECK(at >= 0 && EQ(old, coll_Maps_##F##_at(&c->maps, (uint32_t)at)), #F ": set: not the mirror's old value"); \
        NS_CHECK(!EQ(now, coll_Maps_##F##_at(&c->maps, (uint32_t)at)), #F ": a set that changes nothing"); \
        ck_assert_int_eq(coll_Maps_##F##_set(&c->maps, key, ARG(now)), NS_OK);                             \
        NS_CHECK(SAME(&c->maps.F, &live->F), #F ": inside set, live is not the mirror");                  \
        c->sets_++;                                                                                        \
    }                                                                                                      \
    static void F##_remove(void *ctx, coll_Maps *live, K key, P old)                                       \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_remove(&c->o_##F, ORD(key), #F);                                                             \
        NS_CHECK(SAME(&c->maps.F, &live->F), #F ": inside remove, live is not the mirror");               \
        int32_t at = coll_Maps_##F##_find(&c->maps, key);                                                  \
        NS_CHECK(at >= 0 && EQ(old, coll_Maps_##F##_at(&c->maps, (uint32_t)at)), #F ": remove: not the mirror's entry"); \
        ck_assert_int_eq(coll_Maps_##F##_remove(&c->maps, key), NS_OK);                                    \
        c->removes++;                                                                                      \
    }

MAP_HOOKS(slots, int16_t, ORD_S, const coll_Item *, AS_IS, EQ_ITEM, same_slots)
MAP_HOOKS(big, uint64_t, ORD_U, uint32_t, AS_IS, EQ_VALUE, same_big)
MAP_HOOKS(tint, coll_Color, ORD_S, int32_t, AS_IS, EQ_VALUE, same_tint)

#define SET_HOOKS(F, K, ORD, SAME)                                                                        \
    static void F##_add(void *ctx, coll_Sets *live, K key)                                                 \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_up(&c->o_##F, ORD(key), #F);                                                                 \
        NS_CHECK(coll_Sets_##F##_find(&c->sets, key) < 0, #F ": add of a key the mirror holds");           \
        ck_assert_int_eq(coll_Sets_##F##_add(&c->sets, key), NS_OK);                                       \
        NS_CHECK(SAME(&c->sets.F, &live->F), #F ": inside add, live is not the mirror");                  \
        c->adds++;                                                                                         \
    }                                                                                                      \
    static void F##_remove(void *ctx, coll_Sets *live, K key)                                              \
    {                                                                                                      \
        ev_check *c = (ev_check *)ctx;                                                                     \
        order_remove(&c->o_##F, ORD(key), #F);                                                             \
        NS_CHECK(SAME(&c->sets.F, &live->F), #F ": inside remove, live is not the mirror");               \
        ck_assert_int_eq(coll_Sets_##F##_remove(&c->sets, key), NS_OK);                                    \
        c->removes++;                                                                                      \
    }

SET_HOOKS(flags, uint16_t, ORD_U, same_flags)
SET_HOOKS(colors, coll_Color, ORD_S, same_colors)
SET_HOOKS(wide, int64_t, ORD_S, same_wide)
SET_HOOKS(seen, ns_entity, ORD_U, same_seen)

static void names_notify(void *ctx, coll_Lists *live)
{
    (void)live;
    ((ev_check *)ctx)->notified++;
}

static void tint_notify(void *ctx, coll_Maps *live)
{
    (void)live;
    ((ev_check *)ctx)->notified++;
}

/* Every hook set; variants drop some (see hooks_for). */
static const coll_Lists_hooks lists_all = {
    .nums_insert = nums_insert, .nums_set = nums_set, .nums_remove = nums_remove, .nums_clear = nums_clear,
    .things_insert = things_insert, .things_set = things_set, .things_remove = things_remove, .things_clear = things_clear,
    .names = names_notify,
    .names_insert = names_insert, .names_set = names_set, .names_remove = names_remove, .names_clear = names_clear,
    .path_insert = path_insert, .path_set = path_set, .path_remove = path_remove, .path_clear = path_clear,
    .paints_insert = paints_insert, .paints_set = paints_set, .paints_remove = paints_remove, .paints_clear = paints_clear,
};
static const coll_Maps_hooks maps_all = {
    .slots_add = slots_add, .slots_set = slots_set, .slots_remove = slots_remove,
    .big_add = big_add, .big_set = big_set, .big_remove = big_remove,
    .tint = tint_notify, .tint_add = tint_add, .tint_set = tint_set, .tint_remove = tint_remove,
};
static const coll_Sets_hooks sets_all = {
    .flags_add = flags_add, .flags_remove = flags_remove, .colors_add = colors_add, .colors_remove = colors_remove,
    .wide_add = wide_add, .wide_remove = wide_remove, .seen_add = seen_add, .seen_remove = seen_remove,
};

/* Which hooks an apply gets: all (mirrors kept by events), all but the lists' clear (an emptied
 * list must then come as removes), none (NULL), or only the @notify ones (no element event). */
typedef enum variant { ALL, NO_CLEAR, NO_HOOKS, NOTIFY_ONLY } variant;

static variant pick(ns_rng *rng)
{
    uint64_t r = ns_rng_below(rng, 10);
    return r < 7 ? ALL : r == 7 ? NO_CLEAR : r == 8 ? NO_HOOKS : NOTIFY_ONLY;
}

static void reset_orders(ev_check *c)
{
    order *all[] = {&c->o_nums, &c->o_things, &c->o_names, &c->o_path, &c->o_paints, &c->o_slots,
                    &c->o_big, &c->o_tint, &c->o_flags, &c->o_colors, &c->o_wide, &c->o_seen};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) memset(all[i], 0, sizeof *all[i]);
}

/* After an apply with element hooks: the field's mirror equals live, and a field that did not
 * change saw no event. Without them (mirror_kept false) no event ran, and the mirror is resynced. */
#define AFTER(F, SAME, MIRROR, BEFORE, LIVE)                                                               \
    do {                                                                                                   \
        if (!mirror_kept) {                                                                                \
            NS_CHECK(c->o_##F.events == 0, #F ": element events without element hooks");                  \
            (MIRROR).F = (LIVE)->F;                                                                        \
            break;                                                                                         \
        }                                                                                                  \
        NS_CHECK(SAME(&(MIRROR).F, &(LIVE)->F), #F ": after apply, the mirror is not the live collection"); \
        if (SAME(&(BEFORE).F, &(LIVE)->F)) NS_CHECK(c->o_##F.events == 0, #F ": events for an unchanged collection"); \
    } while (0)

static void apply_lists(void *live, const void *snap, void *checker)
{
    ev_check *c = (ev_check *)checker;
    coll_Lists *l = (coll_Lists *)live, before = *l, want;
    ns_rng rng = {c->applies++};
    variant v = pick(&rng);
    coll_Lists_hooks h = lists_all;
    if (v == NO_CLEAR) h.nums_clear = NULL, h.things_clear = NULL, h.names_clear = NULL, h.path_clear = NULL, h.paints_clear = NULL;
    if (v == NOTIFY_ONLY) memset(&h, 0, sizeof h), h.names = names_notify;
    reset_orders(c);
    coll_Lists_apply(l, (const coll_Lists_snap *)snap, v == NO_HOOKS ? NULL : &h, c);
    bool mirror_kept = v == ALL || v == NO_CLEAR;
    AFTER(nums, same_nums, c->lists, before, l);
    AFTER(things, same_things, c->lists, before, l);
    AFTER(names, same_names, c->lists, before, l);
    AFTER(path, same_path, c->lists, before, l);
    AFTER(paints, same_paints, c->lists, before, l);
    coll_Lists_dequantize((const coll_Lists_snap *)snap, &want);
    NS_CHECK(coll_Lists_equal(l, &want), "lists: the events path left live other than _dequantize does");
}

static void apply_maps(void *live, const void *snap, void *checker)
{
    ev_check *c = (ev_check *)checker;
    coll_Maps *l = (coll_Maps *)live, before = *l, want;
    ns_rng rng = {c->applies++};
    variant v = pick(&rng);
    coll_Maps_hooks h = maps_all;
    if (v == NOTIFY_ONLY) memset(&h, 0, sizeof h), h.tint = tint_notify;
    reset_orders(c);
    coll_Maps_apply(l, (const coll_Maps_snap *)snap, v == NO_HOOKS ? NULL : &h, c);
    bool mirror_kept = v == ALL || v == NO_CLEAR;
    AFTER(slots, same_slots, c->maps, before, l);
    AFTER(big, same_big, c->maps, before, l);
    AFTER(tint, same_tint, c->maps, before, l);
    coll_Maps_dequantize((const coll_Maps_snap *)snap, &want);
    NS_CHECK(coll_Maps_equal(l, &want), "maps: the events path left live other than _dequantize does");
}

static void apply_sets(void *live, const void *snap, void *checker)
{
    ev_check *c = (ev_check *)checker;
    coll_Sets *l = (coll_Sets *)live, before = *l, want;
    ns_rng rng = {c->applies++};
    variant v = pick(&rng);
    coll_Sets_hooks h = sets_all;
    if (v == NOTIFY_ONLY) memset(&h, 0, sizeof h);
    reset_orders(c);
    coll_Sets_apply(l, (const coll_Sets_snap *)snap, v == NO_HOOKS ? NULL : &h, c);
    bool mirror_kept = v == ALL || v == NO_CLEAR;
    AFTER(flags, same_flags, c->sets, before, l);
    AFTER(colors, same_colors, c->sets, before, l);
    AFTER(wide, same_wide, c->sets, before, l);
    AFTER(seen, same_seen, c->sets, before, l);
    coll_Sets_dequantize((const coll_Sets_snap *)snap, &want);
    NS_CHECK(coll_Sets_equal(l, &want), "sets: the events path left live other than _dequantize does");
}

/* ---- random changes: small alphabets, so prefixes, suffixes and duplicates are common ------ */

static coll_Item small_item(ns_rng *rng)
{
    coll_Item it;
    coll_Item_init(&it);
    it.kind = (uint16_t)ns_rng_below(rng, 3);
    it.count = (uint8_t)ns_rng_below(rng, 3);
    it.wear = (float)ns_rng_below(rng, 3) / 2.0f;
    return it;
}

static const char *const words[] = {"", "a", "sword", "héllo"};
static const coll_Color colors[] = {coll_Color_red, coll_Color_green, coll_Color_blue};

/* One random operation on one list; rarely a clear, sometimes a whole new list. */
static void list_op(coll_Lists *v, ns_rng *rng)
{
    uint32_t what = (uint32_t)ns_rng_below(rng, 100), field = (uint32_t)ns_rng_below(rng, 5);
    uint32_t n[] = {coll_Lists_nums_count(v), coll_Lists_things_count(v), coll_Lists_names_count(v),
                    coll_Lists_path_count(v), coll_Lists_paints_count(v)};
    uint32_t at = (uint32_t)ns_rng_below(rng, n[field] + 1);
    uint32_t reps = what >= 95 ? 1 + (uint32_t)ns_rng_below(rng, 12) : 1; /* a burst of inserts */
    if (what < 3) {
        switch (field) {
        case 0: coll_Lists_nums_clear(v); break;
        case 1: coll_Lists_things_clear(v); break;
        case 2: coll_Lists_names_clear(v); break;
        case 3: coll_Lists_path_clear(v); break;
        default: coll_Lists_paints_clear(v); break;
        }
        return;
    }
    for (uint32_t r = 0; r < reps; r++) {
        bool insert = what < 45 || what >= 95, remove = !insert && what < 75 && at < n[field];
        coll_Item it = small_item(rng);
        ns_vec2 p = {(float)ns_rng_below(rng, 3) * 0.5f, 1.5f};
        uint32_t num = ns_rng_below(rng, 4) ? (uint32_t)ns_rng_below(rng, 4) : ns_rng_u32_spread(rng);
        switch (field) {
        case 0:
            if (insert) (void)coll_Lists_nums_insert(v, at, num);
            else if (remove) (void)coll_Lists_nums_remove(v, at);
            else (void)coll_Lists_nums_set(v, at, num);
            break;
        case 1:
            if (insert) (void)coll_Lists_things_insert(v, at, &it);
            else if (remove) (void)coll_Lists_things_remove(v, at);
            else (void)coll_Lists_things_set(v, at, &it);
            break;
        case 2:
            if (insert) (void)coll_Lists_names_insert(v, at, words[ns_rng_below(rng, 4)]);
            else if (remove) (void)coll_Lists_names_remove(v, at);
            else (void)coll_Lists_names_set(v, at, words[ns_rng_below(rng, 4)]);
            break;
        case 3:
            if (insert) (void)coll_Lists_path_insert(v, at, p);
            else if (remove) (void)coll_Lists_path_remove(v, at);
            else (void)coll_Lists_path_set(v, at, p);
            break;
        default:
            if (insert) (void)coll_Lists_paints_insert(v, at, colors[ns_rng_below(rng, 3)]);
            else if (remove) (void)coll_Lists_paints_remove(v, at);
            else (void)coll_Lists_paints_set(v, at, colors[ns_rng_below(rng, 3)]);
            break;
        }
    }
}

static void map_op(coll_Maps *v, ns_rng *rng)
{
    static const uint64_t big_keys[] = {0, 1, 1000, UINT64_C(0x7fffffffffffffff), UINT64_C(0x8000000000000000), UINT64_MAX};
    uint32_t what = (uint32_t)ns_rng_below(rng, 100);
    coll_Item it = small_item(rng);
    switch (ns_rng_below(rng, 3)) {
    case 0: {
        int16_t key = what < 10 ? (what < 5 ? INT16_MIN : INT16_MAX) : (int16_t)((int)ns_rng_below(rng, 13) - 6);
        if (what < 3) coll_Maps_slots_clear(v);
        else if (what < 60) (void)coll_Maps_slots_set(v, key, &it);
        else (void)coll_Maps_slots_remove(v, key);
        break;
    }
    case 1: {
        uint64_t key = what % 2 ? big_keys[what % 6] : ns_rng_below(rng, 40);
        if (what < 3) coll_Maps_big_clear(v);
        else if (what < 60) (void)coll_Maps_big_set(v, key, (uint32_t)ns_rng_below(rng, 3));
        else (void)coll_Maps_big_remove(v, key);
        break;
    }
    default:
        if (what < 3) coll_Maps_tint_clear(v);
        else if (what < 60) (void)coll_Maps_tint_set(v, colors[what % 3], (int32_t)ns_rng_below(rng, 3) - 1);
        else (void)coll_Maps_tint_remove(v, colors[what % 3]);
        break;
    }
}

static void set_op(coll_Sets *v, ns_rng *rng)
{
    static const int64_t wide[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX};
    uint32_t what = (uint32_t)ns_rng_below(rng, 100);
    bool add = what >= 3 && what < 60;
    switch (ns_rng_below(rng, 4)) {
    case 0: {
        uint16_t key = (uint16_t)(what % 7 == 0 ? 65535u : ns_rng_below(rng, 80));
        if (what < 3) coll_Sets_flags_clear(v);
        else if (add) (void)coll_Sets_flags_add(v, key);
        else (void)coll_Sets_flags_remove(v, key);
        break;
    }
    case 1:
        if (what < 3) coll_Sets_colors_clear(v);
        else if (add) (void)coll_Sets_colors_add(v, colors[what % 3]);
        else (void)coll_Sets_colors_remove(v, colors[what % 3]);
        break;
    case 2: {
        int64_t key = what % 2 ? wide[what % 6] : (int64_t)ns_rng_below(rng, 21) - 10;
        if (what < 3) coll_Sets_wide_clear(v);
        else if (add) (void)coll_Sets_wide_add(v, key);
        else (void)coll_Sets_wide_remove(v, key);
        break;
    }
    default: {
        ns_entity e = (ns_entity)(what % 5 == 0 ? UINT32_MAX - what : ns_rng_below(rng, 50));
        if (what < 3) coll_Sets_seen_clear(v);
        else if (add) (void)coll_Sets_seen_add(v, e);
        else (void)coll_Sets_seen_remove(v, e);
        break;
    }
    }
}

static unsigned mutate_lists(void *value, ns_rng *rng)
{
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 8);
    for (unsigned k = 0; k < n; k++) list_op((coll_Lists *)value, rng);
    return n;
}

static unsigned mutate_maps(void *value, ns_rng *rng)
{
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 8);
    for (unsigned k = 0; k < n; k++) map_op((coll_Maps *)value, rng);
    return n;
}

static unsigned mutate_sets(void *value, ns_rng *rng)
{
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 8);
    for (unsigned k = 0; k < n; k++) set_op((coll_Sets *)value, rng);
    return n;
}

/* ---- through _write/_read over a lossy link --------------------------------------------------- */

#define ERASE(T)                                                                                      \
    static void T##_init_v(void *v) { coll_##T##_init((coll_##T *)v); }                              \
    static void T##_quant_v(const void *v, void *s) { coll_##T##_quantize((const coll_##T *)v, (coll_##T##_snap *)s); } \
    static ns_status T##_w(ns_writer *w, const void *c, const ns_baselines *b, ns_audience to)      \
    {                                                                                                 \
        return coll_##T##_write(w, (const coll_##T##_snap *)c, b, to);                               \
    }                                                                                                 \
    static ns_status T##_r(ns_reader *r, void *o, const ns_baselines *b, ns_audience to)            \
    {                                                                                                 \
        return coll_##T##_read(r, (coll_##T##_snap *)o, b, to);                                       \
    }                                                                                                 \
    static bool T##_eq(const void *a, const void *b)                                                  \
    {                                                                                                 \
        return coll_##T##_snap_equal((const coll_##T##_snap *)a, (const coll_##T##_snap *)b);         \
    }

ERASE(Lists)
ERASE(Maps)
ERASE(Sets)

#define MODEL(T, U, checker)                                                                            \
    {#T, sizeof(coll_##T), sizeof(coll_##T##_snap), COLL_##U##_MAX_BYTES, T##_init_v, mutate_##T##_v,   \
     T##_quant_v, T##_w, T##_r, T##_eq, apply_##T##_v, checker}

#define mutate_Lists_v mutate_lists
#define mutate_Maps_v mutate_maps
#define mutate_Sets_v mutate_sets
#define apply_Lists_v apply_lists
#define apply_Maps_v apply_maps
#define apply_Sets_v apply_sets

static ev_check *new_check(void)
{
    static ev_check c;
    memset(&c, 0, sizeof c);
    coll_Lists_init(&c.lists);
    coll_Maps_init(&c.maps);
    coll_Sets_init(&c.sets);
    return &c;
}

static void counts(const char *what, const ev_check *c)
{
    printf("%-6s %lu applies: %lu inserts, %lu adds, %lu sets, %lu removes, %lu clears, %lu @notify\n", what,
           c->applies, c->inserts, c->adds, c->sets_, c->removes, c->clears, c->notified);
}

START_TEST(lists_over_link)
{
    ev_check *c = new_check();
    coll_model m = MODEL(Lists, LISTS, c);
    coll_stats s = coll_run(&m, 0xe1157u, 20000, 20);
    counts("lists", c);
    ck_assert_uint_gt(s.applied, 10000);
    ck_assert_uint_gt(c->inserts, 5000);
    ck_assert_uint_gt(c->sets_, 5000);
    ck_assert_uint_gt(c->removes, 5000);
    ck_assert_uint_gt(c->clears, 100);
}
END_TEST

START_TEST(maps_over_link)
{
    ev_check *c = new_check();
    coll_model m = MODEL(Maps, MAPS, c);
    coll_stats s = coll_run(&m, 0xe3a95u, 20000, 20);
    counts("maps", c);
    ck_assert_uint_gt(s.applied, 10000);
    ck_assert_uint_gt(c->adds, 5000);
    ck_assert_uint_gt(c->sets_, 5000);
    ck_assert_uint_gt(c->removes, 5000);
}
END_TEST

START_TEST(sets_over_link)
{
    ev_check *c = new_check();
    coll_model m = MODEL(Sets, SETS, c);
    coll_stats s = coll_run(&m, 0xe5e75u, 20000, 20);
    counts("sets", c);
    ck_assert_uint_gt(s.applied, 10000);
    ck_assert_uint_gt(c->adds, 5000);
    ck_assert_uint_gt(c->removes, 5000);
}
END_TEST

/* ---- directly: _apply of unrelated random states ---------------------------------------------- */

/* The sender's next state: a few operations, or (one in four) a state built from scratch. */
#define JUMPS(NAME, T, OP, SNAP, APPLY)                                                                 \
    START_TEST(NAME)                                                                                    \
    {                                                                                                   \
        ev_check *c = new_check();                                                                      \
        static T sender, live;                                                                          \
        static SNAP snap;                                                                               \
        ns_rng rng = {0x7e57u + sizeof(T)};                                                             \
        memset(&sender, 0, sizeof sender);                                                              \
        memset(&live, 0, sizeof live);                                                                  \
        for (unsigned k = 0; k < 60000; k++) {                                                          \
            if (ns_rng_below(&rng, 4) == 0) {                                                           \
                memset(&sender, 0, sizeof sender);                                                      \
                for (unsigned r = (unsigned)ns_rng_below(&rng, 120); r > 0; r--) OP(&sender, &rng);     \
            } else {                                                                                    \
                for (unsigned r = 1 + (unsigned)ns_rng_below(&rng, 4); r > 0; r--) OP(&sender, &rng);   \
            }                                                                                           \
            memset(&snap, 0, sizeof snap);                                                              \
            QUANTIZE_##T(&sender, &snap);                                                               \
            APPLY(&live, &snap, c);                                                                     \
        }                                                                                               \
        counts(#NAME, c);                                                                               \
        ck_assert_uint_gt(c->removes, 10000);                                                           \
    }                                                                                                   \
    END_TEST

#define QUANTIZE_coll_Lists coll_Lists_quantize
#define QUANTIZE_coll_Maps coll_Maps_quantize
#define QUANTIZE_coll_Sets coll_Sets_quantize

JUMPS(lists_jumps, coll_Lists, list_op, coll_Lists_snap, apply_lists)
JUMPS(maps_jumps, coll_Maps, map_op, coll_Maps_snap, apply_maps)
JUMPS(sets_jumps, coll_Sets, set_op, coll_Sets_snap, apply_sets)

/* ---- exact event sequences a user can check by hand ------------------------------------------- */

typedef struct event_log {
    char text[512];
} event_log;

static void say(void *ctx, const char *fmt, uint32_t a, uint32_t b, uint32_t c)
{
    event_log *l = (event_log *)ctx;
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, fmt, a, b, c);
}

static void log_insert(void *ctx, coll_Lists *live, uint32_t i, uint32_t v)
{
    (void)live;
    say(ctx, "insert(%u,%u) ", i, v, 0);
}

static void log_set(void *ctx, coll_Lists *live, uint32_t i, uint32_t old, uint32_t now)
{
    (void)live;
    say(ctx, "set(%u,%u->%u) ", i, old, now);
}

static void log_remove(void *ctx, coll_Lists *live, uint32_t i, uint32_t old)
{
    (void)live;
    say(ctx, "remove(%u,%u) ", i, old, 0);
}

static void log_clear(void *ctx, coll_Lists *live)
{
    say(ctx, "clear(%u) ", live->nums.count, 0, 0);
}

static void log_add(void *ctx, coll_Maps *live, uint64_t key, uint32_t v)
{
    (void)live;
    say(ctx, "add(%u,%u) ", (uint32_t)key, v, 0);
}

static void log_mset(void *ctx, coll_Maps *live, uint64_t key, uint32_t old, uint32_t now)
{
    (void)live;
    say(ctx, "set(%u,%u->%u) ", (uint32_t)key, old, now);
}

static void log_mremove(void *ctx, coll_Maps *live, uint64_t key, uint32_t old)
{
    (void)live;
    say(ctx, "remove(%u,%u) ", (uint32_t)key, old, 0);
}

/* The events that take nums from `from` to `to` (with or without the clear hook). */
static const char *list_events(const uint32_t *from, uint32_t nf, const uint32_t *to, uint32_t nt, bool with_clear)
{
    static event_log l;
    coll_Lists live, want;
    coll_Lists_snap s;
    coll_Lists_init(&live);
    coll_Lists_init(&want);
    for (uint32_t i = 0; i < nf; i++) ck_assert_int_eq(coll_Lists_nums_add(&live, from[i]), NS_OK);
    for (uint32_t i = 0; i < nt; i++) ck_assert_int_eq(coll_Lists_nums_add(&want, to[i]), NS_OK);
    coll_Lists_quantize(&want, &s);
    coll_Lists_hooks h = {.nums_insert = log_insert, .nums_set = log_set, .nums_remove = log_remove,
                          .nums_clear = with_clear ? log_clear : NULL};
    l.text[0] = 0;
    coll_Lists_apply(&live, &s, &h, &l);
    return l.text;
}

START_TEST(exact_list_sequences)
{
    const uint32_t abcd[] = {1, 2, 3, 4}, acd[] = {1, 3, 4}, abxcd[] = {1, 2, 9, 3, 4}, xbcd[] = {7, 2, 3, 4};
    const uint32_t bcd[] = {2, 3, 4}, ab[] = {1, 2}, abcdef[] = {1, 2, 3, 4, 5, 6}, dcba[] = {4, 3, 2, 1};
    ck_assert_str_eq(list_events(abcd, 4, acd, 3, true), "remove(1,2) ");
    ck_assert_str_eq(list_events(abcd, 4, abxcd, 5, true), "insert(2,9) ");
    ck_assert_str_eq(list_events(abcd, 4, xbcd, 4, true), "set(0,1->7) ");
    ck_assert_str_eq(list_events(abcd, 4, bcd, 3, true), "remove(0,1) ");            /* a queue's pop */
    ck_assert_str_eq(list_events(abcd, 4, ab, 2, true), "remove(3,4) remove(2,3) ");  /* highest first */
    ck_assert_str_eq(list_events(ab, 2, abcdef, 6, true), "insert(2,3) insert(3,4) insert(4,5) insert(5,6) ");
    ck_assert_str_eq(list_events(abcd, 4, dcba, 4, true), "set(0,1->4) set(1,2->3) set(2,3->2) set(3,4->1) ");
    ck_assert_str_eq(list_events(abcd, 4, abcd, 4, true), "");
    ck_assert_str_eq(list_events(abcd, 4, NULL, 0, true), "clear(4) ");               /* still in live */
    ck_assert_str_eq(list_events(abcd, 4, NULL, 0, false), "remove(3,4) remove(2,3) remove(1,2) remove(0,1) ");
    ck_assert_str_eq(list_events(NULL, 0, NULL, 0, true), "");
    /* Longer on both sides of the change: sets for the overlap, then inserts after it. */
    const uint32_t from[] = {1, 5, 6, 4}, to[] = {1, 7, 8, 9, 4};
    ck_assert_str_eq(list_events(from, 4, to, 5, true), "set(1,5->7) set(2,6->8) insert(3,9) ");
    ck_assert_str_eq(list_events(to, 5, from, 4, true), "remove(3,9) set(1,7->5) set(2,8->6) ");
}
END_TEST

START_TEST(exact_map_sequence)
{
    coll_Maps live, want;
    coll_Maps_snap s;
    event_log l = {{0}};
    coll_Maps_init(&live);
    coll_Maps_init(&want);
    const uint64_t keys[] = {1, 3, 5, 7};
    for (int i = 0; i < 4; i++) ck_assert_int_eq(coll_Maps_big_set(&live, keys[i], (uint32_t)(10 * keys[i])), NS_OK);
    ck_assert_int_eq(coll_Maps_big_set(&want, 0, 5), NS_OK);   /* new */
    ck_assert_int_eq(coll_Maps_big_set(&want, 3, 31), NS_OK);  /* changed */
    ck_assert_int_eq(coll_Maps_big_set(&want, 5, 50), NS_OK);  /* the same */
    ck_assert_int_eq(coll_Maps_big_set(&want, 9, 90), NS_OK);  /* new; 1 and 7 are gone */
    coll_Maps_quantize(&want, &s);
    coll_Maps_hooks h = {.big_add = log_add, .big_set = log_mset, .big_remove = log_mremove};
    coll_Maps_apply(&live, &s, &h, &l);
    ck_assert_str_eq(l.text, "remove(7,70) remove(1,10) add(0,5) set(3,30->31) add(9,90) ");
    ck_assert(same_big(&live.big, &want.big));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("collection events");
    TCase *tc = tcase_create("events");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, exact_list_sequences);
    tcase_add_test(tc, exact_map_sequence);
    tcase_add_test(tc, lists_jumps);
    tcase_add_test(tc, maps_jumps);
    tcase_add_test(tc, sets_jumps);
    tcase_add_test(tc, lists_over_link);
    tcase_add_test(tc, maps_over_link);
    tcase_add_test(tc, sets_over_link);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
