/* test_roundtrip.c — randomized round-trips of mixed values through one stream, and reads of
 * every truncated prefix of an encoded sequence. */
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

typedef enum {
    OP_RAW, OP_RAW64, OP_BOOL, OP_PU32, OP_PI32, OP_PU64, OP_PI64,
    OP_DI32, OP_DU32, OP_DI64, OP_DU64, OP_VARINT, OP_BYTES, OP_KINDS
} op_kind;

typedef struct op {
    op_kind  kind;
    unsigned width;   /* bits for OP_RAW, length for OP_BYTES */
    uint64_t value;
    uint64_t ref;
} op;

static uint64_t spread64(ns_rng *rng)
{
    unsigned bits = (unsigned)ns_rng_below(rng, 65);
    return bits == 0 ? 0 : ns_rng_next(rng) >> (64 - bits);
}

static op random_op(ns_rng *rng)
{
    op o;
    o.kind = (op_kind)ns_rng_below(rng, OP_KINDS);
    o.width = 1 + (unsigned)ns_rng_below(rng, 32);
    o.value = spread64(rng);
    if (ns_rng_below(rng, 2)) o.value = 0 - o.value; /* negative as signed */
    o.ref = ns_rng_next(rng);
    if (o.kind == OP_RAW) o.value &= ns__mask64(o.width);
    if (o.kind == OP_BYTES) o.width = (unsigned)ns_rng_below(rng, 9);
    /* Deltas are usually small: make the value close to the reference. */
    if (o.kind >= OP_DI32 && o.kind <= OP_DU64 && ns_rng_below(rng, 4)) o.value = o.ref + (uint64_t)(int64_t)(int)ns_rng_below(rng, 200) - 100;
    if (o.kind == OP_DI32 || o.kind == OP_DU32 || o.kind == OP_PU32 || o.kind == OP_PI32) {
        o.value &= 0xffffffffu;
        o.ref &= 0xffffffffu;
    }
    return o;
}

static void write_op(ns_writer *w, const op *o)
{
    switch (o->kind) {
    case OP_RAW:    ns_write_bits(w, (uint32_t)o->value, o->width); break;
    case OP_RAW64:  ns_write_bits64(w, o->value); break;
    case OP_BOOL:   ns_write_bool(w, o->value & 1); break;
    case OP_PU32:   ns_write_packed_u32(w, (uint32_t)o->value, NULL); break;
    case OP_PI32:   ns_write_packed_i32(w, ns__u32_as_i32((uint32_t)o->value), NULL); break;
    case OP_PU64:   ns_write_packed_u64(w, o->value, NULL); break;
    case OP_PI64:   ns_write_packed_i64(w, ns__u64_as_i64(o->value), NULL); break;
    case OP_DI32:   ns_write_delta_i32(w, ns__u32_as_i32((uint32_t)o->value), ns__u32_as_i32((uint32_t)o->ref), NULL); break;
    case OP_DU32:   ns_write_delta_u32(w, (uint32_t)o->value, (uint32_t)o->ref, NULL); break;
    case OP_DI64:   ns_write_delta_i64(w, ns__u64_as_i64(o->value), ns__u64_as_i64(o->ref), NULL); break;
    case OP_DU64:   ns_write_delta_u64(w, o->value, o->ref, NULL); break;
    case OP_VARINT: ns_write_varint(w, o->value); break;
    case OP_BYTES:  ns_write_bytes(w, &o->value, o->width); break;
    case OP_KINDS:  break;
    }
}

/* Reads one op's value back (as the 64-bit pattern write_op started from). */
static uint64_t read_op(ns_reader *r, const op *o)
{
    switch (o->kind) {
    case OP_RAW:    return ns_read_bits(r, o->width);
    case OP_RAW64:  return ns_read_bits64(r);
    case OP_BOOL:   return ns_read_bool(r);
    case OP_PU32:   return ns_read_packed_u32(r, NULL);
    case OP_PI32:   return (uint32_t)ns_read_packed_i32(r, NULL);
    case OP_PU64:   return ns_read_packed_u64(r, NULL);
    case OP_PI64:   return (uint64_t)ns_read_packed_i64(r, NULL);
    case OP_DI32:   return (uint32_t)ns_read_delta_i32(r, ns__u32_as_i32((uint32_t)o->ref), NULL);
    case OP_DU32:   return ns_read_delta_u32(r, (uint32_t)o->ref, NULL);
    case OP_DI64:   return (uint64_t)ns_read_delta_i64(r, ns__u64_as_i64(o->ref), NULL);
    case OP_DU64:   return ns_read_delta_u64(r, o->ref, NULL);
    case OP_VARINT: return ns_read_varint(r);
    case OP_BYTES: {
        uint64_t v = 0;
        ns_read_bytes(r, &v, o->width);
        return v;
    }
    case OP_KINDS:  break;
    }
    return 0;
}

