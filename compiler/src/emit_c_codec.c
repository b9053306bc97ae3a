/* emit_c_codec.c — the generated serializers: the reference a write is coded against (defaults,
 * baseline 0, or the three-baseline prediction), snapshot validation, _write and _read.
 *
 * Wire form of one write (idl/SPEC.md, "Wire format"): with more than one field sent to this
 * receiver, one bit says whether anything differs from the reference; then, for each field sent,
 * one change bit followed, when set, by the field's payload coded against its reference. A field
 * that is not sent (another audience, @sync(none), @initial after the first state) keeps the
 * reference on the reader's side. */
#include <string.h>

#include "emit_c.h"

/* ---- small helpers ------------------------------------------------------------------------ */

static bool is_u64(const nsc_slot *s)
{
    const nsc_type *t = s->type->kind == NSC_T_ENUM ? s->type->decl->underlying_type : s->type;
    return t->kind == NSC_T_U64;
}

static bool is_u32(const nsc_slot *s)
{
    const nsc_type *t = s->type->kind == NSC_T_ENUM ? s->type->decl->underlying_type : s->type;
    return t->kind == NSC_T_U32 || t->kind == NSC_T_ENTITY;
}

/* An int64 constant for generated code. */
static const char *i64(nsc_cgen *g, int64_t v)
{
    if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
    return NSC_FMT(g, "INT64_C(%lld)", (long long)v);
}

/* The natural range of a slot's snapshot C type, to skip checks that can never fail. */
static void natural_range(const nsc_slot *s, int64_t *lo, int64_t *hi, bool *unsigned64)
{
    const char *t = s->snap_ctype;
    *unsigned64 = strcmp(t, "uint64_t") == 0;
    if (!strcmp(t, "int8_t")) *lo = INT8_MIN, *hi = INT8_MAX;
    else if (!strcmp(t, "uint8_t") || !strcmp(t, "bool")) *lo = 0, *hi = UINT8_MAX;
    else if (!strcmp(t, "int16_t")) *lo = INT16_MIN, *hi = INT16_MAX;
    else if (!strcmp(t, "uint16_t")) *lo = 0, *hi = UINT16_MAX;
    else if (!strcmp(t, "int32_t")) *lo = INT32_MIN, *hi = INT32_MAX;
    else if (!strcmp(t, "uint32_t")) *lo = 0, *hi = UINT32_MAX;
    else if (!strcmp(t, "int64_t")) *lo = INT64_MIN, *hi = INT64_MAX;
    else *lo = 0, *hi = INT64_MAX; /* uint64_t: its top half is out of int64 reach anyway */
}

/* The values the runtime function for this slot can return: i32, u32, i64 or u64. */
static const char *int_fn(const nsc_slot *s)
{
    bool u64 = strcmp(s->snap_ctype, "uint64_t") == 0;
    if (s->enc == NSC_ENC_INT64 || u64 || !strcmp(s->snap_ctype, "int64_t")) return u64 ? "u64" : "i64";
    return is_u32(s) ? "u32" : "i32";
}

/* True if lo..hi is narrower than what the runtime function fn returns, so it needs a check. */
static bool narrower(const nsc_slot *s, const char *fn)
{
    if (!s->bounded) return false;
    if (!strcmp(fn, "i32")) return s->lo > INT32_MIN || s->hi < INT32_MAX;
    if (!strcmp(fn, "u32")) return s->lo > 0 || s->hi < (int64_t)UINT32_MAX;
    if (!strcmp(fn, "i64")) return s->lo > INT64_MIN || s->hi < INT64_MAX;
    return s->lo > 0 || s->hi < INT64_MAX; /* u64 with bounds that fit int64 */
}

/* Per-component C access of a slot: "p" for scalars, "p[k]" for vectors. */
static const char *at(nsc_cgen *g, const char *base, const char *path, const nsc_slot *s, unsigned k)
{
    bool array = s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_F;
    return array ? NSC_FMT(g, "%s%s[%u]", base, path, k) : NSC_FMT(g, "%s%s", base, path);
}

/* ---- the reference ------------------------------------------------------------------------ */

static bool has_predicted(const nsc_layout *l)
{
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slots[i].predicted) return true;
    return false;
}

/* Predicted slots keep their reference in a small struct of their own (R_pred), so no whole
 * snapshot is copied: member s<index> for slot <index>. */
static const char *pred_member(nsc_cgen *g, const nsc_slot *s)
{
    return NSC_FMT(g, "s%u", s->index);
}

/* The reference a slot is coded against, inside _write and _read. */
static const char *refx(nsc_cgen *g, const nsc_slot *s)
{
    return s->predicted ? NSC_FMT(g, "pred.%s", pred_member(g, s)) : NSC_FMT(g, "ref->%s", s->path);
}

bool nsc_cg_snap_is_array(const nsc_slot *s)
{
    return s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_F ||
           s->enc == NSC_ENC_STRING || s->enc == NSC_ENC_BYTES || s->enc == NSC_ENC_ARRAY;
}

static const char *bound(nsc_cgen *g, const char *fn, int64_t v);

/* The int32 elements of a slot in the snapshot: 3 or 4 for a quantized vector or quaternion, else 1. */
static unsigned elements(const nsc_slot *s)
{
    return s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_QUAT_Q ? s->arity : 1;
}

/* True if a slot takes the evenly-spaced-ticks path of the reference: int32 predictions. */
static bool unit_slot(const nsc_slot *s)
{
    return s->predicted && !strcmp(int_fn(s), "i32");
}

/* True if some predicted slot is not a unit slot: predicted apart, before the unit slots. */
static bool other_predicted(const nsc_layout *l)
{
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slots[i].predicted && !unit_slot(&l->slots[i])) return true;
    return false;
}

/* The int32 elements on the evenly-spaced-ticks path: 0 when the reference has none. */
static unsigned unit_elements(const nsc_layout *l)
{
    unsigned n = 0;
    for (size_t i = 0; i < l->nslots; i++)
        if (unit_slot(&l->slots[i])) n += elements(&l->slots[i]);
    return n;
}

/* What a unit slot's prediction is clamped to: its range when narrower than int32, else int32. */
static void unit_range(nsc_cgen *g, const nsc_slot *s, const char **lo, const char **hi)
{
    bool clamp = narrower(s, "i32");
    *lo = clamp ? bound(g, "i32", s->lo) : "INT32_MIN";
    *hi = clamp ? bound(g, "i32", s->hi) : "INT32_MAX";
}

/* The general prediction of each element of slot s, in 64-bit arithmetic. */
static void predict_slot(nsc_cgen *g, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *fn = int_fn(s);
    bool u64 = !strcmp(fn, "u64");
    bool clamp = narrower(s, fn);
    for (unsigned k = 0; k < elements(s); k++) {
        const char *p = at(g, "", s->path, s, k);
        const char *pred = NSC_FMT(g, "ns_predict_%s(&p, b0->%s, b1->%s, b2->%s)", fn, p, p, p);
        /* 32-bit slots clamp inside the runtime's predictor, where the selects stay branch-free. */
        if (clamp && !strcmp(fn, "i32"))
            pred = NSC_FMT(g, "ns_predict_i32_in(&p, b0->%s, b1->%s, b2->%s, %s, %s)", p, p, p, bound(g, fn, s->lo),
                           bound(g, fn, s->hi));
        else if (clamp && !strcmp(fn, "u32"))
            pred = NSC_FMT(g, "ns_predict_u32_in(&p, b0->%s, b1->%s, b2->%s, %s, %s)", p, p, p, bound(g, fn, s->lo),
                           bound(g, fn, s->hi));
        else if (clamp && u64)
            pred = NSC_FMT(g, "ns_clamp_u64(%s, UINT64_C(%llu), UINT64_C(%llu))", pred, (unsigned long long)s->lo,
                           (unsigned long long)s->hi);
        else if (clamp)
            pred = NSC_FMT(g, "ns_clamp_i64(%s, %s, %s)", pred, i64(g, s->lo), i64(g, s->hi));
        nsc_p_line(c, "%s = (%s)%s;", at(g, "pred->", pred_member(g, s), s, k), s->snap_ctype, pred);
    }
}

/* True if the snapshot is nothing but its int32 unit slots, slot i the member of field i: v[]
 * can then copy each baseline whole (the generated code asserts that no padding comes between). */
static bool unit_whole(const nsc_decl *d)
{
    const nsc_layout *l = d->layout;
    if (l->nslots == 0 || l->nslots != d->nfields) return false;
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!unit_slot(s) || strcmp(s->snap_ctype, "int32_t") != 0 || strcmp(s->path, d->fields[i]->name.text) != 0)
            return false;
    }
    return true;
}

