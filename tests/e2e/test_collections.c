/* test_collections.c — randomized model tests of list, map, set and fastarray fields through
 * generated code (coll.netschema): at least 100,000 operations per kind with fixed seeds, sent
 * over a link that drops 20% of packets, reorders and duplicates them, with acks flowing back.
 * Every decoded snapshot must equal the sender's state at its tick (values and, for @ordered,
 * order), and the fast-array events a receiver sees must replay exactly the differences
 * between consecutive applied states: removes, then adds, then changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.ns.h"
#include "coll_link.h"

#define TICKS 30000u
#define LOSS 20u

static coll_Item random_item(ns_rng *rng)
{
    coll_Item it;
    coll_Item_init(&it);
    it.kind = (uint16_t)ns_rng_below(rng, 40);
    it.count = (uint8_t)ns_rng_below(rng, 100);
    it.wear = (float)ns_rng_below(rng, 101) / 100.0f;
    return it;
}

static void report(const char *name, const coll_stats *s, unsigned long min_ops)
{
    printf("%-8s %lu ops in %lu ticks: %lu packets sent, %lu delivered, %lu decoded, %lu applied, "
           "%lu undecodable; baselines 0/1/2/3: %lu/%lu/%lu/%lu; %.1f bytes/tick\n",
           name, s->ops, s->ticks, s->sent, s->delivered, s->decoded, s->applied, s->undecodable, s->baselines[0],
           s->baselines[1], s->baselines[2], s->baselines[3], (double)s->bytes / (double)s->ticks);
    ck_assert_uint_ge(s->ops, min_ops);
    ck_assert_uint_gt(s->decoded, s->ticks / 2);
    ck_assert_uint_gt(s->baselines[3], s->ticks / 10); /* the predictor path really ran */
}

/* ---- lists ----------------------------------------------------------------------------------- */

static unsigned mutate_lists(void *value, ns_rng *rng)
{
    coll_Lists *v = (coll_Lists *)value;
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 6);
    for (unsigned k = 0; k < n; k++) {
        uint32_t what = (uint32_t)ns_rng_below(rng, 100), count;
        ns_status st = NS_OK;
        switch (ns_rng_below(rng, 5)) {
        case 0:
            count = coll_Lists_nums_count(v);
            if (what < 35) st = coll_Lists_nums_add(v, ns_rng_u32_spread(rng));
            else if (what < 50) st = coll_Lists_nums_insert(v, (uint32_t)ns_rng_below(rng, count + 1), (uint32_t)what);
            else if (what < 70 && count) st = coll_Lists_nums_remove(v, what < 60 ? 0 : (uint32_t)ns_rng_below(rng, count));
            else if (what < 99 && count) st = coll_Lists_nums_set(v, (uint32_t)ns_rng_below(rng, count), ns_rng_u32_spread(rng));
            else coll_Lists_nums_clear(v);
            if (st == NS_ERR_CAPACITY) ck_assert_uint_eq(coll_Lists_nums_count(v), 64);
            break;
        case 1: {
            coll_Item it = random_item(rng);
            count = coll_Lists_things_count(v);
            if (what < 40) st = coll_Lists_things_add(v, &it);
            else if (what < 70 && count) st = coll_Lists_things_remove(v, (uint32_t)ns_rng_below(rng, count));
            else if (count) st = coll_Lists_things_set(v, (uint32_t)ns_rng_below(rng, count), &it);
            break;
        }
        case 2: {
            static const char *const words[] = {"", "a", "sword", "héllo", "twelve chars", "x\xff"};
            const char *w = words[ns_rng_below(rng, 6)];
            count = coll_Lists_names_count(v);
            if (what < 40) st = coll_Lists_names_add(v, w);
            else if (what < 70 && count) st = coll_Lists_names_remove(v, (uint32_t)ns_rng_below(rng, count));
            else if (count) st = coll_Lists_names_set(v, (uint32_t)ns_rng_below(rng, count), w);
            break;
        }
        case 3: {
            ns_vec2 p = {(float)ns_rng_below(rng, 2000) / 10.0f - 100.0f, (float)ns_rng_below(rng, 200) / 10.0f};
            count = coll_Lists_path_count(v);
            if (what < 40) st = coll_Lists_path_add(v, p);
            else if (what < 70 && count) st = coll_Lists_path_remove(v, 0);
            else if (count) st = coll_Lists_path_set(v, count - 1, p);
            break;
        }
        default: {
            static const coll_Color colors[] = {coll_Color_red, coll_Color_green, coll_Color_blue};
            count = coll_Lists_paints_count(v);
            if (what < 50) st = coll_Lists_paints_insert(v, 0, colors[what % 3]);
            else if (count) st = coll_Lists_paints_remove(v, count - 1);
            coll_Lists_set_hp(v, (int32_t)ns_rng_below(rng, 2001) - 1000);
            break;
        }
        }
        ck_assert(st == NS_OK || st == NS_ERR_CAPACITY);
    }
    return n;
}

