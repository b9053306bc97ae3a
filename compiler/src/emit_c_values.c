/* emit_c_values.c — generated defaults (_init and the default snapshot), _quantize and
 * _dequantize, _snap_equal and _equal (the dirty-tracking setters are emit_c_setters.c's).
 *
 * The default snapshot is computed here, at compile time, with the runtime's own quantize
 * functions, so it is bit-identical to what _quantize makes of the _init value. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/floats.h>
#include <netschema/quant.h>

#include "emit_c.h"

/* ---- literals ---------------------------------------------------------------------------- */

/* An integer as a C constant of the given C type, without warnings on any compiler. */
static void int_literal(nsc_strbuf *sb, const char *ctype, bool neg, uint64_t mag)
{
    bool is64 = strstr(ctype, "64") != NULL, is_unsigned = ctype[0] == 'u';
    if (neg && mag == (is64 ? UINT64_C(9223372036854775808) : UINT64_C(2147483648))) {
        nsc_sb_puts(sb, is64 ? "(-INT64_C(9223372036854775807) - 1)" : "(-2147483647 - 1)");
        return;
    }
    if (is64) nsc_sb_printf(sb, "%s(%s%llu)", is_unsigned ? "UINT64_C" : "INT64_C", neg ? "-" : "", (unsigned long long)mag);
    else nsc_sb_printf(sb, "%s%llu%s", neg ? "-" : "", (unsigned long long)mag, is_unsigned ? "u" : "");
}

const char *nsc_cg_i64(nsc_cgen *g, int64_t v)
{
    /* -9223372036854775808 is the negation of a literal too big for any signed type. */
    if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
    return NSC_FMT(g, "INT64_C(%lld)", (long long)v);
}

/* The shortest decimal that reads back as exactly this float (or double), with its suffix.
 * Any finite value: whole numbers below 1e15 print as "12.0", the rest in %g form ("1e+20f").
 * Subnormals print in hexadecimal ("0x1p-149f", C99 and C++17), which is exact: a decimal
 * that only rounds to them draws clang's "magnitude too small" warning. Non-finite values
 * (never produced by a checked schema) print as an expression that still compiles. */
static void float_literal(nsc_strbuf *sb, double v, bool is_f32)
{
    char buf[64];
    if (!isfinite(v)) {
        if (isnan(v)) nsc_sb_puts(sb, is_f32 ? "NAN" : "(double)NAN");
        else nsc_sb_printf(sb, "%s%s", v > 0 ? "" : "-", is_f32 ? "HUGE_VALF" : "HUGE_VAL");
        return;
    }
    if (fabs(v) < 1e15 && v == floor(v)) { /* in long long range: no undefined conversion */
        nsc_sb_printf(sb, "%.1f%s", v, is_f32 ? "f" : "");
        return;
    }
    bool subnormal = is_f32 ? fabsf((float)v) < FLT_MIN : fabs(v) < DBL_MIN;
    if (subnormal) {
        nsc_sb_printf(sb, "%a%s", is_f32 ? (double)(float)v : v, is_f32 ? "f" : "");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        double back = strtod(buf, NULL);
        if (is_f32 ? (float)back == (float)v : back == v) break;
    }
    nsc_sb_puts(sb, buf);
    if (!strpbrk(buf, ".eEn")) nsc_sb_puts(sb, ".0");
    if (is_f32) nsc_sb_putc(sb, 'f');
}

/* A C string literal for bytes: printable ASCII as is, everything else as octal escapes. */
static void string_literal(nsc_strbuf *sb, const char *s, size_t n)
{
    nsc_sb_putc(sb, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') nsc_sb_printf(sb, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f && c != '?') nsc_sb_putc(sb, (char)c); /* '?' avoids trigraphs */
        else nsc_sb_printf(sb, "\\%03o", c);
    }
    nsc_sb_putc(sb, '"');
}

/* C11 (5.2.4.1) only guarantees string literals of 4095 characters, and -Wpedantic holds generated
 * code to that: longer text is spelled as a brace list of character constants instead. */
#define NSC_MAX_C_STRING 4095u

