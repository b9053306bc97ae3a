/* test_custom.c — extern structs (custom.netschema; idl/SPEC.md "Custom types"): this file is the
 * user, writing the codecs of Tint and Tag. Round trips against 0 to 3 baselines, the change bit
 * from _equal, a write over @max_bits refused with NS_ERR_RANGE, a failing user read leaving the
 * destination unchanged, MAX_BITS from @max_bits, @notify through _equal, and descriptors that
 * name the type but refuse to walk it. */
#include <stdio.h>
#include <string.h>

#include "custom.ns.h"
#include "ns_test.h"

static uint8_t buf[1 << 12];

/* ---- the user's codecs ------------------------------------------------------------------------ */

/* Tint: one bit "color as the reference's", else 24 raw bits of color; then 2 bits of flags. */
ns_status cust_Tint_write(ns_writer *w, const cust_Tint *cur, const cust_Tint *ref)
{
    const bool same = cur->r == ref->r && cur->g == ref->g && cur->b == ref->b;
    ns_write_bool(w, same);
    if (!same) ns_write_raw(w, (uint64_t)cur->r << 16 | (uint64_t)cur->g << 8 | cur->b, 24);
    ns_write_raw(w, cur->flags & 3u, 2);
    return NS_OK;
}

ns_status cust_Tint_read(ns_reader *r, cust_Tint *out, const cust_Tint *ref)
{
    if (!ns_read_bool(r)) {
        uint32_t rgb = (uint32_t)ns_read_raw(r, 24);
        out->r = (uint8_t)(rgb >> 16), out->g = (uint8_t)(rgb >> 8), out->b = (uint8_t)rgb;
    } else {
        out->r = ref->r, out->g = ref->g, out->b = ref->b;
    }
    out->flags = (uint8_t)ns_read_raw(r, 2);
    return out->flags == 3 ? NS_ERR_MALFORMED : NS_OK; /* 3 is no flag value */
}

bool cust_Tint_equal(const cust_Tint *a, const cust_Tint *b)
{
    return a->r == b->r && a->g == b->g && a->b == b->b && a->flags == b->flags;
}

/* Tag: 0 and 16 bits below 65536, 1 and 24 bits above (25 bits: more than @max_bits(20)). */
ns_status cust_Tag_write(ns_writer *w, const cust_Tag *cur, const cust_Tag *ref)
{
    (void)ref;
    const bool big = cur->n > 0xffffu;
    ns_write_bool(w, big);
    ns_write_raw(w, cur->n, big ? 24u : 16u);
    return NS_OK;
}

ns_status cust_Tag_read(ns_reader *r, cust_Tag *out, const cust_Tag *ref)
{
    (void)ref;
    const bool big = ns_read_bool(r);
    out->n = (uint32_t)ns_read_raw(r, big ? 24u : 16u);
    return NS_OK;
}