typedef struct notify_check {
    unsigned calls, changes;
} notify_check;

static void names_changed(void *ctx, coll_Lists *live)
{
    (void)live;
    ((notify_check *)ctx)->calls++;
}

static void apply_lists(void *live, const void *snap, void *checker)
{
    coll_Lists *l = (coll_Lists *)live;
    coll_Lists_names before = l->names;
    coll_Lists_hooks hooks = {.names = names_changed};
    notify_check *nc = (notify_check *)checker;
    unsigned calls = nc->calls;
    coll_Lists_apply(l, (const coll_Lists_snap *)snap, &hooks, nc);
    bool differs = before.count != l->names.count;
    for (uint32_t i = 0; !differs && i < before.count; i++) differs = strcmp(before.items[i], l->names.items[i]) != 0;
    NS_CHECK((nc->calls - calls == 1) == differs, "names hook called %u times for a %s list", nc->calls - calls,
             differs ? "changed" : "unchanged");
    nc->changes += differs;
    coll_Lists_snap back;
    coll_Lists_quantize(l, &back);
    NS_CHECK(coll_Lists_snap_equal(&back, (const coll_Lists_snap *)snap), "lists: live value differs from its snapshot");
}

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

#define MODEL(T, U, mutate, apply, checker)                                                             \
    {#T, sizeof(coll_##T), sizeof(coll_##T##_snap), COLL_##U##_MAX_BYTES, T##_init_v, mutate, T##_quant_v, \
     T##_w, T##_r, T##_eq, apply, checker}

ERASE(Lists)
ERASE(Maps)
ERASE(Sets)
ERASE(Fast)
ERASE(Ordered)

START_TEST(lists_model)
{
    notify_check nc = {0, 0};
    coll_model m = MODEL(Lists, LISTS, mutate_lists, apply_lists, &nc);
    coll_stats s = coll_run(&m, 0x11575u, TICKS, LOSS);
    report("lists", &s, 100000);
    ck_assert_uint_gt(nc.changes, 1000);
}
END_TEST

/* ---- maps -------------------------------------------------------------------------------------- */

static unsigned mutate_maps(void *value, ns_rng *rng)
{
    coll_Maps *v = (coll_Maps *)value;
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 6);
    static const uint64_t big_keys[] = {0, 1, 2, 1000, UINT64_C(0xffffffff), UINT64_C(0x100000000),
                                        UINT64_C(0x7fffffffffffffff), UINT64_C(0x8000000000000000), UINT64_MAX};
    for (unsigned k = 0; k < n; k++) {
        uint32_t what = (uint32_t)ns_rng_below(rng, 100);
        ns_status st = NS_OK;
        switch (ns_rng_below(rng, 5)) {
        case 0: {
            int16_t key = (int16_t)((int)ns_rng_below(rng, 41) - 20);
            if (what < 15) key = what < 8 ? INT16_MIN : INT16_MAX;
            coll_Item it = random_item(rng);
            if (what < 60) st = coll_Maps_slots_set(v, key, &it);
            else if (what < 98) st = coll_Maps_slots_remove(v, key);
            else coll_Maps_slots_clear(v);
            break;
        }
        case 1: {
            uint64_t key = what < 50 ? big_keys[what % 9] : ns_rng_next(rng) % 64;
            if (what < 70) st = coll_Maps_big_set(v, key, ns_rng_u32_spread(rng));
            else st = coll_Maps_big_remove(v, key);
            break;
        }
        case 2: {
            static const coll_Color colors[] = {coll_Color_red, coll_Color_green, coll_Color_blue};
            coll_Color key = colors[what % 3];
            if (what < 60) st = coll_Maps_tint_set(v, key, (int32_t)ns_rng_u32_spread(rng));
            else st = coll_Maps_tint_remove(v, key);
            ck_assert_int_eq(coll_Maps_tint_set(v, (coll_Color)7, 1), NS_ERR_RANGE); /* not a Color */
            break;
        }
        case 3:
            if (what < 50) st = coll_Tagged_marks_add(&v->tagged, (uint16_t)what);
            else if (what < 80 && coll_Tagged_marks_count(&v->tagged)) st = coll_Tagged_marks_remove(&v->tagged, 0);
            else v->tagged.level = (uint8_t)what;
            break;
        default:
            if (what < 50) st = coll_Tagged_marks_insert(&v->boxed, 0, (uint16_t)what);
            else if (what < 80 && coll_Tagged_marks_count(&v->boxed)) st = coll_Tagged_marks_remove(&v->boxed, coll_Tagged_marks_count(&v->boxed) - 1);
            else v->boxed.level = (uint8_t)(what * 2);
            break;
        }
        ck_assert(st == NS_OK || st == NS_ERR_CAPACITY || st == NS_ERR_UNKNOWN_ID);
    }
    return n;
}

