/* prediction.c — the client's ring of predicted ticks, rollback and re-simulation, and
 * prediction errors gathered per field over time (netschema/prediction.h). */
#include "netschema/prediction.h"

#include <string.h>

/* Tick arithmetic wraps: a is newer than b when it is less than half the range ahead. */
static bool newer(uint32_t a, uint32_t b)
{
    return a != b && a - b < 0x80000000u;
}

ns_status ns_prediction_init(ns_prediction *p, void *storage, size_t state_size, size_t input_size, uint32_t depth)
{
    if (!p || !storage || state_size == 0 || input_size == 0) return NS_ERR_ARGUMENT;
    uint8_t *mem = (uint8_t *)storage;
    size_t inputs_at = (NS_HISTORY_BYTES(state_size, depth) + 15u) & ~(size_t)15u;
    ns_status st = ns_history_init(&p->states, mem, state_size, depth);
    if (st == NS_OK) st = ns_history_init(&p->inputs, mem + inputs_at, input_size, depth);
    p->state_size = state_size;
    p->newest = 0;
    p->any = false;
    return st;
}

void ns_prediction_record(ns_prediction *p, uint32_t t, const void *input, const void *state)
{
    memcpy(ns_history_put(&p->inputs, t), input, p->inputs.size);
    memcpy(ns_history_put(&p->states, t), state, p->state_size);
    if (!p->any || newer(t, p->newest)) p->newest = t;
    p->any = true;
}

const void *ns_prediction_state(const ns_prediction *p, uint32_t t)
{
    return ns_history_get(&p->states, t);
}

const void *ns_prediction_input(const ns_prediction *p, uint32_t t)
{
    return ns_history_get(&p->inputs, t);
}

ns_status ns_prediction_rollback(ns_prediction *p, uint32_t t, const void *authoritative, void *state, ns_step_fn step,
                                 void *ctx, uint32_t *steps)
{
    if (steps) *steps = 0;
    if (!p->any || !newer(p->newest, t)) { /* nothing predicted after t: the server's state is it */
        memcpy(state, authoritative, p->state_size);
        memcpy(ns_history_put(&p->states, t), authoritative, p->state_size);
        if (!p->any || newer(t, p->newest)) p->newest = t;
        p->any = true;
        return NS_OK;
    }
    uint32_t n = p->newest - t;
    for (uint32_t k = 1; k <= n; k++)
        if (!ns_history_get(&p->inputs, t + k)) return NS_ERR_STALE;
    memcpy(state, authoritative, p->state_size);
    memcpy(ns_history_put(&p->states, t), authoritative, p->state_size);
    for (uint32_t k = 1; k <= n; k++) {
        step(ctx, t + k, ns_history_get(&p->inputs, t + k), state);
        memcpy(ns_history_put(&p->states, t + k), state, p->state_size);
    }
    if (steps) *steps = n;
    return NS_OK;
}

ns_status ns_error_stats_init(ns_error_stats *s, const char *const *names, uint32_t count)
{
    if (!s || !names || count == 0 || count > NS_ERROR_FIELDS_MAX) return NS_ERR_ARGUMENT;
    s->names = names;
    s->count = count;
    ns_error_stats_reset(s);
    return NS_OK;
}

void ns_error_stats_reset(ns_error_stats *s)
{
    memset(s->samples, 0, sizeof s->samples);
    memset(s->sum, 0, sizeof s->sum);
    memset(s->max, 0, sizeof s->max);
}

void ns_error_stats_add(ns_error_stats *s, const float *errors)
{
    for (uint32_t i = 0; i < s->count; i++) {
        float e = errors[i];
        if (e != e) continue; /* NaN */
        if (e < 0) e = -e;
        s->samples[i]++;
        s->sum[i] += (double)e;
        if (e > s->max[i]) s->max[i] = e;
    }
}

double ns_error_stats_mean(const ns_error_stats *s, uint32_t i)
{
    return i < s->count && s->samples[i] ? s->sum[i] / (double)s->samples[i] : 0.0;
}

void ns_error_stats_print(const ns_error_stats *s, const char *title, FILE *f)
{
    if (title) fprintf(f, "%s\n", title);
    fprintf(f, "  %-20s %10s %12s %12s\n", "field", "samples", "mean", "max");
    for (uint32_t i = 0; i < s->count; i++)
        fprintf(f, "  %-20s %10llu %12.6g %12.6g\n", s->names[i], (unsigned long long)s->samples[i],
                ns_error_stats_mean(s, i), (double)s->max[i]);
}
