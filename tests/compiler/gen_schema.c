/* gen_schema.c — writes random VALID schemas, for the test that every schema netschemac accepts
 * yields C that compiles warning-free (tests/compiler/run_random.sh).
 *
 *     gen_schema SEED COUNT DIR     writes DIR/g<SEED>.netschema ... DIR/g<SEED+COUNT-1>.netschema
 *
 * Each schema (package g<n>) holds constants, enums, structs (now and then a chain nested to the
 * 8-level limit), components, inputs and rpcs whose fields draw on every type (scalars, floats,
 * vectors, quaternions, entity, enums, structs, string, bytes, list, set, map, fastarray; every
 * element type of a list or map), every field and declaration attribute where it is allowed
 * (element attributes on collections, @range on set keys, @smooth(..., wrap) on ranged integers
 * and floats), defaults of every kind (struct defaults in nested braces, built from the defaults
 * of their members), and the limits of
 * idl/SPEC.md section 8 now and then (255 fields, 1000-character names, 300-value enums,
 * capacities 1024, 4096 and 65535, @id(65535), @quantize(1e9) and 1e-29, the most negative i64,
 * the largest u64, 4096-byte string defaults), plus field names that match the parameters and
 * locals of generated code and doc comments made of what C comments trip on.
 *
 * Every schema must pass `netschemac --check`: a rejection is a bug here or in the checker.
 * Schemas stay small (a few records of up to 5 fields, 32 flattened members per record; the
 * 255-field records are rare and hold no structs' members) because run_random.sh compiles
 * hundreds of them in `make test`: the generated C is about 50 KB per schema.
 * Everything is drawn from a fixed PRNG: a seed always gives the same schema, so a failure is
 * reproduced by its seed. What is not generated: imports (one file per schema), qualified names,
 * constant expressions beyond capacities, and literals other than decimal. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string: the default a struct field may be given is built from its members'. */
typedef struct text {
    char  *s;
    size_t len, cap;
} text;

