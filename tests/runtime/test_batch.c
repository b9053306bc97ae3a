/* test_batch.c — timestamp batching: the exact bytes of batches, where batches split, and the
 * unbatcher's rejection of every malformed batch (nothing yielded, never read past the end). */
#include <stdlib.h>
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

/* Takes the next batch and checks its bytes. */
static void expect_batch(ns_batcher *b, const uint8_t *want, size_t want_len)
{
    const uint8_t *batch;
    size_t len;
    ck_assert(ns_batcher_take(b, &batch, &len));
    ck_assert_uint_eq(len, want_len);
    ck_assert_mem_eq(batch, want, want_len);
}

START_TEST(two_messages_share_one_batch)
{
    uint8_t storage[256];
    ns_batcher b;
    ck_assert_int_eq(ns_batcher_init(&b, storage, sizeof storage, 0), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, "abc", 3, 0x0102030405060708u), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, "Z", 1, 0x0102030405060708u), NS_OK);
    static const uint8_t want[] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* timestamp LE */
                                   0x03, 'a', 'b', 'c',                            /* length, bytes */
                                   0x01, 'Z'};
    expect_batch(&b, want, sizeof want);
    const uint8_t *batch;
    size_t len;
    ck_assert(!ns_batcher_take(&b, &batch, &len));
    ck_assert(!ns_batcher_pending(&b));
}
END_TEST

START_TEST(a_new_timestamp_starts_a_new_batch)
{
    uint8_t storage[256];
    ns_batcher b;
    ns_batcher_init(&b, storage, sizeof storage, 0);
    ck_assert_int_eq(ns_batcher_add(&b, "a", 1, 7), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, "b", 1, 8), NS_OK);
    static const uint8_t first[] = {7, 0, 0, 0, 0, 0, 0, 0, 1, 'a'};
    static const uint8_t second[] = {8, 0, 0, 0, 0, 0, 0, 0, 1, 'b'};
    expect_batch(&b, first, sizeof first);
    expect_batch(&b, second, sizeof second);
}
END_TEST

START_TEST(two_byte_length_prefix)
{
    uint8_t storage[512], msg[200];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)i;
    ns_batcher b;
    ns_batcher_init(&b, storage, sizeof storage, 0);
    ck_assert_int_eq(ns_batcher_add(&b, msg, sizeof msg, 1), NS_OK);
    const uint8_t *batch;
    size_t len;
    ck_assert(ns_batcher_take(&b, &batch, &len));
    ck_assert_uint_eq(len, 8 + 2 + 200);
    ck_assert_uint_eq(batch[8], 0xc8); /* 200 = 0x48 | 0x80, then 0x01 */
    ck_assert_uint_eq(batch[9], 0x01);
    ck_assert_mem_eq(batch + 10, msg, sizeof msg);
}
END_TEST

/* With a 20-byte threshold: 8 + (1 + 5) + (1 + 5) = 20 fits, a third message does not. */
START_TEST(threshold_splits_batches)
{
    uint8_t storage[256];
    ns_batcher b;
    ck_assert_int_eq(ns_batcher_init(&b, storage, sizeof storage, 20), NS_OK);
    for (int i = 0; i < 3; i++) ck_assert_int_eq(ns_batcher_add(&b, "hello", 5, 1), NS_OK);
    static const uint8_t two[] = {1, 0, 0, 0, 0, 0, 0, 0, 5, 'h', 'e', 'l', 'l', 'o', 5, 'h', 'e', 'l', 'l', 'o'};
    static const uint8_t one[] = {1, 0, 0, 0, 0, 0, 0, 0, 5, 'h', 'e', 'l', 'l', 'o'};
    expect_batch(&b, two, sizeof two);
    expect_batch(&b, one, sizeof one);
}
END_TEST

START_TEST(an_oversized_message_travels_alone)
{
    uint8_t storage[256], big[30];
    memset(big, 'x', sizeof big);
    ns_batcher b;
    ns_batcher_init(&b, storage, sizeof storage, 20);
    ck_assert_int_eq(ns_batcher_add(&b, "a", 1, 1), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, big, sizeof big, 1), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, "b", 1, 1), NS_OK);
    static const uint8_t a[] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 'a'};
    static const uint8_t b_only[] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 'b'};
    expect_batch(&b, a, sizeof a);
    const uint8_t *batch;
    size_t len;
    ck_assert(ns_batcher_take(&b, &batch, &len));
    ck_assert_uint_eq(len, 8 + 1 + 30);
    ck_assert_uint_eq(batch[8], 30);
    expect_batch(&b, b_only, sizeof b_only);
}
END_TEST

