/* emit_c_table.c — the table mode (`netschemac --codec table`, nsc_options.codec; docs/generated-api.md
 * "Table mode"): a record's _write and _read keep their names and signatures but their bodies call
 * the runtime's descriptor-driven functions (netschema/table.h) with the record's <pkg>_<T>_desc,
 * instead of the straight-line code of emit_c_codec.c, and _snap_equal calls ns_table_snap_equal.
 * The runtime puts the same bits on the wire,
 * so the two modes interoperate; the table mode trades encode and decode speed for much less C
 * to compile. Records the descriptor cannot code — those holding an extern struct, whose codec is
 * the user's — keep the straight-line codec (nsc_cg_table_eligible). A record's @codec(inline | table)
 * overrides the run's mode for that record alone. Only emit_c.c calls this file;
 * it calls nothing of the other emit_c_*.c files but names (emit_c_types.c, emit_c_coll.c) and
 * nsc_cg_value_equality (emit_c_values.c) for _equal, which compares values, not snapshots.
 * nsc_cg_table_quantize prints a record's value table (ns_value_table: the value's C types,
 * float or double, scales — what the descriptor leaves out) with _quantize and _dequantize calling
 * ns_table_quantize / ns_table_dequantize; _equal then calls ns_table_equal. Records with unions,
 * collections, or structs of another unit keep the straight-line functions (values_eligible).
 * The same table drives _interpolate, _prediction_error, _backup, _restore
 * (emit_c_table_motion.c: the flags and ns_value_motion of each entry) and setters (header macros
 * calling ns_table_set with the table, emit_c_setters.c: the table is extern for them). */
#include <string.h>

#include <netschema/table.h> /* the NS_VAL_* flags, printed as a number */

#include "emit_c.h"

static bool slots_custom(const nsc_layout *l)
{
    for (size_t i = 0; l && i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (s->enc == NSC_ENC_CUSTOM) return true;
        if ((s->enc == NSC_ENC_STRUCT || s->enc == NSC_ENC_ARRAY) && slots_custom(s->composite)) return true;
    }
    return false;
}

bool nsc_cg_table_eligible(nsc_cgen *g, const nsc_decl *d)
{
    bool table = d->codec ? d->codec == NSC_DECL_CODEC_TABLE : g->ctx->opt.codec == NSC_CODEC_TABLE; /* @codec wins */
    if (!table || d->kind == NSC_D_UNION || !d->layout) return false;
    return !slots_custom(d->layout);
}

void nsc_cg_table_codec(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d), *desc = nsc_cg_fn(g, d, "desc");
    const char *params, *ref, *base, *to;
    switch (d->kind) {
    case NSC_D_COMPONENT:
        params = "const ns_baselines *base, ns_audience to";
        ref = "NULL", base = "base", to = "to";
        break;
    case NSC_D_INPUT:
        params = NSC_FMT(g, "const %s_snap *prev", n);
        ref = "prev", base = "NULL", to = "NS_TO_OWNER";
        break;
    case NSC_D_STRUCT:
        params = NSC_FMT(g, "const %s_snap *ref_in", n);
        ref = "ref_in", base = "NULL", to = "NS_TO_OWNER";
        break;
    default:
        params = NULL;
        ref = "NULL", base = "NULL", to = "NS_TO_OWNER";
        break;
    }
    const char *sep = params ? ", " : "";
    params = params ? params : "";
    /* ns_table_write_commit keeps *w on an error and counts the write in w's profile, as the
     * default mode's _write does. */
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_writer *w, const %s_snap *cur%s%s)", nsc_cg_fn(g, d, "write"), n, sep, params);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_write_commit(w, &%s, cur, %s, %s, %s);", desc, ref, base, to);
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_reader *r, %s_snap *out%s%s)", nsc_cg_fn(g, d, "read"), n, sep, params);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_read(r, &%s, out, %s, %s, %s);", desc, ref, base, to);
    nsc_p_close(c, "}");
}

static bool values_eligible(nsc_cgen *g, const nsc_decl *d);

void nsc_cg_table_equality(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s_snap *a, const %s_snap *b)", nsc_cg_fn(g, d, "snap_equal"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_snap_equal(&%s, a, b);", nsc_cg_fn(g, d, "desc"));
    nsc_p_close(c, "}");
    /* The value table _equal uses is printed with _quantize (nsc_cg_table_quantize), before. */
    if (!values_eligible(g, d)) {
        nsc_cg_value_equality(g, d); /* values: the same code as the default mode's */
        return;
    }
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s *a, const %s *b)", nsc_cg_fn(g, d, "equal"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_equal(&%s, a, b);", nsc_cg_fn(g, d, "values"));
    nsc_p_close(c, "}");
}