/* Once per record, before its reference: the int32 unit slots' ranges (<R>_unit_lo, _unit_hi),
 * and two force-inlined helpers that copy the slots from a snapshot into an array in the
 * predictor's order (<R>_unit_gather) and from such an array into the references
 * (<R>_unit_scatter). The hot and the rare path both use them, so each list is generated once. */
static void unit_helpers(nsc_cgen *g, const nsc_decl *d)
{
    const nsc_layout *l = d->layout;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    const unsigned count = unit_elements(l);
    nsc_strbuf lo = NSC_STRBUF_INIT, hi = NSC_STRBUF_INIT;
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!unit_slot(s)) continue;
        const char *slo, *shi;
        unit_range(g, s, &slo, &shi);
        for (unsigned k = 0; k < elements(s); k++) {
            nsc_sb_printf(&lo, "%s%s", lo.len ? ", " : "", slo);
            nsc_sb_printf(&hi, "%s%s", hi.len ? ", " : "", shi);
        }
    }
    nsc_p_comment(c, "The int32 predicted fields, element by element: what each prediction is limited to.");
    nsc_p_line(c, "static const int32_t %s[%u] = {%s};", nsc_cg_fn(g, d, "unit_lo"), count, nsc_sb_str(&lo));
    nsc_p_line(c, "static const int32_t %s[%u] = {%s};", nsc_cg_fn(g, d, "unit_hi"), count, nsc_sb_str(&hi));
    nsc_sb_free(&lo);
    nsc_sb_free(&hi);
    nsc_p_empty(c);
    const bool whole = unit_whole(d);
    if (whole) {
        nsc_p_comment(c, "The snapshot is nothing but those fields: it is copied whole.");
        nsc_p_line(c, "NS__STATIC_ASSERT(sizeof(%s_snap) == %uu * sizeof(int32_t), \"%s_snap is its int32 slots\");", n, count, n);
        nsc_p_empty(c);
    }
    nsc_p_comment(c, "Those fields of a snapshot into an array, and an array of their predictions into the references.");
    nsc_p_line(c, "NS__HOT void %s(const %s_snap *b, int32_t *v)", nsc_cg_fn(g, d, "unit_gather"), n);
    nsc_p_open(c, "{");
    if (whole) {
        nsc_p_line(c, "memcpy(v, b, sizeof(int32_t) * %uu);", count);
    } else {
        unsigned e = 0;
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            if (!unit_slot(s)) continue;
            for (unsigned k = 0; k < elements(s); k++) nsc_p_line(c, "v[%u] = b->%s;", e++, at(g, "", s->path, s, k));
        }
    }
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "NS__HOT void %s(const int32_t *out, %s *pred)", nsc_cg_fn(g, d, "unit_scatter"), nsc_cg_fn(g, d, "pred"));
    nsc_p_open(c, "{");
    unsigned e = 0;
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!unit_slot(s)) continue;
        for (unsigned k = 0; k < elements(s); k++)
            nsc_p_line(c, "%s = (%s)out[%u];", at(g, "pred->", pred_member(g, s), s, k), s->snap_ctype, e++);
    }
    nsc_p_close(c, "}");
    nsc_p_empty(c);
}

/* The int32 elements as arrays, `int32_t v[3][n], out[n];`, and baselines 0, 1 and 2 gathered
 * into v. Named baselines, not a loop over an array of the three pointers: the compiler then
 * merges the copies of adjacent slots into vector moves, and the loops after them load whole
 * vectors that those moves stored. Through the pointer array it copied piecewise, and each vector
 * load waited on several narrower stores (a failed store-to-load forward). At -O3 -march=native
 * this took bench_components (idle) from 1.08 to 0.94 of the hand codec's time on encode and from
 * 1.19 to 0.95 on decode; the build's own flags are unchanged. A snapshot that is only these
 * slots is copied whole: clang then moves whole vectors where the element copies became shuffles. */
static void unit_arrays(nsc_cgen *g, const nsc_decl *d, unsigned n)
{
    const char *gather = nsc_cg_fn(g, d, "unit_gather");
    nsc_p_line(g->c, "int32_t v[3][%u], out[%u];", n, n);
    nsc_p_line(g->c, "%s(b0, v[0]); %s(b1, v[1]); %s(b2, v[2]);", gather, gather, gather);
}

/* pred's int32 elements from out[], in the order unit_arrays gathered them. */
static void unit_scatter(nsc_cgen *g, const nsc_decl *d)
{
    nsc_p_line(g->c, "%s(out, pred);", nsc_cg_fn(g, d, "unit_scatter"));
}

/* The int32 slots' predictions for any ticks and values, in a function of their own that is
 * never inlined: uneven ticks and huge values are rare. It gathers the slots into arrays for the
 * runtime's one general loop (ns_predict_i32_slots) rather than carrying an inlined 64-bit
 * predictor per slot, which gcc -O2 spent real time on for every component (with the reader's
 * refill tail moved out of line, the two took the build to 0.86-0.88 of its time; README). */
static void any_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    const char *n = nsc_cg_name(g, d);
    const unsigned count = unit_elements(l);
    const char *pn = nsc_cg_fn(g, d, "pred");
    unit_helpers(g, d);
    const bool others = other_predicted(l); /* their references come in, and go out unchanged */
    nsc_p_comment(c, "The int32 predictions for any ticks, any values: rare, so out of line. The references go out");
    nsc_p_comment(c, "(and, when other fields are predicted too, come in) by value, so that the caller's never have");
    nsc_p_comment(c, "their address taken and stay in registers.");
    nsc_p_line(c, "NS__COLD %s %s(const %s_snap *b0, const %s_snap *b1, const %s_snap *b2, ns_predictor p%s)", pn,
               nsc_cg_fn(g, d, "reference_any"), n, n, n, others ? NSC_FMT(g, ", %s r", pn) : "");
    nsc_p_open(c, "{");
    unit_arrays(g, d, count);
    nsc_p_line(c, "ns_predict_i32_slots(&p, v[0], v[1], v[2], %s, %s, out, %uu);", nsc_cg_fn(g, d, "unit_lo"),
               nsc_cg_fn(g, d, "unit_hi"), count);
    nsc_p_line(c, "%s%s *const pred = &r;", pn, others ? "" : " r,");
    unit_scatter(g, d);
    nsc_p_line(c, "return r;");
    nsc_p_close(c, "}");
    nsc_p_empty(c);
}

/* The predictor is prepared at the top of the reference when other predicted slots need it;
 * else only on the rare path, the evenly-spaced test before it needing no ns_predictor at all
 * (clang kept the struct's stores on the hot path, to pass it to the rare one). */
static bool predictor_deferred(const nsc_layout *l)
{
    return !other_predicted(l) && unit_elements(l) > 0;
}

/* The test for the evenly-spaced path, in the predictor's terms or in the ticks'. */
static const char *unit_ticks(const nsc_layout *l)
{
    return predictor_deferred(l) ? "ns_ticks_unit(base->tick[0], base->tick[1], base->tick[2], base->tick_now)"
                                 : "ns_predictor_unit(&p)";
}

static void predictor_init(nsc_cgen *g)
{
    nsc_p_line(g->c, "ns_predictor p;");
    nsc_p_line(g->c, "ns_predictor_init(&p, base->tick[0], base->tick[1], base->tick[2], base->tick_now);");
}

static void any_call(nsc_cgen *g, const nsc_decl *d)
{
    nsc_p_comment(g->c, "Any ticks, any values.");
    if (predictor_deferred(d->layout)) predictor_init(g);
    nsc_p_line(g->c, "*pred = %s(b0, b1, b2, p%s);", nsc_cg_fn(g, d, "reference_any"), other_predicted(d->layout) ? ", *pred" : "");
}

/* predict_all's evenly-spaced path for fewer than 4 int32 elements, too few to gain from arrays
 * and vectors: each slot on its own, tested for large values only where its C type allows them. */
