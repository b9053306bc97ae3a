/* test_table_stream.c — the table mode (--codec table) against the default mode. Built twice per
 * schema group, once against each mode's generated code (both define the same symbols, so each
 * mode gets its own executable); each run writes to the file named by argv[1] a digest of what a
 * user can observe of the codecs over a fixed pseudo-random stream, and ctest compares the two
 * files (tests/e2e/CMakeLists.txt, "Table mode"). Per component and message:
 *   - snapshots read from random bits (against 0-1 baselines): status, bits consumed, state;
 *   - writes of them against 0-3 baselines (even, uneven and wrapping ticks) for every audience
 *     (owner, predicted, custom bits), sometimes into a buffer too small: status and bytes;
 *   - each record read back with the same baselines: status, bits, decoded state, and _snap_equal
 *     of it with what was written and of two snapshots of the stream;
 *   - random bits read against random baselines: status and bits; a refused read must leave the
 *     destination byte for byte as it was;
 *   - _quantize of random values (NaN, infinities, -0.0, huge, out of range, near halves) and
 *     _dequantize of the result and of the stream's snapshots: every byte of both; for the e2e
 *     group, _equal of those values, and of copies with one bit changed;
 *   - _interpolate between consecutive quantized snapshots at t = 0, 1, between, past 1, below 0,
 *     NaN and infinities; _prediction_error of consecutive values; _backup and _restore: every byte.
 * TABLE_CONFIG names a header that includes the group's generated headers and defines
 * TABLE_SCHEMAS, a list of ns_schema pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include TABLE_CONFIG

enum { SNAPS = 32, TRIES = 16, ROUNDS = 600, RANDOM_BYTES = 384 };

typedef struct digest {
    uint64_t h;
    uint64_t bytes;
} digest;

static int failures;

#define EXPECT(cond, ...)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            if (failures++ < 20) {                                                                                     \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                        \
                fprintf(stderr, __VA_ARGS__);                                                                          \
                fputc('\n', stderr);                                                                                   \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

static void mix(digest *d, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < n; i++) d->h = (d->h ^ b[i]) * 0x100000001b3ull; /* FNV-1a */
    d->bytes += n;
}

static void mix_u32(digest *d, uint32_t a, uint32_t b)
{
    const uint32_t v[2] = {a, b};
    mix(d, v, sizeof v);
}

static bool is_collection(const ns_field_desc *f)
{
    return f->encoding == NS_ENC_LIST || f->encoding == NS_ENC_MAP || f->encoding == NS_ENC_SET ||
           f->encoding == NS_ENC_FASTARRAY;
}

static bool holds_collection(const ns_type_desc *t)
{
    for (uint32_t i = 0; t && i < t->field_count; i++)
        if (is_collection(&t->fields[i]) || (t->fields[i].encoding == NS_ENC_COMPOSITE && holds_collection(t->fields[i].type)))
            return true;
    return false;
}

/* A decoded state, field by field from the descriptor (padding between members left out). A
 * collection's slots past its count hold whatever the destination held before (the default
 * mode's decoder leaves them): states holding collections are compared as ns_dump_snapshot
 * prints them, which shows every entry and nothing else. */
static void mix_state(digest *d, const ns_type_desc *t, const uint8_t *snap)
{
    if (!holds_collection(t)) {
        for (uint32_t i = 0; i < t->field_count; i++) mix(d, snap + t->fields[i].snap_offset, t->fields[i].snap_size);
        return;
    }
    FILE *f = tmpfile();
    if (!f) abort();
    ns_dump_snapshot(f, t, snap);
    long n = ftell(f);
    rewind(f);
    char text[4096];
    size_t got;
    while (n > 0 && (got = fread(text, 1, sizeof text, f)) > 0) mix(d, text, got);
    fclose(f);
}

