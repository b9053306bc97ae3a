/* fuzz_reader.c — libFuzzer target: any bytes through generated readers with collections
 * (tests/e2e/coll.netschema). The input names a component, then up to four length-prefixed
 * payloads: the first ones build baselines (each read against the one before, so every
 * baseline is a state a reader can produce), the last is read against them. A read must either
 * fail and leave its destination as it was, or succeed with a state that writes and reads back
 * to itself. Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll.ns.h"

typedef struct kind {
    size_t size, max_bytes;
    ns_status (*write)(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to);
    ns_status (*read)(ns_reader *r, void *out, const ns_baselines *b, ns_audience to);
    bool (*equal)(const void *a, const void *b);
} kind;

#define KIND(T, U)                                                                                     \
    static ns_status T##_w(ns_writer *w, const void *c, const ns_baselines *b, ns_audience to)       \
    {                                                                                                  \
        return coll_##T##_write(w, (const coll_##T##_snap *)c, b, to);                                 \
    }                                                                                                  \
    static ns_status T##_r(ns_reader *r, void *o, const ns_baselines *b, ns_audience to)             \
    {                                                                                                  \
        return coll_##T##_read(r, (coll_##T##_snap *)o, b, to);                                        \
    }                                                                                                  \
    static bool T##_e(const void *a, const void *b)                                                    \
    {                                                                                                  \
        return coll_##T##_snap_equal((const coll_##T##_snap *)a, (const coll_##T##_snap *)b);          \
    }                                                                                                  \
    static const kind T##_kind = {sizeof(coll_##T##_snap), COLL_##U##_MAX_BYTES, T##_w, T##_r, T##_e};

KIND(Lists, LISTS)
KIND(Maps, MAPS)
KIND(Sets, SETS)
KIND(Fast, FAST)
KIND(Ordered, ORDERED)
KIND(Short, SHORT)

static const kind *const kinds[] = {&Lists_kind, &Maps_kind, &Sets_kind, &Fast_kind, &Ordered_kind, &Short_kind};

/* The next length-prefixed payload (2-byte length, clipped to what is left). */
static const uint8_t *payload(const uint8_t **data, size_t *size, size_t *len)
{
    if (*size < 2) {
        *len = 0;
        return *data;
    }
    size_t n = (size_t)(*data)[0] | (size_t)(*data)[1] << 8;
    *data += 2, *size -= 2;
    if (n > *size) n = *size;
    const uint8_t *p = *data;
    *data += n, *size -= n;
    *len = n;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const kind *k = kinds[data[0] % (sizeof kinds / sizeof kinds[0])];
    uint32_t nbase = data[1] & 3u;
    ns_audience to = (data[1] & 4u) ? NS_TO_OWNER : NS_TO_OBSERVER;
    data += 2, size -= 2;
    uint8_t *snaps = (uint8_t *)calloc(5, k->size);
    uint8_t *base[3] = {snaps, snaps + k->size, snaps + 2 * k->size}; /* oldest first while building */
    uint8_t *out = snaps + 3 * k->size, *before = snaps + 4 * k->size;
    /* Baselines: each read against the previous one (the first against the defaults); a payload
     * that does not read leaves the previous state (or the defaults: a zero byte says "nothing
     * changed"). */
    for (uint32_t i = 0; i < nbase; i++) {
        static const uint8_t zero = 0;
        size_t len;
        const uint8_t *p = payload(&data, &size, &len);
        ns_baselines b = {{i ? base[i - 1] : NULL, NULL, NULL}, {i, 0, 0}, i ? 1u : 0u, i + 1};
        ns_reader r;
        ns_reader_init(&r, p, len);
        if (k->read(&r, base[i], &b, NS_TO_OWNER) == NS_OK) continue;
        ns_reader_init(&r, &zero, 1);
        if (k->read(&r, base[i], &b, NS_TO_OWNER) != NS_OK) abort();
    }
    ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nbase, 10};
    for (uint32_t i = 0; i < nbase; i++) b.snap[i] = base[nbase - 1 - i], b.tick[i] = 9 - i;
    memset(out, 0x5a, k->size);
    memcpy(before, out, k->size);
    ns_reader r;
    ns_reader_init(&r, data, size);
    if (k->read(&r, out, &b, to) != NS_OK) {
        if (memcmp(out, before, k->size) != 0) abort(); /* a failed read changed its destination */
    } else {
        size_t cap = k->max_bytes + 8;
        uint8_t *buf = (uint8_t *)malloc(cap);
        ns_writer w;
        ns_writer_init(&w, buf, cap);
        if (k->write(&w, out, &b, to) != NS_OK) abort(); /* read what cannot be written */
        size_t n = ns_writer_flush(&w);
        ns_reader_init(&r, buf, n);
        if (k->read(&r, before, &b, to) != NS_OK || !k->equal(before, out)) abort(); /* no round trip */
        free(buf);
    }
    free(snaps);
    return 0;
}
