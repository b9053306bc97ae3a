/* test_teleport.c — distances, as a teleport and a prediction error measure them. The generated
 * _interpolate of @smooth(..., max_distance = D) fields: a move shorter than D slides, a longer
 * one (a teleport) stays at `from` until t reaches 1 and then jumps to `to`; distances are
 * Euclidean for vectors, angles for quaternions, and the short way round for wrapped fields.
 * The generated _prediction_error and the runtime's ns_error_stats. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "teleport.ns.h"

static teleport_Body_snap snap_of(float x, float angle, float height, int32_t cell, float yaw)
{
    teleport_Body b;
    teleport_Body_init(&b);
    b.position.x = x;
    b.slide.x = x;
    b.facing.z = sinf(angle / 2), b.facing.w = cosf(angle / 2);
    b.height = height;
    b.cell = cell;
    b.yaw = yaw;
    teleport_Body_snap s;
    teleport_Body_quantize(&b, &s);
    return s;
}

START_TEST(short_moves_slide)
{
    teleport_Body_snap a = snap_of(0, 0, 0, 0, 3.0f), b = snap_of(4, 1.0f, 1.5f, 8, -3.0f);
    teleport_Body out;
    teleport_Body_interpolate(&a, &b, 0.5f, &out);
    ck_assert_float_eq_tol(out.position.x, 2.0f, 1e-3f);
    ck_assert_float_eq_tol(2 * atan2f(out.facing.z, out.facing.w), 0.5f, 2e-3f);
    ck_assert_float_eq_tol(out.height, 0.75f, 1e-3f);
    ck_assert_int_eq(out.cell, 4);
    /* 3.0 to -3.0 rad is 0.28 rad the short way round: under max_distance 1, so it slides
     * through pi instead of jumping (a plain distance would say 6). */
    ck_assert_float_eq_tol(fabsf(out.yaw), 3.1416f, 2e-3f);
}
END_TEST

/* Error smoothing as docs/runtime.md describes it: _interpolate(corrected, shown, 1 - alpha). A
 * short correction glides in by alpha; one longer than max_distance shows the corrected value. */
START_TEST(error_smoothing_glides_short_corrections_and_snaps_long_ones)
{
    teleport_Body_snap shown = snap_of(0, 0, 0, 0, 0.0f);
    teleport_Body_snap corrected = snap_of(2, 0, 0, 0, 0.0f), teleported = snap_of(9, 0, 0, 0, 0.0f);
    teleport_Body out;
    teleport_Body_interpolate(&corrected, &shown, 1.0f - 0.25f, &out);
    ck_assert_float_eq_tol(out.position.x, 0.5f, 1e-3f);  /* a quarter of the way: glides */
    ck_assert_float_eq_tol(out.slide.x, 0.5f, 1e-3f);
    teleport_Body_interpolate(&teleported, &shown, 1.0f - 0.25f, &out);
    ck_assert_float_eq_tol(out.position.x, 9.0f, 1e-3f);  /* 9 > max_distance 5: snaps */
    ck_assert_float_eq_tol(out.slide.x, 2.25f, 1e-3f);    /* no max_distance: glides any distance */
}
END_TEST

START_TEST(long_moves_jump_at_t_1)
{
    teleport_Body_snap a = snap_of(0, 0, 0, 0, 0.0f), b = snap_of(6, 2.0f, 2.5f, 11, 1.5f);
    teleport_Body out;
    teleport_Body_interpolate(&a, &b, 0.5f, &out);
    ck_assert_float_eq(out.position.x, 0.0f);      /* still at from */
    ck_assert_float_eq_tol(out.facing.w, 1.0f, 1e-6f);
    ck_assert_float_eq(out.height, 0.0f);
    ck_assert_int_eq(out.cell, 0);
    ck_assert_float_eq(out.yaw, 0.0f);
    ck_assert_float_eq_tol(out.slide.x, 3.0f, 1e-3f); /* no max_distance: slides any distance */
    teleport_Body_interpolate(&a, &b, 1.0f, &out);
    ck_assert_float_eq_tol(out.position.x, 6.0f, 1e-3f);
    ck_assert_float_eq_tol(2 * atan2f(out.facing.z, out.facing.w), 2.0f, 2e-3f);
    ck_assert_float_eq_tol(out.height, 2.5f, 1e-3f);
    ck_assert_int_eq(out.cell, 11);
    ck_assert_float_eq_tol(out.yaw, 1.5f, 1e-3f);
    /* an extrapolated field that teleported does not run on past `to` */
    teleport_Body_interpolate(&a, &b, 1.5f, &out);
    ck_assert_float_eq_tol(out.height, 2.5f, 1e-3f);
}
END_TEST

