/* test_arrays.c — fixed arrays `T name[N]` (arrays.netschema; idl/SPEC.md "Fixed arrays",
 * docs/wire.md section 12.7): random element changes round-trip against 0 to 3 baselines (the
 * predicted kinds through the three-baseline predictor), the hand-checked bits of a change bit
 * per element, truncated input refused with the destination unchanged, the per-element @notify
 * hook, the indexed setters and their dirty bits, and an input's arrays against the previous one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <netschema/dump.h>

#include "arrays.ns.h"
#include "ns_test.h"

static uint8_t buf[1 << 14];

/* Random edits of a few elements through the indexed setters. */
static void mutate(arr_Loadout *v, ns_rng *rng)
{
    int edits = (int)ns_rng_below(rng, 5);
    for (int e = 0; e < edits; e++) {
        uint32_t i = (uint32_t)ns_rng_below(rng, 4);
        switch (ns_rng_below(rng, 19)) {
        case 0: arr_Loadout_set_ammo(v, i, (uint16_t)ns_rng_below(rng, 1000)); break;
        case 1: arr_Loadout_set_heat(v, i % 3, (float)ns_rng_below(rng, 10001) / 100.0f); break;
        case 2: arr_Loadout_set_slots(v, i % 2, (arr_Slot)ns_rng_below(rng, 3)); break;
        case 3: arr_Loadout_set_targets(v, i % 2, (ns_entity)ns_rng_next(rng)); break;
        case 4: arr_Loadout_set_tags(v, i % 2, ns_rng_below(rng, 2) ? "ab" : "\xc3\xa9xyz"); break;
        case 5: {
            arr_Item it = {(uint16_t)ns_rng_below(rng, 70000), "it"};
            it.name[ns_rng_below(rng, 3)] = 0;
            arr_Loadout_set_items(v, i % 3, &it);
            break;
        }
        case 6: {
            arr_Pair p = {{(uint8_t)ns_rng_below(rng, 10), (uint8_t)ns_rng_below(rng, 10)}, ns_rng_below(rng, 2) != 0, {0, 3}};
            arr_Loadout_set_pairs(v, i % 2, &p);
            break;
        }
        case 7: {
            ns_vec3 p = {(float)ns_rng_below(rng, 20001) / 100.0f - 100.0f, 1.5f, -(float)ns_rng_below(rng, 100)};
            arr_Loadout_set_points(v, i % 2, p);
            break;
        }
        case 8: arr_Loadout_set_flags(v, (uint32_t)ns_rng_below(rng, 5), ns_rng_below(rng, 2) != 0); break;
        case 9: {
            double a = ns_rng_unit(rng) * 3.0;
            ns_quat q = {0.0f, (float)sin(a), 0.0f, (float)cos(a)};
            arr_Loadout_set_turns(v, 0, q);
            break;
        }
        case 10: arr_Loadout_set_big(v, i % 2, (int64_t)ns_rng_next(rng)); break;
        case 11: arr_Loadout_set_exact(v, i % 2, ns_rng_unit(rng) * 1e6); break;
        case 12: arr_Loadout_set_blobs(v, i % 2, "\x01\x02\x03\x04", (size_t)ns_rng_below(rng, 5)); break;
        case 13: arr_Loadout_set_whole(v, i % 3, (int16_t)(ns_rng_below(rng, 60000) - 30000)); break;
        case 14: {
            arr_Item it = {(uint16_t)ns_rng_below(rng, 9), "c"};
            arr_Loadout_set_citems(v, i % 2, &it);
            break;
        }
        case 15: arr_Loadout_set_cnames(v, i % 2, ns_rng_below(rng, 2) ? "" : "abcd"); break;
        case 16: arr_Loadout_set_cfloats(v, i % 2, (float)ns_rng_unit(rng)); break;
        case 17: {
            arr_Pair p = {{1, 2}, true, {(int8_t)(ns_rng_below(rng, 256) - 128), -1}};
            arr_Loadout_set_pairs(v, i % 2, &p);
            break;
        }
        default: arr_Loadout_set_score(v, (int32_t)ns_rng_below(rng, 1000) - 500); break;
        }
    }
}

