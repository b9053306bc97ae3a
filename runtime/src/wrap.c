/* wrap.c — interpolation of values that wrap around, such as angles (@smooth(..., wrap)):
 * the short way round a turn of [lo, hi), so 3.10 to -3.10 rad passes through pi, not 0. */
#include "netschema/interp.h"

#include <math.h>

/* d moved by whole turns into (-period/2, period/2]: half a turn goes up. */
static double shortest(double d, double period)
{
    return d - period * ceil(d / period - 0.5);
}

/* v moved by whole turns into [lo, lo + period). */
static double into_turn(double v, double lo, double period)
{
    double w = v - period * floor((v - lo) / period);
    return w >= lo + period ? lo : w; /* rounding can land exactly on the upper end; NaN stays */
}

double ns_lerp_wrap_f64(double a, double b, float t, double lo, double hi)
{
    double period = hi - lo;
    if (!(period > 0.0)) return ns_lerp_f64(a, b, t);
    return into_turn(a + shortest(b - a, period) * (double)t, lo, period);
}

float ns_lerp_wrap_f32(float a, float b, float t, float lo, float hi)
{
    return (float)ns_lerp_wrap_f64(a, b, t, lo, hi);
}

int64_t ns_lerp_wrap_int(int64_t a, int64_t b, float t, int64_t lo, int64_t hi)
{
    if (hi <= lo || (uint64_t)hi - (uint64_t)lo > 0x100000000u) return ns_lerp_int(a, b, t, lo, hi);
    a = a < lo ? lo : a > hi ? hi : a; /* snapshots hold values in range; this keeps all below exact */
    b = b < lo ? lo : b > hi ? hi : b;
    int64_t period = (int64_t)((uint64_t)hi - (uint64_t)lo), d = b - a;
    if (2 * d > period) d -= period; /* into (-period/2, period/2]: half a turn goes up */
    else if (2 * d <= -period) d += period;
    int64_t step = ns_lerp_int(0, d, t, -(INT64_C(1) << 40), INT64_C(1) << 40);
    int64_t r = (a - lo + step) % period;
    return lo + (r < 0 ? r + period : r);
}