static void tint_changed(void *ctx, coll_Maps *live)
{
    (void)live;
    ((notify_check *)ctx)->calls++;
}

static void apply_maps(void *live, const void *snap, void *checker)
{
    coll_Maps *l = (coll_Maps *)live;
    coll_Maps_tint before = l->tint;
    coll_Maps_hooks hooks = {.tint = tint_changed};
    notify_check *nc = (notify_check *)checker;
    unsigned calls = nc->calls;
    coll_Maps_apply(l, (const coll_Maps_snap *)snap, &hooks, nc);
    bool differs = before.count != l->tint.count;
    for (uint32_t i = 0; !differs && i < before.count; i++)
        differs = before.keys[i] != l->tint.keys[i] || before.values[i] != l->tint.values[i];
    NS_CHECK((nc->calls - calls == 1) == differs, "tint hook called %u times for a %s map", nc->calls - calls,
             differs ? "changed" : "unchanged");
    nc->changes += differs;
    for (uint32_t i = 1; i < l->slots.count; i++)
        NS_CHECK(l->slots.keys[i - 1] < l->slots.keys[i], "map keys not ascending on the receiver");
}

START_TEST(maps_model)
{
    notify_check nc = {0, 0};
    coll_model m = MODEL(Maps, MAPS, mutate_maps, apply_maps, &nc);
    coll_stats s = coll_run(&m, 0x3a95u, TICKS, LOSS);
    report("maps", &s, 100000);
    ck_assert_uint_gt(nc.changes, 1000);
}
END_TEST

/* ---- sets -------------------------------------------------------------------------------------- */

static unsigned mutate_sets(void *value, ns_rng *rng)
{
    coll_Sets *v = (coll_Sets *)value;
    unsigned n = 1 + (unsigned)ns_rng_below(rng, 6);
    static const int64_t wide[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, 12345, INT64_MAX - 1, INT64_MAX};
    for (unsigned k = 0; k < n; k++) {
        uint32_t what = (uint32_t)ns_rng_below(rng, 100);
        ns_status st = NS_OK;
        switch (ns_rng_below(rng, 4)) {
        case 0: {
            uint16_t key = (uint16_t)(what < 10 ? 65535 - what : ns_rng_below(rng, 150));
            if (what < 55) st = coll_Sets_flags_add(v, key);
            else if (what < 99) st = coll_Sets_flags_remove(v, key);
            else coll_Sets_flags_clear(v);
            break;
        }
        case 1: {
            static const coll_Color colors[] = {coll_Color_red, coll_Color_green, coll_Color_blue};
            if (what < 50) st = coll_Sets_colors_add(v, colors[what % 3]);
            else st = coll_Sets_colors_remove(v, colors[what % 3]);
            break;
        }
        case 2: {
            int64_t key = what < 50 ? wide[what % 8] : (int64_t)ns_rng_below(rng, 30) - 15;
            if (what % 2) st = coll_Sets_wide_add(v, key);
            else st = coll_Sets_wide_remove(v, key);
            break;
        }
        default: {
            ns_entity e = (ns_entity)(what < 20 ? UINT32_MAX - what : ns_rng_below(rng, 100));
            if (what % 3) st = coll_Sets_seen_add(v, e);
            else st = coll_Sets_seen_remove(v, e);
            break;
        }
        }
        ck_assert(st == NS_OK || st == NS_ERR_CAPACITY || st == NS_ERR_UNKNOWN_ID);
    }
    return n;
}

