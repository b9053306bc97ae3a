/* emit_c_smooth.c — what a client does with snapshots: _interpolate between two of them per
 * @smooth, and _apply with its @notify hooks (the collections' events: emit_c_coll.c). */
#include "emit_c.h"

static const char *const axis[] = {"x", "y", "z", "w"};

static double number(const nsc_number *n)
{
    return n->is_float ? n->f : n->is_unsigned_big ? (double)n->u : (double)n->i;
}

/* The float a snapshot component stands for: component k of slot s at `x`. */
static const char *deq(nsc_cgen *g, const nsc_slot *s, const char *x, unsigned k)
{
    bool array = s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F;
    const char *at = array ? NSC_FMT(g, "%s[%u]", x, k) : x;
    switch (s->enc) {
    case NSC_ENC_QUANT:
        return s->type->kind == NSC_T_F64 ? NSC_FMT(g, "ns_dequantize_f64(%s, %s)", at, nsc_cg_inverse(g, s->scale, false))
                                          : NSC_FMT(g, "ns_dequantize_f32(%s, %s)", at, nsc_cg_inverse(g, s->scale, true));
    case NSC_ENC_VEC_Q: return NSC_FMT(g, "ns_dequantize_f32(%s, %s)", at, nsc_cg_inverse(g, s->scale, true));
    case NSC_ENC_FLOAT64: return NSC_FMT(g, "ns_f64_from_bits(%s)", at);
    default: return NSC_FMT(g, "ns_f32_from_bits(%s)", at);
    }
}

/* Statements that set `q` (an ns_quat variable) to the rotation of snapshot field x. */
static void quat_of(nsc_cgen *g, const nsc_slot *s, const char *q, const char *x)
{
    nsc_printer *c = g->c;
    if (s->enc == NSC_ENC_QUAT_S3) {
        nsc_p_line(c, "%s = ns_smallest3_unpack(%s, %u);", q, x, s->raw_bits);
        return;
    }
    for (unsigned k = 0; k < 4; k++)
        nsc_p_line(c, "%s.%s = %s;", q, axis[k],
                   s->enc == NSC_ENC_QUAT_Q ? NSC_FMT(g, "ns_dequantize_f32(%s[%u], %s)", x, k, nsc_cg_inverse(g, s->scale, true))
                                            : NSC_FMT(g, "ns_f32_from_bits(%s[%u])", x, k));
    if (s->enc == NSC_ENC_QUAT_Q) nsc_p_line(c, "%s = ns_quat_normalize(%s);", q, q);
}

/* True if field f moves smoothly (interpolate or extrapolate) rather than jumping. */
static bool smooth(const nsc_field *f, const nsc_slot *s)
{
    if (f->sem.smooth == NSC_SMOOTH_CLAMP || !s) return false;
    if (s->type->kind == NSC_T_ENUM || s->type->kind == NSC_T_ENTITY || s->type->kind == NSC_T_BOOL) return false;
    if (s->enc == NSC_ENC_INT64 || (s->enc == NSC_ENC_RAW && !s->bounded)) return s->bounded;
    return true;
}

