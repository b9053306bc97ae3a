/* map.c — open-addressing string map with FNV-1a hashing and linear probing. */
#include "map.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"

uint64_t nsc_fnv1a(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

void nsc_map_free(nsc_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

static uint64_t hash_of(const char *key)
{
    return nsc_fnv1a(key, strlen(key), NSC_FNV_OFFSET);
}

static size_t find(const nsc_map *m, const char *key, uint64_t h)
{
    size_t mask = m->cap - 1;
    /* The high bits of FNV-1a are better mixed than the low ones. */
    size_t i = (size_t)(h ^ (h >> 32)) & mask;
    while (m->slots[i].key && (m->slots[i].hash != h || strcmp(m->slots[i].key, key) != 0)) i = (i + 1) & mask;
    return i;
}

void *nsc_map_get(const nsc_map *m, const char *key)
{
    if (!m->cap) return NULL;
    size_t i = find(m, key, hash_of(key));
    return m->slots[i].key ? m->slots[i].value : NULL;
}

static void grow(nsc_map *m)
{
    nsc_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->slots = nsc_xrealloc(NULL, m->cap * sizeof *m->slots);
    memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.slots[i].key) continue;
        size_t k = find(m, old.slots[i].key, old.slots[i].hash);
        m->slots[k] = old.slots[i];
        m->count++;
    }
    free(old.slots);
}

void *nsc_map_put(nsc_map *m, const char *key, void *value)
{
    if ((m->count + 1) * 2 > m->cap) grow(m);
    uint64_t h = hash_of(key);
    size_t i = find(m, key, h);
    if (m->slots[i].key) return m->slots[i].value;
    m->slots[i].key = key;
    m->slots[i].value = value;
    m->slots[i].hash = h;
    m->count++;
    return value;
}
