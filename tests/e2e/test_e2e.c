/* test_e2e.c — end-to-end tests through code netschemac generated from e2e.netschema:
 * randomized round-trips for every type with 0 to 3 baselines and both audiences, size bounds,
 * truncated input, audience filtering, prediction, hooks, interpolation and snapshot checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.ns.h"
#include "e2e_support.h"

/* Randomized cases per type; the sanitizer build runs fewer (NS_E2E_CASES, tests/e2e/CMakeLists.txt). */
#ifdef NS_E2E_CASES
#define CASES NS_E2E_CASES
#else
#define CASES 100000
#endif
#define TRUNCATION_CASES 300 /* of which every prefix of every encoding is also read */

/* ---- type-erased codecs ------------------------------------------------------------------ */

#define COMMON(T)                                                                                   \
    static void T##_init_v(void *v) { e2e_##T##_init((e2e_##T *)v); }                              \
    static void T##_quant_v(const void *v, void *s) { e2e_##T##_quantize((const e2e_##T *)v, (e2e_##T##_snap *)s); } \
    static void T##_deq_v(const void *s, void *v) { e2e_##T##_dequantize((const e2e_##T##_snap *)s, (e2e_##T *)v); } \
    static bool T##_eq_v(const void *a, const void *b)                                              \
    {                                                                                               \
        return e2e_##T##_snap_equal((const e2e_##T##_snap *)a, (const e2e_##T##_snap *)b);          \
    }

#define COMPONENT(T)                                                                                \
    COMMON(T)                                                                                       \
    static ns_status T##_w(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)   \
    {                                                                                               \
        return e2e_##T##_write(w, (const e2e_##T##_snap *)cur, b, to);                              \
    }                                                                                               \
    static ns_status T##_r(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                               \
        return e2e_##T##_read(r, (e2e_##T##_snap *)out, b, to);                                     \
    }                                                                                               \
    static const codec T##_codec = {&e2e_##T##_desc, T##_w, T##_r, T##_init_v, T##_quant_v, T##_deq_v, T##_eq_v, 3};

/* Inputs and structs are coded against one reference: the newest "baseline". */
#define ONE_REF(T)                                                                                  \
    COMMON(T)                                                                                       \
    static const e2e_##T##_snap *T##_ref(const ns_baselines *b)                                     \
    {                                                                                               \
        return b && b->count ? (const e2e_##T##_snap *)b->snap[0] : NULL;                           \
    }                                                                                               \
    static ns_status T##_w(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)   \
    {                                                                                               \
        (void)to;                                                                                   \
        return e2e_##T##_write(w, (const e2e_##T##_snap *)cur, T##_ref(b));                         \
    }                                                                                               \
    static ns_status T##_r(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                               \
        (void)to;                                                                                   \
        return e2e_##T##_read(r, (e2e_##T##_snap *)out, T##_ref(b));                                \
    }                                                                                               \
    static const codec T##_codec = {&e2e_##T##_desc, T##_w, T##_r, T##_init_v, T##_quant_v, T##_deq_v, T##_eq_v, 1};

#define RPC(T)                                                                                      \
    COMMON(T)                                                                                       \
    static ns_status T##_w(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to)   \
    {                                                                                               \
        (void)b, (void)to;                                                                          \
        return e2e_##T##_write(w, (const e2e_##T##_snap *)cur);                                     \
    }                                                                                               \
    static ns_status T##_r(ns_reader *r, void *out, const ns_baselines *b, ns_audience to)         \
    {                                                                                               \
        (void)b, (void)to;                                                                          \
        return e2e_##T##_read(r, (e2e_##T##_snap *)out);                                            \
    }                                                                                               \
    static const codec T##_codec = {&e2e_##T##_desc, T##_w, T##_r, T##_init_v, T##_quant_v, T##_deq_v, T##_eq_v, 0};

COMPONENT(Scalars)
COMPONENT(Motion)
COMPONENT(Coded)
COMPONENT(Text)
COMPONENT(Shapes)
COMPONENT(Audience)
COMPONENT(OwnerOnly)
COMPONENT(Marker)
ONE_REF(Controls)
ONE_REF(Pair)
ONE_REF(Tag)
ONE_REF(Nest)
RPC(Notice)

static const codec *const codecs[] = {
    &Scalars_codec, &Motion_codec, &Coded_codec, &Text_codec, &Shapes_codec, &Audience_codec, &OwnerOnly_codec,
    &Marker_codec, &Controls_codec, &Pair_codec, &Tag_codec, &Nest_codec, &Notice_codec,
};
#define NCODECS (sizeof codecs / sizeof codecs[0])

/* The snapshot of a type's defaults, as _init and _quantize make it. */
static void default_snap(const codec *c, void *snap)
{
    void *v = malloc(c->desc->value_size);
    c->init(v);
    c->quantize(v, snap);
    free(v);
}