bool cust_Tag_equal(const cust_Tag *a, const cust_Tag *b)
{
    return a->n == b->n;
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static cust_Tint random_tint(ns_rng *rng)
{
    cust_Tint t = {(uint8_t)ns_rng_below(rng, 4), (uint8_t)ns_rng_below(rng, 256), 7, (uint8_t)ns_rng_below(rng, 3)};
    return t;
}

static void mutate(cust_Paint *v, ns_rng *rng)
{
    int edits = (int)ns_rng_below(rng, 4);
    for (int e = 0; e < edits; e++) {
        cust_Tint t = random_tint(rng);
        cust_Tag g = {(uint32_t)ns_rng_below(rng, 0x10000)};
        switch (ns_rng_below(rng, 5)) {
        case 0: cust_Paint_set_hp(v, (uint16_t)ns_rng_below(rng, 65536)); break;
        case 1: cust_Paint_set_tint(v, &t); break;
        case 2: cust_Paint_set_tag(v, &g); break;
        case 3: v->look.tint = t, v->look.level = (uint8_t)ns_rng_below(rng, 256); break;
        default: cust_Paint_set_mine(v, &t); break;
        }
    }
}

/* Writes cur against b for `to`; returns the byte length, the write's status in *st. */
static size_t write_paint(const cust_Paint_snap *cur, const ns_baselines *b, ns_audience to, ns_status *st)
{
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    *st = cust_Paint_write(&w, cur, b, to);
    NS_CHECK(ns_writer_bits(&w) <= CUST_PAINT_MAX_BITS, "%zu bits over MAX_BITS %u", ns_writer_bits(&w),
             CUST_PAINT_MAX_BITS);
    return ns_writer_flush(&w);
}

/* ---- tests ------------------------------------------------------------------------------------ */

START_TEST(round_trips_over_baselines)
{
    static cust_Paint v, back, want;
    static cust_Paint_snap hist[8], cur, out;
    ns_rng rng = {0xc057u};
    cust_Paint_init(&v);
    uint32_t nhist = 0;
    unsigned by_count[4] = {0, 0, 0, 0};
    for (int round = 0; round < 3000; round++) {
        mutate(&v, &rng);
        cust_Paint_quantize(&v, &cur);
        uint32_t nb = (uint32_t)ns_rng_below(&rng, 4);
        if (nb > nhist) nb = nhist;
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nb, (uint32_t)round + 10u};
        for (uint32_t k = 0; k < nb; k++) {
            b.snap[k] = &hist[ns_rng_below(&rng, nhist)];
            b.tick[k] = (uint32_t)round + 9u - k;
        }
        by_count[nb]++;
        const ns_audience to = round % 2 ? NS_TO_OWNER : NS_TO_OBSERVER;
        ns_status st;
        size_t len = write_paint(&cur, &b, to, &st);
        ck_assert_int_eq(st, NS_OK);
        /* The reader starts from garbage: every field it keeps must come from the reference. */
        memset(&out, 0x3c, sizeof out);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(cust_Paint_read(&r, &out, &b, to), NS_OK);
        const cust_Paint_snap *ref = nb ? (const cust_Paint_snap *)b.snap[0] : &cust_Paint_snap_default;
        if (to == NS_TO_OBSERVER) /* mine is @sync(owner): an observer keeps the reference's */
            NS_CHECK(cust_Tint_equal(&out.mine, &ref->mine), "round %d: an observer got the owner's field", round);
        else
            NS_CHECK(cust_Paint_snap_equal(&out, &cur), "round %d: decoded state differs from the source", round);
        out.mine = cur.mine;
        NS_CHECK(cust_Paint_snap_equal(&out, &cur), "round %d: decoded state differs from the source", round);
        cust_Paint_dequantize(&out, &back);
        cust_Paint_dequantize(&cur, &want);
        back.mine = want.mine;
        NS_CHECK(cust_Paint_equal(&back, &want), "round %d: dequantized decode differs", round);
        memcpy(&hist[nhist < 8 ? nhist++ : ns_rng_below(&rng, 8)], &cur, sizeof cur);
    }
    printf("custom: baselines 0/1/2/3: %u/%u/%u/%u\n", by_count[0], by_count[1], by_count[2], by_count[3]);
    ck_assert_uint_gt(by_count[3], 100);
}
END_TEST

/* An extern field is one slot: unchanged (by _equal) it costs its change bit only. */
START_TEST(one_slot_with_a_change_bit)
{
    cust_Look_snap a, b;
    memset(&a, 0, sizeof a);
    a.level = 9;
    a.tint.r = 1, a.tint.flags = 2;
    b = a;
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(cust_Look_write(&w, &b, &a), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), 1); /* nothing changed: the any bit */
    b.tint.flags = 1;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(cust_Look_write(&w, &b, &a), NS_OK);
    /* any, level's bit, tint's bit, then the user's bits: same color (1) and the flags (2). */
    ck_assert_uint_eq(ns_writer_bits(&w), 3 + 1 + 2);
    size_t len = ns_writer_flush(&w);
    cust_Look_snap out = a;
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(cust_Look_read(&r, &out, &a), NS_OK);
    ck_assert(cust_Look_snap_equal(&out, &b));
    /* MAX_BITS: the mask (any bit and two change bits), level's worst delta, @max_bits(27). */
    ck_assert_uint_eq(CUST_LOOK_MAX_BITS, 3 + 15 + 27);
}
END_TEST