/* A char array initializer for bytes: a string literal when short enough, else "{'a', '\303'}". */
static void char_array_init(nsc_strbuf *sb, const char *s, size_t n)
{
    if (n <= NSC_MAX_C_STRING) {
        string_literal(sb, s, n);
        return;
    }
    nsc_sb_putc(sb, '{');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i) nsc_sb_puts(sb, ", ");
        if (c == '\'' || c == '\\') nsc_sb_printf(sb, "'\\%c'", c);
        else if (c >= 0x20 && c < 0x7f) nsc_sb_printf(sb, "'%c'", c);
        else nsc_sb_printf(sb, "'\\%03o'", c);
    }
    nsc_sb_putc(sb, '}');
}

/* Copies n bytes of text to dst (a char or uint8_t array) in _init. */
static void copy_text(nsc_printer *c, const char *dst, const char *s, size_t n)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    char_array_init(&sb, s, n);
    if (n <= NSC_MAX_C_STRING) {
        nsc_p_line(c, "memcpy(%s, %s, %zu);", dst, nsc_sb_str(&sb), n);
    } else {
        nsc_p_open(c, "{");
        nsc_p_line(c, "static const char text[%zu] = %s;", n, nsc_sb_str(&sb));
        nsc_p_line(c, "memcpy(%s, text, sizeof text);", dst);
        nsc_p_close(c, "}");
    }
    nsc_sb_free(&sb);
}

/* A bound of ns_clamp_i64: a plain literal, except INT64_MIN, which no literal spells. */
static const char *clamp_bound(nsc_cgen *g, int64_t v)
{
    return v == INT64_MIN ? nsc_cg_i64(g, v) : NSC_FMT(g, "%lld", (long long)v);
}

/* A bound of ns_clamp_u64 (the bits of the slot's int64_t bounds): beyond INT64_MAX only
 * UINT64_C spells it without a warning. */
static const char *clamp_bound_u64(nsc_cgen *g, int64_t v)
{
    return NSC_FMT(g, v < 0 ? "UINT64_C(%llu)" : "%llu", (unsigned long long)v);
}

static double lit_double(const nsc_literal *l)
{
    if (l->kind == NSC_LIT_FLOAT) return l->f;
    return l->neg ? -(double)l->mag : (double)l->mag;
}

void nsc_cg_literal(nsc_cgen *g, const nsc_type *t, const nsc_literal *l, nsc_strbuf *sb)
{
    switch (l->kind) {
    case NSC_LIT_BOOL: nsc_sb_puts(sb, l->b ? "true" : "false"); return;
    case NSC_LIT_ENUM: nsc_sb_puts(sb, nsc_enum_value_cname(g->a, t->decl, l->ev)); return;
    case NSC_LIT_FLOAT: float_literal(sb, l->f, t->kind != NSC_T_F64); return;
    case NSC_LIT_INT:
        if (nsc_type_is_float(t)) float_literal(sb, lit_double(l), t->kind == NSC_T_F32);
        else int_literal(sb, nsc_int_ctype(t), l->neg, l->mag);
        return;
    default: return; /* strings, lists: printed by their callers */
    }
}

/* The zero value of a field, clamped into its @range when 0 lies outside it (a u16 with
 * @range(10, 20) starts at 10), as a literal; NULL when plain zero is right. */
static const nsc_literal *ranged_zero(nsc_cgen *g, const nsc_field_sem *s, const nsc_type *t)
{
    if (!s->has_range || !(nsc_type_is_integer(t) || nsc_type_is_float(t) || nsc_type_is_vector(t))) return NULL;
    double lo = s->range_lo.f, hi = s->range_hi.f;
    if (lo <= 0 && hi >= 0) return NULL;
    nsc_literal *l = NSC_NEW(g->a, nsc_literal);
    const nsc_number *bound = lo > 0 ? &s->range_lo : &s->range_hi;
    if (nsc_type_is_integer(t)) {
        l->kind = NSC_LIT_INT;
        l->neg = !bound->is_unsigned_big && bound->i < 0;
        l->mag = bound->is_unsigned_big ? bound->u : l->neg ? 0 - (uint64_t)bound->i : (uint64_t)bound->i;
        return l;
    }
    l->kind = NSC_LIT_FLOAT;
    l->f = bound->f;
    if (!nsc_type_is_vector(t)) return l;
    nsc_literal *v = NSC_NEW(g->a, nsc_literal);
    v->kind = NSC_LIT_LIST;
    v->count = nsc_type_arity(t);
    v->items = NSC_NEW_ARRAY(g->a, nsc_literal *, v->count);
    for (size_t i = 0; i < v->count; i++) v->items[i] = l;
    return v;
}

