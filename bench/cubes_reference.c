/* cubes_reference.c — the hand-tuned cube encoder of Glenn Fiedler's "Snapshot Compression"
 * article, re-implemented from the article's description as the yardstick of the cubes
 * challenge (see cubes_reference.h). Hand-written bit fiddling on purpose: this is what a
 * schema-driven encoder has to beat.
 *
 * Packet layout (bits MSB first, packet = whole bytes):
 *   1 bit mode. 0: one changed bit per cube. 1: 10-bit count of changed cubes, then for each
 *     changed cube its index relative to the previous one (d = index - previous, previous = -1 at first):
 *     d in 1..8: 1 + 3 bits; 9..40: 01 + 5 bits; else 00 + 10 bits (d - 41). The encoder
 *     mock-encodes both and keeps the smaller ("relative index", avg. 5.5 bits in the article).
 *   Then per changed cube, in index order (the at-rest rule: a cube equal to its baseline, which is what a cube at
 *   rest is, costs only its changed bit or nothing in index mode):
 *     1 bit interacting;
 *     1 bit "orientation and position both changed"; if not, 1 bit "orientation changed"; if
 *       not, 1 bit "position changed" (the article's two change bits, which are nearly
 *       mutually exclusive there);
 *     orientation, delta-coded smallest-three: 1 bit "same largest index and every delta in
 *       -128..127", then per component 1 bit small + 5 bits (-16..15) or 0 + 8 bits
 *       (-128..127) — the article's "5-8" split; otherwise 2 + 3 x 9 bits absolute;
 *     position, relative: 1 bit "every delta in -256..255", then per component 1 bit small + 5
 *       bits (-16..15) or 0 + 9 bits (-256..255); otherwise absolute 15 + 15 + 13 bits. */
#include "cubes_reference.h"

#include <string.h>

typedef struct bitw {
    uint8_t *buf;
    size_t   cap, bits;
    int      overflow;
} bitw;

static void put(bitw *w, uint32_t v, unsigned n)
{
    for (unsigned i = n; i-- > 0;) {
        size_t byte = w->bits >> 3;
        if (byte >= w->cap) {
            w->overflow = 1;
            return;
        }
        unsigned bit = (unsigned)(7u - (w->bits & 7u));
        if ((v >> i) & 1u) w->buf[byte] = (uint8_t)(w->buf[byte] | (1u << bit));
        w->bits++;
    }
}

typedef struct bitr {
    const uint8_t *buf;
    size_t         len, bits;
    int            fail;
} bitr;

static uint32_t get(bitr *r, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        size_t byte = r->bits >> 3;
        if (byte >= r->len) {
            r->fail = 1;
            return 0;
        }
        v = (v << 1) | ((uint32_t)(r->buf[byte] >> (7u - (r->bits & 7u))) & 1u);
        r->bits++;
    }
    return v;
}

static int changed(const cref_cube *a, const cref_cube *b)
{
    return memcmp(a, b, sizeof *a) != 0;
}

static int orient_changed(const cref_cube *a, const cref_cube *b)
{
    return a->largest != b->largest || a->a != b->a || a->b != b->b || a->c != b->c;
}

static int pos_changed(const cref_cube *a, const cref_cube *b)
{
    return a->x != b->x || a->y != b->y || a->z != b->z;
}

static unsigned index_bits(uint32_t d)
{
    return d <= 8 ? 4u : d <= 40 ? 7u : 12u;
}

static void put_index(bitw *w, uint32_t d)
{
    if (d <= 8) put(w, 8u | (d - 1u), 4);
    else if (d <= 40) put(w, 32u | (d - 9u), 7);
    else put(w, d - 41u, 12);
}

static int in(int32_t v, int32_t lo, int32_t hi)
{
    return v >= lo && v <= hi;
}

static void put_small_large(bitw *w, int32_t d, unsigned large_bits)
{
    if (in(d, -16, 15)) put(w, 32u | (uint32_t)(d + 16), 6);
    else put(w, (uint32_t)(d + (1 << (large_bits - 1))), 1 + large_bits);
}

static void put_orientation(bitw *w, const cref_cube *c, const cref_cube *b)
{
    int32_t d[3] = {c->a - b->a, c->b - b->b, c->c - b->c};
    if (c->largest == b->largest && in(d[0], -128, 127) && in(d[1], -128, 127) && in(d[2], -128, 127)) {
        put(w, 1, 1);
        for (int k = 0; k < 3; k++) put_small_large(w, d[k], 8);
    } else {
        put(w, 0, 1);
        put(w, (uint32_t)c->largest, 2);
        put(w, (uint32_t)c->a, 9);
        put(w, (uint32_t)c->b, 9);
        put(w, (uint32_t)c->c, 9);
    }
}

static void put_position(bitw *w, const cref_cube *c, const cref_cube *b)
{
    int32_t d[3] = {c->x - b->x, c->y - b->y, c->z - b->z};
    if (in(d[0], -256, 255) && in(d[1], -256, 255) && in(d[2], -256, 255)) {
        put(w, 1, 1);
        for (int k = 0; k < 3; k++) put_small_large(w, d[k], 9);
    } else {
        put(w, 0, 1);
        put(w, (uint32_t)(c->x + 16383), 15);
        put(w, (uint32_t)(c->y + 16383), 15);
        put(w, (uint32_t)c->z, 13);
    }
}

