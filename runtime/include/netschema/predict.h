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

#include "platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Declares a generated function that runs rarely (the reference's path for uneven ticks): file
 * local, never inlined and laid out away from the hot code, so that the callers stay small. */
#if defined(__GNUC__) || defined(__clang__)
#  define NS__COLD static __attribute__((noinline, cold))
#else
#  define NS__COLD static
#endif

/* The tick fractions of one set of baselines, computed once per entity. */
typedef struct ns_predictor {
    int64_t predict_frac; /* 16 · (t0 − t1) / (t1 − t2) */
    int64_t apply_frac;   /* 16 · (now − t0) / (t0 − t1) */
    bool    valid;        /* false when the ticks are not strictly ordered: predict v0 */
    bool    small;        /* both fractions <= 2^30: 32-bit values cannot overflow int64. Also
                             true when invalid, whose fractions 0 and 0 make the formula give v0 */
} ns_predictor;

/* ns_predictor_init for ticks that are not evenly spaced: the two divisions. */
void ns__predictor_init_slow(ns_predictor *p, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t tick_now);

/* True if ticks t0 > t1 > t2 and tick_now are evenly spaced, by less than 2^31: the usual case,
 * for which ns_predictor_init needs no division and ns_predictor_unit is true. */
static inline bool ns_ticks_unit(uint32_t t0, uint32_t t1, uint32_t t2, uint32_t tick_now)
{
    const uint32_t d01 = t0 - t1;
    return d01 == t1 - t2 && d01 == tick_now - t0 && d01 - 1u < 0x7fffffffu;
}

/* Prepares the predictor for baselines at ticks t0 > t1 > t2 and the tick being written (tick
 * differences wrap, so a wrapped tick counter works; a difference of 2^31 or more is invalid).
 * Evenly spaced ticks, the usual case, need no division: both fractions are 16 · d / d = 16. */
static inline void ns_predictor_init(ns_predictor *p, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t tick_now)
{
    if (NS__LIKELY(ns_ticks_unit(t0, t1, t2, tick_now))) {
        p->predict_frac = p->apply_frac = 16;
        p->valid = p->small = true;
    } else {
        ns__predictor_init_slow(p, t0, t1, t2, tick_now);
    }
}

/* The predicted reference for a 64-bit field from its three baseline values. */
int64_t ns_predict_i64(const ns_predictor *p, int64_t v0, int64_t v1, int64_t v2);

/* The common case inline: 32-bit values and fractions up to 2^30 keep every product below 2^62,
 * so no overflow check is needed; the result equals ns_predict_i64's. Both candidates are
 * computed and one is selected, so the compiler can use conditional moves: whether an entity
 * moves linearly is data the branch predictor cannot learn. */
static inline int64_t ns__predict_small(const ns_predictor *p, int64_t v0, int64_t v1, int64_t v2)
{
    const int64_t expected = v1 + (v1 - v2) * p->predict_frac / 16;
    const int64_t step = v0 - v1;
    const int64_t miss = expected > v0 ? expected - v0 : v0 - expected;
    const int64_t len = step < 0 ? -step : step;
    /* A mask, not `?:`, as in ns_predict_unit_i32_in below. */
    return v0 + ((step * p->apply_frac / 16) & -(int64_t)(miss < len));
}

/* The predicted reference for a 32-bit field; a prediction outside int32 gives v0. */
static inline int32_t ns_predict_i32(const ns_predictor *p, int32_t v0, int32_t v1, int32_t v2)
{
    const int64_t out = NS__LIKELY(p->small) ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    return out < INT32_MIN || out > INT32_MAX ? v0 : (int32_t)out;
}

/* The predicted reference for an unsigned 32-bit field; a prediction outside uint32 gives v0. */
static inline uint32_t ns_predict_u32(const ns_predictor *p, uint32_t v0, uint32_t v1, uint32_t v2)
{
    const int64_t out = NS__LIKELY(p->small) ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    return out < 0 || out > (int64_t)UINT32_MAX ? v0 : (uint32_t)out;
}

