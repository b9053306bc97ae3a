/* test_quant.c — quantization rounding and saturation, smallest-three quaternions. */
#include <float.h>
#include <math.h>

#include <netschema/netschema.h>

#include "ns_test.h"

START_TEST(halfway_cases_round_away_from_zero)
{
    ck_assert_int_eq(ns_quantize_f32(0.5f, 1.0), 1);
    ck_assert_int_eq(ns_quantize_f32(-0.5f, 1.0), -1);
    ck_assert_int_eq(ns_quantize_f32(1.5f, 1.0), 2);
    ck_assert_int_eq(ns_quantize_f32(2.5f, 1.0), 3);
    ck_assert_int_eq(ns_quantize_f32(-2.5f, 1.0), -3);
    ck_assert_int_eq(ns_quantize_f32(0.25f, 10.0), 3);   /* 2.5 exactly */
    ck_assert_int_eq(ns_quantize_f32(-0.25f, 10.0), -3);
    ck_assert_int_eq(ns_quantize_f64(0.49999999999999994, 1.0), 0); /* not 0.5: no floor(x+0.5) bug */
    ck_assert_int_eq(ns_quantize_f64(-0.49999999999999994, 1.0), 0);
    ck_assert_int_eq(ns_quantize_f32(0.123456789f, 10.0), 1);
    ck_assert_int_eq(ns_quantize_f32(0.123456789f, 100.0), 12);
    ck_assert_int_eq(ns_quantize_f32(0.123456789f, 1000.0), 123);
    ck_assert_int_eq(ns_quantize_f32(-0.0f, 1000.0), 0);
}
END_TEST

START_TEST(nan_inf_and_huge_values_saturate)
{
    ck_assert_int_eq(ns_quantize_f32(NAN, 100.0), 0);
    ck_assert_int_eq(ns_quantize_f32(-NAN, 100.0), 0);
    ck_assert_int_eq(ns_quantize_f32(INFINITY, 100.0), INT32_MAX);
    ck_assert_int_eq(ns_quantize_f32(-INFINITY, 100.0), INT32_MIN);
    ck_assert_int_eq(ns_quantize_f32(1e30f, 1.0), INT32_MAX);
    ck_assert_int_eq(ns_quantize_f32(-1e30f, 1.0), INT32_MIN);
    ck_assert_int_eq(ns_quantize_f64(2147483647.4, 1.0), INT32_MAX);
    ck_assert_int_eq(ns_quantize_f64(2147483646.6, 1.0), INT32_MAX);
    ck_assert_int_eq(ns_quantize_f64(-2147483648.6, 1.0), INT32_MIN);
    ck_assert_int_eq(ns_quantize_f64(DBL_MAX, 1e300), INT32_MAX); /* product overflows to inf */
}
END_TEST

START_TEST(denormals)
{
    ck_assert_int_eq(ns_quantize_f32(FLT_TRUE_MIN, 1000.0), 0);
    ck_assert_int_eq(ns_quantize_f32(-FLT_TRUE_MIN, 1000.0), 0);
    ck_assert_int_eq(ns_quantize_f64(DBL_TRUE_MIN, 1e300), 0);
    ck_assert_int_eq(ns_quantize_f32(FLT_MIN / 2, 1e38), 1); /* 5.877e-39 · 1e38 = 0.5877 */
}
END_TEST

START_TEST(ranges_clamp)
{
    ck_assert_int_eq(ns_quantize_range(600.0, 10.0, 0, 5000), 5000);
    ck_assert_int_eq(ns_quantize_range(-3.0, 10.0, 0, 5000), 0);
    ck_assert_int_eq(ns_quantize_range(12.34, 10.0, 0, 5000), 123);
    ck_assert_int_eq(ns_quantize_range(NAN, 10.0, 5, 50), 5);
    ck_assert_int_eq(ns_quantize_range(NAN, 10.0, -50, -5), -5);
    ck_assert_int_eq(ns_quantize_range(INFINITY, 10.0, -50, -5), -5);
    ck_assert_int_eq(ns_round_clamp(-7.5, -7, 7), -7);
}
END_TEST

START_TEST(dequantize)
{
    const float inv = (float)(1.0 / 1000.0);
    ck_assert_float_eq(ns_dequantize_f32(123, inv), 123.0f * inv);
    ck_assert_double_eq(ns_dequantize_f64(-5, 0.5), -2.5);
    /* Every quantized value survives dequantize → quantize. */
    for (int32_t q = -100000; q <= 100000; q += 7)
        ck_assert_int_eq(ns_quantize_f32(ns_dequantize_f32(q, inv), 1000.0), q);
}
END_TEST

static ns_quat random_unit_quat(ns_rng *rng)
{
    /* Marsaglia's method: uniform on the unit 3-sphere. */
    double x1, y1, x2, y2, s1, s2;
    do {
        x1 = 2 * ns_rng_unit(rng) - 1;
        y1 = 2 * ns_rng_unit(rng) - 1;
        s1 = x1 * x1 + y1 * y1;
    } while (s1 >= 1 || s1 == 0);
    do {
        x2 = 2 * ns_rng_unit(rng) - 1;
        y2 = 2 * ns_rng_unit(rng) - 1;
        s2 = x2 * x2 + y2 * y2;
    } while (s2 >= 1 || s2 == 0);
    double f = sqrt((1 - s1) / s2);
    ns_quat q = {(float)x1, (float)y1, (float)(x2 * f), (float)(y2 * f)};
    return q;
}

