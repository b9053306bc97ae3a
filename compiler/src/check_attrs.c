/* check_attrs.c — attributes: which exist, what arguments they take, where they apply
 * (the table in idl/SPEC.md, "Attributes"), and what they mean for a field (nsc_field_sem). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "checker.h"

typedef enum attr_id {
    A_QUANTIZE, A_RANGE, A_SMALLEST_THREE, A_SMOOTH, A_SYNC, A_NOTIFY, A_INITIAL, A_COMPOSITE,
    A_NOPREDICT, A_RAW, A_ID, A_ORDERED, A_SEND_RATE, A_UNRELIABLE, A_MODEL, A_AUTHORITY, A_MAX_BITS,
    A_CODEC, A_COUNT
} attr_id;

static const struct {
    const char *name;
    unsigned    args;     /* exact number of arguments */
    const char *usage;
} attrs[A_COUNT] = {
    [A_QUANTIZE] = {"quantize", 1, "@quantize(Q), Q > 0"},
    [A_RANGE] = {"range", 2, "@range(lo, hi)"},
    [A_SMALLEST_THREE] = {"smallest_three", 1, "@smallest_three(bits), bits 2 to 18"},
    [A_SMOOTH] = {"smooth", 1, "@smooth(clamp | interpolate | extrapolate [, wrap] [, max_distance = D])"},
    [A_SYNC] = {"sync", 1, "@sync(all | owner | others | none | predicted | interpolated | custom)"},
    [A_NOTIFY] = {"notify", 0, "@notify"},
    [A_INITIAL] = {"initial", 0, "@initial"},
    [A_COMPOSITE] = {"composite", 0, "@composite"},
    [A_NOPREDICT] = {"nopredict", 0, "@nopredict"},
    [A_RAW] = {"raw", 0, "@raw"},
    [A_ID] = {"id", 1, "@id(n), n 0 to 65535"},
    [A_ORDERED] = {"ordered", 0, "@ordered"},
    [A_SEND_RATE] = {"send_rate", 1, "@send_rate(hz), hz 1 to 1000"},
    [A_UNRELIABLE] = {"unreliable", 0, "@unreliable"},
    [A_MODEL] = {"model", 1, "@model(packed | entropy)"},
    [A_AUTHORITY] = {"authority", 1, "@authority(server | owner [, clamp])"},
    [A_MAX_BITS] = {"max_bits", 1, "@max_bits(N), N 1 to 4096"},
    [A_CODEC] = {"codec", 1, "@codec(inline | table)"},
};

/* Named arguments (`key = value`) exist only for @smooth, and come after the others. */
static bool named_args_ok(nsc_checker *c, const nsc_attr *a, bool smooth)
{
    bool named = false;
    for (size_t i = 0; i < a->argc; i++) {
        const nsc_expr *e = a->args[i];
        if (!e->key.text) {
            if (!named) continue;
            nsc_error(c->d, "E-attr-args", e->loc, "a positional argument cannot follow a named one");
            return false;
        }
        named = true;
        if (!smooth) {
            nsc_error(c->d, "E-attr-args", e->key.loc, "@%s takes no named arguments", a->name.text);
            return false;
        }
        if (strcmp(e->key.text, "max_distance") != 0) {
            nsc_error(c->d, "E-attr-args", e->key.loc, "@smooth has one named argument, max_distance, not '%s'",
                      e->key.text);
            return false;
        }
        for (size_t j = 0; j < i; j++)
            if (a->args[j]->key.text) {
                nsc_error(c->d, "E-attr-args", e->key.loc, "max_distance is given twice");
                return false;
            }
    }
    return true;
}

/* Finds the attribute, reporting unknown ones (with a suggestion) and wrong argument counts. */
static int lookup_attr(nsc_checker *c, const nsc_attr *a)
{
    for (int i = 0; i < A_COUNT; i++) {
        if (strcmp(attrs[i].name, a->name.text) != 0) continue;
        if (!named_args_ok(c, a, i == A_SMOOTH)) return -1;
        size_t argc = a->argc;
        while (argc > 0 && a->args[argc - 1]->key.text) argc--;
        bool wrap_arg = (i == A_SMOOTH || i == A_AUTHORITY) && argc == 2; /* @smooth(interpolate, wrap),
                                                                             @authority(owner, clamp) */
        if ((argc != attrs[i].args && !wrap_arg) || (attrs[i].args == 0 && a->has_parens)) {
            if (attrs[i].args == 0)
                nsc_error(c->d, "E-attr-args", a->loc, "@%s takes no arguments", attrs[i].name);
            else if (i == A_AUTHORITY)
                nsc_error(c->d, "E-attr-args", a->loc, "@authority takes who writes the field, then optionally clamp: %s",
                          attrs[i].usage);
            else if (i == A_SMOOTH)
                nsc_error(c->d, "E-attr-args", a->loc, "@smooth takes a mode, then wrap or max_distance = D: %s",
                          attrs[i].usage);
            else
                nsc_error(c->d, "E-attr-args", a->loc, "@%s takes %u argument%s: %s", attrs[i].name, attrs[i].args,
                          attrs[i].args == 1 ? "" : "s", attrs[i].usage);
            return -1;
        }
        return i;
    }
    const char *names[A_COUNT];
    for (int i = 0; i < A_COUNT; i++) names[i] = attrs[i].name;
    const char *hint = nsc_suggest(a->name.text, names, A_COUNT);
    if (hint) nsc_error(c->d, "E-attr-unknown", a->name.loc, "unknown attribute '@%s'; did you mean '@%s'?", a->name.text, hint);
    else nsc_error(c->d, "E-attr-unknown", a->name.loc, "unknown attribute '@%s'", a->name.text);
    return -1;
}