static uint64_t rng_state;
static uint32_t next(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

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

static void pick_ticks(ns_baselines *b)
{
    uint32_t now = (next() % 4 == 0) ? 2u + next() % 6 : next() % 8 == 0 ? next() : 1000u + next() % 50000u;
    uint32_t gap = 1u + next() % 4;
    uint32_t t = now;
    for (uint32_t k = 0; k < b->count; k++) {
        t -= next() % 2 ? gap : 1u + next() % 7;
        b->tick[k] = t;
    }
    b->tick_now = now;
}

/* ---- _quantize and _dequantize on random values ---- */

/* True if random bytes are not a value a user could hold: collections (counts), unions (tags)
 * and extern structs (the user's own codec) anywhere in t. */
static bool values_unsafe(const ns_type_desc *t)
{
    for (uint32_t i = 0; t && i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        if (is_collection(f) || f->encoding == NS_ENC_UNION || f->encoding == NS_ENC_CUSTOM) return true;
        if (f->encoding == NS_ENC_ARRAY && (!f->elem || f->elem->encoding == NS_ENC_BOOL || f->elem->type)) return true;
        if ((f->encoding == NS_ENC_COMPOSITE || f->encoding == NS_ENC_ARRAY) && values_unsafe(f->type)) return true;
    }
    return false;
}

/* A float the quantizers must agree on: NaN, infinities, -0.0, huge, tiny, out of range,
 * near-halfway, or an ordinary value. */
static float special_f32(void)
{
    static const uint32_t bits[] = {0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u,
                                    0x00000000u, 0x7f7fffffu, 0xff7fffffu, 0x00000001u, 0x4f000000u,
                                    0xcf000001u, 0x3f000000u, 0xbf000000u, 0x3c23d70au};
    const uint32_t pick = next() % 24;
    float f;
    if (pick < sizeof bits / sizeof bits[0]) {
        memcpy(&f, &bits[pick], sizeof f);
        return f;
    }
    if (pick < 18) return (float)((int32_t)(next() % 4000001u) - 2000000) / 1000.0f + 0.0005f; /* near halves */
    if (pick < 21) return (float)((int32_t)(next() % 200001u) - 100000) * 37.5f;                 /* out of range */
    return (float)((int32_t)(next() % 2001u) - 1000) / 997.0f;                                    /* in range */
}

static double special_f64(void)
{
    const uint32_t pick = next() % 8;
    if (pick == 0) return 1e300;
    if (pick == 1) return -4.9e-324;
    if (pick == 2) return 12345678901.25;
    return (double)special_f32() * (pick == 3 ? 1.0000001 : 1.0);
}

static void random_float(const ns_field_desc *f, uint8_t *p, size_t left);

/* Random value bytes with specials in the float members and bools of 0 or 1 (a bool holding
 * another byte is not a value C lets a user make). */
static void random_value(const ns_type_desc *t, uint8_t *v, size_t room, bool bools)
{
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        uint8_t *p = v + f->value_offset;
        const size_t left = room - f->value_offset;
        switch (f->encoding) {
        case NS_ENC_BOOL:
            if (bools) *p = (uint8_t)(next() % 2);
            break;
        case NS_ENC_COMPOSITE:
            if (f->type) random_value(f->type, p, f->type->value_size, bools);
            break;
        default:
            if (bools) break; /* floats first: a double written over a float spills into the next member */
            random_float(f, p, left);
            break;
        }
    }
}

static void random_float(const ns_field_desc *f, uint8_t *p, size_t left)
{
    switch (f->encoding) {
    case NS_ENC_FLOAT64:
        if (next() % 4) {
            const double x = special_f64();
            memcpy(p, &x, sizeof x);
        }
        break;
    case NS_ENC_QUANT: /* float or double: the descriptor does not say, so sometimes a double */
        if (left >= 8 && next() % 3 == 0) {
            const double x = special_f64();
            memcpy(p, &x, sizeof x);
            break;
        }
        /* fall through */
    case NS_ENC_FLOAT32:
    case NS_ENC_VEC_Q:
    case NS_ENC_VEC_F:
    case NS_ENC_QUAT_Q:
    case NS_ENC_QUAT_F:
    case NS_ENC_QUAT_S3: {
        const uint32_t n = f->encoding >= NS_ENC_QUAT_Q && f->encoding <= NS_ENC_QUAT_F ? 4u : f->components;
        for (uint32_t k = 0; k < n && 4u * k + 4u <= left; k++)
            if (next() % 4) {
                const float x = special_f32();
                memcpy(p + 4u * k, &x, sizeof x);
            }
        break;
    }
    default:
        break;
    }
}

/* _equal has no generic entry point (ns_component_ops): for the e2e group, typed wrappers. */
typedef bool (*value_equal_fn)(const void *a, const void *b);
#ifdef E2E_SCHEMA_HASH
#define EQUAL_WRAPPER(T)                                                                                               \
    static bool equal_##T(const void *a, const void *b)                                                                \
    {                                                                                                                  \
        return e2e_##T##_equal((const e2e_##T *)a, (const e2e_##T *)b);                                                \
    }
EQUAL_WRAPPER(Scalars)
EQUAL_WRAPPER(Motion)
EQUAL_WRAPPER(Coded)
EQUAL_WRAPPER(Text)
EQUAL_WRAPPER(Shapes)
EQUAL_WRAPPER(Audience)
EQUAL_WRAPPER(Marker)
EQUAL_WRAPPER(Controls)
EQUAL_WRAPPER(Notice)
static value_equal_fn value_equal(const ns_type_desc *t)
{
    static const struct {
        const ns_type_desc *t;
        value_equal_fn fn;
    } fns[] = {{&e2e_Scalars_desc, equal_Scalars}, {&e2e_Motion_desc, equal_Motion},     {&e2e_Coded_desc, equal_Coded},
               {&e2e_Text_desc, equal_Text},       {&e2e_Shapes_desc, equal_Shapes},     {&e2e_Audience_desc, equal_Audience},
               {&e2e_Marker_desc, equal_Marker},   {&e2e_Controls_desc, equal_Controls}, {&e2e_Notice_desc, equal_Notice}};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (fns[i].t == t) return fns[i].fn;
    return NULL;
}
#else
static value_equal_fn value_equal(const ns_type_desc *t)
{
    (void)t;
    return NULL;
}
#endif