/* The statements that blend field f from `from` to `to` at the field's t (ti or te). */
static void lerp_field(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    const char *tt = f->sem.smooth == NSC_SMOOTH_EXTRAPOLATE ? "te" : "ti";
    switch (s->enc) {
    case NSC_ENC_INT:
    case NSC_ENC_INT64:
    case NSC_ENC_RAW:
        if (f->sem.wrap) {
            nsc_p_line(c, "out->%s = (%s)ns_lerp_wrap_int((int64_t)from->%s, (int64_t)to->%s, %s, %s, %s); /* the short way round */",
                       m, s->snap_ctype, m, m, tt, nsc_cg_i64(g, s->lo), nsc_cg_i64(g, s->hi));
            return;
        }
        nsc_p_line(c, "out->%s = (%s)ns_lerp_int((int64_t)from->%s, (int64_t)to->%s, %s, %s, %s);", m,
                   s->snap_ctype, m, m,
                   tt, nsc_cg_i64(g, s->lo), nsc_cg_i64(g, s->hi));
        return;
    case NSC_ENC_QUANT:
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64: {
        bool f64 = t->kind == NSC_T_F64;
        if (f->sem.wrap) {
            nsc_p_line(c, "out->%s = ns_lerp_wrap_%s(%s, %s, %s, %s, %s); /* the short way round */", m, f64 ? "f64" : "f32",
                       deq(g, s, NSC_FMT(g, "from->%s", m), 0), deq(g, s, NSC_FMT(g, "to->%s", m), 0), tt,
                       nsc_cg_float(g, number(&f->sem.range_lo), !f64), nsc_cg_float(g, number(&f->sem.range_hi), !f64));
            return;
        }
        nsc_p_line(c, "out->%s = ns_lerp_%s(%s, %s, %s);", m, f64 ? "f64" : "f32", deq(g, s, NSC_FMT(g, "from->%s", m), 0),
                   deq(g, s, NSC_FMT(g, "to->%s", m), 0), tt);
        return;
    }
    case NSC_ENC_VEC_Q:
    case NSC_ENC_VEC_F:
        for (unsigned k = 0; k < s->arity; k++)
            nsc_p_line(c, "out->%s.%s = ns_lerp_f32(%s, %s, %s);", m, axis[k], deq(g, s, NSC_FMT(g, "from->%s", m), k),
                       deq(g, s, NSC_FMT(g, "to->%s", m), k), tt);
        return;
    case NSC_ENC_QUAT_Q:
    case NSC_ENC_QUAT_S3:
    case NSC_ENC_QUAT_F:
        nsc_p_open(c, "{");
        nsc_p_line(c, "ns_quat a, b;");
        quat_of(g, s, "a", NSC_FMT(g, "from->%s", m));
        quat_of(g, s, "b", NSC_FMT(g, "to->%s", m));
        nsc_p_line(c, "out->%s = ns_quat_slerp(a, b, %s);", m, tt);
        nsc_p_close(c, "}");
        return;
    default:
        nsc_cg_dequantize_field(g, d->layout, f, "jump->", "out->");
    }
}

/* How far field f moved from `from` to `to`, as a double expression; vectors and quaternions
 * need the temporaries `a` and `b` that teleport_temps declares. */
static const char *distance(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    const char *m = f->name.text;
    switch (s->enc) {
    case NSC_ENC_INT:
    case NSC_ENC_INT64:
    case NSC_ENC_RAW:
        if (f->sem.wrap)
            return NSC_FMT(g, "ns_distance_wrap((double)from->%s, (double)to->%s, (double)%s, (double)%s)", m, m,
                           nsc_cg_i64(g, s->lo), nsc_cg_i64(g, s->hi));
        return NSC_FMT(g, "ns_distance((double)from->%s, (double)to->%s)", m, m);
    case NSC_ENC_QUANT:
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64: {
        const char *a = deq(g, s, NSC_FMT(g, "from->%s", m), 0), *b = deq(g, s, NSC_FMT(g, "to->%s", m), 0);
        if (f->sem.wrap)
            return NSC_FMT(g, "ns_distance_wrap(%s, %s, %s, %s)", a, b, nsc_cg_float(g, number(&f->sem.range_lo), false),
                           nsc_cg_float(g, number(&f->sem.range_hi), false));
        return NSC_FMT(g, "ns_distance(%s, %s)", a, b);
    }
    case NSC_ENC_VEC_Q:
    case NSC_ENC_VEC_F:
        return NSC_FMT(g, "(double)ns_distance_vec(a, b, %u)", s->arity);
    default: /* quaternions */
        return "(double)ns_quat_angle(a, b)";
    }
}

/* Declares `a` and `b`, the two values of a vector or quaternion field, for distance(). */
static void teleport_temps(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *m = f->name.text;
    if (s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F) {
        nsc_strbuf a = NSC_STRBUF_INIT, b = NSC_STRBUF_INIT;
        for (unsigned k = 0; k < s->arity; k++) {
            nsc_sb_printf(&a, "%s%s", k ? ", " : "", deq(g, s, NSC_FMT(g, "from->%s", m), k));
            nsc_sb_printf(&b, "%s%s", k ? ", " : "", deq(g, s, NSC_FMT(g, "to->%s", m), k));
        }
        nsc_p_line(c, "const float a[%u] = {%s};", s->arity, nsc_sb_str(&a));
        nsc_p_line(c, "const float b[%u] = {%s};", s->arity, nsc_sb_str(&b));
        nsc_sb_free(&a);
        nsc_sb_free(&b);
    } else if (s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_S3 || s->enc == NSC_ENC_QUAT_F) {
        nsc_p_line(c, "ns_quat a, b;");
        quat_of(g, s, "a", NSC_FMT(g, "from->%s", m));
        quat_of(g, s, "b", NSC_FMT(g, "to->%s", m));
    }
}

/* @smooth(..., max_distance = D): a move longer than D is a teleport, so the field jumps as a
 * clamped one does (from until t reaches 1, then to) instead of sliding across the map. */