static void predict_few_unit(nsc_cgen *g, const nsc_decl *d, const nsc_layout *l)
{
    nsc_printer *c = g->c;
    nsc_strbuf cond = NSC_STRBUF_INIT;
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!unit_slot(s) || strcmp(s->snap_ctype, "int32_t") != 0) continue;
        for (unsigned k = 0; k < elements(s); k++) {
            const char *p = at(g, "", s->path, s, k);
            nsc_sb_printf(&cond, "%sns_predict_wide(b0->%s) | ns_predict_wide(b1->%s) | ns_predict_wide(b2->%s)",
                          cond.len ? " | " : "", p, p, p);
        }
    }
    if (cond.len) nsc_p_open(c, "if (NS__LIKELY(%s && !(%s))) {", unit_ticks(l), nsc_sb_str(&cond));
    else nsc_p_open(c, "if (NS__LIKELY(%s)) {", unit_ticks(l));
    nsc_sb_free(&cond);
    nsc_p_comment(c, "Evenly spaced ticks, values under 2^29 in size: int32 arithmetic.");
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!unit_slot(s)) continue;
        const char *lo, *hi;
        unit_range(g, s, &lo, &hi);
        for (unsigned k = 0; k < elements(s); k++) {
            const char *p = at(g, "", s->path, s, k);
            nsc_p_line(c, "%s = (%s)ns_predict_unit_i32_in(b0->%s, b1->%s, b2->%s, %s, %s);", at(g, "pred->", pred_member(g, s), s, k),
                       s->snap_ctype, p, p, p, lo, hi);
        }
    }
    nsc_p_line(c, "return b0;");
    nsc_p_close(c, "}");
    any_call(g, d);
}

/* The predictions from three baselines. The int32 slots first try the path for evenly spaced
 * ticks (the usual case): all of them at once as arrays, in int32 arithmetic that compilers
 * vectorize, unless a baseline value is too large for it; then the general path. */
static void predict_all(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slots[i].predicted && !unit_slot(&l->slots[i])) predict_slot(g, &l->slots[i]);
    const unsigned n = unit_elements(l);
    if (n == 0) return;
    if (n < 4) {
        predict_few_unit(g, d, l);
        return;
    }
    nsc_p_open(c, "if (NS__LIKELY(%s)) {", unit_ticks(l));
    nsc_p_comment(c, "Evenly spaced ticks: the int32 slots as arrays of baselines 0, 1 and 2.");
    unit_arrays(g, d, n);
    nsc_p_line(c, "uint32_t wide = 0;");
    nsc_p_line(c, "for (unsigned i = 0; i < %uu; i++) wide |= ns_predict_wide(v[0][i]) | ns_predict_wide(v[1][i]) | ns_predict_wide(v[2][i]);", n);
    nsc_p_open(c, "if (NS__LIKELY(!wide)) {");
    nsc_p_line(c, "for (unsigned i = 0; i < %uu; i++) out[i] = ns_predict_unit_i32_in(v[0][i], v[1][i], v[2][i], %s[i], %s[i]);",
               n, nsc_cg_fn(g, d, "unit_lo"), nsc_cg_fn(g, d, "unit_hi"));
    unit_scatter(g, d);
    nsc_p_line(c, "return b0;");
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");
    any_call(g, d);
}

static void reference_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    const char *n = nsc_cg_name(g, d), *pn = nsc_cg_fn(g, d, "pred");
    bool predicted = has_predicted(l);
    nsc_p_empty(c);
    if (predicted) {
        nsc_p_comment(c, "The references of the predicted fields: baseline 0's values, or the prediction from three.");
        nsc_p_open(c, "typedef struct %s {", pn);
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            if (s->predicted) nsc_p_line(c, "%s; /* %s */", nsc_cg_snap_decl(g, s, pred_member(g, s)), s->path);
        }
        nsc_p_close(c, "} %s;", pn);
        nsc_p_empty(c);
        if (unit_elements(l)) any_fn(g, d);
    }
    nsc_p_comment(c, "What the fields are coded against: the defaults with no baseline, baseline 0 with one or two,");
    nsc_p_comment(c, "and for predicted fields the linear prediction from three (docs/wire.md section 3).");
    nsc_p_line(c, "NS__HOT const %s_snap *%s(const ns_baselines *base%s)", n, nsc_cg_fn(g, d, "reference"),
               predicted ? NSC_FMT(g, ", %s *pred", pn) : "");
    nsc_p_open(c, "{");
    nsc_p_line(c, "const uint32_t n = ns_baselines_count(base);");
    nsc_p_line(c, "const %s_snap *b0 = n ? (const %s_snap *)base->snap[0] : &%s;", n, n, nsc_cg_fn(g, d, "snap_default"));
    if (!predicted) {
        nsc_p_line(c, "return b0;");
        nsc_p_close(c, "}");
        return;
    }
    nsc_p_open(c, "if (n < 3) {");
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (!s->predicted) continue;
        if (nsc_cg_snap_is_array(s)) nsc_p_line(c, "memcpy(pred->%s, b0->%s, sizeof pred->%s);", pred_member(g, s), s->path, pred_member(g, s));
        else nsc_p_line(c, "pred->%s = b0->%s;", pred_member(g, s), s->path);
    }
    nsc_p_line(c, "return b0;");
    nsc_p_close(c, "}");
    nsc_p_line(c, "const %s_snap *b1 = (const %s_snap *)base->snap[1];", n, n);
    nsc_p_line(c, "const %s_snap *b2 = (const %s_snap *)base->snap[2];", n, n);
    if (!predictor_deferred(l)) predictor_init(g);
    predict_all(g, d);
    nsc_p_line(c, "return b0;");
    nsc_p_close(c, "}");
}

/* ---- validation of a snapshot before it is written ---------------------------------------- */

static void check_slots(nsc_cgen *g, const nsc_layout *l, const char *base);

/* True if a slot's only check is its range (an integer or quantized slot, not an enum). */
static bool range_only(const nsc_slot *s)
{
    switch (s->enc) {
    case NSC_ENC_INT:
    case NSC_ENC_INT64:
    case NSC_ENC_RAW:
    case NSC_ENC_QUANT:
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q:
        return s->type->kind != NSC_T_ENUM;
    default:
        return false;
    }
}

/* The condition under which element k of a range-only slot is out of its range, or NULL when
 * its C type cannot hold such a value. Only the comparisons that can fail: others would be
 * warnings in the user's build. */
static const char *range_term(nsc_cgen *g, const nsc_slot *s, const char *base, unsigned k)
{
    if (!s->bounded) return NULL;
    int64_t nlo, nhi;
    bool u64;
    natural_range(s, &nlo, &nhi, &u64);
    const char *x = at(g, base, s->path, s, k);
    if (s->lo > nlo && s->hi < nhi) return NSC_FMT(g, "(%s < %s) | (%s > %s)", x, i64(g, s->lo), x, i64(g, s->hi));
    if (s->lo > nlo) return NSC_FMT(g, "%s < %s", x, i64(g, s->lo));
    if (s->hi < nhi) return NSC_FMT(g, "%s > %s", x, u64 ? NSC_FMT(g, "UINT64_C(%llu)", (unsigned long long)s->hi) : i64(g, s->hi));
    return NULL;
}

void nsc_cg_check_slot(nsc_cgen *g, const nsc_slot *s, const char *base)
{
    nsc_printer *c = g->c;
    const char *p = NSC_FMT(g, "%s%s", base, s->path);
    switch (s->enc) {
    case NSC_ENC_STRUCT:
        check_slots(g, s->composite, NSC_FMT(g, "%s.", p));
        return;
    case NSC_ENC_ARRAY: /* element paths are "[i]" */
        check_slots(g, s->composite, p);
        return;
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY:
        nsc_p_open(c, "{");
        nsc_p_line(c, "const ns_status cs = ns_coll_check(&%s, &%s);", nsc_cg_coll(g, s, "ops"), p);
        nsc_p_line(c, "if (cs != NS_OK) return cs;");
        nsc_p_close(c, "}");
        return;
    case NSC_ENC_STRING:
        nsc_p_line(c, "if (!memchr(%s, 0, sizeof %s) || !ns_utf8_valid(%s, strlen(%s))) return NS_ERR_MALFORMED;", p, p, p, p);
        return;
    case NSC_ENC_BYTES:
        nsc_p_line(c, "if (%s.len > %u) return NS_ERR_RANGE;", p, s->type->capacity);
        return;
    case NSC_ENC_QUAT_S3:
        nsc_p_line(c, "if (!ns_smallest3_valid(%s, %u)) return NS_ERR_MALFORMED;", p, s->raw_bits);
        return;
    case NSC_ENC_UNION: /* checked whether or not it changed, as every slot is (its member: by its _write) */
        nsc_p_line(c, "if (%s.tag >= %s) return NS_ERR_RANGE;", p, nsc_cg_macro(g, s->type->decl, "COUNT"));
        return;
    case NSC_ENC_BOOL:
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64:
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        return;
    default:
        break;
    }
    if (s->type->kind == NSC_T_ENUM) {
        nsc_p_line(c, "if (!%s(%s)) return NS_ERR_RANGE;", nsc_cg_fn(g, s->type->decl, "is_valid"), p);
        return;
    }
    for (unsigned k = 0; k < elements(s); k++) {
        const char *term = range_term(g, s, base, k);
        if (term) nsc_p_line(c, "if (%s) return NS_ERR_RANGE;", term);
    }
}

