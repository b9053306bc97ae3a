/* netschema/bits.h — bounds-checked bit streams: ns_writer and ns_reader (docs/wire.md section 1,
 * docs/runtime.md "Bit streams").
 *
 * Bits are written least-significant first through a 64-bit accumulator into a caller-owned
 * buffer. The writer never stores a byte outside [buf, buf + capacity); the reader never loads a
 * byte outside [buf, buf + len). Errors are sticky: after the first one, every further read
 * returns 0 and every further write is dropped, so callers may check once at the end.
 *
 * Note for callers: while writing, the writer may store scratch bytes anywhere in the buffer
 * beyond the bytes used so far (never beyond capacity); only the bytes reported by
 * ns_writer_flush() are meaningful. */
#ifndef NETSCHEMA_BITS_H
#define NETSCHEMA_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "platform.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the codec primitives (bits.h, packed.h, codec.h) and generated hot functions are inlined.
 * By default an optimized build forces them inline (NS__HOT, platform.h), so that a generated
 * _write or _read is one straight function with the writer in registers; an unoptimized one
 * (-O0) leaves them to the compiler, which then calls them. A translation unit that defines
 * NS_CODEC_AUTO_INLINE before its first netschema include leaves the choice to the compiler:
 * its inliner then stays within its own budget for code growth, which keeps the build time of a
 * file with hundreds of components linear in their number (bench/bench_build.c measures it).
 * The bytes written are the same either way. */
#if defined(NS_CODEC_AUTO_INLINE)
#  undef NS__HOT
#  define NS__HOT static inline
#endif

/* A bit writer over a caller-owned buffer. Treat the members as private. A writer is a plain
 * value: a copy saves its position, and assigning the copy back rewinds to it, dropping what
 * was written since (bytes before the saved position are never touched again) — the way to
 * take back a record that did not fit in a datagram. */
typedef struct ns_writer {
    uint8_t  *buf;
    size_t    cap;      /* capacity in bytes */
    size_t    end8;     /* cap − 7, or 0 if cap < 8: a pos below it has room for an 8-byte store */
    size_t    pos;      /* whole bytes emitted; keeps counting past cap once overflowed */
    uint64_t  acc;      /* pending bits, least significant first */
    unsigned  nacc;     /* number of pending bits: 0..7 between calls */
    ns_status status;   /* NS_OK or the first error (NS_ERR_OVERFLOW) */
#ifdef NS_PROFILE
    struct ns_profile *profile; /* what generated writes count into (netschema/profile.h) */
#endif
} ns_writer;

/* A bit reader over a caller-owned buffer. Treat the members as private. */
typedef struct ns_reader {
    const uint8_t *buf;
    size_t    len;      /* length in bytes */
    size_t    end8;     /* len − 7, or 0 if len < 8: a pos below it has 8 bytes to load */
    size_t    pos;      /* bytes loaded into acc */
    uint64_t  acc;      /* loaded bits, least significant = next to read */
    unsigned  nacc;     /* number of loaded, unread bits */
    ns_status status;   /* NS_OK or the first error */
} ns_reader;

/* ---- writer ---------------------------------------------------------------------------- */

/* Every function here is inline except the writer's slow path at a buffer's end, which runs on
 * a copy: a writer or reader that lives in a local variable and is only handed to these
 * functions stays in registers, because the compiler can see that stores into the buffer never
 * touch it. Functions that take a caller's ns_writer * (generated _write functions) copy it to a
 * local first and store it back at the end, except those that write one ns_record (below): the
 * record holds the pending bits in registers, so they read the writer at its start and write it
 * at its end in place. */

/* Starts writing at the beginning of buf, which holds capacity bytes (buf may be NULL if 0). */
static inline void ns_writer_init(ns_writer *w, void *buf, size_t capacity)
{
    w->buf = (uint8_t *)buf;
    w->cap = buf ? capacity : 0;
    w->end8 = w->cap >= 8 ? w->cap - 7 : 0;
    w->pos = 0;
    w->acc = 0;
    w->nacc = 0;
    w->status = NS_OK;
#ifdef NS_PROFILE
    w->profile = NULL;
#endif
}