static void teleport_field(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *m = f->name.text, *tt = f->sem.smooth == NSC_SMOOTH_EXTRAPOLATE ? "te" : "ti";
    bool vec = s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F;
    bool quat = s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_S3 || s->enc == NSC_ENC_QUAT_F;
    if (vec || quat) nsc_p_open(c, "{");
    nsc_p_comment(c, "%s: a move longer than %s is a teleport: it jumps instead of sliding.", m,
                  nsc_cg_float(g, f->sem.max_distance, false));
    teleport_temps(g, f, s);
    nsc_p_open(c, "if (%s > %s) {", distance(g, f, s), nsc_cg_float(g, f->sem.max_distance, false));
    nsc_cg_dequantize_field(g, d->layout, f, "jump->", "out->");
    nsc_p_else(c);
    if (vec) {
        for (unsigned k = 0; k < s->arity; k++) nsc_p_line(c, "out->%s.%s = ns_lerp_f32(a[%u], b[%u], %s);", m, axis[k], k, k, tt);
    } else if (quat) {
        nsc_p_line(c, "out->%s = ns_quat_slerp(a, b, %s);", m, tt);
    } else {
        lerp_field(g, d, f, s);
    }
    nsc_p_close(c, "}");
    if (vec || quat) nsc_p_close(c, "}");
}

static void interpolate_field(nsc_cgen *g, const nsc_decl *d, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    if (t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION) {
        nsc_p_line(g->c, "%s(&from->%s, &to->%s, t, &out->%s);", nsc_cg_fn(g, t->decl, "interpolate"), m, m, m);
        return;
    }
    const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
    if (!smooth(f, s)) {
        nsc_cg_dequantize_field(g, d->layout, f, "jump->", "out->");
    } else if (f->sem.max_distance > 0) {
        teleport_field(g, d, f, s);
    } else {
        lerp_field(g, d, f, s);
    }
}

void nsc_cg_interpolate(nsc_cgen *g, const nsc_decl *d)
{
    if (d->kind != NSC_D_COMPONENT && d->kind != NSC_D_STRUCT) return;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    bool jump = false, ti = false, te = false;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (f->sem.type->kind == NSC_T_STRUCT || f->sem.type->kind == NSC_T_UNION) continue;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        if (!smooth(f, s) || f->sem.max_distance > 0) jump = true;
        if (!smooth(f, s)) continue;
        if (f->sem.smooth == NSC_SMOOTH_EXTRAPOLATE) te = true;
        else ti = true;
    }
    bool structs = false;
    for (size_t i = 0; i < d->nfields; i++)
        structs |= d->fields[i]->sem.type->kind == NSC_T_STRUCT || d->fields[i]->sem.type->kind == NSC_T_UNION;
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *from, const %s_snap *to, float t, %s *out)", nsc_cg_fn(g, d, "interpolate"), n, n, n);
    nsc_p_open(c, "{");
    if (jump) {
        nsc_p_comment(c, "@smooth(clamp), values that cannot be blended and teleports: from until t reaches 1, then to.");
        nsc_p_line(c, "const %s_snap *jump = t >= 1.0f ? to : from;", n);
    }
    if (ti) nsc_p_line(c, "const float ti = ns_t_interpolate(t);");
    if (te) nsc_p_line(c, "const float te = ns_t_extrapolate(t); /* up to 1 + NS_EXTRAPOLATE_LIMIT */");
    if (!structs && !ti && !te && !jump) {
        nsc_p_line(c, "(void)from;");
        nsc_p_line(c, "(void)to;");
        nsc_p_line(c, "(void)out;");
    }
    if (!structs && !ti && !te && !jump) nsc_p_line(c, "(void)t;");
    for (size_t i = 0; i < d->nfields; i++) interpolate_field(g, d, d->fields[i]);
    nsc_p_close(c, "}");
}

/* ---- _apply ------------------------------------------------------------------------------- */

/* A C identifier for field f in local names: "name_3_" for the array element "name[3]". */
static const char *local_name(nsc_cgen *g, const nsc_field *f)
{
    return f->array_of ? NSC_FMT(g, "%s_%u_", f->array_of->name.text, f->array_index) : f->name.text;
}

