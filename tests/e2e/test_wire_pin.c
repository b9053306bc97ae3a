/* test_wire_pin.c — wire format 1 pinned: the bytes the generated writers produce for a fixed
 * stream of snapshots must never change (docs/wire.md: a better encoding is a new mode or a new
 * format version). Every component and message of tests/e2e's e2e, coll and dispatch schemas is
 * written against 0–3 baselines (evenly and unevenly spaced ticks, both audiences), and a digest
 * of every byte, length and status is compared with the digest recorded when this test was
 * written. The snapshots come from the generated readers themselves: random bits read against
 * no baseline, or against an earlier snapshot, give valid snapshots of every shape (small and
 * large deltas, unchanged slots, collections of every length), with no per-schema code here.
 *
 * If this test fails after a change to the compiler or the runtime, that change altered the
 * wire: undo it, or make it a new opt-in mode. Never update the digests to make it pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "coll.ns.h"
#include "dispatch_a.ns.h"
#include "dispatch_b.ns.h"
#include "dispatch_base.ns.h"
#include "e2e.ns.h"

enum { SNAPS = 48, TRIES = 32, ROUNDS = 1000, RANDOM_BYTES = 512 };

typedef struct digest {
    uint64_t h;
    uint64_t bytes;
} digest;

static void mix(digest *d, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) d->h = (d->h ^ b[i]) * 0x100000001b3ull; /* FNV-1a */
    d->bytes += n;
}

static uint64_t rng_state;
static uint32_t next(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Random bits, sparse or dense: sparse ones read as mostly unchanged slots and short codes. */
static void random_bytes(uint8_t *b, size_t n)
{
    unsigned density = next() % 3;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = next();
        if (density == 0) v &= next() & next();
        else if (density == 1) v &= next();
        b[i] = (uint8_t)v;
    }
}

/* Fills snaps[0..SNAPS) with valid snapshots of one component: each read from random bits,
 * against no baseline or against the snapshot before it. Of TRIES random inputs that read
 * without error, the one that took the most bits wins: a rich snapshot, far from the defaults. */
static void make_snaps(const ns_component_ops *c, uint8_t *snaps)
{
    size_t sz = c->desc->snap_size;
    c->snap_default(snaps);
    uint8_t bits[RANDOM_BYTES];
    uint8_t *tmp = malloc(sz);
    ck_assert_ptr_nonnull(tmp);
    for (int i = 1; i < SNAPS; i++) {
        uint8_t *out = snaps + (size_t)i * sz;
        memcpy(out, out - sz, sz);
        size_t best = 0;
        ns_baselines b = {{out - sz, NULL, NULL}, {100u, 0, 0}, next() % 2, 101u};
        ns_audience to = (ns_audience)(next() % 2);
        for (int t = 0; t < TRIES; t++) {
            random_bytes(bits, sizeof bits);
            ns_reader r;
            ns_reader_init(&r, bits, sizeof bits);
            if (c->read(&r, tmp, &b, to) == NS_OK && ns_reader_bits(&r) > best) {
                best = ns_reader_bits(&r);
                memcpy(out, tmp, sz);
            }
        }
    }
    free(tmp);
}

/* Baseline ticks: evenly spaced, uneven, or wrapping past 2^32. */
static void pick_ticks(ns_baselines *b)
{
    uint32_t now = (next() % 4 == 0) ? 2u + next() % 6 : 1000u + next() % 50000u;
    uint32_t gap = 1u + next() % 4;
    uint32_t t = now;
    for (uint32_t k = 0; k < b->count; k++) {
        t -= next() % 2 ? gap : 1u + next() % 7;
        b->tick[k] = t;
    }
    b->tick_now = now;
}

