/* test_coll_wire.c — collection deltas bit by bit (coll.netschema): what they cost, how the
 * reader rejects malformed and truncated ones (leaving its destination as it was), and the
 * generated helpers' contracts (capacity, IDs, keys, dirty bits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.ns.h"
#include "ns_test.h"

static uint8_t buf[1 << 16];

/* ---- costs ------------------------------------------------------------------------------------ */

static size_t bits_of_fast(const coll_Fast_snap *cur, const coll_Fast_snap *ref)
{
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Fast_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    return ns_writer_bits(&w);
}

static size_t bits_of_stash(const coll_Stash_snap *cur, const coll_Stash_snap *ref)
{
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Stash_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    return ns_writer_bits(&w);
}

static coll_Item item_n(uint32_t i)
{
    coll_Item it;
    coll_Item_init(&it);
    it.kind = (uint16_t)(i * 7u);
    it.count = (uint8_t)(i % 90u);
    it.wear = 0.5f;
    return it;
}

START_TEST(unchanged_collection_costs_one_bit)
{
    static coll_Short v;
    static coll_Short_snap a;
    coll_Short_init(&v);
    for (uint32_t i = 0; i < 40; i++) ck_assert_int_eq(coll_Short_bytes_add(&v, (uint8_t)(i * 3)), NS_OK);
    coll_Short_quantize(&v, &a);
    ns_baselines b = {{&a, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Short_write(&w, &a, &b, NS_TO_OWNER), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), 1); /* its mask bit, nothing else */

    /* In a record with six fields, five unchanged collections cost a bit each. */
    static coll_Lists l;
    static coll_Lists_snap l0, l1;
    coll_Lists_init(&l);
    for (uint32_t i = 0; i < 30; i++) coll_Lists_nums_add(&l, i * 1000u);
    coll_Lists_names_add(&l, "abc");
    coll_Lists_quantize(&l, &l0);
    coll_Lists_set_hp(&l, 7);
    coll_Lists_quantize(&l, &l1);
    ns_baselines lb = {{&l0, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Lists_write(&w, &l1, &lb, NS_TO_OWNER), NS_OK);
    size_t total = ns_writer_bits(&w);
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_delta_i32(&w, 7, 0, NULL);
    size_t hp = ns_writer_bits(&w);
    ck_assert_uint_eq(total, 1 + 6 + hp);
}
END_TEST

START_TEST(one_changed_item_does_not_grow_with_capacity)
{
    static coll_Fast f;
    static coll_Fast_snap f0, f1;
    static coll_Stash s;
    static coll_Stash_snap s0, s1;
    coll_Fast_init(&f);
    coll_Stash_init(&s);
    for (uint32_t i = 0; i < 256; i++) {
        coll_Item it = item_n(i);
        ck_assert_int_eq(coll_Fast_items_add(&f, &it, NULL), NS_OK);
    }
    for (uint32_t i = 0; i < 4096; i++) {
        coll_Item it = item_n(i);
        ck_assert_int_eq(coll_Stash_items_add(&s, &it, NULL), NS_OK);
    }
    coll_Fast_quantize(&f, &f0);
    coll_Stash_quantize(&s, &s0);
    /* Change one field of one item in the middle of each. */
    coll_Item it = f.items.items[200].value;
    it.count = (uint8_t)(it.count + 1);
    ck_assert_int_eq(coll_Fast_items_set(&f, f.items.items[200].id, &it), NS_OK);
    it = s.items.items[3000].value;
    it.count = (uint8_t)(it.count + 1);
    ck_assert_int_eq(coll_Stash_items_set(&s, s.items.items[3000].id, &it), NS_OK);
    coll_Fast_quantize(&f, &f1);
    coll_Stash_quantize(&s, &s1);
    size_t small = bits_of_fast(&f1, &f0), large = bits_of_stash(&s1, &s0);
    size_t full_small = bits_of_fast(&f1, NULL), full_large = bits_of_stash(&s1, NULL);
    printf("one changed item: %zu bits of 256 items (full %zu), %zu bits of 4096 items (full %zu)\n", small, full_small,
           large, full_large);
    ck_assert_uint_le(small, 48);
    ck_assert_uint_le(large, 48);
    /* What grows is the item's ID, logarithmically: 16 times the items, at most 8 more bits. */
    ck_assert_uint_le(large, small + 8);
}
END_TEST

START_TEST(removing_the_first_list_element_is_cheap)
{
    static coll_Short v;
    static coll_Short_snap a, b;
    ns_rng rng = {42};
    coll_Short_init(&v);
    for (uint32_t i = 0; i < 64; i++) ck_assert_int_eq(coll_Short_bytes_add(&v, (uint8_t)ns_rng_next(&rng)), NS_OK);
    coll_Short_quantize(&v, &a);
    ck_assert_int_eq(coll_Short_bytes_remove(&v, 0), NS_OK);
    coll_Short_quantize(&v, &b);
    ns_baselines base = {{&a, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Short_write(&w, &b, &base, NS_TO_OWNER), NS_OK);
    size_t delta = ns_writer_bits(&w);
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Short_write(&w, &b, NULL, NS_TO_OWNER), NS_OK);
    size_t full = ns_writer_bits(&w);
    printf("remove first of 64: %zu bits; resending the list: %zu bits\n", delta, full);
    ck_assert_uint_lt(delta * 4, full);
    /* A removal in the middle, an append, an insertion, and a queue's pop-front-push-back
     * (the list keeps its length, every element moves) are as cheap. */
    static coll_Short_snap c;
    for (int edit = 0; edit < 4; edit++) {
        if (edit == 0) ck_assert_int_eq(coll_Short_bytes_remove(&v, 30), NS_OK);
        if (edit == 1) ck_assert_int_eq(coll_Short_bytes_add(&v, 9), NS_OK);
        if (edit == 2) ck_assert_int_eq(coll_Short_bytes_insert(&v, 20, 1), NS_OK);
        if (edit == 3) {
            ck_assert_int_eq(coll_Short_bytes_remove(&v, 0), NS_OK);
            ck_assert_int_eq(coll_Short_bytes_add(&v, 200), NS_OK);
        }
        coll_Short_quantize(&v, &c);
        base.snap[0] = &b;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(coll_Short_write(&w, &c, &base, NS_TO_OWNER), NS_OK);
        printf("list edit %d: %zu bits\n", edit, ns_writer_bits(&w));
        ck_assert_uint_lt(ns_writer_bits(&w) * 4, full);
        b = c;
    }
}
END_TEST

START_TEST(max_bits_bounds_far_ranges)
{
    /* Full states (no baseline) of the largest values: within MAX_BITS. */
    static coll_Bounds v;
    static coll_Bounds_snap s, back;
    coll_Bounds_init(&v);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(coll_Bounds_far_add(&v, 200000 - i), NS_OK);
        ck_assert_int_eq(coll_Bounds_neg_add(&v, -400.0f - (float)i), NS_OK);
        ck_assert_int_eq(coll_Bounds_ranged_add(&v, 80000u - (uint32_t)i), NS_OK);
    }
    ck_assert_int_eq(coll_Bounds_ranged_add(&v, 5), NS_ERR_RANGE); /* the set's @range bounds its keys */
    ck_assert_int_eq(coll_Bounds_fars_add(&v, coll_Far_hi), NS_OK);
    ck_assert_int_eq(coll_Bounds_fars_add(&v, coll_Far_lo), NS_OK);
    ck_assert_int_eq(coll_Bounds_fars_add(&v, (coll_Far)7), NS_ERR_RANGE);
    ck_assert_int_eq(coll_Bounds_byfar_set(&v, coll_Far_hi, -128), NS_OK);
    coll_Bounds_quantize(&v, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Bounds_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    printf("far ranges, full state: %zu bits of MAX_BITS %u\n", ns_writer_bits(&w), COLL_BOUNDS_MAX_BITS);
    ck_assert_uint_le(ns_writer_bits(&w), COLL_BOUNDS_MAX_BITS);
    size_t n = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    ck_assert_int_eq(coll_Bounds_read(&r, &back, NULL, NS_TO_OWNER), NS_OK);
    ck_assert(coll_Bounds_snap_equal(&back, &s));
    /* Tight bounds: one collection per component. Coding the elements against 0 instead of the
     * value in range nearest it, or the first key against 0, would exceed these. */
    static coll_FarList fl;
    static coll_FarList_snap fls;
    coll_FarList_init(&fl);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(coll_FarList_far_add(&fl, 1010), NS_OK);
    coll_FarList_quantize(&fl, &fls);
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_FarList_write(&w, &fls, NULL, NS_TO_OWNER), NS_OK);
    printf("list of far values: %zu bits of MAX_BITS %u\n", ns_writer_bits(&w), COLL_FARLIST_MAX_BITS);
    ck_assert_uint_le(ns_writer_bits(&w), COLL_FARLIST_MAX_BITS);
    static coll_FarKeys fk;
    static coll_FarKeys_snap fks;
    coll_FarKeys_init(&fk);
    ck_assert_int_eq(coll_FarKeys_keys_add(&fk, coll_Far2_b), NS_OK);
    ck_assert_int_eq(coll_FarKeys_keys_add(&fk, coll_Far2_a), NS_OK);
    coll_FarKeys_quantize(&fk, &fks);
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_FarKeys_write(&w, &fks, NULL, NS_TO_OWNER), NS_OK);
    printf("set of far enum keys: %zu bits of MAX_BITS %u\n", ns_writer_bits(&w), COLL_FARKEYS_MAX_BITS);
    ck_assert_uint_le(ns_writer_bits(&w), COLL_FARKEYS_MAX_BITS);
    /* A key outside the set's @range is rejected on the wire too. */
    static coll_Bounds_snap bad;
    bad = s;
    bad.ranged.items[0] = 5;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Bounds_write(&w, &bad, NULL, NS_TO_OWNER), NS_ERR_RANGE);
}
END_TEST