static void apply_sets(void *live, const void *snap, void *checker)
{
    (void)checker;
    coll_Sets *l = (coll_Sets *)live;
    coll_Sets_apply(l, (const coll_Sets_snap *)snap, NULL, NULL);
    for (uint32_t i = 1; i < l->wide.count; i++)
        NS_CHECK(l->wide.items[i - 1] < l->wide.items[i], "signed keys not ascending on the receiver");
    for (uint32_t i = 1; i < l->colors.count; i++)
        NS_CHECK(l->colors.items[i - 1] < l->colors.items[i], "enum keys not ascending on the receiver");
}

START_TEST(sets_model)
{
    coll_model m = MODEL(Sets, SETS, mutate_sets, apply_sets, NULL);
    coll_stats s = coll_run(&m, 0x5e75u, TICKS, LOSS);
    report("sets", &s, 100000);
}
END_TEST

/* ---- fast arrays: the sender, and a receiver that mirrors the events --------------------------- */

/* Every fastarray item type of coll.netschema has this layout. */
typedef struct any_item {
    uint32_t  id, key;
    coll_Item value;
} any_item;

typedef struct mirror {
    any_item items[4096];
    uint32_t count;
    int      phase;          /* 0 removes, 1 adds, 2 changes: events must not go back */
    const void *live_items;  /* the live array, to check removed items are still in it */
    size_t   live_bytes;
    unsigned long removes, adds, changes;
} mirror;

static int32_t mirror_find(const mirror *m, uint32_t id)
{
    for (uint32_t i = 0; i < m->count; i++)
        if (m->items[i].id == id) return (int32_t)i;
    return -1;
}

static void on_remove(mirror *m, const any_item *it)
{
    NS_CHECK(m->phase == 0, "a remove after adds or changes");
    const uint8_t *p = (const uint8_t *)it, *base = (const uint8_t *)m->live_items;
    NS_CHECK(p >= base && p < base + m->live_bytes, "a removed item is no longer in live");
    int32_t i = mirror_find(m, it->id);
    NS_CHECK(i >= 0, "remove of item %u the receiver never had", it->id);
    NS_CHECK(coll_Item_equal(&m->items[i].value, &it->value), "removed item %u is not what was shown", it->id);
    m->items[i] = m->items[--m->count];
    m->removes++;
}

static void on_add(mirror *m, const any_item *it)
{
    NS_CHECK(m->phase <= 1, "an add after changes");
    m->phase = 1;
    NS_CHECK(mirror_find(m, it->id) < 0, "add of item %u the receiver already has", it->id);
    m->items[m->count++] = *it;
    m->adds++;
}

static void on_change(mirror *m, const any_item *it, const any_item *old)
{
    m->phase = 2;
    int32_t i = mirror_find(m, it->id);
    NS_CHECK(i >= 0 && old->id == it->id, "change of item %u the receiver does not have", it->id);
    NS_CHECK(coll_Item_equal(&m->items[i].value, &old->value), "change of %u: old value is not what was shown", it->id);
    NS_CHECK(!coll_Item_equal(&old->value, &it->value), "change of %u that changes nothing", it->id);
    m->items[i] = *it;
    m->changes++;
}

