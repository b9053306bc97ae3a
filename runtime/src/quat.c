/* quat.c — smallest-three packing and slerp of quaternions (normalization is inline, in quant.h). */
#include "netschema/interp.h"
#include "netschema/quant.h"

#include <math.h>

#define NS_INV_SQRT2 0.70710678118654752440

static unsigned clamp_bits(unsigned bits)
{
    return bits < NS_SMALLEST3_MIN_BITS ? NS_SMALLEST3_MIN_BITS
         : bits > NS_SMALLEST3_MAX_BITS ? NS_SMALLEST3_MAX_BITS : bits;
}

/* Picks, for the three small components, between rounding each down or up (8 choices) the one
 * whose decoded quaternion is closest to c in its worst component. Plain rounding keeps each
 * small component within half a quantum but lets the rebuilt largest component drift by up to
 * 1.5 quanta; searching the neighbours keeps every component within one quantum. */
static void choose_codes(const double c[4], unsigned largest, double scale, int32_t k, int32_t out[3])
{
    double small[3], lo[3];
    for (unsigned i = 0, j = 0; i < 4; i++)
        if (i != largest) small[j++] = c[i];
    for (unsigned j = 0; j < 3; j++) {
        double x = small[j] * scale;
        lo[j] = floor(x);
        if (lo[j] < -k) lo[j] = -k;
        if (lo[j] > k - 1) lo[j] = k - 1;
    }
    double best = INFINITY;
    for (unsigned pick = 0; pick < 8; pick++) {
        double sum = 0, err = 0, v[3];
        for (unsigned j = 0; j < 3; j++) {
            v[j] = lo[j] + ((pick >> j) & 1u);
            double back = v[j] / scale;
            sum += back * back;
            err = fmax(err, fabs(back - small[j]));
        }
        err = fmax(err, fabs((sum < 1.0 ? sqrt(1.0 - sum) : 0.0) - c[largest]));
        if (err < best) {
            best = err;
            for (unsigned j = 0; j < 3; j++) out[j] = (int32_t)v[j];
        }
    }
}

uint64_t ns_smallest3_pack(ns_quat q, unsigned bits)
{
    bits = clamp_bits(bits);
    q = ns_quat_normalize(q);
    double c[4] = {q.x, q.y, q.z, q.w};
    unsigned largest = 0;
    for (unsigned i = 1; i < 4; i++)
        if (fabs(c[i]) > fabs(c[largest])) largest = i;
    if (c[largest] < 0)
        for (unsigned i = 0; i < 4; i++) c[i] = -c[i];
    int32_t k = (int32_t)((1u << (bits - 1)) - 1u);
    int32_t codes[3];
    choose_codes(c, largest, (double)k / NS_INV_SQRT2, k, codes);
    uint64_t packed = largest;
    for (unsigned j = 0; j < 3; j++) packed |= (uint64_t)(uint32_t)(codes[j] + k) << (2 + j * bits);
    return packed;
}

ns_quat ns_smallest3_unpack(uint64_t packed, unsigned bits)
{
    bits = clamp_bits(bits);
    unsigned largest = (unsigned)(packed & 3u);
    int32_t k = (int32_t)((1u << (bits - 1)) - 1u);
    double inv_scale = NS_INV_SQRT2 / (double)k;
    double c[4], sum = 0.0;
    unsigned shift = 2;
    for (unsigned i = 0; i < 4; i++) {
        if (i == largest) continue;
        int32_t v = (int32_t)((packed >> shift) & ns__mask64(bits)) - k;
        if (v > k) v = k; /* the one unused code */
        c[i] = v * inv_scale;
        sum += c[i] * c[i];
        shift += bits;
    }
    c[largest] = sum < 1.0 ? sqrt(1.0 - sum) : 0.0;
    ns_quat r = {(float)c[0], (float)c[1], (float)c[2], (float)c[3]};
    return ns_quat_normalize(r);
}

void ns_write_smallest3(ns_writer *w, ns_quat q, unsigned bits)
{
    ns__writer_put(w, ns_smallest3_pack(q, bits), NS_SMALLEST3_BITS(clamp_bits(bits)));
}

ns_quat ns_read_smallest3(ns_reader *r, unsigned bits)
{
    bits = clamp_bits(bits);
    unsigned total = NS_SMALLEST3_BITS(bits);
    uint64_t packed = total > 32 ? ns_read_bits(r, 32) | ((uint64_t)ns_read_bits(r, total - 32) << 32)
                                 : ns_read_bits(r, total);
    return ns_smallest3_unpack(packed, bits);
}

ns_quat ns_quat_slerp(ns_quat a, ns_quat b, float t)
{
    double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = b.x, by = b.y, bz = b.z, bw = b.w;
    double dot = ax * bx + ay * by + az * bz + aw * bw;
    if (dot < 0) {
        dot = -dot;
        bx = -bx, by = -by, bz = -bz, bw = -bw;
    }
    double wa, wb;
    if (dot > 0.9995) {
        /* Nearly the same rotation: a normalized lerp is exact enough and stable. */
        wa = 1.0 - t;
        wb = t;
    } else {
        double theta = acos(dot > 1.0 ? 1.0 : dot), s = sin(theta);
        wa = sin((1.0 - t) * theta) / s;
        wb = sin(t * theta) / s;
    }
    ns_quat r = {(float)(wa * ax + wb * bx), (float)(wa * ay + wb * by), (float)(wa * az + wb * bz),
                 (float)(wa * aw + wb * bw)};
    return ns_quat_normalize(r);
}