/* Slow path near the end of the buffer: moves whole pending bytes into it one by one. Bytes that
 * do not fit are counted but not stored, and the writer is marked overflowed. Out of line
 * (runtime/src/bits.c): it runs at most once per buffer end, and one copy of the loop serves
 * every inlined write instead of one per call site. */
void ns__writer_drain_slow(ns_writer *w);

/* Calls the slow path on a copy, so that the caller's writer never has its address taken and
 * stays in registers. */
static inline void ns__writer_drain(ns_writer *w)
{
    ns_writer t = *w;
    ns__writer_drain_slow(&t);
    *w = t;
}

/* Appends the low n bits of v (n <= 56). The internal primitive behind every write. */
NS__HOT void ns__writer_put(ns_writer *w, uint64_t v, unsigned n)
{
    uint64_t acc = w->acc | (v << w->nacc);
    unsigned nacc = w->nacc + n;
    /* One compare (end8 is 0 for a short buffer, so for one of known size the fast path is
     * provably dead). `cap >= 8 && pos <= cap - 8` compiled to two, and made the raw 32-bit
     * writes of bench_bits 12% slower. */
    if (NS__LIKELY(w->pos < w->end8)) {
        ns__store_le64(w->buf + w->pos, acc);
        w->pos += nacc >> 3;
        w->acc = acc >> (nacc & ~7u);
        w->nacc = nacc & 7u;
    } else {
        w->acc = acc;
        w->nacc = nacc;
        ns__writer_drain(w);
    }
}

/* Writes the low nbits (0..32) of value. */
NS__HOT void ns_write_bits(ns_writer *w, uint32_t value, unsigned nbits)
{
    /* The mask from a table: one load instead of a shift by a register and its set-up, which
     * measured in loops of raw writes (bench_bits); a constant nbits folds either way. Widths
     * past 32 keep all of value, as a shifted mask did. */
    static const uint32_t low[64] = {
        0x0u,        0x1u,        0x3u,        0x7u,        0xfu,        0x1fu,       0x3fu,       0x7fu,
        0xffu,       0x1ffu,      0x3ffu,      0x7ffu,      0xfffu,      0x1fffu,     0x3fffu,     0x7fffu,
        0xffffu,     0x1ffffu,    0x3ffffu,    0x7ffffu,    0xfffffu,    0x1fffffu,   0x3fffffu,   0x7fffffu,
        0xffffffu,   0x1ffffffu,  0x3ffffffu,  0x7ffffffu,  0xfffffffu,  0x1fffffffu, 0x3fffffffu, 0x7fffffffu,
        0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
        0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
        0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
        0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
    };
    ns__writer_put(w, value & low[nbits & 63u], nbits);
}

/* Writes all 64 bits of value. */
static inline void ns_write_bits64(ns_writer *w, uint64_t value)
{
    ns__writer_put(w, value & 0xffffffffu, 32);
    ns__writer_put(w, value >> 32, 32);
}

/* Writes one bit: 1 for true. */
NS__HOT void ns_write_bool(ns_writer *w, bool value)
{
    ns__writer_put(w, value ? 1u : 0u, 1);
}

/* Pads with zero bits up to the next byte boundary. */
static inline void ns_writer_align(ns_writer *w)
{
    if (w->nacc & 7u) {
        w->nacc = (w->nacc + 7u) & ~7u;
        ns__writer_drain(w);
    }
}

/* Aligns to a byte, then copies n bytes verbatim. */
static inline void ns_write_bytes(ns_writer *w, const void *data, size_t n)
{
    ns_writer_align(w);
    if (n == 0) return;
    if (w->pos <= w->cap && n <= w->cap - w->pos) memcpy(w->buf + w->pos, data, n);
    else w->status = NS_ERR_OVERFLOW;
    w->pos += n;
}

/* Pads to a byte; returns the bytes used in the buffer (never more than its capacity). */
static inline size_t ns_writer_flush(ns_writer *w)
{
    ns_writer_align(w);
    return w->pos < w->cap ? w->pos : w->cap;
}

/* Bits written so far. After an overflow it keeps counting, so it tells the size needed. */
static inline size_t ns_writer_bits(const ns_writer *w)
{
    return w->pos * 8 + w->nacc;
}