/* The single identifier argument of @smooth / @sync, or NULL (reported). */
static const char *word_arg(nsc_checker *c, const nsc_attr *a, const char *const *words, size_t n)
{
    const nsc_expr *e = a->args[0];
    if (e->kind == NSC_EX_NAME && e->name.count == 1) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(words[i], e->name.text) == 0) return words[i];
    }
    nsc_error(c->d, "E-attr-args", e->loc, "@%s takes one of: %s", a->name.text,
              strcmp(a->name.text, "smooth") == 0  ? "clamp, interpolate, extrapolate"
              : strcmp(a->name.text, "model") == 0 ? "packed, entropy"
              : strcmp(a->name.text, "authority") == 0 ? "server, owner"
              : strcmp(a->name.text, "codec") == 0 ? "inline, table"
                                                   : "all, owner, others, none, predicted, interpolated, custom");
    return NULL;
}

/* The words of @sync: the owner axis (all, owner, others, none), then the conditions on the
 * receiver (predicted, interpolated, custom: idl/SPEC.md "@sync"). */
static const char *const sync_words[] = {"all", "owner", "others", "none", "predicted", "interpolated", "custom"};
static const nsc_sync sync_values[] = {NSC_SYNC_ALL, NSC_SYNC_OWNER, NSC_SYNC_OTHERS, NSC_SYNC_NONE,
                                       NSC_SYNC_PREDICTED, NSC_SYNC_INTERPOLATED, NSC_SYNC_CUSTOM};
#define SYNC_WORDS (sizeof sync_words / sizeof sync_words[0])

static nsc_sync sync_of(const char *w)
{
    for (size_t i = 0; i < SYNC_WORDS; i++)
        if (strcmp(w, sync_words[i]) == 0) return sync_values[i];
    return NSC_SYNC_NONE;
}

static const char *sync_name(nsc_sync s)
{
    return nsc_sync_name(s);
}

/* Reports the second of two identical attributes; returns true if a is a duplicate. */
static bool duplicate(nsc_checker *c, nsc_attr *const *list, size_t i)
{
    for (size_t j = 0; j < i; j++) {
        if (strcmp(list[j]->name.text, list[i]->name.text) == 0) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-attr-dup", list[i]->loc, "@%s is given twice", list[i]->name.text);
            nsc_diag_note(c->d, list[j]->loc, "first given here");
            nsc_diag_end(c->d);
            return true;
        }
    }
    return false;
}

/* @send_rate(hz) on a component, @unreliable on an rpc: how the dispatch tables
 * (ns_component_ops.send_rate_hz, NS_MSG_RPC_UNRELIABLE) let the runtime send them. */
static void dispatch_attr(nsc_checker *c, nsc_decl *d, const nsc_attr *a, int id)
{
    const char *kind = nsc_decl_kind_name(d->kind);
    if (id == A_UNRELIABLE) {
        if (d->kind != NSC_D_RPC) nsc_error(c->d, "E-attr-place", a->loc, "@unreliable applies to rpcs, not to %ss", kind);
        else d->unreliable = true;
        return;
    }
    if (d->kind != NSC_D_COMPONENT) {
        nsc_error(c->d, "E-attr-place", a->loc, "@send_rate applies to components, not to %ss", kind);
        return;
    }
    nsc_int v;
    if (!nsc_eval_int(c, d->unit, a->args[0], "a send rate", &v)) return;
    if (v.neg || v.mag < 1 || v.mag > 1000) {
        nsc_error(c->d, "E-attr-args", a->args[0]->loc, "@send_rate(hz) takes 1 to 1000 Hz");
        return;
    }
    d->send_rate_hz = (uint32_t)v.mag;
}

/* @max_bits(N) of an extern struct: the most bits the user's write may produce (the generated
 * caller refuses a longer write), which bounds the record's size like any other field. */
