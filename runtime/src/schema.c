/* schema.c — lookups in the dispatch tables netschemac generates (netschema/schema.h): both
 * tables are sorted by type id, so a binary search finds a type in log2(n) steps. */
#include "netschema/schema.h"

/* The index of the entry whose desc->id is `id` in a sorted table, or -1. `at` gives the id of
 * entry i; the tables differ in their entry type only. */
static int32_t find_id(uint32_t count, uint32_t id, const void *table,
                       uint32_t (*at)(const void *table, uint32_t i))
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t got = at(table, mid);
        if (got == id) return (int32_t)mid;
        if (got < id) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static uint32_t component_id(const void *table, uint32_t i)
{
    return ((const ns_component_ops *)table)[i].desc->id;
}

static uint32_t message_id(const void *table, uint32_t i)
{
    return ((const ns_message_ops *)table)[i].desc->id;
}

int32_t ns_schema_component_index(const ns_schema *s, uint32_t id)
{
    if (!s || !s->components) return -1;
    return find_id(s->component_count, id, s->components, component_id);
}

int32_t ns_schema_message_index(const ns_schema *s, uint32_t id)
{
    if (!s || !s->messages) return -1;
    return find_id(s->message_count, id, s->messages, message_id);
}