START_TEST(full_storage_and_bad_arguments)
{
    /* Each batch costs a record header (a size_t: 8 bytes on 64-bit targets, 4 on 32-bit). */
    uint8_t storage[sizeof(size_t) + 32];
    ns_batcher b;
    ck_assert_int_eq(ns_batcher_init(&b, storage, sizeof storage, 9), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_batcher_init(&b, storage, sizeof storage, 1000), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, "x", 0, 1), NS_ERR_ARGUMENT);
    /* Record header + 8-byte timestamp + 1 + 20: all but 3 bytes of the storage. */
    uint8_t msg[20] = {0};
    ck_assert_uint_eq(ns_batcher_storage_for(sizeof msg), sizeof storage - 3);
    ck_assert_int_eq(ns_batcher_add(&b, msg, sizeof msg, 1), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, msg, 3, 1), NS_ERR_FULL);
    ck_assert_int_eq(ns_batcher_add(&b, msg, 2, 1), NS_OK);
    ck_assert_int_eq(ns_batcher_add(&b, msg, 1, 2), NS_ERR_FULL); /* a new batch needs a header + 10 more */
    const uint8_t *batch;
    size_t len;
    ck_assert(ns_batcher_take(&b, &batch, &len));
    ck_assert_uint_eq(len, 8 + 21 + 3);
    /* Taking everything frees the storage again. */
    ck_assert_int_eq(ns_batcher_add(&b, msg, 1, 2), NS_OK);
    ck_assert(ns_batcher_take(&b, &batch, &len));
    ck_assert_uint_eq(len, 10);
}
END_TEST

/* Random messages and timestamps, taken at random moments: every message comes back once, in
 * order, with its timestamp, and no batch with several messages exceeds the threshold. */
START_TEST(random_round_trip)
{
    enum { N = 20000, THRESHOLD = 300 };
    uint8_t *storage = malloc(4096);
    ns_batcher b;
    ns_batcher_init(&b, storage, 4096, THRESHOLD);
    ns_rng rng = {42};
    uint64_t ts = 0;
    static uint64_t sent_ts[N];
    uint32_t sent = 0, received = 0;
    uint8_t msg[600];
    while (received < N) {
        if (sent < N && ns_rng_below(&rng, 4) != 0) {
            if (ns_rng_below(&rng, 8) == 0) ts++;
            /* Mostly small messages, now and then one larger than the threshold. */
            size_t len = 4 + (size_t)(ns_rng_below(&rng, 16) == 0 ? ns_rng_below(&rng, 500) : ns_rng_below(&rng, 40));
            memcpy(msg, &sent, 4);
            for (size_t i = 4; i < len; i++) msg[i] = (uint8_t)(sent * 7u + i);
            ns_status s = ns_batcher_add(&b, msg, len, ts);
            NS_CHECK(s == NS_OK || s == NS_ERR_FULL, "add: %d", s);
            if (s == NS_OK) {
                sent_ts[sent++] = ts;
                continue;
            }
        }
        const uint8_t *batch;
        size_t len;
        if (!ns_batcher_take(&b, &batch, &len)) continue;
        ns_unbatcher u;
        NS_CHECK(ns_unbatcher_init(&u, batch, len) == NS_OK, "batch rejected");
        NS_CHECK(u.count == 1 || len <= THRESHOLD, "batch of %u messages is %zu bytes", u.count, len);
        const uint8_t *m;
        size_t mlen;
        uint64_t mts;
        while (ns_unbatcher_next(&u, &m, &mlen, &mts)) {
            uint32_t id;
            memcpy(&id, m, 4);
            NS_CHECK(id == received, "message %u arrived as %u", received, id);
            NS_CHECK(mts == sent_ts[received], "timestamp of message %u", received);
            for (size_t i = 4; i < mlen; i++) NS_CHECK(m[i] == (uint8_t)(id * 7u + i), "payload of %u", id);
            received++;
        }
    }
    ck_assert_uint_eq(received, N);
    free(storage);
}
END_TEST

/* ---- malformed batches ---------------------------------------------------------------- */

/* A batch that must be rejected with `want`: copied into a buffer of exactly its length (so
 * ASan catches any read past the end), and the unbatcher must yield nothing. */
static void expect_rejected(const uint8_t *bytes, size_t len, ns_status want)
{
    uint8_t *exact = malloc(len ? len : 1);
    if (len) memcpy(exact, bytes, len);
    ns_unbatcher u;
    ck_assert_int_eq(ns_unbatcher_init(&u, exact, len), want);
    const uint8_t *m;
    size_t mlen;
    ck_assert(!ns_unbatcher_next(&u, &m, &mlen, NULL));
    ck_assert_uint_eq(ns_unbatcher_count(&u), 0);
    free(exact);
}

#define TS 1, 2, 3, 4, 5, 6, 7, 8