static void max_bits_attr(nsc_checker *c, nsc_decl *d, const nsc_attr *a)
{
    if (d->kind != NSC_D_EXTERN) {
        nsc_error(c->d, "E-attr-place", a->loc, "@max_bits applies to extern structs, not to %ss",
                  nsc_decl_kind_name(d->kind));
        return;
    }
    nsc_int v;
    if (!nsc_eval_int(c, d->unit, a->args[0], "a number of bits", &v)) return;
    if (v.neg || v.mag < 1 || v.mag > NSC_MAX_EXTERN_BITS) {
        nsc_error(c->d, "E-attr-args", a->args[0]->loc, "@max_bits(N) takes 1 to %u bits", NSC_MAX_EXTERN_BITS);
        return;
    }
    d->max_bits = (uint32_t)v.mag;
}

void nsc_check_decl_attrs(nsc_checker *c, nsc_decl *d)
{
    d->sync = NSC_SYNC_ALL;
    bool max_bits_given = false;
    for (size_t i = 0; i < d->nattrs; i++) {
        nsc_attr *a = d->attrs[i];
        int id = lookup_attr(c, a);
        if (strcmp(a->name.text, "max_bits") == 0) max_bits_given = true;
        if (id < 0 || duplicate(c, d->attrs, i)) continue;
        const char *kind = nsc_decl_kind_name(d->kind);
        if (id == A_MAX_BITS) {
            max_bits_attr(c, d, a);
        } else if (d->kind == NSC_D_EXTERN) {
            nsc_error(c->d, "E-attr-place", a->loc, "an extern struct takes only @max_bits, not @%s", attrs[id].name);
        } else if (id == A_SYNC) {
            if (d->kind != NSC_D_COMPONENT) {
                nsc_error(c->d, "E-attr-place", a->loc, "@sync applies to components and their fields, not to %ss", kind);
                continue;
            }
            const char *w = word_arg(c, a, sync_words, SYNC_WORDS);
            if (w) d->sync = sync_of(w);
        } else if (id == A_ID) {
            if (d->kind != NSC_D_COMPONENT && d->kind != NSC_D_INPUT && d->kind != NSC_D_RPC) {
                nsc_error(c->d, "E-attr-place", a->loc, "@id applies to components, inputs and rpcs, not to %ss", kind);
                continue;
            }
            nsc_int v;
            if (!nsc_eval_int(c, d->unit, a->args[0], "a type id", &v)) continue;
            if (v.neg || v.mag > NSC_MAX_TYPE_ID) {
                nsc_error(c->d, "E-limit-ids", a->args[0]->loc, "type ids are 0 to %u", NSC_MAX_TYPE_ID);
                continue;
            }
            d->has_id = true;
            d->id = (uint32_t)v.mag;
        } else if (id == A_SEND_RATE || id == A_UNRELIABLE) {
            dispatch_attr(c, d, a, id);
        } else if (id == A_MODEL) {
            /* @model(entropy): the component may also be coded by the entropy mode
             * (netschema/entropy.h); in the type hash, so both ends agree on it. */
            if (d->kind != NSC_D_COMPONENT) {
                nsc_error(c->d, "E-attr-place", a->loc, "@model applies to components, not to %ss", kind);
                continue;
            }
            static const char *const words[] = {"packed", "entropy"};
            const char *w = word_arg(c, a, words, 2);
            if (w) d->entropy = strcmp(w, "entropy") == 0;
        } else if (id == A_CODEC) {
            /* @codec(table): this record's generated code is the table mode's whatever the run's
             * --codec, @codec(inline) the straight-line code's: the same bits either way, so it is
             * not in any hash (docs/generated-api.md section 8). */
            if (!nsc_decl_is_record(d)) {
                nsc_error(c->d, "E-attr-place", a->loc, "@codec applies to structs, components, inputs and rpcs, not to %ss",
                          kind);
                continue;
            }
            static const char *const words[] = {"inline", "table"};
            const char *w = word_arg(c, a, words, 2);
            if (w) d->codec = strcmp(w, "table") == 0 ? NSC_DECL_CODEC_TABLE : NSC_DECL_CODEC_INLINE;
        } else {
            nsc_error(c->d, "E-attr-place", a->loc, "@%s applies to fields, not to %ss", attrs[id].name, kind);
        }
    }
    if (d->kind == NSC_D_EXTERN && !max_bits_given)
        nsc_error(c->d, "E-attr-needs", d->name.loc, "extern struct '%s' needs @max_bits(N): the most bits its "
                  "write produces, 1 to %u", d->name.text, NSC_MAX_EXTERN_BITS);
}

/* The type attributes look at: a list's, set's or map's element (value) type, else the field's. */
static const nsc_type *target_type(const nsc_type *t)
{
    if (t->kind == NSC_T_LIST || t->kind == NSC_T_SET || t->kind == NSC_T_MAP) return t->elem;
    return t;
}

