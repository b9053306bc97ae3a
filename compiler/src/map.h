/* map.h — a string-keyed hash map (open addressing) for symbol tables and name registries.
 * Keys are not copied: they must outlive the map (arena strings do). */
#ifndef NSC_MAP_H
#define NSC_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct nsc_map_entry {
    const char *key;
    void       *value;
    uint64_t    hash;   /* compared before the key, so probing rarely touches strings */
} nsc_map_entry;

typedef struct nsc_map {
    nsc_map_entry *slots;
    size_t         cap, count;
} nsc_map;

void  nsc_map_free(nsc_map *m);
void *nsc_map_get(const nsc_map *m, const char *key);
/* Inserts key → value unless key is present; returns the value now stored under key. */
void *nsc_map_put(nsc_map *m, const char *key, void *value);

uint64_t nsc_fnv1a(const void *data, size_t n, uint64_t h);
#define NSC_FNV_OFFSET UINT64_C(0xcbf29ce484222325)

#endif
