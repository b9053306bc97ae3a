/* emit_c_table_motion.c — the table mode's _interpolate, _prediction_error, _backup and _restore
 * (docs/generated-api.md "Table mode"): one-line bodies calling ns_table_interpolate,
 * ns_table_prediction_error and ns_table_copy_predicted (netschema/table.h, table_motion.c) with
 * the record's value table, whose entries carry what these need (the NS_VAL_INTERPOLATE ...
 * NS_VAL_ERROR flags, an ns_value_motion for wrap and max_distance). The rules of which member
 * blends, jumps, is predicted or has an error are those of emit_c_smooth.c and emit_c_predict.c,
 * repeated here: the test_table_* streams compare both modes' results. A record the table cannot
 * describe keeps the straight-line functions (the nsc_cg_table_* below return false). */
#include <netschema/table.h> /* the NS_VAL_* flags the value table carries */

#include "emit_c.h"

static double number(const nsc_number *n)
{
    return n->is_float ? n->f : n->is_unsigned_big ? (double)n->u : (double)n->i;
}

/* True if field f moves smoothly rather than jumping (emit_c_smooth.c, smooth()). */
static bool smooth(const nsc_field *f, const nsc_slot *s)
{
    if (f->sem.smooth == NSC_SMOOTH_CLAMP || !s) return false;
    if (s->type->kind == NSC_T_ENUM || s->type->kind == NSC_T_ENTITY || s->type->kind == NSC_T_BOOL) return false;
    if (s->enc == NSC_ENC_INT64 || (s->enc == NSC_ENC_RAW && !s->bounded)) return s->bounded;
    return true;
}

/* True if a smooth slot of this encoding is blended (emit_c_smooth.c, lerp_field(): numbers,
 * vectors and quaternions); any other jumps even when smooth. */
static bool blendable(const nsc_slot *s)
{
    return nsc_enc_is_numeric(s->enc);
}

static bool has_motion(const nsc_decl *d)
{
    return d->kind == NSC_D_COMPONENT || d->kind == NSC_D_STRUCT;
}

/* True if field f (not a struct) blends: the NS_VAL_INTERPOLATE or NS_VAL_EXTRAPOLATE bit. */
static bool blended(const nsc_decl *d, const nsc_field *f)
{
    const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
    return has_motion(d) && smooth(f, s) && blendable(s);
}

unsigned nsc_cg_table_motion_flags(const nsc_decl *d, const nsc_field *f)
{
    if (!has_motion(d)) return 0;
    unsigned flags = 0;
    if (f->sem.type->kind != NSC_T_STRUCT && blended(d, f))
        flags |= f->sem.smooth == NSC_SMOOTH_EXTRAPOLATE ? NS_VAL_EXTRAPOLATE : NS_VAL_INTERPOLATE;
    if (d->kind == NSC_D_COMPONENT && nsc_cg_predicted(d, f)) flags |= NS_VAL_PREDICTED;
    if (nsc_cg_reported(d, f)) flags |= NS_VAL_ERROR;
    return flags;
}

const char **nsc_cg_table_motions(nsc_cgen *g, const nsc_decl *d)
{
    const char **ref = nsc_arena_alloc(g->a, d->nfields * sizeof *ref);
    const char *name = nsc_cg_fn(g, d, "values_motion");
    size_t k = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        ref[i] = "0";
        if (!has_motion(d) || f->sem.type->kind == NSC_T_STRUCT || (!f->sem.wrap && !(f->sem.max_distance > 0))) continue;
        const char *lo = f->sem.wrap ? nsc_cg_float(g, number(&f->sem.range_lo), false) : "0";
        const char *hi = f->sem.wrap ? nsc_cg_float(g, number(&f->sem.range_hi), false) : "0";
        const char *md = f->sem.max_distance > 0 ? nsc_cg_float(g, f->sem.max_distance, false) : "0";
        if (k == 0) nsc_p_open(g->c, "static const ns_value_motion %s[] = {", name);
        nsc_p_line(g->c, "{%s, %s, %s, %s}, /* %s */", f->sem.wrap ? "true" : "false", lo, hi, md, f->name.text);
        ref[i] = NSC_FMT(g, "&%s[%zu]", name, k++);
    }
    if (k) nsc_p_close(g->c, "};");
    return ref;
}

/* True if d's _interpolate and _prediction_error can run on its value table: the table exists,
 * and no member needs what the runtime does not replicate (a teleport test on a member that
 * cannot blend, or on a wrapped integer), nested structs included. */
static bool motion_eligible(nsc_cgen *g, const nsc_decl *d)
{
    if (!has_motion(d) || !nsc_cg_table_values(g, d)) return false;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (f->sem.type->kind == NSC_T_STRUCT) {
            if (!motion_eligible(g, f->sem.type->decl)) return false;
            continue;
        }
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        if (f->sem.max_distance > 0 && smooth(f, s) &&
            (!blendable(s) || (f->sem.wrap && (s->enc == NSC_ENC_INT || s->enc == NSC_ENC_INT64 || s->enc == NSC_ENC_RAW))))
            return false;
    }
    return true;
}

bool nsc_cg_table_interpolate(nsc_cgen *g, const nsc_decl *d)
{
    if (!motion_eligible(g, d)) return false;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *from, const %s_snap *to, float t, %s *out)", nsc_cg_fn(g, d, "interpolate"), n, n, n);
    nsc_p_open(c, "{");
    nsc_p_comment(c, "te here: NS_EXTRAPOLATE_LIMIT is this file's.");
    nsc_p_line(c, "ns_table_interpolate(&%s, from, to, t, ns_t_extrapolate(t), out);", nsc_cg_fn(g, d, "values"));
    nsc_p_close(c, "}");
    return true;
}

/* ---- _backup, _restore, _prediction_error ---- */

bool nsc_cg_table_prediction(nsc_cgen *g, const nsc_decl *d)
{
    if (d->kind != NSC_D_COMPONENT || !motion_eligible(g, d)) return false;
    nsc_cg_prediction(g, d, nsc_cg_fn(g, d, "values"));
    return true;
}