/* _prediction_error, _backup and _restore have no generic entry point either: typed wrappers
 * for the components of the groups that have them. */
typedef struct motion_fns {
    const ns_type_desc *t;
    /* the setters: the fields whose bit is set in pick set to src's (NULL: not covered) */
    void (*set)(void *v, const void *src, uint32_t pick);
    size_t errors; /* entries of _prediction_error */
    void (*error)(const void *predicted, const void *authoritative, float *out);
    void (*backup)(const void *from, void *backup);
    void (*restore)(void *into, const void *backup);
    void (*init)(void *v);
    /* setters on generated values (setter_stream): the fields whose bit is set in pick set to
     * values gen draws itself, for records whose random bytes are no value (values_unsafe) */
    void (*gen)(void *v, uint32_t pick);
} motion_fns;
#define MOTION_WRAPPERS(T)                                                                                             \
    static void error_##T(const void *p, const void *a, float *out)                                                    \
    {                                                                                                                  \
        T##_prediction_error((const T *)p, (const T *)a, out);                                                         \
    }                                                                                                                  \
    static void backup_##T(const void *from, void *b)                                                                  \
    {                                                                                                                  \
        T##_backup((const T##_snap *)from, (T##_snap *)b);                                                             \
    }                                                                                                                  \
    static void restore_##T(void *into, const void *b)                                                                 \
    {                                                                                                                  \
        T##_restore((T##_snap *)into, (const T##_snap *)b);                                                            \
    }                                                                                                                  \
    static void init_##T(void *v)                                                                                      \
    {                                                                                                                  \
        T##_init((T *)v);                                                                                              \
    }
