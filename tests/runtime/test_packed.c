/* test_packed.c — zigzag, the default packed model (exact costs and codes), deltas, bad codes. */
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

static const uint8_t default_raw_bits[16] = {0, 0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21, 24, 27, 32};
static const uint8_t default_code_len[16] = {2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 6};

/* Bits one packed write of v takes on the wire. */
static size_t wire_bits_u32(uint32_t v)
{
    uint8_t buf[16];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_packed_u32(&w, v, NULL);
    return ns_writer_bits(&w);
}

START_TEST(exact_costs_of_the_default_model)
{
    ck_assert_uint_eq(wire_bits_u32(0), 2);
    ck_assert_uint_eq(wire_bits_u32(1), 3);
    ck_assert_uint_eq(wire_bits_u32(2), 4);
    ck_assert_uint_eq(wire_bits_u32(3), 4);
    ck_assert_uint_eq(wire_bits_u32(12), 7);
    ck_assert_uint_eq(wire_bits_u32(123), 13);
    ck_assert_uint_eq(wire_bits_u32(4294967295u), 38);
    ck_assert_uint_eq(ns_packed_u32_cost(123, NULL), 13);
}
END_TEST

START_TEST(every_bucket_edge_round_trips)
{
    static const unsigned totals[16] = {2, 3, 4, 5, 7, 8, 10, 13, 15, 17, 21, 24, 27, 30, 33, 38};
    const ns_model *m = &ns_default_model;
    uint8_t buf[256];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    size_t expect_bits = 0;
    for (unsigned b = 0; b < 16; b++) {
        uint32_t first = m->offset[b];
        uint32_t last = (uint32_t)(m->limit[b] - 1);
        ck_assert_uint_eq(wire_bits_u32(first), totals[b]);
        ck_assert_uint_eq(wire_bits_u32(last), totals[b]);
        ns_write_packed_u32(&w, first, NULL);
        ns_write_packed_u32(&w, last, NULL);
        expect_bits += 2u * totals[b];
    }
    ck_assert_uint_eq(ns_writer_bits(&w), expect_bits);
    size_t used = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, used);
    for (unsigned b = 0; b < 16; b++) {
        ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), m->offset[b]);
        ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), (uint32_t)(m->limit[b] - 1));
    }
    ck_assert(!ns_reader_failed(&r));
    ck_assert_uint_eq(m->offset[15], 153392480u);
    ck_assert_uint_eq(m->offset[10], 5472u);
}
END_TEST

START_TEST(small_value_table_agrees_with_buckets)
{
    /* Values below 256 take a table shortcut when written; they must cost and decode exactly as
     * the bucket path says, in the default and in a custom model. */
    static const uint8_t raw[16] = {1, 1, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21, 24, 27, 32};
    ns_model custom;
    ck_assert_int_eq(ns_model_init(&custom, raw, default_code_len), NS_OK);
    const ns_model *models[2] = {&ns_default_model, &custom};
    for (int k = 0; k < 2; k++) {
        uint8_t buf[2048];
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        size_t expect = 0;
        for (uint32_t v = 0; v < 600; v++) {
            ns_write_packed_u32(&w, v, models[k]);
            expect += ns_packed_u32_cost(v, models[k]);
            ck_assert_uint_eq(ns_writer_bits(&w), expect);
        }
        ns_reader r;
        ns_reader_init(&r, buf, ns_writer_flush(&w));
        for (uint32_t v = 0; v < 600; v++) ck_assert_uint_eq(ns_read_packed_u32(&r, models[k]), v);
        ck_assert(!ns_reader_failed(&r));
    }
}
END_TEST

START_TEST(default_model_matches_its_definition)
{
    ns_model built;
    ck_assert_int_eq(ns_model_init(&built, default_raw_bits, default_code_len), NS_OK);
    ck_assert_mem_eq(&built, &ns_default_model, sizeof built);
}
END_TEST

START_TEST(wire_codes_are_lsb_first)
{
    /* 1 is bucket 1 with code 010 (3 bits), written LSB-first: value 0x2. 4 is bucket 3: code
     * 0x1 (3 bits) then 2 raw bits of (4 − 4) = 0. */
    uint8_t buf[4] = {0};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_packed_u32(&w, 1, NULL);
    ns_write_packed_u32(&w, 4, NULL);
    ck_assert_uint_eq(ns_writer_bits(&w), 8);
    ns_writer_flush(&w);
    ck_assert_uint_eq(buf[0], 0x2 | (0x1 << 3));
}
END_TEST

