/* fuzz_dump.c — libFuzzer target: any bytes through the dump walker (netschema/dump.h), which
 * is a reader of its own. Records of idl/examples/everything.netschema and tests/e2e/
 * coll.netschema, chosen and given baselines as in fuzz_reader.c (fuzz_records.h: byte 0 the
 * record, byte 1 the baseline count and audience, then length-prefixed payloads that build
 * the baselines by reading them), are read by the generated _read and by ns_walk_record: both must give the
 * same status and consume the same bits, and on success the same snapshot (components). The
 * record is then printed with ns_dump_record. Byte 0 = 255 instead feeds the rest to
 * ns_dump_repl_packet (tests/replication/repl.netschema, no replica). ASan sees any read past
 * the input, which is copied to a heap block of its exact size. Replayed in every test run by
 * fuzz_dump_replay (tests/fuzz/fuzz_replay.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.ns.h"
#include "everything.ns.h"
#include "repl.ns.h"
#include "unions.ns.h"

#include "fuzz_records.h"

/* The records this target covers: every component and message of these schemas. */
static record pick_record(uint8_t i)
{
    static const ns_schema *const schemas[] = {&all_schema, &coll_schema, &un_schema};
    return pick_record_in(schemas, sizeof schemas / sizeof schemas[0], i);
}

/* Where dumps go: nowhere, but through every printing path. */
static FILE *sink(void)
{
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    if (data[0] == 255) { /* a replication packet, no replica: every update is skipped or stops the dump */
        uint8_t *packet = (uint8_t *)malloc(size - 1);
        memcpy(packet, data + 1, size - 1);
        ns_reader r;
        ns_reader_init(&r, packet, size - 1);
        ns_dump_repl_packet(sink(), &rt_schema, NULL, &r);
        free(packet);
        return 0;
    }
    record k = pick_record(data[0]);
    const ns_type_desc *t = record_desc(&k);
    size_t ssize = t->snap_size;
    uint32_t nbase = data[1] & 3u;
    ns_audience to = (data[1] & 4u) ? NS_TO_OWNER : NS_TO_OBSERVER;
    data += 2, size -= 2;
    uint8_t *snaps = (uint8_t *)calloc(5, ssize);
    uint8_t *base[3] = {snaps, snaps + ssize, snaps + 2 * ssize}, *gen = snaps + 3 * ssize, *walked = snaps + 4 * ssize;
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
    uint8_t *packet = (uint8_t *)malloc(size ? size : 1);
    if (size) memcpy(packet, data, size);
    ns_reader r1, r2, r3;
    ns_reader_init(&r1, packet, size);
    r2 = r3 = r1;
    record_default(&k, gen);
    record_default(&k, walked);
    ns_status sg = record_read(&k, &r1, gen, &b, to);
    ns_status sw = ns_walk_record(&r2, t, &b, to, walked, NULL, NULL);
    if (sg != sw) abort();                                       /* they disagree on validity */
    if (ns_reader_bits(&r1) != ns_reader_bits(&r2)) abort();     /* or on where the record ends */
    if (sg == NS_OK && k.component && !k.component->snap_equal(gen, walked)) abort(); /* or on its value */
    if (ns_dump_record(sink(), t, &r3, &b, to) != sg) abort();
    free(packet);
    free(snaps);
    return 0;
}
