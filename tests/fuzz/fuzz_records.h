/* fuzz_records.h — what the record-level fuzz targets share (fuzz_reader.c, fuzz_dump.c): one
 * interface over a component or a message of the schemas' dispatch tables, the choice of a
 * record by an input byte, and the length-prefixed payloads that build its baselines. */
#ifndef NS_FUZZ_RECORDS_H
#define NS_FUZZ_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <netschema/netschema.h>

/* One record, component or message, behind one interface. */
typedef struct record {
    const ns_component_ops *component; /* exactly one of component and message is set */
    const ns_message_ops   *message;
} record;

static inline const ns_type_desc *record_desc(const record *k)
{
    return k->component ? k->component->desc : k->message->desc;
}

static inline void record_default(const record *k, void *snap)
{
    if (k->component) k->component->snap_default(snap);
    else k->message->snap_default(snap);
}

/* For a message, the baselines' newest snapshot is the previous input (an rpc has none). */
static inline ns_status record_read(const record *k, ns_reader *r, void *out, const ns_baselines *b, ns_audience to)
{
    if (k->component) return k->component->read(r, out, b, to);
    const void *prev = k->message->kind == NS_MSG_INPUT && b->count ? b->snap[0] : NULL;
    return k->message->read(r, out, prev);
}

static inline ns_status record_write(const record *k, ns_writer *w, const void *cur, const ns_baselines *b,
                                     ns_audience to)
{
    if (k->component) return k->component->write(w, cur, b, to);
    const void *prev = k->message->kind == NS_MSG_INPUT && b->count ? b->snap[0] : NULL;
    return k->message->write(w, cur, prev);
}

/* The record with index i over the schemas' components and messages, modulo their number. */
static inline record pick_record_in(const ns_schema *const *schemas, size_t nschemas, uint8_t i)
{
    uint32_t total = 0;
    for (size_t s = 0; s < nschemas; s++) total += schemas[s]->component_count + schemas[s]->message_count;
    uint32_t n = i % total;
    record k = {NULL, NULL};
    for (size_t s = 0; s < nschemas; s++) {
        const ns_schema *sc = schemas[s];
        if (n < sc->component_count) {
            k.component = &sc->components[n];
            return k;
        }
        n -= sc->component_count;
        if (n < sc->message_count) {
            k.message = &sc->messages[n];
            return k;
        }
        n -= sc->message_count;
    }
    abort();
}

/* The next length-prefixed payload, clipped to what is left. The length is one byte, or two
 * when the first has its top bit set (15 bits), so random inputs make short payloads. */
static inline const uint8_t *payload(const uint8_t **data, size_t *size, size_t *len)
{
    size_t prefix = *size && ((*data)[0] & 0x80u) ? 2 : 1;
    if (*size < prefix) {
        *len = 0;
        return *data;
    }
    size_t n = prefix == 1 ? (*data)[0] : ((size_t)(*data)[0] & 0x7fu) << 8 | (*data)[1];
    *data += prefix, *size -= prefix;
    if (n > *size) n = *size;
    const uint8_t *p = *data;
    *data += n, *size -= n;
    *len = n;
    return p;
}

#endif