/* ---- randomized round-trips ---------------------------------------------------------------- */

typedef struct scratch {
    void    *b2, *b1, *b0, *cur, *out, *dflt;
    uint8_t *buf;
    size_t   cap;
} scratch;

static void scratch_init(scratch *s, const codec *c)
{
    size_t n = c->desc->snap_size;
    s->b2 = calloc(1, n), s->b1 = calloc(1, n), s->b0 = calloc(1, n), s->cur = calloc(1, n);
    s->out = calloc(1, n), s->dflt = calloc(1, n);
    s->cap = c->desc->max_bits / 8 + 16;
    s->buf = malloc(s->cap);
    default_snap(c, s->dflt);
}

static void scratch_free(scratch *s)
{
    free(s->b2), free(s->b1), free(s->b0), free(s->cur), free(s->out), free(s->dflt), free(s->buf);
}

static ns_baselines baselines(scratch *s, uint32_t n)
{
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.snap[0] = s->b0, b.snap[1] = s->b1, b.snap[2] = s->b2;
    b.tick[0] = 10, b.tick[1] = 9, b.tick[2] = 8;
    b.count = n;
    b.tick_now = 11;
    return b;
}

/* Checks out against what a reader must have: cur where the field was sent, the reference
 * (defaults or baseline 0) where it was not. Predicted references are not known here. */
static void check_decoded(const codec *c, const scratch *s, const void *out, ns_audience to, uint32_t nb, int at)
{
    const ns_type_desc *d = c->desc;
    const void *ref = nb ? s->b0 : s->dflt;
    for (uint32_t i = 0; i < d->field_count; i++) {
        if (e2e_slot_sent(d, i, to, nb)) {
            NS_CHECK(e2e_slot_equal(d, i, out, s->cur), "%s case %d, %u baselines, to %d: %s did not round-trip",
                     d->name, at, nb, to, d->fields[i].path);
        } else if (nb < 3 || !(d->fields[i].flags & NS_FIELD_PREDICTED)) {
            NS_CHECK(e2e_slot_equal(d, i, out, ref), "%s case %d: unsent %s is not the reference", d->name, at,
                     d->fields[i].path);
        }
    }
}

/* Reads every strict prefix of an encoding from an exactly sized copy: each must fail, read
 * nothing beyond the copy (ASan) and leave out exactly as it was. */
static void check_truncations(const codec *c, const scratch *s, const ns_baselines *b, ns_audience to, size_t used)
{
    void *out = malloc(c->desc->snap_size);
    for (size_t len = 0; len < used; len++) {
        uint8_t *copy = malloc(len ? len : 1);
        memcpy(copy, s->buf, len);
        memcpy(out, s->cur, c->desc->snap_size);
        ns_reader r;
        ns_reader_init(&r, copy, len);
        ns_status st = c->read(&r, out, b, to);
        NS_CHECK(st == NS_ERR_TRUNCATED, "%s: a %zu-byte prefix of %zu read as %s", c->desc->name, len, used,
                 ns_status_str(st));
        NS_CHECK(memcmp(out, s->cur, c->desc->snap_size) == 0, "%s: a failed read changed its destination", c->desc->name);
        free(copy);
    }
    free(out);
}

START_TEST(random_round_trips)
{
    const codec *c = codecs[_i];
    scratch s;
    scratch_init(&s, c);
    ns_rng rng = {0x5eed0000u + (uint64_t)_i};
    bool component = c->desc->kind == NS_KIND_COMPONENT;
    size_t total_bits = 0, writes = 0;
    for (int at = 0; at < CASES; at++) {
        e2e_trajectory(c, &rng, s.b2, s.b1, s.b0, s.cur);
        for (uint32_t nb = 0; nb <= c->max_baselines; nb++) {
            ns_baselines b = baselines(&s, nb);
            for (int aud = 0; aud < (component ? 2 : 1); aud++) {
                ns_audience to = aud ? NS_TO_OWNER : NS_TO_OBSERVER;
                ns_writer w;
                ns_writer_init(&w, s.buf, s.cap);
                ns_status st = c->write(&w, s.cur, &b, to);
                NS_CHECK(st == NS_OK, "%s case %d: write failed: %s", c->desc->name, at, ns_status_str(st));
                size_t bits = ns_writer_bits(&w);
                NS_CHECK(bits <= c->desc->max_bits, "%s: %zu bits > MAX_BITS %u", c->desc->name, bits, c->desc->max_bits);
                size_t used = ns_writer_flush(&w);
                total_bits += bits, writes++;
                ns_reader r;
                ns_reader_init(&r, s.buf, used);
                st = c->read(&r, s.out, &b, to);
                NS_CHECK(st == NS_OK, "%s case %d: read failed: %s", c->desc->name, at, ns_status_str(st));
                NS_CHECK(ns_reader_bits(&r) == bits, "%s case %d: read %zu of %zu bits", c->desc->name, at,
                         ns_reader_bits(&r), bits);
                check_decoded(c, &s, s.out, to, nb, at);
                if (at < TRUNCATION_CASES) check_truncations(c, &s, &b, to, used);
            }
        }
    }
    scratch_free(&s);
    ck_assert_uint_gt(writes, 0);
    (void)total_bits;
}
END_TEST

