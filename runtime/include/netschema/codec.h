/* netschema/codec.h — small checked building blocks that generated serializers call, so the
 * generated code stays short: clamps, range-checked delta reads, raw fields, smallest-three
 * codes. Every reader here returns the reference (or lo) and fails the reader instead of
 * producing a value outside the declared range. */
#ifndef NETSCHEMA_CODEC_H
#define NETSCHEMA_CODEC_H

#include <stdint.h>

#include "bits.h"
#include "packed.h"
#include "quant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* v limited to [lo, hi]. */
static inline int64_t ns_clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline uint64_t ns_clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The code of u in the default packed model (ns_default_model) and, in *len, its length, without
 * a branch on u: the bucket follows from u's bit length, and in the default model one bit length
 * spans at most two buckets (runtime/src/default_model.c), so one compare picks between them.
 * The general writer's `v < 256` shortcut is a coin toss for the branch predictor on moving
 * entities; this is not. */
NS__HOT uint64_t ns__default_code(uint32_t u, unsigned *len)
{
    const ns_model *m = &ns_default_model;
#if defined(__GNUC__) || defined(__clang__)
    /* 63 − clz as clz ^ 63 (equal for 0..63), which compilers fold into one bsr. 0 for 0. */
    const unsigned bits = (unsigned)__builtin_clzll((uint64_t)u << 1 | 1u) ^ 63u;
#else
    const unsigned bits = ns__bit_length32(u);
#endif
    unsigned b = m->first_bucket[bits];
    b += u >= m->limit[b];
    *len = (unsigned)m->code_len[b] + m->raw_bits[b];
    return m->code[b] | (uint64_t)(u - m->offset[b]) << m->code_len[b];
}

/* The default-model code of the delta value − ref (zigzagged; modulo 2^32, so it serves signed
 * and unsigned 32-bit slots alike) and its length in *len. */
NS__HOT uint64_t ns__delta_code(uint32_t value, uint32_t ref, unsigned *len)
{
    return ns__default_code(ns_zigzag32(ns__u32_as_i32(value - ref)), len);
}

/* A slot's change bit and, when it is set, the slot's (first) delta after it, as one code with
 * no branch: either a single 0 bit or 1 followed by the delta's code. *len gets its length. */
NS__HOT uint64_t ns__changed_delta_code(bool changed, uint32_t value, uint32_t ref, unsigned *len)
{
    const uint64_t code = ns__delta_code(value, ref, len);
    const uint64_t keep = 0u - (uint64_t)changed;
    *len = 1u + (*len & (unsigned)keep);
    return (code << 1 | 1u) & keep;
}

/* ns_write_delta_i32 / ns_write_delta_u32 in the default model, the same bits, branch-free. */
NS__HOT void ns_write_delta_i32_default(ns_writer *w, int32_t value, int32_t ref)
{
    unsigned len;
    const uint64_t code = ns__delta_code((uint32_t)value, (uint32_t)ref, &len);
    ns__writer_put(w, code, len);
}

NS__HOT void ns_write_delta_u32_default(ns_writer *w, uint32_t value, uint32_t ref)
{
    unsigned len;
    const uint64_t code = ns__delta_code(value, ref, &len);
    ns__writer_put(w, code, len);
}

/* A change bit and, when set, the delta: ns__changed_delta_code in one put. */
NS__HOT void ns_write_changed_delta_i32(ns_writer *w, bool changed, int32_t value, int32_t ref)
{
    unsigned len;
    const uint64_t code = ns__changed_delta_code(changed, (uint32_t)value, (uint32_t)ref, &len);
    ns__writer_put(w, code, len);
}

NS__HOT void ns_write_changed_delta_u32(ns_writer *w, bool changed, uint32_t value, uint32_t ref)
{
    unsigned len;
    const uint64_t code = ns__changed_delta_code(changed, value, ref, &len);
    ns__writer_put(w, code, len);
}

/* The same codes into an ns_record (bits.h): no test for room per value. */
NS__HOT void ns_record_delta_i32(ns_record *r, int32_t value, int32_t ref)
{
    unsigned len;
    const uint64_t code = ns__delta_code((uint32_t)value, (uint32_t)ref, &len);
    ns_record_put(r, code, len);
}

NS__HOT void ns_record_delta_u32(ns_record *r, uint32_t value, uint32_t ref)
{
    unsigned len;
    const uint64_t code = ns__delta_code(value, ref, &len);
    ns_record_put(r, code, len);
}

NS__HOT void ns_record_changed_delta_i32(ns_record *r, bool changed, int32_t value, int32_t ref)
{
    unsigned len;
    const uint64_t code = ns__changed_delta_code(changed, (uint32_t)value, (uint32_t)ref, &len);
    ns_record_put(r, code, len);
}

NS__HOT void ns_record_changed_delta_u32(ns_record *r, bool changed, uint32_t value, uint32_t ref)
{
    unsigned len;
    const uint64_t code = ns__changed_delta_code(changed, value, ref, &len);
    ns_record_put(r, code, len);
}

/* Reads a delta written by ns_write_delta_i32; a result outside [lo, hi] fails the reader with
 * NS_ERR_RANGE and gives ref. */
