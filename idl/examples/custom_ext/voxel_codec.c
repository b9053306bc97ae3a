/* voxel_codec.c — the user's codecs of custom.netschema's extern structs (idl/SPEC.md, "Custom
 * types"; the bits are the user's, docs/wire.md section 12.8). Each _read starts with *out equal
 * to *ref, reads only through the bounds-checked reader, and need not count its bits: the
 * generated reader refuses a read of more than @max_bits as malformed. */
#include "custom.ns.h"

/* ---- Brick: 0, then (1, 6-bit index) per flipped voxel in increasing order and a 0; or 1 and
 * the 64 bits. The list costs 7k + 2 bits for k flips, so the writer sends it up to 9 flips. ---- */

ns_status voxel_Brick_write(ns_writer *w, const voxel_Brick *cur, const voxel_Brick *ref)
{
    const uint64_t diff = cur->solid ^ ref->solid;
    unsigned flips = 0;
    for (uint64_t d = diff; d; d &= d - 1) flips++;
    const bool raw = 7u * flips + 2u > 65u;
    ns_write_bool(w, raw);
    if (raw) {
        ns_write_bits64(w, cur->solid);
        return NS_OK;
    }
    for (uint32_t i = 0; i < 64; i++) {
        if (!(diff >> i & 1u)) continue;
        ns_write_bool(w, true);
        ns_write_bits(w, i, 6);
    }
    ns_write_bool(w, false);
    return NS_OK;
}

ns_status voxel_Brick_read(ns_reader *r, voxel_Brick *out, const voxel_Brick *ref)
{
    (void)ref; /* *out starts as *ref: the list flips voxels of it */
    if (ns_read_bool(r)) {
        out->solid = ns_read_bits64(r);
        return NS_OK;
    }
    /* Ten flips or more take over 65 bits, which the generated reader refuses; past the end of
     * the buffer ns_read_bool returns false, so the loop always ends. */
    int last = -1;
    while (ns_read_bool(r)) {
        const int i = (int)ns_read_bits(r, 6);
        if (i <= last) return NS_ERR_MALFORMED; /* out of order or twice: no writer sends that */
        out->solid ^= UINT64_C(1) << i;
        last = i;
    }
    return NS_OK;
}

bool voxel_Brick_equal(const voxel_Brick *a, const voxel_Brick *b)
{
    return a->solid == b->solid;
}

/* ---- Recipes: 0 and a 7-bit n when exactly recipes 0..n-1 are unlocked; else 1 and the 64
 * bits. Coded without the reference: a reward or a resync is the whole set. ---- */

/* The set of the first n recipes (n is 0..64). */
static uint64_t first_recipes(unsigned n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1u;
}

ns_status voxel_Recipes_write(ns_writer *w, const voxel_Recipes *cur, const voxel_Recipes *ref)
{
    (void)ref;
    unsigned n = 0;
    for (uint64_t b = cur->bits; b; b &= b - 1) n++;
    const bool raw = cur->bits != first_recipes(n);
    ns_write_bool(w, raw);
    if (raw) ns_write_bits64(w, cur->bits);
    else ns_write_bits(w, n, 7);
    return NS_OK;
}

ns_status voxel_Recipes_read(ns_reader *r, voxel_Recipes *out, const voxel_Recipes *ref)
{
    (void)ref;
    if (ns_read_bool(r)) {
        out->bits = ns_read_bits64(r);
        return NS_OK;
    }
    const uint32_t n = ns_read_bits(r, 7);
    if (n > 64) return NS_ERR_MALFORMED; /* there are 64 recipes */
    out->bits = first_recipes(n);
    return NS_OK;
}

bool voxel_Recipes_equal(const voxel_Recipes *a, const voxel_Recipes *b)
{
    return a->bits == b->bits;
}