/* The default literal of a field: its own, or its (ranged) zero value; NULL for plain zero. */
static const nsc_literal *field_default(nsc_cgen *g, const nsc_field *f, const nsc_literal *override)
{
    if (override) return override;
    if (f->sem.init) return f->sem.init;
    return ranged_zero(g, &f->sem, f->sem.type);
}

/* ---- _init ------------------------------------------------------------------------------- */

/* Assignments that set `path` (an lvalue, "v->hp") to a field's default; memset already zeroed
 * everything, so zero defaults print nothing. */
static void init_field(nsc_cgen *g, const nsc_type *t, const nsc_literal *l, const char *path)
{
    nsc_printer *c = g->c;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    if (t->kind == NSC_T_UNION) {
        nsc_p_line(c, "%s(&%s);", nsc_cg_fn(g, t->decl, "init"), path);
    } else if (t->kind == NSC_T_STRUCT) {
        nsc_p_line(c, "%s(&%s);", nsc_cg_fn(g, t->decl, "init"), path);
        for (size_t i = 0, k = 0; l && i < t->decl->nfields && k < l->count; i++) {
            const nsc_field *m = t->decl->fields[i];
            const nsc_literal *item = l->items[k]; /* an array's elements share their field's item */
            if (!m->array_of || m->array_index + 1 == m->array_of->sem.array_n) k++;
            init_field(g, m->sem.type, field_default(g, m, item), NSC_FMT(g, "%s.%s", path, m->name.text));
        }
    } else if (t->kind == NSC_T_QUAT || nsc_type_is_vector(t)) {
        static const char *const axis[] = {"x", "y", "z", "w"};
        for (unsigned k = 0; k < nsc_type_arity(t); k++) {
            double v = l ? lit_double(l->items[k]) : (t->kind == NSC_T_QUAT && k == 3 ? 1.0 : 0.0);
            if (v == 0.0 && !signbit(v)) continue;
            nsc_sb_reset(&sb);
            float_literal(&sb, v, true);
            nsc_p_line(c, "%s.%s = %s;", path, axis[k], nsc_sb_str(&sb));
        }
    } else if (t->kind == NSC_T_STRING && l && l->n) {
        copy_text(c, path, l->s, l->n);
    } else if (t->kind == NSC_T_BYTES && l && l->n) {
        nsc_p_line(c, "%s.len = %zu;", path, l->n);
        copy_text(c, NSC_FMT(g, "%s.data", path), l->s, l->n);
    } else if (t->kind == NSC_T_ENUM) {
        const nsc_enum_value *ev = l ? l->ev : t->decl->values[0];
        nsc_p_line(c, "%s = %s;", path, nsc_enum_value_cname(g->a, t->decl, ev));
    } else if (l && !nsc_type_is_collection(t) && (l->kind == NSC_LIT_BOOL ? l->b : l->kind == NSC_LIT_FLOAT ? l->f != 0.0 || signbit(l->f) : l->mag != 0)) {
        nsc_cg_literal(g, t, l, &sb);
        nsc_p_line(c, "%s = %s;", path, nsc_sb_str(&sb));
    }
    nsc_sb_free(&sb);
}

/* ---- the default snapshot ---------------------------------------------------------------- */

static void snap_value(nsc_cgen *g, const nsc_layout *l, const nsc_field *f, const nsc_literal *lit, nsc_strbuf *sb);

/* The snapshot initializer of a record whose fields default to lits[i] (NULL: their own). */
static void snap_record(nsc_cgen *g, const nsc_decl *d, const nsc_literal *override, nsc_strbuf *sb)
{
    if (d->nfields == 0) {
        nsc_sb_puts(sb, "{0}");
        return;
    }
    nsc_sb_puts(sb, "{");
    for (size_t i = 0, k = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        /* k: the source field's index in a struct literal (an array's elements share its item) */
        const nsc_literal *lit = field_default(g, f, override && k < override->count ? override->items[k] : NULL);
        if (!f->array_of || f->array_index + 1 == f->array_of->sem.array_n) k++;
        if (i) nsc_sb_puts(sb, ", ");
        if (f->array_of && f->array_index == 0) nsc_sb_puts(sb, "{"); /* a fixed array's elements */
        snap_value(g, d->layout, f, lit, sb);
        if (f->array_of && f->array_index + 1 == f->array_of->sem.array_n) nsc_sb_puts(sb, "}");
    }
    nsc_sb_puts(sb, "}");
}