static void check_slots(nsc_cgen *g, const nsc_layout *l, const char *base)
{
    for (size_t i = 0; i < l->nslots; i++) nsc_cg_check_slot(g, &l->slots[i], base);
}

static void check_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_comment(c, "A snapshot made by hand may hold what no reader accepts: refuse to write it.");
    nsc_p_line(c, "static ns_status %s(const %s_snap *s)", nsc_cg_fn(g, d, "check"), n);
    nsc_p_open(c, "{");
    size_t before = nsc_p_size(c);
    /* Range checks OR-ed into one flag, tested once (before any check with another status, so
     * that the first error in field order is still the one reported): a branch per field would
     * cost more than the compares. */
    bool declared = false, pending = false;
    for (size_t i = 0; i < d->layout->nslots; i++) {
        const nsc_slot *s = &d->layout->slots[i];
        if (!range_only(s)) {
            bool unchecked = s->enc == NSC_ENC_BOOL || s->enc == NSC_ENC_FLOAT32 || s->enc == NSC_ENC_FLOAT64 ||
                             s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_F; /* any value is valid */
            if (unchecked) continue;
            if (pending) nsc_p_line(c, "if (bad) return NS_ERR_RANGE;");
            pending = false;
            nsc_cg_check_slot(g, s, "s->");
            continue;
        }
        for (unsigned k = 0; k < elements(s); k++) {
            const char *term = range_term(g, s, "s->", k);
            if (!term) continue;
            if (!declared) nsc_p_line(c, "bool bad = false;");
            declared = pending = true;
            nsc_p_line(c, "bad |= %s;", term);
        }
    }
    if (nsc_p_size(c) == before) nsc_p_line(c, "(void)s;");
    nsc_p_line(c, pending ? "return bad ? NS_ERR_RANGE : NS_OK;" : "return NS_OK;");
    nsc_p_close(c, "}");
}

/* ---- payloads ----------------------------------------------------------------------------- */

const char *nsc_cg_differs(nsc_cgen *g, const nsc_slot *s, const char *cur, const char *ref)
{
    switch (s->enc) {
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY:
        return NSC_FMT(g, "ns_coll_changed(&%s, &%s, &%s)", nsc_cg_coll(g, s, "ops"), cur, ref);
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q: {
        /* Element by element, without branches: a memcmp call costs more than the compares. The
         * differing bits OR-ed, then one test: clang vectorized OR-ed compares of a quaternion
         * with a 16-byte load of the references, which waited on wider stores to them, and split
         * the predictor's arrays along the fields; this form took its -O3 -march=native encode of
         * an idle Transform from 1.14-1.20 to 1.02-1.07 of the hand codec's time (gcc unchanged). */
        nsc_strbuf sb = NSC_STRBUF_INIT;
        for (unsigned k = 0; k < s->arity; k++) nsc_sb_printf(&sb, "%s(%s[%u] ^ %s[%u])", k ? " | " : "", cur, k, ref, k);
        const char *out = NSC_FMT(g, "((%s) != 0)", nsc_sb_str(&sb));
        nsc_sb_free(&sb);
        return out;
    }
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        return NSC_FMT(g, "memcmp(%s, %s, sizeof %s) != 0", cur, ref, cur);
    case NSC_ENC_STRING:
        return NSC_FMT(g, "strcmp(%s, %s) != 0", cur, ref);
    case NSC_ENC_BYTES:
        return NSC_FMT(g, "(%s.len != %s.len || memcmp(%s.data, %s.data, %s.len) != 0)", cur, ref, cur, ref, cur);
    case NSC_ENC_STRUCT:
        return NSC_FMT(g, "!%s(&%s, &%s)", nsc_cg_fn(g, s->type->decl, "snap_equal"), cur, ref);
    case NSC_ENC_CUSTOM:
        return NSC_FMT(g, "!%s(&%s, &%s)", nsc_cg_fn(g, s->type->decl, "equal"), cur, ref);
    case NSC_ENC_UNION:
        return NSC_FMT(g, "!%s(&%s, &%s)", nsc_cg_fn(g, s->type->decl, "snap_equal"), cur, ref);
    case NSC_ENC_ARRAY: {
        /* Element by element, up to the first that differs. */
        nsc_strbuf sb = NSC_STRBUF_INIT;
        for (size_t k = 0; k < s->composite->nslots; k++) {
            const nsc_slot *e = &s->composite->slots[k];
            nsc_sb_printf(&sb, "%s(%s)", k ? " || " : "",
                          nsc_cg_differs(g, e, NSC_FMT(g, "%s%s", cur, e->path), NSC_FMT(g, "%s%s", ref, e->path)));
        }
        const char *out = NSC_FMT(g, "(%s)", nsc_sb_str(&sb));
        nsc_sb_free(&sb);
        return out;
    }
    default:
        return NSC_FMT(g, "%s != %s", cur, ref);
    }
}

static void write_members(nsc_cgen *g, const nsc_layout *l, const char *cur, const char *ref);

/* Statements that write one slot's payload; maskless when the slot has no change bit of its own
 * (a member of a @composite struct). */
void nsc_cg_write_payload(nsc_cgen *g, const nsc_slot *s, const char *cur, const char *ref, bool maskless)
{
    nsc_printer *c = g->c;
    switch (s->enc) {
    case NSC_ENC_BOOL:
        if (maskless) nsc_p_line(c, "ns_write_bool(&w, %s);", cur);
        return;
    case NSC_ENC_INT:
    case NSC_ENC_QUANT:
        nsc_p_line(c, "ns_write_delta_%s_default(&w, %s, %s);", is_u32(s) ? "u32" : "i32", cur, ref);
        return;
    case NSC_ENC_INT64:
        nsc_p_line(c, "ns_write_delta_%s(&w, %s, %s, NULL);", is_u64(s) ? "u64" : "i64", cur, ref);
        return;
    case NSC_ENC_RAW:
        nsc_p_line(c, "ns_write_raw(&w, (uint64_t)%s - (uint64_t)%s, %u);", cur, i64(g, s->lo), s->raw_bits);
        return;
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64: {
        const char *w = s->enc == NSC_ENC_FLOAT32 ? "f32" : "f64";
        nsc_p_line(c, "ns_write_%s_%s(&w, %s, %s);", w, maskless ? "delta" : "xor", cur, ref);
        return;
    }
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "ns_write_delta_i32_default(&w, %s[%u], %s[%u]);", cur, k, ref, k);
        return;
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "ns_write_f32_delta(&w, %s[%u], %s[%u]);", cur, k, ref, k);
        return;
    case NSC_ENC_QUAT_S3:
        nsc_p_line(c, "ns_write_raw(&w, %s, NS_SMALLEST3_BITS(%u));", cur, s->raw_bits);
        return;
    case NSC_ENC_STRING:
    case NSC_ENC_BYTES: {
        const char *call = s->enc == NSC_ENC_STRING
            ? NSC_FMT(g, "ns_write_string(&w, %s, %s, %u);", cur, ref, s->type->capacity)
            : NSC_FMT(g, "ns_write_text(&w, %s.data, %s.len, %s.data, %s.len);", cur, cur, ref, ref);
        if (!maskless) {
            nsc_p_line(c, "%s", call);
            return;
        }
        nsc_p_open(c, "{");
        nsc_p_line(c, "const bool changed = %s;", nsc_cg_differs(g, s, cur, ref));
        nsc_p_line(c, "ns_write_bool(&w, changed);");
        nsc_p_line(c, "if (changed) %s", call);
        nsc_p_close(c, "}");
        return;
    }
    case NSC_ENC_STRUCT:
        write_members(g, s->composite, NSC_FMT(g, "%s.", cur), NSC_FMT(g, "%s.", ref));
        return;
    case NSC_ENC_CUSTOM:
        /* The user's codec (never maskless: the checker keeps extern structs out of composites).
         * A write longer than @max_bits would break MAX_BITS: refused, the caller's writer unmoved. */
        nsc_p_open(c, "{");
        nsc_p_line(c, "const size_t at = ns_writer_bits(&w);");
        nsc_p_line(c, "st = %s(&w, &%s, &%s);", nsc_cg_fn(g, s->type->decl, "write"), cur, ref);
        nsc_p_line(c, "if (st == NS_OK && ns_writer_bits(&w) - at > %uu) st = NS_ERR_RANGE;", s->max_bits);
        nsc_p_line(c, "if (st != NS_OK) return st;");
        nsc_p_close(c, "}");
        return;
    case NSC_ENC_ARRAY: /* element paths are "[i]" */
        write_members(g, s->composite, cur, ref);
        return;
    case NSC_ENC_UNION: /* never maskless: the checker keeps unions out of composites */
        nsc_p_line(c, "st = %s(&w, &%s, &%s);", nsc_cg_fn(g, s->type->decl, "write"), cur, ref);
        nsc_p_line(c, "if (st != NS_OK) return st;");
        return;
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY: {
        /* An element out of range is only found here: return before the caller's writer moves. */
        const char *call = NSC_FMT(g, "st = ns_coll_write(&w, &%s, &%s, &%s);", nsc_cg_coll(g, s, "ops"), cur, ref);
        if (!maskless) {
            nsc_p_line(c, "%s", call);
            nsc_p_line(c, "if (st != NS_OK) return st;");
            return;
        }
        nsc_p_open(c, "{");
        nsc_p_line(c, "const bool changed = %s;", nsc_cg_differs(g, s, cur, ref));
        nsc_p_line(c, "ns_write_bool(&w, changed);");
        nsc_p_line(c, "if (changed) %s", call);
        nsc_p_line(c, "if (st != NS_OK) return st;");
        nsc_p_close(c, "}");
        return;
    }
    default:
        return;
    }
}

