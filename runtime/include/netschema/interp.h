/* netschema/interp.h — what generated _interpolate functions use between two snapshots
 * (@smooth in idl/SPEC.md section 6):
 *   clamp        `from` while t < 1, `to` from t >= 1;
 *   interpolate  lerp with t clamped to [0, 1]; quaternions take the shortest arc, normalized;
 *   extrapolate  like interpolate, but t may run past 1 up to 1 + NS_EXTRAPOLATE_LIMIT, so a
 *                client keeps moving an entity along its last motion while the next snapshot
 *                is late. The limit is in units of the snapshot interval: the default 1.0
 *                allows one interval of extrapolation; define NS_EXTRAPOLATE_LIMIT when
 *                compiling the generated sources to change it (0 turns extrapolation off).
 * With `wrap` (`@smooth(interpolate, wrap)`), the field's @range [lo, hi] is one turn (lo and
 * hi name the same angle: -pi and pi, -180 and 180, 0 and 360): the value goes the short way
 * round and comes back wrapped into [lo, hi).
 * With `max_distance = D` (`@smooth(interpolate, max_distance = 5)`), a field that moved more
 * than D between the two snapshots is a teleport and jumps as a clamped one does. Distances are
 * those of the ns_distance functions below: also what a prediction error measures. */
#ifndef NETSCHEMA_INTERP_H
#define NETSCHEMA_INTERP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NS_EXTRAPOLATE_LIMIT
#define NS_EXTRAPOLATE_LIMIT 1.0f
#endif

/* t for interpolated fields: clamped to [0, 1]; NaN counts as 0. */
static inline float ns_t_interpolate(float t)
{
    return t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
}

/* t for extrapolated fields: clamped to [0, 1 + NS_EXTRAPOLATE_LIMIT]. */
static inline float ns_t_extrapolate(float t)
{
    float hi = 1.0f + NS_EXTRAPOLATE_LIMIT;
    return t > 0.0f ? (t < hi ? t : hi) : 0.0f;
}

static inline float ns_lerp_f32(float a, float b, float t)
{
    return a + (b - a) * t;
}

static inline double ns_lerp_f64(double a, double b, float t)
{
    return a + (b - a) * (double)t;
}

/* a moved n steps up (or down), saturating at the int64 limits. */
static inline int64_t ns__step_int(int64_t a, uint64_t n, bool up)
{
    if (up) return n > (uint64_t)INT64_MAX - (uint64_t)a ? INT64_MAX : (int64_t)((uint64_t)a + n);
    return n > (uint64_t)a - (uint64_t)INT64_MIN ? INT64_MIN : (int64_t)((uint64_t)a - n);
}

/* Integer lerp a + (b - a)·t, rounded half away from zero and saturated to [lo, hi]. Exact at
 * t = 0 and t = 1, and whenever |b - a|·|t| < 2^53: the difference is taken exactly in 64 bits
 * and only the step from a goes through a double. NaN t gives lo. */
static inline int64_t ns_lerp_int(int64_t a, int64_t b, float t, int64_t lo, int64_t hi)
{
    int64_t v;
    if (t != t) return lo;
    if (t == 0.0f) {
        v = a;
    } else if (t == 1.0f) {
        v = b;
    } else {
        uint64_t span = b >= a ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
        bool up = (b >= a) == (t > 0.0f);
        double f = (double)span * (double)(t < 0.0f ? -t : t); /* the step, not yet rounded */
        if (f >= 18446744073709551616.0) {
            v = up ? INT64_MAX : INT64_MIN;
        } else {
            uint64_t k = (uint64_t)f;      /* whole steps */
            double r = f - (double)k;      /* and the fraction left, in the same direction */
            v = ns__step_int(a, k, up);
            /* Half a step: round away from zero, i.e. on towards the side of the value's sign. */
            bool further = r > 0.5 || (r == 0.5 && (v > 0 || (v == 0 && up)) == up);
            if (further) v = ns__step_int(v, 1, up);
        }
    }
    return v < lo ? lo : v > hi ? hi : v;
}

/* lerp of a value that wraps, [lo, hi) being one turn of period hi - lo: from a towards b the
 * short way round (half a turn goes up), the result wrapped back into [lo, hi). NaN in gives NaN. */
float ns_lerp_wrap_f32(float a, float b, float t, float lo, float hi);
double ns_lerp_wrap_f64(double a, double b, float t, double lo, double hi);

/* The same for integers (hi - lo at most 2^32): rounded as ns_lerp_int, then wrapped. */
int64_t ns_lerp_wrap_int(int64_t a, int64_t b, float t, int64_t lo, int64_t hi);

/* Distances: |b − a|; the same the short way round a turn [lo, hi) (|b − a| if hi <= lo); the
 * Euclidean distance of two n-vectors; the angle of the rotation from a to b, in radians
 * (0 to pi; q and −q are the same rotation). */
static inline double ns_distance(double a, double b)
{
    return a < b ? b - a : a - b;
}
double ns_distance_wrap(double a, double b, double lo, double hi);
float ns_distance_vec(const float *a, const float *b, unsigned n);
float ns_quat_angle(ns_quat a, ns_quat b);

/* ns_distance_vec of the vector types. */
static inline float ns_vec2_distance(ns_vec2 a, ns_vec2 b)
{
    const float x[2] = {a.x, a.y}, y[2] = {b.x, b.y};
    return ns_distance_vec(x, y, 2);
}
static inline float ns_vec3_distance(ns_vec3 a, ns_vec3 b)
{
    const float x[3] = {a.x, a.y, a.z}, y[3] = {b.x, b.y, b.z};
    return ns_distance_vec(x, y, 3);
}
static inline float ns_vec4_distance(ns_vec4 a, ns_vec4 b)
{
    const float x[4] = {a.x, a.y, a.z, a.w}, y[4] = {b.x, b.y, b.z, b.w};
    return ns_distance_vec(x, y, 4);
}

/* Spherical interpolation along the shortest arc (b is flipped when a·b < 0); the result is
 * normalized. Extrapolation (t > 1) continues along the same great circle. */
ns_quat ns_quat_slerp(ns_quat a, ns_quat b, float t);

#ifdef __cplusplus
}
#endif
#endif
