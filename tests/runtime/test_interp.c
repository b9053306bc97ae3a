/* test_interp.c — interpolation helpers: ns_lerp_int's rounding, exactness and saturation, and
 * the wrapping lerps of @smooth(..., wrap). */
#include <math.h>

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

/* The issue that asked for it: from 3.10 to -3.10 rad, halfway is pi (the short way), not 0. */
START_TEST(lerp_wrap_goes_the_short_way_round)
{
    const float pi = 3.14159265f;
    float mid = ns_lerp_wrap_f32(3.10f, -3.10f, 0.5f, -pi, pi);
    ck_assert(fabsf(fabsf(mid) - pi) < 1e-4f);
    ck_assert(fabsf(ns_lerp_f32(3.10f, -3.10f, 0.5f)) < 1e-6f); /* what plain interpolate does */
    ck_assert(fabsf(ns_lerp_wrap_f32(3.10f, -3.10f, 0.25f, -pi, pi) - 3.1208f) < 1e-3f);
    ck_assert(fabsf(ns_lerp_wrap_f32(-3.10f, 3.10f, 0.25f, -pi, pi) + 3.1208f) < 1e-3f);
    /* within half a turn it is plain lerp */
    ck_assert(fabsf(ns_lerp_wrap_f32(-1.0f, 1.0f, 0.25f, -pi, pi) + 0.5f) < 1e-6f);
    /* degrees 0..360: 350 to 10 passes 0 and comes back into [0, 360) */
    ck_assert(fabs(ns_lerp_wrap_f64(350.0, 10.0, 0.5f, 0.0, 360.0)) < 1e-9);
    ck_assert(fabs(ns_lerp_wrap_f64(350.0, 10.0, 0.75f, 0.0, 360.0) - 5.0) < 1e-9);
    ck_assert(fabs(ns_lerp_wrap_f64(10.0, 350.0, 0.75f, 0.0, 360.0) - 355.0) < 1e-9);
    /* extrapolated past the end, still wrapped */
    ck_assert(fabs(ns_lerp_wrap_f64(340.0, 350.0, 3.0f, 0.0, 360.0) - 10.0) < 1e-9);
    /* exactly half a turn goes up */
    ck_assert(fabs(ns_lerp_wrap_f64(0.0, 180.0, 0.5f, 0.0, 360.0) - 90.0) < 1e-9);
    ck_assert(fabs(ns_lerp_wrap_f64(180.0, 0.0, 0.5f, 0.0, 360.0) - 270.0) < 1e-9);
    ck_assert(isnan(ns_lerp_wrap_f32(NAN, 1.0f, 0.5f, -pi, pi)));
}
END_TEST

START_TEST(lerp_wrap_int_rounds_and_wraps)
{
    ck_assert_int_eq(ns_lerp_wrap_int(359, 1, 0.5f, 0, 360), 0);
    ck_assert_int_eq(ns_lerp_wrap_int(359, 1, 0.25f, 0, 360), 0);   /* 359.5 rounds up to 360, which is 0 */
    ck_assert_int_eq(ns_lerp_wrap_int(358, 2, 0.25f, 0, 360), 359);
    ck_assert_int_eq(ns_lerp_wrap_int(1, 359, 0.5f, 0, 360), 0);
    ck_assert_int_eq(ns_lerp_wrap_int(170, -170, 0.5f, -180, 180), -180);
    ck_assert_int_eq(ns_lerp_wrap_int(-170, 170, 0.25f, -180, 180), -175);
    ck_assert_int_eq(ns_lerp_wrap_int(10, 20, 0.5f, 0, 360), 15);
    ck_assert_int_eq(ns_lerp_wrap_int(0, 180, 0.5f, 0, 360), 90);   /* half a turn goes up */
    ck_assert_int_eq(ns_lerp_wrap_int(180, 0, 0.5f, 0, 360), 270);
    ck_assert_int_eq(ns_lerp_wrap_int(350, 10, 2.0f, 0, 360), 30);  /* extrapolated */
    ck_assert_int_eq(ns_lerp_wrap_int(350, 10, 1.0f, 0, 360), 10);
    ck_assert_int_eq(ns_lerp_wrap_int(350, 10, 0.0f, 0, 360), 350);
    /* The widest turn allowed, at the edge of int64 */
    const int64_t lo = INT64_MIN, hi = INT64_MIN + (INT64_C(1) << 32);
    ck_assert_int_eq(ns_lerp_wrap_int(lo + 1, hi - 1, 0.5f, lo, hi), lo);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("lerp_int");
    tcase_add_test(tc, lerp_int_rounds_half_away_from_zero);
    tcase_add_test(tc, lerp_int_is_exact_for_large_values);
    tcase_add_test(tc, lerp_int_saturates);
    tcase_add_test(tc, lerp_wrap_goes_the_short_way_round);
    tcase_add_test(tc, lerp_wrap_int_rounds_and_wraps);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