static bool is_quantizable(const nsc_type *t)
{
    return nsc_type_is_float(t) || nsc_type_is_vector(t) || t->kind == NSC_T_QUAT;
}

static bool is_smoothable(const nsc_type *t)
{
    return nsc_type_is_integer(t) || is_quantizable(t);
}

static void wrong_type(nsc_checker *c, const nsc_attr *a, const char *applies, const nsc_type *t)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(t, &sb);
    nsc_error(c->d, "E-attr-type", a->loc, "@%s applies to %s, not '%s'", a->name.text, applies, nsc_sb_str(&sb));
    nsc_sb_free(&sb);
}

/* The second argument of @smooth(mode, wrap): a scalar that turns, such as an angle. Whether
 * the field has the @range that gives the turn is checked once all attributes are read. */
static bool smooth_wrap(nsc_checker *c, const nsc_attr *a, nsc_field_sem *s, const nsc_type *t)
{
    const nsc_expr *e = a->args[1];
    if (e->kind != NSC_EX_NAME || e->name.count != 1 || strcmp(e->name.text, "wrap") != 0) {
        nsc_error(c->d, "E-attr-args", e->loc, "the second argument of @smooth can only be 'wrap'");
        return false;
    }
    if (s->smooth == NSC_SMOOTH_CLAMP) {
        nsc_error(c->d, "E-attr-args", e->loc, "@smooth(clamp, wrap): a clamped value jumps, so there is no way "
                  "round to choose; use interpolate or extrapolate");
        return false;
    }
    if (!nsc_type_is_integer(t) && !nsc_type_is_float(t)) {
        wrong_type(c, a, "integer and float fields when it wraps", t);
        return false;
    }
    s->wrap = true;
    return true;
}

/* max_distance = D of @smooth: a jump longer than D between two snapshots (a teleport) snaps
 * instead of sliding. D is in the field's units; radians for quaternions. */
static bool smooth_max_distance(nsc_checker *c, nsc_decl *owner, const nsc_expr *e, nsc_field_sem *s)
{
    if (s->smooth == NSC_SMOOTH_CLAMP) {
        nsc_error(c->d, "E-attr-args", e->key.loc, "@smooth(clamp, max_distance = D): a clamped value always jumps; "
                  "use interpolate or extrapolate");
        return false;
    }
    nsc_number d;
    if (!nsc_eval_number(c, owner->unit, e, "max_distance", &d)) return false;
    double v = d.is_float ? d.f : d.is_unsigned_big ? (double)d.u : (double)d.i;
    if (!(v > 0) || !isfinite(v) || v > 1e30) {
        nsc_error(c->d, "E-attr-args", e->loc, "max_distance needs 0 < D <= 1e30");
        return false;
    }
    s->max_distance = v;
    return true;
}

/* @smooth(..., wrap) turns within the field's @range: without one there is no turn. */
static void check_wrap(nsc_checker *c, nsc_field *f)
{
    nsc_field_sem *s = &f->sem;
    const nsc_attr *smooth = NULL;
    for (size_t i = 0; i < f->nattrs; i++)
        if (strcmp(f->attrs[i]->name.text, "smooth") == 0) smooth = f->attrs[i];
    if (!s->has_range) {
        nsc_error(c->d, "E-attr-needs", smooth->loc, "@smooth(..., wrap) needs @range(lo, hi): the range is one "
                  "turn, lo and hi the same angle (for example @range(-3.14159265, 3.14159265))");
        s->wrap = false;
        return;
    }
    /* Only an integer turn is limited (a float range may be written with integers). */
    bool big = nsc_type_is_integer(s->type) &&
               (s->range_hi.is_unsigned_big || (double)s->range_hi.i - (double)s->range_lo.i > 4294967296.0);
    if (big) {
        nsc_error(c->d, "E-attr-args", smooth->loc, "@smooth(..., wrap) on an integer needs a turn of at most 2^32 "
                  "(hi - lo)");
        s->wrap = false;
    }
}

/* An attribute that a collection type cannot take, with the reason; returns false. */
static bool not_on_collection(nsc_checker *c, const nsc_attr *a, const nsc_type *t, const char *why)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(t, &sb);
    nsc_error(c->d, "E-attr-type", a->loc, "@%s does not apply to '%s': %s", a->name.text, nsc_sb_str(&sb), why);
    nsc_sb_free(&sb);
    return false;
}

static void component_only(nsc_checker *c, const nsc_attr *a, const nsc_decl *owner, bool *ok)
{
    if (owner->kind == NSC_D_COMPONENT) return;
    nsc_error(c->d, "E-attr-place", a->loc, "@%s applies to component fields, not to %s fields", a->name.text,
              nsc_decl_kind_name(owner->kind));
    *ok = false;
}

