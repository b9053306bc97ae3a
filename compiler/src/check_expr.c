/* check_expr.c — constant expressions: integers exactly (sign + 64-bit magnitude, so every i64
 * and u64 value is representable and overflow is an error), floats in double. */
#include <math.h>
#include <string.h>

#include "checker.h"

static nsc_value error_value(const nsc_expr *e)
{
    nsc_value v;
    memset(&v, 0, sizeof v);
    v.kind = NSC_V_ERROR;
    v.expr = e;
    return v;
}

static nsc_value int_value(nsc_int i, const nsc_expr *e)
{
    nsc_value v = error_value(e);
    v.kind = NSC_V_INT;
    v.i = i;
    return v;
}

static nsc_value float_value(double f, const nsc_expr *e)
{
    nsc_value v = error_value(e);
    v.kind = NSC_V_FLOAT;
    v.f = f;
    return v;
}

static nsc_value eval_name(nsc_checker *c, nsc_unit *u, const nsc_expr *e)
{
    nsc_decl *owner = NULL;
    const nsc_enum_value *ev = nsc_lookup_enum_value(c, u, &e->name, &owner);
    if (ev) {
        nsc_value v = error_value(e);
        v.kind = NSC_V_ENUM;
        v.ev = ev;
        v.i = nsc_int_from_i64(ev->resolved);
        return v;
    }
    nsc_decl *d = nsc_lookup(c, u, &e->name, false);
    if (!d && owner) {
        nsc_error(c->d, "E-name-unknown", e->loc, "enum '%s' has no value '%s'; its values are %s", owner->name.text,
                  nsc_qname_last(&e->name), nsc_enum_value_list(c, owner));
        return error_value(e);
    }
    if (!d) {
        nsc_error(c->d, "E-name-unknown", e->loc, "unknown name '%s': expected a constant or Enum.value",
                  e->name.text);
        return error_value(e);
    }
    if (d->kind != NSC_D_CONST) {
        nsc_error(c->d, "E-expr-type", e->loc, "'%s' is %s %s, not a constant", e->name.text,
                  nsc_article(nsc_decl_kind_name(d->kind)), nsc_decl_kind_name(d->kind));
        return error_value(e);
    }
    nsc_resolve_const(c, d);
    if (!d->const_ok) return error_value(e);
    return int_value(nsc_int_from_i64(d->const_value), e);
}

static nsc_value eval(nsc_checker *c, nsc_unit *u, const nsc_expr *e, unsigned depth);

static nsc_value eval_binary(nsc_checker *c, nsc_unit *u, const nsc_expr *e, unsigned depth)
{
    nsc_value l = eval(c, u, e->lhs, depth + 1);
    if (l.kind == NSC_V_ERROR) return error_value(e);
    nsc_value r = eval(c, u, e->rhs, depth + 1);
    if (l.kind == NSC_V_ERROR || r.kind == NSC_V_ERROR) return error_value(e);
    bool l_num = l.kind == NSC_V_INT || l.kind == NSC_V_FLOAT, r_num = r.kind == NSC_V_INT || r.kind == NSC_V_FLOAT;
    if (!l_num || !r_num) {
        nsc_error(c->d, "E-expr-type", l_num ? e->rhs->loc : e->lhs->loc, "arithmetic needs numbers");
        return error_value(e);
    }
    if (l.kind == NSC_V_FLOAT || r.kind == NSC_V_FLOAT) {
        double a = l.kind == NSC_V_FLOAT ? l.f : nsc_int_to_double(l.i);
        double b = r.kind == NSC_V_FLOAT ? r.f : nsc_int_to_double(r.i);
        double x = e->op == '+' ? a + b : e->op == '-' ? a - b : e->op == '*' ? a * b : e->op == '/' ? a / b : fmod(a, b);
        if (!isfinite(x)) {
            nsc_error(c->d, "E-expr-range", e->loc, "this expression has no finite value");
            return error_value(e);
        }
        return float_value(x, e);
    }
    nsc_int out;
    bool ok;
    if ((e->op == '/' || e->op == '%') && r.i.mag == 0) {
        nsc_error(c->d, "E-expr-divzero", e->rhs->loc, "division by zero");
        return error_value(e);
    }
    switch (e->op) {
    case '+': ok = nsc_int_add(l.i, r.i, &out); break;
    case '-': ok = nsc_int_sub(l.i, r.i, &out); break;
    case '*': ok = nsc_int_mul(l.i, r.i, &out); break;
    case '/': ok = nsc_int_div(l.i, r.i, &out); break;
    default:  ok = nsc_int_mod(l.i, r.i, &out); break;
    }
    if (!ok) {
        nsc_error(c->d, "E-expr-range", e->loc, "this expression overflows 64 bits");
        return error_value(e);
    }
    return int_value(out, e);
}