static void text_add(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

typedef struct gen {
    uint64_t state;
    FILE    *out;
    unsigned enums, structs;           /* declared so far: E0.., S0.. */
    unsigned enum_size[8];             /* values per enum */
    int64_t  enum_first[8];            /* each enum's first value */
    unsigned struct_depth[16];         /* 1 + deepest nested struct */
    bool     struct_has_collection[16];
    unsigned struct_leaves[16];        /* fields once flattened, nested structs included */
    unsigned leaves;                   /* fields of the record being written, flattened */
    bool     chain;                    /* S0..S7 nest, each in the next */
    char    *struct_default[16];       /* a valid default of each struct: {m1, m2, ...} */
    text     value;                    /* the field being written: its default, as written */
    long     value_at;                 /* where its default starts in the file, or -1 */
    char     fallback[128];            /* a valid value when it has none (not for structs): up to a vec4 of %.17g */
    const char *fallback_text;         /* ... or this, when set */
    bool     turn;                     /* the last @range suits @smooth(..., wrap) */
    unsigned next_id;                  /* next explicit type id */
    bool     used_top_id;              /* @id(65535) given already */
} gen;

typedef enum record_kind { R_STRUCT, R_COMPONENT, R_INPUT, R_RPC } record_kind;
typedef enum sync_kind { SYNC_ALL, SYNC_OWNER, SYNC_OTHERS, SYNC_NONE } sync_kind;

/* What a field may be, given where it is. */
typedef struct place {
    record_kind kind;
    sync_kind   sync;       /* the component's audience */
    unsigned    max_depth;  /* nested structs allowed below this field (0: none) */
    bool        element;    /* inside a list or map: no collections, no bytes */
    unsigned    before;     /* fields the record has before fields() prints its own (the chain) */
} place;

static uint64_t next(gen *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned below(gen *g, unsigned n) { return (unsigned)(next(g) % n); }
static bool chance(gen *g, unsigned percent) { return below(g, 100) < percent; }

/* A uniform integer in [lo, hi] (any int64 range). */
static int64_t between(gen *g, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t r = span == UINT64_MAX ? next(g) : next(g) % (span + 1);
    return (int64_t)((uint64_t)lo + r);
}

/* Prints v as a schema integer: INT64_MIN as -9223372036854775808 spelled out. */
static void put_int(gen *g, int64_t v)
{
    if (v < 0) fprintf(g->out, "-%" PRIu64, (uint64_t)0 - (uint64_t)v);
    else fprintf(g->out, "%" PRId64, v);
}

/* A default follows: " = ", then the caller writes it, and ends it with end_default. The file
 * is opened for update, so the default is read back from it to become part of its struct's. */
static void start_default(gen *g)
{
    fputs(" = ", g->out);
    fflush(g->out);
    g->value_at = ftell(g->out);
}

static void end_default(gen *g)
{
    long end = ftell(g->out);
    if (g->value_at < 0 || end < g->value_at) abort();
    size_t n = (size_t)(end - g->value_at);
    char *s = malloc(n + 1);
    if (!s || fseek(g->out, g->value_at, SEEK_SET) || fread(s, 1, n, g->out) != n) abort();
    if (fseek(g->out, end, SEEK_SET)) abort();
    g->value.len = 0;
    text_add(&g->value, s, n);
    free(s);
    g->value_at = -1;
}

/* The value a field without a default contributes to its struct's default. */
static void fallback(gen *g, const char *s) { snprintf(g->fallback, sizeof g->fallback, "%s", s); }

/* A doc comment, now and then, with what C comments and string literals trip on. */
static void doc(gen *g, const char *indent)
{
    static const char *const docs[] = {
        "A plain sentence.", "Ends in a trigraph ?\?/", "Closes a C comment */ early", "/* opens one",
        "Ends in a backslash \\", "Quotes \" and ' and a tab\there", "UTF-8: caf\xc3\xa9, \xe2\x86\x92",
        "%s %d %n printf specifiers", "Line one.\n", /* the newline makes a second doc line */
    };
    if (!chance(g, 20)) return;
    const char *d = docs[below(g, sizeof docs / sizeof docs[0])];
    fprintf(g->out, "%s/// ", indent);
    for (; *d; d++) {
        if (*d == '\n') fprintf(g->out, "\n%s/// and two", indent);
        else fputc(*d, g->out);
    }
    fputc('\n', g->out);
}

/* A field name: now and then one that generated code also uses for a parameter, a local or a
 * member, a function's or a function-like macro's name (<math.h>'s isnan), or a 1000-character
 * name (the limit). Unique within the record
 * because the index is appended to every name drawn from the pool. */
static void field_name(gen *g, unsigned index)
{
    static const char *const pool[] = {"w", "r", "s", "out", "cur", "base", "to", "pred", "prev", "ctx",
                                       "live", "hooks", "n", "i", "k", "len", "data", "count", "mask", "bits",
                                       "ref", "t", "from", "snap", "value", "id", "x", "y", "z", "abs",
                                       "memcpy", "isnan", "assert", "errno_", "signal", "time", "index", "max",
                                       "isinf", "signbit", "isfinite", "fpclassify", "round", "fabs", "memset"};
    unsigned pick = below(g, 1000);
    if (pick < 4) {
        for (unsigned i = 0; i < 990; i++) fputc('a' + (int)(i % 26), g->out);
        fprintf(g->out, "%u", index);
    } else if (pick < 300) {
        const char *name = pool[below(g, sizeof pool / sizeof pool[0])];
        /* The first field gets the bare name, so the pool's names really occur; except the
         * suffixes of generated type names (<T>_snap, ...), which collide (E-name-collision). */
        bool suffix = !strcmp(name, "snap") || !strcmp(name, "pred") || !strcmp(name, "hooks");
        if (index == 0 && !suffix) fputs(name, g->out);
        else fprintf(g->out, "%s%u", name, index);
    } else {
        fprintf(g->out, "f%u", index);
    }
}

typedef struct int_type {
    const char *name;
    int64_t     lo;
    uint64_t    hi;
} int_type;

static const int_type int_types[] = {
    {"i8", INT8_MIN, INT8_MAX},   {"u8", 0, UINT8_MAX},   {"i16", INT16_MIN, INT16_MAX},
    {"u16", 0, UINT16_MAX},       {"i32", INT32_MIN, INT32_MAX}, {"u32", 0, UINT32_MAX},
    {"i64", INT64_MIN, INT64_MAX}, {"u64", 0, UINT64_MAX},
};

static void int_attrs(gen *g, const int_type *t, bool allow_raw, bool allow_default, bool *printed_default)
{
    /* Bounds that fit int64 (a u64 @range stops at INT64_MAX). */
    int64_t tlo = t->lo, thi = t->hi > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)t->hi;
    bool ranged = chance(g, 40);
    int64_t lo = tlo, hi = thi;
    if (ranged) {
        switch (below(g, 4)) {
        case 0: lo = tlo, hi = thi; break; /* the whole type, INT64_MIN included */
        case 1: lo = tlo, hi = tlo + (int64_t)below(g, 10); break;
        case 2: lo = thi - (int64_t)below(g, 10), hi = thi; break;
        default:
            lo = between(g, tlo, thi);
            hi = between(g, lo, thi);
        }
    }
    *printed_default = false;
    if (allow_default) {
        if (lo < 0) snprintf(g->fallback, sizeof g->fallback, "-%" PRIu64, (uint64_t)0 - (uint64_t)lo);
        else snprintf(g->fallback, sizeof g->fallback, "%" PRId64, lo);
    }
    if (allow_default && chance(g, 40)) {
        start_default(g);
        if (!ranged && t->hi == UINT64_MAX && chance(g, 30)) fputs("18446744073709551615", g->out);
        else put_int(g, between(g, lo, hi));
        end_default(g);
        *printed_default = true;
    }
    if (ranged) {
        fputs(" @range(", g->out);
        put_int(g, lo);
        fputs(", ", g->out);
        put_int(g, hi);
        fputc(')', g->out);
    }
    /* A turn for @smooth(..., wrap): a nonempty range of at most 2^32. */
    g->turn = ranged && lo < hi && (uint64_t)hi - (uint64_t)lo <= UINT64_C(1) << 32;
    if (allow_raw && chance(g, 25)) fputs(" @raw", g->out);
}

/* A float in a form the lexer reads: %.17g ("1e+20" and "0.5" are floats; "1" is an integer,
 * which floats accept too), exact for the double and for any float widened to it. */
static void put_float(gen *g, double v) { fprintf(g->out, "%.17g", v); }

static const double quantizers[] = {1, 10, 100, 1000, 255, 0.5, 0.01, 1e6, 1e9, 1e-29, 3.0};

/* A float or vector field (arity 1..4, f64 when wide): @quantize, @range, default. */
static void float_field(gen *g, const place *p, unsigned arity, bool wide)
{
    static const double f32_defaults[] = {0, 1.5, -2.25, 1e20, -1e30, 3e38, 1e-30, 0.1, 123456.789};
    static const double f64_defaults[] = {0, 1e300, -1e-300, 2.5, 1e20, -7.75, 0.1};
    bool quantized = chance(g, 60);
    double q = quantizers[below(g, sizeof quantizers / sizeof quantizers[0])];
    bool ranged = quantized && chance(g, 50);
    double limit = 2147483647.0 / q * 0.9, lo = 0, hi = 0;
    if (limit > 1e30) limit = 1e30;
    if (ranged) {
        lo = -limit * (double)below(g, 101) / 100.0;
        hi = limit * (double)below(g, 101) / 100.0;
        if (chance(g, 30)) lo = hi * 0.5; /* a range that excludes 0 */
        lo = (double)(float)lo, hi = (double)(float)hi;
        if (lo > hi) lo = hi;
    }
    {
        /* Without a default: 0 in each component, or lo when ranged (lo is a float already). */
        char one[32];
        snprintf(one, sizeof one, "%.17g", ranged ? lo : 0.0);
        g->fallback[0] = '\0';
        for (unsigned i = 0; i < arity; i++)
            snprintf(g->fallback + strlen(g->fallback), sizeof g->fallback - strlen(g->fallback), "%s%s%s%s",
                     i == 0 && arity > 1 ? "{" : "", i ? ", " : "", one, i + 1 == arity && arity > 1 ? "}" : "");
    }
    if (chance(g, 40)) {
        start_default(g);
        if (arity > 1) fputc('{', g->out);
        for (unsigned i = 0; i < arity; i++) {
            double v = wide ? f64_defaults[below(g, 7)] : f32_defaults[below(g, 9)];
            if (ranged) v = lo + (hi - lo) * (double)below(g, 101) / 100.0;
            if (ranged && (v < lo || v > hi)) v = lo;
            if (!wide) v = (double)(float)v;
            fprintf(g->out, "%s", i ? ", " : "");
            put_float(g, v);
        }
        if (arity > 1) fputc('}', g->out);
        end_default(g);
    }
    if (quantized) {
        fputs(" @quantize(", g->out);
        put_float(g, q);
        fputc(')', g->out);
    }
    if (ranged) {
        fputs(" @range(", g->out);
        put_float(g, lo);
        fputs(", ", g->out);
        put_float(g, hi);
        fputc(')', g->out);
    }
    if (p->element) return;
    if ((p->kind == R_COMPONENT || p->kind == R_STRUCT) && chance(g, 30)) {
        static const char *const modes[] = {"clamp", "interpolate", "extrapolate"};
        unsigned mode = below(g, 3);
        /* A ranged f32 or f64 may wrap: its range is one turn. */
        bool wrap = mode > 0 && ranged && arity == 1 && lo < hi && chance(g, 40);
        fprintf(g->out, " @smooth(%s%s)", modes[mode], wrap ? ", wrap" : "");
    }
    if (p->kind == R_COMPONENT && quantized && chance(g, 15)) fputs(" @nopredict", g->out);
}

/* A quaternion field: @quantize or @smallest_three(2..18), a unit default. */
static void quat_field(gen *g, const place *p)
{
    static const char *const units[] = {"{0, 0, 0, 1}", "{0, 0.7071068, 0, 0.7071068}", "{1, 0, 0, 0}",
                                        "{0.5, -0.5, 0.5, -0.5}"};
    fallback(g, units[0]);
    if (chance(g, 30)) {
        start_default(g);
        fputs(units[below(g, 4)], g->out);
        end_default(g);
    }
    unsigned coding = below(g, 3);
    if (coding == 0) {
        fputs(" @quantize(", g->out);
        put_float(g, quantizers[below(g, sizeof quantizers / sizeof quantizers[0])]);
        fputc(')', g->out);
    } else if (coding == 1) {
        fprintf(g->out, " @smallest_three(%u)", chance(g, 30) ? (chance(g, 50) ? 2u : 18u) : 2 + below(g, 17));
    }
    if (p->element) return;
    if ((p->kind == R_COMPONENT || p->kind == R_STRUCT) && chance(g, 30))
        fputs(chance(g, 50) ? " @smooth(interpolate)" : " @smooth(extrapolate)", g->out);
    if (p->kind == R_COMPONENT && coding == 0 && chance(g, 15)) fputs(" @nopredict", g->out);
}

/* A string literal of n bytes of text (counted in bytes, escapes written as such). */
static void put_text(gen *g, unsigned n, bool binary)
{
    static const char *const pieces[] = {"a", "Z", " ", "\\\"", "\\\\", "\\n", "\\t", "?", "?\?/", "\xc3\xa9", "%"};
    static const unsigned piece_bytes[] = {1, 1, 1, 1, 1, 1, 1, 1, 3, 2, 1};
    fputc('"', g->out);
    unsigned used = 0;
    while (used < n) {
        if (binary) {
            fprintf(g->out, "\\x%02x", below(g, 256));
            used++;
            continue;
        }
        unsigned k = below(g, 11);
        if (used + piece_bytes[k] > n) k = 0;
        fputs(pieces[k], g->out);
        used += piece_bytes[k];
    }
    fputc('"', g->out);
}

/* A capacity: small, random, or the limit; sometimes as a constant expression. */
static unsigned capacity(gen *g, unsigned limit)
{
    unsigned pick = below(g, 10);
    unsigned n = pick == 0 ? limit : pick == 1 ? 1 : 1 + below(g, limit < 40 ? limit : 40);
    return n;
}

static void put_capacity(gen *g, unsigned n)
{
    if (n > 2 && chance(g, 20)) fprintf(g->out, "(C0 * 0 + %u - 1 + 1)", n);
    else fprintf(g->out, "%u", n);
}

/* The end of a list, set or map field: ", N> name", sometimes with an explicit empty default. */
static void collection_tail(gen *g, unsigned n, unsigned index)
{
    fputs(", ", g->out);
    put_capacity(g, n);
    fputs("> ", g->out);
    field_name(g, index);
    fallback(g, "{}");
    if (chance(g, 20)) fputs(" = {}", g->out);
}

/* A set key or map key: an integer (returned, for a set's @range), an enum or entity. */
static const int_type *key_type(gen *g)
{
    unsigned pick = below(g, 10);
    if (pick < 6) {
        const int_type *t = &int_types[below(g, 8)];
        fputs(t->name, g->out);
        return t;
    }
    if (pick < 8 && g->enums) fprintf(g->out, "E%u", below(g, g->enums));
    else fputs("entity", g->out);
    return NULL;
}

enum { LEAF_BUDGET = 32 };

/* A struct usable here: declared earlier, shallow enough, without collections when it is an
 * element; -1 if there is none. */
static int pick_struct(gen *g, const place *p, bool no_collections)
{
    for (unsigned tries = 0; tries < 8 && g->structs; tries++) {
        unsigned s = below(g, g->structs);
        if (g->struct_depth[s] > p->max_depth) continue;
        if (no_collections && g->struct_has_collection[s]) continue;
        /* Each flattened member costs generated code: a record stays within LEAF_BUDGET. */
        if (g->leaves + g->struct_leaves[s] > LEAF_BUDGET) continue;
        g->leaves += g->struct_leaves[s];
        return (int)s;
    }
    return -1;
}

/* @notify, @initial and @sync, on component fields. */
static void audience_attrs(gen *g, const place *p, bool fastarray)
{
    if (p->kind != R_COMPONENT || p->element) return;
    if (!fastarray && chance(g, 15)) fputs(" @notify", g->out);
    if (chance(g, 10)) fputs(" @initial", g->out);
    if (chance(g, 20)) {
        static const char *const names[] = {"all", "owner", "others", "none"};
        sync_kind s = p->sync == SYNC_ALL ? (sync_kind)below(g, 4) : chance(g, 50) ? p->sync : SYNC_NONE;
        fprintf(g->out, " @sync(%s)", names[s]);
    }
}

/* What a list element or a map value is, for the attributes that may follow the field. */
typedef struct elem {
    enum { EL_PLAIN, EL_INT, EL_ENUM, EL_FLOAT, EL_QUAT } kind;
    const int_type *t;
} elem;

/* A list element or map value: any scalar, vector, quat, entity, enum, string or struct without
 * collections (bytes and collections are not elements). */
static elem elem_type(gen *g, const place *p, unsigned *depth)
{
    static const char *const floats[] = {"f32", "f64", "vec2", "vec3", "vec4"};
    place e = *p;
    e.element = true;
    elem el = {EL_PLAIN, NULL};
    int s;
    switch (below(g, 9)) {
    case 0:
    case 1: el.kind = EL_INT, el.t = &int_types[below(g, 8)], fputs(el.t->name, g->out); break;
    case 2: el.kind = EL_FLOAT, fputs(floats[below(g, 5)], g->out); break;
    case 3: el.kind = EL_QUAT, fputs("quat", g->out); break;
    case 4:
        if (g->enums) {
            el.kind = EL_ENUM, fprintf(g->out, "E%u", below(g, g->enums));
            break;
        }
        /* fall through */
    case 5: fprintf(g->out, "string<%u>", 1 + below(g, 16)); break;
    case 6:
        if ((s = pick_struct(g, &e, true)) >= 0) {
            fprintf(g->out, "S%d", s), *depth = g->struct_depth[s];
            break;
        }
        /* fall through */
    default: fputs(chance(g, 50) ? "bool" : "entity", g->out);
    }
    return el;
}

/* The attributes of a list or map field that apply to its elements (section 6.1). */
static void elem_attrs(gen *g, elem el)
{
    bool d;
    if (el.kind == EL_INT) int_attrs(g, el.t, true, false, &d);
    if (el.kind == EL_ENUM && chance(g, 25)) fputs(" @raw", g->out);
    if (el.kind == EL_FLOAT && chance(g, 60)) {
        if (chance(g, 50)) fputs(" @quantize(100) @range(-5, 5.5)", g->out);
        else fputs(" @quantize(1000)", g->out);
    }
    if (el.kind == EL_QUAT && chance(g, 60))
        fprintf(g->out, chance(g, 50) ? " @quantize(%u)" : " @smallest_three(%u)", 2 + below(g, 17));
}

/* One field: type, name, default, attributes. Returns whether it holds a collection. */
static bool field(gen *g, const place *p, unsigned index, unsigned *depth)
{
    bool collection = false;
    unsigned kind = below(g, p->element ? 9 : 13);
    bool is_component = p->kind == R_COMPONENT;
    *depth = 0;
    if (kind == 12 && !is_component) kind = 9; /* fast arrays live only in components */
    switch (kind) {
    case 0:
    case 1: { /* integers */
        const int_type *t = &int_types[below(g, 8)];
        fprintf(g->out, "%s ", t->name);
        field_name(g, index);
        bool d;
        int_attrs(g, t, true, true, &d);
        if ((p->kind == R_COMPONENT || p->kind == R_STRUCT) && g->turn && chance(g, 25))
            fputs(chance(g, 50) ? " @smooth(interpolate, wrap)" : " @smooth(extrapolate, wrap)", g->out);
        else if ((p->kind == R_COMPONENT || p->kind == R_STRUCT) && chance(g, 20))
            fputs(chance(g, 50) ? " @smooth(clamp)" : " @smooth(interpolate)", g->out);
        if (is_component && chance(g, 10)) fputs(" @nopredict", g->out);
        break;
    }
    case 2: /* bool */
        fputs("bool ", g->out);
        field_name(g, index);
        fallback(g, "false");
        if (chance(g, 40)) {
            start_default(g);
            fputs(chance(g, 50) ? "true" : "false", g->out);
            end_default(g);
        }
        break;
    case 3: { /* f32 f64 vec2 vec3 vec4 */
        unsigned pick = below(g, 5);
        static const char *const names[] = {"f32", "f64", "vec2", "vec3", "vec4"};
        fprintf(g->out, "%s ", names[pick]);
        field_name(g, index);
        float_field(g, p, pick < 2 ? 1 : pick, pick == 1);
        break;
    }
    case 4: /* quat */
        fputs("quat ", g->out);
        field_name(g, index);
        quat_field(g, p);
        break;
    case 5: /* entity */
        fputs("entity ", g->out);
        field_name(g, index);
        fallback(g, "0");
        if (chance(g, 30)) {
            start_default(g);
            fprintf(g->out, "%u", chance(g, 50) ? 4294967295u : below(g, 1000));
            end_default(g);
        }
        if (is_component && chance(g, 10)) fputs(" @nopredict", g->out);
        break;
    case 6: /* enum */
        if (!g->enums) return field(g, p, index, depth);
        {
            unsigned e = below(g, g->enums);
            fprintf(g->out, "E%u ", e);
            field_name(g, index);
            fallback(g, "v0");
            if (chance(g, 30)) {
                start_default(g);
                if (chance(g, 50)) fprintf(g->out, "E%u.", e);
                fprintf(g->out, "v%u", below(g, g->enum_size[e]));
                end_default(g);
            }
            if (chance(g, 25)) fputs(" @raw", g->out);
            if (is_component && chance(g, 10)) fputs(" @nopredict", g->out);
        }
        break;
    case 7: { /* string */
        unsigned n = capacity(g, 4096);
        fputs("string<", g->out);
        put_capacity(g, n);
        fputs("> ", g->out);
        field_name(g, index);
        fallback(g, "\"\"");
        if (chance(g, 40)) {
            start_default(g);
            put_text(g, chance(g, 30) ? n : below(g, n + 1), false);
            end_default(g);
        }
        break;
    }
    case 8: { /* struct */
        int s = pick_struct(g, p, p->element);
        if (s < 0) return field(g, p, index, depth);
        fprintf(g->out, "S%d ", s);
        field_name(g, index);
        *depth = g->struct_depth[s];
        collection = g->struct_has_collection[s];
        g->fallback_text = g->struct_default[s];
        if (chance(g, 20)) { /* every member, nested structs in nested braces */
            start_default(g);
            fputs(g->struct_default[s], g->out);
            end_default(g);
        }
        if (!p->element && chance(g, 30)) fputs(" @composite", g->out);
        if (!p->element && is_component && chance(g, 10)) fputs(" @nopredict", g->out);
        break;
    }
    case 9: { /* bytes, or a list */
        if (chance(g, 50)) {
            unsigned n = capacity(g, 4096);
            fputs("bytes<", g->out);
            put_capacity(g, n);
            fputs("> ", g->out);
            field_name(g, index);
            fallback(g, "\"\"");
            if (chance(g, 40)) {
                start_default(g);
                put_text(g, below(g, (n < 64 ? n : 64) + 1), true);
                end_default(g);
            }
            break;
        }
        unsigned n = capacity(g, 1024);
        fputs("list<", g->out);
        elem el = elem_type(g, p, depth);
        collection_tail(g, n, index);
        elem_attrs(g, el);
        collection = true;
        break;
    }
    case 10: { /* set */
        unsigned n = capacity(g, 1024);
        fputs("set<", g->out);
        const int_type *t = key_type(g);
        collection_tail(g, n, index);
        bool d;
        if (t) int_attrs(g, t, false, false, &d); /* @range bounds the keys; @raw is refused */
        collection = true;
        break;
    }
    case 11: { /* map */
        unsigned n = capacity(g, 1024);
        fputs("map<", g->out);
        key_type(g);
        fputs(", ", g->out);
        elem el = elem_type(g, p, depth);
        collection_tail(g, n, index);
        elem_attrs(g, el);
        collection = true;
        break;
    }
    default: { /* fastarray, components only */
        place e = *p;
        e.element = true;
        int s = pick_struct(g, &e, true);
        if (s < 0) return field(g, p, index, depth);
        unsigned n = below(g, 10) == 0 ? 65535 : capacity(g, 300);
        fprintf(g->out, "fastarray<S%d, ", s);
        put_capacity(g, n);
        fputs("> ", g->out);
        field_name(g, index);
        *depth = g->struct_depth[s];
        if (chance(g, 40)) fputs(" @ordered", g->out);
        audience_attrs(g, p, true);
        return true;
    }
    }
    audience_attrs(g, p, false);
    return collection;
}

/* The fields of a record: usually a few, now and then (not in a struct, which is flattened into
 * every record that holds it) the 255-field limit. */
static bool fields(gen *g, const place *p, unsigned *depth, text *values)
{
    const bool full = p->kind != R_STRUCT && below(g, 400) == 0;
    unsigned n = full ? 255 - p->before : 1 + below(g, 5);
    bool collection = false;
    *depth = 0;
    g->leaves = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned d;
        g->leaves++;
        if (!full) doc(g, "    ");
        fputs("    ", g->out);
        g->value.len = 0, g->value_at = -1, g->fallback_text = NULL;
        fallback(g, "{}");
        collection |= field(g, p, i, &d);
        fputs(";\n", g->out);
        if (d > *depth) *depth = d;
        const char *v = g->value.len ? g->value.s : g->fallback_text ? g->fallback_text : g->fallback;
        if (values) {
            if (values->len > 1) text_add(values, ", ", 2);
            text_add(values, v, strlen(v));
        }
    }
    return collection;
}