static void range_arg(nsc_checker *c, nsc_decl *owner, nsc_field *f, const nsc_attr *a, const nsc_type *t)
{
    nsc_field_sem *s = &f->sem;
    if (!nsc_eval_number(c, owner->unit, a->args[0], "a range bound", &s->range_lo) ||
        !nsc_eval_number(c, owner->unit, a->args[1], "a range bound", &s->range_hi))
        return;
    if (nsc_type_is_integer(t) && (s->range_lo.is_float || s->range_hi.is_float)) {
        nsc_error(c->d, "E-attr-args", a->loc, "the bounds of @range on an integer field are integers");
        return;
    }
    if (s->range_lo.f > s->range_hi.f) {
        nsc_error(c->d, "E-attr-args", a->loc, "@range(lo, hi) needs lo <= hi");
        return;
    }
    if (nsc_type_is_integer(t)) {
        nsc_int lo, hi, rl, rh;
        nsc_type_int_range(t, &lo, &hi);
        rl = s->range_lo.is_unsigned_big ? nsc_int_from_u64(s->range_lo.u) : nsc_int_from_i64(s->range_lo.i);
        rh = s->range_hi.is_unsigned_big ? nsc_int_from_u64(s->range_hi.u) : nsc_int_from_i64(s->range_hi.i);
        if (nsc_int_cmp(rl, lo) < 0 || nsc_int_cmp(rh, hi) > 0) {
            nsc_strbuf ts = NSC_STRBUF_INIT, los = NSC_STRBUF_INIT, his = NSC_STRBUF_INIT;
            nsc_type_spell(t, &ts);
            nsc_int_spell(lo, &los);
            nsc_int_spell(hi, &his);
            nsc_error(c->d, "E-attr-args", a->loc, "this @range exceeds what '%s' holds (%s..%s)", nsc_sb_str(&ts),
                      nsc_sb_str(&los), nsc_sb_str(&his));
            nsc_sb_free(&ts);
            nsc_sb_free(&los);
            nsc_sb_free(&his);
            return;
        }
        if (s->range_hi.is_unsigned_big && !s->range_lo.is_unsigned_big && s->range_lo.i == 0 &&
            s->range_hi.u == UINT64_MAX)
            return; /* all of u64: the same as no @range */
        if (s->range_lo.is_unsigned_big || s->range_hi.is_unsigned_big) {
            /* Generated range checks and clamps work in int64; rather than drop a bound, refuse. */
            nsc_error(c->d, "E-attr-args", a->loc, "@range bounds above 9223372036854775807 are not supported; "
                      "leave @range out to accept every u64");
            return;
        }
    }
    s->has_range = true;
}

/* Quantized bounds must fit in 32 bits: the snapshot holds an int32. */
static void check_quantized_range(nsc_checker *c, nsc_field *f, const nsc_attr *range_attr)
{
    nsc_field_sem *s = &f->sem;
    if (!s->has_quantize || !s->has_range) return;
    double lo = s->range_lo.f * s->quantize, hi = s->range_hi.f * s->quantize;
    if (lo < -2147483648.0 || hi > 2147483647.0) {
        nsc_error(c->d, "E-limit-quantize", range_attr->loc,
                  "@range(%s, %s) with @quantize(%s) overflows 32 bits: quantized values reach %s..%s, "
                  "beyond -2147483648..2147483647", nsc_number_text(c, s->range_lo.f), nsc_number_text(c, s->range_hi.f),
                  nsc_number_text(c, s->quantize), nsc_number_text(c, lo), nsc_number_text(c, hi));
        s->has_range = false;
    }
}

/* A tiny Q makes 1/Q, and the values the int32 snapshot dequantizes to (up to 2147483647 / Q),
 * overflow the field's float type: generated code would need an infinite constant. Refused. */
static bool quantize_fits(nsc_checker *c, const nsc_attr *a, const nsc_type *t, double q)
{
    bool f64 = t->kind == NSC_T_F64;
    double max = f64 ? DBL_MAX : (double)FLT_MAX, reach = 2147483647.0 / q;
    if (reach <= max) return true;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(t, &sb);
    nsc_error(c->d, "E-limit-quantize", a->args[0]->loc,
              "@quantize(%s) is too fine for '%s': 1/Q and the values the 32-bit quantized form dequantizes to "
              "(up to 2147483647 / Q) overflow %s, whose maximum is %.3g; use Q >= %.3g",
              nsc_number_text(c, q), nsc_sb_str(&sb), f64 ? "f64" : "f32", max, 2147483647.0 / max * (1 + 1e-6));
    nsc_sb_free(&sb);
    return false;
}

/* @authority(server | owner [, clamp]) on a component field: who writes it. An owner-written
 * field travels from the owning client to the server in a plain fixed-width form (the field's
 * quantization, every value representable so the server can see a hostile one): only scalars,
 * vectors and quaternions have one. Whether it has the @range clamp needs, and a @sync that
 * replicates it, is checked once every attribute is read (check_authority). */
