/* fuzz_custom.c — libFuzzer target: any bytes through the generated readers of records with
 * extern fields (idl/SPEC.md "Custom types", docs/wire.md section 12.8), which call a user's
 * codec. Records: Paint, Brush, Stamp and the struct Look of tests/e2e/custom.netschema, with
 * the codec below (test_custom.c's, but a Tag read of 25 bits, over its @max_bits(20), marks the
 * value so the state shows it), and Chunk, Crafter and Reward of idl/examples/custom.netschema,
 * with that example's codec (idl/examples/custom_ext/voxel_codec.c).
 *
 * Input: byte 0 picks the record; byte 1 the number of baselines (0..3, bits 0-1), the audience
 * (bit 2: owner, else observer) and whether the destination is baseline 0 itself (bit 3); then
 * up to three length-prefixed payloads that build the baselines (tests/fuzz/fuzz_records.h),
 * and the rest is the packet. Invariants, each an abort:
 *   - a refused read returns an error, leaves the caller's reader failed with it, and leaves
 *     the destination byte for byte as it was;
 *   - a read never consumes past the packet (which sits in a heap block of its exact size, so
 *     ASan also sees a load past it);
 *   - a user read of more than @max_bits fails the record: no accepted state holds a marked Tag;
 *   - an accepted read consumed at most the record's MAX_BITS, and its state writes (within
 *     MAX_BITS) to bytes that read back to the same state.
 * Built by `make fuzz` with clang -fsanitize=fuzzer; replayed in every test run by
 * fuzz_custom_replay (tests/fuzz/fuzz_replay.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cust/custom.ns.h"
#include "voxel/custom.ns.h"

#include "fuzz_records.h"

/* ---- the user's codecs of tests/e2e/custom.netschema ------------------------------------------ */

/* Set in a Tag that was read from 25 bits: no accepted state may hold it. */
#define TAG_OVER_MAX_BITS 0x80000000u

/* Tint: one bit "color as the reference's", else 24 raw bits of color; then 2 bits of flags,
 * where 3 is refused. 27 bits at most, its @max_bits. */
ns_status cust_Tint_write(ns_writer *w, const cust_Tint *cur, const cust_Tint *ref)
{
    const bool same = cur->r == ref->r && cur->g == ref->g && cur->b == ref->b;
    ns_write_bool(w, same);
    if (!same) ns_write_raw(w, (uint64_t)cur->r << 16 | (uint64_t)cur->g << 8 | cur->b, 24);
    ns_write_raw(w, cur->flags & 3u, 2);
    return NS_OK;
}

ns_status cust_Tint_read(ns_reader *r, cust_Tint *out, const cust_Tint *ref)
{
    if (!ns_read_bool(r)) {
        uint32_t rgb = (uint32_t)ns_read_raw(r, 24);
        out->r = (uint8_t)(rgb >> 16), out->g = (uint8_t)(rgb >> 8), out->b = (uint8_t)rgb;
    } else {
        out->r = ref->r, out->g = ref->g, out->b = ref->b;
    }
    out->flags = (uint8_t)ns_read_raw(r, 2);
    return out->flags == 3 ? NS_ERR_MALFORMED : NS_OK;
}

bool cust_Tint_equal(const cust_Tint *a, const cust_Tint *b)
{
    return a->r == b->r && a->g == b->g && a->b == b->b && a->flags == b->flags;
}

/* Tag: 0 and 16 bits below 65536 (17 bits); 1 and 24 bits above (25 bits, over @max_bits(20),
 * so the generated write refuses it and the generated read must too). */
ns_status cust_Tag_write(ns_writer *w, const cust_Tag *cur, const cust_Tag *ref)
{
    (void)ref;
    const bool big = cur->n > 0xffffu;
    ns_write_bool(w, big);
    ns_write_raw(w, cur->n & 0xffffffu, big ? 24u : 16u);
    return NS_OK;
}

ns_status cust_Tag_read(ns_reader *r, cust_Tag *out, const cust_Tag *ref)
{
    (void)ref;
    const bool big = ns_read_bool(r);
    out->n = (uint32_t)ns_read_raw(r, big ? 24u : 16u);
    if (big) out->n |= TAG_OVER_MAX_BITS;
    return NS_OK;
}

bool cust_Tag_equal(const cust_Tag *a, const cust_Tag *b)
{
    return a->n == b->n;
}

/* ---- the records, behind one interface ------------------------------------------------------- */