#define MOTION_ENTRY(T) MOTION_ENTRY_SET(T, NULL)
#define MOTION_ENTRY_SET(T, set) MOTION_ENTRY_ALL(T, set, NULL)
#define MOTION_ENTRY_GEN(T, gen) MOTION_ENTRY_ALL(T, NULL, gen)
#define MOTION_ENTRY_ALL(T, set, gen)                                                                                  \
    {&T##_desc, set, sizeof T##_prediction_error_names / sizeof T##_prediction_error_names[0], error_##T, backup_##T,     \
     restore_##T, init_##T, gen}
/* Calls setter f of record T with src's value when bit k of pick is set (k counts up). */
#define SET(T, f)                                                                                                      \
    if (pick & (UINT32_C(1) << (k++ % 32u))) T##_set_##f((T *)v, ((const T *)src)->f)
/* gen's helpers: set field f (element i) of record T to the arguments, or to a struct S filled
 * by make(&s), or to random bytes of a random length up to twice the capacity, when bit k
 * of pick is set. */
#define GEN_AT(T, f, i, ...)                                                                                           \
    if (pick & (UINT32_C(1) << (k++ % 32u))) T##_set_##f((T *)v, i, __VA_ARGS__)
#define GEN_REF_AT(T, f, i, S, make)                                                                                   \
    if (pick & (UINT32_C(1) << (k++ % 32u))) {                                                                         \
        S s_;                                                                                                          \
        memset(&s_, 0, sizeof s_); /* padding: a struct setter may copy it, and a returned struct's is any */          \
        make(&s_);                                                                                                     \
        T##_set_##f((T *)v, i, &s_);                                                                                   \
    }
#define GEN_BYTES_AT(T, f, i)                                                                                          \
    if (pick & (UINT32_C(1) << (k++ % 32u))) {                                                                         \
        uint8_t b_[2 * sizeof ((T *)v)->f[i].data];                                                                    \
        const size_t n_ = next() % (sizeof b_ + 1u);                                                                   \
        random_bytes(b_, n_);                                                                                          \
        T##_set_##f((T *)v, i, b_, n_);                                                                                \
    }
#if defined(E2E_SCHEMA_HASH)
static void set_e2e_Scalars(void *v, const void *src, uint32_t pick)
{
    unsigned k = 0;
    SET(e2e_Scalars, b);
    SET(e2e_Scalars, i8v);
    SET(e2e_Scalars, u8v);
    SET(e2e_Scalars, i16v);
    SET(e2e_Scalars, u16v);
    SET(e2e_Scalars, i32v);
    SET(e2e_Scalars, u32v);
    SET(e2e_Scalars, i64v);
    SET(e2e_Scalars, u64v);
    SET(e2e_Scalars, f32v);
    SET(e2e_Scalars, f64v);
    SET(e2e_Scalars, e);
    SET(e2e_Scalars, mode);
    SET(e2e_Scalars, wide);
    SET(e2e_Scalars, sgn);
}
static void set_e2e_Motion(void *v, const void *src, uint32_t pick)
{
    unsigned k = 0;
    SET(e2e_Motion, v2);
    SET(e2e_Motion, pos);
    SET(e2e_Motion, color);
    SET(e2e_Motion, rot);
    SET(e2e_Motion, rot3);
    SET(e2e_Motion, rawrot);
    SET(e2e_Motion, vel);
    SET(e2e_Motion, heat);
    SET(e2e_Motion, precise);
    SET(e2e_Motion, plain);
    SET(e2e_Motion, dir);
    SET(e2e_Motion, level);
    SET(e2e_Motion, steps);
    SET(e2e_Motion, jumpy);
}
MOTION_WRAPPERS(e2e_Scalars)
MOTION_WRAPPERS(e2e_Motion)
MOTION_WRAPPERS(e2e_Coded)
MOTION_WRAPPERS(e2e_Audience)
MOTION_WRAPPERS(e2e_OwnerOnly)
MOTION_WRAPPERS(e2e_Shapes)
static const motion_fns motion_table[] = {MOTION_ENTRY_SET(e2e_Scalars, set_e2e_Scalars), MOTION_ENTRY_SET(e2e_Motion, set_e2e_Motion),
                                          MOTION_ENTRY(e2e_Coded),
                                          MOTION_ENTRY(e2e_Audience), MOTION_ENTRY(e2e_OwnerOnly), MOTION_ENTRY(e2e_Shapes)};
#elif defined(PRED_SCHEMA_HASH)
MOTION_WRAPPERS(pred_Player)
static const motion_fns motion_table[] = {MOTION_ENTRY(pred_Player)};
#elif defined(TELEPORT_SCHEMA_HASH)
MOTION_WRAPPERS(teleport_Body)
static const motion_fns motion_table[] = {MOTION_ENTRY(teleport_Body)};
#elif defined(MODES_SCHEMA_HASH)
MOTION_WRAPPERS(modes_Avatar)
MOTION_WRAPPERS(modes_Owned)
MOTION_WRAPPERS(modes_Plain)
MOTION_WRAPPERS(modes_Stance)
static const motion_fns motion_table[] = {MOTION_ENTRY(modes_Avatar), MOTION_ENTRY(modes_Owned), MOTION_ENTRY(modes_Plain),
                                          MOTION_ENTRY(modes_Stance)};
#elif defined(ARR_SCHEMA_HASH)
/* A NUL-terminated text of 0 to 19 bytes from an alphabet of ASCII, a valid two- and three-byte
 * UTF-8 sequence's bytes, a continuation byte and 0xff: valid, cut and stray sequences alike,
 * longer than most capacities, for the string setters' sanitizing (static: valid until the next). */
static const char *random_text(void)
{
    static const unsigned char alphabet[] = {'a', 'b', 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x80, 0xff};
    static char text[20];
    const size_t n = next() % sizeof text;
    for (size_t i = 0; i < n; i++) text[i] = (char)alphabet[next() % sizeof alphabet];
    text[n] = '\0';
    return text;
}

/* Generated values, each draw in its own statement (an initializer's order is the compiler's);
 * structs filled in place, into zeroed memory (GEN_REF_AT). */
static ns_vec3 random_vec3(void)
{
    ns_vec3 p;
    p.x = special_f32();
    p.y = special_f32();
    p.z = special_f32();
    return p;
}
static ns_quat random_quat(void)
{
    ns_quat q;
    q.x = special_f32();
    q.y = special_f32();
    q.z = special_f32();
    q.w = special_f32();
    return q;
}
static int64_t random_i64(void)
{
    const uint64_t hi = next();
    return (int64_t)(hi << 32 | next());
}
static void random_item(arr_Item *it)
{
    it->id = (uint16_t)next();
    const char *text = random_text(); /* raw: a struct's setter does not sanitize */
    for (size_t i = 0; i < sizeof it->name - 1 && text[i]; i++) it->name[i] = text[i];
}
static void random_pair(arr_Pair *p)
{
    p->v[0] = (uint8_t)(next() % 12);
    p->v[1] = (uint8_t)(next() % 12);
    p->on = next() % 2 != 0;
    p->w[0] = (int8_t)next();
    p->w[1] = (int8_t)next();
}

/* Every setter of Loadout, elements past the end included, on generated values, then some on
 * the values they hold (no change: no dirty bit; the member itself as the source); first, now
 * and then, _clear_dirty, so that a dirty bit set without a change shows. */
static void gen_arr_Loadout(void *v, uint32_t pick)
{
    unsigned k = 0;
    arr_Loadout *l = (arr_Loadout *)v;
    if (pick & UINT32_C(0x80000000)) arr_Loadout_clear_dirty(l);
    for (uint32_t i = 0; i < 3; i++) { /* 2: past the end of most */
        GEN_AT(arr_Loadout, ammo, i, (uint16_t)(next() % 1200));
        GEN_AT(arr_Loadout, heat, i, special_f32());
        GEN_AT(arr_Loadout, slots, i, (arr_Slot)(next() % 4));
        GEN_AT(arr_Loadout, targets, i, (ns_entity)next());
        GEN_AT(arr_Loadout, tags, i, random_text());
        GEN_REF_AT(arr_Loadout, items, i, arr_Item, random_item);
        GEN_REF_AT(arr_Loadout, pairs, i, arr_Pair, random_pair);
        GEN_AT(arr_Loadout, points, i, random_vec3());
        GEN_AT(arr_Loadout, flags, i, next() % 2 != 0);
        GEN_AT(arr_Loadout, turns, i, random_quat());
        GEN_AT(arr_Loadout, big, i, random_i64());
        GEN_AT(arr_Loadout, exact, i, special_f64());
        GEN_BYTES_AT(arr_Loadout, blobs, i % 2);
        GEN_AT(arr_Loadout, whole, i, (int16_t)next());
        GEN_REF_AT(arr_Loadout, citems, i, arr_Item, random_item);
        GEN_AT(arr_Loadout, cnames, i, random_text());
        GEN_AT(arr_Loadout, cfloats, i, special_f32());
    }
    if (pick & 1u) arr_Loadout_set_score((arr_Loadout *)v, (int32_t)next());
    for (uint32_t i = 0; i < 2; i++) {
        GEN_AT(arr_Loadout, tags, i, l->tags[i]);
        GEN_AT(arr_Loadout, items, i, &l->items[i]);
        GEN_AT(arr_Loadout, pairs, i, &l->pairs[i]);
        GEN_AT(arr_Loadout, cnames, i, l->cnames[i]);
        GEN_AT(arr_Loadout, blobs, i, l->blobs[i].data, l->blobs[i].len);
        GEN_AT(arr_Loadout, heat, i, l->heat[i]);
        GEN_AT(arr_Loadout, points, i, l->points[i]);
    }
    if (pick & 2u) arr_Loadout_set_score(l, l->score);
}
MOTION_WRAPPERS(arr_Loadout)
MOTION_WRAPPERS(arr_Tiny)
MOTION_WRAPPERS(arr_TinyWhole)
static const motion_fns motion_table[] = {MOTION_ENTRY_GEN(arr_Loadout, gen_arr_Loadout), MOTION_ENTRY(arr_Tiny), MOTION_ENTRY(arr_TinyWhole)};
#elif defined(STRK_SCHEMA_HASH)
MOTION_WRAPPERS(strk_Names)
static const motion_fns motion_table[] = {MOTION_ENTRY(strk_Names)};
#elif defined(DISP_A_SCHEMA_HASH)
MOTION_WRAPPERS(disp_a_Health)
MOTION_WRAPPERS(disp_a_Look)
MOTION_WRAPPERS(disp_base_Pos)
static const motion_fns motion_table[] = {MOTION_ENTRY(disp_a_Health), MOTION_ENTRY(disp_a_Look), MOTION_ENTRY(disp_base_Pos)};
#else
#define NO_MOTION_TABLE
#endif

static const motion_fns *motion_of(const ns_type_desc *t)
{
#ifndef NO_MOTION_TABLE
    for (size_t i = 0; i < sizeof motion_table / sizeof motion_table[0]; i++)
        if (motion_table[i].t == t) return &motion_table[i];
#endif
    (void)t;
    return NULL;
}

/* Which NaN an operation on two NaNs returns is the compiler's choice (a + b may be computed as
 * b + a), not C's: the default mode's inlined arithmetic and the runtime's may differ there, so
 * NaNs in interpolated values and prediction errors are compared as one canonical NaN. */
static void canon_f32(uint8_t *p)
{
    float x;
    memcpy(&x, p, sizeof x);
    if (x != x) memcpy(p, "\0\0\xc0\x7f", 4);
}

static void canon_f64(uint8_t *p)
{
    double x;
    memcpy(&x, p, sizeof x);
    if (x != x) memcpy(p, "\0\0\0\0\0\0\xf8\x7f", 8);
}

/* Canonical NaNs in the float-bits members of value v of t (F32, F64, raw vectors and
 * quaternions, also in structs and @composite arrays); quantized members dequantize to numbers. */
static void canon_field(const ns_field_desc *f, uint8_t *p)
{
    switch (f->encoding) {
    case NS_ENC_FLOAT32: canon_f32(p); break;
    case NS_ENC_FLOAT64: canon_f64(p); break;
    case NS_ENC_VEC_F:
        for (uint32_t k = 0; k < f->components; k++) canon_f32(p + 4u * k);
        break;
    case NS_ENC_QUAT_F:
        for (uint32_t k = 0; k < 4; k++) canon_f32(p + 4u * k);
        break;
    default: break;
    }
}

static void canon_value(const ns_type_desc *t, uint8_t *v)
{
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        uint8_t *p = v + f->value_offset;
        if (f->encoding == NS_ENC_COMPOSITE && f->type) {
            canon_value(f->type, p);
        } else if (f->encoding == NS_ENC_ARRAY && f->elem) {
            const size_t stride = f->elem->encoding == NS_ENC_FLOAT64 ? 8u
                                : f->elem->encoding == NS_ENC_QUAT_F  ? 16u
                                                                      : 4u * f->elem->components;
            if (f->elem->encoding == NS_ENC_FLOAT32 || f->elem->encoding == NS_ENC_FLOAT64 ||
                f->elem->encoding == NS_ENC_VEC_F || f->elem->encoding == NS_ENC_QUAT_F)
                for (uint32_t k = 0; k < f->capacity; k++) canon_field(f->elem, p + k * stride);
        } else {
            canon_field(f, p);
        }
    }
}