static float comp(const nsc_literal *lit, unsigned k, float dflt)
{
    return lit ? (float)lit_double(lit->items[k]) : dflt;
}

void nsc_cg_snap_initializer(nsc_cgen *g, const nsc_type *t, nsc_strbuf *sb)
{
    snap_record(g, t->decl, NULL, sb);
}

static void snap_value(nsc_cgen *g, const nsc_layout *l, const nsc_field *f, const nsc_literal *lit, nsc_strbuf *sb)
{
    const nsc_type *t = f->sem.type;
    if (t->kind == NSC_T_STRUCT) {
        snap_record(g, t->decl, lit, sb);
        return;
    }
    if (t->kind == NSC_T_UNION) { /* tag 0: the first member, with its struct's defaults */
        nsc_sb_puts(sb, "{0, {");
        snap_record(g, t->decl->fields[0]->sem.type->decl, NULL, sb);
        nsc_sb_puts(sb, "}}");
        return;
    }
    const nsc_slot *s = nsc_cg_field_slot(l, f);
    int32_t lo = s->has_range ? (int32_t)s->lo : INT32_MIN, hi = s->has_range ? (int32_t)s->hi : INT32_MAX;
    switch (s->enc) {
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY:
        nsc_sb_puts(sb, nsc_cg_coll_zero(g, s)); /* collections start empty */
        return;
    case NSC_ENC_BOOL:
        nsc_sb_puts(sb, lit && lit->b ? "true" : "false");
        return;
    case NSC_ENC_CUSTOM: /* an extern struct starts zeroed */
        nsc_sb_puts(sb, "NS_ZERO_INIT");
        return;
    case NSC_ENC_QUANT: {
        double v = lit ? lit_double(lit) : 0.0;
        int32_t q = t->kind == NSC_T_F32 ? ns_round_clamp((double)(float)v * s->scale, lo, hi)
                                         : ns_round_clamp(v * s->scale, lo, hi);
        nsc_sb_printf(sb, "%d", q);
        return;
    }
    case NSC_ENC_FLOAT32:
        nsc_sb_printf(sb, "0x%08xu", ns_f32_bits(lit ? (float)lit_double(lit) : 0.0f));
        return;
    case NSC_ENC_FLOAT64:
        nsc_sb_printf(sb, "UINT64_C(0x%016llx)", (unsigned long long)ns_f64_bits(lit ? lit_double(lit) : 0.0));
        return;
    case NSC_ENC_VEC_Q:
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_Q:
    case NSC_ENC_QUAT_F: {
        float v[4] = {comp(lit, 0, 0), comp(lit, 1, 0), s->arity > 2 ? comp(lit, 2, 0) : 0,
                      s->arity > 3 ? comp(lit, 3, s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_F ? 1.0f : 0.0f) : 0};
        if (s->enc == NSC_ENC_QUAT_Q) {
            ns_quat q = {v[0], v[1], v[2], v[3]};
            q = ns_quat_normalize(q);
            v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        }
        nsc_sb_puts(sb, "{");
        for (unsigned k = 0; k < s->arity; k++) {
            if (k) nsc_sb_puts(sb, ", ");
            if (s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_F) nsc_sb_printf(sb, "0x%08xu", ns_f32_bits(v[k]));
            else nsc_sb_printf(sb, "%d", ns_round_clamp((double)v[k] * s->scale, lo, hi));
        }
        nsc_sb_puts(sb, "}");
        return;
    }
    case NSC_ENC_QUAT_S3: {
        ns_quat q = {comp(lit, 0, 0), comp(lit, 1, 0), comp(lit, 2, 0), comp(lit, 3, 1)};
        nsc_sb_printf(sb, "UINT64_C(0x%llx)", (unsigned long long)ns_smallest3_pack(q, s->raw_bits));
        return;
    }
    case NSC_ENC_STRING:
        char_array_init(sb, lit ? lit->s : "", lit ? lit->n : 0);
        return;
    case NSC_ENC_BYTES:
        nsc_sb_printf(sb, "{%zu, {", lit ? lit->n : (size_t)0);
        for (size_t i = 0; lit && i < lit->n; i++) nsc_sb_printf(sb, "%s%u", i ? ", " : "", (unsigned char)lit->s[i]);
        if (!lit || !lit->n) nsc_sb_puts(sb, "0");
        nsc_sb_puts(sb, "}}");
        return;
    default:
        if (t->kind == NSC_T_ENUM) {
            const nsc_enum_value *ev = lit ? lit->ev : t->decl->values[0];
            int_literal(sb, nsc_int_ctype(t), ev->resolved < 0, ev->resolved < 0 ? 0 - (uint64_t)ev->resolved : (uint64_t)ev->resolved);
        } else if (lit) {
            int_literal(sb, nsc_int_ctype(t), lit->neg, lit->mag);
        } else {
            nsc_sb_puts(sb, "0");
        }
    }
}

