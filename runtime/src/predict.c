/* predict.c — Unity's GhostDeltaPredictor in overflow-checked 64-bit arithmetic. */
#include "netschema/predict.h"

void ns__predictor_init_slow(ns_predictor *p, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t tick_now)
{
    uint32_t d01 = t0 - t1, d12 = t1 - t2, dnow = tick_now - t0;
    p->valid = d01 != 0 && d12 != 0 && d01 < 0x80000000u && d12 < 0x80000000u &&
               dnow < 0x80000000u;
    p->predict_frac = p->valid ? (int64_t)(16u * (uint64_t)d01 / d12) : 0;
    p->apply_frac = p->valid ? (int64_t)(16u * (uint64_t)dnow / d01) : 0;
    /* Invalid ticks count as small: fractions 0 and 0 make ns__predict_small give v0. */
    p->small = p->predict_frac <= (INT64_C(1) << 30) && p->apply_frac <= (INT64_C(1) << 30);
}

/* a − b, or false if it overflows. */
static bool sub_ok(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a < INT64_MIN + b) || (b < 0 && a > INT64_MAX + b)) return false;
    *out = a - b;
    return true;
}

static bool add_ok(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
    *out = a + b;
    return true;
}

/* d · frac / 16 with frac >= 0, or false if the product overflows. */
static bool scale_ok(int64_t d, int64_t frac, int64_t *out)
{
    if (frac != 0 && (d > INT64_MAX / frac || d < -(INT64_MAX / frac))) return false;
    *out = d * frac / 16;
    return true;
}

/* |a − b| as an unsigned magnitude, which cannot overflow. */
static uint64_t distance(int64_t a, int64_t b)
{
    return a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

int64_t ns_predict_i64(const ns_predictor *p, int64_t v0, int64_t v1, int64_t v2)
{
    int64_t d, step, expected, out;
    if (!p->valid) return v0;
    /* Where v0 would be if v2 → v1 had continued linearly. */
    if (!sub_ok(v1, v2, &d) || !scale_ok(d, p->predict_frac, &step) || !add_ok(v1, step, &expected))
        return v0;
    /* Not linear enough: v0 is further from the expectation than the last step was long. */
    if (distance(v0, expected) >= distance(v0, v1)) return v0;
    if (!sub_ok(v0, v1, &d) || !scale_ok(d, p->apply_frac, &step) || !add_ok(v0, step, &out))
        return v0;
    return out;
}

uint64_t ns_predict_u64(const ns_predictor *p, uint64_t v0, uint64_t v1, uint64_t v2)
{
    if (v0 > INT64_MAX || v1 > INT64_MAX || v2 > INT64_MAX) return v0;
    int64_t out = ns_predict_i64(p, (int64_t)v0, (int64_t)v1, (int64_t)v2);
    return out < 0 ? v0 : (uint64_t)out;
}

void ns_predict_i32_slots(const ns_predictor *p, const int32_t *v0, const int32_t *v1, const int32_t *v2,
                          const int32_t *lo, const int32_t *hi, int32_t *out, unsigned n)
{
    for (unsigned i = 0; i < n; i++) out[i] = ns_predict_i32_in(p, v0[i], v1[i], v2[i], lo[i], hi[i]);
}
