/* test_strkeys.c — sets and maps keyed by string<N> (strkeys.netschema; docs/wire.md section
 * 12.6): the key order, the wire bits of the worked example, random round trips against 0 to 3
 * baselines, mirrors built only from the per-element events, malformed and truncated deltas
 * rejected with the destination unchanged, and the helpers' contracts for string keys. */
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "strkeys.ns.h"

static uint8_t buf[1 << 14];

/* ---- random keys -------------------------------------------------------------------------------- */

/* A random key of at most cap bytes from pieces that share prefixes and include a 2-byte UTF-8
 * character and an upper-case letter (which sorts before lower case), "" included. */
static void random_key(ns_rng *rng, char *out, size_t cap)
{
    static const char *const pieces[] = {"a", "b", "ab", "\xc3\xa9", "Z", "0", "ba"};
    size_t n = 0, want = (size_t)ns_rng_below(rng, cap + 1);
    out[0] = 0;
    while (n < want) {
        const char *p = pieces[ns_rng_below(rng, sizeof pieces / sizeof pieces[0])];
        size_t len = strlen(p);
        if (n + len > cap) break;
        memcpy(out + n, p, len + 1);
        n += len;
    }
}

/* Random edits through the helpers, each of which must succeed. */
static void mutate(strk_Names *v, ns_rng *rng)
{
    char k[16], s[16];
    int edits = (int)ns_rng_below(rng, 6);
    for (int e = 0; e < edits; e++) {
        switch (ns_rng_below(rng, 10)) {
        case 0:
            random_key(rng, k, 8);
            if (strk_Names_scores_count(v) < 16 || strk_Names_scores_find(v, k) >= 0)
                ck_assert_int_eq(strk_Names_scores_set(v, k, (uint16_t)ns_rng_below(rng, 4)), NS_OK);
            break;
        case 1:
            if (strk_Names_scores_count(v)) {
                strcpy(k, v->scores.keys[ns_rng_below(rng, strk_Names_scores_count(v))]);
                ck_assert_int_eq(strk_Names_scores_remove(v, k), NS_OK);
            }
            break;
        case 2:
            random_key(rng, k, 6);
            if (strk_Names_tags_count(v) < 8) ck_assert_int_eq(strk_Names_tags_add(v, k), NS_OK);
            break;
        case 3:
            if (strk_Names_tags_count(v)) {
                strcpy(k, v->tags.items[ns_rng_below(rng, strk_Names_tags_count(v))]);
                ck_assert_int_eq(strk_Names_tags_remove(v, k), NS_OK);
            }
            break;
        case 4: {
            random_key(rng, k, 12);
            strk_Stat st;
            strk_Stat_init(&st);
            st.level = (uint16_t)ns_rng_below(rng, 3);
            st.xp = (int32_t)ns_rng_below(rng, 200000) - 100000;
            if (strk_Names_stats_count(v) < 8 || strk_Names_stats_find(v, k) >= 0)
                ck_assert_int_eq(strk_Names_stats_set(v, k, &st), NS_OK);
            break;
        }
        case 5:
            if (strk_Names_stats_count(v)) {
                strcpy(k, v->stats.keys[ns_rng_below(rng, strk_Names_stats_count(v))]);
                ck_assert_int_eq(strk_Names_stats_remove(v, k), NS_OK);
            }
            break;
        case 6:
            random_key(rng, k, 4);
            random_key(rng, s, 10);
            if (strk_Names_labels_count(v) < 4 || strk_Names_labels_find(v, k) >= 0)
                ck_assert_int_eq(strk_Names_labels_set(v, k, s), NS_OK);
            break;
        case 7:
            if (ns_rng_below(rng, 3) == 0) strk_Names_labels_clear(v);
            else if (ns_rng_below(rng, 2)) strk_Names_scores_clear(v);
            else strk_Names_tags_clear(v);
            break;
        case 8:
            random_key(rng, k, 5);
            if (strk_Bag_marks_count(&v->bag) < 4) ck_assert_int_eq(strk_Bag_marks_add(&v->bag, k), NS_OK);
            else strk_Bag_marks_clear(&v->bag);
            break;
        default:
            strk_Names_set_hp(v, (int32_t)ns_rng_below(rng, 100));
            break;
        }
    }
}