START_TEST(round_trips_over_baselines)
{
    static arr_Loadout v, back, want;
    static arr_Loadout_snap hist[8], cur, out, keep;
    ns_rng rng = {0xa77a1u};
    arr_Loadout_init(&v);
    uint32_t nhist = 0;
    size_t most = 0;
    unsigned by_count[4] = {0, 0, 0, 0};
    for (int round = 0; round < 4000; round++) {
        mutate(&v, &rng);
        arr_Loadout_quantize(&v, &cur);
        uint32_t nb = (uint32_t)ns_rng_below(&rng, 4);
        if (nb > nhist) nb = nhist;
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nb, (uint32_t)round + 10u};
        for (uint32_t k = 0; k < nb; k++) {
            b.snap[k] = &hist[ns_rng_below(&rng, nhist)];
            b.tick[k] = (uint32_t)round + 9u - k;
        }
        by_count[nb]++;
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(arr_Loadout_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);
        size_t bits = ns_writer_bits(&w);
        NS_CHECK(bits <= ARR_LOADOUT_MAX_BITS, "round %d: %zu bits over MAX_BITS %u", round, bits, ARR_LOADOUT_MAX_BITS);
        if (bits > most) most = bits;
        size_t len = ns_writer_flush(&w);
        memset(&out, 0x3c, sizeof out);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(arr_Loadout_read(&r, &out, &b, NS_TO_OWNER), NS_OK);
        NS_CHECK(arr_Loadout_snap_equal(&out, &cur), "round %d: decoded state differs from the source", round);
        /* The value a receiver sees is the source's, quantized. */
        arr_Loadout_dequantize(&out, &back);
        arr_Loadout_dequantize(&cur, &want);
        NS_CHECK(arr_Loadout_equal(&back, &want), "round %d: dequantized decode differs", round);
        /* The descriptor walker (netschema/dump.h) decodes the same write to the same state. */
        memset(&keep, 0x5a, sizeof keep);
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(ns_walk_record(&r, &arr_Loadout_desc, &b, NS_TO_OWNER, &keep, NULL, NULL), NS_OK);
        NS_CHECK(arr_Loadout_snap_equal(&keep, &cur), "round %d: the descriptor walker decoded another state", round);
        /* Every cut of the write is refused and leaves the destination as it was. */
        if (round % 7 == 0 && len > 1) {
            memcpy(&keep, &out, sizeof keep);
            size_t cut = (size_t)ns_rng_below(&rng, len);
            ns_reader_init(&r, buf, cut);
            NS_CHECK(arr_Loadout_read(&r, &out, &b, NS_TO_OWNER) != NS_OK, "round %d: %zu of %zu bytes accepted", round,
                     cut, len);
            NS_CHECK(memcmp(&keep, &out, sizeof keep) == 0, "round %d: a refused read changed its destination", round);
        }
        memcpy(&hist[nhist < 8 ? nhist++ : ns_rng_below(&rng, 8)], &cur, sizeof cur);
    }
    printf("arrays: largest write %zu bits (MAX_BITS %u); baselines 0/1/2/3: %u/%u/%u/%u\n", most, ARR_LOADOUT_MAX_BITS,
           by_count[0], by_count[1], by_count[2], by_count[3]);
    ck_assert_uint_gt(by_count[3], 100);
}
END_TEST