/* True once a write did not fit in the buffer. */
static inline bool ns_writer_overflowed(const ns_writer *w)
{
    return w->status != NS_OK;
}

/* NS_OK, or NS_ERR_OVERFLOW once a write did not fit. */
static inline ns_status ns_writer_status(const ns_writer *w)
{
    return w->status;
}

/* ---- records: one room check per record ----------------------------------------------- */

/* A generated _write whose record has a known worst size writes it through an ns_record: one
 * test for room at the start (ns_record_begin) instead of one per put. When the buffer has room
 * for the worst case plus the 8 bytes a 64-bit store touches, the record is written in place;
 * otherwise into the caller's scratch array (max_bytes + 8 bytes), which ns_record_end copies
 * out as ns_writer would have written it: bytes past the capacity counted, not stored, and the
 * writer overflowed. Either way the bytes and the writer's state are those of ns__writer_put. */
typedef struct ns_record {
    uint8_t *p;      /* where the next whole byte goes */
    uint64_t acc;    /* pending bits, least significant first */
    unsigned nacc;   /* 0..7 between puts */
    bool     spill;  /* writing into the scratch array */
} ns_record;

static inline ns_record ns_record_begin(const ns_writer *w, uint8_t *scratch, size_t max_bytes)
{
    ns_record r;
    r.spill = !(w->pos <= w->cap && w->cap - w->pos >= max_bytes + 8);
    r.p = r.spill ? scratch : w->buf + w->pos;
    r.acc = w->acc;
    r.nacc = w->nacc;
    return r;
}

/* Appends the low n bits of v (no bits above n; n <= 56): no test for room, the record has it. */
NS__HOT void ns_record_put(ns_record *r, uint64_t v, unsigned n)
{
    r->acc |= v << r->nacc;
    r->nacc += n;
    ns__store_le64(r->p, r->acc);
    r->p += r->nacc >> 3;
    r->acc >>= r->nacc & ~7u;
    r->nacc &= 7u;
}

NS__HOT void ns_record_bool(ns_record *r, bool value)
{
    ns_record_put(r, value ? 1u : 0u, 1);
}

/* Moves what the record wrote into the writer. */
static inline void ns_record_end(ns_writer *w, const ns_record *r, const uint8_t *scratch)
{
    if (!r->spill) {
        w->pos = (size_t)(r->p - w->buf);
    } else {
        for (const uint8_t *b = scratch; b < r->p; b++) {
            if (w->pos < w->cap) w->buf[w->pos] = *b;
            else w->status = NS_ERR_OVERFLOW;
            w->pos++;
        }
    }
    w->acc = r->acc;
    w->nacc = r->nacc;
}

/* ---- reader ---------------------------------------------------------------------------- */

/* Starts reading at the beginning of buf, which holds len bytes (buf may be NULL if 0). */
static inline void ns_reader_init(ns_reader *r, const void *buf, size_t len)
{
    r->buf = (const uint8_t *)buf;
    r->len = buf ? len : 0;
    r->end8 = r->len >= 8 ? r->len - 7 : 0;
    r->pos = 0;
    r->acc = 0;
    r->nacc = 0;
    r->status = NS_OK;
}

/* Slow path near the end of the buffer: loads the last bytes one by one. Out of line, like the
 * writer's: inlined into every read of a generated _read it cost gcc -O2 time in every
 * component (20 components: 11.4 s inlined, 9.6 s out of line, best of 3 interleaved builds),
 * and decode measured the same either way (bench_components; the reader is read in place, so
 * the call costs no copy). */
void ns__reader_refill_tail(ns_reader *r);

/* Marks the reader failed with status s (the first error wins) and returns 0. From then on
 * every read returns 0. Generated readers call it for range and consistency errors. */
static inline uint32_t ns_reader_fail(ns_reader *r, ns_status s)
{
    if (r->status == NS_OK) r->status = s;
    r->pos = r->len; /* drop everything: every later read finds no bits */
    r->acc = 0;
    r->nacc = 0;
    return 0;
}

