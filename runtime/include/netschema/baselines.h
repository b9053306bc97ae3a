/* netschema/baselines.h — what a generated _write/_read codes against (docs/wire.md section 3).
 *
 * ns_baselines holds up to three snapshots of the same entity that the receiver has acked,
 * newest first, with their ticks. No baselines (NULL or count 0): fields are coded against the
 * schema defaults (a full state). One or two: against baseline 0. Three: integer and quantized
 * fields are coded against the linear prediction from all three (see predict.h). Writer and
 * reader must pass the same baselines and the same audience. */
#ifndef NETSCHEMA_BASELINES_H
#define NETSCHEMA_BASELINES_H

#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_baselines {
    const void *snap[3];   /* newest first: snap[0] is baseline 0 */
    uint32_t    tick[3];
    uint32_t    count;     /* 0..3 */
    uint32_t    tick_now;  /* the tick being written */
} ns_baselines;

/* Who a component write is for, as a set of bits describing the receiver: fields with
 * @sync(owner) go only to receivers with NS_TO_OWNER, @sync(others) only to those without it;
 * @sync(predicted) only with NS_TO_PREDICTED, @sync(interpolated) only without it, @sync(custom)
 * only with NS_TO_CUSTOM. NS_TO_OBSERVER (0) is an observer that interpolates. */
typedef enum ns_audience {
    NS_TO_OBSERVER = 0,
    NS_TO_OWNER = 1,     /* the receiver owns the entity */
    NS_TO_PREDICTED = 2, /* the receiver predicts the entity (else it interpolates it) */
    NS_TO_CUSTOM = 4     /* the application's per-connection condition flag is set */
} ns_audience;

/* NS_OK if b is NULL or consistent (count <= 3, every used snapshot non-NULL), else
 * NS_ERR_BASELINE. */
static inline ns_status ns_baselines_check(const ns_baselines *b)
{
    if (!b) return NS_OK;
    if (b->count > 3) return NS_ERR_BASELINE;
    for (uint32_t i = 0; i < b->count; i++)
        if (!b->snap[i]) return NS_ERR_BASELINE;
    return NS_OK;
}

/* The number of baselines to use: 0 for NULL. */
static inline uint32_t ns_baselines_count(const ns_baselines *b)
{
    return b ? b->count : 0u;
}

#ifdef __cplusplus
}
#endif
#endif
