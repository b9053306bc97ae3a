/* netschema/prediction.h — client-side prediction: a ring of what the client predicted, the
 * rollback and re-simulation when the server disagrees, and prediction errors over time.
 *
 * The loop, per entity the client predicts (usually its own player):
 *   each tick t    apply input(t) to the state, then ns_prediction_record(p, t, input, state);
 *   server state   for tick s arrives: compare it with ns_prediction_state(p, s) (the generated
 *                  <C>_prediction_error tells by how much, per field). If they differ, call
 *                  ns_prediction_rollback: the state becomes the server's, and every input
 *                  after s is applied again through the caller's step function, recording the
 *                  new predictions. With a deterministic step this reproduces the server
 *                  exactly once it has applied the same inputs.
 * States and inputs are the caller's bytes (any fixed-size struct); the ring keeps `depth`
 * ticks of each, over caller-owned storage of NS_PREDICTION_BYTES. A correction older than the
 * ring fails with NS_ERR_STALE: the caller then takes the server's state as it is.
 * The generated <C>_backup / <C>_restore copy only a component's predicted fields (those its
 * owner receives), for a predicted state that also holds fields the client does not predict.
 *
 * A client that predicts its own entity learns, when the server's state for tick t arrives, how
 * far its prediction for t was off. The generated <C>_prediction_error(predicted, authoritative,
 * out) gives one number per field (a distance, an angle in radians for quaternions, 1 for a bool
 * or an enum that differs); an ns_error_stats gathers them per field: how many samples, the mean
 * and the largest. Feed it every comparison, print it when you want a report, reset it per
 * window. NaN entries are skipped (they say nothing about the size of an error). */
#ifndef NETSCHEMA_PREDICTION_H
#define NETSCHEMA_PREDICTION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "history.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the prediction ring ---- */

/* Storage for the ring: `depth` states and `depth` inputs, with their ticks. */
#define NS_PREDICTION_BYTES(state_size, input_size, depth) \
    (((NS_HISTORY_BYTES(state_size, depth) + 15u) & ~(size_t)15u) + NS_HISTORY_BYTES(input_size, depth))

typedef struct ns_prediction {
    ns_history states;    /* the state predicted at the end of each tick */
    ns_history inputs;    /* the input applied in each tick */
    size_t     state_size;
    uint32_t   newest;    /* the newest tick recorded (valid when `any`) */
    bool       any;
} ns_prediction;

/* Applies one tick: input to state, in place. Deterministic, or re-simulation will not match. */
typedef void (*ns_step_fn)(void *ctx, uint32_t tick, const void *input, void *state);

/* Sets p up over NS_PREDICTION_BYTES(...) bytes of storage (aligned as malloc's); depth 1 to
 * NS_HISTORY_MAX_DEPTH ticks; NS_ERR_ARGUMENT otherwise. */
ns_status ns_prediction_init(ns_prediction *p, void *storage, size_t state_size, size_t input_size, uint32_t depth);

/* Records tick t: the input applied in it and the state predicted at its end (copied). */
void ns_prediction_record(ns_prediction *p, uint32_t t, const void *input, const void *state);

/* What the client predicted for tick t, and the input it applied; NULL if no longer held. */
const void *ns_prediction_state(const ns_prediction *p, uint32_t t);
const void *ns_prediction_input(const ns_prediction *p, uint32_t t);

/* The server's state for tick t: `state` (the caller's live predicted state, state_size bytes)
 * becomes `authoritative`, then step() re-applies each recorded input after t up to the newest
 * tick, recording each new prediction; *steps (if not NULL) counts them. A t at or after the
 * newest tick just takes the server's state. NS_ERR_STALE, changing nothing, when an input
 * after t is no longer held (the correction is older than the ring). */
ns_status ns_prediction_rollback(ns_prediction *p, uint32_t t, const void *authoritative, void *state, ns_step_fn step,
                                 void *ctx, uint32_t *steps);

/* Copies the members first .. last of struct type T (declared in that order, so adjacent;
 * padding between them is copied too) from *src to *dst in one memcpy. The generated
 * <C>_backup and <C>_restore copy each run of adjacent predicted fields with it. */
#define NS_COPY_FIELDS(dst, src, T, first, last)                                          \
    memcpy((char *)(dst) + offsetof(T, first), (const char *)(src) + offsetof(T, first), \
           offsetof(T, last) + sizeof((src)->last) - offsetof(T, first))

/* ---- prediction errors over time ---- */

#define NS_ERROR_FIELDS_MAX 64u  /* fields per ns_error_stats */

typedef struct ns_error_stats {
    const char *const *names;            /* the generated <C>_prediction_error_names */
    uint32_t count;                      /* entries per sample: <PKG>_<C>_PREDICTION_ERRORS */
    uint64_t samples[NS_ERROR_FIELDS_MAX];
    double   sum[NS_ERROR_FIELDS_MAX];
    float    max[NS_ERROR_FIELDS_MAX];
} ns_error_stats;

/* Empties s for `count` fields named by names (kept, not copied); NS_ERR_ARGUMENT if count is 0
 * or above NS_ERROR_FIELDS_MAX, or names is NULL. */
ns_status ns_error_stats_init(ns_error_stats *s, const char *const *names, uint32_t count);

/* Forgets every sample, keeping the fields. */
void ns_error_stats_reset(ns_error_stats *s);

/* Adds one comparison: errors[0 .. count). */
void ns_error_stats_add(ns_error_stats *s, const float *errors);

/* The mean error of field i so far, 0 with no samples. */
double ns_error_stats_mean(const ns_error_stats *s, uint32_t i);

/* Prints one line per field: its name, samples, mean and max, after `title` (may be NULL). */
void ns_error_stats_print(const ns_error_stats *s, const char *title, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
