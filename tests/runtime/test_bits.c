/* test_bits.c — ns_writer / ns_reader: exact bit layout, bounds, alignment, sticky errors. */
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

START_TEST(lsb_first_layout)
{
    uint8_t buf[8] = {0};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 1, 1);       /* bit 0 */
    ns_write_bits(&w, 0x5, 3);     /* bits 1..3 = 1,0,1 */
    ns_write_bits(&w, 0xf, 4);     /* bits 4..7 */
    ns_write_bits(&w, 0x1234, 16); /* next two bytes, little-endian */
    ns_write_bool(&w, true);
    ck_assert_uint_eq(ns_writer_bits(&w), 25);
    ck_assert_uint_eq(ns_writer_flush(&w), 4);
    ck_assert_uint_eq(buf[0], 0xfb);
    ck_assert_uint_eq(buf[1], 0x34);
    ck_assert_uint_eq(buf[2], 0x12);
    ck_assert_uint_eq(buf[3], 0x01);
    ck_assert(!ns_writer_overflowed(&w));
}
END_TEST

START_TEST(high_bits_of_value_are_ignored)
{
    uint8_t buf[4] = {0};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 0xffffffffu, 3);
    ns_write_bits(&w, 0, 5);
    ck_assert_uint_eq(ns_writer_flush(&w), 1);
    ck_assert_uint_eq(buf[0], 0x07);
}
END_TEST

/* The same with widths known only at run time (the mask comes from a table then), 0 included:
 * every write keeps exactly its width of an all-ones value, and the 0 after it stays 0. */
START_TEST(high_bits_are_ignored_at_every_runtime_width)
{
    uint8_t buf[128] = {0};
    volatile unsigned width[33];
    for (unsigned n = 0; n <= 32; n++) width[n] = n;
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    for (unsigned n = 0; n <= 32; n++) {
        ns_write_bits(&w, 0xffffffffu, width[n]);
        ns_write_bits(&w, 0, width[1]);
    }
    size_t used = ns_writer_flush(&w);
    ck_assert_uint_eq(used, (528 + 33 + 7) / 8);
    ns_reader r;
    ns_reader_init(&r, buf, used);
    for (unsigned n = 0; n <= 32; n++) {
        if (n) ck_assert_uint_eq(ns_read_bits(&r, n), n == 32 ? 0xffffffffu : (1u << n) - 1u);
        ck_assert_uint_eq(ns_read_bits(&r, 1), 0);
    }
    ck_assert(!ns_reader_failed(&r));
}
END_TEST

START_TEST(every_width_round_trips)
{
    uint8_t buf[1024];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    for (unsigned n = 1; n <= 32; n++) {
        uint32_t v = n == 32 ? 0xdeadbeefu : (0x9e3779b9u & ((1u << n) - 1u));
        ns_write_bits(&w, v, n);
    }
    ns_write_bits64(&w, 0x0123456789abcdefu);
    size_t used = ns_writer_flush(&w);
    ck_assert_uint_eq(used, (528 + 64 + 7) / 8);

    ns_reader r;
    ns_reader_init(&r, buf, used);
    for (unsigned n = 1; n <= 32; n++) {
        uint32_t v = n == 32 ? 0xdeadbeefu : (0x9e3779b9u & ((1u << n) - 1u));
        ck_assert_uint_eq(ns_read_bits(&r, n), v);
    }
    ck_assert(ns_read_bits64(&r) == 0x0123456789abcdefu);
    ck_assert(!ns_reader_failed(&r));
    ck_assert_uint_eq(ns_reader_bits(&r), 592);
}
END_TEST

START_TEST(writer_never_passes_capacity)
{
    /* A 5-byte window inside a larger array: the canaries around it must survive. */
    uint8_t mem[16];
    memset(mem, 0xaa, sizeof mem);
    ns_writer w;
    ns_writer_init(&w, mem + 4, 5);
    for (int i = 0; i < 20; i++) ns_write_bits(&w, 0x55u, 7);
    ck_assert(ns_writer_overflowed(&w));
    ck_assert_int_eq(ns_writer_status(&w), NS_ERR_OVERFLOW);
    ck_assert_uint_eq(ns_writer_bits(&w), 140); /* keeps counting: the size that was needed */
    ck_assert_uint_le(ns_writer_flush(&w), 5);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(mem[i], 0xaa);
    for (int i = 9; i < 16; i++) ck_assert_uint_eq(mem[i], 0xaa);
}
END_TEST

START_TEST(exact_fit_does_not_overflow)
{
    uint8_t buf[3];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 0xabcdef, 24);
    ck_assert_uint_eq(ns_writer_flush(&w), 3);
    ck_assert(!ns_writer_overflowed(&w));
    ns_write_bool(&w, true);
    ns_writer_flush(&w);
    ck_assert(ns_writer_overflowed(&w));
}
END_TEST

START_TEST(zero_capacity_writer)
{
    ns_writer w;
    ns_writer_init(&w, NULL, 0);
    ns_write_bool(&w, false);
    ck_assert_uint_eq(ns_writer_flush(&w), 0);
    ck_assert(ns_writer_overflowed(&w));
}
END_TEST