NS__HOT int32_t ns_read_delta_i32_in(ns_reader *r, int32_t ref, int32_t lo, int32_t hi)
{
    int32_t v = ns_read_delta_i32(r, ref, NULL);
    if (NS__UNLIKELY(v < lo || v > hi)) return ns_reader_fail(r, NS_ERR_RANGE), ref;
    return v;
}

/* A change bit and, when it is set, a delta in the default model (ns_read_bool, then
 * ns_read_delta_i32_in when the bit is 1: the same bits, the same value, the same errors) with
 * one refill instead of two: after ns__reader_refill the bit and the longest code (38 bits) are
 * both in the accumulator. Returns ref when the bit is 0; on error fails the reader and returns
 * ref. */
NS__HOT int32_t ns_read_changed_delta_i32_in(ns_reader *r, int32_t ref, int32_t lo, int32_t hi)
{
    ns__reader_refill(r);
    if (NS__UNLIKELY(r->nacc == 0)) return (void)ns_reader_fail(r, NS_ERR_TRUNCATED), ref;
    const bool changed = (r->acc & 1u) != 0;
    r->acc >>= 1;
    r->nacc -= 1;
    if (!changed) return ref;
    /* As ns_read_delta_i32_in: a failed decode gives 0, so v is ref, which is returned. */
    const int32_t v = ns__u32_as_i32((uint32_t)ref + (uint32_t)ns_unzigzag32(ns__read_packed_buffered(r, &ns_default_model)));
    if (NS__UNLIKELY(v < lo || v > hi)) return (void)ns_reader_fail(r, NS_ERR_RANGE), ref;
    return v;
}

NS__HOT uint32_t ns_read_delta_u32_in(ns_reader *r, uint32_t ref, uint32_t lo, uint32_t hi)
{
    uint32_t v = ns_read_delta_u32(r, ref, NULL);
    if (NS__UNLIKELY(v < lo || v > hi)) return ns_reader_fail(r, NS_ERR_RANGE), ref;
    return v;
}

static inline int64_t ns_read_delta_i64_in(ns_reader *r, int64_t ref, int64_t lo, int64_t hi)
{
    int64_t v = ns_read_delta_i64(r, ref, NULL);
    if (NS__UNLIKELY(v < lo || v > hi)) return ns_reader_fail(r, NS_ERR_RANGE), ref;
    return v;
}

static inline uint64_t ns_read_delta_u64_in(ns_reader *r, uint64_t ref, uint64_t lo, uint64_t hi)
{
    uint64_t v = ns_read_delta_u64(r, ref, NULL);
    if (NS__UNLIKELY(v < lo || v > hi)) return ns_reader_fail(r, NS_ERR_RANGE), ref;
    return v;
}

/* Writes the low `bits` (0..64) of v. */
static inline void ns_write_raw(ns_writer *w, uint64_t v, unsigned bits)
{
    if (bits > 32) {
        ns__writer_put(w, v & 0xffffffffu, 32);
        ns__writer_put(w, (v >> 32) & ns__mask64(bits - 32), bits - 32);
    } else if (bits) {
        ns__writer_put(w, v & ns__mask64(bits), bits);
    }
}

static inline uint64_t ns_read_raw(ns_reader *r, unsigned bits)
{
    if (bits > 32) {
        uint64_t lo = ns_read_bits(r, 32);
        return lo | ((uint64_t)ns_read_bits(r, bits - 32) << 32);
    }
    return bits ? ns_read_bits(r, bits) : 0;
}

/* A raw field holds value − lo; the value must not pass hi. */
static inline int64_t ns_read_raw_i64(ns_reader *r, unsigned bits, int64_t lo, int64_t hi)
{
    uint64_t raw = ns_read_raw(r, bits);
    if (NS__UNLIKELY(raw > (uint64_t)hi - (uint64_t)lo)) return ns_reader_fail(r, NS_ERR_RANGE), lo;
    return ns__u64_as_i64((uint64_t)lo + raw);
}

static inline uint64_t ns_read_raw_u64(ns_reader *r, unsigned bits, uint64_t lo, uint64_t hi)
{
    uint64_t raw = ns_read_raw(r, bits);
    if (NS__UNLIKELY(raw > hi - lo)) return ns_reader_fail(r, NS_ERR_RANGE), lo;
    return lo + raw;
}

/* True if every component code of a smallest-three value is one the encoder makes. */
static inline bool ns_smallest3_valid(uint64_t packed, unsigned bits)
{
    uint64_t unused = ns__mask64(bits);
    for (unsigned i = 0; i < 3; i++)
        if (((packed >> (2 + i * bits)) & unused) == unused) return false;
    return packed >> NS_SMALLEST3_BITS(bits) == 0;
}

/* Reads a smallest-three code (as packed by ns_smallest3_pack); an unused code is malformed. */
static inline uint64_t ns_read_smallest3_packed(ns_reader *r, unsigned bits)
{
    uint64_t packed = ns_read_raw(r, NS_SMALLEST3_BITS(bits));
    if (NS__UNLIKELY(!ns_smallest3_valid(packed, bits))) return ns_reader_fail(r, NS_ERR_MALFORMED), 0;
    return packed;
}

#ifdef __cplusplus
}
#endif
#endif
