/* test_turn.c — the generated _interpolate of @smooth(..., wrap) fields, through quantize and
 * the snapshot form: angles go the short way round, plain @smooth(interpolate) does not. */
#include <math.h>

#include "ns_test.h"
#include "turn.ns.h"

static turn_Heading_snap snap_of(float yaw, int16_t compass, double course)
{
    turn_Heading h;
    turn_Heading_init(&h);
    h.yaw = yaw, h.plain = yaw, h.compass = compass, h.course = course;
    turn_Heading_snap s;
    turn_Heading_quantize(&h, &s);
    return s;
}

START_TEST(angles_take_the_short_way_round)
{
    turn_Heading_snap a = snap_of(3.10f, 359, 350.0), b = snap_of(-3.10f, 1, 10.0);
    turn_Heading out;
    turn_Heading_interpolate(&a, &b, 0.5f, &out);
    ck_assert(fabsf(fabsf(out.yaw) - 3.14159265f) < 2e-3f); /* through pi ... */
    ck_assert(fabsf(out.plain) < 2e-3f);                    /* ... where plain lerp goes through 0 */
    ck_assert_int_eq(out.compass, 0);
    ck_assert(fabs(out.course) < 1e-6 || fabs(out.course - 360.0) < 1e-6);
    turn_Heading_interpolate(&a, &b, 0.25f, &out);
    ck_assert(fabsf(out.yaw - 3.1208f) < 2e-3f);
    ck_assert(fabs(out.course - 355.0) < 1e-6);
    /* extrapolated past b, course keeps turning and wraps into [0, 360) */
    turn_Heading_interpolate(&a, &b, 1.5f, &out);
    ck_assert(fabs(out.course - 20.0) < 1e-6);
    /* at the ends, exactly the snapshots' values */
    turn_Heading_interpolate(&a, &b, 1.0f, &out);
    ck_assert_int_eq(out.compass, 1);
    ck_assert(fabsf(out.yaw + 3.10f) < 1e-3f);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("turn");
    TCase *tc = tcase_create("interpolate");
    tcase_add_test(tc, angles_take_the_short_way_round);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