START_TEST(bytes_and_alignment)
{
    uint8_t buf[32];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 0x3, 2);
    ns_write_bytes(&w, "abc", 3);
    ns_write_bits(&w, 0x1, 1);
    ns_writer_align(&w);
    ns_write_bits(&w, 0xfe, 8);
    size_t used = ns_writer_flush(&w);
    ck_assert_uint_eq(used, 6);
    ck_assert_uint_eq(buf[0], 0x03);
    ck_assert_mem_eq(buf + 1, "abc", 3);
    ck_assert_uint_eq(buf[4], 0x01);
    ck_assert_uint_eq(buf[5], 0xfe);

    ns_reader r;
    ns_reader_init(&r, buf, used);
    char s[3];
    ck_assert_uint_eq(ns_read_bits(&r, 2), 3);
    ns_read_bytes(&r, s, 3);
    ck_assert_mem_eq(s, "abc", 3);
    ck_assert_uint_eq(ns_read_bits(&r, 1), 1);
    ns_reader_align(&r);
    ck_assert_uint_eq(ns_read_bits(&r, 8), 0xfe);
    ck_assert_uint_eq(ns_reader_bits(&r), 48);
    ck_assert_uint_eq(ns_reader_remaining_bits(&r), 0);
    ck_assert(!ns_reader_failed(&r));
}
END_TEST

START_TEST(bytes_after_long_bit_runs)
{
    /* Bytes read after the accumulator was filled by an 8-byte load must come from the right
     * offset: exercise every bit offset before the byte copy. */
    for (unsigned lead = 0; lead < 70; lead++) {
        uint8_t buf[64];
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        for (unsigned i = 0; i < lead; i++) ns_write_bool(&w, i & 1);
        ns_write_bytes(&w, "0123456789", 10);
        ns_write_bits(&w, 0x2a, 6);
        size_t used = ns_writer_flush(&w);
        ns_reader r;
        ns_reader_init(&r, buf, used);
        for (unsigned i = 0; i < lead; i++) ck_assert_int_eq(ns_read_bool(&r), (int)(i & 1));
        char s[10];
        ns_read_bytes(&r, s, 10);
        ck_assert_mem_eq(s, "0123456789", 10);
        ck_assert_uint_eq(ns_read_bits(&r, 6), 0x2a);
        ck_assert(!ns_reader_failed(&r));
    }
}
END_TEST

START_TEST(byte_overflow_leaves_buffer_alone)
{
    uint8_t mem[8];
    memset(mem, 0xaa, sizeof mem);
    ns_writer w;
    ns_writer_init(&w, mem, 4);
    ns_write_bytes(&w, "hello", 5);
    ck_assert(ns_writer_overflowed(&w));
    for (int i = 4; i < 8; i++) ck_assert_uint_eq(mem[i], 0xaa);
}
END_TEST

START_TEST(truncated_read_is_sticky_and_zero)
{
    uint8_t *buf = malloc(2); /* exact size: ASan catches any over-read */
    buf[0] = 0xff;
    buf[1] = 0xff;
    ns_reader r;
    ns_reader_init(&r, buf, 2);
    ck_assert_uint_eq(ns_read_bits(&r, 12), 0xfff);
    ck_assert_uint_eq(ns_read_bits(&r, 5), 0); /* only 4 left */
    ck_assert(ns_reader_failed(&r));
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_TRUNCATED);
    ck_assert_uint_eq(ns_read_bits(&r, 1), 0); /* sticky, even though a bit "remained" */
    char s[4] = {1, 2, 3, 4};
    ns_read_bytes(&r, s, 4);
    ck_assert_int_eq(s[0] | s[1] | s[2] | s[3], 0);
    free(buf);
}
END_TEST

START_TEST(reader_fail_keeps_first_status)
{
    uint8_t buf[4] = {1, 2, 3, 4};
    ns_reader r;
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_reader_fail(&r, NS_ERR_RANGE), 0);
    ns_read_bits(&r, 8);
    ck_assert_int_eq(ns_reader_status(&r), NS_ERR_RANGE);
    ck_assert_str_eq(ns_status_str(ns_reader_status(&r)), "value out of range");
}
END_TEST

START_TEST(status_strings_are_distinct)
{
    for (int a = 0; a < NS_STATUS_COUNT_; a++) {
        ck_assert_str_ne(ns_status_str((ns_status)a), "unknown status");
        for (int b = a + 1; b < NS_STATUS_COUNT_; b++)
            ck_assert_str_ne(ns_status_str((ns_status)a), ns_status_str((ns_status)b));
    }
    ck_assert_str_eq(ns_status_str(NS_STATUS_COUNT_), "unknown status");
}
END_TEST

static Suite *bits_suite(void)
{
    Suite *s = suite_create("bits");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lsb_first_layout);
    tcase_add_test(tc, high_bits_of_value_are_ignored);
    tcase_add_test(tc, high_bits_are_ignored_at_every_runtime_width);
    tcase_add_test(tc, every_width_round_trips);
    tcase_add_test(tc, writer_never_passes_capacity);
    tcase_add_test(tc, exact_fit_does_not_overflow);
    tcase_add_test(tc, zero_capacity_writer);
    tcase_add_test(tc, bytes_and_alignment);
    tcase_add_test(tc, bytes_after_long_bit_runs);
    tcase_add_test(tc, byte_overflow_leaves_buffer_alone);
    tcase_add_test(tc, truncated_read_is_sticky_and_zero);
    tcase_add_test(tc, reader_fail_keeps_first_status);
    tcase_add_test(tc, status_strings_are_distinct);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(bits_suite)