START_TEST(garbage_never_escapes_the_buffer)
{
    const codec *c = codecs[_i];
    scratch s;
    scratch_init(&s, c);
    ns_rng rng = {0xbad0000u + (uint64_t)_i};
    for (int at = 0; at < 20000; at++) {
        e2e_trajectory(c, &rng, s.b2, s.b1, s.b0, s.cur);
        size_t len = ns_rng_below(&rng, 64);
        uint8_t *junk = malloc(len ? len : 1);
        for (size_t i = 0; i < len; i++) junk[i] = (uint8_t)ns_rng_next(&rng);
        uint32_t nb = (uint32_t)ns_rng_below(&rng, c->max_baselines + 1);
        ns_baselines b = baselines(&s, nb);
        ns_reader r;
        ns_reader_init(&r, junk, len);
        memcpy(s.out, s.cur, c->desc->snap_size); /* what the destination held before */
        ns_status st = c->read(&r, s.out, &b, ns_rng_below(&rng, 2) ? NS_TO_OWNER : NS_TO_OBSERVER);
        /* Either a valid snapshot or an error with the destination untouched; a valid result
         * must be writable again (the reader accepts only what the writer can produce). */
        if (st == NS_OK) {
            ns_writer w;
            ns_writer_init(&w, s.buf, s.cap);
            NS_CHECK(c->write(&w, s.out, &b, NS_TO_OWNER) == NS_OK, "%s: read garbage that cannot be written",
                     c->desc->name);
        } else {
            NS_CHECK(memcmp(s.out, s.cur, c->desc->snap_size) == 0, "%s: a failed read changed its destination",
                     c->desc->name);
        }
        free(junk);
    }
    scratch_free(&s);
}
END_TEST

START_TEST(defaults_cost_one_bit)
{
    /* The default snapshot is computed by the compiler; _init + _quantize must give exactly it,
     * so an untouched entity written against the defaults sends only "nothing changed". */
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = codecs[k];
        scratch s;
        scratch_init(&s, c);
        for (int aud = 0; aud < 2; aud++) {
            ns_writer w;
            ns_writer_init(&w, s.buf, s.cap);
            ck_assert_int_eq(c->write(&w, s.dflt, NULL, aud ? NS_TO_OWNER : NS_TO_OBSERVER), NS_OK);
            size_t slots_sent = 0;
            for (uint32_t i = 0; i < c->desc->field_count; i++)
                slots_sent += e2e_slot_sent(c->desc, i, aud ? NS_TO_OWNER : NS_TO_OBSERVER, 0);
            ck_assert_msg(ns_writer_bits(&w) == (slots_sent ? 1u : 0u), "%s: defaults cost %zu bits", c->desc->name,
                          ns_writer_bits(&w));
        }
        scratch_free(&s);
    }
}
END_TEST

/* ---- audiences ------------------------------------------------------------------------------ */

/* Bytes of one write of cur, into out; returns the bit count. */
static size_t encode_audience(const e2e_Audience_snap *cur, ns_audience to, uint32_t nb, const ns_baselines *b,
                              uint8_t *out, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, out, cap);
    ck_assert_int_eq(e2e_Audience_write(&w, cur, nb ? b : NULL, to), NS_OK);
    size_t bits = ns_writer_bits(&w);
    ns_writer_flush(&w);
    return bits;
}

/* The compiler prints a descriptor's flags as one number: it must be the NS_FIELD_* bits that
 * the fields' attributes name (the audience conditions: test_modes). */
START_TEST(descriptor_flags_are_the_named_bits)
{
    const ns_field_desc *f = e2e_Audience_desc.fields;
    const uint32_t all = NS_FIELD_TO_OWNER | NS_FIELD_TO_OTHERS;
    ck_assert_uint_eq(f[0].flags, all | NS_FIELD_PREDICTED | NS_FIELD_RANGED | NS_FIELD_NOTIFY | NS_FIELD_BOUNDED);
    ck_assert_uint_eq(f[1].flags,
                      NS_FIELD_TO_OWNER | NS_FIELD_PREDICTED | NS_FIELD_NOTIFY | NS_FIELD_UNSIGNED | NS_FIELD_BOUNDED);
    ck_assert_uint_eq(f[2].flags, NS_FIELD_TO_OTHERS | NS_FIELD_PREDICTED | NS_FIELD_UNSIGNED | NS_FIELD_BOUNDED);
    ck_assert_uint_eq(f[4].flags, all | NS_FIELD_INITIAL | NS_FIELD_NOTIFY);
    ck_assert_uint_eq(e2e_OwnerOnly_desc.fields[1].flags,
                      NS_FIELD_TO_OWNER | NS_FIELD_INITIAL | NS_FIELD_PREDICTED | NS_FIELD_UNSIGNED | NS_FIELD_BOUNDED);
}
END_TEST

