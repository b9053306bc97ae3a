/* test_history.c — tick sets, the snapshot ring, the choice of baselines and the baseline-tick
 * header (netschema/history.h). */
#include <netschema/netschema.h>

#include <stdlib.h>
#include <string.h>

#include "ns_test.h"

START_TEST(tickset_keeps_64_ticks)
{
    ns_tickset s;
    ns_tickset_clear(&s);
    ck_assert(!ns_tickset_has(&s, 0));
    ns_tickset_add(&s, 100);
    ns_tickset_add(&s, 98);
    ns_tickset_add(&s, 98);
    ck_assert(ns_tickset_has(&s, 100) && ns_tickset_has(&s, 98) && !ns_tickset_has(&s, 99));
    ns_tickset_add(&s, 163); /* 100 is now 63 behind */
    ck_assert(ns_tickset_has(&s, 100) && !ns_tickset_has(&s, 98));
    ns_tickset_add(&s, 164);
    ck_assert(!ns_tickset_has(&s, 100));
    ns_tickset_add(&s, 20); /* too old to remember */
    ck_assert(!ns_tickset_has(&s, 20));
    /* Ticks wrap around 2^32. */
    ns_tickset_clear(&s);
    ns_tickset_add(&s, UINT32_MAX - 1);
    ns_tickset_add(&s, 3);
    ck_assert(ns_tickset_has(&s, UINT32_MAX - 1) && ns_tickset_has(&s, 3));
    ck_assert_uint_eq(s.newest, 3);
}
END_TEST

START_TEST(history_evicts_the_oldest)
{
    uint32_t store[NS_HISTORY_LEN(sizeof(uint32_t), 8)];
    ns_history h;
    ck_assert_int_eq(ns_history_init(&h, store, sizeof store[0], 0), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_history_init(&h, store, sizeof store[0], 65), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_history_init(&h, store, sizeof store[0], 8), NS_OK);
    for (uint32_t t = 1; t <= 20; t++) *(uint32_t *)ns_history_put(&h, t) = t * 10;
    ck_assert_ptr_null(ns_history_get(&h, 12)); /* overwritten by tick 20 */
    ck_assert_uint_eq(*(const uint32_t *)ns_history_get(&h, 13), 130);
    ck_assert_uint_eq(*(const uint32_t *)ns_history_get(&h, 20), 200);
    ns_history_drop(&h, 19);
    ck_assert_ptr_null(ns_history_get(&h, 19));
    ck_assert_ptr_null(ns_history_get(&h, 21));
}
END_TEST

/* Any depth works, odd snapshot sizes too: the ticks sit unaligned after the snapshots, inside
 * exactly NS_HISTORY_BYTES (ASan checks the bound), and the history struct stays small. */
START_TEST(history_storage_is_sized_by_depth)
{
    const size_t size = 3;
    const uint32_t depth = 5;
    uint8_t *store = malloc(NS_HISTORY_BYTES(size, depth));
    ck_assert_ptr_nonnull(store);
    ck_assert_uint_eq(NS_HISTORY_BYTES(size, depth), 35);
    ns_history h;
    ck_assert_int_eq(ns_history_init(&h, store, size, depth), NS_OK);
    for (uint32_t t = 100; t < 112; t++) memset(ns_history_put(&h, t), (int)t, size);
    for (uint32_t t = 100; t < 112; t++) {
        const uint8_t *s = ns_history_get(&h, t);
        if (t < 107) {
            ck_assert_ptr_null(s);
        } else {
            ck_assert_ptr_nonnull(s);
            ck_assert_uint_eq(s[0], t & 0xff);
            ck_assert_uint_eq(s[2], t & 0xff);
        }
    }
    ns_history_drop(&h, 106); /* no longer held: nothing changes */
    ck_assert_ptr_nonnull(ns_history_get(&h, 111));
    ck_assert_uint_le(sizeof h, 40);
    free(store);
}
END_TEST

START_TEST(baselines_are_the_newest_acked_and_held)
{
    uint32_t store[NS_HISTORY_LEN(sizeof(uint32_t), 16)];
    ns_history h;
    ns_history_init(&h, store, sizeof store[0], 16);
    for (uint32_t t = 1; t <= 30; t++) *(uint32_t *)ns_history_put(&h, t) = t;
    ns_tickset acked, sent;
    ns_tickset_clear(&acked);
    ns_baselines b;
    ck_assert_uint_eq(ns_history_baselines(&h, &acked, NULL, 31, 3, &b), 0); /* nothing acked: full state */
    uint32_t acks[] = {5, 20, 22, 25, 26, 29};
    for (size_t i = 0; i < 6; i++) ns_tickset_add(&acked, acks[i]);
    ck_assert_uint_eq(ns_history_baselines(&h, &acked, NULL, 31, 3, &b), 3);
    ck_assert_uint_eq(b.tick[0], 29);
    ck_assert_uint_eq(b.tick[1], 26);
    ck_assert_uint_eq(b.tick[2], 25);
    ck_assert_uint_eq(*(const uint32_t *)b.snap[2], 25);
    ck_assert_uint_eq(b.tick_now, 31);
    ck_assert_uint_eq(ns_history_baselines(&h, &acked, NULL, 26, 3, &b), 3); /* only ticks before now */
    ck_assert_uint_eq(b.tick[0], 25);
    ck_assert_uint_eq(b.tick[2], 20);
    ck_assert_uint_eq(ns_history_baselines(&h, &acked, NULL, 21, 3, &b), 1); /* 20 held, 5 evicted */
    ck_assert_uint_eq(b.tick[0], 20);
    ns_tickset_clear(&sent); /* the entity was only written at ticks 22 and 26 */
    ns_tickset_add(&sent, 22);
    ns_tickset_add(&sent, 26);
    ck_assert_uint_eq(ns_history_baselines(&h, &acked, &sent, 31, 3, &b), 2);
    ck_assert_uint_eq(b.tick[0], 26);
    ck_assert_uint_eq(b.tick[1], 22);
}
END_TEST

START_TEST(baseline_ticks_round_trip)
{
    uint8_t buf[32];
    ns_baselines b = {{buf, buf, buf}, {99, 97, 90}, 3, 100};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_baseline_ticks(&w, &b);
    size_t n = ns_writer_flush(&w);
    ns_reader r;
    uint32_t ticks[3], count;
    ns_reader_init(&r, buf, n);
    ns_read_baseline_ticks(&r, 100, ticks, &count);
    ck_assert(!ns_reader_failed(&r));
    ck_assert_uint_eq(count, 3);
    ck_assert_uint_eq(ticks[0], 99);
    ck_assert_uint_eq(ticks[1], 97);
    ck_assert_uint_eq(ticks[2], 90);
    for (size_t len = 0; len < n; len++) { /* truncated: no ticks */
        ns_reader_init(&r, buf, len);
        ns_read_baseline_ticks(&r, 100, ticks, &count);
        ck_assert(ns_reader_failed(&r));
        ck_assert_uint_eq(count, 0);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("history");
    TCase *tc = tcase_create("history");
    tcase_add_test(tc, tickset_keeps_64_ticks);
    tcase_add_test(tc, history_evicts_the_oldest);
    tcase_add_test(tc, history_storage_is_sized_by_depth);
    tcase_add_test(tc, baselines_are_the_newest_acked_and_held);
    tcase_add_test(tc, baseline_ticks_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