static bool authority_attr(nsc_checker *c, nsc_decl *owner, nsc_field *f, const nsc_attr *a)
{
    bool ok = true;
    component_only(c, a, owner, &ok);
    if (!ok) return false;
    static const char *const words[] = {"server", "owner"};
    const char *w = word_arg(c, a, words, 2);
    if (!w) return false;
    bool by_owner = w[0] == 'o', clamp = false;
    if (a->argc > 1) {
        const nsc_expr *e = a->args[1];
        if (e->kind != NSC_EX_NAME || e->name.count != 1 || strcmp(e->name.text, "clamp") != 0) {
            nsc_error(c->d, "E-attr-args", e->loc, "the second argument of @authority can only be 'clamp'");
            return false;
        }
        if (!by_owner) {
            nsc_error(c->d, "E-attr-args", e->loc, "@authority(server, clamp): the server's own writes are not "
                      "checked; clamp applies to @authority(owner, clamp)");
            return false;
        }
        clamp = true;
    }
    if (!by_owner) return true; /* the default, spelled out */
    const nsc_type *t = f->sem.type;
    bool fits = t->kind == NSC_T_BOOL || nsc_type_is_integer(t) || t->kind == NSC_T_ENUM || is_quantizable(t);
    if (!fits) {
        wrong_type(c, a, "bool, integer, enum, float, vector and quaternion fields when the owner writes "
                   "them", t);
        return false;
    }
    f->sem.authority_owner = true;
    f->sem.authority_clamp = clamp;
    return true;
}

/* What @authority(owner) needs from the field's other attributes: a receiver besides the server
 * (else an input or an rpc is the tool), no @initial (sent only at spawn, so a later write would
 * never travel), and a @range for clamp to clamp into (a quantized quaternion has -1..1). */
static void check_authority(nsc_checker *c, nsc_field *f)
{
    nsc_field_sem *s = &f->sem;
    const nsc_attr *a = NULL;
    for (size_t i = 0; i < f->nattrs; i++)
        if (strcmp(f->attrs[i]->name.text, "authority") == 0) a = f->attrs[i];
    if (s->sync == NSC_SYNC_NONE) {
        nsc_error(c->d, "E-attr-authority", a->loc, "@authority(owner) on a field no client receives (@sync(none)): "
                  "send what only the server reads as an input or an rpc");
    } else if (s->initial) {
        nsc_error(c->d, "E-attr-authority", a->loc, "@authority(owner) and @initial: an @initial field is sent only "
                  "at spawn, so the owner's later writes would reach nobody");
    } else if (s->authority_clamp && !s->has_range && !(s->type->kind == NSC_T_QUAT && s->has_quantize)) {
        nsc_error(c->d, "E-attr-needs", a->loc, "@authority(owner, clamp) needs @range(lo, hi) to clamp into");
    } else {
        return;
    }
    s->authority_owner = s->authority_clamp = false;
}