/* What a client does with two snapshots and two values (both quantized the same way in both
 * modes, padding included, so every byte counts): _interpolate at t = 0, 1, between, past 1
 * (extrapolation and its limit), below 0, NaN and infinity, into a patterned value; the
 * prediction errors of the two values; _backup and _restore into patterned snapshots. */
static void motion_checks(const ns_type_desc *t, void (*interpolate)(const void *, const void *, float, void *),
                          const uint8_t *from, const uint8_t *to, const uint8_t *value, const uint8_t *other,
                          uint8_t *out, uint8_t *snap, digest *d)
{
    static const float ts[] = {0.0f, 1.0f, 0.5f, 0.25f, 0.999f, 1e-7f, 1.5f, 2.0f, 2.75f, -0.5f, -1e30f, 1e30f};
    const size_t vz = t->value_size, sz = t->snap_size;
    if (interpolate) {
        for (size_t i = 0; i <= sizeof ts / sizeof ts[0] + 2; i++) {
            float at = i < sizeof ts / sizeof ts[0] ? ts[i] : (float)(next() % 3001u) / 1000.0f - 0.5f;
            if (i == sizeof ts / sizeof ts[0] + 2) { /* NaN */
                const uint32_t nan = 0x7fc00000u;
                memcpy(&at, &nan, sizeof at);
            }
            memset(out, 0x77, vz);
            interpolate(from, to, at, out);
            canon_value(t, out);
            mix(d, out, vz);
        }
    }
    const motion_fns *m = motion_of(t);
    if (!m) return;
    float errors[64];
    if (m->errors <= sizeof errors / sizeof errors[0]) {
        memset(errors, 0x55, sizeof errors);
        for (int k = 0; k < 2; k++) {
            m->error(k ? other : value, other, errors);
            for (size_t e = 0; e < m->errors; e++) canon_f32((uint8_t *)&errors[e]);
            mix(d, errors, m->errors * sizeof errors[0]);
        }
    }
    if (m->set) { /* onto a copy of other (its dirty bits random): some of value's fields, all, then some of other's */
        memcpy(out, other, vz);
        m->set(out, value, next());
        mix(d, out, vz);
        m->set(out, value, UINT32_MAX);
        mix(d, out, vz);
        m->set(out, other, next());
        mix(d, out, vz);
    }
    memset(snap, 0x99, sz);
    m->backup(from, snap);
    mix(d, snap, sz);
    memcpy(snap, to, sz);
    m->restore(snap, from);
    mix(d, snap, sz);
}