/* ---- malformed and truncated deltas ------------------------------------------------------------ */

/* A delta built bit by bit. */
typedef struct crafted {
    ns_writer w;
    uint8_t   bytes[512];
} crafted;

static void craft_begin(crafted *c)
{
    memset(c->bytes, 0, sizeof c->bytes);
    ns_writer_init(&c->w, c->bytes, sizeof c->bytes);
}

/* Reads the crafted delta with ops against ref, checking only and decoding (into scratch at
 * least as large as the collection); both must fail with `want`. (Generated readers only decode
 * after a clean check, which is what keeps their destination as it was.) */
static void expect(crafted *c, const ns_coll_ops *ops, const void *ref, size_t snap_size, ns_status want, const char *what)
{
    size_t len = ns_writer_flush(&c->w);
    void *dst = malloc(snap_size);
    for (int decode = 0; decode < 2; decode++) {
        ns_reader r;
        ns_reader_init(&r, c->bytes, len);
        ns_coll_read(&r, ops, decode ? dst : NULL, ref);
        ck_assert_msg(ns_reader_status(&r) == want, "%s: %s gave %s, want %s", what, decode ? "decoding" : "checking",
                      ns_status_str(ns_reader_status(&r)), ns_status_str(want));
    }
    free(dst);
}

static void packed(crafted *c, uint32_t v)
{
    ns_write_packed_u32(&c->w, v, NULL);
}