static void write_members(nsc_cgen *g, const nsc_layout *l, const char *cur, const char *ref)
{
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        nsc_cg_write_payload(g, s, NSC_FMT(g, "%s%s", cur, s->path), NSC_FMT(g, "%s%s", ref, s->path), true);
    }
}

static void read_members(nsc_cgen *g, const nsc_layout *l, const char *dst, const char *ref);

/* A constant of the width a reader function takes. */
static const char *bound(nsc_cgen *g, const char *fn, int64_t v)
{
    if (!strcmp(fn, "i64")) return i64(g, v);
    if (!strcmp(fn, "u64")) return NSC_FMT(g, "UINT64_C(%llu)", (unsigned long long)v);
    if (!strcmp(fn, "u32")) return NSC_FMT(g, "%lluu", (unsigned long long)v);
    return v == INT32_MIN ? "INT32_MIN" : NSC_FMT(g, "%lld", (long long)v);
}

/* A range-checked integer read of slot s into dst against ref (unchecked where the snapshot's
 * C type holds every value the read can give). */
static void read_int(nsc_cgen *g, const nsc_slot *s, const char *dst, const char *ref)
{
    const char *fn = int_fn(s);
    if (narrower(s, fn))
        nsc_p_line(g->c, "%s = (%s)ns_read_delta_%s_in(r, %s, %s, %s);", dst, s->snap_ctype, fn, ref, bound(g, fn, s->lo),
                   bound(g, fn, s->hi));
    else
        nsc_p_line(g->c, "%s = (%s)ns_read_delta_%s(r, %s, NULL);", dst, s->snap_ctype, fn, ref);
    if (s->type->kind == NSC_T_ENUM)
        nsc_p_line(g->c, "if (!%s(%s)) ns_reader_fail(r, NS_ERR_RANGE);", nsc_cg_fn(g, s->type->decl, "is_valid"), dst);
}

void nsc_cg_read_payload(nsc_cgen *g, const nsc_slot *s, const char *dst, const char *ref, bool maskless)
{
    nsc_printer *c = g->c;
    switch (s->enc) {
    case NSC_ENC_BOOL:
        if (maskless) nsc_p_line(c, "%s = ns_read_bool(r);", dst);
        else nsc_p_line(c, "%s = !%s;", dst, ref);
        return;
    case NSC_ENC_INT:
    case NSC_ENC_INT64:
    case NSC_ENC_QUANT:
        read_int(g, s, dst, ref);
        return;
    case NSC_ENC_RAW:
        if (is_u64(s) && !s->bounded)
            nsc_p_line(c, "%s = ns_read_raw_u64(r, %u, 0, UINT64_MAX);", dst, s->raw_bits);
        else
            nsc_p_line(c, "%s = (%s)ns_read_raw_i64(r, %u, %s, %s);", dst, s->snap_ctype, s->raw_bits, i64(g, s->lo),
                       i64(g, s->hi));
        if (s->type->kind == NSC_T_ENUM)
            nsc_p_line(c, "if (!%s(%s)) ns_reader_fail(r, NS_ERR_RANGE);", nsc_cg_fn(g, s->type->decl, "is_valid"), dst);
        return;
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64: {
        const char *w = s->enc == NSC_ENC_FLOAT32 ? "f32" : "f64";
        nsc_p_line(c, "%s = ns_read_%s_%s(r, %s);", dst, w, maskless ? "delta" : "xor", ref);
        return;
    }
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q: {
        nsc_slot one = *s;
        one.enc = NSC_ENC_QUANT;
        for (unsigned k = 0; k < s->arity; k++)
            read_int(g, &one, NSC_FMT(g, "%s[%u]", dst, k), NSC_FMT(g, "%s[%u]", ref, k));
        return;
    }
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "%s[%u] = ns_read_f32_delta(r, %s[%u]);", dst, k, ref, k);
        return;
    case NSC_ENC_QUAT_S3:
        nsc_p_line(c, "%s = ns_read_smallest3_packed(r, %u);", dst, s->raw_bits);
        return;
    case NSC_ENC_STRING:
    case NSC_ENC_BYTES: {
        const char *call = s->enc == NSC_ENC_STRING
            ? NSC_FMT(g, "ns_read_string(r, %s, %s, %u);", dst, ref, s->type->capacity)
            : NSC_FMT(g, "%s.len = (uint16_t)ns_read_text(r, %s.data, %u, %s.data, %s.len);", dst, dst, s->type->capacity,
                      ref, ref);
        if (maskless) nsc_p_line(c, "if (ns_read_bool(r)) %s", call);
        else nsc_p_line(c, "%s", call);
        return;
    }
    case NSC_ENC_STRUCT:
        read_members(g, s->composite, NSC_FMT(g, "%s.", dst), NSC_FMT(g, "%s.", ref));
        return;
    case NSC_ENC_CUSTOM:
        /* The user's read gets the bounds-checked reader; its error status, or more than
         * @max_bits read, fails the reader, so the caller's destination keeps what it held. */
        nsc_p_open(c, "{");
        nsc_p_line(c, "const size_t at = ns_reader_bits(r);");
        nsc_p_line(c, "const ns_status ust = %s(r, &%s, &%s);", nsc_cg_fn(g, s->type->decl, "read"), dst, ref);
        nsc_p_line(c, "if (ust != NS_OK) ns_reader_fail(r, ust);");
        nsc_p_line(c, "else if (ns_reader_bits(r) - at > %uu) ns_reader_fail(r, NS_ERR_MALFORMED);", s->max_bits);
        nsc_p_close(c, "}");
        return;
    case NSC_ENC_ARRAY:
        read_members(g, s->composite, dst, ref);
        return;
    case NSC_ENC_UNION: /* a bad tag or member fails the reader: the caller's destination is kept */
        nsc_p_open(c, "{");
        nsc_p_line(c, "const ns_status ust = %s(r, &%s, &%s);", nsc_cg_fn(g, s->type->decl, "read"), dst, ref);
        nsc_p_line(c, "if (ust != NS_OK) ns_reader_fail(r, ust);");
        nsc_p_close(c, "}");
        return;
    default:
        return;
    }
}

static void read_members(nsc_cgen *g, const nsc_layout *l, const char *dst, const char *ref)
{
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        nsc_cg_read_payload(g, s, NSC_FMT(g, "%s%s", dst, s->path), NSC_FMT(g, "%s%s", ref, s->path), true);
    }
}

/* ---- _write and _read --------------------------------------------------------------------- */

/* Who gets a slot, as a C condition over `owner`, `predicting`, `custom` (the receiver's
 * ns_audience bits) and `full`; NULL for nobody. */
