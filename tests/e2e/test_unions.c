/* test_unions.c — unions (unions.netschema; idl/SPEC.md "Unions", docs/wire.md section 12.9):
 * random member switches and edits round-trip against 0 to 3 baselines for both audiences (and
 * through the descriptor walker), the hand-checked bits of the tag and of a member coded against
 * the reference's member or against its defaults, a bad tag refused by the reader and by the
 * writer with nothing changed, every cut refused, interpolation within one member and across a
 * switch, the @notify hook, the setters, and unions in an input and an rpc. */
#include <stdio.h>
#include <string.h>

#include <netschema/dump.h>

#include "ns_test.h"
#include "unions.ns.h"

static uint8_t buf[1 << 12];

static void random_shape(un_Shape *s, ns_rng *rng)
{
    switch (ns_rng_below(rng, 4)) {
    case 0: {
        un_Circle c = {(float)ns_rng_below(rng, 10001) / 100.0f};
        un_Shape_set_circle(s, &c);
        break;
    }
    case 1: {
        un_Box b = {(uint16_t)ns_rng_below(rng, 70000), (uint16_t)ns_rng_below(rng, 5), ns_rng_below(rng, 2) != 0};
        un_Shape_set_box(s, &b);
        break;
    }
    case 2: {
        un_Capsule c = {(float)ns_rng_below(rng, 1001) / 100.0f, (float)ns_rng_below(rng, 1001) / 100.0f,
                        (uint8_t)ns_rng_below(rng, 3)};
        un_Shape_set_capsule(s, &c);
        break;
    }
    default: /* the same member, one field edited: coded against the reference's member */
        if (s->tag == UN_SHAPE_CIRCLE) s->circle.radius = (float)ns_rng_below(rng, 10001) / 100.0f;
        else if (s->tag == UN_SHAPE_BOX) s->box.h = (uint16_t)(s->box.h + 1u);
        else s->capsule.axis = (uint8_t)((s->capsule.axis + 1u) % 3u);
        break;
    }
}

static void mutate(un_Collider *v, ns_rng *rng)
{
    switch (ns_rng_below(rng, 6)) {
    case 0: random_shape(&v->shape, rng); break;
    case 1: random_shape(&v->body.shape, rng); break;
    case 2: random_shape(&v->secret, rng); break;
    case 3: v->only.box.w = (uint16_t)ns_rng_below(rng, 9); break;
    case 4: v->layer = (uint16_t)ns_rng_below(rng, 1000); break;
    default: v->body.mass = (uint8_t)ns_rng_below(rng, 256); break;
    }
}