START_TEST(malformed_batches_are_rejected_whole)
{
    static const uint8_t truncated_ts[] = {1, 2, 3, 4, 5, 6, 7};
    expect_rejected(truncated_ts, 0, NS_ERR_TRUNCATED);
    expect_rejected(truncated_ts, sizeof truncated_ts, NS_ERR_TRUNCATED);
    static const uint8_t no_messages[] = {TS};
    expect_rejected(no_messages, sizeof no_messages, NS_ERR_MALFORMED);
    static const uint8_t zero_length[] = {TS, 1, 'a', 0};
    expect_rejected(zero_length, sizeof zero_length, NS_ERR_MALFORMED);
    static const uint8_t zero_first[] = {TS, 0, 1, 'a'};
    expect_rejected(zero_first, sizeof zero_first, NS_ERR_MALFORMED);
    static const uint8_t past_end[] = {TS, 1, 'a', 3, 'b', 'c'};
    expect_rejected(past_end, sizeof past_end, NS_ERR_TRUNCATED);
    static const uint8_t past_end_by_far[] = {TS, 0xff, 0xff, 0xff, 0xff, 0x0f, 'x'};
    expect_rejected(past_end_by_far, sizeof past_end_by_far, NS_ERR_TRUNCATED);
    static const uint8_t varint_cut[] = {TS, 1, 'a', 0x80};
    expect_rejected(varint_cut, sizeof varint_cut, NS_ERR_TRUNCATED);
    static const uint8_t overlong[] = {TS, 0x81, 0x00, 'a'};
    expect_rejected(overlong, sizeof overlong, NS_ERR_MALFORMED);
    static const uint8_t over_32_bits[] = {TS, 0xff, 0xff, 0xff, 0xff, 0x1f, 'a'};
    expect_rejected(over_32_bits, sizeof over_32_bits, NS_ERR_MALFORMED);
    static const uint8_t huge_varint[] = {TS, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'};
    expect_rejected(huge_varint, sizeof huge_varint, NS_ERR_MALFORMED);
    ns_unbatcher u;
    ck_assert_int_eq(ns_unbatcher_init(&u, NULL, 0), NS_ERR_TRUNCATED);
}
END_TEST

START_TEST(valid_batch_yields_every_message)
{
    static const uint8_t batch[] = {TS, 2, 'h', 'i', 1, '!'};
    ns_unbatcher u;
    ck_assert_int_eq(ns_unbatcher_init(&u, batch, sizeof batch), NS_OK);
    ck_assert_uint_eq(ns_unbatcher_count(&u), 2);
    ck_assert(ns_unbatcher_timestamp(&u) == 0x0807060504030201u);
    const uint8_t *m;
    size_t len;
    uint64_t ts;
    ck_assert(ns_unbatcher_next(&u, &m, &len, &ts));
    ck_assert_uint_eq(len, 2);
    ck_assert_mem_eq(m, "hi", 2);
    ck_assert(ts == 0x0807060504030201u);
    ck_assert(ns_unbatcher_next(&u, &m, &len, &ts));
    ck_assert_uint_eq(len, 1);
    ck_assert_mem_eq(m, "!", 1);
    ck_assert(!ns_unbatcher_next(&u, &m, &len, &ts));
}
END_TEST

/* Every prefix of a valid batch, and every single-byte corruption of it, is either rejected or
 * yields messages that lie inside the batch and add up to it exactly. */
START_TEST(prefixes_and_corruptions_stay_inside)
{
    static const uint8_t batch[] = {TS, 3, 'a', 'b', 'c', 0x81, 0x01, [142] = 'z', 1, '!'};
    uint8_t copy[sizeof batch];
    for (size_t n = 0; n <= sizeof batch; n++) {
        for (int corrupt = -1; corrupt < (int)n; corrupt++) {
            memcpy(copy, batch, n);
            if (corrupt >= 0) copy[corrupt] ^= 0x80;
            uint8_t *exact = malloc(n ? n : 1);
            memcpy(exact, copy, n);
            ns_unbatcher u;
            ns_status s = ns_unbatcher_init(&u, exact, n);
            if (n < sizeof batch && corrupt < 0 && n > 8) NS_CHECK(s != NS_OK || n == 12 || n == 143, "prefix %zu accepted", n);
            size_t total = 8;
            const uint8_t *m;
            size_t len;
            uint32_t count = 0;
            while (ns_unbatcher_next(&u, &m, &len, NULL)) {
                NS_CHECK(m >= exact && m + len <= exact + n && len > 0, "message outside the batch");
                total += len + ns_varint_size(len);
                count++;
            }
            if (s == NS_OK) NS_CHECK(total == n && count == u.count, "messages do not add up");
            else NS_CHECK(count == 0, "rejected batch yielded");
            free(exact);
        }
    }
}
END_TEST

static Suite *batch_suite(void)
{
    Suite *s = suite_create("batch");
    TCase *tc = tcase_create("batch");
    tcase_add_test(tc, two_messages_share_one_batch);
    tcase_add_test(tc, a_new_timestamp_starts_a_new_batch);
    tcase_add_test(tc, two_byte_length_prefix);
    tcase_add_test(tc, threshold_splits_batches);
    tcase_add_test(tc, an_oversized_message_travels_alone);
    tcase_add_test(tc, full_storage_and_bad_arguments);
    tcase_add_test(tc, random_round_trip);
    tcase_add_test(tc, malformed_batches_are_rejected_whole);
    tcase_add_test(tc, valid_batch_yields_every_message);
    tcase_add_test(tc, prefixes_and_corruptions_stay_inside);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(batch_suite)