static bool holds_custom(const nsc_layout *l)
{
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slots[i].enc == NSC_ENC_CUSTOM) return true;
    return false;
}

void nsc_cg_defaults(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_strbuf sb = NSC_STRBUF_INIT;
    snap_record(g, d, NULL, &sb);
    nsc_p_blank(c);
    /* An extern struct's zero is NS_ZERO_INIT, C's universal {0}: whatever the user's type
     * starts with (an array, a struct), gcc's -Wmissing-braces would ask for more braces. */
    bool custom = holds_custom(d->layout);
    if (custom) {
        nsc_p_line(c, "#if defined(__GNUC__)");
        nsc_p_line(c, "#pragma GCC diagnostic push");
        nsc_p_line(c, "#pragma GCC diagnostic ignored \"-Wmissing-braces\"");
        nsc_p_line(c, "#endif");
    }
    nsc_p_line(c, "const %s_snap %s = %s;", n, nsc_cg_fn(g, d, "snap_default"), nsc_sb_str(&sb));
    if (custom) {
        nsc_p_line(c, "#if defined(__GNUC__)");
        nsc_p_line(c, "#pragma GCC diagnostic pop");
        nsc_p_line(c, "#endif");
    }
    nsc_sb_free(&sb);

    nsc_p_empty(c);
    nsc_p_line(c, "void %s(%s *v)", nsc_cg_fn(g, d, "init"), n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "memset(v, 0, sizeof *v);");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        init_field(g, f->sem.type, field_default(g, f, NULL), NSC_FMT(g, "v->%s", f->name.text));
    }
    nsc_p_close(c, "}");
}

/* ---- _quantize / _dequantize -------------------------------------------------------------- */

static const char *const axis[] = {"x", "y", "z", "w"};

const char *nsc_cg_float(nsc_cgen *g, double v, bool f32)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    float_literal(&sb, f32 ? (double)(float)v : v, f32);
    const char *r = nsc_arena_strdup(g->a, nsc_sb_str(&sb));
    nsc_sb_free(&sb);
    return r;
}

const char *nsc_cg_inverse(nsc_cgen *g, double scale, bool f32)
{
    return nsc_cg_float(g, 1.0 / scale, f32);
}

static const char *quantize_expr(nsc_cgen *g, const nsc_slot *s, const char *value)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    float_literal(&sb, s->scale, false);
    const char *r = s->has_range
        ? NSC_FMT(g, "ns_quantize_range(%s, %s, %lld, %lld)", value, nsc_sb_str(&sb), (long long)s->lo, (long long)s->hi)
        : NSC_FMT(g, "ns_quantize_f64(%s, %s)", value, nsc_sb_str(&sb));
    nsc_sb_free(&sb);
    return r;
}