START_TEST(owner_fields_never_reach_observers)
{
    ns_rng rng = {77};
    scratch s;
    scratch_init(&s, &Audience_codec);
    for (int at = 0; at < 2000; at++) {
        e2e_trajectory(&Audience_codec, &rng, s.b2, s.b1, s.b0, s.cur);
        e2e_Audience_snap *cur = s.cur;
        e2e_Audience_snap other = *cur;
        other.ammo = (uint16_t)(cur->ammo + 1 + ns_rng_below(&rng, 1000)); /* @sync(owner) */
        other.local_only = cur->local_only ^ 0x5a5a5a5au;                   /* @sync(none) */
        for (uint32_t nb = 0; nb <= 3; nb++) {
            ns_baselines b = baselines(&s, nb);
            uint8_t a[E2E_AUDIENCE_MAX_BYTES + 8], o[E2E_AUDIENCE_MAX_BYTES + 8];
            memset(a, 0, sizeof a), memset(o, 0, sizeof o);
            size_t bits_a = encode_audience(cur, NS_TO_OBSERVER, nb, &b, a, sizeof a);
            size_t bits_o = encode_audience(&other, NS_TO_OBSERVER, nb, &b, o, sizeof o);
            /* The observer's stream does not change at all when only owner or local fields do. */
            ck_assert_uint_eq(bits_a, bits_o);
            ck_assert_mem_eq(a, o, (bits_a + 7) / 8);
            /* And what the observer decodes for them is its reference, never the value. */
            e2e_Audience_snap out;
            ns_reader r;
            ns_reader_init(&r, o, (bits_o + 7) / 8);
            ck_assert_int_eq(e2e_Audience_read(&r, &out, nb ? &b : NULL, NS_TO_OBSERVER), NS_OK);
            const e2e_Audience_snap *ref = nb ? (const e2e_Audience_snap *)s.b0 : (const e2e_Audience_snap *)s.dflt;
            /* (With three baselines the reference of a predicted field is its prediction.) */
            if (nb < 3) ck_assert_uint_eq(out.ammo, ref->ammo);
            if (nb < 3) ck_assert_uint_eq(out.local_only, ref->local_only);
            /* The owner does get ammo, but never local_only. */
            size_t owner_a = encode_audience(cur, NS_TO_OWNER, nb, &b, a, sizeof a);
            e2e_Audience_snap only_local = *cur;
            only_local.local_only = other.local_only;
            size_t owner_l = encode_audience(&only_local, NS_TO_OWNER, nb, &b, o, sizeof o);
            ck_assert_uint_eq(owner_a, owner_l);
            ck_assert_mem_eq(a, o, (owner_a + 7) / 8);
        }
    }
    scratch_free(&s);
    /* A component the observer may not see at all costs it nothing. */
    e2e_OwnerOnly v;
    e2e_OwnerOnly_snap snap;
    e2e_OwnerOnly_init(&v);
    v.secret = 1234;
    e2e_OwnerOnly_quantize(&v, &snap);
    uint8_t buf[16];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(e2e_OwnerOnly_write(&w, &snap, NULL, NS_TO_OBSERVER), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), 0);
}
END_TEST

START_TEST(initial_fields_only_in_full_states)
{
    e2e_Audience v;
    e2e_Audience_init(&v);
    e2e_Audience_set_title(&v, "Champion");
    e2e_Audience_snap first, later;
    e2e_Audience_quantize(&v, &first);
    e2e_Audience_set_title(&v, "Renamed");
    e2e_Audience_quantize(&v, &later);
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.snap[0] = &first;
    b.count = 1;
    uint8_t buf[64];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(e2e_Audience_write(&w, &later, &b, NS_TO_OBSERVER), NS_OK);
    /* Only the title changed, and it is @initial: a delta sends nothing. */
    ck_assert_uint_eq(ns_writer_bits(&w), 1);
    e2e_Audience_snap out;
    ns_reader r;
    ns_reader_init(&r, buf, ns_writer_flush(&w));
    ck_assert_int_eq(e2e_Audience_read(&r, &out, &b, NS_TO_OBSERVER), NS_OK);
    ck_assert_str_eq(out.title, "Champion");
}
END_TEST

