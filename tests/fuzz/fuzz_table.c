/* fuzz_table.c — libFuzzer target: any bytes through the table mode's reader against the default
 * mode's. The table mode's generated _read is one call, ns_table_read on the record's descriptor
 * (netschema/table.h, compiler/src/emit_c_table.c); it is made here on the descriptors of the
 * default mode's code, so both modes run in one process. Records of tests/e2e's coll, unions,
 * arrays and strkeys schemas (with FUZZ_TABLE_MORE also e2e and modes), chosen and given
 * baselines as in fuzz_reader.c (fuzz_records.h: byte 0 the record, byte 1 the baseline count
 * and audience, then length-prefixed payloads that build the baselines by reading them), are
 * read by both: the same status, the same bits consumed, on success the same snapshot, and on
 * failure a destination left as it was. A record read back is then written by both writers,
 * which must give the same status and bytes. Replayed in every test run by fuzz_table_replay. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.ns.h"
#include "coll.ns.h"
#include "strkeys.ns.h"
#include "unions.ns.h"
#ifdef FUZZ_TABLE_MORE
#include "e2e.ns.h"
#include "modes.ns.h"
#endif

#include "fuzz_records.h"

static record pick_record(uint8_t i)
{
    static const ns_schema *const schemas[] = {
        &coll_schema, &un_schema, &arr_schema, &strk_schema,
#ifdef FUZZ_TABLE_MORE
        &e2e_schema,  &modes_schema,
#endif
    };
    return pick_record_in(schemas, sizeof schemas / sizeof schemas[0], i);
}

/* The table mode's generated _read and _write of record k: components against base, inputs
 * against prev (the newest baseline), rpcs against nothing. */
static const void *table_ref(const record *k, const ns_baselines *b)
{
    return k->message && k->message->kind == NS_MSG_INPUT && b->count ? b->snap[0] : NULL;
}

static ns_status table_read(const record *k, ns_reader *r, void *out, const ns_baselines *b, ns_audience to)
{
    return ns_table_read(r, record_desc(k), out, table_ref(k, b), k->component ? b : NULL, to);
}

static ns_status table_write(const record *k, ns_writer *wp, const void *cur, const ns_baselines *b, ns_audience to)
{
    ns_writer w = *wp;
    const ns_status st = ns_table_write(&w, record_desc(k), cur, table_ref(k, b), k->component ? b : NULL, to);
    if (st != NS_OK) return st;
    *wp = w;
    return ns_writer_status(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    record k = pick_record(data[0]);
    const ns_type_desc *t = record_desc(&k);
    const size_t ssize = t->snap_size;
    const uint32_t nbase = data[1] & 3u;
    const ns_audience to = (ns_audience)((data[1] >> 2) & 7u);
    data += 2, size -= 2;
    uint8_t *snaps = (uint8_t *)calloc(6, ssize);
    if (!snaps) abort();
    uint8_t *base[3] = {snaps, snaps + ssize, snaps + 2 * ssize};
    uint8_t *gen = snaps + 3 * ssize, *tab = snaps + 4 * ssize, *keep = snaps + 5 * ssize;
    for (uint32_t i = 0; i < nbase; i++) { /* each read against the one before: states a reader can hold */
        size_t len;
        const uint8_t *p = payload(&data, &size, &len);
        ns_baselines b = {{i ? base[i - 1] : NULL, NULL, NULL}, {i, 0, 0}, i ? 1u : 0u, i + 1};
        ns_reader r;
        ns_reader_init(&r, p, len);
        if (record_read(&k, &r, base[i], &b, NS_TO_OWNER) == NS_OK) continue;
        if (i) memcpy(base[i], base[i - 1], ssize);
        else record_default(&k, base[i]);
    }
    ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nbase, 10};
    for (uint32_t i = 0; i < nbase; i++) b.snap[i] = base[nbase - 1 - i], b.tick[i] = 9 - i;
    if (k.message && k.message->kind != NS_MSG_INPUT) b.count = 0; /* an rpc has no reference */
    if (k.message && b.count > 1) b.count = 1;                     /* an input has one: prev */
    uint8_t *packet = (uint8_t *)malloc(size ? size : 1);          /* exactly the input: ASan sees overreads */
    if (!packet) abort();
    if (size) memcpy(packet, data, size);
    ns_reader r1, r2;
    ns_reader_init(&r1, packet, size);
    r2 = r1;
    record_default(&k, gen);
    memcpy(tab, base[0], ssize); /* some state, not the defaults: a refused read must keep it */
    memcpy(keep, tab, ssize);
    const ns_status sg = record_read(&k, &r1, gen, &b, to);
    const ns_status st = table_read(&k, &r2, tab, &b, to);
    if (sg != st) abort();                                   /* they disagree on validity */
    if (ns_reader_bits(&r1) != ns_reader_bits(&r2)) abort(); /* or on where the record ends */
    if (st != NS_OK && memcmp(tab, keep, ssize) != 0) abort(); /* a refused read changed its destination */
    if (sg == NS_OK) {
        /* The same state: by the generated snap_equal (components), and for every record by the
         * default writer's bytes for each, which differ if any sent field does. */
        if (k.component && !k.component->snap_equal(gen, tab)) abort();
        if (!ns_table_snap_equal(t, gen, tab)) abort(); /* and the table's equality agrees */
        /* Both writers on what was read: the same status and the same bytes. */
        const size_t cap = (size_t)t->max_bits / 8u + 16u;
        uint8_t *out = (uint8_t *)calloc(3, cap);
        if (!out) abort();
        ns_writer w1, w2, w3;
        ns_writer_init(&w1, out, cap);
        ns_writer_init(&w2, out + cap, cap);
        ns_writer_init(&w3, out + 2 * cap, cap);
        const ns_status wg = record_write(&k, &w1, gen, &b, to), wt = table_write(&k, &w2, gen, &b, to);
        const ns_status wd = record_write(&k, &w3, tab, &b, to);
        const size_t n1 = ns_writer_flush(&w1), n2 = ns_writer_flush(&w2), n3 = ns_writer_flush(&w3);
        if (wg != wt || n1 != n2 || memcmp(out, out + cap, n1) != 0) abort();
        if (wd != wg || n3 != n1 || memcmp(out, out + 2 * cap, n1) != 0) abort(); /* the table read another state */
        free(out);
    }
    free(packet);
    free(snaps);
    return 0;
}