/* Applies one field attribute; returns false if it does not apply here (already reported). */
static bool field_attr(nsc_checker *c, nsc_decl *owner, nsc_field *f, const nsc_attr *a, int id)
{
    nsc_field_sem *s = &f->sem;
    const nsc_type *t = target_type(s->type);
    bool ok = true;
    switch ((attr_id)id) {
    case A_QUANTIZE: {
        if (!is_quantizable(t)) return wrong_type(c, a, "floating-point fields", t), false;
        nsc_number q;
        if (!nsc_eval_number(c, owner->unit, a->args[0], "the scale of @quantize", &q)) return false;
        if (!(q.f > 0) || !isfinite(q.f) || q.f > 1e9) {
            nsc_error(c->d, "E-attr-args", a->args[0]->loc, "@quantize(Q) needs 0 < Q <= 1e9");
            return false;
        }
        if (!quantize_fits(c, a, t, q.f)) return false;
        s->has_quantize = true;
        s->quantize = q.f;
        return true;
    }
    case A_RANGE:
        if (!nsc_type_is_integer(t) && !is_quantizable(t))
            return wrong_type(c, a, "integer and quantized floating-point fields", t), false;
        if (t->kind == NSC_T_QUAT)
            return wrong_type(c, a, "integer and quantized floating-point fields (quaternion components are "
                              "always within -1..1)", t), false;
        range_arg(c, owner, f, a, t);
        return true;
    case A_SMALLEST_THREE: {
        if (t->kind != NSC_T_QUAT) return wrong_type(c, a, "quaternion fields", t), false;
        nsc_int bits;
        if (!nsc_eval_int(c, owner->unit, a->args[0], "the bits of @smallest_three", &bits)) return false;
        if (bits.neg || bits.mag < 2 || bits.mag > 18) {
            nsc_error(c->d, "E-attr-args", a->args[0]->loc, "@smallest_three(bits) needs 2 <= bits <= 18");
            return false;
        }
        s->smallest_three = (unsigned)bits.mag;
        return true;
    }
    case A_SMOOTH: {
        if (nsc_type_is_collection(s->type)) return not_on_collection(c, a, s->type, "they switch to the new state at t = 1");
        if (!is_smoothable(t)) return wrong_type(c, a, "numeric, vector and quaternion fields", t), false;
        if (owner->kind == NSC_D_INPUT || owner->kind == NSC_D_RPC) {
            nsc_error(c->d, "E-attr-place", a->loc, "@smooth applies to component and struct fields; %ss are not "
                      "interpolated", nsc_decl_kind_name(owner->kind));
            return false;
        }
        static const char *const words[] = {"clamp", "interpolate", "extrapolate"};
        const char *w = word_arg(c, a, words, 3);
        if (!w) return false;
        s->smooth = w[0] == 'c' ? NSC_SMOOTH_CLAMP : w[0] == 'i' ? NSC_SMOOTH_INTERPOLATE : NSC_SMOOTH_EXTRAPOLATE;
        if (a->argc > 1 && !a->args[1]->key.text && !smooth_wrap(c, a, s, t)) return false;
        const nsc_expr *md = a->args[a->argc - 1];
        return !md->key.text || smooth_max_distance(c, owner, md, s);
    }
    case A_SYNC: {
        component_only(c, a, owner, &ok);
        if (!ok) return false;
        const char *w = word_arg(c, a, sync_words, SYNC_WORDS);
        if (!w) return false;
        nsc_sync fs = sync_of(w);
        /* all, owner, others, none may only narrow the component's owner axis; predicted,
         * interpolated and custom keep it and add a condition. Either way the component's
         * conditions hold too. */
        const bool condition = (fs & NSC_SYNC_CONDITIONS) != 0;
        if (!condition && (fs & ~owner->sync & NSC_SYNC_AXIS) != 0) {
            nsc_error(c->d, "E-attr-sync", a->loc, "@sync(%s) would send this field to more receivers than its "
                      "component, which is @sync(%s)", w, sync_name(owner->sync));
            return false;
        }
        if (condition) fs = (nsc_sync)((fs & NSC_SYNC_CONDITIONS) | (owner->sync & NSC_SYNC_AXIS));
        if (fs != NSC_SYNC_NONE) fs = (nsc_sync)(fs | (owner->sync & NSC_SYNC_CONDITIONS));
        if (condition && (fs & NSC_SYNC_AXIS) == 0) {
            nsc_error(c->d, "E-attr-sync", a->loc, "@sync(%s) in a component that is @sync(none) reaches no receiver", w);
            return false;
        }
        if ((fs & NSC_IF_PREDICTED) && (fs & NSC_IF_INTERPOLATED)) {
            nsc_error(c->d, "E-attr-sync", a->loc, "@sync(%s) in a component that is @sync(%s) reaches no receiver: "
                      "a receiver either predicts the entity or interpolates it; write @sync(none)", w,
                      sync_name(owner->sync));
            return false;
        }
        s->sync = fs;
        s->explicit_sync = true;
        return true;
    }
    case A_NOTIFY:
    case A_INITIAL:
        if (id == A_NOTIFY && s->type->kind == NSC_T_FASTARRAY) {
            nsc_error(c->d, "E-attr-type", a->loc, "@notify does not apply to fast arrays: their items are reported one "
                      "by one, through the hooks <field>_add, <field>_remove and <field>_change");
            return false;
        }
        component_only(c, a, owner, &ok);
        if (ok) *(id == A_NOTIFY ? &s->notify : &s->initial) = true;
        return ok;
    case A_COMPOSITE:
        /* On a fixed array: the whole array is one slot (struct elements are then composite too). */
        if (s->type->kind != NSC_T_STRUCT && !f->array_len)
            return wrong_type(c, a, "struct-typed fields", s->type), false;
        s->composite = true;
        return true;
    case A_NOPREDICT:
        component_only(c, a, owner, &ok);
        if (!ok) return false;
        if (nsc_type_is_collection(s->type))
            return wrong_type(c, a, "integer, quantized and struct fields (only they are predicted)", s->type), false;
        if (!nsc_type_is_integer(t) && !is_quantizable(t) && t->kind != NSC_T_ENUM && t->kind != NSC_T_ENTITY &&
            t->kind != NSC_T_STRUCT)
            return wrong_type(c, a, "integer, quantized and struct fields (only they are predicted)", t), false;
        s->nopredict = true;
        return true;
    case A_RAW:
        if (s->type->kind == NSC_T_SET) return not_on_collection(c, a, s->type, "their keys travel as gaps between sorted keys");
        if (!nsc_type_is_integer(t) && t->kind != NSC_T_ENUM)
            return wrong_type(c, a, "integer and enum fields", t), false;
        s->raw = true;
        return true;
    case A_ORDERED:
        if (s->type->kind != NSC_T_FASTARRAY) return wrong_type(c, a, "fastarray fields", s->type), false;
        s->ordered = true;
        return true;
    case A_ID:
        nsc_error(c->d, "E-attr-place", a->loc, "@id applies to components, inputs and rpcs, not to fields");
        return false;
    case A_SEND_RATE:
        nsc_error(c->d, "E-attr-place", a->loc, "@send_rate applies to components, not to fields");
        return false;
    case A_UNRELIABLE:
        nsc_error(c->d, "E-attr-place", a->loc, "@unreliable applies to rpcs, not to fields");
        return false;
    case A_MODEL:
        nsc_error(c->d, "E-attr-place", a->loc, "@model applies to components, not to fields");
        return false;
    case A_AUTHORITY:
        return authority_attr(c, owner, f, a);
    case A_MAX_BITS:
        nsc_error(c->d, "E-attr-place", a->loc, "@max_bits applies to extern structs, not to fields");
        return false;
    case A_CODEC:
        nsc_error(c->d, "E-attr-place", a->loc, "@codec applies to structs, components, inputs and rpcs, not to fields");
        return false;
    case A_COUNT:
        break;
    }
    return false;
}