START_TEST(write_over_max_bits_is_refused)
{
    cust_Paint_snap cur = cust_Paint_snap_default;
    cur.tag.n = 0x123456; /* the user's write takes 25 bits; Tag is @max_bits(20) */
    ns_writer w;
    memset(buf, 0, sizeof buf);
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_raw(&w, 5, 3); /* what the caller wrote before stays, and the writer does not move */
    ck_assert_int_eq(cust_Paint_write(&w, &cur, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    ck_assert_uint_eq(ns_writer_bits(&w), 3);
    ck_assert_int_eq(ns_writer_status(&w), NS_OK);
    /* The same in an rpc; at 20 bits or fewer it goes through. */
    cust_Stamp_snap s = cust_Stamp_snap_default;
    s.tag.n = 0x10000;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(cust_Stamp_write(&w, &s), NS_ERR_RANGE);
    s.tag.n = 0xffff;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(cust_Stamp_write(&w, &s), NS_OK);
    size_t len = ns_writer_flush(&w);
    cust_Stamp_snap out;
    memset(&out, 0, sizeof out);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(cust_Stamp_read(&r, &out), NS_OK);
    ck_assert_uint_eq(out.tag.n, 0xffff);
}
END_TEST

/* A read of more than @max_bits is malformed: a sender whose codec overran is caught. */
START_TEST(read_over_max_bits_is_refused)
{
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bool(&w, true);     /* the record's "anything changed" bit */
    ns_write_bool(&w, true);     /* tag's change bit (n: 0 is the default) */
    ns_write_bool(&w, true);     /* the user's "big" bit */
    ns_write_raw(&w, 0x10000, 24);
    ns_write_bool(&w, false);    /* n's change bit */
    size_t len = ns_writer_flush(&w);
    cust_Stamp_snap out, keep;
    memset(&out, 0x11, sizeof out);
    keep = out;
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(cust_Stamp_read(&r, &out), NS_ERR_MALFORMED);
    ck_assert(memcmp(&out, &keep, sizeof out) == 0);
}
END_TEST

START_TEST(failing_user_read_leaves_destination)
{
    static cust_Paint_snap cur, out, keep;
    cur = cust_Paint_snap_default;
    cur.hp = 77;
    cur.tint.r = 200, cur.tint.flags = 3; /* the user's read refuses flags 3 */
    ns_status st;
    size_t len = write_paint(&cur, NULL, NS_TO_OWNER, &st);
    ck_assert_int_eq(st, NS_OK);
    memset(&out, 0x5a, sizeof out);
    keep = out;
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(cust_Paint_read(&r, &out, NULL, NS_TO_OWNER), NS_ERR_MALFORMED);
    ck_assert(memcmp(&out, &keep, sizeof out) == 0);
    /* A cut inside the user's bits: the bounds-checked reader fails, out unchanged. */
    cur.tint.flags = 1;
    len = write_paint(&cur, NULL, NS_TO_OWNER, &st);
    for (size_t cut = 0; cut < len; cut++) {
        ns_reader_init(&r, buf, cut);
        NS_CHECK(cust_Paint_read(&r, &out, NULL, NS_TO_OWNER) != NS_OK, "%zu of %zu bytes accepted", cut, len);
        NS_CHECK(memcmp(&out, &keep, sizeof out) == 0, "a cut at %zu bytes changed the destination", cut);
    }
    /* The input's read likewise. */
    cust_Brush_snap in = cust_Brush_snap_default, bout, bkeep;
    in.tint.flags = 3;
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(cust_Brush_write(&w, &in, NULL), NS_OK);
    len = ns_writer_flush(&w);
    memset(&bout, 0x22, sizeof bout);
    bkeep = bout;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(cust_Brush_read(&r, &bout, NULL), NS_ERR_MALFORMED);
    ck_assert(memcmp(&bout, &bkeep, sizeof bout) == 0);
}
END_TEST

typedef struct notes {
    int calls;
    cust_Tint old_value, new_value;
} notes;

static void on_tint(void *ctx, cust_Paint *live, cust_Tint old_value, cust_Tint new_value)
{
    (void)live;
    notes *n = (notes *)ctx;
    n->calls++;
    n->old_value = old_value;
    n->new_value = new_value;
}

/* @notify compares with the user's _equal; _interpolate takes `to` from t = 1 on. */
START_TEST(notify_and_interpolate)
{
    cust_Paint live;
    cust_Paint_init(&live);
    cust_Paint_snap s = cust_Paint_snap_default;
    cust_Paint_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.tint = on_tint;
    notes n = {0, {0, 0, 0, 0}, {0, 0, 0, 0}};
    cust_Paint_apply(&live, &s, &hooks, &n);
    ck_assert_int_eq(n.calls, 0);
    s.tint.g = 40;
    cust_Paint_apply(&live, &s, &hooks, &n);
    ck_assert_int_eq(n.calls, 1);
    ck_assert_uint_eq(n.old_value.g, 0);
    ck_assert_uint_eq(n.new_value.g, 40);
    cust_Paint_apply(&live, &s, &hooks, &n);
    ck_assert_int_eq(n.calls, 1);

    cust_Paint_snap from = cust_Paint_snap_default, to = from;
    to.tint.b = 9;
    cust_Paint mid;
    cust_Paint_interpolate(&from, &to, 0.99f, &mid);
    ck_assert_uint_eq(mid.tint.b, 0);
    cust_Paint_interpolate(&from, &to, 1.0f, &mid);
    ck_assert_uint_eq(mid.tint.b, 9);
}
END_TEST

/* Descriptors name the type (dump prints <extern Tint>) but cannot decode it: walks refuse. */
START_TEST(descriptors_refuse_to_walk)
{
    ck_assert_int_eq(cust_Paint_desc.fields[1].encoding, NS_ENC_CUSTOM);
    ck_assert_uint_eq(cust_Paint_desc.fields[1].max_bits, 27);
    ck_assert_str_eq(cust_Paint_desc.fields[1].type->name, "Tint");
    cust_Paint_snap s = cust_Paint_snap_default;
    ns_status st;
    size_t len = write_paint(&s, NULL, NS_TO_OWNER, &st);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(ns_walk_record(&r, &cust_Paint_desc, NULL, NS_TO_OWNER, NULL, NULL, NULL), NS_ERR_ARGUMENT);
    ck_assert_uint_eq(ns_reader_bits(&r), 0);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ns_dump_snapshot(f, &cust_Paint_desc, &s);
    char text[512];
    long n = ftell(f);
    ck_assert(n > 0 && n < (long)sizeof text);
    rewind(f);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    NS_CHECK(strstr(text, "tint: <extern Tint>") != NULL, "dump: %s", text);
}
END_TEST

static Suite *custom_suite(void)
{
    Suite *s = suite_create("custom types");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, round_trips_over_baselines);
    tcase_add_test(tc, one_slot_with_a_change_bit);
    tcase_add_test(tc, write_over_max_bits_is_refused);
    tcase_add_test(tc, read_over_max_bits_is_refused);
    tcase_add_test(tc, failing_user_read_leaves_destination);
    tcase_add_test(tc, notify_and_interpolate);
    tcase_add_test(tc, descriptors_refuse_to_walk);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(custom_suite)