/* ns_predict_i32 limited to [lo, hi] (a ranged field's reference), in one step so that the
 * selects stay branch-free: what generated code calls for each predicted 32-bit slot. */
static inline int32_t ns_predict_i32_in(const ns_predictor *p, int32_t v0, int32_t v1, int32_t v2, int32_t lo, int32_t hi)
{
    int64_t out = NS__LIKELY(p->small) ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    out = out < INT32_MIN || out > INT32_MAX ? v0 : out;
    out = out < lo ? lo : out;
    return (int32_t)(out > hi ? hi : out);
}

/* True for evenly spaced ticks: both fractions 16, so the prediction is v0 + (v0 − v1) when v0
 * is within one step of 2·v1 − v2 (and v0 otherwise), with no multiply or division. */
static inline bool ns_predictor_unit(const ns_predictor *p)
{
    return p->predict_frac == 16 && p->apply_frac == 16;
}

/* 1 if v lies outside [−2^29, 2^29), where ns_predict_unit_i32_in cannot take it: an unsigned
 * 0 or 1, so that the tests of many values can be OR-ed without a branch. */
static inline uint32_t ns_predict_wide(int32_t v)
{
    return ((uint32_t)v + 0x20000000u) >> 30;
}

/* ns_predict_i32_in for a predictor with ns_predictor_unit() and v0, v1, v2 in [−2^29, 2^29):
 * then no step can overflow int32 (|2·v1 − v2 − v0| < 2^31, |2·v0 − v1| < 2^31), so it needs no
 * multiply, no division and no 64-bit arithmetic, and a loop of it over a component's slots
 * becomes vector code. The result is ns_predict_i32_in's. */
static inline int32_t ns_predict_unit_i32_in(int32_t v0, int32_t v1, int32_t v2, int32_t lo, int32_t hi)
{
    const int32_t step = v0 - v1;
    const int32_t off = (v1 - v2) - step; /* expected − v0 */
    const int32_t miss = off < 0 ? -off : off;
    const int32_t len = step < 0 ? -step : step;
    /* A mask, not `?:`: compilers make a branch of that select, and whether an entity moves
     * linearly is data the branch predictor cannot learn. */
    int32_t out = v0 + (step & -(int32_t)(miss < len));
    out = out < lo ? lo : out;
    return out > hi ? hi : out;
}

/* ns_predict_i32_in for n int32 slots at once: out[i] from v0[i], v1[i], v2[i], limited to
 * [lo[i], hi[i]]. Out of line: generated references call it only for uneven ticks or values
 * too large for ns_predict_unit_i32_in, which are rare, so no component carries its own copy. */
void ns_predict_i32_slots(const ns_predictor *p, const int32_t *v0, const int32_t *v1, const int32_t *v2,
                          const int32_t *lo, const int32_t *hi, int32_t *out, unsigned n);

/* ns_predict_u32 limited to [lo, hi]. */
static inline uint32_t ns_predict_u32_in(const ns_predictor *p, uint32_t v0, uint32_t v1, uint32_t v2, uint32_t lo, uint32_t hi)
{
    int64_t out = NS__LIKELY(p->small) ? ns__predict_small(p, v0, v1, v2) : ns_predict_i64(p, v0, v1, v2);
    out = out < 0 || out > (int64_t)UINT32_MAX ? v0 : out;
    out = out < (int64_t)lo ? (int64_t)lo : out;
    return (uint32_t)(out > (int64_t)hi ? (int64_t)hi : out);
}

/* The predicted reference for an unsigned 64-bit field (values above INT64_MAX predict v0). */
uint64_t ns_predict_u64(const ns_predictor *p, uint64_t v0, uint64_t v1, uint64_t v2);

#ifdef __cplusplus
}
#endif
#endif