/* ---- prediction ------------------------------------------------------------------------------ */

/* Sets the integer component k of a snapshot slot. */
static void set_component(const ns_field_desc *f, void *snap, unsigned k, int64_t v)
{
    unsigned char *p = (unsigned char *)snap + f->snap_offset + k * (f->snap_size / (f->components ? f->components : 1));
    size_t each = f->snap_size / (f->components ? f->components : 1);
    int32_t v32 = (int32_t)v;
    if (each == 8) memcpy(p, &v, 8);
    else if (each == 4) memcpy(p, &v32, 4);
    else if (each == 2) {
        int16_t v16 = (int16_t)v;
        memcpy(p, &v16, 2);
    }
}

START_TEST(constant_velocity_costs_only_the_mask)
{
    const codec *c = &Motion_codec;
    scratch s;
    scratch_init(&s, c);
    ns_rng rng = {4242};
    for (int at = 0; at < 2000; at++) {
        e2e_random_snap(c, &rng, s.b2);
        memcpy(s.b1, s.b2, c->desc->snap_size);
        memcpy(s.b0, s.b2, c->desc->snap_size);
        memcpy(s.cur, s.b2, c->desc->snap_size);
        /* Every predicted component moves by a constant step per tick; the rest stands still. */
        for (uint32_t i = 0; i < c->desc->field_count; i++) {
            const ns_field_desc *f = &c->desc->fields[i];
            if (!(f->flags & NS_FIELD_PREDICTED)) continue;
            for (unsigned k = 0; k < f->components; k++) {
                /* Three steps must stay inside the field's range. */
                int64_t span = f->hi - f->lo, margin = span / 4 < 200 ? span / 4 : 200;
                int64_t max_step = margin / 3 < 40 ? margin / 3 : 40;
                int64_t lo = f->lo + margin, hi = f->hi - margin;
                int64_t start = lo + (int64_t)(ns_rng_next(&rng) % (uint64_t)(hi - lo + 1));
                int64_t step = (int64_t)ns_rng_below(&rng, (uint64_t)(2 * max_step + 1)) - max_step;
                set_component(f, s.b2, k, start);
                set_component(f, s.b1, k, start + step);
                set_component(f, s.b0, k, start + 2 * step);
                set_component(f, s.cur, k, start + 3 * step);
            }
        }
        ns_baselines b = baselines(&s, 3);
        uint8_t buf[E2E_MOTION_MAX_BYTES + 8];
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(c->write(&w, s.cur, &b, NS_TO_OBSERVER), NS_OK);
        ck_assert_uint_eq(ns_writer_bits(&w), 1); /* the mask: "nothing differs from the prediction" */
        e2e_Motion_snap out;
        ns_reader r;
        ns_reader_init(&r, buf, ns_writer_flush(&w));
        ck_assert_int_eq(c->read(&r, &out, &b, NS_TO_OBSERVER), NS_OK);
        ck_assert(c->snap_equal(&out, s.cur));
        /* With two baselines there is no prediction: the motion has to be sent. */
        b = baselines(&s, 2);
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(c->write(&w, s.cur, &b, NS_TO_OBSERVER), NS_OK);
        ck_assert_uint_gt(ns_writer_bits(&w), 1);
    }
    scratch_free(&s);
}
END_TEST

/* ---- hooks ----------------------------------------------------------------------------------- */

typedef struct hook_log {
    char     calls[16][32];
    int      n;
    int32_t  hp_old, hp_new;
    char     title_old[32], title_new[32];
    e2e_Pair pair_old, pair_new;
    bool     whole_component_updated;
    const e2e_Audience *expect;
} hook_log;

static void record(hook_log *log, const char *name, const e2e_Audience *live)
{
    snprintf(log->calls[log->n++], sizeof log->calls[0], "%s", name);
    /* Hooks run after every field has its new value. */
    if (!e2e_Audience_equal(live, log->expect)) log->whole_component_updated = false;
}

static void on_hp(void *ctx, e2e_Audience *live, int32_t old_value, int32_t new_value)
{
    hook_log *log = ctx;
    log->hp_old = old_value, log->hp_new = new_value;
    record(log, "hp", live);
}

static void on_ammo(void *ctx, e2e_Audience *live, uint16_t old_value, uint16_t new_value)
{
    (void)old_value, (void)new_value;
    record(ctx, "ammo", live);
}

static void on_title(void *ctx, e2e_Audience *live, const char *old_value, const char *new_value)
{
    hook_log *log = ctx;
    snprintf(log->title_old, sizeof log->title_old, "%s", old_value);
    snprintf(log->title_new, sizeof log->title_new, "%s", new_value);
    record(log, "title", live);
}

