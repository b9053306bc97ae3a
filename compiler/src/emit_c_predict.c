/* emit_c_predict.c — what a client that predicts its own entity needs from a component:
 * <C>_prediction_error, how far a predicted value was from the server's, one number per field,
 * and the table of those fields' names; <C>_backup and <C>_restore, which save and put back the
 * predicted fields of a snapshot (docs/generated-api.md, "_prediction_error", "_backup"). */
#include <string.h>

#include "emit_c.h"

/* Types with a distance (netschema/interp.h): numbers, vectors, quaternions; bools, enums and
 * extern structs (by their _equal) count 1 when they differ. Strings, bytes, entity ids and collections have none. */
static bool measurable(const nsc_type *t)
{
    switch (t->kind) {
    case NSC_T_STRING:
    case NSC_T_BYTES:
    case NSC_T_ENTITY:
    case NSC_T_LIST:
    case NSC_T_MAP:
    case NSC_T_SET:
    case NSC_T_FASTARRAY:
        return false;
    default:
        return true;
    }
}

/* The predicted fields of a component: those that reach a predicting owner (@sync all, owner,
 * predicted, custom; @initial ones included). The owner is the one who predicts by default, and
 * these are the fields a server state can correct; the others (@sync others, interpolated, none)
 * never reach it. Members of a struct field follow the field. */
bool nsc_cg_predicted(const nsc_decl *d, const nsc_field *f)
{
    return d->kind != NSC_D_COMPONENT || nsc_sync_admits(f->sem.sync, NSC_RECV_OWNER | NSC_RECV_PREDICTED) ||
           nsc_sync_admits(f->sem.sync, NSC_RECV_OWNER | NSC_RECV_PREDICTED | NSC_RECV_CUSTOM);
}

/* A predicted field with a distance gets a prediction error. */
bool nsc_cg_reported(const nsc_decl *d, const nsc_field *f)
{
    return nsc_cg_predicted(d, f) && measurable(f->sem.type);
}

/* How many of component d's fields are predicted: _backup and _restore copy them. */
static size_t count_predicted(const nsc_decl *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nfields; i++) n += nsc_cg_predicted(d, d->fields[i]);
    return n;
}

/* Entries for d's fields, structs flattened. */
static size_t count_errors(const nsc_decl *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!nsc_cg_reported(d, f)) continue;
        n += f->sem.type->kind == NSC_T_STRUCT ? count_errors(f->sem.type->decl) : 1;
    }
    return n;
}

static double number(const nsc_number *n)
{
    return n->is_float ? n->f : n->is_unsigned_big ? (double)n->u : (double)n->i;
}

/* The error of one field, p and a naming the predicted and the authoritative value. */
static const char *error_expr(nsc_cgen *g, const nsc_field *f, const char *p, const char *a)
{
    const nsc_type *t = f->sem.type;
    switch (t->kind) {
    case NSC_T_BOOL:
    case NSC_T_ENUM:
        return NSC_FMT(g, "%s != %s ? 1.0f : 0.0f", p, a);
    case NSC_T_EXTERN:
    case NSC_T_UNION:
        return NSC_FMT(g, "%s(&%s, &%s) ? 0.0f : 1.0f", nsc_cg_fn(g, t->decl, "equal"), p, a);
    case NSC_T_VEC2:
    case NSC_T_VEC3:
    case NSC_T_VEC4:
        return NSC_FMT(g, "ns_vec%u_distance(%s, %s)", t->kind == NSC_T_VEC2 ? 2u : t->kind == NSC_T_VEC3 ? 3u : 4u, p, a);
    case NSC_T_QUAT:
        return NSC_FMT(g, "ns_quat_angle(%s, %s)", p, a);
    default:
        if (f->sem.wrap)
            return NSC_FMT(g, "(float)ns_distance_wrap((double)%s, (double)%s, %s, %s)", p, a,
                           nsc_cg_float(g, number(&f->sem.range_lo), false), nsc_cg_float(g, number(&f->sem.range_hi), false));
        return NSC_FMT(g, "(float)ns_distance((double)%s, (double)%s)", p, a);
    }
}

/* Prints the names gathered in *names as one line and empties it. */
static void print_names(nsc_cgen *g, nsc_strbuf *names)
{
    if (names->len) nsc_p_line(g->c, "%s", nsc_sb_str(names));
    nsc_sb_reset(names);
}

/* The names ("position", "stats.hp") or, with names NULL, the statements (out[k] = ...) of d's
 * entries. Names gather in *names, several to a line; the caller prints what is left. */
static void entries(nsc_cgen *g, const nsc_decl *d, const char *path, nsc_strbuf *names, size_t *k)
{
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!nsc_cg_reported(d, f)) continue;
        const char *at = NSC_FMT(g, "%s%s", path, f->name.text);
        if (f->sem.type->kind == NSC_T_STRUCT) {
            entries(g, f->sem.type->decl, NSC_FMT(g, "%s.", at), names, k);
            continue;
        }
        if (names) {
            if (names->len + strlen(at) > 88) print_names(g, names);
            nsc_sb_printf(names, "%s\"%s\",", names->len ? " " : "", at);
        } else {
            nsc_p_line(g->c, "out[%zu] = %s;", *k, error_expr(g, f, NSC_FMT(g, "predicted->%s", at),
                                                             NSC_FMT(g, "authoritative->%s", at)));
        }
        (*k)++;
    }
}

/* What _backup, _restore and the prediction errors do, said once before the first component
 * that has them rather than before each. */
static const char *const prediction_legend[] = {
    "/* Client prediction. A component T with predicted fields (those its owner receives: @sync all or",
    " * owner) has T_backup, which copies them from `from` into `backup`, and T_restore, which copies",
    " * them back into `into`, snapshot to snapshot; every other field of the destination is left as",
    " * it was. T_prediction_error gives how far a predicted T was from the server's, one entry per",
    " * field its owner receives, named in T_prediction_error_names (distances as in netschema/interp.h). */",
};