size_t cref_encode(const cref_cube *cur, const cref_cube *base, uint8_t *buf, size_t cap, cref_stats *st)
{
    memset(buf, 0, cap);
    bitw w = {buf, cap, 0, 0};
    uint32_t count = 0, index_cost = 1 + 10;
    int32_t prev = -1;
    for (int32_t i = 0; i < CREF_CUBES; i++)
        if (changed(&cur[i], &base[i])) {
            index_cost += index_bits((uint32_t)(i - prev));
            prev = i;
            count++;
        }
    int use_index = index_cost < 1 + CREF_CUBES;
    put(&w, (uint32_t)use_index, 1);
    if (use_index) {
        put(&w, count, 10);
        prev = -1;
        for (int32_t i = 0; i < CREF_CUBES; i++)
            if (changed(&cur[i], &base[i])) {
                put_index(&w, (uint32_t)(i - prev));
                prev = i;
            }
    } else {
        for (int i = 0; i < CREF_CUBES; i++) put(&w, (uint32_t)changed(&cur[i], &base[i]), 1);
    }
    cref_stats s = {w.bits, 0, 0, 0};
    size_t before = w.bits;
    for (int32_t i = 0; i < CREF_CUBES; i++) {
        const cref_cube *c = &cur[i], *b = &base[i];
        if (!changed(c, b)) continue;
        int oc = orient_changed(c, b), pc = pos_changed(c, b);
        put(&w, (uint32_t)c->interacting, 1);
        put(&w, (uint32_t)(oc && pc), 1);
        if (!(oc && pc)) {
            put(&w, (uint32_t)oc, 1);
            if (!oc) put(&w, (uint32_t)pc, 1);
        }
        s.flag_bits += w.bits - before, before = w.bits;
        if (oc) put_orientation(&w, c, b);
        s.orientation_bits += w.bits - before, before = w.bits;
        if (pc) put_position(&w, c, b);
        s.position_bits += w.bits - before, before = w.bits;
    }
    if (w.overflow) return 0;
    if (st) {
        st->index_bits += s.index_bits;
        st->flag_bits += s.flag_bits;
        st->orientation_bits += s.orientation_bits;
        st->position_bits += s.position_bits;
    }
    return (w.bits + 7) / 8;
}

static int32_t get_small_large(bitr *r, unsigned large_bits)
{
    if (get(r, 1)) return (int32_t)get(r, 5) - 16;
    return (int32_t)get(r, large_bits) - (1 << (large_bits - 1));
}

int cref_decode(const uint8_t *buf, size_t len, const cref_cube *base, cref_cube *out)
{
    bitr r = {buf, len, 0, 0};
    memcpy(out, base, sizeof *out * CREF_CUBES);
    uint8_t is_changed[CREF_CUBES];
    if (get(&r, 1)) {
        memset(is_changed, 0, sizeof is_changed);
        uint32_t count = get(&r, 10);
        if (count > CREF_CUBES) return -1;
        int32_t prev = -1;
        for (uint32_t k = 0; k < count && !r.fail; k++) {
            int32_t d = get(&r, 1) ? (int32_t)get(&r, 3) + 1 : get(&r, 1) ? (int32_t)get(&r, 5) + 9 : (int32_t)get(&r, 10) + 41;
            prev += d;
            if (prev >= CREF_CUBES) return -1;
            is_changed[prev] = 1;
        }
    } else {
        for (int i = 0; i < CREF_CUBES; i++) is_changed[i] = (uint8_t)get(&r, 1);
    }
    for (int i = 0; i < CREF_CUBES && !r.fail; i++) {
        if (!is_changed[i]) continue;
        cref_cube *c = &out[i];
        const cref_cube *b = &base[i];
        c->interacting = (int32_t)get(&r, 1);
        int oc = 1, pc = 1;
        if (!get(&r, 1)) {
            oc = (int)get(&r, 1);
            pc = oc ? 0 : (int)get(&r, 1);
        }
        if (oc) {
            if (get(&r, 1)) {
                c->largest = b->largest;
                c->a = b->a + get_small_large(&r, 8);
                c->b = b->b + get_small_large(&r, 8);
                c->c = b->c + get_small_large(&r, 8);
            } else {
                c->largest = (int32_t)get(&r, 2);
                c->a = (int32_t)get(&r, 9);
                c->b = (int32_t)get(&r, 9);
                c->c = (int32_t)get(&r, 9);
            }
            if (!in(c->a, 0, 511) || !in(c->b, 0, 511) || !in(c->c, 0, 511)) return -1;
        }
        if (pc) {
            if (get(&r, 1)) {
                c->x = b->x + get_small_large(&r, 9);
                c->y = b->y + get_small_large(&r, 9);
                c->z = b->z + get_small_large(&r, 9);
            } else {
                c->x = (int32_t)get(&r, 15) - 16383;
                c->y = (int32_t)get(&r, 15) - 16383;
                c->z = (int32_t)get(&r, 13);
            }
            if (!in(c->x, -16383, 16383) || !in(c->y, -16383, 16383) || !in(c->z, 0, 8191)) return -1;
        }
    }
    return r.fail ? -1 : 0;
}