/* ---- key order and the worked example --------------------------------------------------------- */

START_TEST(keys_sort_bytewise)
{
    static strk_Names v;
    static strk_Names_snap s, out;
    strk_Names_init(&v);
    static const char *const in[] = {"b", "\xc3\xa9", "ab", "", "a", "B", "aa"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) ck_assert_int_eq(strk_Names_scores_set(&v, in[i], (uint16_t)i), NS_OK);
    static const char *const want[] = {"", "B", "a", "aa", "ab", "b", "\xc3\xa9"};
    ck_assert_uint_eq(strk_Names_scores_count(&v), 7);
    for (uint32_t i = 0; i < 7; i++) ck_assert_str_eq(v.scores.keys[i], want[i]);
    ck_assert_uint_eq(*strk_Names_scores_at(&v, (uint32_t)strk_Names_scores_find(&v, "aa")), 6);
    /* A snapshot quantized from keys in any order holds them sorted, and so does what a reader
     * decodes. */
    strk_Names_quantize(&v, &s);
    memcpy(s.scores.keys[0], "b", 2), memcpy(s.scores.keys[5], "", 1);
    ns_coll_sort(&strk_Names_scores_ops, &s.scores);
    ck_assert_str_eq(s.scores.keys[0], "");
    ck_assert_str_eq(s.scores.keys[5], "b");
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(strk_Names_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    size_t len = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(strk_Names_read(&r, &out, NULL, NS_TO_OWNER), NS_OK);
    for (uint32_t i = 0; i < 7; i++) ck_assert_str_eq(out.scores.keys[i], want[i]);
}
END_TEST

/* The write of cur against ref (NULL: no baseline) in wire order, as '0' and '1'. */
static const char *tiny_bits(const strk_Tiny_snap *cur, const strk_Tiny_snap *ref)
{
    static char text[512];
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(strk_Tiny_write(&w, cur, &b, NS_TO_OWNER), NS_OK);
    size_t n = ns_writer_bits(&w);
    ck_assert_uint_lt(n, sizeof text);
    ck_assert_uint_le(n, STRK_TINY_MAX_BITS);
    for (size_t i = 0; i < n; i++) text[i] = (char)('0' + ((buf[i / 8] >> (i % 8)) & 1));
    text[n] = 0;
    return text;
}

static void tiny_of(strk_Tiny_snap *s, const char *a, const char *b)
{
    static strk_Tiny v;
    strk_Tiny_init(&v);
    if (a) ck_assert_int_eq(strk_Tiny_few_add(&v, a), NS_OK);
    if (b) ck_assert_int_eq(strk_Tiny_few_add(&v, b), NS_OK);
    strk_Tiny_quantize(&v, s);
}

START_TEST(worked_example_bits)
{
    /* docs/wire.md section 12.6, row by row. */
    strk_Tiny_snap s0, s1, s2, s3;
    tiny_of(&s0, NULL, NULL);
    tiny_of(&s1, "ac", "ab");
    tiny_of(&s2, "b", "ac");
    tiny_of(&s3, "b", "\xc3\xa9");
    ck_assert_str_eq(tiny_bits(&s1, &s0), "1" "0110" "00" "0110" "10000110" "01000110" "0" "010" "010" "11000110" "0");
    ck_assert_str_eq(tiny_bits(&s2, &s1), "1" "0110" "00" "0110" "10000110" "01000110" "1" "00" "010" "01000110" "0");
    ck_assert_str_eq(tiny_bits(&s3, &s2), "1" "0110" "00" "0110" "10000110" "11000110" "1" "00" "0110" "11000011" "10010101" "0");
    ck_assert_str_eq(tiny_bits(&s3, &s3), "0");
}
END_TEST

/* ---- round trips ---------------------------------------------------------------------------------- */

START_TEST(round_trips_over_baselines)
{
    static strk_Names v, back;
    static strk_Names_snap hist[8], cur, out;
    ns_rng rng = {0x5eed5u};
    strk_Names_init(&v);
    uint32_t nhist = 0;
    size_t most = 0;
    unsigned by_count[4] = {0, 0, 0, 0};
    for (int round = 0; round < 3000; round++) {
        mutate(&v, &rng);
        strk_Names_quantize(&v, &cur);
        uint32_t nb = (uint32_t)ns_rng_below(&rng, 4);
        if (nb > nhist) nb = nhist;
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, nb, (uint32_t)round + 10u};
        for (uint32_t k = 0; k < nb; k++) {
            b.snap[k] = &hist[ns_rng_below(&rng, nhist)];
            b.tick[k] = (uint32_t)round + 9u - k;
        }
        by_count[nb]++;
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(strk_Names_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);
        size_t bits = ns_writer_bits(&w);
        NS_CHECK(bits <= STRK_NAMES_MAX_BITS, "round %d: %zu bits over MAX_BITS %u", round, bits, STRK_NAMES_MAX_BITS);
        if (bits > most) most = bits;
        size_t len = ns_writer_flush(&w);
        memset(&out, 0x3c, sizeof out);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(strk_Names_read(&r, &out, &b, NS_TO_OWNER), NS_OK);
        NS_CHECK(strk_Names_snap_equal(&out, &cur), "round %d: decoded state differs from the source", round);
        NS_CHECK(ns_coll_check(&strk_Names_scores_ops, &out.scores) == NS_OK, "round %d: decoded keys not valid", round);
        strk_Names_dequantize(&out, &back);
        NS_CHECK(strk_Names_equal(&back, &v), "round %d: dequantized decode differs from the source value", round);
        memcpy(&hist[nhist < 8 ? nhist++ : ns_rng_below(&rng, 8)], &cur, sizeof cur);
    }
    printf("string keys: largest write %zu bits (MAX_BITS %u); baselines 0/1/2/3: %u/%u/%u/%u\n", most,
           STRK_NAMES_MAX_BITS, by_count[0], by_count[1], by_count[2], by_count[3]);
    ck_assert_uint_gt(by_count[3], 100);
}
END_TEST