void nsc_cg_quantize_value(nsc_cgen *g, const nsc_slot *s, const nsc_type *t, const nsc_literal *init, const char *v,
                           const char *q)
{
    nsc_printer *c = g->c;
    if (t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION) {
        nsc_p_line(c, "%s(&%s, &%s);", nsc_cg_fn(g, t->decl, "quantize"), v, q);
        return;
    }
    switch (s->enc) {
    case NSC_ENC_QUANT:
        nsc_p_line(c, "%s = %s;", q, quantize_expr(g, s, v));
        return;
    case NSC_ENC_FLOAT32:
        nsc_p_line(c, "%s = ns_f32_bits(%s);", q, v);
        return;
    case NSC_ENC_FLOAT64:
        nsc_p_line(c, "%s = ns_f64_bits(%s);", q, v);
        return;
    case NSC_ENC_VEC_Q:
        for (unsigned k = 0; k < s->arity; k++)
            nsc_p_line(c, "%s[%u] = %s;", q, k, quantize_expr(g, s, NSC_FMT(g, "%s.%s", v, axis[k])));
        return;
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "%s[%u] = ns_f32_bits(%s.%s);", q, k, v, axis[k]);
        return;
    case NSC_ENC_QUAT_Q:
        nsc_p_open(c, "{");
        nsc_p_line(c, "ns_quat q = ns_quat_normalize(%s);", v);
        for (unsigned k = 0; k < 4; k++) nsc_p_line(c, "%s[%u] = %s;", q, k, quantize_expr(g, s, NSC_FMT(g, "q.%s", axis[k])));
        nsc_p_close(c, "}");
        return;
    case NSC_ENC_QUAT_S3:
        nsc_p_line(c, "%s = ns_smallest3_pack(%s, %u);", q, v, s->raw_bits);
        return;
    case NSC_ENC_STRING:
        nsc_p_line(c, "ns_string_sanitize(%s, %u, %s, sizeof %s);", q, t->capacity, v, v);
        return;
    case NSC_ENC_BYTES:
        nsc_p_line(c, "%s.len = %s.len < %u ? %s.len : %u;", q, v, t->capacity, v, t->capacity);
        nsc_p_line(c, "memcpy(%s.data, %s.data, %s.len);", q, v, q);
        return;
    case NSC_ENC_BOOL:
        nsc_p_line(c, "%s = %s;", q, v);
        return;
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY:
        nsc_cg_coll_quantize(g, s, v, q);
        return;
    default:
        if (t->kind == NSC_T_ENUM) {
            const nsc_enum_value *ev = init ? init->ev : t->decl->values[0];
            nsc_p_comment(c, "A value the enum does not declare would be rejected by every reader: send the default.");
            nsc_p_line(c, "%s = %s(%s) ? %s : %s;", q, nsc_cg_fn(g, t->decl, "is_valid"), v, v,
                       nsc_enum_value_cname(g->a, t->decl, ev));
        } else if (s->has_range) {
            bool u64 = t->kind == NSC_T_U64;
            if (u64)
                nsc_p_line(c, "%s = (%s)ns_clamp_u64(%s, %s, %s);", q, s->snap_ctype, v, clamp_bound_u64(g, s->lo),
                           clamp_bound_u64(g, s->hi));
            else
                nsc_p_line(c, "%s = (%s)ns_clamp_i64(%s, %s, %s);", q, s->snap_ctype, v, clamp_bound(g, s->lo),
                           clamp_bound(g, s->hi));
        } else {
            nsc_p_line(c, "%s = %s;", q, v);
        }
    }
}

static void quantize_field(nsc_cgen *g, const nsc_layout *l, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    nsc_cg_quantize_value(g, t->kind == NSC_T_STRUCT ? NULL : nsc_cg_field_slot(l, f), t, f->sem.init,
                          NSC_FMT(g, "v->%s", m), NSC_FMT(g, "s->%s", m));
}