/* The largest component error between a and b, treating b and −b as the same rotation. */
static double quat_error(ns_quat a, ns_quat b)
{
    double e_pos = fmax(fmax(fabs(a.x - b.x), fabs(a.y - b.y)), fmax(fabs(a.z - b.z), fabs(a.w - b.w)));
    double e_neg = fmax(fmax(fabs(a.x + b.x), fabs(a.y + b.y)), fmax(fabs(a.z + b.z), fabs(a.w + b.w)));
    return fmin(e_pos, e_neg);
}

START_TEST(smallest_three_round_trips_within_the_quantum)
{
    unsigned bits = (unsigned)_i;
    double quantum = 0.70710678118654752440 / (double)((1u << (bits - 1)) - 1u);
    ns_rng rng = {1000u + bits};
    double worst = 0;
    for (int i = 0; i < 100000; i++) {
        ns_quat q = random_unit_quat(&rng);
        if (i & 1) { q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w; }
        uint64_t packed = ns_smallest3_pack(q, bits);
        NS_CHECK(packed >> NS_SMALLEST3_BITS(bits) == 0, "stray bits");
        ns_quat back = ns_smallest3_unpack(packed, bits);
        double e = quat_error(q, back);
        if (e > worst) worst = e;
        double len = sqrt((double)back.x * back.x + (double)back.y * back.y +
                          (double)back.z * back.z + (double)back.w * back.w);
        NS_CHECK(fabs(len - 1.0) < 1e-6, "length %f", len);
    }
    ck_assert_msg(worst <= quantum, "bits %u: worst error %.9g > quantum %.9g", bits, worst, quantum);
}
END_TEST

START_TEST(smallest_three_identity_is_exact)
{
    for (unsigned bits = 2; bits <= NS_SMALLEST3_MAX_BITS; bits++) {
        ns_quat id = {0, 0, 0, 1};
        ns_quat back = ns_smallest3_unpack(ns_smallest3_pack(id, bits), bits);
        ck_assert(back.x == 0 && back.y == 0 && back.z == 0 && back.w == 1);
        ns_quat neg = {0, 0, 0, -1};
        back = ns_smallest3_unpack(ns_smallest3_pack(neg, bits), bits);
        ck_assert(back.w == 1);
    }
}
END_TEST

START_TEST(smallest_three_in_streams_and_garbage)
{
    uint8_t buf[64];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_quat q = {0.1f, -0.7f, 0.1f, 0.7f};
    ns_write_smallest3(&w, q, 15);
    ns_write_smallest3(&w, q, 9);
    ck_assert_uint_eq(ns_writer_bits(&w), 47 + 29);
    size_t used = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, used);
    ns_quat a = ns_read_smallest3(&r, 15), b = ns_read_smallest3(&r, 9);
    ck_assert(quat_error(ns_quat_normalize(q), a) < 1e-4);
    ck_assert(quat_error(ns_quat_normalize(q), b) < 2e-3);
    /* Any bit pattern decodes to a unit quaternion. */
    ns_rng rng = {7};
    for (int i = 0; i < 10000; i++) {
        ns_quat g = ns_smallest3_unpack(ns_rng_next(&rng), 9 + (unsigned)(i % 7));
        double len = sqrt((double)g.x * g.x + (double)g.y * g.y + (double)g.z * g.z + (double)g.w * g.w);
        ck_assert_double_eq_tol(len, 1.0, 1e-6);
    }
}
END_TEST

START_TEST(normalize_degenerate)
{
    ns_quat zero = {0, 0, 0, 0}, nan = {NAN, 0, 0, 1}, big = {0, 3e20f, 0, 4e20f};
    ns_quat a = ns_quat_normalize(zero), b = ns_quat_normalize(nan), c = ns_quat_normalize(big);
    ck_assert(a.w == 1 && a.x == 0);
    ck_assert(b.w == 1 && b.x == 0);
    ck_assert_float_eq_tol(c.y, 0.6f, 1e-6f);
    ck_assert_float_eq_tol(c.w, 0.8f, 1e-6f);
}
END_TEST

static Suite *quant_suite(void)
{
    Suite *s = suite_create("quant");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, halfway_cases_round_away_from_zero);
    tcase_add_test(tc, nan_inf_and_huge_values_saturate);
    tcase_add_test(tc, denormals);
    tcase_add_test(tc, ranges_clamp);
    tcase_add_test(tc, dequantize);
    tcase_add_loop_test(tc, smallest_three_round_trips_within_the_quantum, 9, 16);
    tcase_add_test(tc, smallest_three_identity_is_exact);
    tcase_add_test(tc, smallest_three_in_streams_and_garbage);
    tcase_add_test(tc, normalize_degenerate);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(quant_suite)
