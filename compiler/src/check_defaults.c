/* check_defaults.c — default values: evaluated against the field's type and range, and kept as
 * literals (nsc_literal) for the emitters. A field without a default starts at its type's zero:
 * 0, false, "", the identity quaternion, an enum's first value, empty collections. */
#include <math.h>
#include <string.h>

#include "checker.h"
#include "utf8.h"

static nsc_literal *lit(nsc_checker *c, int kind)
{
    nsc_literal *l = NSC_NEW(c->a, nsc_literal);
    l->kind = kind;
    return l;
}

static void mismatch(nsc_checker *c, const nsc_expr *e, const char *want, const nsc_type *t)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(t, &sb);
    nsc_error(c->d, "E-default-type", e->loc, "the default of %s '%s' field must be %s", nsc_article(nsc_sb_str(&sb)),
              nsc_sb_str(&sb), want);
    nsc_sb_free(&sb);
}

static nsc_literal *default_for(nsc_checker *c, nsc_unit *u, const nsc_field_sem *s, const nsc_type *t,
                                const nsc_expr *e, unsigned component);

/* An integer default: inside the type and inside @range. */
static nsc_literal *int_default(nsc_checker *c, nsc_unit *u, const nsc_field_sem *s, const nsc_type *t, const nsc_expr *e)
{
    nsc_value v = nsc_eval(c, u, e);
    if (v.kind == NSC_V_ERROR) return NULL;
    if (v.kind != NSC_V_INT) return mismatch(c, e, "an integer", t), NULL;
    nsc_int lo, hi;
    nsc_type_int_range(t, &lo, &hi);
    if (s->has_range) {
        lo = s->range_lo.is_unsigned_big ? nsc_int_from_u64(s->range_lo.u) : nsc_int_from_i64(s->range_lo.i);
        hi = s->range_hi.is_unsigned_big ? nsc_int_from_u64(s->range_hi.u) : nsc_int_from_i64(s->range_hi.i);
    }
    if (nsc_int_cmp(v.i, lo) < 0 || nsc_int_cmp(v.i, hi) > 0) {
        nsc_strbuf a = NSC_STRBUF_INIT, b = NSC_STRBUF_INIT, cc = NSC_STRBUF_INIT;
        nsc_int_spell(v.i, &a);
        nsc_int_spell(lo, &b);
        nsc_int_spell(hi, &cc);
        nsc_error(c->d, "E-default-range", e->loc, "default %s is outside %s%s..%s", nsc_sb_str(&a),
                  s->has_range ? "the field's @range " : "what the type holds, ", nsc_sb_str(&b), nsc_sb_str(&cc));
        nsc_sb_free(&a);
        nsc_sb_free(&b);
        nsc_sb_free(&cc);
        return NULL;
    }
    nsc_literal *l = lit(c, NSC_LIT_INT);
    l->neg = v.i.neg;
    l->mag = v.i.mag;
    return l;
}

/* A floating-point default, or one component of a vector or quaternion default (component_of
 * names that type): finite, and inside @range. */