static void on_spot(void *ctx, e2e_Audience *live, const ns_vec3 *old_value, const ns_vec3 *new_value)
{
    (void)old_value, (void)new_value;
    record(ctx, "spot", live);
}

static void on_pair(void *ctx, e2e_Audience *live, const e2e_Pair *old_value, const e2e_Pair *new_value)
{
    hook_log *log = ctx;
    log->pair_old = *old_value, log->pair_new = *new_value;
    record(log, "pair", live);
}

static void on_mood(void *ctx, e2e_Audience *live, float old_value, float new_value)
{
    (void)old_value, (void)new_value;
    record(ctx, "mood", live);
}

START_TEST(notify_hooks_fire_for_changed_fields_in_order)
{
    e2e_Audience_hooks hooks = {on_hp, on_ammo, on_title, on_spot, on_pair, on_mood};
    e2e_Audience sender, live;
    e2e_Audience_init(&sender);
    e2e_Audience_init(&live);
    e2e_Audience_snap s;
    hook_log log;

    /* Nothing changed: no hook. */
    memset(&log, 0, sizeof log);
    e2e_Audience_quantize(&sender, &s);
    log.expect = &live;
    e2e_Audience_apply(&live, &s, &hooks, &log);
    ck_assert_int_eq(log.n, 0);

    /* hp, title and pair change; taunt (no @notify) changes too; ammo, spot, mood do not. */
    e2e_Pair p = {3, 4};
    e2e_Audience_set_hp(&sender, 55);
    e2e_Audience_set_title(&sender, "Hero");
    e2e_Audience_set_pair(&sender, &p);
    e2e_Audience_set_taunt(&sender, 9);
    e2e_Audience_quantize(&sender, &s);
    e2e_Audience expected;
    e2e_Audience_init(&expected);
    e2e_Audience_dequantize(&s, &expected);
    memset(&log, 0, sizeof log);
    log.expect = &expected;
    log.whole_component_updated = true;
    e2e_Audience_apply(&live, &s, &hooks, &log);
    ck_assert_int_eq(log.n, 3);
    ck_assert_str_eq(log.calls[0], "hp");
    ck_assert_str_eq(log.calls[1], "title");
    ck_assert_str_eq(log.calls[2], "pair");
    ck_assert_int_eq(log.hp_old, 100);
    ck_assert_int_eq(log.hp_new, 55);
    ck_assert_str_eq(log.title_old, "");
    ck_assert_str_eq(log.title_new, "Hero");
    ck_assert_int_eq(log.pair_old.a, -7);
    ck_assert_int_eq(log.pair_new.a, 3);
    ck_assert(log.whole_component_updated);
    ck_assert_uint_eq(live.taunt, 9);

    /* A NULL hooks table just applies. */
    e2e_Audience_set_hp(&sender, 1);
    e2e_Audience_quantize(&sender, &s);
    e2e_Audience_apply(&live, &s, NULL, NULL);
    ck_assert_int_eq(live.hp, 1);
}
END_TEST

/* Leaves 0x5a bytes where the next call's locals will be, as earlier calls leave a stack;
 * called through a volatile pointer so that it is not inlined away. */
static void fill_stack(void)
{
    volatile unsigned char junk[1024];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0x5a;
}
static void (*volatile dirty_stack)(void) = fill_stack;

/* A string setter stores the string and zeros after it, whatever its scratch held: a value is
 * the same bytes however the string got there (netschemac once copied uninitialized bytes). */
START_TEST(string_setters_leave_zeros_after_the_string)
{
    e2e_Audience v;
    e2e_Audience_init(&v);
    memset(v.title, 'x', sizeof v.title - 1);
    dirty_stack();
    e2e_Audience_set_title(&v, "ab");
    ck_assert_str_eq(v.title, "ab");
    for (size_t i = 2; i < sizeof v.title; i++) ck_assert_uint_eq((unsigned char)v.title[i], 0);
}
END_TEST

START_TEST(setters_track_dirty_fields)
{
    e2e_Audience v;
    e2e_Audience_init(&v);
    ck_assert(!e2e_Audience_is_dirty(&v));
    e2e_Audience_set_hp(&v, 100); /* the value it already has */
    ck_assert(!e2e_Audience_is_dirty(&v));
    e2e_Audience_set_hp(&v, 99);
    ck_assert(e2e_Audience_is_dirty(&v));
    e2e_Audience_clear_dirty(&v);
    ck_assert(!e2e_Audience_is_dirty(&v));
    e2e_Audience_set_title(&v, "");
    e2e_Audience_set_mood(&v, 0.0f);
    ck_assert(!e2e_Audience_is_dirty(&v));
    e2e_Audience_set_mood(&v, -0.0f); /* bitwise: -0 is a change */
    ck_assert(e2e_Audience_is_dirty(&v));
    e2e_Audience_clear_dirty(&v);
    e2e_Audience_set_title(&v, "a string far longer than the twenty-four bytes a title holds");
    ck_assert(e2e_Audience_is_dirty(&v));
    ck_assert_uint_eq(strlen(v.title), 24);
    /* Applying a snapshot is the receiver's business: it does not mark anything dirty. */
    e2e_Audience_clear_dirty(&v);
    e2e_Audience_snap s;
    e2e_Audience_quantize(&v, &s);
    s.hp = 5;
    e2e_Audience_apply(&v, &s, NULL, NULL);
    ck_assert(!e2e_Audience_is_dirty(&v));
}
END_TEST

