/* netschema/quant.h — float quantization and smallest-three quaternions (docs/wire.md section 5,
 * docs/runtime.md "Quantization").
 *
 * Rounding rule, the same on both ends: q = round(v · Q) computed in double, halfway cases
 * rounded away from zero (0.5 → 1, −0.5 → −1, 2.5 → 3), independent of the FPU rounding mode.
 * NaN quantizes to 0 (then clamped into the range); ±Inf and values beyond the range or beyond
 * int32 saturate. No float input is undefined behaviour. Dequantize is q · (1/Q). */
#ifndef NETSCHEMA_QUANT_H
#define NETSCHEMA_QUANT_H

#include <math.h>
#include <stdint.h>

#include "bits.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rounds x half away from zero and saturates it to [lo, hi]; NaN gives 0 clamped to the range.
 * Branch-free (selects the compiler makes min/max instructions): quantized input is data the
 * branch predictor cannot learn. Clamping first is exact: x < hi with hi an integer rounds to
 * at most hi, and |x| < 2^31 makes the truncating conversion exact and defined. */
static inline int32_t ns_round_clamp(double x, int32_t lo, int32_t hi)
{
    x = x == x ? x : 0.0; /* NaN */
    x = x < (double)lo ? (double)lo : x;
    x = x > (double)hi ? (double)hi : x;
    const int64_t t = (int64_t)x;
    const double frac = x - (double)t;
    return (int32_t)(t + (int64_t)(frac >= 0.5) - (int64_t)(frac <= -0.5));
}

/* q = round(v · scale), saturated to int32. */
static inline int32_t ns_quantize_f64(double v, double scale)
{
    return ns_round_clamp(v * scale, INT32_MIN, INT32_MAX);
}

/* q = round(v · scale), saturated to int32; the product is taken in double. */
static inline int32_t ns_quantize_f32(float v, double scale)
{
    return ns_round_clamp((double)v * scale, INT32_MIN, INT32_MAX);
}

/* q = round(v · scale), saturated to [lo, hi] (the quantized range of a @range field). */
static inline int32_t ns_quantize_range(double v, double scale, int32_t lo, int32_t hi)
{
    return ns_round_clamp(v * scale, lo, hi);
}

/* v = q · inv_scale, where inv_scale = 1/Q computed once by the caller. */
static inline float ns_dequantize_f32(int32_t q, float inv_scale)
{
    return (float)q * inv_scale;
}

/* v = q · inv_scale in double. */
static inline double ns_dequantize_f64(int32_t q, double inv_scale)
{
    return (double)q * inv_scale;
}

/* ---- quaternions ------------------------------------------------------------------------ */

/* q scaled to unit length; a zero, tiny or non-finite q becomes the identity. Inline, because
 * every quantized quaternion goes through it; computed in double, so that the result (and so the
 * quantized value) is the same on every platform and for every caller. */
static inline ns_quat ns_quat_normalize(ns_quat q)
{
    const double len2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    if (NS__UNLIKELY(!(len2 > 1e-20) || !isfinite(len2))) {
        const ns_quat id = {0.0f, 0.0f, 0.0f, 1.0f};
        return id;
    }
    const double inv = 1.0 / sqrt(len2);
    const ns_quat r = {(float)(q.x * inv), (float)(q.y * inv), (float)(q.z * inv), (float)(q.w * inv)};
    return r;
}

/* Bits of a smallest-three encoding: 2 for the largest component's index + 3 · bits. */
#define NS_SMALLEST3_BITS(bits) (2u + 3u * (unsigned)(bits))
#define NS_SMALLEST3_MIN_BITS 2u
#define NS_SMALLEST3_MAX_BITS 18u

/* Packs q (normalized first) as smallest-three with bits (2..18) per component: the index of the
 * largest component in the low 2 bits, then the other three in x, y, z, w order. Each maps
 * [−1/√2, 1/√2] onto the integers −k..k, k = 2^(bits−1) − 1, stored as i + k, so 0 is exact
 * (the identity round-trips exactly); the quantum is (1/√2)/k. The sign is chosen so the largest
 * component is positive. */
uint64_t ns_smallest3_pack(ns_quat q, unsigned bits);

/* Unpacks a smallest-three code; the result is a unit quaternion for any input bits. */
ns_quat ns_smallest3_unpack(uint64_t packed, unsigned bits);

/* Writes q as smallest-three (NS_SMALLEST3_BITS(bits) bits). */
void ns_write_smallest3(ns_writer *w, ns_quat q, unsigned bits);

/* Reads a quaternion written by ns_write_smallest3. */
ns_quat ns_read_smallest3(ns_reader *r, unsigned bits);

#ifdef __cplusplus
}
#endif
#endif