/* Every key of every size at once: a full map of the longest keys stays within MAX_BITS. */
START_TEST(max_bits_bounds_string_keys)
{
    static strk_Tiny t;
    static strk_Tiny_snap full, other;
    strk_Tiny_init(&t);
    ck_assert_int_eq(strk_Tiny_few_add(&t, "\xc3\xa9z"), NS_OK);
    ck_assert_int_eq(strk_Tiny_few_add(&t, "zzz"), NS_OK);
    strk_Tiny_quantize(&t, &full);
    strk_Tiny_init(&t);
    ck_assert_int_eq(strk_Tiny_few_add(&t, "yyy"), NS_OK);
    ck_assert_int_eq(strk_Tiny_few_add(&t, "\xc3\xa9y"), NS_OK);
    strk_Tiny_quantize(&t, &other);
    (void)tiny_bits(&full, &other); /* two removes and two adds of 3-byte keys */
    (void)tiny_bits(&full, NULL);
}
END_TEST

/* ---- events ------------------------------------------------------------------------------------- */

/* Per field and apply: removes from the highest key down, then adds and sets ascending. */
typedef struct order {
    char last[16];
    int phase;
    unsigned in_phase;
} order;

typedef struct mirror {
    strk_Names m;
    order o[4]; /* scores, tags, stats, labels */
    unsigned events;
} mirror;