START_TEST(zigzag_values)
{
    ck_assert_uint_eq(ns_zigzag32(0), 0);
    ck_assert_uint_eq(ns_zigzag32(-1), 1);
    ck_assert_uint_eq(ns_zigzag32(1), 2);
    ck_assert_uint_eq(ns_zigzag32(-2), 3);
    ck_assert_uint_eq(ns_zigzag32(2), 4);
    ck_assert_uint_eq(ns_zigzag32(INT32_MAX), 0xfffffffeu);
    ck_assert_uint_eq(ns_zigzag32(INT32_MIN), 0xffffffffu);
    ck_assert_int_eq(ns_unzigzag32(0xfffffffeu), INT32_MAX);
    ck_assert_int_eq(ns_unzigzag32(0xffffffffu), INT32_MIN);
    ck_assert(ns_zigzag64(INT64_MAX) == UINT64_C(0xfffffffffffffffe));
    ck_assert(ns_zigzag64(INT64_MIN) == UINT64_MAX);
    ck_assert(ns_unzigzag64(UINT64_MAX) == INT64_MIN);
    ck_assert(ns_unzigzag64(UINT64_C(0xfffffffffffffffe)) == INT64_MAX);
    ck_assert(ns_zigzag64(-3) == 5);
    for (int32_t v = -1000; v <= 1000; v++) ck_assert_int_eq(ns_unzigzag32(ns_zigzag32(v)), v);
}
END_TEST

START_TEST(delta_is_value_minus_reference)
{
    uint8_t buf[64];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_delta_i32(&w, 101, 100, NULL); /* +1 → zigzag 2 → 4 bits */
    ck_assert_uint_eq(ns_writer_bits(&w), 4);
    ns_write_delta_i32(&w, 99, 100, NULL); /* −1 → zigzag 1 → 3 bits */
    ck_assert_uint_eq(ns_writer_bits(&w), 7);
    ns_write_delta_i32(&w, INT32_MIN, INT32_MAX, NULL); /* wraps: +1 */
    ck_assert_uint_eq(ns_writer_bits(&w), 11);
    ns_write_delta_u32(&w, 0, UINT32_MAX, NULL);
    ns_write_delta_i64(&w, INT64_MIN, INT64_MAX, NULL);
    ns_write_delta_u64(&w, 5, UINT64_MAX, NULL);
    ns_write_packed_i64(&w, INT64_MIN, NULL);
    ns_write_packed_u64(&w, UINT64_MAX, NULL);
    size_t used = ns_writer_flush(&w);

    ns_reader r;
    ns_reader_init(&r, buf, used);
    ck_assert_int_eq(ns_read_delta_i32(&r, 100, NULL), 101);
    ck_assert_int_eq(ns_read_delta_i32(&r, 100, NULL), 99);
    ck_assert_int_eq(ns_read_delta_i32(&r, INT32_MAX, NULL), INT32_MIN);
    ck_assert_uint_eq(ns_read_delta_u32(&r, UINT32_MAX, NULL), 0);
    ck_assert(ns_read_delta_i64(&r, INT64_MAX, NULL) == INT64_MIN);
    ck_assert(ns_read_delta_u64(&r, UINT64_MAX, NULL) == 5);
    ck_assert(ns_read_packed_i64(&r, NULL) == INT64_MIN);
    ck_assert(ns_read_packed_u64(&r, NULL) == UINT64_MAX);
    ck_assert(!ns_reader_failed(&r));
}
END_TEST

START_TEST(value_beyond_last_bucket_is_malformed)
{
    /* Bucket 15's code followed by 32 one-bits decodes past 2^32 − 1. */
    uint8_t buf[8];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, ns_default_model.code[15], 6);
    ns_write_bits(&w, 0xffffffffu, 32);
    size_t used = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, used);
    ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), 0);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_MALFORMED);
}
END_TEST

START_TEST(truncated_packed_value)
{
    uint8_t buf[8];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_packed_u32(&w, 123456, NULL); /* 24 bits */
    ns_reader r;
    ns_reader_init(&r, buf, 2);
    ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), 0);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_TRUNCATED);
    /* A short code near the end of the buffer still decodes. */
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 0, 6);
    ns_write_packed_u32(&w, 0, NULL);
    ns_reader_init(&r, buf, 1);
    ck_assert_uint_eq(ns_read_bits(&r, 6), 0);
    ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), 0);
    ck_assert(!ns_reader_failed(&r));
}
END_TEST