typedef ns_status (*read_fn)(ns_reader *r, void *out, const ns_baselines *b, ns_audience to);
typedef ns_status (*write_fn)(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to);
typedef bool (*equal_fn)(const void *x, const void *y);
typedef bool (*over_fn)(const void *snap);

typedef struct custom_record {
    size_t      snap_size;
    unsigned    max_bits;     /* the record's <PREFIX>_<T>_MAX_BITS */
    const void *snap_default;
    read_fn     read;
    write_fn    write;
    equal_fn    equal;        /* _snap_equal */
    over_fn     over_max;     /* true when a state holds a user read of more than @max_bits; NULL
                                 when the codec cannot tell */
} custom_record;

/* A component reads against the baselines for the audience; an input against the newest
 * baseline as its previous input; an rpc against nothing; a struct against the newest baseline
 * or its defaults. */
#define COMPONENT(T)                                                                                  \
    static ns_status T##_rd(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                                 \
        return T##_read(r, (T##_snap *)out, b, to);                                                   \
    }                                                                                                 \
    static ns_status T##_wr(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)    \
    {                                                                                                 \
        return T##_write(w, (const T##_snap *)cur, b, to);                                            \
    }
#define INPUT(T)                                                                                      \
    static ns_status T##_rd(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                                 \
        (void)to;                                                                                     \
        return T##_read(r, (T##_snap *)out, b->count ? (const T##_snap *)b->snap[0] : NULL);          \
    }                                                                                                 \
    static ns_status T##_wr(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)    \
    {                                                                                                 \
        (void)to;                                                                                     \
        return T##_write(w, (const T##_snap *)cur, b->count ? (const T##_snap *)b->snap[0] : NULL);   \
    }
#define RPC(T)                                                                                        \
    static ns_status T##_rd(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                                 \
        (void)b, (void)to;                                                                            \
        return T##_read(r, (T##_snap *)out);                                                          \
    }                                                                                                 \
    static ns_status T##_wr(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)    \
    {                                                                                                 \
        (void)b, (void)to;                                                                            \
        return T##_write(w, (const T##_snap *)cur);                                                   \
    }
#define STRUCT(T)                                                                                     \
    static ns_status T##_rd(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                                 \
        (void)to;                                                                                     \
        return T##_read(r, (T##_snap *)out, b->count ? (const T##_snap *)b->snap[0] : &T##_snap_default); \
    }                                                                                                 \
    static ns_status T##_wr(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)    \
    {                                                                                                 \
        (void)to;                                                                                     \
        return T##_write(w, (const T##_snap *)cur, b->count ? (const T##_snap *)b->snap[0] : &T##_snap_default); \
    }
#define EQUAL(T)                                                                                      \
    static bool T##_eq(const void *x, const void *y)                                                  \
    {                                                                                                 \
        return T##_snap_equal((const T##_snap *)x, (const T##_snap *)y);                              \
    }
#define RECORD(T, MAX_BITS, OVER) {sizeof(T##_snap), MAX_BITS, &T##_snap_default, T##_rd, T##_wr, T##_eq, OVER}

COMPONENT(cust_Paint) EQUAL(cust_Paint)
INPUT(cust_Brush) EQUAL(cust_Brush)
RPC(cust_Stamp) EQUAL(cust_Stamp)
STRUCT(cust_Look) EQUAL(cust_Look)
COMPONENT(voxel_Chunk) EQUAL(voxel_Chunk)
COMPONENT(voxel_Crafter) EQUAL(voxel_Crafter)
RPC(voxel_Reward) EQUAL(voxel_Reward)

static bool paint_over_max(const void *snap)
{
    return (((const cust_Paint_snap *)snap)->tag.n & TAG_OVER_MAX_BITS) != 0;
}

static bool stamp_over_max(const void *snap)
{
    return (((const cust_Stamp_snap *)snap)->tag.n & TAG_OVER_MAX_BITS) != 0;
}

static const custom_record records[] = {
    RECORD(cust_Paint, CUST_PAINT_MAX_BITS, paint_over_max),
    RECORD(cust_Brush, CUST_BRUSH_MAX_BITS, NULL),
    RECORD(cust_Stamp, CUST_STAMP_MAX_BITS, stamp_over_max),
    RECORD(cust_Look, CUST_LOOK_MAX_BITS, NULL),
    RECORD(voxel_Chunk, VOXEL_CHUNK_MAX_BITS, NULL),
    RECORD(voxel_Crafter, VOXEL_CRAFTER_MAX_BITS, NULL),
    RECORD(voxel_Reward, VOXEL_REWARD_MAX_BITS, NULL),
};