/* The write of cur against ref (NULL: no baseline), in wire order, as '0' and '1'. */
static const char *tiny_bits(const arr_Tiny_snap *cur, const arr_Tiny_snap *ref)
{
    static char text[128];
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(arr_Tiny_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    size_t n = ns_writer_bits(&w);
    ck_assert_uint_le(n, ARR_TINY_MAX_BITS);
    for (size_t i = 0; i < n; i++) text[i] = (char)('0' + ((buf[i / 8] >> (i % 8)) & 1));
    text[n] = 0;
    return text;
}

START_TEST(change_bit_per_element)
{
    /* docs/wire.md section 12.7: a leading "anything changed" bit, then per element its change
     * bit and, when set, its 3 raw bits (least significant first). */
    arr_Tiny_snap zero = {{0, 0, 0}}, one = {{0, 5, 0}}, all = {{7, 1, 6}};
    ck_assert_str_eq(tiny_bits(&zero, NULL), "0");
    ck_assert_str_eq(tiny_bits(&one, NULL), "1" "0" "1101" "0");
    ck_assert_str_eq(tiny_bits(&all, &one), "1" "1111" "1100" "1011");
    ck_assert_str_eq(tiny_bits(&all, &all), "0");
    ck_assert_uint_eq(ARR_TINY_MAX_BITS, 1 + 3 * (1 + 3));
    /* An element out of @range is refused by the writer, and by the reader. */
    arr_Tiny_snap bad = {{0, 8, 0}};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(arr_Tiny_write(&w, &bad, NULL, NS_TO_OWNER), NS_ERR_RANGE);
}
END_TEST

/* The write of a TinyWhole against ref (NULL: no baseline), as '0' and '1'. */
static const char *whole_bits(const arr_TinyWhole_snap *cur, const arr_TinyWhole_snap *ref)
{
    static char text[128];
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(arr_TinyWhole_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    size_t n = ns_writer_bits(&w);
    ck_assert_uint_le(n, ARR_TINYWHOLE_MAX_BITS);
    for (size_t i = 0; i < n; i++) text[i] = (char)('0' + ((buf[i / 8] >> (i % 8)) & 1));
    text[n] = 0;
    return text;
}

START_TEST(composite_is_one_slot)
{
    /* docs/wire.md section 12.7: one change bit for the whole array (the only slot, so no
     * leading bit), then every element's 3 raw bits, changed or not. */
    arr_TinyWhole_snap zero = {{0, 0, 0}}, one = {{0, 5, 0}}, all = {{7, 1, 6}};
    ck_assert_str_eq(whole_bits(&zero, NULL), "0");
    ck_assert_str_eq(whole_bits(&one, NULL), "1" "000" "101" "000");
    ck_assert_str_eq(whole_bits(&all, &one), "1" "111" "100" "011");
    ck_assert_str_eq(whole_bits(&all, &all), "0");
    ck_assert_uint_eq(ARR_TINYWHOLE_MAX_BITS, 1 + 3 * 3);
    /* Decoded back, and a cut write refused with the destination unchanged. */
    arr_TinyWhole_snap out = {{1, 1, 1}};
    ns_baselines b = {{&one, NULL, NULL}, {1, 0, 0}, 1u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(arr_TinyWhole_write(&w, &all, &b, NS_TO_OWNER), NS_OK);
    size_t len = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, len - 1);
    ck_assert_int_ne(arr_TinyWhole_read(&r, &out, &b, NS_TO_OWNER), NS_OK);
    ck_assert(out.v[0] == 1 && out.v[1] == 1 && out.v[2] == 1);
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(arr_TinyWhole_read(&r, &out, &b, NS_TO_OWNER), NS_OK);
    ck_assert(arr_TinyWhole_snap_equal(&out, &all));
}
END_TEST

typedef struct seen {
    unsigned calls;
    uint32_t index[4];
    arr_Slot old_value[4], new_value[4];
} seen;

static void on_slot(void *ctx, arr_Loadout *live, uint32_t index, arr_Slot old_value, arr_Slot new_value)
{
    seen *s = (seen *)ctx;
    ck_assert_uint_eq(live->slots[index], new_value); /* called after the whole update */
    ck_assert_uint_lt(s->calls, 4);
    s->index[s->calls] = index, s->old_value[s->calls] = old_value, s->new_value[s->calls] = new_value;
    s->calls++;
}

START_TEST(notify_per_element)
{
    static arr_Loadout live, v;
    static arr_Loadout_snap s;
    arr_Loadout_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.slots = on_slot;
    seen got = {0, {0}, {0}, {0}};
    arr_Loadout_init(&live);
    arr_Loadout_init(&v);
    arr_Loadout_set_slots(&v, 1, arr_Slot_shield);
    arr_Loadout_quantize(&v, &s);
    arr_Loadout_apply(&live, &s, &hooks, &got);
    ck_assert_uint_eq(got.calls, 1);
    ck_assert_uint_eq(got.index[0], 1);
    ck_assert_uint_eq(got.old_value[0], arr_Slot_empty);
    ck_assert_uint_eq(got.new_value[0], arr_Slot_shield);
    arr_Loadout_set_slots(&v, 0, arr_Slot_sword);
    arr_Loadout_set_slots(&v, 1, arr_Slot_empty);
    arr_Loadout_quantize(&v, &s);
    got.calls = 0;
    arr_Loadout_apply(&live, &s, &hooks, &got);
    ck_assert_uint_eq(got.calls, 2);
    ck_assert_uint_eq(got.index[0], 0);
    ck_assert_uint_eq(got.new_value[0], arr_Slot_sword);
    ck_assert_uint_eq(got.index[1], 1);
    ck_assert_uint_eq(got.old_value[1], arr_Slot_shield);
    got.calls = 0;
    arr_Loadout_apply(&live, &s, &hooks, &got); /* nothing changed */
    ck_assert_uint_eq(got.calls, 0);
    ck_assert_uint_eq(live.slots[0], arr_Slot_sword);
    ck_assert_uint_eq(live.slots[1], arr_Slot_empty);
}
END_TEST

START_TEST(setters_and_defaults)
{
    static arr_Loadout v;
    arr_Loadout_init(&v);
    /* A default applies to every element. */
    ck_assert_str_eq(v.tags[0], "x");
    ck_assert_str_eq(v.tags[1], "x");
    ck_assert(!arr_Loadout_is_dirty(&v));
    arr_Loadout_set_ammo(&v, 4, 7); /* past the end: nothing */
    ck_assert(!arr_Loadout_is_dirty(&v));
    arr_Loadout_set_ammo(&v, 3, 0); /* unchanged: not dirty */
    ck_assert(!arr_Loadout_is_dirty(&v));
    arr_Loadout_set_ammo(&v, 3, 7);
    ck_assert(arr_Loadout_is_dirty(&v));
    ck_assert_uint_eq(v.ammo[3], 7);
    ck_assert_uint_eq(v.ammo[2], 0);
    arr_Loadout_clear_dirty(&v);
    arr_Loadout_set_tags(&v, 1, "a longer tag than eight");
    ck_assert_str_eq(v.tags[1], "a longer");
    ck_assert_str_eq(v.tags[0], "x");
    ck_assert(arr_Loadout_is_dirty(&v));
}
END_TEST

START_TEST(input_arrays_against_previous)
{
    arr_Keys v;
    arr_Keys_snap prev, cur, out;
    arr_Keys_init(&v);
    arr_Keys_quantize(&v, &prev);
    arr_Keys_set_down(&v, 2, true);
    arr_Keys_set_axes(&v, 1, -100);
    arr_Keys_quantize(&v, &cur);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(arr_Keys_write(&w, &cur, &prev), NS_OK);
    size_t len = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    memset(&out, 0, sizeof out);
    ck_assert_int_eq(arr_Keys_read(&r, &out, &prev), NS_OK);
    ck_assert(arr_Keys_snap_equal(&out, &cur));
    ck_assert(out.down[2] && !out.down[0] && !out.down[1] && !out.down[3]);
    ck_assert_int_eq(out.axes[1], -100);
    ck_assert_int_eq(out.axes[0], 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("fixed arrays");
    TCase *tc = tcase_create("wire");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, round_trips_over_baselines);
    tcase_add_test(tc, change_bit_per_element);
    tcase_add_test(tc, composite_is_one_slot);
    tcase_add_test(tc, notify_per_element);
    tcase_add_test(tc, setters_and_defaults);
    tcase_add_test(tc, input_arrays_against_previous);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