/* _equal of a value with itself, with what dequantize made of its snapshot, with a copy with
 * one byte changed (a member, padding or past a string's end), and of two random values. */
/* Keeps only the low bit of every bool of v (structs' members included). */
static void keep_bools(const ns_type_desc *t, uint8_t *v)
{
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        if (f->encoding == NS_ENC_BOOL) v[f->value_offset] &= 1u;
        else if (f->encoding == NS_ENC_COMPOSITE && f->type) keep_bools(f->type, v + f->value_offset);
    }
}

static void equal_checks(const ns_type_desc *t, value_equal_fn eq, const uint8_t *value, const uint8_t *back,
                         uint8_t *scratch, size_t vz, digest *d)
{
    memcpy(scratch, value, vz);
    scratch[next() % vz] ^= (uint8_t)(1u << (next() % 8));
    keep_bools(t, scratch); /* a bool byte other than 0 or 1 is no value (UBSan says so) */
    mix_u32(d, eq(value, value) | (uint32_t)eq(back, back) << 1 | (uint32_t)eq(value, back) << 2,
            (uint32_t)eq(value, scratch) | (uint32_t)eq(scratch, value) << 1);
}

/* The setters of a record with a gen function (motion_table): from _init, ROUNDS rounds of a
 * random choice of fields set to generated values, the whole value (dirty bits included) mixed
 * after each. gen draws the values, so this runs for records values_unsafe keeps from random bytes. */
static void setter_stream(const ns_type_desc *t, digest *d)
{
    const motion_fns *m = motion_of(t);
    if (!m || !m->gen) return;
    uint8_t *v = (uint8_t *)calloc(1, t->value_size); /* padding _init may leave alone: zero in both modes */
    if (!v) abort();
    m->init(v);
    for (int round = 0; round < ROUNDS; round++) {
        m->gen(v, round % 8 == 0 ? UINT32_MAX : next());
        mix(d, v, t->value_size);
    }
    free(v);
}

/* Quantizes random values, dequantizes the result and the stream's snapshots, quantizes again:
 * the bytes of every snapshot and value. */
