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

/* Rounds x half away from zero and saturates it to [lo, hi]; NaN gives 0 clamped to the range. */
static inline int32_t ns_round_clamp(double x, int32_t lo, int32_t hi)
{
    if (isnan(x)) x = 0.0;
    if (x <= (double)lo) return lo;
    if (x >= (double)hi) return hi;
    /* |x| < 2^31 here, so the truncating conversion is exact and defined. */
    int64_t t = (int64_t)x;
    double frac = x - (double)t;
    if (frac >= 0.5) t++;
    else if (frac <= -0.5) t--;
    return (int32_t)(t < lo ? lo : t > hi ? hi : t);
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

/* q scaled to unit length; a zero, tiny or non-finite q becomes the identity. */
ns_quat ns_quat_normalize(ns_quat q);

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
