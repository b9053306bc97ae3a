/* netschema/platform.h — the few compiler and byte-order helpers the inline fast paths need.
 * Names with a double underscore after ns_ (ns__, NS__) are internal: not part of the API. */
#ifndef NETSCHEMA_PLATFORM_H
#define NETSCHEMA_PLATFORM_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#  define NS__LIKELY(x)   __builtin_expect(!!(x), 1)
#  define NS__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#  define NS__LIKELY(x)   (x)
#  define NS__UNLIKELY(x) (x)
#endif

/* The hot primitives are forced inline: a writer or reader kept in a local variable only stays
 * in registers when every function it is passed to is inlined. Not in an unoptimized build
 * (-O0, where __OPTIMIZE__ is undefined): there nothing stays in registers anyway, and forced
 * inlining only makes a debug build of generated code several times slower to compile. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#  define NS__HOT static inline __attribute__((always_inline))
#else
#  define NS__HOT static inline
#endif

/* A compile-time check, in C11 and C++ alike: generated code is compiled as both. */
#ifdef __cplusplus
#  define NS__STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#  define NS__STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  define NS__LITTLE_ENDIAN 1
#elif defined(_M_IX86) || defined(_M_X64) || defined(_M_ARM64)
#  define NS__LITTLE_ENDIAN 1
#else
#  define NS__LITTLE_ENDIAN 0
#endif

/* Loads and stores 8 bytes little-endian; p need not be aligned. */
static inline uint64_t ns__load_le64(const uint8_t *p)
{
#if NS__LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
#endif
}

static inline void ns__store_le64(uint8_t *p, uint64_t v)
{
#if NS__LITTLE_ENDIAN
    memcpy(p, &v, 8);
#else
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* Number of significant bits of v: 0 for 0, 32 for values >= 2^31. */
static inline unsigned ns__bit_length32(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return v ? 32u - (unsigned)__builtin_clz(v) : 0u;
#else
    unsigned n = 0;
    while (v) { n++; v >>= 1; }
    return n;
#endif
}

/* Mask of the low n bits, n in 0..64. */
static inline uint64_t ns__mask64(unsigned n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* Reinterprets an unsigned value as the two's-complement signed value with the same bits,
 * without relying on implementation-defined conversions. Compiles to nothing. */
static inline int32_t ns__u32_as_i32(uint32_t u)
{
    return u <= 0x7fffffffu ? (int32_t)u : -(int32_t)(~u) - 1;
}

static inline int64_t ns__u64_as_i64(uint64_t u)
{
    return u <= 0x7fffffffffffffffu ? (int64_t)u : -(int64_t)(~u) - 1;
}

#endif