void nsc_cg_apply(nsc_cgen *g, const nsc_decl *d)
{
    if (d->kind != NSC_D_COMPONENT) return;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    bool any = false, fastarrays = false, collections = false;
    for (size_t i = 0; i < d->nfields; i++) {
        any |= d->fields[i]->sem.notify;
        fastarrays |= d->fields[i]->sem.type->kind == NSC_T_FASTARRAY;
        collections |= nsc_type_is_collection(d->fields[i]->sem.type);
    }
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(%s *live, const %s_snap *s, const %s_hooks *hooks, void *ctx)", nsc_cg_fn(g, d, "apply"), n, n, n);
    nsc_p_open(c, "{");
    if (!any && !collections) {
        nsc_p_line(c, "(void)hooks;");
        nsc_p_line(c, "(void)ctx;");
        nsc_p_line(c, "%s(s, live);", nsc_cg_fn(g, d, "dequantize"));
        nsc_p_close(c, "}");
        return;
    }
    if (!fastarrays) {
        /* ns_fa_apply keeps a fast array's next_id and keys its own way even without hooks, so
         * only a component without fast arrays can skip everything for NULL hooks. */
        nsc_p_open(c, "if (!hooks) {");
        nsc_p_line(c, "%s(s, live);", nsc_cg_fn(g, d, "dequantize"));
        nsc_p_line(c, "return;");
        nsc_p_close(c, "}");
    }
    if (any) nsc_p_comment(c, "The old values of the @notify fields, to tell which changed.");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!f->sem.notify) continue;
        const nsc_type *t = f->sem.type;
        const char *m = f->name.text, *o = local_name(g, f);
        if (nsc_type_is_collection(t)) {
            nsc_p_line(c, "const bool changed_%s = %s(&live->%s, &s->%s);", m,
                       nsc_cg_coll(g, nsc_cg_field_slot(d->layout, f), "differs"), m, m);
        } else if (t->kind == NSC_T_STRING) {
            nsc_p_line(c, "char old_%s[%u + 1];", o, t->capacity);
            nsc_p_line(c, "memcpy(old_%s, live->%s, sizeof old_%s);", o, m, o);
        } else if (t->kind == NSC_T_BYTES) {
            nsc_p_line(c, "struct { uint16_t len; uint8_t data[%u]; } old_%s;", t->capacity, o);
            nsc_p_line(c, "memcpy(&old_%s, &live->%s, sizeof old_%s);", o, m, o);
        } else {
            nsc_p_line(c, "const %s old_%s = live->%s;", nsc_cg_value_type(g, t), o, m);
        }
    }
    if (!collections) {
        nsc_p_line(c, "%s(s, live);", nsc_cg_fn(g, d, "dequantize"));
    } else {
        nsc_p_comment(c, "Every field but the collections, which are brought up to date element by element, with");
        nsc_p_comment(c, "their events (lists, sets and maps) or item hooks (fast arrays), in field order.");
        for (size_t i = 0; i < d->nfields; i++)
            if (!nsc_type_is_collection(d->fields[i]->sem.type)) nsc_cg_dequantize_field(g, d->layout, d->fields[i], "s->", "live->");
        for (size_t i = 0; i < d->nfields; i++) {
            const nsc_field *f = d->fields[i];
            if (nsc_type_is_collection(f->sem.type)) nsc_cg_coll_apply(g, f, nsc_cg_field_slot(d->layout, f));
        }
    }
    if (!any) {
        nsc_p_close(c, "}");
        return;
    }
    if (fastarrays) nsc_p_line(c, "if (!hooks) return;");
    nsc_p_comment(c, "After the whole component is updated, in field order.");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!f->sem.notify) continue;
        const nsc_type *t = f->sem.type;
        const char *m = f->name.text;
        if (nsc_type_is_collection(t)) {
            nsc_p_line(c, "if (hooks->%s && changed_%s) (hooks->%s)(ctx, live);", m, m, m);
            continue;
        }
        const char *old = NSC_FMT(g, "old_%s", local_name(g, f)), *now = NSC_FMT(g, "live->%s", m);
        bool by_pointer = t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION || t->kind == NSC_T_BYTES ||
                          nsc_type_is_vector(t) || t->kind == NSC_T_QUAT;
        const char *args = t->kind == NSC_T_STRING ? NSC_FMT(g, "%s, %s", old, now)
                         : by_pointer ? NSC_FMT(g, "&%s, &%s", old, now) : NSC_FMT(g, "%s, %s", old, now);
        /* An array's hook is called once per changed element, with its index. */
        if (f->array_of) args = NSC_FMT(g, "%uu, %s", f->array_index, args);
        const char *h = nsc_field_base_name(f);
        /* (hooks->f)(...): a field may be named after a function-like macro (isnan, from
         * <math.h>), which a name followed by '(' would invoke. */
        nsc_p_line(c, "if (hooks->%s && %s) (hooks->%s)(ctx, live, %s);", h, nsc_cg_value_differs(g, t, old, now), h, args);
    }
    nsc_p_close(c, "}");
}
