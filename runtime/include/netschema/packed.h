/* netschema/packed.h — zigzag, packed integers in a bucket model, and delta helpers (docs/wire.md section 1).
 *
 * An unsigned value is coded as a Huffman-coded bucket index followed by (value − bucket offset)
 * in the bucket's raw bits. The model is data (ns_model), so a trained model can replace the
 * default one. Signed values are zigzagged first; 64-bit values travel as two 32-bit halves,
 * low half first. Deltas are value − reference, computed with wrap-around, then zigzagged. */
#ifndef NETSCHEMA_PACKED_H
#define NETSCHEMA_PACKED_H

#include <stdbool.h>
#include <stdint.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_MODEL_BUCKETS 16
#define NS_MODEL_MAX_CODE_LEN 6

/* A packed-integer model: 16 buckets with their offsets, raw bits and prefix codes, plus the
 * tables the coder uses. Build one with ns_model_init(); never fill it by hand. */
typedef struct ns_model {
    uint32_t offset[NS_MODEL_BUCKETS];     /* first value of each bucket */
    uint64_t limit[NS_MODEL_BUCKETS];      /* one past the last value of each bucket */
    uint8_t  raw_bits[NS_MODEL_BUCKETS];   /* bits of (value − offset) */
    uint8_t  code_len[NS_MODEL_BUCKETS];   /* prefix code length, 1..6 */
    uint16_t code[NS_MODEL_BUCKETS];       /* canonical prefix code, bit-reversed (LSB first) */
    uint8_t  first_bucket[33];             /* lowest bucket holding a value of each bit length */
    uint32_t decode[64];                   /* 6-bit peek → NS__DECODE(bucket, code length, raw bits);
                                              NS__DECODE_NONE where no code matches */
    uint32_t encode_small[256];            /* v < 256 → its whole code (bits 0-15) and length (16-23) */
} ns_model;

/* A decode table entry holds everything the reader needs without a second dependent load:
 * bits 0-7 the total length (code + raw bits), 8-15 the code length, 16-19 the bucket. */
#define NS__DECODE(bucket, code_len, raw) \
    ((uint32_t)(bucket) << 16 | (uint32_t)(code_len) << 8 | ((uint32_t)(code_len) + (raw)))
#define NS__DECODE_NONE 0xffffffffu

/* The default model of docs/wire.md section 1 (Unity's published table). Never modified. */
extern const ns_model ns_default_model;

/* Builds a model from bucket raw-bit counts and prefix code lengths (canonical Huffman codes are
 * assigned in bucket order). Buckets must cover 0..2^32−1 and the lengths form a prefix code
 * of at most 6 bits; returns NS_ERR_ARGUMENT otherwise. */
ns_status ns_model_init(ns_model *m, const uint8_t raw_bits[NS_MODEL_BUCKETS],
                        const uint8_t code_len[NS_MODEL_BUCKETS]);

/* Bits that v costs in model m (m NULL: the default model). */
unsigned ns_packed_u32_cost(uint32_t v, const ns_model *m);

/* ---- zigzag ----------------------------------------------------------------------------- */

/* Zigzag: 0, −1, 1, −2, 2 → 0, 1, 2, 3, 4. */
static inline uint32_t ns_zigzag32(int32_t v)
{
    uint32_t u = (uint32_t)v;
    return (u << 1) ^ (0u - (u >> 31));
}

/* Inverse of ns_zigzag32. */
static inline int32_t ns_unzigzag32(uint32_t u)
{
    return ns__u32_as_i32((u >> 1) ^ (0u - (u & 1u)));
}

/* 64-bit zigzag. */
static inline uint64_t ns_zigzag64(int64_t v)
{
    uint64_t u = (uint64_t)v;
    return (u << 1) ^ (0u - (u >> 63));
}

/* Inverse of ns_zigzag64. */
static inline int64_t ns_unzigzag64(uint64_t u)
{
    return ns__u64_as_i64((u >> 1) ^ (0u - (u & 1u)));
}

/* ---- packed integers -------------------------------------------------------------------- */

NS__HOT unsigned ns__model_bucket(const ns_model *m, uint32_t v)
{
    unsigned b = m->first_bucket[ns__bit_length32(v)];
    while (v >= m->limit[b]) b++;
    return b;
}

/* Writes v in the packed model m (NULL: the default model). */
NS__HOT void ns_write_packed_u32(ns_writer *w, uint32_t v, const ns_model *m)
{
    if (!m) m = &ns_default_model;
    if (NS__LIKELY(v < 256)) {
        uint32_t e = m->encode_small[v];
        ns__writer_put(w, e & 0xffffu, e >> 16);
        return;
    }
    unsigned b = ns__model_bucket(m, v);
    unsigned len = m->code_len[b];
    uint64_t bits = m->code[b] | ((uint64_t)(v - m->offset[b]) << len);
    ns__writer_put(w, bits, len + m->raw_bits[b]);
}

/* Zigzags v, then writes it packed. */
NS__HOT void ns_write_packed_i32(ns_writer *w, int32_t v, const ns_model *m)
{
    ns_write_packed_u32(w, ns_zigzag32(v), m);
}

/* Writes a 64-bit value as two packed halves, low half first. */
static inline void ns_write_packed_u64(ns_writer *w, uint64_t v, const ns_model *m)
{
    ns_write_packed_u32(w, (uint32_t)v, m);
    ns_write_packed_u32(w, (uint32_t)(v >> 32), m);
}