static void step(mirror *c, int field, const char *key, bool remove)
{
    order *o = &c->o[field];
    if (remove) {
        NS_CHECK(o->phase == 0, "field %d: a remove after an add or set", field);
        NS_CHECK(o->in_phase == 0 || strcmp(key, o->last) < 0, "field %d: removes not from the highest key down", field);
    } else {
        if (o->phase == 0) o->phase = 1, o->in_phase = 0;
        NS_CHECK(o->in_phase == 0 || strcmp(key, o->last) > 0, "field %d: adds and sets not in ascending key order", field);
    }
    NS_CHECK(strlen(key) < sizeof o->last, "a key longer than any field's");
    strcpy(o->last, key);
    o->in_phase++, c->events++;
}

static bool same_scores(const strk_Names_scores *a, const strk_Names_scores *b)
{
    if (a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->keys[i], b->keys[i]) != 0 || a->values[i] != b->values[i]) return false;
    return true;
}

static bool same_tags(const strk_Names_tags *a, const strk_Names_tags *b)
{
    if (a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i], b->items[i]) != 0) return false;
    return true;
}

static bool same_stats(const strk_Names_stats *a, const strk_Names_stats *b)
{
    if (a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->keys[i], b->keys[i]) != 0 || !strk_Stat_equal(&a->values[i], &b->values[i])) return false;
    return true;
}

static bool same_labels(const strk_Names_labels *a, const strk_Names_labels *b)
{
    if (a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->keys[i], b->keys[i]) != 0 || strcmp(a->values[i], b->values[i]) != 0) return false;
    return true;
}

#define EQ_V(a, at) ((a) == *(at))
#define EQ_STAT(a, at) strk_Stat_equal((a), (at))
#define EQ_STR(a, at) (strcmp((a), (at)) == 0)

