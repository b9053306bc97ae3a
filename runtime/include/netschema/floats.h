/* netschema/floats.h — unquantized floats on the wire: the bit pattern XOR-coded against the
 * reference (Gorilla-style). x = cur ^ ref; then 5 bits of leading zeros of x, 5 bits of
 * (length − 1), and the `length` meaningful bits of x (f64: 6 + 6 bits of header).
 *
 * Measured against plain 32 raw bits on realistic series (bench/bench_floats.c): 23.4 bits per
 * changed f32 on average instead of 32 (positions 21.6, gameplay values 13.6, unit directions
 * 27.4); the worst case is 42 bits. A selector bit choosing raw or XOR per value averaged 24.3,
 * so the plain XOR form is the one we use. Floats travel as bit patterns (uint32_t/uint64_t) so
 * every value, NaN payloads and −0 included, round-trips exactly. */
#ifndef NETSCHEMA_FLOATS_H
#define NETSCHEMA_FLOATS_H

#include <stdint.h>
#include <string.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_F32_XOR_MAX_BITS 42u  /* one changed f32 */
#define NS_F64_XOR_MAX_BITS 76u  /* one changed f64 */

/* Bit pattern of a float, and back. */
static inline uint32_t ns_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float ns_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint64_t ns_f64_bits(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline double ns_f64_from_bits(uint64_t u)
{
    double f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline unsigned ns__clz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? (unsigned)__builtin_clzll(x) : 64u;
#else
    unsigned n = 0;
    while (n < 64 && !(x & (UINT64_C(1) << (63 - n)))) n++;
    return n;
#endif
}

static inline unsigned ns__ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? (unsigned)__builtin_ctzll(x) : 64u;
#else
    unsigned n = 0;
    while (n < 64 && !(x & (UINT64_C(1) << n))) n++;
    return n;
#endif
}

/* Writes a changed f32 (cur != ref) XOR-coded against ref. */
static inline void ns_write_f32_xor(ns_writer *w, uint32_t cur, uint32_t ref)
{
    uint64_t x = cur ^ ref;
    unsigned lz = ns__clz64(x) - 32u, tz = ns__ctz64(x);
    unsigned len = 32u - lz - (tz > 31u ? 31u : tz);
    ns__writer_put(w, lz | ((uint64_t)(len - 1u) << 5) | ((x >> (32u - lz - len)) << 10), 10u + len);
}

/* Reads a changed f32 written by ns_write_f32_xor; NS_ERR_MALFORMED if the header is impossible
 * or the value equals the reference. */
static inline uint32_t ns_read_f32_xor(ns_reader *r, uint32_t ref)
{
    uint32_t head = ns_read_bits(r, 10);
    unsigned lz = head & 31u, len = (head >> 5) + 1u;
    if (lz + len > 32u) return ns_reader_fail(r, NS_ERR_MALFORMED), ref;
    uint32_t x = ns_read_bits(r, len);
    if (ns_reader_failed(r)) return ref;
    /* The meaningful bits start and end with a 1: anything else is not the encoding we write. */
    if (!(x >> (len - 1u)) || !(x & 1u)) return ns_reader_fail(r, NS_ERR_MALFORMED), ref;
    return ref ^ (x << (32u - lz - len));
}

/* Writes one bit (changed?) and, if changed, the XOR code: for vector components and composite
 * struct members, which have no change-mask bit of their own. */
static inline void ns_write_f32_delta(ns_writer *w, uint32_t cur, uint32_t ref)
{
    ns_write_bool(w, cur != ref);
    if (cur != ref) ns_write_f32_xor(w, cur, ref);
}

static inline uint32_t ns_read_f32_delta(ns_reader *r, uint32_t ref)
{
    return ns_read_bool(r) ? ns_read_f32_xor(r, ref) : ref;
}

/* The f64 forms: 6 bits of leading zeros, 6 bits of (length − 1). */
static inline void ns_write_f64_xor(ns_writer *w, uint64_t cur, uint64_t ref)
{
    uint64_t x = cur ^ ref;
    unsigned lz = ns__clz64(x), tz = ns__ctz64(x);
    unsigned len = 64u - lz - (tz > 63u ? 63u : tz);
    uint64_t meaningful = x >> (64u - lz - len);
    ns__writer_put(w, lz | ((uint64_t)(len - 1u) << 6), 12u);
    if (len > 32u) {
        ns__writer_put(w, meaningful & 0xffffffffu, 32u);
        ns__writer_put(w, meaningful >> 32, len - 32u);
    } else {
        ns__writer_put(w, meaningful, len);
    }
}

static inline uint64_t ns_read_f64_xor(ns_reader *r, uint64_t ref)
{
    uint32_t head = ns_read_bits(r, 12);
    unsigned lz = head & 63u, len = (head >> 6) + 1u;
    if (lz + len > 64u) return ns_reader_fail(r, NS_ERR_MALFORMED), ref;
    uint64_t x = len > 32u ? ns_read_bits(r, 32) | ((uint64_t)ns_read_bits(r, len - 32u) << 32)
                           : ns_read_bits(r, len);
    if (ns_reader_failed(r)) return ref;
    if (!(x >> (len - 1u)) || !(x & 1u)) return ns_reader_fail(r, NS_ERR_MALFORMED), ref;
    return ref ^ (x << (64u - lz - len));
}

static inline void ns_write_f64_delta(ns_writer *w, uint64_t cur, uint64_t ref)
{
    ns_write_bool(w, cur != ref);
    if (cur != ref) ns_write_f64_xor(w, cur, ref);
}

static inline uint64_t ns_read_f64_delta(ns_reader *r, uint64_t ref)
{
    return ns_read_bool(r) ? ns_read_f64_xor(r, ref) : ref;
}

#ifdef __cplusplus
}
#endif
#endif
