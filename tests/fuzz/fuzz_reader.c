/* fuzz_reader.c — libFuzzer target: any bytes through generated readers. It covers every
 * component, input and rpc of idl/examples/everything.netschema (every type and attribute), of
 * tests/e2e/coll.netschema (every collection kind), of tests/e2e/strkeys.netschema (sets and
 * maps with string keys), of tests/e2e/arrays.netschema (fixed arrays, per element and
 * @composite) and of tests/e2e/unions.netschema (tags and members), reached through the schemas' dispatch
 * tables (ns_schema), so a record added to either schema is fuzzed without a change here.
 *
 * Input: byte 0 picks the record; byte 1 the number of baselines (0..3, bits 0-1) and the
 * audience (bit 2: owner, else observer); then up to three length-prefixed payloads that build
 * the baselines (each read against the one before, so every baseline is a state a reader can
 * produce; an input gets one previous message, an rpc none), and the rest is the packet read
 * against them. Invariants: a read that fails leaves its destination as it was; one that
 * succeeds gives a state that writes, and whose bytes read back to the same state and write to
 * the same bytes again. ASan sees any read past the packet, which is copied to a heap block of
 * its exact size. Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined; replayed
 * in every test run by fuzz_reader_replay (tests/fuzz/fuzz_replay.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.ns.h"
#include "coll.ns.h"
#include "everything.ns.h"
#include "strkeys.ns.h"
#include "unions.ns.h"

#include "fuzz_records.h"

/* The records this target covers: every component and message of these schemas. */
static record pick_record(uint8_t i)
{
    static const ns_schema *const schemas[] = {&all_schema, &coll_schema, &strk_schema, &arr_schema, &un_schema};
    return pick_record_in(schemas, sizeof schemas / sizeof schemas[0], i);
}

/* Writes snap into a new heap block of the record's worst-case size; aborts if it cannot. */
static uint8_t *write_or_die(const record *k, const void *snap, const ns_baselines *b, ns_audience to, size_t *n)
{
    size_t cap = record_desc(k)->max_bits / 8 + 16;
    uint8_t *buf = (uint8_t *)malloc(cap);
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    if (record_write(k, &w, snap, b, to) != NS_OK || ns_writer_overflowed(&w)) abort(); /* read what cannot be written */
    *n = ns_writer_flush(&w);
    return buf;
}

/* A state read successfully must survive write, read, write unchanged. */
static void check_round_trip(const record *k, const void *got, void *scratch, const ns_baselines *b, ns_audience to)
{
    size_t size = record_desc(k)->snap_size, n1, n2;
    uint8_t *first = write_or_die(k, got, b, to, &n1);
    ns_reader r;
    ns_reader_init(&r, first, n1);
    memset(scratch, 0xa5, size);
    if (record_read(k, &r, scratch, b, to) != NS_OK) abort(); /* its own bytes do not read */
    if (k->component && !k->component->snap_equal(scratch, got)) abort();
    uint8_t *second = write_or_die(k, scratch, b, to, &n2);
    if (n1 != n2 || memcmp(first, second, n1) != 0) abort(); /* no round trip */
    free(first);
    free(second);
}

/* Builds up to three baselines, oldest first, each read (as owner) against the one before. */
static void build_baselines(const record *k, uint32_t nbase, uint8_t *const base[3], const uint8_t **data, size_t *size)
{
    for (uint32_t i = 0; i < nbase; i++) {
        size_t len;
        const uint8_t *p = payload(data, size, &len);
        ns_baselines b = {{i ? base[i - 1] : NULL, NULL, NULL}, {i, 0, 0}, i ? 1u : 0u, i + 1};
        ns_reader r;
        ns_reader_init(&r, p, len);
        if (record_read(k, &r, base[i], &b, NS_TO_OWNER) == NS_OK) continue;
        /* Not a valid payload: the baseline is the one before, or the defaults. */
        if (i) memcpy(base[i], base[i - 1], record_desc(k)->snap_size);
        else record_default(k, base[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    record k = pick_record(data[0]);
    size_t ssize = record_desc(&k)->snap_size;
    uint32_t nbase = data[1] & 3u;
    ns_audience to = (data[1] & 4u) ? NS_TO_OWNER : NS_TO_OBSERVER;
    data += 2, size -= 2;
    uint8_t *snaps = (uint8_t *)calloc(6, ssize);
    uint8_t *base[3] = {snaps, snaps + ssize, snaps + 2 * ssize};
    uint8_t *out = snaps + 3 * ssize, *before = snaps + 4 * ssize, *scratch = snaps + 5 * ssize;
    build_baselines(&k, nbase, base, &data, &size);
    ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nbase, 10};
    for (uint32_t i = 0; i < nbase; i++) b.snap[i] = base[nbase - 1 - i], b.tick[i] = 9 - i; /* newest first */
    memset(out, 0x5a, ssize);
    memcpy(before, out, ssize);
    uint8_t *packet = (uint8_t *)malloc(size ? size : 1);
    if (size) memcpy(packet, data, size);
    ns_reader r;
    ns_reader_init(&r, packet, size);
    if (record_read(&k, &r, out, &b, to) != NS_OK) {
        if (memcmp(out, before, ssize) != 0) abort(); /* a failed read changed its destination */
    } else {
        check_round_trip(&k, out, scratch, &b, to);
    }
    free(packet);
    free(snaps);
    return 0;
}