START_TEST(round_trips_over_baselines)
{
    static un_Collider v, back, want;
    static un_Collider_snap hist[8], cur, out, keep, walked;
    ns_rng rng = {0x0417u};
    un_Collider_init(&v);
    uint32_t nhist = 0;
    unsigned by_count[4] = {0, 0, 0, 0}, switches = 0;
    for (int round = 0; round < 6000; round++) {
        int edits = 1 + (int)ns_rng_below(&rng, 3);
        for (int e = 0; e < edits; e++) mutate(&v, &rng);
        un_Collider_quantize(&v, &cur);
        uint32_t nb = (uint32_t)ns_rng_below(&rng, 4);
        if (nb > nhist) nb = nhist;
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nb, (uint32_t)round + 10u};
        for (uint32_t k = 0; k < nb; k++) {
            b.snap[k] = &hist[ns_rng_below(&rng, nhist)];
            b.tick[k] = (uint32_t)round + 9u - k;
        }
        if (nb && cur.shape.tag != ((const un_Collider_snap *)b.snap[0])->shape.tag) switches++;
        by_count[nb]++;
        ns_audience to = ns_rng_below(&rng, 2) ? NS_TO_OWNER : NS_TO_OBSERVER;
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(un_Collider_write(&w, &cur, &b, to), NS_OK);
        size_t bits = ns_writer_bits(&w);
        NS_CHECK(bits <= UN_COLLIDER_MAX_BITS, "round %d: %zu bits over MAX_BITS %u", round, bits, UN_COLLIDER_MAX_BITS);
        size_t len = ns_writer_flush(&w);
        memset(&out, 0x3c, sizeof out);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(un_Collider_read(&r, &out, &b, to), NS_OK);
        /* An observer never receives the owner's secret: it keeps the reference's. */
        un_Collider_snap expect = cur;
        if (to == NS_TO_OBSERVER) expect.secret = nb ? ((const un_Collider_snap *)b.snap[0])->secret : un_Collider_snap_default.secret;
        NS_CHECK(un_Collider_snap_equal(&out, &expect), "round %d: decoded state differs from the source", round);
        NS_CHECK(memcmp(&out.shape, &expect.shape, sizeof out.shape) == 0, "round %d: the members not named are not zero",
                 round);
        un_Collider_dequantize(&out, &back);
        un_Collider_dequantize(&expect, &want);
        NS_CHECK(un_Collider_equal(&back, &want), "round %d: dequantized decode differs", round);
        /* The descriptor walker (netschema/dump.h) decodes the same bits to the same state. */
        memset(&walked, 0x5a, sizeof walked);
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(ns_walk_record(&r, &un_Collider_desc, &b, to, &walked, NULL, NULL), NS_OK);
        NS_CHECK(un_Collider_snap_equal(&walked, &expect), "round %d: the descriptor walker decoded another state", round);
        /* Every cut of the write is refused and leaves the destination as it was. */
        if (round % 5 == 0 && len > 1) {
            memcpy(&keep, &out, sizeof keep);
            size_t cut = (size_t)ns_rng_below(&rng, len);
            ns_reader_init(&r, buf, cut);
            NS_CHECK(un_Collider_read(&r, &out, &b, to) != NS_OK, "round %d: %zu of %zu bytes accepted", round, cut, len);
            NS_CHECK(memcmp(&keep, &out, sizeof keep) == 0, "round %d: a refused read changed its destination", round);
        }
        memcpy(&hist[nhist < 8 ? nhist++ : ns_rng_below(&rng, 8)], &cur, sizeof cur);
    }
    printf("unions: baselines 0/1/2/3: %u/%u/%u/%u; %u member switches against a baseline\n", by_count[0], by_count[1],
           by_count[2], by_count[3], switches);
    ck_assert_uint_gt(by_count[3], 500);
    ck_assert_uint_gt(switches, 500);
}
END_TEST

/* The write of a Small against ref (NULL: no baseline), in wire order, as '0' and '1'. */
static const char *small_bits(const un_Small_snap *cur, const un_Small_snap *ref)
{
    static char text[64];
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(un_Small_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    size_t n = ns_writer_bits(&w);
    ck_assert_uint_le(n, UN_SMALL_MAX_BITS);
    for (size_t i = 0; i < n; i++) text[i] = (char)('0' + ((buf[i / 8] >> (i % 8)) & 1));
    text[n] = 0;
    return text;
}

static un_Small_snap small(uint8_t tag, bool on)
{
    un_Small_snap s;
    memset(&s, 0, sizeof s);
    s.t.tag = tag;
    if (tag == UN_TINY_A) s.t.a.on = on;
    else s.t.b.on = on;
    return s;
}

START_TEST(tag_then_member_bits)
{
    /* docs/wire.md section 12.9: the field's change bit, the tag in raw bits, then the member's
     * own record: against the reference's member when the tags match, else against the member's
     * defaults (Flag: one slot, so no "any" bit; a changed bool is its change bit alone). */
    un_Small_snap a0 = small(UN_TINY_A, false), a1 = small(UN_TINY_A, true);
    un_Small_snap b0 = small(UN_TINY_B, false), b1 = small(UN_TINY_B, true);
    ck_assert_str_eq(small_bits(&a0, NULL), "0");       /* the defaults: member a, off */
    ck_assert_str_eq(small_bits(&a1, NULL), "1" "0" "1");
    ck_assert_str_eq(small_bits(&b0, NULL), "1" "1" "0"); /* b against b's defaults: unchanged */
    ck_assert_str_eq(small_bits(&b1, NULL), "1" "1" "1");
    ck_assert_str_eq(small_bits(&b1, &b1), "0");
    ck_assert_str_eq(small_bits(&b0, &b1), "1" "1" "1"); /* the same member: against b1's b */
    ck_assert_str_eq(small_bits(&a1, &b1), "1" "0" "1"); /* another member: against a's defaults */
    ck_assert_uint_eq(UN_SMALL_MAX_BITS, 1 + 1 + 1);
    ck_assert_uint_eq(UN_TINY_COUNT, 2);
    /* One member: no tag bits; the member codes itself (Box: any bit, three slots). */
    un_Only_snap o = un_Only_snap_default, ref = un_Only_snap_default;
    o.box.w = 1;
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(un_Only_write(&w, &o, &ref), NS_OK);
    ns_writer w2;
    ns_writer_init(&w2, buf, sizeof buf);
    ck_assert_int_eq(un_Box_write(&w2, &o.box, &ref.box), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), ns_writer_bits(&w2));
}
END_TEST