static nsc_literal *float_default(nsc_checker *c, nsc_unit *u, const nsc_field_sem *s, const nsc_type *t, const nsc_expr *e,
                                  const nsc_type *component_of)
{
    nsc_value v = nsc_eval(c, u, e);
    if (v.kind == NSC_V_ERROR) return NULL;
    if (v.kind != NSC_V_INT && v.kind != NSC_V_FLOAT) {
        if (!component_of) return mismatch(c, e, "a number", t), NULL;
        nsc_strbuf sb = NSC_STRBUF_INIT;
        nsc_type_spell(component_of, &sb);
        nsc_error(c->d, "E-default-type", e->loc, "each component of %s %s default must be a number",
                  nsc_article(nsc_sb_str(&sb)), nsc_sb_str(&sb));
        nsc_sb_free(&sb);
        return NULL;
    }
    double f = v.kind == NSC_V_FLOAT ? v.f : nsc_int_to_double(v.i);
    if (t->kind == NSC_T_F32 && fabs(f) > 3.4028234663852886e38) {
        nsc_error(c->d, "E-default-range", e->loc, "default %s does not fit a 32-bit float", nsc_number_text(c, f));
        return NULL;
    }
    if (t->kind == NSC_T_F32 && f != 0.0 && (float)f == 0.0f) {
        nsc_error(c->d, "E-default-range", e->loc, "default %s is too small for a 32-bit float: it would be 0",
                  nsc_number_text(c, f));
        return NULL;
    }
    if (s->has_range && (f < s->range_lo.f || f > s->range_hi.f)) {
        nsc_error(c->d, "E-default-range", e->loc, "default %s is outside the field's @range %s..%s",
                  nsc_number_text(c, f), nsc_number_text(c, s->range_lo.f), nsc_number_text(c, s->range_hi.f));
        return NULL;
    }
    nsc_literal *l = lit(c, NSC_LIT_FLOAT);
    l->f = f;
    return l;
}

static nsc_literal *list_default(nsc_checker *c, nsc_unit *u, const nsc_field_sem *s, const nsc_type *t, const nsc_expr *e)
{
    if (e->kind != NSC_EX_LIST) {
        nsc_strbuf sb = NSC_STRBUF_INIT;
        nsc_type_spell(t, &sb);
        nsc_error(c->d, "E-default-type", e->loc, "the default of %s '%s' field is written in braces, e.g. {%s}",
                  nsc_article(nsc_sb_str(&sb)), nsc_sb_str(&sb), t->kind == NSC_T_STRUCT ? "..." : t->kind == NSC_T_VEC2 ? "0, 0" : t->kind == NSC_T_VEC3 ? "0, 0, 0" : "0, 0, 0, 1");
        nsc_sb_free(&sb);
        return NULL;
    }
    size_t want = t->kind == NSC_T_STRUCT ? t->decl->nfields : nsc_type_arity(t);
    if (e->count != want) {
        nsc_error(c->d, "E-default-type", e->loc, "expected %zu value%s in this default, found %zu", want,
                  want == 1 ? "" : "s", e->count);
        return NULL;
    }
    nsc_literal *l = lit(c, NSC_LIT_LIST);
    l->count = e->count;
    l->items = NSC_NEW_ARRAY(c->a, nsc_literal *, e->count ? e->count : 1);
    bool ok = true;
    for (size_t i = 0; i < e->count; i++) {
        if (t->kind == NSC_T_STRUCT) {
            nsc_field *sub = t->decl->fields[i];
            l->items[i] = sub->sem.type ? default_for(c, t->decl->unit, &sub->sem, sub->sem.type, e->items[i], 0) : NULL;
        } else {
            l->items[i] = float_default(c, u, s, &(nsc_type){NSC_T_F32, 0, NULL, NULL, NULL}, e->items[i], t);
        }
        ok = ok && l->items[i];
    }
    if (ok && t->kind == NSC_T_QUAT) {
        double n = 0;
        for (size_t i = 0; i < 4; i++) n += l->items[i]->f * l->items[i]->f;
        if (fabs(sqrt(n) - 1.0) > 1e-3) {
            nsc_error(c->d, "E-default-range", e->loc, "a quaternion default must have unit length (this one has %s)",
                      nsc_number_text(c, sqrt(n)));
            return NULL;
        }
    }
    return ok ? l : NULL;
}