/* ---- interpolation ---------------------------------------------------------------------------- */

static e2e_Motion_snap motion(float level_steps_jumpy_base)
{
    e2e_Motion v;
    e2e_Motion_init(&v);
    v.level = (int32_t)level_steps_jumpy_base;
    v.steps = (uint16_t)(level_steps_jumpy_base + 1000);
    v.jumpy = (int16_t)level_steps_jumpy_base;
    e2e_Motion_snap s;
    e2e_Motion_quantize(&v, &s);
    return s;
}

START_TEST(interpolation_follows_each_smoothing_mode)
{
    e2e_Motion_snap from = motion(-100), to = motion(100);
    e2e_Motion out;
    e2e_Motion_init(&out);
    /* clamp: from until t reaches 1 */
    e2e_Motion_interpolate(&from, &to, 0.99f, &out);
    ck_assert_int_eq(out.jumpy, -100);
    e2e_Motion_interpolate(&from, &to, 1.0f, &out);
    ck_assert_int_eq(out.jumpy, 100);
    /* interpolate: lerp with t clamped to [0, 1] */
    e2e_Motion_interpolate(&from, &to, 0.25f, &out);
    ck_assert_int_eq(out.level, -50);
    e2e_Motion_interpolate(&from, &to, -1.0f, &out);
    ck_assert_int_eq(out.level, -100);
    e2e_Motion_interpolate(&from, &to, 3.0f, &out);
    ck_assert_int_eq(out.level, 100);
    /* extrapolate: past 1, up to 1 + NS_EXTRAPOLATE_LIMIT (1.0 by default) */
    e2e_Motion_interpolate(&from, &to, 1.5f, &out);
    ck_assert_int_eq(out.steps, 1000 + 200);
    e2e_Motion_interpolate(&from, &to, 10.0f, &out);
    ck_assert_int_eq(out.steps, 1000 + 300);
}
END_TEST

START_TEST(quaternions_take_the_shortest_arc)
{
    ns_rng rng = {31337};
    for (int at = 0; at < 10000; at++) {
        /* A random rotation, and one a little further on, given with the opposite sign. */
        double a[4], n = 0;
        for (int k = 0; k < 4; k++) a[k] = ns_rng_unit(&rng) * 2 - 1, n += a[k] * a[k];
        ns_quat q0 = {(float)(a[0] / sqrt(n)), (float)(a[1] / sqrt(n)), (float)(a[2] / sqrt(n)), (float)(a[3] / sqrt(n))};
        ns_quat q1 = {q0.x + 0.05f, q0.y - 0.03f, q0.z, q0.w + 0.02f};
        q1 = ns_quat_normalize(q1);
        ns_quat neg = {-q1.x, -q1.y, -q1.z, -q1.w};
        e2e_Motion v0, v1, out;
        e2e_Motion_init(&v0);
        e2e_Motion_init(&v1);
        e2e_Motion_init(&out);
        v0.rot = v0.rot3 = v0.rawrot = q0;
        v1.rot = v1.rot3 = v1.rawrot = neg;
        e2e_Motion_snap s0, s1;
        e2e_Motion_quantize(&v0, &s0);
        e2e_Motion_quantize(&v1, &s1);
        e2e_Motion_interpolate(&s0, &s1, 0.5f, &out);
        const ns_quat *got[3] = {&out.rot, &out.rot3, &out.rawrot};
        for (int k = 0; k < 3; k++) {
            const ns_quat *g = got[k];
            double len = sqrt((double)g->x * g->x + (double)g->y * g->y + (double)g->z * g->z + (double)g->w * g->w);
            ck_assert_double_eq_tol(len, 1.0, 1e-5);
            /* Halfway along the short arc is close to both ends (up to sign); the long way round
             * would pass near the orthogonal rotations instead. */
            double d0 = fabs((double)g->x * q0.x + (double)g->y * q0.y + (double)g->z * q0.z + (double)g->w * q0.w);
            double d1 = fabs((double)g->x * q1.x + (double)g->y * q1.y + (double)g->z * q1.z + (double)g->w * q1.w);
            ck_assert_msg(d0 > 0.99 && d1 > 0.99, "quaternion %d: |dot| %f and %f", k, d0, d1);
        }
    }
}
END_TEST