void nsc_check_field_attrs(nsc_checker *c, nsc_decl *owner, nsc_field *f)
{
    nsc_field_sem *s = &f->sem;
    s->sync = owner->kind == NSC_D_COMPONENT ? owner->sync : NSC_SYNC_ALL;
    const nsc_attr *range_attr = NULL, *quant_attr = NULL, *s3_attr = NULL;
    for (size_t i = 0; i < f->nattrs; i++) {
        nsc_attr *a = f->attrs[i];
        int id = lookup_attr(c, a);
        if (id < 0 || duplicate(c, f->attrs, i)) continue;
        if (!field_attr(c, owner, f, a, id)) continue;
        if (id == A_RANGE) range_attr = a;
        if (id == A_QUANTIZE) quant_attr = a;
        if (id == A_SMALLEST_THREE) s3_attr = a;
    }
    const nsc_type *t = target_type(s->type);
    if (range_attr && s->has_range && is_quantizable(t) && !s->has_quantize) {
        nsc_error(c->d, "E-attr-needs", range_attr->loc, "@range on a floating-point field needs @quantize: the "
                  "range bounds the quantized value");
        s->has_range = false;
    }
    if (range_attr) check_quantized_range(c, f, range_attr);
    if (s->wrap) check_wrap(c, f);
    if (s->authority_owner) check_authority(c, f);
    if (s->authority_owner && f->array_len && s->composite) {
        /* The owner's write checks slot by slot; a @composite array is one slot of many values. */
        nsc_error(c->d, "E-attr-conflict", f->name.loc, "@authority(owner) applies to an array's elements one by "
                  "one: it cannot be used with @composite");
        s->authority_owner = false;
    }
    if (owner->kind == NSC_D_COMPONENT && owner->entropy && f->array_len && s->composite) {
        /* The entropy coder (netschema/entropy.h) models slots of one value each. */
        nsc_error(c->d, "E-attr-conflict", f->name.loc, "a @composite array in a @model(entropy) component: the "
                  "entropy mode codes an array's elements as slots of their own, so leave out @composite");
        s->composite = false;
    }
    const nsc_attr *nopredict_attr = NULL;
    for (size_t i = 0; i < f->nattrs; i++)
        if (strcmp(f->attrs[i]->name.text, "nopredict") == 0) nopredict_attr = f->attrs[i];
    if (s->nopredict && is_quantizable(t) && !s->has_quantize) {
        nsc_error(c->d, "E-attr-needs", nopredict_attr->loc, "@nopredict on %s does nothing: only integer and "
                  "quantized fields are predicted", s->smallest_three ? "a smallest-three quaternion" : "an unquantized float");
        s->nopredict = false;
    }
    if (quant_attr && s3_attr) {
        nsc_diag_begin(c->d, NSC_ERROR, "E-attr-conflict", s3_attr->loc,
                       "@smallest_three and @quantize are two encodings of a quaternion; choose one");
        nsc_diag_note(c->d, quant_attr->loc, "@quantize is given here");
        nsc_diag_end(c->d);
        s->smallest_three = 0;
    }
    /* The entropy mode (netschema/entropy.h) codes every field that reaches both the owner and
     * the others, without an audience: it cannot leave out a field that only some of them get. */
    if (owner->kind == NSC_D_COMPONENT && owner->entropy && (s->sync & NSC_SYNC_CONDITIONS)) {
        nsc_error(c->d, "E-attr-sync", f->name.loc, "@sync(%s) in a @model(entropy) component: the entropy mode "
                  "has no audience, so it cannot leave this field out for the receivers it does not reach",
                  sync_name(s->sync));
        s->sync = NSC_SYNC_NONE;
    }
}