/* After an apply: the mirror built from events holds exactly the live items. */
static void mirror_matches(const mirror *m, const any_item *live, uint32_t count)
{
    NS_CHECK(m->count == count, "events leave %u items, live holds %u", m->count, count);
    for (uint32_t i = 0; i < count; i++) {
        int32_t k = mirror_find(m, live[i].id);
        NS_CHECK(k >= 0 && coll_Item_equal(&m->items[k].value, &live[i].value), "item %u: events and live disagree",
                 live[i].id);
    }
}

#define FAST_HOOKS(T)                                                                                   \
    static void T##_rm(void *ctx, coll_##T *live, const coll_##T##_items_item *it)                    \
    {                                                                                                   \
        (void)live;                                                                                     \
        on_remove((mirror *)ctx, (const any_item *)(const void *)it);                                   \
    }                                                                                                   \
    static void T##_add(void *ctx, coll_##T *live, const coll_##T##_items_item *it)                   \
    {                                                                                                   \
        (void)live;                                                                                     \
        on_add((mirror *)ctx, (const any_item *)(const void *)it);                                      \
    }                                                                                                   \
    static void T##_chg(void *ctx, coll_##T *live, const coll_##T##_items_item *it, const coll_##T##_items_item *o) \
    {                                                                                                   \
        (void)live;                                                                                     \
        on_change((mirror *)ctx, (const any_item *)(const void *)it, (const any_item *)(const void *)o); \
    }                                                                                                   \
    static void apply_##T(void *live, const void *snap, void *checker)                                  \
    {                                                                                                   \
        coll_##T *l = (coll_##T *)live;                                                                 \
        const coll_##T##_snap *s = (const coll_##T##_snap *)snap;                                       \
        mirror *m = (mirror *)checker;                                                                  \
        coll_##T##_hooks hooks = {T##_rm, T##_add, T##_chg};                                            \
        m->phase = 0;                                                                                   \
        m->live_items = l->items.items;                                                                 \
        m->live_bytes = sizeof l->items.items;                                                          \
        coll_##T##_apply(l, s, &hooks, m);                                                              \
        mirror_matches(m, (const any_item *)(const void *)l->items.items, l->items.count);              \
        coll_##T##_snap back;                                                                           \
        coll_##T##_quantize(l, &back);                                                                  \
        NS_CHECK(coll_##T##_snap_equal(&back, s), #T ": live differs from its snapshot");              \
    }

FAST_HOOKS(Fast)
FAST_HOOKS(Ordered)

/* Moves or inserts an item: what only an @ordered array can do (NS_OK and nothing for others). */
static ns_status reorder_Fast(coll_Fast *v, const coll_Fast_items_item *at, uint32_t what, uint32_t count,
                              const coll_Item *it, ns_rng *rng)
{
    (void)v, (void)at, (void)what, (void)count, (void)it, (void)rng;
    return NS_OK;
}

static ns_status reorder_Ordered(coll_Ordered *v, const coll_Ordered_items_item *at, uint32_t what, uint32_t count,
                                 const coll_Item *it, ns_rng *rng)
{
    if (what % 2) return coll_Ordered_items_move(v, at->id, (uint32_t)ns_rng_below(rng, count));
    return coll_Ordered_items_insert(v, (uint32_t)ns_rng_below(rng, count + 1), it, NULL);
}

/* Random fast-array work on either type through its generated helpers. */
#define FAST_MUTATE(T)                                                                          \
    static unsigned mutate_##T(void *value, ns_rng *rng)                                               \
    {                                                                                                   \
        coll_##T *v = (coll_##T *)value;                                                                \
        unsigned n = 1 + (unsigned)ns_rng_below(rng, 6);                                                \
        for (unsigned k = 0; k < n; k++) {                                                              \
            uint32_t what = (uint32_t)ns_rng_below(rng, 100), count = coll_##T##_items_count(v), id = 0; \
            coll_Item it = random_item(rng);                                                            \
            const coll_##T##_items_item *at = count ? coll_##T##_items_at(v, (uint32_t)ns_rng_below(rng, count)) : NULL; \
            ns_status st = NS_OK;                                                                       \
            if (what < 30) {                                                                            \
                st = coll_##T##_items_add(v, &it, &id);                                                 \
                if (st == NS_OK) NS_CHECK(id != 0 && coll_##T##_items_find(v, id) >= 0, "bad new id"); \
            } else if (what < 50 && at) {                                                               \
                st = coll_##T##_items_remove(v, at->id);                                                \
            } else if (what < 92 && at) {                                                               \
                coll_Item same = at->value;                                                             \
                uint32_t key = at->key, aid = at->id;                                                   \
                if (what < 60) it = same;                                                               \
                st = coll_##T##_items_set(v, aid, &it);                                                 \
                const coll_##T##_items_item *now = coll_##T##_items_at(v, (uint32_t)coll_##T##_items_find(v, aid)); \
                NS_CHECK((now->key != key) == !coll_Item_equal(&same, &it), "key bumped wrongly");      \
            } else if (what < 99 && at) {                                                               \
                st = reorder_##T(v, at, what, count, &it, rng);                                         \
            } else if (what == 99) {                                                                    \
                coll_##T##_items_clear(v);                                                              \
            }                                                                                           \
            NS_CHECK(st == NS_OK || st == NS_ERR_CAPACITY, "helper failed: %s", ns_status_str(st));     \
        }                                                                                               \
        coll_##T##_clear_dirty(v);                                                                      \
        return n;                                                                                       \
    }

FAST_MUTATE(Fast)
FAST_MUTATE(Ordered)

START_TEST(fastarray_model)
{
    static mirror m;
    memset(&m, 0, sizeof m);
    coll_model md = MODEL(Fast, FAST, mutate_Fast, apply_Fast, &m);
    coll_stats s = coll_run(&md, 0xfa57u, TICKS, LOSS);
    report("fast", &s, 100000);
    printf("         events: %lu removes, %lu adds, %lu changes\n", m.removes, m.adds, m.changes);
    ck_assert_uint_gt(m.removes, 1000);
    ck_assert_uint_gt(m.adds, 1000);
    ck_assert_uint_gt(m.changes, 1000);
}
END_TEST

START_TEST(ordered_fastarray_model)
{
    static mirror m;
    memset(&m, 0, sizeof m);
    coll_model md = MODEL(Ordered, ORDERED, mutate_Ordered, apply_Ordered, &m);
    coll_stats s = coll_run(&md, 0x0d3du, TICKS, LOSS);
    report("ordered", &s, 100000);
    printf("         events: %lu removes, %lu adds, %lu changes\n", m.removes, m.adds, m.changes);
    ck_assert_uint_gt(m.changes, 1000);
}
END_TEST

/* Over a reliable transport with the last-sent policy: baseline 0 is the previous write. */
START_TEST(last_sent_policy)
{
    static coll_Fast v;
    static coll_Fast_snap prev, cur, got, rx_prev;
    ns_rng rng = {0x1a57u};
    coll_Fast_init(&v);
    memset(&prev, 0, sizeof prev);
    memset(&rx_prev, 0, sizeof rx_prev);
    uint8_t buf[COLL_FAST_MAX_BYTES + 8];
    for (uint32_t t = 1; t <= 5000; t++) {
        mutate_Fast(&v, &rng);
        coll_Fast_quantize(&v, &cur);
        ns_baselines b = {{&prev, NULL, NULL}, {t - 1, 0, 0}, t > 1 ? 1u : 0u, t};
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(coll_Fast_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);
        size_t len = ns_writer_flush(&w);
        ns_baselines rb = {{&rx_prev, NULL, NULL}, {t - 1, 0, 0}, t > 1 ? 1u : 0u, t};
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(coll_Fast_read(&r, &got, &rb, NS_TO_OWNER), NS_OK);
        NS_CHECK(coll_Fast_snap_equal(&got, &cur), "tick %u differs", t);
        prev = cur;
        rx_prev = got;
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("collections");
    TCase *tc = tcase_create("models");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, lists_model);
    tcase_add_test(tc, maps_model);
    tcase_add_test(tc, sets_model);
    tcase_add_test(tc, fastarray_model);
    tcase_add_test(tc, ordered_fastarray_model);
    tcase_add_test(tc, last_sent_policy);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