#define MAX_EXPR_DEPTH 1000

static nsc_value eval(nsc_checker *c, nsc_unit *u, const nsc_expr *e, unsigned depth);

nsc_value nsc_eval(nsc_checker *c, nsc_unit *u, const nsc_expr *e)
{
    return eval(c, u, e, 0);
}

static nsc_value eval(nsc_checker *c, nsc_unit *u, const nsc_expr *e, unsigned depth)
{
    nsc_value v = error_value(e);
    if (e->bad) return v; /* reported by the scanner */
    if (depth > MAX_EXPR_DEPTH) {
        nsc_error(c->d, "E-expr-depth", e->loc, "this expression is too long or too deeply nested to evaluate "
                  "(more than %d levels)", MAX_EXPR_DEPTH);
        return v;
    }
    switch (e->kind) {
    case NSC_EX_INT:
        return int_value(nsc_int_from_u64(e->ival), e);
    case NSC_EX_FLOAT:
        return float_value(e->fval, e);
    case NSC_EX_STRING:
        v.kind = NSC_V_STRING;
        v.s = e->str;
        v.n = e->str_len;
        return v;
    case NSC_EX_BOOL:
        v.kind = NSC_V_BOOL;
        v.b = e->bval;
        return v;
    case NSC_EX_NAME:
        return eval_name(c, u, e);
    case NSC_EX_NEG: {
        nsc_value x = eval(c, u, e->lhs, depth + 1);
        if (x.kind == NSC_V_INT) return int_value(nsc_int_neg(x.i), e);
        if (x.kind == NSC_V_FLOAT) return float_value(-x.f, e);
        if (x.kind != NSC_V_ERROR) nsc_error(c->d, "E-expr-type", e->lhs->loc, "'-' needs a number");
        return v;
    }
    case NSC_EX_BINARY:
        return eval_binary(c, u, e, depth);
    case NSC_EX_LIST:
        v.kind = NSC_V_LIST;
        return v;
    }
    return v;
}

bool nsc_eval_int(nsc_checker *c, nsc_unit *u, const nsc_expr *e, const char *what, nsc_int *out)
{
    nsc_value v = nsc_eval(c, u, e);
    if (v.kind == NSC_V_INT) {
        *out = v.i;
        return true;
    }
    if (v.kind != NSC_V_ERROR) nsc_error(c->d, "E-expr-type", e->loc, "%s must be an integer", what);
    return false;
}

bool nsc_eval_number(nsc_checker *c, nsc_unit *u, const nsc_expr *e, const char *what, nsc_number *out)
{
    nsc_value v = nsc_eval(c, u, e);
    memset(out, 0, sizeof *out);
    if (v.kind == NSC_V_INT) {
        int64_t i;
        if (nsc_int_to_i64(v.i, &i)) {
            out->i = i;
        } else {
            out->is_unsigned_big = true;
            out->u = v.i.mag;
        }
        out->f = nsc_int_to_double(v.i);
        return true;
    }
    if (v.kind == NSC_V_FLOAT) {
        out->is_float = true;
        out->f = v.f;
        return true;
    }
    if (v.kind != NSC_V_ERROR) nsc_error(c->d, "E-expr-type", e->loc, "%s must be a number", what);
    return false;
}

void nsc_resolve_const(nsc_checker *c, nsc_decl *d)
{
    if (d->state == 2) return;
    if (d->state == 1) {
        nsc_error(c->d, "E-const-cycle", d->name.loc, "constant '%s' is defined in terms of itself", d->name.text);
        d->state = 2;
        return;
    }
    d->state = 1;
    nsc_int v;
    if (nsc_eval_int(c, d->unit, d->value, "a constant", &v)) {
        int64_t i;
        if (nsc_int_to_i64(v, &i)) {
            d->const_value = i;
            d->const_ok = true;
        } else {
            nsc_error(c->d, "E-const-range", d->value->loc, "constant '%s' does not fit a 64-bit signed integer",
                      d->name.text);
        }
    }
    d->state = 2;
}