static void pin_components(const ns_schema *s, digest *d)
{
    for (uint32_t ci = 0; ci < s->component_count; ci++) {
        const ns_component_ops *c = &s->components[ci];
        size_t sz = c->desc->snap_size;
        uint8_t *snaps = malloc(sz * SNAPS);
        ck_assert_ptr_nonnull(snaps);
        make_snaps(c, snaps);
        mix(d, c->desc->name, strlen(c->desc->name));
        size_t cap = (size_t)c->desc->max_bits / 8u + 16u;
        uint8_t *buf = malloc(cap);
        ck_assert_ptr_nonnull(buf);
        for (int round = 0; round < ROUNDS; round++) {
            ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, next() % 4, 0};
            for (uint32_t k = 0; k < b.count; k++) b.snap[k] = snaps + (size_t)(next() % SNAPS) * sz;
            pick_ticks(&b);
            const uint8_t *cur = snaps + (size_t)(next() % SNAPS) * sz;
            ns_audience to = (ns_audience)(next() % 2);
            /* Sometimes a buffer too small for the record: the status and the bytes that fit. */
            size_t room = next() % 8 == 0 ? next() % (cap / 2 + 1) : cap;
            ns_writer w;
            ns_writer_init(&w, buf, room);
            ns_status st = c->write(&w, cur, &b, to);
            size_t n = ns_writer_flush(&w);
            uint32_t head[2] = {(uint32_t)st, (uint32_t)n};
            mix(d, head, sizeof head);
            mix(d, buf, n < room ? n : room);
        }
        free(buf);
        free(snaps);
    }
}

/* Messages: inputs against the previous input (or none), rpcs alone. Snapshots again come from
 * the reader. */
static void pin_messages(const ns_schema *s, digest *d)
{
    for (uint32_t mi = 0; mi < s->message_count; mi++) {
        const ns_message_ops *m = &s->messages[mi];
        size_t sz = m->desc->snap_size;
        uint8_t *snaps = malloc(sz * SNAPS);
        ck_assert_ptr_nonnull(snaps);
        m->snap_default(snaps);
        uint8_t bits[RANDOM_BYTES];
        for (int i = 1; i < SNAPS;) {
            random_bytes(bits, sizeof bits);
            ns_reader r;
            ns_reader_init(&r, bits, sizeof bits);
            const void *prev = m->kind == NS_MSG_INPUT && next() % 2 ? snaps + (size_t)(i - 1) * sz : NULL;
            if (m->read(&r, snaps + (size_t)i * sz, prev) == NS_OK) i++;
        }
        mix(d, m->desc->name, strlen(m->desc->name));
        size_t cap = (size_t)m->desc->max_bits / 8u + 16u;
        uint8_t *buf = malloc(cap);
        ck_assert_ptr_nonnull(buf);
        for (int round = 0; round < ROUNDS; round++) {
            const uint8_t *cur = snaps + (size_t)(next() % SNAPS) * sz;
            const void *prev = m->kind == NS_MSG_INPUT && next() % 2 ? snaps + (size_t)(next() % SNAPS) * sz : NULL;
            ns_writer w;
            ns_writer_init(&w, buf, cap);
            ns_status st = m->write(&w, cur, prev);
            size_t n = ns_writer_flush(&w);
            uint32_t head[2] = {(uint32_t)st, (uint32_t)n};
            mix(d, head, sizeof head);
            mix(d, buf, n);
        }
        free(buf);
        free(snaps);
    }
}

static void check_schema(const ns_schema *s, uint64_t want_hash, uint64_t want_bytes)
{
    digest d = {0xcbf29ce484222325ull, 0};
    rng_state = 0x9e3779b97f4a7c15ull ^ s->hash;
    pin_components(s, &d);
    pin_messages(s, &d);
    printf("%-10s digest 0x%016llx over %llu bytes\n", s->package, (unsigned long long)d.h,
           (unsigned long long)d.bytes);
    ck_assert_msg(d.h == want_hash && d.bytes == want_bytes,
                  "%s: the wire changed: digest 0x%016llx over %llu bytes, pinned 0x%016llx over %llu",
                  s->package, (unsigned long long)d.h, (unsigned long long)d.bytes,
                  (unsigned long long)want_hash, (unsigned long long)want_bytes);
}

/* The pinned digests: recorded with the generated code of commit 80c64ce (wire format 1). */
START_TEST(e2e_wire_is_pinned) { check_schema(&e2e_schema, 0x88dee29c54a90cc2ull, 153208u); }
END_TEST
START_TEST(coll_wire_is_pinned) { check_schema(&coll_schema, 0x59f222cd12cc476full, 108245u); }
END_TEST
START_TEST(dispatch_wire_is_pinned)
{
    check_schema(&disp_base_schema, 0x83cff1d7747dab52ull, 31662u);
    check_schema(&disp_a_schema, 0x9b516fe836ad69bcull, 71024u);
    check_schema(&disp_b_schema, 0x4e57336cf3410a0eull, 40428u);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("wire pin");
    TCase *tc = tcase_create("wire pin");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, e2e_wire_is_pinned);
    tcase_add_test(tc, coll_wire_is_pinned);
    tcase_add_test(tc, dispatch_wire_is_pinned);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