void nsc_cg_dequantize_value(nsc_cgen *g, const nsc_slot *s, const nsc_type *t, const char *from, const char *to)
{
    nsc_printer *c = g->c;
    if (t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION) {
        nsc_p_line(c, "%s(&%s, &%s);", nsc_cg_fn(g, t->decl, "dequantize"), from, to);
        return;
    }
    bool f32 = t->kind != NSC_T_F64;
    switch (s->enc) {
    case NSC_ENC_QUANT:
        nsc_p_line(c, "%s = ns_dequantize_%s(%s, %s);", to, f32 ? "f32" : "f64", from, nsc_cg_inverse(g, s->scale, f32));
        return;
    case NSC_ENC_FLOAT32:
        nsc_p_line(c, "%s = ns_f32_from_bits(%s);", to, from);
        return;
    case NSC_ENC_FLOAT64:
        nsc_p_line(c, "%s = ns_f64_from_bits(%s);", to, from);
        return;
    case NSC_ENC_VEC_Q:
        for (unsigned k = 0; k < s->arity; k++)
            nsc_p_line(c, "%s.%s = ns_dequantize_f32(%s[%u], %s);", to, axis[k], from, k, nsc_cg_inverse(g, s->scale, true));
        return;
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "%s.%s = ns_f32_from_bits(%s[%u]);", to, axis[k], from, k);
        return;
    case NSC_ENC_QUAT_Q:
        nsc_p_open(c, "{");
        nsc_p_line(c, "ns_quat q;");
        for (unsigned k = 0; k < 4; k++)
            nsc_p_line(c, "q.%s = ns_dequantize_f32(%s[%u], %s);", axis[k], from, k, nsc_cg_inverse(g, s->scale, true));
        nsc_p_line(c, "%s = ns_quat_normalize(q);", to);
        nsc_p_close(c, "}");
        return;
    case NSC_ENC_QUAT_S3:
        nsc_p_line(c, "%s = ns_smallest3_unpack(%s, %u);", to, from, s->raw_bits);
        return;
    case NSC_ENC_STRING:
        nsc_p_line(c, "memcpy(%s, %s, sizeof %s);", to, from, to);
        return;
    case NSC_ENC_BYTES:
        nsc_p_line(c, "%s.len = %s.len;", to, from);
        nsc_p_line(c, "memcpy(%s.data, %s.data, sizeof %s.data);", to, from, to);
        return;
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY:
        nsc_cg_coll_dequantize(g, s, from, to);
        return;
    default:
        nsc_p_line(c, "%s = %s;", to, from);
    }
}

void nsc_cg_dequantize_field(nsc_cgen *g, const nsc_layout *l, const nsc_field *f, const char *src, const char *dst)
{
    const nsc_type *t = f->sem.type;
    nsc_cg_dequantize_value(g, t->kind == NSC_T_STRUCT ? NULL : nsc_cg_field_slot(l, f), t,
                            NSC_FMT(g, "%s%s", src, f->name.text), NSC_FMT(g, "%s%s", dst, f->name.text));
}

/* Bytes of a scalar snapshot C type; 0 for anything else. */
static size_t scalar_size(const char *ctype)
{
    if (!strcmp(ctype, "int8_t") || !strcmp(ctype, "uint8_t")) return 1;
    if (!strcmp(ctype, "int16_t") || !strcmp(ctype, "uint16_t")) return 2;
    if (!strcmp(ctype, "int32_t") || !strcmp(ctype, "uint32_t")) return 4;
    if (!strcmp(ctype, "int64_t") || !strcmp(ctype, "uint64_t")) return 8;
    return 0;
}

/* True if _quantize assigns every byte of the snapshot, so that zeroing it first (for padding,
 * and for what strings, bytes and collections leave unset) would only cost time: numeric fields
 * only, all of one size, so there is no padding between or after them. */
static bool quantize_fills(const nsc_decl *d)
{
    size_t size = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        if (d->fields[i]->sem.type->kind == NSC_T_STRUCT) return false;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, d->fields[i]);
        if (!nsc_enc_is_numeric(s->enc)) return false;
        size_t z = scalar_size(s->snap_ctype);
        if (z == 0 || (size != 0 && z != size)) return false;
        size = z;
    }
    return size != 0;
}

void nsc_cg_quantize(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s *v, %s_snap *s)", nsc_cg_fn(g, d, "quantize"), n, n);
    nsc_p_open(c, "{");
    if (!quantize_fills(d)) nsc_p_line(c, "memset(s, 0, sizeof *s);");
    if (d->nfields == 0) nsc_p_line(c, "(void)v;");
    for (size_t i = 0; i < d->nfields; i++) quantize_field(g, d->layout, d->fields[i]);
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *s, %s *v)", nsc_cg_fn(g, d, "dequantize"), n, n);
    nsc_p_open(c, "{");
    if (d->nfields == 0) nsc_p_line(c, "(void)s;"), nsc_p_line(c, "(void)v;");
    for (size_t i = 0; i < d->nfields; i++) nsc_cg_dequantize_field(g, d->layout, d->fields[i], "s->", "v->");
    nsc_p_close(c, "}");
}