/* ---- snapshot checks ----------------------------------------------------------------------------- */

START_TEST(writes_refuse_invalid_snapshots)
{
    uint8_t buf[1024];
    ns_writer w;
    e2e_Scalars sv;
    e2e_Scalars_snap ss;
    e2e_Scalars_init(&sv);
    e2e_Scalars_quantize(&sv, &ss);
    ss.mode = 3; /* not one of idle, walk, run, fly */
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(e2e_Scalars_write(&w, &ss, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    ck_assert_uint_eq(ns_writer_bits(&w), 0);

    e2e_Coded cv;
    e2e_Coded_snap cs;
    e2e_Coded_init(&cv);
    e2e_Coded_quantize(&cv, &cs);
    cs.ranged = 501;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(e2e_Coded_write(&w, &cs, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    cs.ranged = 0;
    cs.bigu = 9;
    ck_assert_int_eq(e2e_Coded_write(&w, &cs, NULL, NS_TO_OWNER), NS_ERR_RANGE);

    e2e_Text tv;
    e2e_Text_snap ts;
    e2e_Text_init(&tv);
    e2e_Text_quantize(&tv, &ts);
    memset(ts.name, 'x', sizeof ts.name); /* no NUL */
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(e2e_Text_write(&w, &ts, NULL, NS_TO_OWNER), NS_ERR_MALFORMED);
    e2e_Text_quantize(&tv, &ts);
    ts.name[0] = (char)0xff; /* not UTF-8 */
    ck_assert_int_eq(e2e_Text_write(&w, &ts, NULL, NS_TO_OWNER), NS_ERR_MALFORMED);
    e2e_Text_quantize(&tv, &ts);
    ts.blob.len = 17;
    ck_assert_int_eq(e2e_Text_write(&w, &ts, NULL, NS_TO_OWNER), NS_ERR_RANGE);
}
END_TEST

START_TEST(quantize_clamps_and_sanitizes)
{
    e2e_Scalars sv;
    e2e_Scalars_init(&sv);
    sv.mode = (e2e_Mode)3;
    e2e_Scalars_snap ss;
    e2e_Scalars_quantize(&sv, &ss);
    ck_assert_uint_eq(ss.mode, e2e_Mode_walk); /* an undeclared value becomes the default */
    e2e_Motion mv;
    e2e_Motion_init(&mv);
    mv.heat = 1e9f;
    mv.level = -5000;
    e2e_Motion_snap ms;
    e2e_Motion_quantize(&mv, &ms);
    ck_assert_int_eq(ms.heat, 1500);
    ck_assert_int_eq(ms.level, -100);
    e2e_Text tv;
    e2e_Text_init(&tv);
    ck_assert_str_eq(tv.name, "hero");
    ck_assert_uint_eq(tv.blob.len, 3);
    ck_assert_uint_eq(tv.blob.data[2], 0xff);
    memset(tv.name, 'y', sizeof tv.name); /* the user forgot the NUL */
    e2e_Text_snap ts;
    e2e_Text_quantize(&tv, &ts);
    ck_assert_uint_eq(strlen(ts.name), 24);
}
END_TEST

static Suite *e2e_suite(void)
{
    Suite *s = suite_create("e2e");
    TCase *tc = tcase_create("round-trips");
    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, random_round_trips, 0, (int)NCODECS);
    tcase_add_loop_test(tc, garbage_never_escapes_the_buffer, 0, (int)NCODECS);
    tcase_add_test(tc, defaults_cost_one_bit);
    suite_add_tcase(s, tc);
    TCase *tf = tcase_create("features");
    tcase_set_timeout(tf, 600);
    tcase_add_test(tf, descriptor_flags_are_the_named_bits);
    tcase_add_test(tf, owner_fields_never_reach_observers);
    tcase_add_test(tf, initial_fields_only_in_full_states);
    tcase_add_test(tf, constant_velocity_costs_only_the_mask);
    tcase_add_test(tf, notify_hooks_fire_for_changed_fields_in_order);
    tcase_add_test(tf, setters_track_dirty_fields);
    tcase_add_test(tf, string_setters_leave_zeros_after_the_string);
    tcase_add_test(tf, interpolation_follows_each_smoothing_mode);
    tcase_add_test(tf, quaternions_take_the_shortest_arc);
    tcase_add_test(tf, writes_refuse_invalid_snapshots);
    tcase_add_test(tf, quantize_clamps_and_sanitizes);
    suite_add_tcase(s, tf);
    return s;
}

NS_TEST_MAIN(e2e_suite)
