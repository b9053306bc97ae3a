/* netschema/predict.h — the baseline predictor (Unity's GhostDeltaPredictor, research §1.4).
 *
 * With three acked baselines at ticks t0 > t1 > t2 holding values v0, v1, v2, the reference for
 * the value at tick_now is the linear extrapolation v0 + (v0 − v1)·applyFrac/16, used only when
 * v0 sits close enough to where v1 and v2 said it would be; otherwise the reference is v0.
 * Fractions are 1/16 fixed point with truncating division, exactly as Unity computes them.
 * Everything is computed in 64-bit with overflow checks: an input whose prediction cannot be
 * represented predicts v0, so no input is undefined behaviour. Writer and reader must compute
 * the same ns_predictor from the same ticks. */
#ifndef NETSCHEMA_PREDICT_H
#define NETSCHEMA_PREDICT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tick fractions of one set of baselines, computed once per entity. */
typedef struct ns_predictor {
    int64_t predict_frac; /* 16 · (t0 − t1) / (t1 − t2) */
    int64_t apply_frac;   /* 16 · (now − t0) / (t0 − t1) */
    bool    valid;        /* false when the ticks are not strictly ordered: predict v0 */
    bool    small;        /* both fractions <= 2^30: 32-bit values cannot overflow int64 */
} ns_predictor;

/* Prepares the predictor for baselines at ticks t0 > t1 > t2 and the tick being written (tick
 * differences wrap, so a wrapped tick counter works; a difference of 2^31 or more is invalid). */
void ns_predictor_init(ns_predictor *p, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t tick_now);

/* The predicted reference for a 64-bit field from its three baseline values. */
int64_t ns_predict_i64(const ns_predictor *p, int64_t v0, int64_t v1, int64_t v2);

/* The common case inline: 32-bit values and fractions up to 2^30 keep every product below 2^62,
 * so no overflow check is needed; the result equals ns_predict_i64's. */
static inline int64_t ns__predict_small(const ns_predictor *p, int64_t v0, int64_t v1, int64_t v2)
{
    int64_t expected = v1 + (v1 - v2) * p->predict_frac / 16;
    int64_t step = v0 - v1;
    uint64_t miss = expected > v0 ? (uint64_t)(expected - v0) : (uint64_t)(v0 - expected);
    uint64_t len = step < 0 ? (uint64_t)-step : (uint64_t)step;
    if (miss >= len) return v0;
    return v0 + step * p->apply_frac / 16;
}

/* The predicted reference for a 32-bit field; a prediction outside int32 gives v0. */
static inline int32_t ns_predict_i32(const ns_predictor *p, int32_t v0, int32_t v1, int32_t v2)
{
    int64_t out = p->small ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    return out < INT32_MIN || out > INT32_MAX ? v0 : (int32_t)out;
}

/* The predicted reference for an unsigned 32-bit field; a prediction outside uint32 gives v0. */
static inline uint32_t ns_predict_u32(const ns_predictor *p, uint32_t v0, uint32_t v1, uint32_t v2)
{
    int64_t out = p->small ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    return out < 0 || out > (int64_t)UINT32_MAX ? v0 : (uint32_t)out;
}

/* The predicted reference for an unsigned 64-bit field (values above INT64_MAX predict v0). */
uint64_t ns_predict_u64(const ns_predictor *p, uint64_t v0, uint64_t v1, uint64_t v2);

#ifdef __cplusplus
}
#endif
#endif