static void first(crafted *c, int64_t delta)
{
    ns_write_packed_u64(&c->w, ns_zigzag64(delta), NULL);
}

START_TEST(malformed_lists)
{
    static coll_Short v;
    static coll_Short_snap ref;
    coll_Short_init(&v);
    for (uint8_t i = 0; i < 3; i++) coll_Short_bytes_add(&v, i);
    coll_Short_quantize(&v, &ref);
    const ns_coll_ops *ops = &coll_Short_bytes_ops;
    crafted c;
    craft_begin(&c), packed(&c, 4), packed(&c, 0), packed(&c, 0), packed(&c, 0);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_RANGE, "dropping more than the reference holds");
    craft_begin(&c), packed(&c, 0), packed(&c, 4), packed(&c, 0), packed(&c, 0);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_RANGE, "front longer than the reference");
    craft_begin(&c), packed(&c, 1), packed(&c, 1), packed(&c, 2), packed(&c, 0);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_RANGE, "front and back overlap");
    craft_begin(&c), packed(&c, 0), packed(&c, 0), packed(&c, 0), packed(&c, 65);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_CAPACITY, "65 elements in a list of 64");
    craft_begin(&c), packed(&c, 0), packed(&c, 2), packed(&c, 1), packed(&c, 62);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_CAPACITY, "kept plus new over capacity");
    craft_begin(&c), packed(&c, 0), packed(&c, 0), packed(&c, 0), packed(&c, 1), ns_write_bool(&c.w, true);
    ns_write_delta_i32(&c.w, 300, 0, NULL);
    expect(&c, ops, &ref.bytes, sizeof ref, NS_ERR_RANGE, "a u8 element of 300");
}
END_TEST

START_TEST(malformed_sets_and_maps)
{
    static coll_Sets v;
    static coll_Sets_snap ref;
    coll_Sets_init(&v);
    for (uint16_t k = 10; k < 20; k++) coll_Sets_flags_add(&v, k);
    coll_Sets_colors_add(&v, coll_Color_green);
    coll_Sets_quantize(&v, &ref);
    const ns_coll_ops *flags = &coll_Sets_flags_ops, *colors = &coll_Sets_colors_ops;
    crafted c;
    craft_begin(&c), packed(&c, 10 + 64 + 1);
    expect(&c, flags, &ref.flags, sizeof ref, NS_ERR_CAPACITY, "more operations than the reference and capacity allow");
    craft_begin(&c), packed(&c, 1), first(&c, 2), ns_write_bool(&c.w, false); /* add 12 */
    expect(&c, flags, &ref.flags, sizeof ref, NS_ERR_DUPLICATE, "add of a key the set holds");
    craft_begin(&c), packed(&c, 1), first(&c, -1), ns_write_bool(&c.w, true); /* remove 9 */
    expect(&c, flags, &ref.flags, sizeof ref, NS_ERR_UNKNOWN_ID, "remove of a key the set lacks");
    craft_begin(&c), packed(&c, 2), first(&c, 65535 - 10), ns_write_bool(&c.w, false), packed(&c, 0);
    expect(&c, flags, &ref.flags, sizeof ref, NS_ERR_ORDER, "a key past 65535 after 65535");
    craft_begin(&c), packed(&c, 1), first(&c, 70000);
    expect(&c, flags, &ref.flags, sizeof ref, NS_ERR_RANGE, "a u16 key of 70010");
    craft_begin(&c), packed(&c, 1), first(&c, 2 - 5), ns_write_bool(&c.w, false); /* green is 5: add 2 */
    expect(&c, colors, &ref.colors, sizeof ref, NS_ERR_RANGE, "an enum key that is no Color");
    /* A full set: one more add is over capacity. */
    static coll_Sets full;
    static coll_Sets_snap fref;
    coll_Sets_init(&full);
    for (uint16_t k = 0; k < 64; k++) ck_assert_int_eq(coll_Sets_flags_add(&full, (uint16_t)(k * 2)), NS_OK);
    ck_assert_int_eq(coll_Sets_flags_add(&full, 1000), NS_ERR_CAPACITY);
    coll_Sets_quantize(&full, &fref);
    craft_begin(&c), packed(&c, 1), first(&c, 1), ns_write_bool(&c.w, false); /* add 1 */
    expect(&c, flags, &fref.flags, sizeof fref, NS_ERR_CAPACITY, "an add to a full set");

    static coll_Maps m;
    static coll_Maps_snap mref;
    coll_Maps_init(&m);
    coll_Item it = item_n(3);
    coll_Maps_slots_set(&m, -5, &it);
    coll_Maps_slots_set(&m, 7, &it);
    coll_Maps_quantize(&m, &mref);
    const ns_coll_ops *slots = &coll_Maps_slots_ops;
    craft_begin(&c), packed(&c, 1), first(&c, 1), ns_write_bool(&c.w, false); /* change -4 */
    expect(&c, slots, &mref.slots, sizeof mref, NS_ERR_UNKNOWN_ID, "change of a key the map lacks");
    craft_begin(&c), packed(&c, 1), first(&c, 12), ns_write_bits(&c.w, 1, 2); /* add 7 */
    expect(&c, slots, &mref.slots, sizeof mref, NS_ERR_DUPLICATE, "add of a key the map holds");
    craft_begin(&c), packed(&c, 1), first(&c, 0), ns_write_bool(&c.w, false); /* change -5: count to 150 */
    ns_write_bool(&c.w, true), ns_write_bool(&c.w, false), ns_write_bool(&c.w, true);
    ns_write_delta_i32(&c.w, 150, it.count, NULL);
    expect(&c, slots, &mref.slots, sizeof mref, NS_ERR_RANGE, "a value out of its range");
}
END_TEST