static const char *sent_condition(nsc_cgen *g, const nsc_decl *d, const nsc_slot *s)
{
    if (d->kind != NSC_D_COMPONENT) return "true";
    unsigned sync = (unsigned)s->sync, axis = sync & NSC_SYNC_AXIS;
    if (axis == 0) return NULL;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    if (axis != NSC_SYNC_ALL) nsc_sb_puts(&sb, axis == NSC_SYNC_OWNER ? " && owner" : " && !owner");
    if (sync & NSC_IF_PREDICTED) nsc_sb_puts(&sb, " && predicting");
    if (sync & NSC_IF_INTERPOLATED) nsc_sb_puts(&sb, " && !predicting");
    if (sync & NSC_IF_CUSTOM) nsc_sb_puts(&sb, " && custom");
    if (s->initial) nsc_sb_puts(&sb, " && full");
    const char *r = sb.len ? nsc_arena_strdup(g->a, nsc_sb_str(&sb) + 4) : "true";
    nsc_sb_free(&sb);
    return r;
}

/* What the slots of a record depend on: the receiver's bits and whether it is a full state. */
typedef struct deps {
    bool owner, predicting, custom, full;
} deps;

static deps dependencies(nsc_cgen *g, const nsc_decl *d)
{
    deps r = {false, false, false, false};
    for (size_t i = 0; i < d->layout->nslots; i++) {
        const nsc_slot *s = &d->layout->slots[i];
        if (d->kind != NSC_D_COMPONENT || !sent_condition(g, d, s)) continue;
        r.owner |= (s->sync & NSC_SYNC_AXIS) != NSC_SYNC_ALL;
        r.predicting |= (s->sync & (NSC_IF_PREDICTED | NSC_IF_INTERPOLATED)) != 0;
        r.custom |= (s->sync & NSC_IF_CUSTOM) != 0;
        r.full |= s->initial;
    }
    return r;
}

/* The slots sent to receiver `to` (NSC_RECV_* bits) as a C expression deciding the variables
 * vars[i..n) ("owner", "predicting", "custom", "full"); a variable that changes nothing is left out. */
static const char *count_tree(nsc_cgen *g, const nsc_layout *l, const char *const *vars, size_t i, size_t n,
                              unsigned to, int kind)
{
    if (i == n) return NSC_FMT(g, "%uu", l->mask_slots[to][kind]);
    const char *v = vars[i];
    const bool is_full = strcmp(v, "full") == 0;
    const unsigned bit = v[0] == 'o' ? NSC_RECV_OWNER : v[0] == 'p' ? NSC_RECV_PREDICTED : v[0] == 'c' ? NSC_RECV_CUSTOM : 0;
    const char *t = count_tree(g, l, vars, i + 1, n, to | bit, is_full ? NSC_WRITE_FULL : kind);
    const char *f = count_tree(g, l, vars, i + 1, n, to, kind);
    if (strcmp(t, f) == 0) return t;
    return NSC_FMT(g, strchr(t, '?') ? (strchr(f, '?') ? "%s ? (%s) : (%s)" : "%s ? (%s) : %s")
                                      : (strchr(f, '?') ? "%s ? %s : (%s)" : "%s ? %s : %s"), v, t, f);
}

/* The number of slots sent, as an expression over owner, predicting, custom and full. */
static const char *sent_count(nsc_cgen *g, const nsc_layout *l, deps dp)
{
    if (dp.predicting || dp.custom) {
        const char *vars[4];
        size_t n = 0;
        if (dp.owner) vars[n++] = "owner";
        if (dp.predicting) vars[n++] = "predicting";
        if (dp.custom) vars[n++] = "custom";
        if (dp.full) vars[n++] = "full";
        return count_tree(g, l, vars, 0, n, 0, NSC_WRITE_DELTA);
    }
    /* Only the owner axis: the expressions generated before the conditions existed. */
    unsigned a = l->mask_slots[NSC_AUD_OWNER][NSC_WRITE_FULL], b = l->mask_slots[NSC_AUD_OWNER][NSC_WRITE_DELTA];
    unsigned cc = l->mask_slots[NSC_AUD_OBSERVER][NSC_WRITE_FULL], dd = l->mask_slots[NSC_AUD_OBSERVER][NSC_WRITE_DELTA];
    if (a == b && b == cc && cc == dd) return NSC_FMT(g, "%uu", a);
    if (a == cc && b == dd) return NSC_FMT(g, "full ? %uu : %uu", a, b);
    if (a == b && cc == dd) return NSC_FMT(g, "owner ? %uu : %uu", a, cc);
    return NSC_FMT(g, "owner ? (full ? %uu : %uu) : (full ? %uu : %uu)", a, b, cc, dd);
}

/* The receiver's bits and the write kind, as decode_fn's parameters or their arguments. */
static const char *deps_list(nsc_cgen *g, deps dp, bool params)
{
    const char *t = params ? ", const bool " : ", ";
    return NSC_FMT(g, "%s%s%s%s%s%s%s%s", dp.owner ? t : "", dp.owner ? "owner" : "", dp.predicting ? t : "",
                   dp.predicting ? "predicting" : "", dp.custom ? t : "", dp.custom ? "custom" : "",
                   dp.full ? t : "", dp.full ? "full" : "");
}

/* The part of _write and _read before the fields: arguments checked, reference chosen. */
static void prologue(nsc_cgen *g, const nsc_decl *d, bool writing)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    const deps dp = dependencies(g, d);
    switch (d->kind) {
    case NSC_D_COMPONENT: {
        bool predicted = has_predicted(d->layout);
        nsc_p_line(c, "ns_status st = ns_baselines_check(base);");
        if (writing) nsc_p_line(c, "if (st == NS_OK) st = %s(cur);", nsc_cg_fn(g, d, "check"));
        nsc_p_line(c, "if (st != NS_OK) return st;");
        if (predicted) nsc_p_line(c, "%s pred;", nsc_cg_fn(g, d, "pred"));
        nsc_p_line(c, "const %s_snap *ref = %s(base%s);", n, nsc_cg_fn(g, d, "reference"), predicted ? ", &pred" : "");
        /* ns_audience is a set of bits: test each one, whatever else the caller set. */
        if (dp.owner) nsc_p_line(c, "const bool owner = (to & NS_TO_OWNER) != 0;");
        if (dp.predicting) nsc_p_line(c, "const bool predicting = (to & NS_TO_PREDICTED) != 0;");
        if (dp.custom) nsc_p_line(c, "const bool custom = (to & NS_TO_CUSTOM) != 0;");
        if (!dp.owner && !dp.predicting && !dp.custom) nsc_p_line(c, "(void)to;");
        if (dp.full) nsc_p_line(c, "const bool full = ns_baselines_count(base) == 0;");
        break;
    }
    case NSC_D_INPUT:
    case NSC_D_STRUCT: {
        const char *arg = d->kind == NSC_D_INPUT ? "prev" : "ref_in";
        if (writing) {
            nsc_p_line(c, "ns_status st = %s(cur);", nsc_cg_fn(g, d, "check"));
            nsc_p_line(c, "if (st != NS_OK) return st;");
        }
        nsc_p_line(c, "const %s_snap *ref = %s ? %s : &%s;", n, arg, arg, nsc_cg_fn(g, d, "snap_default"));
        break;
    }
    default:
        if (writing) {
            nsc_p_line(c, "ns_status st = %s(cur);", nsc_cg_fn(g, d, "check"));
            nsc_p_line(c, "if (st != NS_OK) return st;");
        }
        nsc_p_line(c, "const %s_snap *ref = &%s;", n, nsc_cg_fn(g, d, "snap_default"));
    }
    nsc_p_line(c, "const unsigned sent = %s;", sent_count(g, d->layout, dp));
}

/* A reader is read through the caller's pointer, never a local copy: the copy loaded at once a
 * reader that the previous _read had just stored field by field, and waited for those stores
 * (clang -O3 -march=native decode 1.18 -> 1.00 of the hand codec's time, gcc -O2 0.87 -> 0.83). A
 * writer keeps its local copy: the same change measured within noise there. */
static const char *signature(nsc_cgen *g, const nsc_decl *d, bool writing)
{
    const char *n = nsc_cg_name(g, d);
    const char *fn = nsc_cg_fn(g, d, writing ? "write" : "read");
    const char *head = writing ? NSC_FMT(g, "ns_status %s(ns_writer *wp, const %s_snap *cur", fn, n)
                               : NSC_FMT(g, "ns_status %s(ns_reader *r, %s_snap *out", fn, n);
    switch (d->kind) {
    case NSC_D_COMPONENT: return NSC_FMT(g, "%s, const ns_baselines *base, ns_audience to)", head);
    case NSC_D_INPUT: return NSC_FMT(g, "%s, const %s_snap *prev)", head, n);
    case NSC_D_STRUCT: return NSC_FMT(g, "%s, const %s_snap *ref_in)", head, n);
    default: return NSC_FMT(g, "%s)", head);
    }
}