/* Loads bits so that at least 56 are available, unless the buffer ends first. */
NS__HOT void ns__reader_refill(ns_reader *r)
{
    /* One compare; end8 is 0 for a short buffer, so for one of known size this is dead. */
    if (NS__LIKELY(r->pos < r->end8)) {
        r->acc |= ns__load_le64(r->buf + r->pos) << r->nacc;
        r->pos += (63u - r->nacc) >> 3;
        r->nacc |= 56u;
    } else {
        ns__reader_refill_tail(r);
    }
}

/* Reads nbits (1..32). Past the end of the buffer: fails with NS_ERR_TRUNCATED, returns 0. */
NS__HOT uint32_t ns_read_bits(ns_reader *r, unsigned nbits)
{
    if (NS__UNLIKELY(r->nacc < nbits)) {
        /* nacc < nbits <= 32 here: take 4 bytes more (an 8-byte load, counted as 4). The
         * constant step, where ns__reader_refill computes how many bytes fit, keeps the next
         * load's address off the chain of bit counts: raw 32-bit reads take 30% less time
         * (bench_bits). */
        if (NS__LIKELY(r->pos < r->end8)) {
            r->acc |= ns__load_le64(r->buf + r->pos) << r->nacc;
            r->pos += 4;
            r->nacc += 32;
        } else {
            ns__reader_refill_tail(r);
            if (r->nacc < nbits) return ns_reader_fail(r, NS_ERR_TRUNCATED);
        }
    }
    uint32_t v = (uint32_t)(r->acc & ((UINT64_C(1) << nbits) - 1u));
    r->acc >>= nbits;
    r->nacc -= nbits;
    return v;
}

/* Reads 64 bits, as written by ns_write_bits64 (0 if either half is missing). */
static inline uint64_t ns_read_bits64(ns_reader *r)
{
    uint64_t lo = ns_read_bits(r, 32);
    uint64_t hi = ns_read_bits(r, 32);
    return r->status != NS_OK ? 0 : lo | (hi << 32);
}

/* Reads one bit. */
NS__HOT bool ns_read_bool(ns_reader *r)
{
    /* Refilled as far as the buffer allows, not by ns_read_bits's 4 bytes: a run of bits, as in
     * a generated reader's change bits, then refills half as often (a branch that mispredicts).
     * Generated decode measured 3% faster this way (bench_components, -O3 -march=native). */
    if (NS__UNLIKELY(r->nacc == 0)) {
        ns__reader_refill(r);
        if (r->nacc == 0) return ns_reader_fail(r, NS_ERR_TRUNCATED) != 0;
    }
    const bool v = (r->acc & 1u) != 0;
    r->acc >>= 1;
    r->nacc -= 1;
    return v;
}

/* Skips to the next byte boundary. */
static inline void ns_reader_align(ns_reader *r)
{
    /* Drop the partial byte, then step back over the whole bytes still in the accumulator
     * (they are also in the buffer), leaving an empty accumulator at a byte boundary. */
    r->pos -= r->nacc >> 3;
    r->acc = 0;
    r->nacc = 0;
}

/* Aligns to a byte, then copies n bytes out. On error out is zero-filled. */
static inline void ns_read_bytes(ns_reader *r, void *out, size_t n)
{
    ns_reader_align(r);
    if (n == 0) return;
    if (n <= r->len && r->pos <= r->len - n) {
        memcpy(out, r->buf + r->pos, n);
        r->pos += n;
    } else {
        memset(out, 0, n);
        ns_reader_fail(r, NS_ERR_TRUNCATED);
    }
}

/* Bits consumed so far. */
static inline size_t ns_reader_bits(const ns_reader *r)
{
    return r->pos * 8 - r->nacc;
}

/* Bits left to read before the end of the buffer. */
static inline size_t ns_reader_remaining_bits(const ns_reader *r)
{
    return (r->len - r->pos) * 8 + r->nacc;
}

/* True once a read failed (truncated input, out-of-range or malformed value). */
static inline bool ns_reader_failed(const ns_reader *r)
{
    return r->status != NS_OK;
}

/* NS_OK, or the first error the reader met. */
static inline ns_status ns_reader_status(const ns_reader *r)
{
    return r->status;
}

#ifdef __cplusplus
}
#endif
#endif
