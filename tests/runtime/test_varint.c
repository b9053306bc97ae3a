/* test_varint.c — LEB128 varints: boundaries, exact bytes, strict rejection of bad input. */
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

static void check_round_trip(uint64_t v, size_t expect_len)
{
    uint8_t buf[NS_VARINT_MAX_BYTES];
    ck_assert_uint_eq(ns_varint_size(v), expect_len);
    ck_assert_uint_eq(ns_varint_encode(buf, sizeof buf, v), expect_len);
    uint64_t out = 1;
    size_t used = 0;
    ck_assert_int_eq(ns_varint_decode(buf, expect_len, &out, &used), NS_OK);
    ck_assert(out == v);
    ck_assert_uint_eq(used, expect_len);
    /* Every shorter prefix is truncated. */
    for (size_t n = 0; n < expect_len; n++) {
        uint8_t *exact = malloc(n ? n : 1);
        memcpy(exact, buf, n);
        ck_assert_int_eq(ns_varint_decode(exact, n, &out, &used), NS_ERR_TRUNCATED);
        ck_assert(out == 0 && used == 0);
        free(exact);
    }
}

START_TEST(boundaries)
{
    check_round_trip(0, 1);
    check_round_trip(127, 1);
    check_round_trip(128, 2);
    check_round_trip(16383, 2);
    check_round_trip(16384, 3);
    check_round_trip(UINT32_MAX, 5);
    check_round_trip(UINT64_MAX, 10);
}
END_TEST

START_TEST(exact_bytes)
{
    uint8_t buf[10];
    ck_assert_uint_eq(ns_varint_encode(buf, sizeof buf, 300), 2);
    ck_assert_uint_eq(buf[0], 0xac);
    ck_assert_uint_eq(buf[1], 0x02);
    ck_assert_uint_eq(ns_varint_encode(buf, sizeof buf, UINT64_MAX), 10);
    for (int i = 0; i < 9; i++) ck_assert_uint_eq(buf[i], 0xff);
    ck_assert_uint_eq(buf[9], 0x01);
    ck_assert_uint_eq(ns_varint_encode(buf, 1, 300), 0); /* does not fit */
}
END_TEST

START_TEST(overlong_and_oversized_are_malformed)
{
    uint64_t v;
    size_t used;
    static const uint8_t zero_overlong[] = {0x80, 0x00};
    ck_assert_int_eq(ns_varint_decode(zero_overlong, 2, &v, &used), NS_ERR_MALFORMED);
    static const uint8_t one_overlong[] = {0x81, 0x80, 0x00};
    ck_assert_int_eq(ns_varint_decode(one_overlong, 3, &v, &used), NS_ERR_MALFORMED);
    static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x01};
    ck_assert_int_eq(ns_varint_decode(eleven, sizeof eleven, &v, &used), NS_ERR_MALFORMED);
    static const uint8_t bit65[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    ck_assert_int_eq(ns_varint_decode(bit65, sizeof bit65, &v, &used), NS_ERR_MALFORMED);
    ck_assert(v == 0 && used == 0);
}
END_TEST

START_TEST(u32_limit)
{
    uint8_t buf[10];
    uint32_t v;
    size_t used;
    size_t n = ns_varint_encode(buf, sizeof buf, UINT32_MAX);
    ck_assert_int_eq(ns_varint_decode_u32(buf, n, &v, &used), NS_OK);
    ck_assert_uint_eq(v, UINT32_MAX);
    n = ns_varint_encode(buf, sizeof buf, (uint64_t)UINT32_MAX + 1);
    ck_assert_int_eq(ns_varint_decode_u32(buf, n, &v, &used), NS_ERR_MALFORMED);
    ck_assert_uint_eq(v, 0);
    n = ns_varint_encode(buf, sizeof buf, UINT64_C(1) << 40);
    ck_assert_int_eq(ns_varint_decode_u32(buf, n, &v, &used), NS_ERR_MALFORMED);
}
END_TEST

START_TEST(in_bit_streams)
{
    uint8_t buf[32];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 5, 3);
    ns_write_varint(&w, 16384);
    ns_write_bits(&w, 1, 1);
    ns_write_varint(&w, 127);
    size_t used = ns_writer_flush(&w);
    ck_assert_uint_eq(used, 1 + 3 + 1 + 1);
    ns_reader r;
    ns_reader_init(&r, buf, used);
    ck_assert_uint_eq(ns_read_bits(&r, 3), 5);
    ck_assert(ns_read_varint(&r) == 16384);
    ck_assert_uint_eq(ns_read_bits(&r, 1), 1);
    ck_assert(ns_read_varint(&r) == 127);
    ck_assert(!ns_reader_failed(&r));
    ck_assert(ns_read_varint(&r) == 0);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_TRUNCATED);

    static const uint8_t bad[] = {0x80, 0x00};
    ns_reader_init(&r, bad, sizeof bad);
    ck_assert(ns_read_varint(&r) == 0);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_MALFORMED);
}
END_TEST

static Suite *varint_suite(void)
{
    Suite *s = suite_create("varint");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, boundaries);
    tcase_add_test(tc, exact_bytes);
    tcase_add_test(tc, overlong_and_oversized_are_malformed);
    tcase_add_test(tc, u32_limit);
    tcase_add_test(tc, in_bit_streams);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(varint_suite)