static void stream_values(const ns_type_desc *t, void (*quantize)(const void *, void *),
                          void (*dequantize)(const void *, void *),
                          void (*interpolate)(const void *, const void *, float, void *), const uint8_t *snaps,
                          digest *d)
{
    setter_stream(t, d);
    if (values_unsafe(t)) return;
    const size_t vz = t->value_size, sz = t->snap_size;
    const value_equal_fn eq = value_equal(t);
    uint8_t *value = (uint8_t *)malloc(vz), *back = (uint8_t *)malloc(vz), *snap = (uint8_t *)malloc(sz);
    uint8_t *scratch = (uint8_t *)malloc(vz), *prev = (uint8_t *)calloc(1, vz), *prev_snap = (uint8_t *)malloc(sz);
    uint8_t *snap2 = (uint8_t *)malloc(sz);
    if (!value || !back || !snap || !scratch || !prev || !prev_snap || !snap2) abort();
    quantize(prev, prev_snap);
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < vz; i++) value[i] = (uint8_t)next();
        random_value(t, value, vz, false);
        random_value(t, value, vz, true);
        memset(snap, 0xa5, sz);
        quantize(value, snap);
        mix(d, snap, sz);
        motion_checks(t, interpolate, prev_snap, snap, value, prev, scratch, snap2, d);
        memcpy(prev, value, vz);
        memcpy(prev_snap, snap, sz);
        memset(back, 0x5a, vz);
        dequantize(snap, back);
        mix(d, back, vz);
        if (eq) equal_checks(t, eq, value, back, scratch, vz, d);
        memset(back, 0x3c, vz);
        dequantize(snaps + (size_t)(round % SNAPS) * sz, back);
        mix(d, back, vz);
        memset(snap, 0xc3, sz);
        quantize(back, snap);
        mix(d, snap, sz);
    }
    free(value);
    free(back);
    free(snap);
    free(scratch);
    free(prev);
    free(prev_snap);
    free(snap2);
}

static void stream_component(const ns_component_ops *c, digest *d)
{
    const ns_type_desc *t = c->desc;
    const size_t sz = t->snap_size, cap = (size_t)t->max_bits / 8u + 16u;
    /* zeroed: what a decoder leaves unwritten (past a string's end) reaches _dequantize */
    uint8_t *snaps = (uint8_t *)calloc(SNAPS, sz), *tmp = (uint8_t *)calloc(1, sz), *keep = (uint8_t *)malloc(sz);
    uint8_t *buf = (uint8_t *)malloc(cap), bits[RANDOM_BYTES];
    if (!snaps || !tmp || !keep || !buf) abort();
    mix(d, t->name, strlen(t->name));
    c->snap_default(snaps);
    for (int i = 1; i < SNAPS; i++) {
        uint8_t *out = snaps + (size_t)i * sz;
        memcpy(out, out - sz, sz);
        size_t best = 0;
        for (int k = 0; k < TRIES; k++) {
            ns_baselines b = {{out - sz, NULL, NULL}, {100u, 0, 0}, next() % 2, 101u};
            ns_audience to = (ns_audience)(next() % 8);
            random_bytes(bits, sizeof bits);
            ns_reader r;
            ns_reader_init(&r, bits, sizeof bits);
            ns_status st = c->read(&r, tmp, &b, to);
            mix_u32(d, (uint32_t)st, (uint32_t)ns_reader_bits(&r));
            if (st == NS_OK) mix_state(d, t, tmp);
            if (st == NS_OK && ns_reader_bits(&r) > best) best = ns_reader_bits(&r), memcpy(out, tmp, sz);
        }
    }
    for (int round = 0; round < ROUNDS; round++) {
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, next() % 4, 0};
        for (uint32_t k = 0; k < b.count; k++) b.snap[k] = snaps + (size_t)(next() % SNAPS) * sz;
        pick_ticks(&b);
        const uint8_t *cur = snaps + (size_t)(next() % SNAPS) * sz;
        ns_audience to = (ns_audience)(next() % 8);
        size_t room = next() % 8 == 0 ? next() % (cap / 2 + 1) : cap;
        ns_writer w;
        ns_writer_init(&w, buf, room);
        ns_status st = c->write(&w, cur, &b, to);
        size_t n = ns_writer_flush(&w);
        mix_u32(d, (uint32_t)st, (uint32_t)n);
        mix(d, buf, n < room ? n : room);
        if (st == NS_OK && ns_writer_status(&w) == NS_OK) { /* read it back */
            ns_reader r;
            ns_reader_init(&r, buf, n);
            memset(tmp, 0, sz);
            ns_status rs = c->read(&r, tmp, &b, to);
            mix_u32(d, (uint32_t)rs, (uint32_t)ns_reader_bits(&r));
            EXPECT(rs == NS_OK, "%s: reading back a record failed: %s", t->name, ns_status_str(rs));
            if (rs == NS_OK) mix_state(d, t, tmp);
            /* _snap_equal on the record read back and on two snapshots of the stream. */
            const uint8_t *other = snaps + (size_t)(next() % SNAPS) * sz;
            mix_u32(d, rs == NS_OK && c->snap_equal(tmp, cur), c->snap_equal(cur, other));
        }
        /* Random bits: the verdict, the bits taken, and a refused read leaves out as it was. */
        random_bytes(bits, sizeof bits);
        ns_reader r;
        ns_reader_init(&r, bits, 1u + next() % sizeof bits);
        memcpy(tmp, snaps + (size_t)(next() % SNAPS) * sz, sz);
        memcpy(keep, tmp, sz);
        ns_status rs = c->read(&r, tmp, &b, to);
        mix_u32(d, (uint32_t)rs, (uint32_t)ns_reader_bits(&r));
        if (rs == NS_OK) mix_state(d, t, tmp);
        else EXPECT(memcmp(tmp, keep, sz) == 0, "%s: a refused read (%s) changed its destination", t->name, ns_status_str(rs));
    }
    stream_values(t, c->quantize, c->dequantize, c->interpolate, snaps, d);
    free(snaps);
    free(tmp);
    free(keep);
    free(buf);
}