/* True if a slot's payload is 32-bit deltas in the default packed model (one per element). */
static bool delta32(const nsc_slot *s)
{
    if (s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_QUAT_Q) return true;
    if (s->enc != NSC_ENC_INT && s->enc != NSC_ENC_QUANT) return false;
    const char *fn = int_fn(s);
    return !strcmp(fn, "i32") || !strcmp(fn, "u32");
}

/* The longest record d's _write can make when every slot is a bool or 32-bit deltas, in bytes
 * (every change bit set, every code its longest: 6 bits of prefix and 32 raw, whatever the
 * baselines hold); 0 when some slot is of another kind. */
static unsigned record_worst_bytes(nsc_cgen *g, const nsc_decl *d)
{
    unsigned bits = 1; /* any */
    for (size_t i = 0; i < d->layout->nslots; i++) {
        const nsc_slot *s = &d->layout->slots[i];
        if (!sent_condition(g, d, s)) continue;
        if (s->enc == NSC_ENC_BOOL) bits += 1;
        else if (delta32(s)) bits += 1 + elements(s) * 38u;
        else return 0;
    }
    return (bits + 7) / 8;
}

static void write_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    nsc_p_empty(c);
    nsc_p_line(c, "%s", signature(g, d, true));
    nsc_p_open(c, "{");
    prologue(g, d, true);
    /* A record of bools and 32-bit deltas has a known worst size: one test for room for all of
     * it (ns_record, netschema/bits.h) instead of one per put. */
    bool sends = false, uses_ref = false;
    for (size_t i = 0; i < l->nslots; i++) {
        bool sent = sent_condition(g, d, &l->slots[i]) != NULL;
        sends |= sent;
        uses_ref |= sent && !l->slots[i].predicted;
    }
    const unsigned worst = sends ? record_worst_bytes(g, d) : 0;
    const bool profiled = d->kind != NSC_D_STRUCT; /* struct writes are counted in their collection's slot */
    if (worst) {
        /* The record holds the pending bits, so the caller's writer is read once at its start and
         * written once at its end: a local copy would only add a copy in and a copy out. */
        nsc_p_comment(c, "The record keeps the writer's state in registers: the writer is used in place.");
        if (profiled) nsc_p_line(c, "NS_PROFILE_BEFORE(before, wp);");
    } else {
        nsc_p_comment(c, "A local copy keeps the writer in registers (netschema/bits.h).");
        nsc_p_line(c, "ns_writer w = *wp;");
    }
    nsc_strbuf any = NSC_STRBUF_INIT;
    if (!uses_ref) nsc_p_line(c, "(void)ref; /* every field sent is predicted */");
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        const char *cond = sent_condition(g, d, s);
        if (!cond) continue;
        const char *diff = nsc_cg_differs(g, s, NSC_FMT(g, "cur->%s", s->path), refx(g, s));
        if (strcmp(cond, "true") == 0) nsc_p_line(c, "const bool c%zu = %s; /* %s */", i, diff, s->path);
        else nsc_p_line(c, "const bool c%zu = %s && %s; /* %s */", i, cond, diff, s->path);
        nsc_sb_printf(&any, "%sc%zu", any.len ? " | " : "", i);
    }
    const char *wr = worst ? "&rec" : "&w", *put = worst ? "ns_record" : "ns_write";
    if (any.len == 0) {
        nsc_p_line(c, "(void)cur;");
        nsc_p_line(c, "(void)sent;");
    } else {
        nsc_p_line(c, "const bool any = %s;", nsc_sb_str(&any));
        if (worst) {
            nsc_p_line(c, "uint8_t spill[%uu + 8u]; /* the record when the buffer may not hold its worst case */", worst);
            nsc_p_line(c, "ns_record rec = ns_record_begin(wp, spill, %uu);", worst);
        }
        nsc_p_line(c, "if (sent > 1) %s_bool(%s, any);", put, wr);
        nsc_p_open(c, "if (any || sent == 1) {");
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            const char *cond = sent_condition(g, d, s);
            if (!cond) continue;
            bool always = strcmp(cond, "true") == 0;
            if (!always) nsc_p_open(c, "if (%s) {", cond);
            if (delta32(s)) {
                /* The change bit and the first delta in one put; the other elements after it. */
                const char *fn = is_u32(s) ? "u32" : "i32", *cur = NSC_FMT(g, "cur->%s", s->path), *ref = refx(g, s);
                unsigned n = elements(s);
                nsc_p_line(c, "%s_changed_delta_%s(%s, c%zu, %s%s, %s%s);", put, fn, wr, i, cur, n > 1 ? "[0]" : "", ref,
                           n > 1 ? "[0]" : "");
                if (n > 1) {
                    nsc_p_open(c, "if (c%zu) {", i);
                    for (unsigned k = 1; k < n; k++)
                        nsc_p_line(c, "%s_delta_%s%s(%s, %s[%u], %s[%u]);", put, fn, worst ? "" : "_default", wr, cur, k, ref, k);
                    nsc_p_close(c, "}");
                }
                if (!always) nsc_p_close(c, "}");
                continue;
            }
            nsc_p_line(c, "%s_bool(%s, c%zu);", put, wr, i);
            if (s->enc != NSC_ENC_BOOL) { /* a changed bool is known from its change bit */
                nsc_p_open(c, "if (c%zu) {", i);
                nsc_cg_write_payload(g, s, NSC_FMT(g, "cur->%s", s->path), refx(g, s), false);
                nsc_p_close(c, "}");
            }
            if (!always) nsc_p_close(c, "}");
        }
        nsc_p_close(c, "}");
        if (worst) nsc_p_line(c, "ns_record_end(wp, &rec, spill);");
    }
    nsc_sb_free(&any);
    if (profiled) /* the bandwidth profile (netschema/profile.h): nothing without NS_PROFILE */
        nsc_p_line(c, "NS_PROFILE_WRITE(&%s, %s, %s);", nsc_cg_fn(g, d, "desc"), worst ? "&before, wp" : "wp, &w",
                   d->kind == NSC_D_COMPONENT ? "base, to, NULL" : d->kind == NSC_D_INPUT ? "NULL, NS_TO_OWNER, prev" : "NULL, NS_TO_OWNER, NULL");
    if (!worst) nsc_p_line(c, "*wp = w;");
    nsc_p_line(c, "return ns_writer_status(%s);", worst ? "wp" : "&w");
    nsc_p_close(c, "}");
}

/* True if slots hold a collection, directly or inside a @composite struct. */
static bool holds_collection(const nsc_layout *l)
{
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (nsc_type_is_collection(s->type) || (s->enc == NSC_ENC_STRUCT && holds_collection(s->composite))) return true;
    }
    return false;
}

/* Statements that copy slot s from src to dst (C lvalues): vectors element by element, so that
 * every load reads exactly what one store wrote (a wide copy of values just stored narrow stalls
 * on store forwarding) and the compiler can keep the elements in registers. */
static void copy_slot(nsc_cgen *g, const nsc_slot *s, const char *dst, const char *src)
{
    switch (s->enc) {
    case NSC_ENC_VEC_Q:
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_Q:
    case NSC_ENC_QUAT_F:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(g->c, "%s[%u] = %s[%u];", dst, k, src, k);
        return;
    case NSC_ENC_STRING:
    case NSC_ENC_BYTES:
    case NSC_ENC_ARRAY:
        nsc_p_line(g->c, "memcpy(&%s, &%s, sizeof %s);", dst, src, dst);
        return;
    default:
        nsc_p_line(g->c, "%s = %s;", dst, src);
    }
}

/* True for a slot whose change bit and payload one ns_read_changed_delta_i32_in reads: a
 * scalar int32 delta in the default model. Not enums, whose check must not run on an unchanged
 * reference. */
static bool changed_delta_slot(const nsc_slot *s)
{
    return (s->enc == NSC_ENC_INT || s->enc == NSC_ENC_QUANT) && !strcmp(int_fn(s), "i32") &&
           s->type->kind != NSC_T_ENUM;
}

/* `v.<path> = ns_read_changed_delta_i32_in(...)`, under `if (cond)` unless cond is NULL: v holds
 * the reference already, which the read returns when the bit is 0. */
static void read_changed_delta(nsc_cgen *g, const nsc_slot *s, const char *cond)
{
    const char *lo, *hi;
    unit_range(g, s, &lo, &hi);
    const char *call = NSC_FMT(g, "v.%s = (%s)ns_read_changed_delta_i32_in(r, %s, %s, %s);", s->path, s->snap_ctype,
                               refx(g, s), lo, hi);
    if (cond) nsc_p_line(g->c, "if (%s) %s", cond, call);
    else nsc_p_line(g->c, "%s", call);
}