START_TEST(distances)
{
    ck_assert_double_eq(ns_distance(3.0, -2.0), 5.0);
    ck_assert_double_eq_tol(ns_distance_wrap(170.0, -170.0, -180.0, 180.0), 20.0, 1e-9);
    ck_assert_double_eq_tol(ns_distance_wrap(10.0, 730.0, 0.0, 360.0), 0.0, 1e-9);
    ck_assert_double_eq(ns_distance_wrap(1.0, 4.0, 0.0, 0.0), 3.0);
    const float a[3] = {1, 2, 3}, b[3] = {4, 6, 3};
    ck_assert_float_eq_tol(ns_distance_vec(a, b, 3), 5.0f, 1e-6f);
    ns_quat q = {0, 0, 0, 1}, r = {0, 0, sinf(0.5f), cosf(0.5f)}, minus_r = {0, 0, -sinf(0.5f), -cosf(0.5f)};
    ck_assert_float_eq_tol(ns_quat_angle(q, r), 1.0f, 1e-5f);
    ck_assert_float_eq_tol(ns_quat_angle(q, minus_r), 1.0f, 1e-5f); /* -r is the same rotation */
}
END_TEST

/* One number per field the owner receives, in the order of the names table; the stats keep the
 * mean and the largest per field. */
START_TEST(prediction_errors_per_field)
{
    ck_assert_uint_eq(TELEPORT_BODY_PREDICTION_ERRORS, 6);
    ck_assert_str_eq(teleport_Body_prediction_error_names[1], "facing");
    ck_assert_str_eq(teleport_Body_prediction_error_names[5], "slide");
    teleport_Body p, a;
    teleport_Body_init(&p);
    teleport_Body_init(&a);
    p.position = (ns_vec3){3, 4, 0};
    a.facing.z = sinf(0.25f), a.facing.w = cosf(0.25f); /* half an angle of 0.5 rad */
    p.height = -1.5f;
    p.cell = 7, a.cell = -3;
    p.yaw = 3.0f, a.yaw = -3.0f;
    float e[TELEPORT_BODY_PREDICTION_ERRORS];
    teleport_Body_prediction_error(&p, &a, e);
    ck_assert_float_eq_tol(e[0], 5.0f, 1e-6f);
    ck_assert_float_eq_tol(e[1], 0.5f, 1e-5f);
    ck_assert_float_eq_tol(e[2], 1.5f, 1e-6f);
    ck_assert_float_eq(e[3], 10.0f);
    ck_assert_float_eq_tol(e[4], 0.28319f, 1e-4f); /* the short way round pi */
    ck_assert_float_eq(e[5], 0.0f);

    ns_error_stats st;
    ck_assert_int_eq(ns_error_stats_init(&st, teleport_Body_prediction_error_names, 0), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_error_stats_init(&st, teleport_Body_prediction_error_names, TELEPORT_BODY_PREDICTION_ERRORS), NS_OK);
    ns_error_stats_add(&st, e);
    p.position = (ns_vec3){1, 0, 0};
    teleport_Body_prediction_error(&p, &a, e);
    e[2] = NAN; /* skipped */
    ns_error_stats_add(&st, e);
    ck_assert_double_eq_tol(ns_error_stats_mean(&st, 0), 3.0, 1e-6);
    ck_assert_float_eq_tol(st.max[0], 5.0f, 1e-6f);
    ck_assert_uint_eq(st.samples[2], 1);
    ck_assert_double_eq_tol(ns_error_stats_mean(&st, 2), 1.5, 1e-6);
    char buf[1024] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    ns_error_stats_print(&st, "errors", f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "  position                      2            3            5\n"));
    ns_error_stats_reset(&st);
    ck_assert_double_eq(ns_error_stats_mean(&st, 0), 0.0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("teleport");
    TCase *tc = tcase_create("interpolate");
    tcase_add_test(tc, short_moves_slide);
    tcase_add_test(tc, error_smoothing_glides_short_corrections_and_snaps_long_ones);
    tcase_add_test(tc, long_moves_jump_at_t_1);
    tcase_add_test(tc, distances);
    tcase_add_test(tc, prediction_errors_per_field);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