/* Prototypes of _backup and _restore, for a component with predicted fields. */
static void backup_header(nsc_cgen *g, const nsc_decl *d)
{
    if (count_predicted(d) == 0) return;
    const char *snap = NSC_FMT(g, "%s_snap", nsc_cg_name(g, d));
    nsc_p_line(g->h, "void %s(const %s *from, %s *backup);", nsc_cg_fn(g, d, "backup"), snap, snap);
    nsc_p_line(g->h, "void %s(%s *into, const %s *backup);", nsc_cg_fn(g, d, "restore"), snap, snap);
}

/* The prediction prototypes of d; *legend says whether prediction_legend is out already. */
static void prediction_header(nsc_cgen *g, const nsc_decl *d, bool *legend)
{
    if (d->kind != NSC_D_COMPONENT) return;
    size_t n = count_errors(d);
    if (n == 0 && count_predicted(d) == 0) return;
    nsc_printer *h = g->h;
    nsc_p_empty(h);
    if (!*legend) nsc_p_lines(h, prediction_legend, sizeof prediction_legend / sizeof prediction_legend[0]);
    *legend = true;
    backup_header(g, d);
    if (n == 0) return;
    const char *name = nsc_cg_name(g, d), *count = nsc_cg_macro(g, d, "PREDICTION_ERRORS");
    nsc_p_line(h, "#define %s %zuu", count, n);
    nsc_p_line(h, "extern const char *const %s[%s];", nsc_cg_fn(g, d, "prediction_error_names"), count);
    nsc_p_line(h, "void %s(const %s *predicted, const %s *authoritative, float out[%s]);",
               nsc_cg_fn(g, d, "prediction_error"), name, name, count);
}

void nsc_cg_prediction_header(nsc_cgen *g)
{
    bool legend = false;
    for (size_t i = 0; i < g->norder; i++) {
        nsc_arena_mark mark = nsc_arena_get_mark(g->a);
        prediction_header(g, g->order[i], &legend);
        nsc_arena_release(g->a, mark);
    }
}

/* Copies fields [from, to) of d, all predicted and adjacent in the snapshot: one memcpy of a
 * field, or NS_COPY_FIELDS over a run of them (snapshots hold no pointers; arrays, strings,
 * bytes and collections are copied whole, count and unused tail included). */
static void copy_run(nsc_cgen *g, const nsc_decl *d, size_t from, size_t to, const char *dst, const char *src,
                     const char *snap)
{
    const char *first = d->fields[from]->name.text, *last = d->fields[to - 1]->name.text;
    if (to - from == 1)
        nsc_p_line(g->c, "memcpy(&%s->%s, &%s->%s, sizeof %s->%s);", dst, first, src, first, dst, first);
    else
        nsc_p_line(g->c, "NS_COPY_FIELDS(%s, %s, %s, %s, %s);", dst, src, snap, first, last);
}

/* _backup and _restore: one copy per run of adjacent predicted fields (a component whose
 * fields are all predicted copies one run); with a value table (values), calling
 * ns_table_copy_predicted. */
static void backup(nsc_cgen *g, const nsc_decl *d, const char *values)
{
    if (d->kind != NSC_D_COMPONENT || count_predicted(d) == 0) return;
    nsc_printer *c = g->c;
    const char *snap = NSC_FMT(g, "%s_snap", nsc_cg_name(g, d));
    for (int restore = 0; restore < 2; restore++) {
        const char *dst = restore ? "into" : "backup", *src = restore ? "backup" : "from";
        nsc_p_empty(c);
        if (restore)
            nsc_p_line(c, "void %s(%s *into, const %s *backup)", nsc_cg_fn(g, d, "restore"), snap, snap);
        else
            nsc_p_line(c, "void %s(const %s *from, %s *backup)", nsc_cg_fn(g, d, "backup"), snap, snap);
        nsc_p_open(c, "{");
        if (values) nsc_p_line(c, "ns_table_copy_predicted(&%s, %s, %s);", values, src, dst);
        for (size_t i = 0; !values && i < d->nfields;) {
            size_t end = i;
            while (end < d->nfields && nsc_cg_predicted(d, d->fields[end])) end++;
            if (end > i) copy_run(g, d, i, end, dst, src, snap);
            i = end + (end == i);
        }
        nsc_p_close(c, "}");
    }
}

void nsc_cg_prediction(nsc_cgen *g, const nsc_decl *d, const char *values)
{
    backup(g, d, values);
    size_t n = d->kind == NSC_D_COMPONENT ? count_errors(d) : 0;
    if (n == 0) return;
    nsc_printer *c = g->c;
    const char *name = nsc_cg_name(g, d), *count = nsc_cg_macro(g, d, "PREDICTION_ERRORS");
    size_t k = 0;
    nsc_p_empty(c);
    nsc_p_open(c, "const char *const %s[%s] = {", nsc_cg_fn(g, d, "prediction_error_names"), count);
    nsc_strbuf names = NSC_STRBUF_INIT;
    entries(g, d, "", &names, &k);
    print_names(g, &names);
    nsc_sb_free(&names);
    nsc_p_close(c, "};");
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s *predicted, const %s *authoritative, float out[%s])",
               nsc_cg_fn(g, d, "prediction_error"), name, name, count);
    nsc_p_open(c, "{");
    k = 0;
    if (values) nsc_p_line(c, "ns_table_prediction_error(&%s, predicted, authoritative, out);", values);
    else entries(g, d, "", NULL, &k);
    nsc_p_close(c, "}");
}
