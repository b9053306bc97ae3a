/* link.c — one direction of one connection, simulated in process: each datagram sent may be
 * lost, duplicated, delayed by latency + jitter, and delayed further to reorder it. The same
 * seed gives the same fate to every datagram, so a run is reproducible. Nothing here knows about
 * netschema. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

void link_init(link *l, const impairment *impair, uint64_t seed)
{
    memset(l, 0, sizeof *l);
    l->impair = impair;
    l->rng.s = seed;
}

void link_free(link *l)
{
    for (uint32_t i = 0; i < l->n; i++) free(l->q[i].data);
    l->n = 0;
}

static bool chance(link *l, unsigned percent)
{
    return percent && rng_below(&l->rng, 100) < percent;
}

/* Ticks a copy spends on the way: latency, jitter, and 1..4 more when it is reordered. */
static uint32_t delay(link *l)
{
    const impairment *im = l->impair;
    uint32_t d = im->latency;
    if (im->jitter) d += rng_below(&l->rng, im->jitter + 1);
    if (chance(l, im->reorder)) d += 1 + rng_below(&l->rng, 4);
    return d;
}

void link_send(link *l, const void *data, size_t len, uint32_t now)
{
    l->stats.sent++;
    l->stats.bytes += len;
    if (len > l->stats.max_bytes) l->stats.max_bytes = len;
    unsigned copies = 1;
    if (chance(l, l->impair->duplicate)) copies++, l->stats.duplicated++;
    if (chance(l, l->impair->loss)) copies--, l->stats.lost++;
    for (unsigned i = 0; i < copies; i++) {
        uint8_t *copy = malloc(len);
        if (l->n == LINK_QUEUE || !copy) {
            free(copy);
            l->stats.overflows++;
            continue;
        }
        memcpy(copy, data, len);
        l->q[l->n++] = (link_datagram){now + delay(l), len, copy};
    }
}

bool link_take(link *l, uint32_t now, link_datagram *d)
{
    uint32_t best = l->n;
    for (uint32_t i = 0; i < l->n; i++)
        if (l->q[i].due <= now && (best == l->n || l->q[i].due < l->q[best].due)) best = i;
    if (best == l->n) return false;
    *d = l->q[best];
    memmove(&l->q[best], &l->q[best + 1], (l->n - best - 1) * sizeof *l->q); /* keep sending order */
    l->n--;
    l->stats.delivered++;
    return true;
}
