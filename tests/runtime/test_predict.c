/* test_predict.c — the three-baseline predictor: Unity's worked cases, fallbacks, extremes. */
#include <netschema/netschema.h>

#include "ns_test.h"

static int64_t predict(uint32_t t0, uint32_t t1, uint32_t t2, uint32_t now,
                       int64_t v0, int64_t v1, int64_t v2)
{
    ns_predictor p;
    ns_predictor_init(&p, t0, t1, t2, now);
    return ns_predict_i64(&p, v0, v1, v2);
}

START_TEST(worked_cases)
{
    ns_predictor p;
    ns_predictor_init(&p, 10, 9, 8, 11);
    ck_assert_int_eq(ns_predict_i32(&p, 100, 90, 80), 110);
    ns_predictor_init(&p, 5, 4, 2, 7);
    ck_assert_int_eq(ns_predict_i32(&p, 50, 40, 20), 70);
    ns_predictor_init(&p, 10, 9, 8, 11);
    ck_assert_int_eq(ns_predict_i32(&p, 100, 90, 100), 100); /* not linear: falls back to v0 */
    ck_assert_int_eq(ns_predict_i32(&p, -100, -90, -80), -110);
    ck_assert_uint_eq(ns_predict_u32(&p, 100, 90, 80), 110);
    ck_assert_int_eq(ns_predict_i32(&p, 7, 7, 7), 7);        /* at rest */
}
END_TEST

START_TEST(fixed_point_truncation_matches_unity)
{
    /* Ticks 9, 6, 3 → predictFrac 16; now 10 → applyFrac 16·1/3 = 5 (truncated).
     * 30, 20, 10 → d = 10, 30 + 10·5/16 = 30 + 3 = 33. */
    ck_assert_int_eq(predict(9, 6, 3, 10, 30, 20, 10), 33);
    /* Negative steps truncate toward zero: −10·5/16 = −3. */
    ck_assert_int_eq(predict(9, 6, 3, 10, -30, -20, -10), -33);
}
END_TEST

START_TEST(bad_ticks_predict_v0)
{
    ck_assert_int_eq(predict(10, 10, 8, 11, 100, 90, 80), 100);
    ck_assert_int_eq(predict(10, 9, 9, 11, 100, 90, 80), 100);
    ck_assert_int_eq(predict(8, 9, 10, 11, 100, 90, 80), 100);  /* wrong order */
    ck_assert_int_eq(predict(10, 9, 8, 5, 100, 90, 80), 100);   /* now before baseline 0 */
    /* A wrapped tick counter still predicts. */
    ck_assert_int_eq(predict(1, 0, 0xffffffffu, 2, 100, 90, 80), 110);
}
END_TEST

START_TEST(extremes_do_not_overflow)
{
    /* These inputs would overflow 64-bit intermediates if computed naively; UBSan watches. */
    const int64_t mn = INT64_MIN, mx = INT64_MAX;
    ck_assert_int_eq(predict(10, 9, 8, 11, mx, 0, mn), mx);
    ck_assert_int_eq(predict(10, 9, 8, 11, mn, mx, mn), mn);
    ck_assert_int_eq(predict(10, 9, 8, 11, mx, mx - 1, mx - 2), mx); /* would pass INT64_MAX */
    ck_assert_int_eq(predict(10, 9, 8, 11, mn, mn + 1, mn + 2), mn);
    ck_assert_int_eq(predict(0x7ffffff0u, 0x7fffffe0u, 1, 0xfffffff0u, mx / 2, mx / 4, 0), mx / 2);
    ck_assert_int_eq(predict(3, 2, 1, 0x80000003u, 1000, 990, 980), 1000); /* now 2^31 ahead: invalid */
    ck_assert_int_eq(predict(0x40000002u, 2, 1, 0x7fffffffu, 5, 3, 1), 5);

    ns_predictor p;
    ns_predictor_init(&p, 10, 9, 8, 11);
    ck_assert_int_eq(ns_predict_i32(&p, INT32_MAX, INT32_MAX - 5, INT32_MAX - 10), INT32_MAX);
    ck_assert_int_eq(ns_predict_i32(&p, INT32_MIN, INT32_MIN + 5, INT32_MIN + 10), INT32_MIN);
    ck_assert_int_eq(ns_predict_i32(&p, INT32_MAX, INT32_MIN, INT32_MAX), INT32_MAX);
    ck_assert_uint_eq(ns_predict_u32(&p, UINT32_MAX, UINT32_MAX - 5, UINT32_MAX - 10), UINT32_MAX);
    ck_assert_uint_eq(ns_predict_u32(&p, 0, 5, 10), 0);
    ns_predictor_init(&p, 0x7ffffffeu, 0x7ffffffdu, 0, 0xfffffffbu);
    ck_assert_int_eq(ns_predict_i32(&p, 2000000000, 1999999999, 1999999998), 2000000000);
}
END_TEST

START_TEST(random_inputs_are_in_range_and_deterministic)
{
    ns_rng rng = {99};
    for (int i = 0; i < 200000; i++) {
        uint32_t t2 = (uint32_t)ns_rng_next(&rng);
        uint32_t t1 = t2 + 1 + (uint32_t)ns_rng_below(&rng, 8);
        uint32_t t0 = t1 + 1 + (uint32_t)ns_rng_below(&rng, 8);
        uint32_t now = t0 + (uint32_t)ns_rng_below(&rng, 8);
        if (i % 4 == 0) t1 = t2 + 1 + (uint32_t)ns_rng_below(&rng, 0x7fffffff), t0 = t1 + 1, now = t0 + 1;
        int32_t v2 = (int32_t)(uint32_t)ns_rng_next(&rng);
        int32_t v1 = (int32_t)(uint32_t)ns_rng_next(&rng), v0 = (int32_t)(uint32_t)ns_rng_next(&rng);
        ns_predictor p;
        ns_predictor_init(&p, t0, t1, t2, now);
        int32_t a = ns_predict_i32(&p, v0, v1, v2);
        ck_assert_int_eq(a, ns_predict_i32(&p, v0, v1, v2));
        /* The inline 32-bit path must agree exactly with the checked 64-bit one. */
        int64_t wide = ns_predict_i64(&p, v0, v1, v2);
        int32_t expect = wide < INT32_MIN || wide > INT32_MAX ? v0 : (int32_t)wide;
        NS_CHECK(a == expect, "case %d: %d, want %d", i, a, expect);
        uint32_t ua = ns_predict_u32(&p, (uint32_t)v0, (uint32_t)v1, (uint32_t)v2);
        int64_t uwide = ns_predict_i64(&p, (uint32_t)v0, (uint32_t)v1, (uint32_t)v2);
        uint32_t uexpect = uwide < 0 || uwide > (int64_t)UINT32_MAX ? (uint32_t)v0 : (uint32_t)uwide;
        NS_CHECK(ua == uexpect, "case %d: unsigned %u, want %u", i, ua, uexpect);
    }
}
END_TEST

static Suite *predict_suite(void)
{
    Suite *s = suite_create("predict");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, worked_cases);
    tcase_add_test(tc, fixed_point_truncation_matches_unity);
    tcase_add_test(tc, bad_ticks_predict_v0);
    tcase_add_test(tc, extremes_do_not_overflow);
    tcase_add_test(tc, random_inputs_are_in_range_and_deterministic);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(predict_suite)
