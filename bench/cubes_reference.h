/* cubes_reference.h — the in-project yardstick for the cubes bandwidth challenge
 * (examples/cubes): our own implementation, written from the description in Glenn Fiedler's
 * "Snapshot Compression" article, of the hand-tuned bit-packed delta encoder the article ends
 * with. Every netschema figure of `cubes encode` is a ratio to this encoder on the same frames.
 *
 * One packet codes the 901 cubes of a frame against one baseline frame (the challenge: frame
 * i against frame i-6). See cubes_reference.c for the exact bit layout. */
#ifndef CUBES_REFERENCE_H
#define CUBES_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#define CREF_CUBES 901
#define CREF_MAX_BYTES 16384 /* more than the worst packet (901 cubes, every field absolute) */

/* One cube as the challenge's frame format stores it: 8 int32 in this order. */
typedef struct cref_cube {
    int32_t largest;            /* 0..3: index of the largest quaternion component */
    int32_t a, b, c;            /* 0..511: the other three, smallest-three at 9 bits */
    int32_t x, y;               /* -16383..16383: position at 512 units per metre */
    int32_t z;                  /* 0..8191 */
    int32_t interacting;        /* 0 or 1 */
} cref_cube;

/* Where the bits of the packets went (summed over every call that passes it). */
typedef struct cref_stats {
    uint64_t index_bits;        /* mode bit, changed bits or count and relative indices */
    uint64_t flag_bits;         /* per changed cube: interacting, which of orientation/position */
    uint64_t orientation_bits;
    uint64_t position_bits;
} cref_stats;

/* Encodes cur against base into buf (cap bytes). Returns the packet size in bytes, or 0 if it
 * does not fit. st may be NULL. */
size_t cref_encode(const cref_cube *cur, const cref_cube *base, uint8_t *buf, size_t cap, cref_stats *st);

/* Decodes a packet of cref_encode against the same base into out. Returns 0, or -1 if the
 * packet is truncated or malformed. */
int cref_decode(const uint8_t *buf, size_t len, const cref_cube *base, cref_cube *out);

#endif