START_TEST(malformed_fastarrays)
{
    static coll_Fast v;
    static coll_Fast_snap ref;
    coll_Fast_init(&v);
    for (uint32_t i = 0; i < 5; i++) {
        coll_Item it = item_n(i);
        coll_Fast_items_add(&v, &it, NULL); /* IDs 1..5 */
    }
    coll_Fast_quantize(&v, &ref);
    const ns_coll_ops *ops = &coll_Fast_items_ops;
    crafted c;
    craft_begin(&c), packed(&c, 5 + 256 + 1);
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_CAPACITY, "more operations than possible");
    craft_begin(&c), packed(&c, 1), first(&c, 2), ns_write_bits(&c.w, 1, 2); /* add ID 3 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_DUPLICATE, "add of an ID the array holds");
    craft_begin(&c), packed(&c, 1), first(&c, 9), ns_write_bool(&c.w, false); /* change ID 10 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_UNKNOWN_ID, "change of an unknown ID");
    craft_begin(&c), packed(&c, 1), first(&c, 9), ns_write_bits(&c.w, 3, 2); /* remove ID 10 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_UNKNOWN_ID, "remove of an unknown ID");
    craft_begin(&c), packed(&c, 1), first(&c, -1), ns_write_bits(&c.w, 1, 2); /* add ID 0 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_RANGE, "ID 0");
    craft_begin(&c), packed(&c, 1), first(&c, (int64_t)UINT32_MAX); /* ID 2^32 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_ORDER, "an ID past 2^32 - 1");
    craft_begin(&c), packed(&c, 2), first(&c, (int64_t)UINT32_MAX - 1), ns_write_bits(&c.w, 1, 2);
    ns_write_bool(&c.w, false); /* an empty item: its "anything changed" bit */
    packed(&c, 0);              /* the next ID would be 2^32 */
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_ORDER, "IDs wrapping past 2^32 - 1");
    /* 252 adds on top of 5 items: one too many. */
    craft_begin(&c), packed(&c, 252), first(&c, 5);
    for (int k = 0; k < 252; k++) {
        if (k) packed(&c, 0);
        ns_write_bits(&c.w, 1, 2);
        ns_write_bool(&c.w, false);
    }
    expect(&c, ops, &ref.items, sizeof ref, NS_ERR_CAPACITY, "adds past the capacity");

    static coll_Ordered o;
    static coll_Ordered_snap oref;
    coll_Ordered_init(&o);
    for (uint32_t i = 0; i < 3; i++) {
        coll_Item it = item_n(i);
        coll_Ordered_items_add(&o, &it, NULL);
    }
    coll_Ordered_quantize(&o, &oref);
    const ns_coll_ops *ord = &coll_Ordered_items_ops;
    craft_begin(&c), packed(&c, 0), ns_write_bool(&c.w, false); /* explicit order: 0, 0, ... */
    packed(&c, ns_zigzag32(0)), packed(&c, ns_zigzag32(-1)), packed(&c, ns_zigzag32(0));
    expect(&c, ord, &oref.items, sizeof oref, NS_ERR_DUPLICATE, "a position twice");
    craft_begin(&c), packed(&c, 0), ns_write_bool(&c.w, false);
    packed(&c, ns_zigzag32(0)), packed(&c, ns_zigzag32(5));
    expect(&c, ord, &oref.items, sizeof oref, NS_ERR_RANGE, "a position past the items");
}
END_TEST

