/* history.c — tick sets, the snapshot ring and the choice of baselines (netschema/history.h). */
#include <netschema/history.h>
#include <netschema/packed.h>

#include <string.h>

#include "history_internal.h"

void ns_tickset_clear(ns_tickset *s)
{
    s->newest = 0;
    s->mask = 0;
}

void ns_tickset_add(ns_tickset *s, uint32_t t)
{
    if (s->mask == 0) {
        s->newest = t;
        s->mask = 1;
        return;
    }
    uint32_t ahead = t - s->newest;
    if (ahead == 0) return;
    if (ahead < 0x80000000u) { /* t is newer (tick arithmetic wraps) */
        s->mask = ahead >= 64 ? 1 : (s->mask << ahead) | 1;
        s->newest = t;
        return;
    }
    uint32_t behind = s->newest - t;
    if (behind < 64) s->mask |= UINT64_C(1) << behind;
}

bool ns_tickset_has(const ns_tickset *s, uint32_t t)
{
    uint32_t behind = s->newest - t;
    return s->mask && behind < 64 && ((s->mask >> behind) & 1u);
}

ns_status ns_history_init(ns_history *h, void *storage, size_t size, uint32_t depth)
{
    if (depth == 0 || depth > NS_HISTORY_MAX_DEPTH || !storage || size == 0) return NS_ERR_ARGUMENT;
    h->slots = (uint8_t *)storage;
    h->size = size;
    h->depth = depth;
    h->mask = (depth & (depth - 1)) == 0 ? depth - 1 : 0;
    h->held = 0;
    return NS_OK;
}

/* The slot of tick t: a mask for power-of-two depths, which is the common case. */
static uint32_t slot_of(const ns_history *h, uint32_t t)
{
    return h->mask || h->depth == 1 ? t & h->mask : t % h->depth;
}

/* The tick slot i holds; the ticks follow the snapshots, unaligned in general, hence memcpy. */
static uint32_t tick_at(const ns_history *h, uint32_t i)
{
    uint32_t t;
    memcpy(&t, h->slots + (size_t)h->depth * h->size + (size_t)i * sizeof t, sizeof t);
    return t;
}

void *ns_history_put(ns_history *h, uint32_t t)
{
    uint32_t i = slot_of(h, t);
    memcpy(h->slots + (size_t)h->depth * h->size + (size_t)i * sizeof t, &t, sizeof t);
    h->held |= UINT64_C(1) << i;
    return h->slots + (size_t)i * h->size;
}

const void *ns_history_get(const ns_history *h, uint32_t t)
{
    uint32_t i = slot_of(h, t);
    if (!((h->held >> i) & 1u) || tick_at(h, i) != t) return NULL;
    return h->slots + (size_t)i * h->size;
}

void ns_history_drop(ns_history *h, uint32_t t)
{
    uint32_t i = slot_of(h, t);
    if (((h->held >> i) & 1u) && tick_at(h, i) == t) h->held &= ~(UINT64_C(1) << i);
}

uint32_t ns_history_baselines(const ns_history *h, const ns_tickset *acked, const ns_tickset *sent, uint32_t now,
                              uint32_t max, ns_baselines *b)
{
    b->count = 0;
    b->tick_now = now;
    if (max > 3) max = 3;
    /* Newest first: walk back from the newest acked tick, at most 64 ticks. */
    for (uint32_t back = 0; back < 64 && b->count < max && acked->mask; back++) {
        uint32_t t = acked->newest - back;
        if (t - now < 0x80000000u) continue; /* not older than now */
        if (!ns_tickset_has(acked, t) || (sent && !ns_tickset_has(sent, t))) continue;
        const void *s = ns_history_get(h, t);
        if (!s) continue;
        b->snap[b->count] = s;
        b->tick[b->count] = t;
        b->count++;
    }
    return b->count;
}

void ns__write_ticks(ns_writer *w, const ns_baselines *b, const ns_model *m)
{
    uint32_t n = b ? b->count : 0, prev = b ? b->tick_now : 0;
    ns_write_bits(w, n, 2);
    for (uint32_t i = 0; i < n; i++) {
        ns_write_packed_u32(w, prev - b->tick[i] - 1u, m);
        prev = b->tick[i];
    }
}

void ns__read_ticks(ns_reader *r, uint32_t now, uint32_t ticks[3], uint32_t *count, const ns_model *m)
{
    *count = ns_read_bits(r, 2); /* 0..3 */
    uint32_t prev = now;
    for (uint32_t i = 0; i < *count; i++) {
        uint32_t gap = ns_read_packed_u32(r, m);
        if (gap >= 0x7fffffffu) {
            *count = 0;
            ns_reader_fail(r, NS_ERR_BASELINE);
            return;
        }
        ticks[i] = prev - gap - 1u;
        prev = ticks[i];
    }
    if (ns_reader_failed(r)) *count = 0;
}

void ns_write_baseline_ticks(ns_writer *w, const ns_baselines *b)
{
    ns__write_ticks(w, b, NULL);
}

void ns_read_baseline_ticks(ns_reader *r, uint32_t now, uint32_t ticks[3], uint32_t *count)
{
    ns__read_ticks(r, now, ticks, count, NULL);
}