static void enum_decl(gen *g)
{
    static const struct {
        const char *name;
        int64_t lo, hi;
    } bases[] = {{NULL, 0, UINT8_MAX}, {"u8", 0, UINT8_MAX}, {"i8", INT8_MIN, INT8_MAX}, {"u16", 0, UINT16_MAX},
                 {"i16", INT16_MIN, INT16_MAX}, {"u32", 0, UINT32_MAX}, {"i32", INT32_MIN, INT32_MAX}};
    unsigned b = below(g, 7), e = g->enums++;
    unsigned count = 1 + below(g, 6);
    if (bases[b].hi >= UINT16_MAX && chance(g, 5)) count = 300;
    doc(g, "");
    fprintf(g->out, "enum E%u%s%s {", e, bases[b].name ? " : " : "", bases[b].name ? bases[b].name : "");
    /* Increasing values with gaps, starting at the bottom, in the middle or at the top. */
    int64_t span = bases[b].hi - bases[b].lo, v;
    unsigned start = below(g, 3);
    v = start == 0 ? bases[b].lo : start == 1 ? bases[b].lo + span / 2 : bases[b].hi - 3 * (int64_t)count;
    g->enum_first[e] = v;
    for (unsigned i = 0; i < count; i++) {
        bool explicit_value = i == 0 ? v != 0 : chance(g, 30);
        if (i && explicit_value) v += 1 + below(g, 2);
        fprintf(g->out, "%s v%u", i ? "," : "", i);
        if (explicit_value) {
            fputs(" = ", g->out);
            put_int(g, v);
        }
        v++;
    }
    g->enum_size[e] = count;
    fputs(chance(g, 50) ? ", }\n" : " }\n", g->out);
}

