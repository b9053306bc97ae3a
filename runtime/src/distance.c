/* distance.c — how far a value moved: what @smooth(..., max_distance = D) compares with D to
 * tell a teleport from motion, and what a prediction error reports (netschema/interp.h). */
#include "netschema/interp.h"

#include <math.h>

double ns_distance_wrap(double a, double b, double lo, double hi)
{
    double period = hi - lo, d = fabs(b - a);
    if (!(period > 0.0)) return d;
    d = fmod(d, period); /* whole turns do not count */
    return d > period / 2 ? period - d : d;
}

float ns_distance_vec(const float *a, const float *b, unsigned n)
{
    double sum = 0.0;
    for (unsigned i = 0; i < n; i++) {
        double d = (double)b[i] - (double)a[i];
        sum += d * d;
    }
    return (float)sqrt(sum);
}

float ns_quat_angle(ns_quat a, ns_quat b)
{
    double na = (double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z + (double)a.w * a.w;
    double nb = (double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z + (double)b.w * b.w;
    if (!(na > 0.0) || !(nb > 0.0)) return 0.0f;
    double dot = ((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w) / sqrt(na * nb);
    dot = fabs(dot); /* q and -q: the shorter of the two arcs */
    if (dot > 1.0) dot = 1.0;
    return (float)(2.0 * acos(dot));
}