/* Every strict prefix of real deltas fails as truncated and leaves the destination as it was;
 * random bytes never decode to something the writer would refuse. */
#define PREFIXES(T, mutate_fn)                                                                         \
    START_TEST(prefixes_##T)                                                                          \
    {                                                                                                 \
        static coll_##T v;                                                                            \
        static coll_##T##_snap prev, cur, out, before;                                                \
        ns_rng rng = {0x7e57u};                                                                       \
        coll_##T##_init(&v);                                                                          \
        coll_##T##_quantize(&v, &prev);                                                               \
        for (int round = 0; round < 300; round++) {                                                   \
            mutate_fn(&v, &rng);                                                                      \
            coll_##T##_quantize(&v, &cur);                                                            \
            ns_baselines b = {{&prev, NULL, NULL}, {1, 0, 0}, 1, 2};                                  \
            ns_writer w;                                                                              \
            ns_writer_init(&w, buf, sizeof buf);                                                      \
            ck_assert_int_eq(coll_##T##_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);                     \
            size_t used = ns_writer_flush(&w);                                                        \
            for (size_t len = 0; len < used; len++) {                                                 \
                uint8_t *copy = (uint8_t *)malloc(len ? len : 1);                                     \
                memcpy(copy, buf, len);                                                               \
                memset(&out, 0xa5, sizeof out);                                                       \
                memcpy(&before, &out, sizeof out);                                                    \
                ns_reader r;                                                                          \
                ns_reader_init(&r, copy, len);                                                        \
                ns_status st = coll_##T##_read(&r, &out, &b, NS_TO_OWNER);                            \
                NS_CHECK(st == NS_ERR_TRUNCATED, #T ": a %zu-byte prefix of %zu read as %s", len, used, ns_status_str(st)); \
                NS_CHECK(memcmp(&out, &before, sizeof out) == 0, #T ": a failed read changed its destination"); \
                free(copy);                                                                           \
            }                                                                                         \
            for (int k = 0; k < 20; k++) {                                                            \
                size_t len = (size_t)ns_rng_below(&rng, used + 8);                                    \
                uint8_t *junk = (uint8_t *)malloc(len ? len : 1);                                     \
                for (size_t i = 0; i < len; i++) junk[i] = (uint8_t)ns_rng_next(&rng);                \
                memset(&out, 0x5a, sizeof out);                                                       \
                memcpy(&before, &out, sizeof out);                                                    \
                ns_reader r;                                                                          \
                ns_reader_init(&r, junk, len);                                                        \
                if (coll_##T##_read(&r, &out, &b, NS_TO_OWNER) == NS_OK) {                             \
                    ns_writer_init(&w, buf + 8192, sizeof buf - 8192);                                \
                    NS_CHECK(coll_##T##_write(&w, &out, &b, NS_TO_OWNER) == NS_OK, #T ": read what cannot be written"); \
                } else {                                                                              \
                    NS_CHECK(memcmp(&out, &before, sizeof out) == 0, #T ": garbage changed the destination"); \
                }                                                                                     \
                free(junk);                                                                           \
            }                                                                                         \
            prev = cur;                                                                               \
        }                                                                                             \
    }                                                                                                 \
    END_TEST

static void mutate_short(coll_Short *v, ns_rng *rng)
{
    for (int k = 0; k < 4; k++) {
        uint32_t n = coll_Short_bytes_count(v);
        if (ns_rng_below(rng, 2) || n == 0) coll_Short_bytes_insert(v, (uint32_t)ns_rng_below(rng, n + 1), (uint8_t)ns_rng_next(rng));
        else coll_Short_bytes_remove(v, (uint32_t)ns_rng_below(rng, n));
    }
}

static void mutate_sets(coll_Sets *v, ns_rng *rng)
{
    for (int k = 0; k < 4; k++) {
        uint16_t key = (uint16_t)ns_rng_below(rng, 100);
        if (ns_rng_below(rng, 2)) coll_Sets_flags_add(v, key);
        else coll_Sets_flags_remove(v, key);
        coll_Sets_wide_add(v, (int64_t)ns_rng_next(rng));
        if (coll_Sets_wide_count(v) > 12) coll_Sets_wide_remove(v, *coll_Sets_wide_at(v, 0));
    }
}

static void mutate_maps(coll_Maps *v, ns_rng *rng)
{
    for (int k = 0; k < 4; k++) {
        coll_Item it = item_n((uint32_t)ns_rng_below(rng, 1000));
        int16_t key = (int16_t)((int)ns_rng_below(rng, 60) - 30);
        if (ns_rng_below(rng, 3)) coll_Maps_slots_set(v, key, &it);
        else coll_Maps_slots_remove(v, key);
        coll_Maps_big_set(v, ns_rng_next(rng) % 40, (uint32_t)ns_rng_next(rng));
        coll_Tagged_marks_add(&v->boxed, (uint16_t)k);
    }
}

static void mutate_ordered(coll_Ordered *v, ns_rng *rng)
{
    for (int k = 0; k < 4; k++) {
        uint32_t n = coll_Ordered_items_count(v);
        coll_Item it = item_n((uint32_t)ns_rng_below(rng, 1000));
        uint64_t what = ns_rng_below(rng, 4);
        if (what == 0 || n == 0) coll_Ordered_items_insert(v, (uint32_t)ns_rng_below(rng, n + 1), &it, NULL);
        else if (what == 1) coll_Ordered_items_remove(v, coll_Ordered_items_at(v, (uint32_t)ns_rng_below(rng, n))->id);
        else if (what == 2) coll_Ordered_items_move(v, coll_Ordered_items_at(v, 0)->id, (uint32_t)ns_rng_below(rng, n));
        else coll_Ordered_items_set(v, coll_Ordered_items_at(v, n - 1)->id, &it);
    }
}

PREFIXES(Short, mutate_short)
PREFIXES(Sets, mutate_sets)
PREFIXES(Maps, mutate_maps)
PREFIXES(Ordered, mutate_ordered)

/* A whole component read that fails in a later field leaves the destination as it was, though
 * the collection before it decoded fine. */
START_TEST(failed_read_keeps_destination)
{
    static coll_Lists v;
    static coll_Lists_snap ref, out, before;
    coll_Lists_init(&v);
    coll_Lists_quantize(&v, &ref);
    crafted c;
    craft_begin(&c);
    ns_write_bool(&c.w, true);                               /* anything changed */
    ns_write_bool(&c.w, true);                               /* nums changed: */
    packed(&c, 0), packed(&c, 0), packed(&c, 0), packed(&c, 1); /* one new element */
    ns_write_bool(&c.w, true), ns_write_delta_u32(&c.w, 77, 0, NULL);
    for (int f = 0; f < 4; f++) ns_write_bool(&c.w, false);  /* things, names, path, paints */
    ns_write_bool(&c.w, true), ns_write_delta_i32(&c.w, 5000, 0, NULL); /* hp: outside -1000..1000 */
    size_t len = ns_writer_flush(&c.w);
    memset(&out, 0x3c, sizeof out);
    memcpy(&before, &out, sizeof out);
    ns_baselines b = {{&ref, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_reader r;
    ns_reader_init(&r, c.bytes, len);
    ck_assert_int_eq(coll_Lists_read(&r, &out, &b, NS_TO_OWNER), NS_ERR_RANGE);
    ck_assert(memcmp(&out, &before, sizeof out) == 0);
    ns_reader_init(&r, c.bytes, len);
    ck_assert_int_eq(coll_Lists_read(&r, &ref, &b, NS_TO_OWNER), NS_ERR_ARGUMENT); /* out aliasing baseline 0 */
}
END_TEST

/* ---- the writer refuses snapshots no reader could produce --------------------------------------- */

START_TEST(writer_checks_snapshots)
{
    static coll_Fast_snap s;
    static coll_Sets_snap t;
    coll_Fast v;
    coll_Fast_init(&v);
    coll_Fast_quantize(&v, &s);
    ns_writer w;
    s.items.count = 2;
    s.items.items[0].id = 4, s.items.items[1].id = 4;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(coll_Fast_write(&w, &s, NULL, NS_TO_OWNER), NS_ERR_DUPLICATE);
    s.items.items[1].id = 3;
    ck_assert_int_eq(coll_Fast_write(&w, &s, NULL, NS_TO_OWNER), NS_ERR_ORDER);
    s.items.items[0].id = 0;
    ck_assert_int_eq(coll_Fast_write(&w, &s, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    s.items.count = 300;
    ck_assert_int_eq(coll_Fast_write(&w, &s, NULL, NS_TO_OWNER), NS_ERR_CAPACITY);
    ck_assert_uint_eq(ns_writer_bits(&w), 0); /* nothing written by refused writes */
    memset(&t, 0, sizeof t);
    t.colors.count = 1;
    t.colors.items[0] = 1; /* not a Color */
    ck_assert_int_eq(coll_Sets_write(&w, &t, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    /* _quantize sorts what helpers did not keep sorted. */
    static coll_Sets sv;
    coll_Sets_init(&sv);
    sv.flags.count = 3;
    sv.flags.items[0] = 9, sv.flags.items[1] = 2, sv.flags.items[2] = 5;
    coll_Sets_quantize(&sv, &t);
    ck_assert_uint_eq(t.flags.items[0], 2);
    ck_assert_uint_eq(t.flags.items[2], 9);
    ck_assert_int_eq(coll_Sets_write(&w, &t, NULL, NS_TO_OWNER), NS_OK);
}
END_TEST

/* ---- helpers ------------------------------------------------------------------------------------ */

START_TEST(list_helpers)
{
    static coll_Lists v;
    coll_Lists_init(&v);
    for (uint32_t i = 0; i < 64; i++) ck_assert_int_eq(coll_Lists_nums_add(&v, i), NS_OK);
    ck_assert_int_eq(coll_Lists_nums_add(&v, 99), NS_ERR_CAPACITY);
    ck_assert_int_eq(coll_Lists_nums_insert(&v, 0, 99), NS_ERR_CAPACITY);
    ck_assert_uint_eq(coll_Lists_nums_count(&v), 64);
    ck_assert_int_eq(coll_Lists_nums_remove(&v, 64), NS_ERR_RANGE);
    ck_assert_int_eq(coll_Lists_nums_remove(&v, 0), NS_OK);
    ck_assert_uint_eq(*coll_Lists_nums_at(&v, 0), 1);
    ck_assert_int_eq(coll_Lists_nums_insert(&v, 64, 5), NS_ERR_RANGE);
    ck_assert_int_eq(coll_Lists_nums_insert(&v, 10, 500), NS_OK);
    ck_assert_int_eq(coll_Lists_nums_find(&v, 500), 10);
    ck_assert_int_eq(coll_Lists_nums_find(&v, 12345), -1);
    ck_assert_ptr_null(coll_Lists_nums_at(&v, 64));
    coll_Lists_clear_dirty(&v);
    ck_assert_int_eq(coll_Lists_nums_set(&v, 10, 500), NS_OK); /* the same value: not dirty */
    ck_assert(!coll_Lists_is_dirty(&v));
    ck_assert_int_eq(coll_Lists_nums_set(&v, 10, 501), NS_OK);
    ck_assert(coll_Lists_is_dirty(&v));
    ck_assert_int_eq(coll_Lists_names_add(&v, "a name far too long"), NS_OK);
    ck_assert_str_eq(coll_Lists_names_at(&v, 0), "a name f"); /* string<8> */
    ck_assert_int_eq(coll_Lists_names_add(&v, "ééééé"), NS_OK); /* 10 bytes: cut at a character */
    ck_assert_str_eq(coll_Lists_names_at(&v, 1), "éééé");
    coll_Lists_clear_dirty(&v);
    ck_assert_int_eq(coll_Lists_names_set(&v, 0, "a name far too long"), NS_OK); /* the same, once cut */
    ck_assert(!coll_Lists_is_dirty(&v));
    ck_assert_int_eq(coll_Lists_names_find(&v, "a name far too long"), 0);
    v.nums.count = 9999; /* a damaged count is trusted only as far as the capacity */
    ck_assert_uint_eq(coll_Lists_nums_count(&v), 64);
    ck_assert_int_eq(coll_Lists_nums_add(&v, 1), NS_ERR_CAPACITY);
}
END_TEST

START_TEST(keyed_helpers)
{
    static coll_Maps m;
    coll_Maps_init(&m);
    ns_rng rng = {5};
    for (int k = 0; k < 200; k++) {
        coll_Item it = item_n((uint32_t)k);
        ns_status st = coll_Maps_slots_set(&m, (int16_t)((int)ns_rng_below(&rng, 100) - 50), &it);
        ck_assert(st == NS_OK || st == NS_ERR_CAPACITY);
    }
    ck_assert_uint_eq(coll_Maps_slots_count(&m), 32);
    for (uint32_t i = 1; i < 32; i++) ck_assert_int_lt(m.slots.keys[i - 1], m.slots.keys[i]);
    int16_t k0 = m.slots.keys[0];
    ck_assert_int_eq(coll_Maps_slots_find(&m, k0), 0);
    ck_assert_int_eq(coll_Maps_slots_remove(&m, k0), NS_OK);
    ck_assert_int_eq(coll_Maps_slots_remove(&m, k0), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(coll_Maps_slots_find(&m, k0), -1);
    coll_Item it = item_n(77);
    ck_assert_int_eq(coll_Maps_slots_set(&m, k0, &it), NS_OK);
    ck_assert(coll_Item_equal(coll_Maps_slots_at(&m, 0), &it));
    ck_assert_int_eq(coll_Maps_tint_set(&m, (coll_Color)1, 5), NS_ERR_RANGE);
    ck_assert_int_eq(coll_Maps_tint_set(&m, coll_Color_blue, 5), NS_OK);
    ck_assert_int_eq(coll_Maps_tint_set(&m, coll_Color_red, 6), NS_OK);
    ck_assert_int_eq(m.tint.keys[0], coll_Color_blue); /* -3 sorts first */

    static coll_Sets s;
    coll_Sets_init(&s);
    ck_assert_int_eq(coll_Sets_wide_add(&s, INT64_MAX), NS_OK);
    ck_assert_int_eq(coll_Sets_wide_add(&s, INT64_MIN), NS_OK);
    ck_assert_int_eq(coll_Sets_wide_add(&s, INT64_MIN), NS_OK);
    ck_assert_uint_eq(coll_Sets_wide_count(&s), 2);
    ck_assert_int_eq(*coll_Sets_wide_at(&s, 0), INT64_MIN);
    ck_assert_int_eq(coll_Sets_wide_remove(&s, 0), NS_ERR_UNKNOWN_ID);
    coll_Sets_clear_dirty(&s);
    coll_Sets_wide_clear(&s);
    ck_assert(coll_Sets_is_dirty(&s));
}
END_TEST

START_TEST(fastarray_helpers)
{
    static coll_Fast f;
    coll_Fast_init(&f);
    uint32_t ids[256];
    for (uint32_t i = 0; i < 256; i++) {
        coll_Item it = item_n(i);
        ck_assert_int_eq(coll_Fast_items_add(&f, &it, &ids[i]), NS_OK);
        ck_assert_uint_eq(ids[i], i + 1);
        ck_assert_uint_eq(coll_Fast_items_at(&f, i)->key, 1);
    }
    coll_Item it = item_n(1000);
    ck_assert_int_eq(coll_Fast_items_add(&f, &it, NULL), NS_ERR_CAPACITY);
    ck_assert_int_eq(coll_Fast_items_remove(&f, ids[3]), NS_OK);
    ck_assert_int_eq(coll_Fast_items_remove(&f, ids[3]), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(coll_Fast_items_set(&f, ids[3], &it), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(coll_Fast_items_remove(&f, 0), NS_ERR_UNKNOWN_ID);
    uint32_t id;
    ck_assert_int_eq(coll_Fast_items_add(&f, &it, &id), NS_OK);
    ck_assert_uint_eq(id, 257); /* IDs are not reused */
    /* Keys move only when values do. */
    coll_Item same = coll_Fast_items_at(&f, (uint32_t)coll_Fast_items_find(&f, ids[10]))->value;
    ck_assert_int_eq(coll_Fast_items_set(&f, ids[11], &same), NS_OK);
    const coll_Fast_items_item *at = coll_Fast_items_at(&f, (uint32_t)coll_Fast_items_find(&f, ids[11]));
    ck_assert_uint_eq(at->key, 2); /* item 10's value differs from item 11's */
    ck_assert_int_eq(coll_Fast_items_set(&f, ids[11], &same), NS_OK);
    ck_assert_uint_eq(at->key, 2);
    /* After 2^32 IDs, new ones skip 0 and those still in use. */
    static coll_Fast g;
    coll_Fast_init(&g);
    g.items.next_id = UINT32_MAX - 1;
    for (int k = 0; k < 2; k++) ck_assert_int_eq(coll_Fast_items_add(&g, &it, &id), NS_OK);
    ck_assert_uint_eq(id, UINT32_MAX);
    ck_assert(g.items.wrapped);
    ck_assert_int_eq(coll_Fast_items_add(&g, &it, &id), NS_OK);
    ck_assert_uint_eq(id, 1);
    ck_assert_int_eq(coll_Fast_items_add(&g, &it, &id), NS_OK);
    ck_assert_uint_eq(id, 2);
    g.items.next_id = UINT32_MAX - 1; /* as if 2^32 more were assigned: the same IDs are still live */
    ck_assert_int_eq(coll_Fast_items_add(&g, &it, &id), NS_OK);
    ck_assert_uint_eq(id, 3);

    /* @ordered: insert and move keep positions; a round trip through a snapshot keeps them too. */
    static coll_Ordered o, back;
    static coll_Ordered_snap os;
    coll_Ordered_init(&o);
    uint32_t a, b, c;
    coll_Ordered_items_add(&o, &it, &a);
    coll_Ordered_items_add(&o, &it, &b);
    coll_Ordered_items_insert(&o, 0, &it, &c);
    ck_assert_uint_eq(coll_Ordered_items_at(&o, 0)->id, c);
    ck_assert_int_eq(coll_Ordered_items_move(&o, c, 2), NS_OK);
    ck_assert_int_eq(coll_Ordered_items_move(&o, c, 3), NS_ERR_RANGE);
    ck_assert_uint_eq(coll_Ordered_items_at(&o, 0)->id, a);
    ck_assert_uint_eq(coll_Ordered_items_at(&o, 2)->id, c);
    ck_assert_int_eq(coll_Ordered_items_move(&o, b, 0), NS_OK); /* b, a, c */
    coll_Ordered_quantize(&o, &os);
    coll_Ordered_dequantize(&os, &back);
    ck_assert_uint_eq(back.items.items[0].id, b);
    ck_assert_uint_eq(back.items.items[1].id, a);
    ck_assert_uint_eq(back.items.items[2].id, c);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("collection wire");
    TCase *tc = tcase_create("costs");
    tcase_add_test(tc, unchanged_collection_costs_one_bit);
    tcase_add_test(tc, one_changed_item_does_not_grow_with_capacity);
    tcase_add_test(tc, removing_the_first_list_element_is_cheap);
    tcase_add_test(tc, max_bits_bounds_far_ranges);
    suite_add_tcase(s, tc);
    tc = tcase_create("malformed");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, malformed_lists);
    tcase_add_test(tc, malformed_sets_and_maps);
    tcase_add_test(tc, malformed_fastarrays);
    tcase_add_test(tc, prefixes_Short);
    tcase_add_test(tc, prefixes_Sets);
    tcase_add_test(tc, prefixes_Maps);
    tcase_add_test(tc, prefixes_Ordered);
    tcase_add_test(tc, failed_read_keeps_destination);
    tcase_add_test(tc, writer_checks_snapshots);
    suite_add_tcase(s, tc);
    tc = tcase_create("helpers");
    tcase_add_test(tc, list_helpers);
    tcase_add_test(tc, keyed_helpers);
    tcase_add_test(tc, fastarray_helpers);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