/* xorshift32: a fixed stream of test data. */
static uint32_t next_rand(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* ns_read_changed_delta_i32_in is what generated readers call for an int field's change bit and
 * delta: it must give what ns_read_bool, then ns_read_delta_i32_in when the bit is 1, give —
 * value, status, and position — on valid streams, cut streams, garbage and out-of-range values. */
START_TEST(changed_delta_read_equals_bit_then_delta)
{
    uint32_t x = 0x9e3779b9u;
    for (int round = 0; round < 20000; round++) {
        uint8_t buf[40];
        size_t len;
        if (round % 2 == 0) { /* a valid stream of change bits and deltas, possibly cut short */
            ns_writer w;
            ns_writer_init(&w, buf, sizeof buf);
            for (int k = 0; k < 8; k++) {
                uint32_t shift = next_rand(&x) % 32u;
                int32_t v = (int32_t)(next_rand(&x) >> shift), ref = (int32_t)(next_rand(&x) >> shift);
                ns_write_changed_delta_i32(&w, (next_rand(&x) & 1u) != 0, v, ref);
            }
            len = ns_writer_flush(&w);
            len -= next_rand(&x) % 3u == 0 ? next_rand(&x) % (len + 1) : 0;
        } else { /* garbage */
            len = next_rand(&x) % sizeof buf;
            for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)next_rand(&x);
        }
        ns_reader a, b;
        ns_reader_init(&a, buf, len);
        ns_reader_init(&b, buf, len);
        unsigned skip = next_rand(&x) % 8u;
        if (skip) {
            ns_read_bits(&a, skip);
            ns_read_bits(&b, skip);
        }
        for (int k = 0; k < 10; k++) {
            uint32_t shift = next_rand(&x) % 32u;
            int32_t ref = (int32_t)(next_rand(&x) >> shift), lo = INT32_MIN, hi = INT32_MAX;
            if (next_rand(&x) & 1u) { /* a range that may or may not hold ref and the value */
                lo = ref - (int32_t)(next_rand(&x) % 100u);
                hi = ref + (int32_t)(next_rand(&x) % 100u);
            }
            int32_t want = ns_read_bool(&a) ? ns_read_delta_i32_in(&a, ref, lo, hi) : ref;
            int32_t got = ns_read_changed_delta_i32_in(&b, ref, lo, hi);
            ck_assert_int_eq(got, want);
            ck_assert_int_eq(ns_reader_status(&b), ns_reader_status(&a));
            ck_assert_uint_eq(ns_reader_bits(&b), ns_reader_bits(&a));
            ck_assert_uint_eq(ns_reader_remaining_bits(&b), ns_reader_remaining_bits(&a));
        }
    }
}
END_TEST

START_TEST(custom_model)
{
    /* A model that spends 1 bit on zero: every bucket code grows elsewhere. */
    static const uint8_t raw[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 32};
    static const uint8_t len[16] = {1, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
    ns_model m;
    ck_assert_int_eq(ns_model_init(&m, raw, len), NS_OK);
    ck_assert_uint_eq(ns_packed_u32_cost(0, &m), 1);
    uint8_t buf[512];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_rng rng = {42};
    for (int i = 0; i < 80; i++) ns_write_packed_u32(&w, ns_rng_u32_spread(&rng), &m);
    size_t used = ns_writer_flush(&w);
    ck_assert(!ns_writer_overflowed(&w));
    ns_reader r;
    ns_reader_init(&r, buf, used);
    rng.s = 42;
    for (int i = 0; i < 80; i++) ck_assert_uint_eq(ns_read_packed_u32(&r, &m), ns_rng_u32_spread(&rng));
    ck_assert(!ns_reader_failed(&r));
}
END_TEST

START_TEST(incomplete_model_rejects_unused_codes)
{
    /* Lengths with Kraft sum < 1 leave 6-bit patterns without a bucket. */
    static const uint8_t len[16] = {2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 6};
    uint8_t short_len[16];
    memcpy(short_len, len, sizeof short_len);
    short_len[0] = 3; /* frees a quarter of the code space */
    ns_model m;
    ck_assert_int_eq(ns_model_init(&m, default_raw_bits, short_len), NS_OK);
    uint8_t buf[2] = {0, 0xff};
    int unused = -1;
    for (unsigned p = 0; p < 64; p++)
        if (m.decode[p] == NS__DECODE_NONE) unused = (int)p;
    ck_assert_int_ge(unused, 0);
    buf[0] = (uint8_t)unused;
    ns_reader r;
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_read_packed_u32(&r, &m), 0);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_MALFORMED);
}
END_TEST

START_TEST(invalid_models_are_refused)
{
    ns_model m;
    uint8_t raw[16], len[16];
    memcpy(raw, default_raw_bits, 16);
    memcpy(len, default_code_len, 16);
    len[15] = 5; /* Kraft sum > 1 */
    ck_assert_int_eq(ns_model_init(&m, raw, len), NS_ERR_ARGUMENT);
    memcpy(len, default_code_len, 16);
    len[3] = 7; /* longer than the 6-bit peek */
    ck_assert_int_eq(ns_model_init(&m, raw, len), NS_ERR_ARGUMENT);
    memcpy(len, default_code_len, 16);
    raw[15] = 16; /* buckets stop short of 2^32 − 1 */
    ck_assert_int_eq(ns_model_init(&m, raw, len), NS_ERR_ARGUMENT);
    raw[15] = 33;
    ck_assert_int_eq(ns_model_init(&m, raw, len), NS_ERR_ARGUMENT);
}
END_TEST

static Suite *packed_suite(void)
{
    Suite *s = suite_create("packed");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, exact_costs_of_the_default_model);
    tcase_add_test(tc, every_bucket_edge_round_trips);
    tcase_add_test(tc, small_value_table_agrees_with_buckets);
    tcase_add_test(tc, default_model_matches_its_definition);
    tcase_add_test(tc, wire_codes_are_lsb_first);
    tcase_add_test(tc, zigzag_values);
    tcase_add_test(tc, delta_is_value_minus_reference);
    tcase_add_test(tc, value_beyond_last_bucket_is_malformed);
    tcase_add_test(tc, truncated_packed_value);
    tcase_add_test(tc, changed_delta_read_equals_bit_then_delta);
    tcase_add_test(tc, custom_model);
    tcase_add_test(tc, incomplete_model_rejects_unused_codes);
    tcase_add_test(tc, invalid_models_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(packed_suite)