/* ---- the invariants -------------------------------------------------------------------------- */

/* An accepted state: never one a read over @max_bits made; it writes within MAX_BITS to bytes
 * that read back (into garbage) to the same state. */
static void check_accepted(const custom_record *k, const void *got, void *scratch, const ns_baselines *b,
                           ns_audience to)
{
    if (k->over_max && k->over_max(got)) abort(); /* a user read over @max_bits was accepted */
    size_t cap = k->max_bits / 8 + 16;
    uint8_t *buf = (uint8_t *)malloc(cap);
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    if (k->write(&w, got, b, to) != NS_OK) abort(); /* read what cannot be written */
    if (ns_writer_bits(&w) > k->max_bits) abort();  /* wrote over MAX_BITS */
    size_t n = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    memset(scratch, 0xa5, k->snap_size);
    if (k->read(&r, scratch, b, to) != NS_OK) abort(); /* its own bytes do not read */
    if (!k->equal(scratch, got)) abort();             /* they read to another state */
    free(buf);
}

/* Builds up to three baselines, oldest first, each read (as owner) against the one before; a
 * payload that does not read leaves the one before, or the defaults. */
static void build_baselines(const custom_record *k, uint32_t nbase, uint8_t *const base[3], const uint8_t **data,
                            size_t *size)
{
    for (uint32_t i = 0; i < nbase; i++) {
        size_t len;
        const uint8_t *p = payload(data, size, &len);
        ns_baselines b = {{i ? base[i - 1] : NULL, NULL, NULL}, {i, 0, 0}, i ? 1u : 0u, i + 1};
        ns_reader r;
        ns_reader_init(&r, p, len);
        if (k->read(&r, base[i], &b, NS_TO_OWNER) == NS_OK) continue;
        memcpy(base[i], i ? base[i - 1] : k->snap_default, k->snap_size);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const custom_record *k = &records[data[0] % (sizeof records / sizeof records[0])];
    const size_t ssize = k->snap_size;
    const uint32_t nbase = data[1] & 3u;
    const ns_audience to = (data[1] & 4u) ? NS_TO_OWNER : NS_TO_OBSERVER;
    const bool into_base = (data[1] & 8u) && nbase > 0; /* out is baseline 0 (docs/wire.md section 8) */
    data += 2, size -= 2;
    uint8_t *snaps = (uint8_t *)calloc(7, ssize);
    uint8_t *base[3] = {snaps, snaps + ssize, snaps + 2 * ssize};
    uint8_t *out = snaps + 3 * ssize, *before = snaps + 4 * ssize, *scratch = snaps + 5 * ssize;
    uint8_t *newest = snaps + 6 * ssize; /* baseline 0 as it was, for the round trip */
    build_baselines(k, nbase, base, &data, &size);
    ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nbase, 10};
    for (uint32_t i = 0; i < nbase; i++) b.snap[i] = base[nbase - 1 - i], b.tick[i] = 9 - i; /* newest first */
    uint8_t *dest = out;
    if (into_base) {
        dest = base[nbase - 1];
        memcpy(newest, dest, ssize);
    } else {
        memset(out, 0x5a, ssize);
    }
    memcpy(before, dest, ssize);
    uint8_t *packet = (uint8_t *)malloc(size ? size : 1);
    if (size) memcpy(packet, data, size);
    ns_reader r;
    ns_reader_init(&r, packet, size);
    const ns_status st = k->read(&r, dest, &b, to);
    if (ns_reader_bits(&r) > 8 * size) abort(); /* consumed past the packet */
    if (st != NS_OK) {
        if (!ns_reader_failed(&r) || ns_reader_status(&r) != st) abort(); /* the reader does not say so */
        if (memcmp(dest, before, ssize) != 0) abort();                      /* a refused read changed it */
    } else {
        if (ns_reader_bits(&r) > k->max_bits) abort(); /* read more than any record can hold */
        if (into_base) { /* the round trip codes against the baseline the packet was read against */
            memcpy(out, dest, ssize);
            memcpy(dest, newest, ssize);
        }
        check_accepted(k, out, scratch, &b, to);
    }
    free(packet);
    free(snaps);
    return 0;
}