/* Zigzags a 64-bit value, then writes it as two packed halves. */
static inline void ns_write_packed_i64(ns_writer *w, int64_t v, const ns_model *m)
{
    ns_write_packed_u64(w, ns_zigzag64(v), m);
}


/* Decodes one code of model m from the bits already in the reader's accumulator: the caller
 * has refilled, so that the longest code (38 bits) is there unless the buffer ends first. */
NS__HOT uint32_t ns__read_packed_buffered(ns_reader *r, const ns_model *m)
{
    uint32_t e = m->decode[r->acc & 63u];
    unsigned total = e & 0xffu, len = (e >> 8) & 0xffu, b = (e >> 16) & 0x0fu;
    if (NS__UNLIKELY(e == NS__DECODE_NONE || total > r->nacc))
        return ns_reader_fail(r, e == NS__DECODE_NONE ? NS_ERR_MALFORMED : NS_ERR_TRUNCATED);
    uint64_t raw = (r->acc & ((UINT64_C(1) << total) - 1u)) >> len;
    r->acc >>= total;
    r->nacc -= total;
    uint64_t v = m->offset[b] + raw;
    if (NS__UNLIKELY(v > 0xffffffffu)) return ns_reader_fail(r, NS_ERR_MALFORMED);
    return (uint32_t)v;
}

/* Reads a value written by ns_write_packed_u32 with the same model. */
NS__HOT uint32_t ns_read_packed_u32(ns_reader *r, const ns_model *m)
{
    if (!m) m = &ns_default_model;
    /* Refill on every call while 8 bytes remain: cheaper than a hard-to-predict branch on
     * the number of buffered bits, since codes have irregular lengths. */
    if (NS__LIKELY(r->pos < r->end8)) { /* end8: netschema/bits.h */
        r->acc |= ns__load_le64(r->buf + r->pos) << r->nacc;
        r->pos += (63u - r->nacc) >> 3;
        r->nacc |= 56u;
    } else if (r->nacc < 38) {
        ns__reader_refill_tail(r);
    }
    return ns__read_packed_buffered(r, m);
}

/* Reads a zigzagged packed value. */
NS__HOT int32_t ns_read_packed_i32(ns_reader *r, const ns_model *m)
{
    return ns_unzigzag32(ns_read_packed_u32(r, m));
}

/* Reads a 64-bit value written by ns_write_packed_u64 (0 if either half is missing). */
static inline uint64_t ns_read_packed_u64(ns_reader *r, const ns_model *m)
{
    uint64_t lo = ns_read_packed_u32(r, m);
    uint64_t hi = ns_read_packed_u32(r, m);
    return r->status != NS_OK ? 0 : lo | (hi << 32);
}

/* Reads a 64-bit value written by ns_write_packed_i64. */
static inline int64_t ns_read_packed_i64(ns_reader *r, const ns_model *m)
{
    return ns_unzigzag64(ns_read_packed_u64(r, m));
}

/* ---- deltas: value − reference (wrapping), zigzagged, packed ---------------------------- */

/* Writes zigzag(value − ref) packed; the subtraction wraps, so any pair round-trips. */
NS__HOT void ns_write_delta_i32(ns_writer *w, int32_t value, int32_t ref, const ns_model *m)
{
    ns_write_packed_u32(w, ns_zigzag32(ns__u32_as_i32((uint32_t)value - (uint32_t)ref)), m);
}

/* Reads a delta written by ns_write_delta_i32 and adds it to ref. */
NS__HOT int32_t ns_read_delta_i32(ns_reader *r, int32_t ref, const ns_model *m)
{
    return ns__u32_as_i32((uint32_t)ref + (uint32_t)ns_read_packed_i32(r, m));
}

/* Unsigned delta: the wrapped difference is coded as a signed delta. */
NS__HOT void ns_write_delta_u32(ns_writer *w, uint32_t value, uint32_t ref, const ns_model *m)
{
    ns_write_packed_u32(w, ns_zigzag32(ns__u32_as_i32(value - ref)), m);
}

/* Reads a delta written by ns_write_delta_u32 and adds it to ref. */
NS__HOT uint32_t ns_read_delta_u32(ns_reader *r, uint32_t ref, const ns_model *m)
{
    return ref + (uint32_t)ns_read_packed_i32(r, m);
}

/* 64-bit signed delta: zigzag(value − ref) as two packed halves. */
static inline void ns_write_delta_i64(ns_writer *w, int64_t value, int64_t ref, const ns_model *m)
{
    ns_write_packed_u64(w, ns_zigzag64(ns__u64_as_i64((uint64_t)value - (uint64_t)ref)), m);
}

/* Reads a delta written by ns_write_delta_i64 and adds it to ref. */
static inline int64_t ns_read_delta_i64(ns_reader *r, int64_t ref, const ns_model *m)
{
    return ns__u64_as_i64((uint64_t)ref + (uint64_t)ns_read_packed_i64(r, m));
}

/* 64-bit unsigned delta. */
static inline void ns_write_delta_u64(ns_writer *w, uint64_t value, uint64_t ref, const ns_model *m)
{
    ns_write_packed_u64(w, ns_zigzag64(ns__u64_as_i64(value - ref)), m);
}

/* Reads a delta written by ns_write_delta_u64 and adds it to ref. */
static inline uint64_t ns_read_delta_u64(ns_reader *r, uint64_t ref, const ns_model *m)
{
    return ref + (uint64_t)ns_read_packed_i64(r, m);
}

#ifdef __cplusplus
}
#endif
#endif