static nsc_literal *enum_default(nsc_checker *c, nsc_unit *u, const nsc_type *t, const nsc_expr *e)
{
    const nsc_decl *en = t->decl;
    if (e->kind == NSC_EX_NAME && e->name.count == 1) {
        for (size_t i = 0; i < en->nvalues; i++) {
            if (strcmp(en->values[i]->name.text, e->name.text) == 0) {
                nsc_literal *l = lit(c, NSC_LIT_ENUM);
                l->ev = en->values[i];
                return l;
            }
        }
    }
    nsc_value v = e->kind == NSC_EX_NAME && e->name.count > 1 ? nsc_eval(c, u, e) : (nsc_value){0};
    if (v.kind == NSC_V_ERROR && e->kind == NSC_EX_NAME && e->name.count > 1) return NULL; /* reported */
    if (v.kind == NSC_V_ENUM) {
        for (size_t i = 0; i < en->nvalues; i++) {
            if (en->values[i] == v.ev) {
                nsc_literal *l = lit(c, NSC_LIT_ENUM);
                l->ev = v.ev;
                return l;
            }
        }
    }
    nsc_error(c->d, "E-default-type", e->loc, "the default of %s '%s' field must be one of its values: %s",
              nsc_article(en->name.text), en->name.text, nsc_enum_value_list(c, en));
    return NULL;
}

static nsc_literal *string_default(nsc_checker *c, nsc_unit *u, const nsc_type *t, const nsc_expr *e)
{
    nsc_value v = nsc_eval(c, u, e);
    if (v.kind == NSC_V_ERROR) return NULL;
    if (v.kind != NSC_V_STRING) return mismatch(c, e, "a string literal", t), NULL;
    if (v.n > t->capacity) {
        nsc_error(c->d, "E-default-range", e->loc, "this default is %zu bytes; the field holds at most %u", v.n,
                  t->capacity);
        return NULL;
    }
    if (t->kind == NSC_T_STRING && !e->bad && (memchr(v.s, '\0', v.n) || nsc_utf8_first_invalid(v.s, v.n) < v.n)) {
        nsc_error(c->d, "E-default-type", e->loc, "a string default must be valid UTF-8 without NUL bytes");
        return NULL;
    }
    nsc_literal *l = lit(c, NSC_LIT_STRING);
    l->s = v.s;
    l->n = v.n;
    return l;
}

static nsc_literal *default_for(nsc_checker *c, nsc_unit *u, const nsc_field_sem *s, const nsc_type *t,
                                const nsc_expr *e, unsigned component)
{
    (void)component;
    switch (t->kind) {
    case NSC_T_BOOL: {
        nsc_value v = nsc_eval(c, u, e);
        if (v.kind == NSC_V_ERROR) return NULL;
        if (v.kind != NSC_V_BOOL) return mismatch(c, e, "true or false", t), NULL;
        nsc_literal *l = lit(c, NSC_LIT_BOOL);
        l->b = v.b;
        return l;
    }
    case NSC_T_F32:
    case NSC_T_F64:
        return float_default(c, u, s, t, e, NULL);
    case NSC_T_VEC2:
    case NSC_T_VEC3:
    case NSC_T_VEC4:
    case NSC_T_QUAT:
    case NSC_T_STRUCT:
        return list_default(c, u, s, t, e);
    case NSC_T_ENUM:
        return enum_default(c, u, t, e);
    case NSC_T_STRING:
    case NSC_T_BYTES:
        return string_default(c, u, t, e);
    case NSC_T_LIST:
    case NSC_T_MAP:
    case NSC_T_SET:
    case NSC_T_FASTARRAY:
        if (e->kind == NSC_EX_LIST && e->count == 0) return lit(c, NSC_LIT_LIST);
        nsc_error(c->d, "E-default-type", e->loc, "collections start empty; their only default is {}");
        return NULL;
    case NSC_T_EXTERN:
        nsc_error(c->d, "E-default-type", e->loc, "an extern struct has no default: it starts zeroed, as the user's "
                  "type does in a zeroed snapshot");
        return NULL;
    case NSC_T_UNION:
        nsc_error(c->d, "E-default-type", e->loc, "a union has no default: it starts as its first member, with that "
                  "struct's defaults");
        return NULL;
    default:
        return int_default(c, u, s, t, e);
    }
}

void nsc_check_default(nsc_checker *c, nsc_decl *owner, nsc_field *f)
{
    if (!f->init || !f->sem.type) return;
    f->sem.init = default_for(c, owner->unit, &f->sem, f->sem.type, f->init, 0);
}