static void stream_message(const ns_message_ops *m, digest *d)
{
    const ns_type_desc *t = m->desc;
    const size_t sz = t->snap_size, cap = (size_t)t->max_bits / 8u + 16u;
    /* zeroed: what a decoder leaves unwritten (past a string's end) reaches _dequantize */
    uint8_t *snaps = (uint8_t *)calloc(SNAPS, sz), *tmp = (uint8_t *)calloc(1, sz), *keep = (uint8_t *)malloc(sz);
    uint8_t *buf = (uint8_t *)malloc(cap), bits[RANDOM_BYTES];
    if (!snaps || !tmp || !keep || !buf) abort();
    mix(d, t->name, strlen(t->name));
    m->snap_default(snaps);
    for (int i = 1; i < SNAPS;) {
        random_bytes(bits, sizeof bits);
        ns_reader r;
        ns_reader_init(&r, bits, sizeof bits);
        const void *prev = m->kind == NS_MSG_INPUT && next() % 2 ? snaps + (size_t)(i - 1) * sz : NULL;
        ns_status st = m->read(&r, snaps + (size_t)i * sz, prev);
        mix_u32(d, (uint32_t)st, (uint32_t)ns_reader_bits(&r));
        if (st == NS_OK) mix_state(d, t, snaps + (size_t)i++ * sz);
    }
    for (int round = 0; round < ROUNDS; round++) {
        const uint8_t *cur = snaps + (size_t)(next() % SNAPS) * sz;
        const void *prev = m->kind == NS_MSG_INPUT && next() % 2 ? snaps + (size_t)(next() % SNAPS) * sz : NULL;
        ns_writer w;
        ns_writer_init(&w, buf, cap);
        ns_status st = m->write(&w, cur, prev);
        size_t n = ns_writer_flush(&w);
        mix_u32(d, (uint32_t)st, (uint32_t)n);
        mix(d, buf, n);
        if (st == NS_OK) {
            ns_reader r;
            ns_reader_init(&r, buf, n);
            ns_status rs = m->read(&r, tmp, prev);
            EXPECT(rs == NS_OK, "%s: reading back a message failed: %s", t->name, ns_status_str(rs));
            if (rs == NS_OK) mix_state(d, t, tmp);
        }
        random_bytes(bits, sizeof bits);
        ns_reader r;
        ns_reader_init(&r, bits, 1u + next() % sizeof bits);
        memcpy(tmp, snaps + (size_t)(next() % SNAPS) * sz, sz);
        memcpy(keep, tmp, sz);
        ns_status rs = m->read(&r, tmp, prev);
        mix_u32(d, (uint32_t)rs, (uint32_t)ns_reader_bits(&r));
        if (rs == NS_OK) mix_state(d, t, tmp);
        else EXPECT(memcmp(tmp, keep, sz) == 0, "%s: a refused read (%s) changed its destination", t->name, ns_status_str(rs));
    }
    stream_values(t, m->quantize, m->dequantize, NULL, snaps, d);
    free(snaps);
    free(tmp);
    free(keep);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT-FILE\n", argv[0]);
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) return 2;
    const ns_schema *const schemas[] = {TABLE_SCHEMAS};
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
        const ns_schema *s = schemas[i];
        for (uint32_t k = 0; k < s->component_count; k++) {
            digest d = {0xcbf29ce484222325ull, 0};
            rng_state = 0x9e3779b97f4a7c15ull ^ s->hash ^ k;
            stream_component(&s->components[k], &d);
            fprintf(out, "%s component %s: digest 0x%016llx over %llu bytes\n", s->package, s->components[k].desc->name,
                    (unsigned long long)d.h, (unsigned long long)d.bytes);
        }
        for (uint32_t k = 0; k < s->message_count; k++) {
            digest d = {0xcbf29ce484222325ull, 0};
            rng_state = 0x2545f4914f6cdd1dull ^ s->hash ^ k;
            stream_message(&s->messages[k], &d);
            fprintf(out, "%s message %s: digest 0x%016llx over %llu bytes\n", s->package, s->messages[k].desc->name,
                    (unsigned long long)d.h, (unsigned long long)d.bytes);
        }
    }
    if (fclose(out) != 0) return 2;
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