/* Reads of records without collections: decode into a local copy, store it field by field on
 * success. */
static void read_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "%s", signature(g, d, false));
    nsc_p_open(c, "{");
    prologue(g, d, false);
    bool uses_ref = false;
    for (size_t i = 0; i < l->nslots; i++) uses_ref |= !l->slots[i].predicted;
    if (l->nslots == 0) {
        nsc_p_line(c, "%s_snap v = *ref;", n);
    } else {
        if (!uses_ref) nsc_p_line(c, "(void)ref; /* every field is predicted */");
        nsc_p_line(c, "%s_snap v;", n);
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            copy_slot(g, s, NSC_FMT(g, "v.%s", s->path),
                      s->predicted ? NSC_FMT(g, "pred.%s", pred_member(g, s)) : NSC_FMT(g, "ref->%s", s->path));
        }
    }
    bool any_slot = false;
    for (size_t i = 0; i < l->nslots; i++) any_slot |= sent_condition(g, d, &l->slots[i]) != NULL;
    if (!any_slot) {
        nsc_p_line(c, "(void)sent;");
    } else {
        nsc_p_line(c, "const bool any = sent > 1 ? ns_read_bool(r) : sent == 1;");
        nsc_p_open(c, "if (any) {");
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            const char *cond = sent_condition(g, d, s);
            if (!cond) continue;
            bool always = strcmp(cond, "true") == 0;
            nsc_p_comment(c, "%s", s->path);
            if (changed_delta_slot(s)) {
                read_changed_delta(g, s, always ? NULL : cond);
                continue;
            }
            if (always) nsc_p_open(c, "if (ns_read_bool(r)) {");
            else nsc_p_open(c, "if ((%s) && ns_read_bool(r)) {", cond);
            nsc_cg_read_payload(g, s, NSC_FMT(g, "v.%s", s->path), refx(g, s), false);
            nsc_p_close(c, "}");
        }
        nsc_p_close(c, "}");
    }
    nsc_p_comment(c, "On error the destination keeps what it held.");
    nsc_p_line(c, "if (ns_reader_failed(r)) return ns_reader_status(r);");
    if (l->nslots == 0) nsc_p_line(c, "*out = v;");
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        copy_slot(g, s, NSC_FMT(g, "out->%s", s->path), NSC_FMT(g, "v.%s", s->path));
    }
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");
}

/* ---- records with collections: check everything, then decode ------------------------------- */

/* Statements that decode one slot at `path` (relative to dst and ref) when `changed` (a C
 * condition, evaluated once, which may read the change bit) holds, else keep the reference. */
static void decode_slot(nsc_cgen *g, const nsc_slot *s, const char *path, const char *ref, const char *changed,
                        bool maskless)
{
    nsc_printer *c = g->c;
    if (nsc_type_is_collection(s->type)) {
        const char *ops = nsc_cg_coll(g, s, "ops");
        nsc_p_line(c, "if (%s) ns_coll_read(r, &%s, dst ? &dst->%s : NULL, &ref->%s);", changed, ops, path, path);
        nsc_p_line(c, "else if (dst) ns_coll_copy(&%s, &dst->%s, &ref->%s);", ops, path, path);
        return;
    }
    nsc_p_open(c, "{");
    if (s->enc == NSC_ENC_STRUCT && holds_collection(s->composite)) {
        /* A @composite struct holding a collection: member by member, no change bits of their own
         * except the collections'. */
        char *cc = NSC_FMT(g, "c_%s", path);
        for (char *p = cc; *p; p++)
            if (*p == '.') *p = '_';
        nsc_p_line(c, "const bool %s = %s;", cc, changed);
        for (size_t i = 0; i < s->composite->nslots; i++) {
            const nsc_slot *m = &s->composite->slots[i];
            const char *mp = NSC_FMT(g, "%s.%s", path, m->path);
            const char *mc = nsc_type_is_collection(m->type) ? NSC_FMT(g, "%s && ns_read_bool(r)", cc) : cc;
            nsc_p_comment(c, "%s", mp);
            decode_slot(g, m, mp, NSC_FMT(g, "ref->%s", mp), mc, true);
        }
        nsc_p_close(c, "}");
        return;
    }
    if (nsc_cg_snap_is_array(s)) {
        nsc_p_line(c, "%s;", nsc_cg_snap_decl(g, s, "x"));
        nsc_p_line(c, "memcpy(&x, &%s, sizeof x);", ref);
    } else {
        nsc_p_line(c, "%s = %s;", nsc_cg_snap_decl(g, s, "x"), ref);
    }
    if (maskless && s->enc == NSC_ENC_BOOL) {
        nsc_p_line(c, "if (%s) x = ns_read_bool(r);", changed);
    } else {
        nsc_p_open(c, "if (%s) {", changed);
        nsc_cg_read_payload(g, s, "x", ref, maskless);
        nsc_p_close(c, "}");
    }
    if (nsc_cg_snap_is_array(s)) nsc_p_line(c, "if (dst) memcpy(&dst->%s, &x, sizeof x);", path);
    else nsc_p_line(c, "if (dst) dst->%s = x;", path);
    nsc_p_close(c, "}");
}

static void decode_fn(nsc_cgen *g, const nsc_decl *d, bool predicted, deps dp)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_comment(c, "Decodes what %s wrote into dst, or with dst NULL only checks it.", nsc_cg_fn(g, d, "write"));
    nsc_p_line(c, "static void %s(ns_reader *r, %s_snap *dst, const %s_snap *ref%s%s, const unsigned sent)",
               nsc_cg_fn(g, d, "decode"), n, n, predicted ? NSC_FMT(g, ", const %s *pp", nsc_cg_fn(g, d, "pred")) : "",
               deps_list(g, dp, true));
    nsc_p_open(c, "{");
    if (predicted) nsc_p_line(c, "const %s pred = *pp;", nsc_cg_fn(g, d, "pred"));
    nsc_p_line(c, "const bool any = sent > 1 ? ns_read_bool(r) : sent == 1;");
    bool any_slot = false;
    for (size_t i = 0; i < l->nslots; i++) any_slot |= sent_condition(g, d, &l->slots[i]) != NULL;
    if (!any_slot) nsc_p_line(c, "(void)any; /* no field is ever sent (@sync(none)) */");
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        const char *cond = sent_condition(g, d, s);
        const char *changed = !cond ? "false"
                            : strcmp(cond, "true") == 0 ? "any && ns_read_bool(r)"
                            : NSC_FMT(g, "any && (%s) && ns_read_bool(r)", cond);
        nsc_p_comment(c, "%s", s->path);
        decode_slot(g, s, s->path, refx(g, s), changed, false);
    }
    nsc_p_close(c, "}");
}

static void read_twice_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    bool predicted = d->kind == NSC_D_COMPONENT && has_predicted(d->layout);
    const deps dp = dependencies(g, d);
    decode_fn(g, d, predicted, dp);
    nsc_p_empty(c);
    nsc_p_line(c, "%s", signature(g, d, false));
    nsc_p_open(c, "{");
    prologue(g, d, false);
    nsc_p_comment(c, "Decoding builds out from ref, so the two must differ.");
    nsc_p_line(c, "if ((const void *)out == (const void *)ref) return NS_ERR_ARGUMENT;");
    const char *args = NSC_FMT(g, "ref%s%s, sent", predicted ? ", &pred" : "", deps_list(g, dp, false));
    nsc_p_comment(c, "Check the whole delta first, so that on error out keeps what it held.");
    nsc_p_line(c, "ns_reader check = *r;");
    nsc_p_line(c, "%s(&check, NULL, %s);", nsc_cg_fn(g, d, "decode"), args);
    nsc_p_open(c, "if (ns_reader_failed(&check)) {");
    nsc_p_line(c, "*r = check;");
    nsc_p_line(c, "return ns_reader_status(&check);");
    nsc_p_close(c, "}");
    nsc_p_line(c, "%s(r, out, %s);", nsc_cg_fn(g, d, "decode"), args);
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");
}

void nsc_cg_codec(nsc_cgen *g, const nsc_decl *d)
{
    if (d->kind == NSC_D_COMPONENT) reference_fn(g, d);
    check_fn(g, d);
    write_fn(g, d);
    if (holds_collection(d->layout)) read_twice_fn(g, d);
    else read_fn(g, d);
}