/* ---- _quantize and _dequantize by the value table (ns_table_quantize, table_quant.c) ---- */

/* The ns_value_kind of a field's slot, or NULL if the value table cannot describe it (unions,
 * collections, @composite arrays, extern structs: the record keeps straight-line code). */
static const char *value_kind(const nsc_type *t, const nsc_slot *s)
{
    if (t->kind == NSC_T_ENUM) return "NS_VAL_ENUM";
    switch (s->enc) {
    case NSC_ENC_BOOL: return "NS_VAL_COPY";
    case NSC_ENC_INT:
    case NSC_ENC_INT64:
    case NSC_ENC_RAW: return nsc_type_is_integer(t) || t->kind == NSC_T_ENTITY ? "NS_VAL_INT" : NULL;
    case NSC_ENC_QUANT: return "NS_VAL_QUANT";
    case NSC_ENC_FLOAT32: return "NS_VAL_F32";
    case NSC_ENC_FLOAT64: return "NS_VAL_F64";
    case NSC_ENC_VEC_Q: return "NS_VAL_VEC_Q";
    case NSC_ENC_VEC_F: return "NS_VAL_VEC_F";
    case NSC_ENC_QUAT_F: return "NS_VAL_QUAT_F";
    case NSC_ENC_QUAT_Q: return "NS_VAL_QUAT_Q";
    case NSC_ENC_QUAT_S3: return "NS_VAL_QUAT_S3";
    case NSC_ENC_STRING: return t->kind == NSC_T_STRING ? "NS_VAL_STRING" : NULL;
    case NSC_ENC_BYTES: return t->kind == NSC_T_BYTES ? "NS_VAL_BYTES" : NULL;
    default: return NULL;
    }
}

/* The position of d in g->order (g->norder if absent: another unit's struct). */
static size_t order_index(const nsc_cgen *g, const nsc_decl *d)
{
    size_t i = 0;
    while (i < g->norder && g->order[i] != d) i++;
    return i;
}

/* True if d's _quantize and _dequantize can run on a value table: every field described, and
 * every nested struct this unit's, emitted before d and itself table-driven (its table is
 * static in this file). */
static bool values_eligible(nsc_cgen *g, const nsc_decl *d)
{
    if (!nsc_cg_table_eligible(g, d) || d->nfields == 0) return false;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_type *t = d->fields[i]->sem.type;
        if (t->kind == NSC_T_STRUCT) {
            if (order_index(g, t->decl) >= order_index(g, d) || !values_eligible(g, t->decl)) return false;
        } else if (t->kind == NSC_T_UNION || nsc_type_is_collection(t) ||
                   !value_kind(t, nsc_cg_field_slot(d->layout, d->fields[i]))) {
            return false;
        }
    }
    return true;
}

/* Bytes of an integer C type ("int16_t": 2; "bool": 1). */
static unsigned ctype_size(const char *ctype)
{
    if (strstr(ctype, "16")) return 2;
    if (strstr(ctype, "32")) return 4;
    if (strstr(ctype, "64")) return 8;
    return 1;
}

/* A bound as short as C allows: a plain int literal when it is one, else INT64_C. */
static const char *bound(nsc_cgen *g, int64_t v)
{
    return v > INT32_MIN && v <= INT32_MAX ? NSC_FMT(g, "%lld", (long long)v) : nsc_cg_i64(g, v);
}

bool nsc_cg_table_values(nsc_cgen *g, const nsc_decl *d)
{
    return values_eligible(g, d);
}

