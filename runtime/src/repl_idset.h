/* repl_idset.h — a set of entity ids in two levels of bits: a bit per id, and above it a bit per
 * word of 64 ids that has one set. Visiting the set in ascending order costs its members and
 * max_entities / 4096 words, not a look at every id: the replica keeps its spawned entities and
 * its reference holders so (a client may see a few hundred of the server's million ids), and both
 * ends put a packet's ids in order through one (ns__idset_drain). */
#ifndef NS_REPL_IDSET_H
#define NS_REPL_IDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Index of the lowest set bit of m (m != 0). */
static inline unsigned ns__lowest_bit(uint64_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(m);
#else
    unsigned i = 0;
    while (!(m & 1u)) m >>= 1, i++;
    return i;
#endif
}

/* Words of a map with a bit per id below n, and the setting of id's bit. */
static inline uint32_t ns__id_map_words(uint32_t n)
{
    return (n + 63u) / 64u;
}

static inline void ns__id_map_add(uint64_t *map, uint32_t id)
{
    map[id / 64u] |= UINT64_C(1) << (id % 64u);
}

typedef struct ns__idset {
    uint64_t *bits; /* a bit per id */
    uint64_t *any;  /* a bit per word of bits: that word is not 0 */
    uint32_t  n;    /* ids are 0 .. n - 1 */
} ns__idset;

/* Bytes an idset of n ids allocates. */
static inline size_t ns__idset_bytes(uint32_t n)
{
    return ((size_t)ns__id_map_words(n) + ns__id_map_words(ns__id_map_words(n))) * sizeof(uint64_t);
}

/* An empty set of ids 0 .. n - 1; false when out of memory (ns__idset_free is still safe). */
static inline bool ns__idset_init(ns__idset *s, uint32_t n)
{
    s->n = n;
    s->bits = calloc(ns__id_map_words(n), sizeof *s->bits);
    s->any = calloc(ns__id_map_words(ns__id_map_words(n)), sizeof *s->any);
    return s->bits && s->any;
}

static inline void ns__idset_free(ns__idset *s)
{
    free(s->bits);
    free(s->any);
}

static inline void ns__idset_add(ns__idset *s, uint32_t id)
{
    ns__id_map_add(s->bits, id);
    ns__id_map_add(s->any, id / 64u);
}

static inline void ns__idset_remove(ns__idset *s, uint32_t id)
{
    uint64_t *word = &s->bits[id / 64u];
    *word &= ~(UINT64_C(1) << (id % 64u));
    if (*word == 0) s->any[id / 4096u] &= ~(UINT64_C(1) << (id / 64u % 64u));
}

/* The smallest id of the set at or after `from`, or UINT32_MAX when there is none. */
static inline uint32_t ns__idset_next(const ns__idset *s, uint32_t from)
{
    if (from >= s->n) return UINT32_MAX;
    uint32_t w = from / 64u;
    uint64_t m = s->bits[w] & (~UINT64_C(0) << (from % 64u));
    if (m) return w * 64u + ns__lowest_bit(m);
    /* The next word with a bit, through the level above. */
    const uint32_t words = ns__id_map_words(s->n), above = ns__id_map_words(words);
    uint32_t a = ++w / 64u;
    if (w >= words) return UINT32_MAX;
    uint64_t am = s->any[a] & (~UINT64_C(0) << (w % 64u));
    while (!am) {
        if (++a >= above) return UINT32_MAX;
        am = s->any[a];
    }
    w = a * 64u + ns__lowest_bit(am);
    return w * 64u + ns__lowest_bit(s->bits[w]);
}

/* Writes the set's ids to out in ascending order, empties the set and returns how many. A
 * packet's records come sorted by kind and section, their ids in a few ascending runs: setting a
 * bit per record and draining orders them in two passes that cost the ids, not max_entities. */
static inline uint32_t ns__idset_drain(ns__idset *s, uint32_t *out)
{
    uint32_t k = 0;
    const uint32_t above = ns__id_map_words(ns__id_map_words(s->n));
    for (uint32_t a = 0; a < above; a++) {
        for (uint64_t am = s->any[a]; am; am &= am - 1u) {
            const uint32_t w = a * 64u + ns__lowest_bit(am);
            for (uint64_t m = s->bits[w]; m; m &= m - 1u) out[k++] = w * 64u + ns__lowest_bit(m);
            s->bits[w] = 0;
        }
        s->any[a] = 0;
    }
    return k;
}

#endif