/* Now and then a record's @codec: its code mode against the run's, so that one file mixes both. */
static const char *codec_attr(gen *g)
{
    if (!chance(g, 20)) return "";
    return chance(g, 50) ? " @codec(table)" : " @codec(inline)";
}

/* A struct; in a chain (the 8-level nesting limit), S<n> holds S<n-1> and no other struct, so
 * that the flattened members grow by a few per level, not by a factor. */
static void struct_decl(gen *g, unsigned max_depth, bool chain)
{
    unsigned s = g->structs;
    place p = {R_STRUCT, SYNC_ALL, chain ? 0 : max_depth, false, 0};
    doc(g, "");
    fprintf(g->out, "struct S%u%s {\n", s, codec_attr(g));
    unsigned depth = 0, leaves = 0;
    bool collection = false;
    text values = {NULL, 0, 0};
    text_add(&values, "{", 1);
    if (chain && s > 0) {
        fprintf(g->out, "    S%u link%s;\n", s - 1, chance(g, 30) ? " @composite" : "");
        depth = g->struct_depth[s - 1], leaves = g->struct_leaves[s - 1];
        collection = g->struct_has_collection[s - 1];
        text_add(&values, g->struct_default[s - 1], strlen(g->struct_default[s - 1]));
    }
    unsigned d;
    collection |= fields(g, &p, &d, &values);
    if (chance(g, 50)) text_add(&values, ",", 1); /* a trailing comma is allowed */
    text_add(&values, "}", 1);
    g->struct_default[s] = values.s;
    fputs("}\n", g->out);
    if (d > depth) depth = d;
    g->struct_depth[s] = depth + 1;
    g->struct_has_collection[s] = collection;
    g->struct_leaves[s] = leaves + g->leaves;
    g->structs++;
}