/* One ns_value_field initializer; motion: its ns_value_motion ("0": none). */
static void value_entry(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const char *motion)
{
    const char *n = nsc_cg_name(g, d), *m = f->name.text;
    const nsc_type *t = f->sem.type;
    const char *kind = "NS_VAL_STRUCT", *valid = "0", *sub = "0", *scale = "0", *inverse = "0";
    unsigned flags = nsc_cg_table_motion_flags(d, f), vsize = 0, ssize = 0, arity = 0;
    int64_t lo = 0, hi = 0;
    if (t->kind == NSC_T_STRUCT) {
        sub = NSC_FMT(g, "&%s", nsc_cg_fn(g, t->decl, "values"));
    } else {
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        kind = value_kind(t, s);
        if (t->kind == NSC_T_ENUM) {
            const nsc_enum_value *ev = f->sem.init ? f->sem.init->ev : t->decl->values[0];
            valid = nsc_cg_fn(g, t->decl, "is_valid");
            lo = ev->resolved;
        } else if (s->has_range) {
            flags |= NS_VAL_RANGED;
            lo = s->lo, hi = s->hi;
        } else if ((flags & (NS_VAL_INTERPOLATE | NS_VAL_EXTRAPOLATE)) && !strcmp(kind, "NS_VAL_INT")) { /* blended: ns_lerp_int's bounds */
            lo = s->lo, hi = s->hi;
        }
        if (s->enc == NSC_ENC_BOOL) vsize = ssize = 1;
        if (!strcmp(kind, "NS_VAL_INT") || !strcmp(kind, "NS_VAL_ENUM")) {
            vsize = ssize = ctype_size(nsc_int_ctype(t));
            if (nsc_int_ctype(t)[0] == 'i') flags |= NS_VAL_SIGNED | NS_VAL_SNAP_SIGNED;
        }
        if (s->enc == NSC_ENC_QUANT || s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_QUAT_Q) {
            ssize = ctype_size(s->snap_ctype);
            if (t->kind == NSC_T_F64) flags |= NS_VAL_DOUBLE;
            scale = nsc_cg_float(g, s->scale, false);
            inverse = nsc_cg_inverse(g, s->scale, false);
        }
        if (s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_F) arity = s->arity;
        if (s->enc == NSC_ENC_QUAT_S3) arity = s->raw_bits;
        if (s->enc == NSC_ENC_STRING || s->enc == NSC_ENC_BYTES) arity = t->capacity;
    }
    nsc_p_line(g->c, "{NS_FIELD_AT(%s, %s), %s, %u, %u, %u, %u, %s, %s, %s, %s, %s, %s, %s},", n, m, kind, flags, vsize,
               ssize, arity, bound(g, lo), bound(g, hi), scale, inverse, valid, sub, motion);
}

bool nsc_cg_table_quantize(nsc_cgen *g, const nsc_decl *d)
{
    if (!values_eligible(g, d)) return false;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d), *values = nsc_cg_fn(g, d, "values");
    nsc_p_empty(c);
    const char **motion = nsc_cg_table_motions(g, d);
    /* Split over several sources (--split), a struct's value table may live in another one: it
     * has external linkage then, declared here before its users' entries. */
    bool split = g->ctx->opt.split > 1;
    for (size_t i = 0; split && i < d->nfields; i++) {
        const nsc_type *t = d->fields[i]->sem.type;
        bool seen = t->kind != NSC_T_STRUCT;
        for (size_t j = 0; j < i && !seen; j++) seen = d->fields[j]->sem.type->decl == t->decl;
        if (!seen) nsc_p_line(c, "extern const ns_value_table %s;", nsc_cg_fn(g, t->decl, "values"));
    }
    nsc_p_line(c, "static const ns_value_field %s_fields[] = {", values);
    c->indent++;
    for (size_t i = 0; i < d->nfields; i++) value_entry(g, d, d->fields[i], motion[i]);
    c->indent--;
    nsc_p_line(c, "};");
    if (split && d->kind == NSC_D_STRUCT) nsc_p_line(c, "extern const ns_value_table %s; /* --split */", values);
    /* Components' and inputs' tables are extern: their setter macros name them (emit_c_setters.c). */
    bool shared = (split && d->kind == NSC_D_STRUCT) || nsc_cg_has_dirty(d);
    nsc_p_line(c, "%sconst ns_value_table %s = {%s_fields, %zuu, sizeof(%s_snap), %s};", shared ? "" : "static ", values,
               values, d->nfields, n,
               nsc_cg_has_dirty(d) ? NSC_FMT(g, "offsetof(%s, ns_dirty)", n) : "0");
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s *v, %s_snap *s)", nsc_cg_fn(g, d, "quantize"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "ns_table_quantize(&%s, v, s);", values);
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *s, %s *v)", nsc_cg_fn(g, d, "dequantize"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "ns_table_dequantize(&%s, s, v);", values);
    nsc_p_close(c, "}");
    return true;
}
