/* test_interp.c — interpolation helpers: ns_lerp_int's rounding, exactness and saturation. */
#include <netschema/netschema.h>

#include "ns_test.h"

START_TEST(lerp_int_rounds_half_away_from_zero)
{
    ck_assert_int_eq(ns_lerp_int(0, 3, 0.5f, INT64_MIN, INT64_MAX), 2);    /* 1.5 */
    ck_assert_int_eq(ns_lerp_int(-3, 0, 0.5f, INT64_MIN, INT64_MAX), -2);  /* -1.5 */
    ck_assert_int_eq(ns_lerp_int(3, 0, 0.5f, INT64_MIN, INT64_MAX), 2);    /* 1.5 */
    ck_assert_int_eq(ns_lerp_int(0, -3, 0.5f, INT64_MIN, INT64_MAX), -2);  /* -1.5 */
    ck_assert_int_eq(ns_lerp_int(-1, 0, 0.5f, INT64_MIN, INT64_MAX), -1);  /* -0.5 */
    ck_assert_int_eq(ns_lerp_int(0, 1, 0.5f, INT64_MIN, INT64_MAX), 1);    /* 0.5 */
    ck_assert_int_eq(ns_lerp_int(10, 20, 0.25f, INT64_MIN, INT64_MAX), 13); /* 12.5 */
    ck_assert_int_eq(ns_lerp_int(10, 20, 0.24f, INT64_MIN, INT64_MAX), 12);
    ck_assert_int_eq(ns_lerp_int(10, 20, 1.5f, INT64_MIN, INT64_MAX), 25);  /* extrapolated */
    ck_assert_int_eq(ns_lerp_int(10, 20, -0.5f, INT64_MIN, INT64_MAX), 5);
}
END_TEST

START_TEST(lerp_int_is_exact_for_large_values)
{
    const int64_t big = (INT64_C(1) << 62) + 1;
    ck_assert_int_eq(ns_lerp_int(big, big, 1.0f, INT64_MIN, INT64_MAX), big);
    ck_assert_int_eq(ns_lerp_int(big, big + 2, 0.0f, INT64_MIN, INT64_MAX), big);
    ck_assert_int_eq(ns_lerp_int(big, big + 2, 1.0f, INT64_MIN, INT64_MAX), big + 2);
    ck_assert_int_eq(ns_lerp_int(big, big + 2, 0.5f, INT64_MIN, INT64_MAX), big + 1);
    ck_assert_int_eq(ns_lerp_int(INT64_MIN, INT64_MAX, 1.0f, INT64_MIN, INT64_MAX), INT64_MAX);
    ck_assert_int_eq(ns_lerp_int(INT64_MAX, INT64_MIN, 0.0f, INT64_MIN, INT64_MAX), INT64_MAX);
    ck_assert_int_eq(ns_lerp_int(-big, -big - 4, 0.25f, INT64_MIN, INT64_MAX), -big - 1);
}
END_TEST

START_TEST(lerp_int_saturates)
{
    ck_assert_int_eq(ns_lerp_int(0, INT64_MAX, 2.0f, INT64_MIN, INT64_MAX), INT64_MAX);
    ck_assert_int_eq(ns_lerp_int(0, INT64_MIN, 2.0f, INT64_MIN, INT64_MAX), INT64_MIN);
    ck_assert_int_eq(ns_lerp_int(INT64_MIN, INT64_MAX, 1.5f, INT64_MIN, INT64_MAX), INT64_MAX);
    ck_assert_int_eq(ns_lerp_int(0, 100, 2.0f, 0, 150), 150);
    ck_assert_int_eq(ns_lerp_int(0, 100, -1.0f, 0, 150), 0);
    float nan;
    uint32_t bits = 0x7fc00000u;
    memcpy(&nan, &bits, sizeof nan);
    ck_assert_int_eq(ns_lerp_int(5, 10, nan, -7, 9), -7);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("lerp_int");
    tcase_add_test(tc, lerp_int_rounds_half_away_from_zero);
    tcase_add_test(tc, lerp_int_is_exact_for_large_values);
    tcase_add_test(tc, lerp_int_saturates);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