/* A component, input or rpc with its declaration attributes. */
static void record_decl(gen *g, record_kind kind, unsigned index)
{
    static const char *const keywords[] = {"struct", "component", "input", "rpc"};
    static const char *const sync_names[] = {"all", "owner", "others", "none"};
    place p = {kind, SYNC_ALL, 8, false, 0};
    doc(g, "");
    fprintf(g->out, "%s %c%u", keywords[kind], kind == R_COMPONENT ? 'K' : kind == R_INPUT ? 'I' : 'R', index);
    if (kind == R_COMPONENT && chance(g, 30)) {
        p.sync = (sync_kind)below(g, 4);
        fprintf(g->out, " @sync(%s)", sync_names[p.sync]);
    }
    if (chance(g, 30)) {
        if (!g->used_top_id && chance(g, 10)) {
            fprintf(g->out, " @id(65535)");
            g->used_top_id = true;
        } else {
            fprintf(g->out, " @id(%u)", g->next_id);
            g->next_id += 1 + below(g, 3);
        }
    }
    if (kind == R_COMPONENT && chance(g, 20)) fprintf(g->out, " @send_rate(%u)", chance(g, 50) ? 1u + below(g, 1000) : 1000u);
    if (kind == R_RPC && chance(g, 30)) fputs(" @unreliable", g->out);
    fputs(codec_attr(g), g->out);
    fputs(" {\n", g->out);
    /* The first component holds the end of a chain of structs: 8 levels, the limit. */
    if (kind == R_COMPONENT && index == 0 && g->chain) {
        fprintf(g->out, "    S%u chain;\n", g->structs - 1);
        p.before = 1; /* a 255-field record then has 254 of its own */
    }
    unsigned depth;
    fields(g, &p, &depth, NULL);
    fputs("}\n", g->out);
}

