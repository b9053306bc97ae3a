/* netschema/interp.h — what generated _interpolate functions use between two snapshots
 * (DESIGN §7, @smooth):
 *   clamp        `from` while t < 1, `to` from t >= 1;
 *   interpolate  lerp with t clamped to [0, 1]; quaternions take the shortest arc, normalized;
 *   extrapolate  like interpolate, but t may run past 1 up to 1 + NS_EXTRAPOLATE_LIMIT, so a
 *                client keeps moving an entity along its last motion while the next snapshot
 *                is late. The limit is in units of the snapshot interval: the default 1.0
 *                allows one interval of extrapolation; define NS_EXTRAPOLATE_LIMIT when
 *                compiling the generated sources to change it (0 turns extrapolation off). */
#ifndef NETSCHEMA_INTERP_H
#define NETSCHEMA_INTERP_H

#include <math.h>
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

/* Integer lerp, rounded half away from zero and saturated to [lo, hi]. */
static inline int64_t ns_lerp_int(int64_t a, int64_t b, float t, int64_t lo, int64_t hi)
{
    double v = (double)a + ((double)b - (double)a) * (double)t;
    v = v < 0 ? v - 0.5 : v + 0.5;
    if (!(v > (double)lo)) return lo;   /* also NaN */
    if (v >= (double)hi) return hi;
    return (int64_t)v;
}

/* Spherical interpolation along the shortest arc (b is flipped when a·b < 0); the result is
 * normalized. Extrapolation (t > 1) continues along the same great circle. */
ns_quat ns_quat_slerp(ns_quat a, ns_quat b, float t);

#ifdef __cplusplus
}
#endif
#endif