static uint64_t expected_value(const op *o)
{
    if (o->kind == OP_BOOL) return o->value & 1;
    if (o->kind == OP_BYTES) return o->width ? o->value & ns__mask64(8 * o->width) : 0;
    return o->value;
}

/* What a read returns once the reader has failed: every primitive reads 0, so a delta read
 * gives back its reference unchanged. */
static uint64_t value_after_failure(const op *o)
{
    switch (o->kind) {
    case OP_DI32: case OP_DU32: return o->ref & 0xffffffffu;
    case OP_DI64: case OP_DU64: return o->ref;
    default: return 0;
    }
}

#define OPS_PER_SEED 100000
#define SEEDS 10

START_TEST(million_mixed_values)
{
    op *ops = malloc(sizeof(op) * OPS_PER_SEED);
    size_t cap = (size_t)OPS_PER_SEED * 16;
    uint8_t *buf = malloc(cap);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        ns_rng rng = {seed * 7919};
        ns_writer w;
        ns_writer_init(&w, buf, cap);
        for (int i = 0; i < OPS_PER_SEED; i++) {
            ops[i] = random_op(&rng);
            write_op(&w, &ops[i]);
        }
        size_t used = ns_writer_flush(&w);
        ck_assert(!ns_writer_overflowed(&w));
        ns_reader r;
        ns_reader_init(&r, buf, used);
        for (int i = 0; i < OPS_PER_SEED; i++) {
            uint64_t got = read_op(&r, &ops[i]);
            NS_CHECK(got == expected_value(&ops[i]), "seed %u op %d kind %d: got %llx want %llx", (unsigned)seed, i,
                     ops[i].kind, (unsigned long long)got, (unsigned long long)expected_value(&ops[i]));
        }
        ck_assert(!ns_reader_failed(&r));
        ck_assert_uint_eq((ns_reader_bits(&r) + 7) / 8, used);
    }
    free(ops);
    free(buf);
}
END_TEST

START_TEST(every_truncated_prefix_fails_cleanly)
{
    enum { N = 300 };
    op ops[N];
    uint8_t full[N * 16];
    ns_rng rng = {2024};
    ns_writer w;
    ns_writer_init(&w, full, sizeof full);
    for (int i = 0; i < N; i++) {
        ops[i] = random_op(&rng);
        write_op(&w, &ops[i]);
    }
    size_t used = ns_writer_flush(&w);
    for (size_t len = 0; len < used; len++) {
        /* An exactly sized heap copy: reading one byte too far is an ASan error. */
        uint8_t *prefix = malloc(len ? len : 1);
        memcpy(prefix, full, len);
        ns_reader r;
        ns_reader_init(&r, prefix, len);
        bool failed = false;
        for (int i = 0; i < N; i++) {
            uint64_t got = read_op(&r, &ops[i]);
            if (!failed && ns_reader_failed(&r)) failed = true;
            if (failed)
                NS_CHECK(got == value_after_failure(&ops[i]), "len %zu op %d returned data after failing", len, i);
            else NS_CHECK(got == expected_value(&ops[i]), "len %zu op %d read wrong", len, i);
        }
        ck_assert_msg(failed, "prefix of %zu of %zu bytes was not detected", len, used);
        ck_assert(ns_reader_status(&r) == NS_ERR_TRUNCATED || ns_reader_status(&r) == NS_ERR_MALFORMED);
        free(prefix);
    }
}
END_TEST

static Suite *roundtrip_suite(void)
{
    Suite *s = suite_create("roundtrip");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, million_mixed_values);
    tcase_add_test(tc, every_truncated_prefix_fails_cleanly);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(roundtrip_suite)