/* ---- equality ----------------------------------------------------------------------------- */

static void snap_equal_field(nsc_cgen *g, const nsc_layout *l, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    if (t->kind == NSC_T_STRUCT) { /* a flattened struct: not a slot of its own */
        nsc_p_line(g->c, "if (!%s(&a->%s, &b->%s)) return false;", nsc_cg_fn(g, t->decl, "snap_equal"), m, m);
        return;
    }
    const nsc_slot *s = nsc_cg_field_slot(l, f);
    if (nsc_type_is_collection(t)) /* state only: fast-array keys are the sender's bookkeeping */
        nsc_p_line(g->c, "if (!ns_coll_equal(&%s, &a->%s, &b->%s)) return false;", nsc_cg_coll(g, s, "ops"), m, m);
    else
        nsc_p_line(g->c, "if (%s) return false;", nsc_cg_differs(g, s, NSC_FMT(g, "a->%s", m), NSC_FMT(g, "b->%s", m)));
}

const char *nsc_cg_value_differs(nsc_cgen *g, const nsc_type *t, const char *a, const char *b)
{
    switch (t->kind) {
    case NSC_T_STRUCT:
    case NSC_T_UNION:
    case NSC_T_EXTERN: /* the user's _equal */
        return NSC_FMT(g, "!%s(&%s, &%s)", nsc_cg_fn(g, t->decl, "equal"), a, b);
    case NSC_T_F32:
        return NSC_FMT(g, "ns_f32_bits(%s) != ns_f32_bits(%s)", a, b);
    case NSC_T_F64:
        return NSC_FMT(g, "ns_f64_bits(%s) != ns_f64_bits(%s)", a, b);
    case NSC_T_VEC2:
    case NSC_T_VEC3:
    case NSC_T_VEC4:
    case NSC_T_QUAT:
        return NSC_FMT(g, "memcmp(&%s, &%s, sizeof %s) != 0", a, b, a);
    case NSC_T_STRING:
        return NSC_FMT(g, "strncmp(%s, %s, sizeof %s) != 0", a, b, a);
    case NSC_T_BYTES:
        return NSC_FMT(g, "(%s.len != %s.len || memcmp(%s.data, %s.data, %s.len < %u ? %s.len : %u) != 0)", a, b, a, b, a,
                       t->capacity, a, t->capacity);
    default:
        return NSC_FMT(g, "%s != %s", a, b);
    }
}

static void value_equal_field(nsc_cgen *g, const nsc_layout *l, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    if (nsc_type_is_collection(t)) {
        nsc_p_line(g->c, "if (!%s(&a->%s, &b->%s)) return false;", nsc_cg_coll(g, nsc_cg_field_slot(l, f), "equal"), m, m);
        return;
    }
    nsc_p_line(g->c, "if (%s) return false;", nsc_cg_value_differs(g, t, NSC_FMT(g, "a->%s", m), NSC_FMT(g, "b->%s", m)));
}

void nsc_cg_equality(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s_snap *a, const %s_snap *b)", nsc_cg_fn(g, d, "snap_equal"), n, n);
    nsc_p_open(c, "{");
    if (d->nfields == 0) nsc_p_line(c, "(void)a;"), nsc_p_line(c, "(void)b;");
    for (size_t i = 0; i < d->nfields; i++) snap_equal_field(g, d->layout, d->fields[i]);
    nsc_p_line(c, "return true;");
    nsc_p_close(c, "}");
    nsc_cg_value_equality(g, d);
}

void nsc_cg_value_equality(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s *a, const %s *b)", nsc_cg_fn(g, d, "equal"), n, n);
    nsc_p_open(c, "{");
    if (d->nfields == 0) nsc_p_line(c, "(void)a;"), nsc_p_line(c, "(void)b;");
    for (size_t i = 0; i < d->nfields; i++) value_equal_field(g, d->layout, d->fields[i]);
    nsc_p_line(c, "return true;");
    nsc_p_close(c, "}");
}