START_TEST(bad_tags_refused)
{
    /* The writer refuses a tag past the last member, with the writer unmoved. */
    un_Shape_snap bad = un_Shape_snap_default;
    bad.tag = 3;
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_raw(&w, 5, 3);
    ck_assert_int_eq(un_Shape_write(&w, &bad, NULL), NS_ERR_RANGE);
    ck_assert_uint_eq(ns_writer_bits(&w), 3);
    un_Collider_snap c = un_Collider_snap_default;
    c.body.shape.tag = 7;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(un_Collider_write(&w, &c, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    ck_assert_uint_eq(ns_writer_bits(&w), 0);
    /* Refused even when the baseline holds the same bad tag (the slot is unchanged, so nothing
     * of it would be written): what no reader accepts is never sent. */
    ns_baselines same = {{&c, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(un_Collider_write(&w, &c, &same, NS_TO_OBSERVER), NS_ERR_RANGE);
    ck_assert_uint_eq(ns_writer_bits(&w), 0);

    /* The reader refuses tag 3 (raw bits 11) and keeps its destination, for every member that
     * could follow. */
    for (unsigned tail = 0; tail < 256; tail++) {
        uint8_t in[3] = {(uint8_t)(0x3u | (tail << 2)), (uint8_t)tail, 0xff};
        un_Shape_snap out, keep;
        memset(&out, 0x6b, sizeof out);
        memcpy(&keep, &out, sizeof keep);
        ns_reader r;
        ns_reader_init(&r, in, sizeof in);
        ck_assert_int_eq(un_Shape_read(&r, &out, NULL), NS_ERR_RANGE);
        ck_assert_int_eq(memcmp(&out, &keep, sizeof out), 0);
    }
    /* In a record: the Collider's "any" bit, shape changed, tag 3. */
    uint8_t in[4] = {0x1u | 0x2u | (0x3u << 2), 0xff, 0xff, 0xff};
    un_Collider_snap out, keep;
    memset(&out, 0x21, sizeof out);
    memcpy(&keep, &out, sizeof keep);
    ns_reader r;
    ns_reader_init(&r, in, sizeof in);
    ck_assert_int_eq(un_Collider_read(&r, &out, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    ck_assert_int_eq(memcmp(&out, &keep, sizeof out), 0);
    ns_reader_init(&r, in, sizeof in);
    ck_assert_int_eq(ns_walk_record(&r, &un_Collider_desc, NULL, NS_TO_OWNER, &out, NULL, NULL), NS_ERR_RANGE);
}
END_TEST

START_TEST(interpolate_within_and_across)
{
    un_Shape_snap from, to, other;
    un_Shape a, b, c, out;
    un_Circle small_c = {10.0f}, big_c = {20.0f};
    un_Box box = {3, 4, true};
    un_Shape_set_circle(&a, &small_c);
    un_Shape_set_circle(&b, &big_c);
    un_Shape_set_box(&c, &box);
    un_Shape_quantize(&a, &from);
    un_Shape_quantize(&b, &to);
    un_Shape_quantize(&c, &other);
    /* The same member: its own interpolation (a quantized float blends). */
    un_Shape_interpolate(&from, &to, 0.5f, &out);
    ck_assert_uint_eq(out.tag, UN_SHAPE_CIRCLE);
    ck_assert_float_eq_tol(out.circle.radius, 15.0f, 0.01f);
    /* Another member: the old one until t reaches 1, then the new one. */
    un_Shape_interpolate(&from, &other, 0.99f, &out);
    ck_assert_uint_eq(out.tag, UN_SHAPE_CIRCLE);
    ck_assert_float_eq_tol(out.circle.radius, 10.0f, 0.01f);
    un_Shape_interpolate(&from, &other, 1.0f, &out);
    ck_assert_uint_eq(out.tag, UN_SHAPE_BOX);
    ck_assert(out.box.w == 3 && out.box.h == 4 && out.box.solid);
}
END_TEST

typedef struct seen {
    int calls;
    uint8_t old_tag, new_tag;
} seen;

static void on_shape(void *ctx, un_Collider *live, const un_Shape *old_value, const un_Shape *new_value)
{
    seen *s = (seen *)ctx;
    (void)live;
    s->calls++;
    s->old_tag = old_value->tag;
    s->new_tag = new_value->tag;
}

START_TEST(notify_and_setters)
{
    un_Collider live, v;
    un_Collider_init(&live);
    un_Collider_init(&v);
    /* init: the first member with its defaults. */
    ck_assert_uint_eq(v.shape.tag, UN_SHAPE_CIRCLE);
    ck_assert(!un_Collider_is_dirty(&v));
    un_Shape s = v.shape;
    un_Collider_set_shape(&v, &s); /* the same value: not dirty */
    ck_assert(!un_Collider_is_dirty(&v));
    un_Box box = {1, 2, false};
    un_Shape_set_box(&s, &box);
    un_Collider_set_shape(&v, &s);
    ck_assert(un_Collider_is_dirty(&v));
    /* set_<member> copies even from the union's own member. */
    un_Shape_set_box(&s, &s.box);
    ck_assert(s.tag == UN_SHAPE_BOX && s.box.w == 1 && s.box.h == 2);

    un_Collider_snap snap;
    un_Collider_quantize(&v, &snap);
    seen got = {0, 0, 0};
    un_Collider_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.shape = on_shape;
    un_Collider_apply(&live, &snap, &hooks, &got);
    ck_assert_int_eq(got.calls, 1);
    ck_assert_uint_eq(got.old_tag, UN_SHAPE_CIRCLE);
    ck_assert_uint_eq(got.new_tag, UN_SHAPE_BOX);
    un_Collider_apply(&live, &snap, &hooks, &got);
    ck_assert_int_eq(got.calls, 1); /* unchanged: no call */

    /* A dump names the member the tag holds. */
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ns_dump_snapshot(f, &un_Collider_desc, &snap);
    char text[1024];
    long n = ftell(f);
    ck_assert(n > 0 && n < (long)sizeof text);
    rewind(f);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    NS_CHECK(strstr(text, "shape: box Box { w: 1, h: 2, solid: false }") != NULL, "dump: %s", text);
    NS_CHECK(strstr(text, "secret: circle Circle { radius: 0 }") != NULL, "dump: %s", text);
}
END_TEST

START_TEST(inputs_and_rpcs)
{
    ns_rng rng = {77};
    un_Aim prev_v, cur_v;
    un_Aim_init(&prev_v);
    un_Aim_init(&cur_v);
    un_Aim_snap prev, cur, out;
    un_Aim_quantize(&prev_v, &prev);
    for (int i = 0; i < 500; i++) {
        random_shape(&cur_v.shape, &rng);
        cur_v.fire = ns_rng_below(&rng, 2) != 0;
        un_Aim_quantize(&cur_v, &cur);
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(un_Aim_write(&w, &cur, &prev), NS_OK);
        size_t len = ns_writer_flush(&w);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(un_Aim_read(&r, &out, &prev), NS_OK);
        ck_assert(un_Aim_snap_equal(&out, &cur));
        prev = cur;

        un_Spawn sv;
        un_Spawn_init(&sv);
        random_shape(&sv.shape, &rng);
        sv.n = (uint8_t)i;
        un_Spawn_snap ss, so;
        un_Spawn_quantize(&sv, &ss);
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(un_Spawn_write(&w, &ss), NS_OK);
        len = ns_writer_flush(&w);
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(un_Spawn_read(&r, &so), NS_OK);
        ck_assert(un_Spawn_snap_equal(&so, &ss));
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("unions");
    TCase *tc = tcase_create("unions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, round_trips_over_baselines);
    tcase_add_test(tc, tag_then_member_bits);
    tcase_add_test(tc, bad_tags_refused);
    tcase_add_test(tc, interpolate_within_and_across);
    tcase_add_test(tc, notify_and_setters);
    tcase_add_test(tc, inputs_and_rpcs);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