#define MAP_HOOKS(F, I, P, EQ, SAME)                                                                           \
    static void F##_add(void *ctx, strk_Names *live, const char *key, P value)                              \
    {                                                                                                       \
        mirror *c = (mirror *)ctx;                                                                          \
        step(c, I, key, false);                                                                             \
        NS_CHECK(strk_Names_##F##_find(&c->m, key) < 0, #F ": add of a key the mirror holds");             \
        ck_assert_int_eq(strk_Names_##F##_set(&c->m, key, value), NS_OK);                                   \
        NS_CHECK(SAME(&c->m.F, &live->F), #F ": inside add, live is not the mirror");                      \
    }                                                                                                       \
    static void F##_set(void *ctx, strk_Names *live, const char *key, P old, P now)                         \
    {                                                                                                       \
        mirror *c = (mirror *)ctx;                                                                          \
        step(c, I, key, false);                                                                             \
        int32_t at = strk_Names_##F##_find(&c->m, key);                                                     \
        NS_CHECK(at >= 0 && EQ(old, strk_Names_##F##_at(&c->m, (uint32_t)at)), #F ": set: not the old value"); \
        NS_CHECK(!EQ(now, strk_Names_##F##_at(&c->m, (uint32_t)at)), #F ": a set that changes nothing");   \
        ck_assert_int_eq(strk_Names_##F##_set(&c->m, key, now), NS_OK);                                     \
        NS_CHECK(SAME(&c->m.F, &live->F), #F ": inside set, live is not the mirror");                      \
    }                                                                                                       \
    static void F##_remove(void *ctx, strk_Names *live, const char *key, P old)                             \
    {                                                                                                       \
        mirror *c = (mirror *)ctx;                                                                          \
        step(c, I, key, true);                                                                              \
        NS_CHECK(SAME(&c->m.F, &live->F), #F ": inside remove, live is not the mirror");                   \
        int32_t at = strk_Names_##F##_find(&c->m, key);                                                     \
        NS_CHECK(at >= 0 && EQ(old, strk_Names_##F##_at(&c->m, (uint32_t)at)), #F ": remove: not the entry"); \
        ck_assert_int_eq(strk_Names_##F##_remove(&c->m, key), NS_OK);                                       \
    }

MAP_HOOKS(scores, 0, uint16_t, EQ_V, same_scores)
MAP_HOOKS(stats, 2, const strk_Stat *, EQ_STAT, same_stats)
MAP_HOOKS(labels, 3, const char *, EQ_STR, same_labels)

static void tags_add(void *ctx, strk_Names *live, const char *key)
{
    mirror *c = (mirror *)ctx;
    step(c, 1, key, false);
    NS_CHECK(strk_Names_tags_find(&c->m, key) < 0, "tags: add of a key the mirror holds");
    ck_assert_int_eq(strk_Names_tags_add(&c->m, key), NS_OK);
    NS_CHECK(same_tags(&c->m.tags, &live->tags), "tags: inside add, live is not the mirror");
}

static void tags_remove(void *ctx, strk_Names *live, const char *key)
{
    mirror *c = (mirror *)ctx;
    step(c, 1, key, true);
    NS_CHECK(same_tags(&c->m.tags, &live->tags), "tags: inside remove, live is not the mirror");
    ck_assert_int_eq(strk_Names_tags_remove(&c->m, key), NS_OK);
}

static unsigned notified;

static void scores_notify(void *ctx, strk_Names *live)
{
    (void)ctx, (void)live;
    notified++;
}

START_TEST(events_build_a_mirror)
{
    static strk_Names v, live;
    static strk_Names_snap cur, prev, got;
    static mirror c;
    ns_rng rng = {0xe7e47u};
    strk_Names_init(&v);
    strk_Names_init(&live);
    strk_Names_init(&c.m);
    strk_Names_quantize(&v, &prev);
    strk_Names_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.scores = scores_notify;
    hooks.scores_add = scores_add, hooks.scores_set = scores_set, hooks.scores_remove = scores_remove;
    hooks.tags_add = tags_add, hooks.tags_remove = tags_remove;
    hooks.stats_add = stats_add, hooks.stats_set = stats_set, hooks.stats_remove = stats_remove;
    hooks.labels_add = labels_add, hooks.labels_set = labels_set, hooks.labels_remove = labels_remove;
    unsigned events = 0, changed_scores = 0;
    for (int round = 0; round < 2000; round++) {
        mutate(&v, &rng);
        strk_Names_quantize(&v, &cur);
        /* Over the wire against the previous state, then applied. */
        ns_baselines b = {{&prev, NULL, NULL}, {1, 0, 0}, 1, 2};
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(strk_Names_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);
        size_t len = ns_writer_flush(&w);
        ns_reader r;
        ns_reader_init(&r, buf, len);
        ck_assert_int_eq(strk_Names_read(&r, &got, &b, NS_TO_OWNER), NS_OK);
        if (!ns_coll_equal(&strk_Names_scores_ops, &got.scores, &prev.scores)) changed_scores++;
        unsigned before = notified;
        memset(c.o, 0, sizeof c.o);
        c.events = 0;
        strk_Names_apply(&live, &got, &hooks, &c);
        events += c.events;
        NS_CHECK(same_scores(&c.m.scores, &live.scores), "round %d: scores mirror differs", round);
        NS_CHECK(same_tags(&c.m.tags, &live.tags), "round %d: tags mirror differs", round);
        NS_CHECK(same_stats(&c.m.stats, &live.stats), "round %d: stats mirror differs", round);
        NS_CHECK(same_labels(&c.m.labels, &live.labels), "round %d: labels mirror differs", round);
        NS_CHECK(strk_Names_equal(&live, &v), "round %d: live differs from the source", round);
        NS_CHECK(notified - before == (ns_coll_equal(&strk_Names_scores_ops, &got.scores, &prev.scores) ? 0u : 1u),
                 "round %d: @notify on scores fired %u times", round, notified - before);
        prev = cur;
    }
    printf("string-key events: %u over 2000 applies, scores changed %u times\n", events, changed_scores);
    ck_assert_uint_gt(events, 2000);
}
END_TEST

/* ---- malformed deltas ------------------------------------------------------------------------- */

typedef struct crafted {
    ns_writer w;
    uint8_t   bytes[256];
} crafted;

static void craft(crafted *c, uint32_t count)
{
    memset(c->bytes, 0, sizeof c->bytes);
    ns_writer_init(&c->w, c->bytes, sizeof c->bytes);
    ns_write_bool(&c->w, true); /* Tiny has one field: its change bit comes first */
    ns_write_packed_u32(&c->w, count, NULL);
}

/* A key as prefix length, rest length and the rest's bytes, then the set's operation. */
static void key(crafted *c, uint32_t prefix, const char *rest, uint32_t rest_len, bool remove)
{
    ns_write_packed_u32(&c->w, prefix, NULL);
    ns_write_packed_u32(&c->w, rest_len, NULL);
    for (uint32_t i = 0; i < rest_len; i++) ns_write_bits(&c->w, (uint8_t)rest[i], 8);
    ns_write_bool(&c->w, remove);
}

/* The crafted Tiny write read against ref must fail with want and leave out as it was; the
 * runtime reader alone too, checking and decoding. */
static void expect(crafted *c, const strk_Tiny_snap *ref, ns_status want, const char *what)
{
    size_t len = ns_writer_flush(&c->w);
    static strk_Tiny_snap out, before;
    memset(&out, 0x77, sizeof out);
    before = out;
    ns_baselines b = {{ref, NULL, NULL}, {1, 0, 0}, ref ? 1u : 0u, 2};
    ns_reader r;
    ns_reader_init(&r, c->bytes, len);
    ns_status st = strk_Tiny_read(&r, &out, &b, NS_TO_OWNER);
    ck_assert_msg(st == want, "%s: read gave %s, want %s", what, ns_status_str(st), ns_status_str(want));
    ck_assert_msg(memcmp(&out, &before, sizeof out) == 0, "%s: a failed read changed its destination", what);
}

START_TEST(malformed_string_keys)
{
    strk_Tiny_snap empty, ab;
    tiny_of(&empty, NULL, NULL);
    tiny_of(&ab, "a", "b");
    crafted c;
    craft(&c, 3);
    expect(&c, &empty, NS_ERR_CAPACITY, "three operations against an empty set of capacity 2");
    craft(&c, 1), key(&c, 0, "abcd", 4, false);
    expect(&c, &empty, NS_ERR_RANGE, "a 4-byte key in a string<3> set");
    craft(&c, 2), key(&c, 0, "ab", 2, false), key(&c, 2, "cd", 2, false);
    expect(&c, &empty, NS_ERR_RANGE, "a shared prefix plus a rest over 3 bytes");
    craft(&c, 2), key(&c, 0, "a", 1, false), key(&c, 2, "", 0, false);
    expect(&c, &empty, NS_ERR_RANGE, "a shared prefix longer than the previous key");
    craft(&c, 2), key(&c, 0, "b", 1, false), key(&c, 0, "a", 1, false);
    expect(&c, &empty, NS_ERR_ORDER, "keys not ascending");
    craft(&c, 2), key(&c, 0, "ab", 2, false), key(&c, 1, "", 0, false);
    expect(&c, &empty, NS_ERR_ORDER, "a key below the previous (its prefix)");
    craft(&c, 2), key(&c, 0, "a", 1, false), key(&c, 1, "", 0, false);
    expect(&c, &empty, NS_ERR_DUPLICATE, "the same key twice");
    craft(&c, 1), key(&c, 0, "\xff", 1, false);
    expect(&c, &empty, NS_ERR_MALFORMED, "a key that is not UTF-8");
    craft(&c, 1), key(&c, 0, "\xc3", 1, false);
    expect(&c, &empty, NS_ERR_MALFORMED, "a key ending inside a UTF-8 sequence");
    craft(&c, 1), key(&c, 0, "a\0b", 3, false);
    expect(&c, &empty, NS_ERR_MALFORMED, "a key holding a NUL byte");
    craft(&c, 1), key(&c, 0, "a", 1, false);
    expect(&c, &ab, NS_ERR_DUPLICATE, "an add of a key the reference holds");
    craft(&c, 1), key(&c, 0, "c", 1, true);
    expect(&c, &ab, NS_ERR_UNKNOWN_ID, "a remove of a key the reference lacks");
    craft(&c, 2), key(&c, 0, "c", 1, false), key(&c, 0, "d", 1, false);
    expect(&c, &ab, NS_ERR_CAPACITY, "adds past the capacity");
    craft(&c, 1), ns_write_packed_u32(&c.w, 0, NULL), ns_write_packed_u32(&c.w, 3, NULL), ns_write_bits(&c.w, 'a', 8);
    expect(&c, &empty, NS_ERR_TRUNCATED, "a key cut short");
}
END_TEST

/* Every strict prefix of real writes fails as truncated; random bytes never decode to something
 * the writer refuses, and a failed read leaves its destination as it was. */
START_TEST(prefixes_and_junk)
{
    static strk_Names v;
    static strk_Names_snap prev, cur, out, before;
    ns_rng rng = {0x7e57u};
    strk_Names_init(&v);
    strk_Names_quantize(&v, &prev);
    unsigned decoded = 0;
    for (int round = 0; round < 200; round++) {
        mutate(&v, &rng);
        strk_Names_quantize(&v, &cur);
        ns_baselines b = {{&prev, NULL, NULL}, {1, 0, 0}, 1, 2};
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(strk_Names_write(&w, &cur, &b, NS_TO_OWNER), NS_OK);
        size_t used = ns_writer_flush(&w);
        for (size_t len = 0; len < used; len++) {
            memset(&out, 0xa5, sizeof out);
            memcpy(&before, &out, sizeof out);
            ns_reader r;
            ns_reader_init(&r, buf, len);
            ns_status st = strk_Names_read(&r, &out, &b, NS_TO_OWNER);
            NS_CHECK(st == NS_ERR_TRUNCATED, "a %zu-byte prefix of %zu read as %s", len, used, ns_status_str(st));
            NS_CHECK(memcmp(&out, &before, sizeof out) == 0, "a failed read changed its destination");
        }
        for (int k = 0; k < 30; k++) {
            static uint8_t junk[512];
            size_t len = (size_t)ns_rng_below(&rng, used + 8);
            memcpy(junk, buf, used);
            for (int flips = 0; flips < 3 && len; flips++) junk[ns_rng_below(&rng, len)] ^= (uint8_t)(1u << ns_rng_below(&rng, 8));
            memset(&out, 0x5a, sizeof out);
            memcpy(&before, &out, sizeof out);
            ns_reader r;
            ns_reader_init(&r, junk, len);
            if (strk_Names_read(&r, &out, &b, NS_TO_OWNER) == NS_OK) {
                decoded++;
                ns_writer_init(&w, buf + 8192, sizeof buf - 8192);
                NS_CHECK(strk_Names_write(&w, &out, &b, NS_TO_OWNER) == NS_OK, "read what cannot be written");
            } else {
                NS_CHECK(memcmp(&out, &before, sizeof out) == 0, "garbage changed the destination");
            }
        }
        prev = cur;
    }
    printf("string keys: %u of 6000 corrupted writes decoded (and could be written again)\n", decoded);
}
END_TEST

/* ---- helpers ------------------------------------------------------------------------------------ */

START_TEST(helpers_take_c_strings)
{
    static strk_Names v;
    strk_Names_init(&v);
    strk_Names_clear_dirty(&v);
    ck_assert_int_eq(strk_Names_tags_add(&v, "sixsix"), NS_OK);
    ck_assert(strk_Names_is_dirty(&v));
    ck_assert_int_eq(strk_Names_tags_add(&v, "sevenly"), NS_ERR_RANGE); /* 7 bytes: never cut */
    ck_assert_int_eq(strk_Names_tags_add(&v, "ab\xff"), NS_ERR_MALFORMED);
    ck_assert_int_eq(strk_Names_tags_add(&v, "\xc3\xa9\xc3\xa9\xc3"), NS_ERR_MALFORMED);
    ck_assert_int_eq(strk_Names_tags_add(&v, "\xc3\xa9\xc3\xa9"), NS_OK);
    ck_assert_uint_eq(strk_Names_tags_count(&v), 2);
    ck_assert_int_eq(strk_Names_tags_add(&v, "sixsix"), NS_OK); /* present: no change */
    ck_assert_uint_eq(strk_Names_tags_count(&v), 2);
    ck_assert_int_eq(strk_Names_tags_find(&v, "sevenly"), -1);
    ck_assert_int_eq(strk_Names_tags_find(&v, "sixsi"), -1);
    ck_assert_int_eq(strk_Names_tags_find(&v, "sixsix"), 0);
    ck_assert_str_eq(strk_Names_tags_at(&v, 1), "\xc3\xa9\xc3\xa9");
    ck_assert_int_eq(strk_Names_tags_remove(&v, "sixsi"), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(strk_Names_tags_remove(&v, "sixsix"), NS_OK);
    ck_assert_uint_eq(strk_Names_tags_count(&v), 1);
    /* A key is compared by content: a copy in another buffer finds the entry. */
    char copy[16];
    strcpy(copy, "k1");
    ck_assert_int_eq(strk_Names_labels_set(&v, copy, "one"), NS_OK);
    copy[1] = '2';
    ck_assert_int_eq(strk_Names_labels_set(&v, copy, "two"), NS_OK);
    ck_assert_int_eq(strk_Names_labels_set(&v, "k1", "uno"), NS_OK);
    ck_assert_uint_eq(strk_Names_labels_count(&v), 2);
    ck_assert_str_eq(strk_Names_labels_at(&v, (uint32_t)strk_Names_labels_find(&v, "k1")), "uno");
    ck_assert_int_eq(strk_Names_labels_set(&v, "k12345", "x"), NS_ERR_RANGE);
    ck_assert_int_eq(strk_Names_labels_set(&v, "k3", "a value longer than ten"), NS_OK); /* values are cut */
    ck_assert_str_eq(strk_Names_labels_at(&v, (uint32_t)strk_Names_labels_find(&v, "k3")), "a value lo");
    ck_assert_int_eq(strk_Names_labels_set(&v, "k4", "x"), NS_OK);
    ck_assert_int_eq(strk_Names_labels_set(&v, "k5", "x"), NS_ERR_CAPACITY);
    /* A snapshot with a key edited by hand past its room is refused by the writer. */
    static strk_Names_snap s;
    strk_Names_quantize(&v, &s);
    memset(s.tags.items[0], 'x', sizeof s.tags.items[0]);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_ne(strk_Names_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    ck_assert_int_eq(ns_coll_check(&strk_Names_tags_ops, &s.tags), NS_ERR_RANGE);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("string keys");
    TCase *tc = tcase_create("wire");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, keys_sort_bytewise);
    tcase_add_test(tc, worked_example_bits);
    tcase_add_test(tc, round_trips_over_baselines);
    tcase_add_test(tc, max_bits_bounds_string_keys);
    tcase_add_test(tc, events_build_a_mirror);
    tcase_add_test(tc, malformed_string_keys);
    tcase_add_test(tc, prefixes_and_junk);
    tcase_add_test(tc, helpers_take_c_strings);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