/* A whole schema. */
static void schema(gen *g, unsigned long n)
{
    fprintf(g->out, "/// Generated by tests/compiler/gen_schema.c from seed %lu.\npackage g%lu;\n\n", n, n);
    fprintf(g->out, "const C0 = %u;\nconst C1 = C0 * 2 - 1;\n\n", 1 + below(g, 50));
    g->enums = g->structs = 0;
    g->next_id = below(g, 60000);
    unsigned enums = 1 + below(g, 2);
    for (unsigned i = 0; i < enums; i++) enum_decl(g);
    /* Structs: a few, and now and then a chain nested to the 8-level limit. */
    g->chain = chance(g, 5);
    unsigned structs = g->chain ? 8 : below(g, 4);
    for (unsigned i = 0; i < structs; i++) struct_decl(g, 1 + below(g, 2), g->chain);
    unsigned components = 1 + below(g, 2), inputs = below(g, 2), rpcs = below(g, 2);
    for (unsigned i = 0; i < components; i++) record_decl(g, R_COMPONENT, i);
    for (unsigned i = 0; i < inputs; i++) record_decl(g, R_INPUT, i);
    for (unsigned i = 0; i < rpcs; i++) record_decl(g, R_RPC, i);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_schema SEED COUNT DIR\n");
        return 2;
    }
    unsigned long seed = strtoul(argv[1], NULL, 10), count = strtoul(argv[2], NULL, 10);
    for (unsigned long n = seed; n < seed + count; n++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/g%lu.netschema", argv[3], n);
        gen g;
        memset(&g, 0, sizeof g);
        g.state = n * 0x2545f4914f6cdd1du + 1;
        g.out = fopen(path, "w+"); /* read back: see end_default */
        if (!g.out) {
            perror(path);
            return 1;
        }
        schema(&g, n);
        fclose(g.out);
        for (unsigned s = 0; s < g.structs; s++) free(g.struct_default[s]);
        free(g.value.s);
    }
    return 0;
}
