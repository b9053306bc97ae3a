/* emit_c_coll.c — generated code for list, set, map and fastarray fields: their C types, the
 * element functions and `ns_coll_ops` the runtime codes them with (runtime collections.h), the
 * helpers that keep counts, order, IDs, keys and dirty bits right, and quantize/dequantize.
 *
 * Names: for field <f> of record <R>, "<pkg>_<R>_<f>" is the value type, "..._snap" the
 * snapshot, "..._ops" the runtime description; helpers are "..._add", "..._remove" and so on
 * (cnames.c claims every one of them). */
#include <string.h>

#include "emit_c.h"

const char *nsc_cg_coll(nsc_cgen *g, const nsc_slot *s, const char *suffix)
{
    return nsc_coll_name(g->a, s->decl, s->field, suffix);
}

/* ---- declarators ------------------------------------------------------------------------- */

const char *nsc_cg_snap_decl(nsc_cgen *g, const nsc_slot *e, const char *name)
{
    switch (e->enc) {
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q: return NSC_FMT(g, "int32_t %s[%u]", name, e->arity);
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F: return NSC_FMT(g, "uint32_t %s[%u]", name, e->arity);
    case NSC_ENC_QUAT_S3: return NSC_FMT(g, "uint64_t %s", name);
    case NSC_ENC_STRING: return NSC_FMT(g, "char %s[%u + 1]", name, e->type->capacity);
    case NSC_ENC_BYTES: return NSC_FMT(g, "struct { uint16_t len; uint8_t data[%u]; } %s", e->type->capacity, name);
    case NSC_ENC_STRUCT:
    case NSC_ENC_UNION: return NSC_FMT(g, "%s_snap %s", nsc_cg_name(g, e->type->decl), name);
    case NSC_ENC_ARRAY: /* its element's declarator, the name indexed: "int32_t heat[3][3]" */
        return nsc_cg_snap_decl(g, &e->composite->slots[0], NSC_FMT(g, "%s[%zu]", name, e->composite->nslots));
    case NSC_ENC_LIST:
    case NSC_ENC_MAP:
    case NSC_ENC_SET:
    case NSC_ENC_FASTARRAY: return NSC_FMT(g, "%s %s", nsc_cg_coll(g, e, "snap"), name);
    default: return NSC_FMT(g, "%s %s", e->snap_ctype, name);
    }
}

const char *nsc_cg_value_decl(nsc_cgen *g, const nsc_type *t, const char *name)
{
    if (t->kind == NSC_T_STRING) return NSC_FMT(g, "char %s[%u + 1]", name, t->capacity);
    return NSC_FMT(g, "%s %s", nsc_cg_value_type(g, t), name);
}

/* A zero initializer spelled out to the first scalar of every aggregate, so C++'s
 * -Wmissing-field-initializers has nothing to say about it either. */
static const char *zero_of(nsc_cgen *g, const nsc_slot *e);

static const char *zero_record(nsc_cgen *g, const nsc_layout *l)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    const nsc_decl *d = l->decl;
    nsc_sb_puts(&sb, "{");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (i) nsc_sb_puts(&sb, ", ");
        if (f->array_of && f->array_index == 0) nsc_sb_puts(&sb, "{"); /* a fixed array's elements */
        if (f->sem.type->kind == NSC_T_STRUCT) nsc_sb_puts(&sb, zero_record(g, f->sem.type->decl->layout));
        else nsc_sb_puts(&sb, zero_of(g, nsc_cg_field_slot(l, f)));
        if (f->array_of && f->array_index + 1 == f->array_of->sem.array_n) nsc_sb_puts(&sb, "}");
    }
    if (d->nfields == 0) nsc_sb_puts(&sb, "0");
    nsc_sb_puts(&sb, "}");
    const char *r = nsc_arena_strdup(g->a, nsc_sb_str(&sb));
    nsc_sb_free(&sb);
    return r;
}

static const char *zero_of(nsc_cgen *g, const nsc_slot *e)
{
    switch (e->enc) {
    case NSC_ENC_VEC_Q: case NSC_ENC_VEC_F: case NSC_ENC_QUAT_Q: case NSC_ENC_QUAT_F: case NSC_ENC_STRING:
        return "{0}";
    case NSC_ENC_BYTES:
        return "{0, {0}}";
    case NSC_ENC_STRUCT:
        return zero_record(g, e->type->decl->layout);
    case NSC_ENC_CUSTOM:
        return "NS_ZERO_INIT";
    case NSC_ENC_LIST:
    case NSC_ENC_SET:
        return NSC_FMT(g, "{0, {%s}}", zero_of(g, e->elem));
    case NSC_ENC_MAP:
        return NSC_FMT(g, "{0, {%s}, {%s}}", zero_of(g, e->key), zero_of(g, e->elem));
    case NSC_ENC_FASTARRAY:
        return NSC_FMT(g, "{0, %s{{0, 0, %s}}}", e->field->sem.ordered ? "{0}, {0}, " : "", zero_of(g, e->elem));
    default:
        return "0";
    }
}

const char *nsc_cg_coll_zero(nsc_cgen *g, const nsc_slot *s)
{
    return zero_of(g, s);
}

/* How a helper takes one element: strings as C strings, structs by pointer, the rest by value. */
static const char *param(nsc_cgen *g, const nsc_type *t)
{
    if (t->kind == NSC_T_STRING) return "const char *";
    if (t->kind == NSC_T_STRUCT) return NSC_FMT(g, "const %s *", nsc_cg_value_type(g, t));
    return NSC_FMT(g, "%s ", nsc_cg_value_type(g, t));
}

/* ---- types (header) ---------------------------------------------------------------------- */

static void comment_type(nsc_cgen *g, const nsc_decl *d, const nsc_field *f)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(f->sem.type, &sb);
    nsc_p_comment(g->h, "%s %s of %s.", nsc_sb_str(&sb), f->name.text, d->name.text);
    nsc_sb_free(&sb);
}

static void coll_types(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *h = g->h;
    const nsc_type *t = f->sem.type;
    const char *v = nsc_cg_coll(g, s, ""), *sn = nsc_cg_coll(g, s, "snap");
    unsigned n = t->capacity;
    nsc_p_empty(h);
    comment_type(g, d, f);
    if (t->kind == NSC_T_FASTARRAY) {
        const char *item = nsc_cg_coll(g, s, "item"), *item_snap = nsc_cg_coll(g, s, "item_snap");
        nsc_p_open(h, "typedef struct %s {", item);
        nsc_p_line(h, "uint32_t id;  /* replication ID: assigned by _add, never 0, never reused while the item lives */");
        nsc_p_line(h, "uint32_t key; /* replication key: bumped by _set when the value changes */");
        nsc_p_line(h, "%s value;", nsc_cg_value_type(g, t->elem));
        nsc_p_close(h, "} %s;", item);
        nsc_p_open(h, "typedef struct %s {", item_snap);
        nsc_p_line(h, "uint32_t id;");
        nsc_p_line(h, "uint32_t key; /* the sender's; not sent, 0 on a receiver */");
        nsc_p_line(h, "%s_snap value;", nsc_cg_name(g, t->elem->decl));
        nsc_p_close(h, "} %s;", item_snap);
        nsc_p_open(h, "typedef struct %s {", v);
        nsc_p_line(h, "uint16_t count;");
        nsc_p_line(h, "uint32_t next_id; /* the next ID _add assigns (0: 1) */");
        nsc_p_line(h, "bool wrapped;     /* IDs wrapped around: _add skips IDs in use */");
        nsc_p_line(h, "%s items[%u]; /* %s */", item, n, f->sem.ordered ? "in the sender's order" : "ascending by ID unless reordered by hand");
        nsc_p_close(h, "} %s;", v);
        nsc_p_open(h, "typedef struct %s {", sn);
        nsc_p_line(h, "uint16_t count;");
        if (f->sem.ordered) {
            nsc_p_line(h, "uint16_t order[%u]; /* position -> index in items */", n);
            nsc_p_line(h, "uint16_t pos[%u];   /* index in items -> position */", n);
        }
        nsc_p_line(h, "%s items[%u]; /* ascending by ID */", item_snap, n);
        nsc_p_close(h, "} %s;", sn);
        return;
    }
    const nsc_slot *e = s->elem, *k = t->kind == NSC_T_MAP ? s->key : s->elem;
    const char *what = t->kind == NSC_T_LIST ? "" : " /* ascending */";
    for (int snap = 0; snap < 2; snap++) {
        const char *name = snap ? sn : v;
        nsc_p_open(h, "typedef struct %s {", name);
        nsc_p_line(h, "uint16_t count;");
        if (t->kind == NSC_T_MAP) {
            nsc_p_line(h, "%s;%s", snap ? nsc_cg_snap_decl(g, k, NSC_FMT(g, "keys[%u]", n))
                                       : nsc_cg_value_decl(g, t->key, NSC_FMT(g, "keys[%u]", n)), what);
            nsc_p_line(h, "%s;", snap ? nsc_cg_snap_decl(g, e, NSC_FMT(g, "values[%u]", n))
                                     : nsc_cg_value_decl(g, t->elem, NSC_FMT(g, "values[%u]", n)));
        } else {
            nsc_p_line(h, "%s;%s", snap ? nsc_cg_snap_decl(g, e, NSC_FMT(g, "items[%u]", n))
                                       : nsc_cg_value_decl(g, t->elem, NSC_FMT(g, "items[%u]", n)), what);
        }
        nsc_p_close(h, "} %s;", name);
    }
}

void nsc_cg_coll_types(nsc_cgen *g, const nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (nsc_type_is_collection(f->sem.type)) coll_types(g, d, f, nsc_cg_field_slot(d->layout, f));
    }
}

/* ---- helper prototypes (header) ---------------------------------------------------------- */

static void coll_prototypes(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *h = g->h;
    const nsc_type *t = f->sem.type;
    const char *r = nsc_cg_name(g, d), *m = f->name.text;
    const char *dirty = nsc_cg_has_dirty(d) ? " marking it dirty when it changes" : "";
    nsc_p_comment(h, "%s: the helpers keep it valid%s; they never write past its capacity (%u).", m,
                  nsc_cg_has_dirty(d) ? " and dirty" : "", t->capacity);
    switch (t->kind) {
    case NSC_T_LIST: {
        const char *p = param(g, t->elem);
        nsc_p_comment(h, "Append, insert before index, remove or replace element index (each%s): NS_ERR_CAPACITY when full,", dirty);
        nsc_p_comment(h, "NS_ERR_RANGE for a bad index.%s", t->elem->kind == NSC_T_STRING ? " Strings are cut to the capacity at a character boundary." : "");
        nsc_p_line(h, "ns_status %s(%s *v, %svalue);", nsc_cg_coll(g, s, "add"), r, p);
        nsc_p_line(h, "ns_status %s(%s *v, uint32_t index, %svalue);", nsc_cg_coll(g, s, "insert"), r, p);
        nsc_p_line(h, "ns_status %s(%s *v, uint32_t index);", nsc_cg_coll(g, s, "remove"), r);
        nsc_p_line(h, "ns_status %s(%s *v, uint32_t index, %svalue);", nsc_cg_coll(g, s, "set"), r, p);
        nsc_p_comment(h, "The index of the first element equal to value, or -1.");
        nsc_p_line(h, "int32_t %s(const %s *v, %svalue);", nsc_cg_coll(g, s, "find"), r, p);
        break;
    }
    case NSC_T_SET: {
        const char *p = param(g, t->elem);
        nsc_p_comment(h, "Add (NS_OK if present; NS_ERR_CAPACITY when full; NS_ERR_RANGE for an invalid key) or remove");
        nsc_p_comment(h, "(NS_ERR_UNKNOWN_ID if absent) a key%s.", dirty);
        nsc_p_line(h, "ns_status %s(%s *v, %skey);", nsc_cg_coll(g, s, "add"), r, p);
        nsc_p_line(h, "ns_status %s(%s *v, %skey);", nsc_cg_coll(g, s, "remove"), r, p);
        nsc_p_comment(h, "The index of key (keys are kept ascending), or -1.");
        nsc_p_line(h, "int32_t %s(const %s *v, %skey);", nsc_cg_coll(g, s, "find"), r, p);
        break;
    }
    case NSC_T_MAP: {
        const char *pk = param(g, t->key), *pv = param(g, t->elem);
        nsc_p_comment(h, "Insert or replace (NS_ERR_CAPACITY when full; NS_ERR_RANGE for an invalid key), or remove");
        nsc_p_comment(h, "(NS_ERR_UNKNOWN_ID if absent) an entry%s.", dirty);
        nsc_p_line(h, "ns_status %s(%s *v, %skey, %svalue);", nsc_cg_coll(g, s, "set"), r, pk, pv);
        nsc_p_line(h, "ns_status %s(%s *v, %skey);", nsc_cg_coll(g, s, "remove"), r, pk);
        nsc_p_comment(h, "The index of key (keys are kept ascending; its value is values[index]), or -1.");
        nsc_p_line(h, "int32_t %s(const %s *v, %skey);", nsc_cg_coll(g, s, "find"), r, pk);
        break;
    }
    default: {
        const char *p = param(g, t->elem), *item = nsc_cg_coll(g, s, "item");
        nsc_p_comment(h, "Append an item with a new ID (stored in *id unless NULL): NS_ERR_CAPACITY when full.");
        nsc_p_line(h, "ns_status %s(%s *v, %svalue, uint32_t *id);", nsc_cg_coll(g, s, "add"), r, p);
        if (f->sem.ordered) {
            nsc_p_comment(h, "Insert a new item before position index (NS_ERR_CAPACITY, NS_ERR_RANGE), or move item id to");
            nsc_p_comment(h, "position index (NS_ERR_UNKNOWN_ID, NS_ERR_RANGE).");
            nsc_p_line(h, "ns_status %s(%s *v, uint32_t index, %svalue, uint32_t *id);", nsc_cg_coll(g, s, "insert"), r, p);
            nsc_p_line(h, "ns_status %s(%s *v, uint32_t id, uint32_t index);", nsc_cg_coll(g, s, "move"), r);
        }
        nsc_p_comment(h, "Remove item id, or replace its value (bumping its key if the value differs)%s: NS_ERR_UNKNOWN_ID if absent.", dirty);
        nsc_p_line(h, "ns_status %s(%s *v, uint32_t id);", nsc_cg_coll(g, s, "remove"), r);
        nsc_p_line(h, "ns_status %s(%s *v, uint32_t id, %svalue);", nsc_cg_coll(g, s, "set"), r, p);
        nsc_p_comment(h, "The position of item id, or -1.");
        nsc_p_line(h, "int32_t %s(const %s *v, uint32_t id);", nsc_cg_coll(g, s, "find"), r);
        nsc_p_comment(h, "The item at position index, or NULL.");
        nsc_p_line(h, "const %s *%s(const %s *v, uint32_t index);", item, nsc_cg_coll(g, s, "at"), r);
        break;
    }
    }
    nsc_p_comment(h, "Empty it%s; the number of %s.", dirty, t->kind == NSC_T_MAP ? "entries" : t->kind == NSC_T_FASTARRAY ? "items" : "elements");
    nsc_p_line(h, "void %s(%s *v);", nsc_cg_coll(g, s, "clear"), r);
    nsc_p_line(h, "uint32_t %s(const %s *v);", nsc_cg_coll(g, s, "count"), r);
    if (t->kind != NSC_T_FASTARRAY) {
        const nsc_type *at = t->elem; /* a map's value, a list's or set's element */
        nsc_p_comment(h, "%s at index, or NULL.", t->kind == NSC_T_MAP ? "The value" : "The element");
        if (at->kind == NSC_T_STRING) nsc_p_line(h, "const char *%s(const %s *v, uint32_t index);", nsc_cg_coll(g, s, "at"), r);
        else nsc_p_line(h, "const %s *%s(const %s *v, uint32_t index);", nsc_cg_value_type(g, at), nsc_cg_coll(g, s, "at"), r);
    }
    nsc_p_comment(h, "How %s is coded (used by the serializers of every record that holds it).", m);
    nsc_p_line(h, "extern const ns_coll_ops %s;", nsc_cg_coll(g, s, "ops"));
}

void nsc_cg_coll_prototypes(nsc_cgen *g, const nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (nsc_type_is_collection(f->sem.type)) coll_prototypes(g, d, f, nsc_cg_field_slot(d->layout, f));
    }
}

/* ---- element functions and ops (source) -------------------------------------------------- */

/* "const int32_t (*name)[3] = (const int32_t (*)[3])src;": a typed view of an element. */
static void view(nsc_cgen *g, const nsc_slot *e, const char *name, const char *src, bool is_const)
{
    const char *k = is_const ? "const " : "";
    bool array = nsc_cg_snap_is_array(e);
    const char *decl = nsc_cg_snap_decl(g, e, array ? NSC_FMT(g, "(*%s)", name) : NSC_FMT(g, "*%s", name));
    const char *cast = nsc_cg_snap_decl(g, e, array ? "(*)" : "*");
    nsc_p_line(g->c, "%s%s = (%s%s)%s;", k, decl, k, cast, src);
}

/* An int64 value as a C constant. */
static const char *int_const(nsc_cgen *g, int64_t v)
{
    return v == INT64_MIN ? "(-INT64_C(9223372036854775807) - 1)" : NSC_FMT(g, "INT64_C(%lld)", (long long)v);
}

/* The initializer of the default element new elements are coded against: zero, or the value in
 * the element's range nearest zero (an enum's first value), so that the delta from it stays
 * within the span layout.c counts. */
static const char *elem_default(nsc_cgen *g, const nsc_slot *e)
{
    int64_t v = 0;
    if (e->type->kind == NSC_T_ENUM && e->type->decl->nvalues) v = e->type->decl->values[0]->resolved;
    else if (e->has_range && e->lo > 0) v = e->lo;
    else if (e->has_range && e->hi < 0) v = e->hi;
    if (v == 0) return "{0}";
    const char *one = NSC_FMT(g, "(%s)%s", e->snap_ctype, int_const(g, v));
    if (e->enc == NSC_ENC_VEC_Q) {
        nsc_strbuf sb = NSC_STRBUF_INIT;
        for (unsigned k = 0; k < e->arity; k++) nsc_sb_printf(&sb, "%s%s", k ? ", " : "", one);
        const char *r = NSC_FMT(g, "{%s}", nsc_sb_str(&sb));
        nsc_sb_free(&sb);
        return r;
    }
    return NSC_FMT(g, "{%s}", one);
}

static void elem_functions(nsc_cgen *g, const nsc_slot *s, const nsc_slot *e)
{
    nsc_printer *c = g->c;
    const char *wr = nsc_cg_coll(g, s, "elem_write"), *rd = nsc_cg_coll(g, s, "elem_read");
    const char *eq = nsc_cg_coll(g, s, "elem_equal");
    nsc_p_empty(c);
    if (e->record) {
        const char *x = nsc_cg_name(g, e->type->decl);
        nsc_p_line(c, "static ns_status %s(ns_writer *w, const void *cur, const void *ref)", wr);
        nsc_p_open(c, "{");
        nsc_p_line(c, "return %s(w, (const %s_snap *)cur, (const %s_snap *)ref);", nsc_cg_fn(g, e->type->decl, "write"), x, x);
        nsc_p_close(c, "}");
        nsc_p_empty(c);
        nsc_p_line(c, "static void %s(ns_reader *r, void *out, const void *ref)", rd);
        nsc_p_open(c, "{");
        nsc_p_line(c, "%s_snap scratch;", x);
        nsc_p_line(c, "(void)%s(r, out ? (%s_snap *)out : &scratch, (const %s_snap *)ref);", nsc_cg_fn(g, e->type->decl, "read"),
                   x, x);
        nsc_p_close(c, "}");
        nsc_p_empty(c);
        nsc_p_line(c, "static bool %s(const void *a, const void *b)", eq);
        nsc_p_open(c, "{");
        nsc_p_line(c, "return %s((const %s_snap *)a, (const %s_snap *)b);", nsc_cg_fn(g, e->type->decl, "snap_equal"), x, x);
        nsc_p_close(c, "}");
        return;
    }
    /* Scalars: a change bit, then (if set) the payload against the reference element. */
    nsc_p_line(c, "static ns_status %s(ns_writer *wp, const void *c, const void *f)", wr);
    nsc_p_open(c, "{");
    nsc_p_line(c, "static const %s = %s; /* what a new element is coded against */", nsc_cg_snap_decl(g, e, "zero"),
               elem_default(g, e));
    view(g, e, "cur", "c", true);
    view(g, e, "ref", "(f ? f : &zero)", true);
    nsc_cg_check_slot(g, e, "(*cur)");
    nsc_p_line(c, "ns_writer w = *wp;");
    nsc_p_line(c, "const bool changed = %s;", nsc_cg_differs(g, e, "(*cur)", "(*ref)"));
    nsc_p_line(c, "ns_write_bool(&w, changed);");
    if (e->enc != NSC_ENC_BOOL) {
        nsc_p_open(c, "if (changed) {");
        nsc_cg_write_payload(g, e, "(*cur)", "(*ref)", false);
        nsc_p_close(c, "}");
    }
    nsc_p_line(c, "*wp = w;");
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "static void %s(ns_reader *r, void *o, const void *f)", rd);
    nsc_p_open(c, "{");
    nsc_p_line(c, "static const %s = %s;", nsc_cg_snap_decl(g, e, "zero"), elem_default(g, e));
    nsc_p_line(c, "%s;", nsc_cg_snap_decl(g, e, "scratch"));
    view(g, e, "out", "(o ? o : (void *)&scratch)", false);
    view(g, e, "ref", "(f ? f : &zero)", true);
    nsc_p_open(c, "if (ns_read_bool(r)) {");
    nsc_cg_read_payload(g, e, "(*out)", "(*ref)", false);
    nsc_p_close(c, "} else {");
    c->indent++;
    nsc_p_line(c, "memcpy(out, ref, sizeof *out);");
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "static bool %s(const void *a, const void *b)", eq);
    nsc_p_open(c, "{");
    view(g, e, "x", "a", true);
    view(g, e, "y", "b", true);
    nsc_p_line(c, "return !(%s);", nsc_cg_differs(g, e, "(*x)", "(*y)"));
    nsc_p_close(c, "}");
}

/* The ordered form of a key slot's bound. */
static const char *ordered_bound(nsc_cgen *g, const nsc_slot *k, bool hi)
{
    const nsc_type *t = k->type->kind == NSC_T_ENUM ? k->type->decl->underlying_type : k->type;
    if (!k->bounded) return hi ? "UINT64_MAX" : "UINT64_C(0)";
    uint64_t v = (uint64_t)(hi ? k->hi : k->lo);
    if (nsc_type_is_signed(t)) v ^= UINT64_C(0x8000000000000000);
    return NSC_FMT(g, "UINT64_C(0x%016llx)", (unsigned long long)v);
}

static bool key_signed(const nsc_slot *k)
{
    return nsc_type_is_signed(k->type->kind == NSC_T_ENUM ? k->type->decl->underlying_type : k->type);
}

static const char *key_type(nsc_cgen *g, const nsc_slot *k)
{
    if (!k) return "{0, false, 0, 0, NULL}";
    if (k->type->kind == NSC_T_STRING) /* size 0: a string key of at most max bytes */
        return NSC_FMT(g, "{0, false, UINT64_C(0), UINT64_C(%u), NULL}", k->type->capacity);
    const char *valid = k->type->kind == NSC_T_ENUM ? nsc_cg_fn(g, k->type->decl, "is_valid") : "NULL";
    return NSC_FMT(g, "{sizeof(%s), %s, %s, %s, %s}", k->snap_ctype, key_signed(k) ? "true" : "false",
                   ordered_bound(g, k, false), ordered_bound(g, k, true), valid);
}

static void ops_table(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const nsc_type *t = f->sem.type;
    const char *sn = nsc_cg_coll(g, s, "snap");
    static const char *const kinds[] = {"NS_COLL_LIST", "NS_COLL_MAP", "NS_COLL_SET", "NS_COLL_FASTARRAY"};
    const char *kind = kinds[s->enc - NSC_ENC_LIST];
    const char *items = t->kind == NSC_T_MAP ? "keys" : "items";
    const nsc_slot *key = t->kind == NSC_T_MAP ? s->key : t->kind == NSC_T_SET ? s->elem : NULL;
    nsc_p_empty(c);
    nsc_p_open(c, "const ns_coll_ops %s = {", nsc_cg_coll(g, s, "ops"));
    nsc_p_line(c, "%s, %uu,", kind, t->capacity);
    nsc_p_line(c, "offsetof(%s, %s), sizeof(((%s *)0)->%s[0]),", sn, items, sn, items);
    if (t->kind == NSC_T_MAP) nsc_p_line(c, "offsetof(%s, values), sizeof(((%s *)0)->values[0]),", sn, sn);
    else nsc_p_line(c, "0, 0,");
    if (t->kind == NSC_T_FASTARRAY) nsc_p_line(c, "offsetof(%s, value),", nsc_cg_coll(g, s, "item_snap"));
    else nsc_p_line(c, "0,");
    if (f->sem.ordered) nsc_p_line(c, "offsetof(%s, order), offsetof(%s, pos),", sn, sn);
    else nsc_p_line(c, "0, 0,");
    nsc_p_line(c, "%s,", key_type(g, key));
    if (t->kind == NSC_T_SET) nsc_p_line(c, "NULL, NULL, NULL,");
    else nsc_p_line(c, "%s, %s, %s,", nsc_cg_coll(g, s, "elem_equal"), nsc_cg_coll(g, s, "elem_write"),
                    nsc_cg_coll(g, s, "elem_read"));
    nsc_p_close(c, "};");
}

/* _equal of two collection values, element by element (floats bitwise). */
static void value_equal(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const nsc_type *t = f->sem.type;
    const char *v = nsc_cg_coll(g, s, "");
    nsc_p_empty(c);
    nsc_p_line(c, "static bool %s(const %s *a, const %s *b)", nsc_cg_coll(g, s, "equal"), v, v);
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (a->count != b->count) return false;");
    nsc_p_open(c, "for (uint32_t i = 0; i < a->count && i < %uu; i++) {", t->capacity);
    switch (t->kind) {
    case NSC_T_MAP:
        nsc_p_line(c, "if (%s) return false;", nsc_cg_value_differs(g, t->key, "a->keys[i]", "b->keys[i]"));
        nsc_p_line(c, "if (%s) return false;", nsc_cg_value_differs(g, t->elem, "a->values[i]", "b->values[i]"));
        break;
    case NSC_T_FASTARRAY:
        nsc_p_line(c, "if (a->items[i].id != b->items[i].id) return false;");
        nsc_p_line(c, "if (%s) return false;", nsc_cg_value_differs(g, t->elem, "a->items[i].value", "b->items[i].value"));
        break;
    default:
        nsc_p_line(c, "if (%s) return false;", nsc_cg_value_differs(g, t->elem, "a->items[i]", "b->items[i]"));
    }
    nsc_p_close(c, "}");
    nsc_p_line(c, "return true;");
    nsc_p_close(c, "}");
}

/* For @notify: whether a live value differs from what a snapshot stands for, compared element
 * by element through one dequantized element, so no copy of the whole collection is needed. */
static void differs_fn(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const nsc_type *t = f->sem.type;
    nsc_p_empty(c);
    nsc_p_line(c, "static bool %s(const %s *v, const %s *s)", nsc_cg_coll(g, s, "differs"), nsc_cg_coll(g, s, ""),
               nsc_cg_coll(g, s, "snap"));
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (v->count != s->count) return true;");
    nsc_p_open(c, "for (uint32_t i = 0; i < s->count && i < %uu; i++) {", t->capacity);
    nsc_p_line(c, "%s;", nsc_cg_value_decl(g, t->elem, "e"));
    const char *from = t->kind == NSC_T_MAP ? "s->values[i]" : "s->items[i]";
    const char *live = t->kind == NSC_T_MAP ? "v->values[i]" : "v->items[i]";
    if (t->kind == NSC_T_MAP) nsc_p_line(c, "if (%s) return true;", nsc_cg_value_differs(g, t->key, "v->keys[i]", "s->keys[i]"));
    nsc_cg_dequantize_value(g, s->elem, t->elem, from, "e");
    nsc_p_line(c, "if (%s) return true;", nsc_cg_value_differs(g, t->elem, live, "e"));
    nsc_p_close(c, "}");
    nsc_p_line(c, "return false;");
    nsc_p_close(c, "}");
}

/* What ns_fa_apply needs to update a live fast array, and the trampolines to the typed hooks. */
static void fastarray_live(nsc_cgen *g, const nsc_decl *d, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *item = nsc_cg_coll(g, s, "item"), *item_snap = nsc_cg_coll(g, s, "item_snap");
    const char *r = nsc_cg_name(g, d), *m = f->name.text;
    nsc_p_empty(c);
    nsc_p_line(c, "static void %s(const void *from, void *to)", nsc_cg_coll(g, s, "item_dequantize"));
    nsc_p_open(c, "{");
    nsc_p_line(c, "const %s *s = (const %s *)from;", item_snap, item_snap);
    nsc_p_line(c, "%s *v = (%s *)to;", item, item);
    nsc_p_line(c, "v->id = s->id;");
    nsc_p_line(c, "v->key = s->key;");
    nsc_p_line(c, "%s(&s->value, &v->value);", nsc_cg_fn(g, f->sem.type->elem->decl, "dequantize"));
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "static bool %s(const void *a, const void *b)", nsc_cg_coll(g, s, "item_equal"));
    nsc_p_open(c, "{");
    nsc_p_line(c, "return %s(&((const %s *)a)->value, &((const %s *)b)->value);", nsc_cg_fn(g, f->sem.type->elem->decl, "equal"),
               item, item);
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_open(c, "static const ns_fa_live %s = {", nsc_cg_coll(g, s, "live"));
    const char *v = nsc_cg_coll(g, s, "");
    nsc_p_line(c, "offsetof(%s, items), sizeof(((%s *)0)->items[0]), offsetof(%s, next_id),", v, v, v);
    nsc_p_line(c, "%s, %s,", nsc_cg_coll(g, s, "item_dequantize"), nsc_cg_coll(g, s, "item_equal"));
    nsc_p_close(c, "};");
    static const char *const events[] = {"removed", "added", "changed"};
    static const char *const hooks[] = {"remove", "add", "change"};
    for (int k = 0; k < 3; k++) {
        nsc_p_empty(c);
        if (k < 2) nsc_p_line(c, "static void %s(void *self, const void *item)", nsc_cg_coll(g, s, events[k]));
        else nsc_p_line(c, "static void %s(void *self, const void *item, const void *old)", nsc_cg_coll(g, s, events[k]));
        nsc_p_open(c, "{");
        nsc_p_line(c, "const ns_hook_ctx *h = (const ns_hook_ctx *)self;");
        nsc_p_line(c, "const %s_hooks *hooks = (const %s_hooks *)h->hooks;", r, r);
        if (k < 2) nsc_p_line(c, "hooks->%s_%s(h->ctx, (%s *)h->live, (const %s *)item);", m, hooks[k], r, item);
        else nsc_p_line(c, "hooks->%s_%s(h->ctx, (%s *)h->live, (const %s *)item, (const %s *)old);", m, hooks[k], r, item, item);
        nsc_p_close(c, "}");
    }
}

void nsc_cg_coll_support(nsc_cgen *g, const nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!nsc_type_is_collection(f->sem.type)) continue;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        nsc_p_empty(g->c);
        nsc_p_line(g->c, "/* %s: element coding for the runtime (netschema/collections.h) */", f->name.text);
        if (f->sem.type->kind != NSC_T_SET) elem_functions(g, s, s->elem);
        ops_table(g, f, s);
        value_equal(g, f, s);
        if (f->sem.notify) differs_fn(g, f, s);
        if (f->sem.type->kind == NSC_T_FASTARRAY) fastarray_live(g, d, f, s);
    }
}

/* ---- quantize / dequantize ---------------------------------------------------------------- */

void nsc_cg_coll_quantize(nsc_cgen *g, const nsc_slot *s, const char *v, const char *q)
{
    nsc_printer *c = g->c;
    const nsc_type *t = s->type;
    nsc_p_open(c, "{");
    nsc_p_line(c, "const uint32_t n = %s.count < %uu ? %s.count : %uu;", v, t->capacity, v, t->capacity);
    nsc_p_line(c, "%s.count = (uint16_t)n;", q);
    nsc_p_open(c, "for (uint32_t i = 0; i < n; i++) {");
    switch (t->kind) {
    case NSC_T_MAP:
        nsc_cg_quantize_value(g, s->key, t->key, NULL, NSC_FMT(g, "%s.keys[i]", v), NSC_FMT(g, "%s.keys[i]", q));
        nsc_cg_quantize_value(g, s->elem, t->elem, NULL, NSC_FMT(g, "%s.values[i]", v), NSC_FMT(g, "%s.values[i]", q));
        break;
    case NSC_T_FASTARRAY:
        nsc_p_line(c, "%s.items[i].id = %s.items[i].id;", q, v);
        nsc_p_line(c, "%s.items[i].key = %s.items[i].key;", q, v);
        nsc_cg_quantize_value(g, s->elem, t->elem, NULL, NSC_FMT(g, "%s.items[i].value", v), NSC_FMT(g, "%s.items[i].value", q));
        break;
    default:
        nsc_cg_quantize_value(g, s->elem, t->elem, NULL, NSC_FMT(g, "%s.items[i]", v), NSC_FMT(g, "%s.items[i]", q));
    }
    nsc_p_close(c, "}");
    if (t->kind != NSC_T_LIST) nsc_p_line(c, "ns_coll_sort(&%s, &%s);", nsc_cg_coll(g, s, "ops"), q);
    nsc_p_close(c, "}");
}

void nsc_cg_coll_dequantize(nsc_cgen *g, const nsc_slot *s, const char *from, const char *to)
{
    nsc_printer *c = g->c;
    const nsc_type *t = s->type;
    nsc_p_open(c, "{");
    nsc_p_line(c, "const uint32_t n = %s.count < %uu ? %s.count : %uu;", from, t->capacity, from, t->capacity);
    nsc_p_line(c, "%s.count = (uint16_t)n;", to);
    nsc_p_open(c, "for (uint32_t i = 0; i < n; i++) {");
    switch (t->kind) {
    case NSC_T_MAP:
        nsc_cg_dequantize_value(g, s->key, t->key, NSC_FMT(g, "%s.keys[i]", from), NSC_FMT(g, "%s.keys[i]", to));
        nsc_cg_dequantize_value(g, s->elem, t->elem, NSC_FMT(g, "%s.values[i]", from), NSC_FMT(g, "%s.values[i]", to));
        break;
    case NSC_T_FASTARRAY:
        if (s->field->sem.ordered) nsc_p_line(c, "const uint32_t j = %s.order[i] < n ? %s.order[i] : i;", from, from);
        else nsc_p_line(c, "const uint32_t j = i;");
        nsc_p_line(c, "%s.items[i].id = %s.items[j].id;", to, from);
        nsc_p_line(c, "%s.items[i].key = %s.items[j].key;", to, from);
        nsc_cg_dequantize_value(g, s->elem, t->elem, NSC_FMT(g, "%s.items[j].value", from), NSC_FMT(g, "%s.items[i].value", to));
        break;
    default:
        nsc_cg_dequantize_value(g, s->elem, t->elem, NSC_FMT(g, "%s.items[i]", from), NSC_FMT(g, "%s.items[i]", to));
    }
    nsc_p_close(c, "}");
    if (t->kind == NSC_T_FASTARRAY) {
        nsc_p_line(c, "%s.next_id = n ? %s.items[n - 1].id + 1u : 1u;", to, from);
        nsc_p_line(c, "%s.wrapped = %s.next_id == 0;", to, to);
        nsc_p_line(c, "if (%s.wrapped) %s.next_id = 1;", to, to);
    }
    nsc_p_close(c, "}");
}

/* ---- _apply: per-element events of lists, sets and maps ---------------------------------- */
/* The generated code edits live->f one event at a time, so inside every hook live->f is what a
 * mirror built from the events before it holds: remove and clear hooks run just before their
 * elements leave, insert, add and set hooks just after the new element is in. Removes come
 * first, from the highest index (key) down, then sets and inserts (adds) in ascending order;
 * both orders keep every index valid for the mirror and never take it past the capacity. The
 * semantics are in idl/SPEC.md, "Per-element collection events". */

/* How a hook receives an element at lvalue x: strings as char pointers, structs, vectors and
 * quaternions by pointer (as @notify hooks get them), the rest by value. The hooks struct
 * (emit_c_types.c) declares the parameters to match. */
static const char *hook_arg(nsc_cgen *g, const nsc_type *t, const char *x)
{
    if (t->kind == NSC_T_STRUCT || nsc_type_is_vector(t) || t->kind == NSC_T_QUAT) return NSC_FMT(g, "&%s", x);
    return x;
}

/* Statement copying element value src to dst (both lvalues of the value type). */
static void copy_value(nsc_cgen *g, const nsc_type *t, const char *dst, const char *src)
{
    if (t->kind == NSC_T_STRING) nsc_p_line(g->c, "memcpy(%s, %s, sizeof %s);", dst, src, dst);
    else nsc_p_line(g->c, "%s = %s;", dst, src);
}

/* Declares `old`, a copy of the element at lvalue src (which is about to be overwritten). */
static void save_old(nsc_cgen *g, const nsc_type *t, const char *src)
{
    if (t->kind != NSC_T_STRING) {
        nsc_p_line(g->c, "const %s = %s;", nsc_cg_value_decl(g, t, "old"), src);
        return;
    }
    nsc_p_line(g->c, "%s;", nsc_cg_value_decl(g, t, "old"));
    copy_value(g, t, "old", src);
}

/* Key comparisons of set elements and map keys (integers, enums, entities; strings by their
 * bytes as unsigned values, at most N + 1 of them: a live key edited by hand may lack its NUL). */
static const char *key_less(nsc_cgen *g, const nsc_type *t, const char *a, const char *b)
{
    if (t->kind == NSC_T_STRING) return NSC_FMT(g, "strncmp(%s, %s, %uu) < 0", a, b, t->capacity + 1u);
    return NSC_FMT(g, "%s < %s", a, b);
}

static const char *key_equal(nsc_cgen *g, const nsc_type *t, const char *a, const char *b)
{
    if (t->kind == NSC_T_STRING) return NSC_FMT(g, "strncmp(%s, %s, %uu) == 0", a, b, t->capacity + 1u);
    return NSC_FMT(g, "%s == %s", a, b);
}

/* Opens the event code of field m: no hooks (or none of this field's): a plain dequantize. */
static void events_open(nsc_cgen *g, const nsc_slot *s, const char *m, const char *const *events, size_t nevents)
{
    nsc_printer *c = g->c;
    nsc_strbuf any = NSC_STRBUF_INIT;
    for (size_t k = 0; k < nevents; k++) nsc_sb_printf(&any, "%shooks->%s_%s", k ? " || " : "", m, events[k]);
    nsc_p_open(c, "if (!hooks || !(%s)) {", nsc_sb_str(&any));
    nsc_sb_free(&any);
    nsc_cg_coll_dequantize(g, s, NSC_FMT(g, "s->%s", m), NSC_FMT(g, "live->%s", m));
    nsc_p_close(c, "} else {");
    c->indent++;
    nsc_p_line(c, "%s *v = &live->%s;", nsc_cg_coll(g, s, ""), m);
    nsc_p_line(c, "const uint32_t n_old = v->count < %uu ? v->count : %uu;", s->type->capacity, s->type->capacity);
    nsc_p_line(c, "const uint32_t n_new = s->%s.count < %uu ? s->%s.count : %uu;", m, s->type->capacity, m,
               s->type->capacity);
}

/* A list: the common prefix and suffix stay; in between, the elements both hold are set where
 * they differ, and the rest removed (the old list was longer) or inserted (the new one is). */
static void list_events(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *m = f->name.text;
    const nsc_type *t = f->sem.type->elem;
    const nsc_slot *e = s->elem;
    static const char *const events[] = {"insert", "set", "remove", "clear"};
    const char *from = NSC_FMT(g, "s->%s.items", m);
    nsc_p_comment(c, "%s: removes from the highest index down, then sets and inserts in ascending index order.", m);
    events_open(g, s, m, events, 4);
    nsc_p_line(c, "%s;", nsc_cg_value_decl(g, t, "e"));
    nsc_p_line(c, "uint32_t p = 0, t = 0; /* the lengths of the unchanged prefix and suffix */");
    nsc_p_line(c, "v->count = (uint16_t)n_old;");
    nsc_p_open(c, "for (; p < n_old && p < n_new; p++) {");
    nsc_cg_dequantize_value(g, e, t, NSC_FMT(g, "%s[p]", from), "e");
    nsc_p_line(c, "if (%s) break;", nsc_cg_value_differs(g, t, "v->items[p]", "e"));
    nsc_p_close(c, "}");
    nsc_p_open(c, "for (; t < n_old - p && t < n_new - p; t++) {");
    nsc_cg_dequantize_value(g, e, t, NSC_FMT(g, "%s[n_new - 1 - t]", from), "e");
    nsc_p_line(c, "if (%s) break;", nsc_cg_value_differs(g, t, "v->items[n_old - 1 - t]", "e"));
    nsc_p_close(c, "}");
    nsc_p_open(c, "if (n_new == 0 && n_old > 0 && hooks->%s_clear) {", m);
    nsc_p_line(c, "(hooks->%s_clear)(ctx, live); /* the old elements still in live */", m);
    nsc_p_line(c, "v->count = 0;");
    nsc_p_close(c, "} else {");
    c->indent++;
    nsc_p_open(c, "for (uint32_t i = n_old - t; i > n_new - t; i--) {");
    nsc_p_line(c, "const uint32_t k = i - 1;");
    nsc_p_line(c, "if (hooks->%s_remove) (hooks->%s_remove)(ctx, live, k, %s);", m, m, hook_arg(g, t, "v->items[k]"));
    nsc_p_line(c, "memmove(&v->items[k], &v->items[i], (v->count - i) * sizeof v->items[0]);");
    nsc_p_line(c, "v->count = (uint16_t)(v->count - 1u);");
    nsc_p_close(c, "}");
    nsc_p_open(c, "for (uint32_t i = p; i < n_old - t && i < n_new - t; i++) {");
    nsc_cg_dequantize_value(g, e, t, NSC_FMT(g, "%s[i]", from), "e");
    nsc_p_line(c, "if (!(%s)) continue;", nsc_cg_value_differs(g, t, "v->items[i]", "e"));
    save_old(g, t, "v->items[i]");
    copy_value(g, t, "v->items[i]", "e");
    nsc_p_line(c, "if (hooks->%s_set) (hooks->%s_set)(ctx, live, i, %s, %s);", m, m, hook_arg(g, t, "old"),
               hook_arg(g, t, "v->items[i]"));
    nsc_p_close(c, "}");
    nsc_p_open(c, "for (uint32_t i = n_old - t; i < n_new - t; i++) {");
    nsc_p_line(c, "memmove(&v->items[i + 1], &v->items[i], (v->count - i) * sizeof v->items[0]);");
    nsc_cg_dequantize_value(g, e, t, NSC_FMT(g, "%s[i]", from), "v->items[i]");
    nsc_p_line(c, "v->count = (uint16_t)(v->count + 1u);");
    nsc_p_line(c, "if (hooks->%s_insert) (hooks->%s_insert)(ctx, live, i, %s);", m, m, hook_arg(g, t, "v->items[i]"));
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");
}

/* A set or map: a merge of the two ascending key sequences, downwards for the removes, then
 * upwards for the adds and (maps) the sets. Keys that are not strictly ascending on either side
 * (a live value edited by hand) make every old entry a remove and every new one an add. */
static void keyed_events(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *m = f->name.text;
    bool map = f->sem.type->kind == NSC_T_MAP;
    const nsc_type *kt = map ? f->sem.type->key : f->sem.type->elem, *vt = f->sem.type->elem;
    const nsc_slot *ks = map ? s->key : s->elem;
    const char *keys = map ? "keys" : "items";
    static const char *const map_events[] = {"add", "set", "remove"};
    static const char *const set_events[] = {"add", "remove"};
    const char *skey = NSC_FMT(g, "s->%s.%s", m, keys), *lkey = NSC_FMT(g, "v->%s", keys);
    nsc_p_comment(c, "%s: removes from the highest key down, then %s in ascending key order.", m,
                  map ? "adds and sets" : "adds");
    events_open(g, s, m, map ? map_events : set_events, map ? 3 : 2);
    nsc_p_line(c, "%s;", nsc_cg_value_decl(g, kt, "k"));
    if (map) nsc_p_line(c, "%s;", nsc_cg_value_decl(g, vt, "e"));
    nsc_p_line(c, "bool sorted = true;");
    nsc_p_line(c, "uint32_t j = n_new;");
    nsc_p_line(c, "v->count = (uint16_t)n_old;");
    nsc_p_line(c, "for (uint32_t i = 1; i < n_old; i++)");
    nsc_p_line(c, "    if (!(%s)) sorted = false;", key_less(g, kt, NSC_FMT(g, "%s[i - 1]", lkey), NSC_FMT(g, "%s[i]", lkey)));
    nsc_p_open(c, "for (uint32_t i = 1; sorted && i < n_new; i++) {");
    nsc_p_line(c, "%s;", nsc_cg_value_decl(g, kt, "prev"));
    nsc_cg_dequantize_value(g, ks, kt, NSC_FMT(g, "%s[i - 1]", skey), "prev");
    nsc_cg_dequantize_value(g, ks, kt, NSC_FMT(g, "%s[i]", skey), "k");
    nsc_p_line(c, "if (!(%s)) sorted = false;", key_less(g, kt, "prev", "k"));
    nsc_p_close(c, "}");
    nsc_p_open(c, "for (uint32_t i = n_old; i > 0; i--) {");
    nsc_p_line(c, "const uint32_t at = i - 1;");
    nsc_p_line(c, "bool kept = false;");
    nsc_p_open(c, "for (; sorted && j > 0; j--) {");
    nsc_cg_dequantize_value(g, ks, kt, NSC_FMT(g, "%s[j - 1]", skey), "k");
    nsc_p_line(c, "if (%s) break; /* a lower key: it may match a lower live key */", key_less(g, kt, "k", NSC_FMT(g, "%s[at]", lkey)));
    nsc_p_open(c, "if (%s) {", key_equal(g, kt, "k", NSC_FMT(g, "%s[at]", lkey)));
    nsc_p_line(c, "kept = true;");
    nsc_p_line(c, "j--;");
    nsc_p_line(c, "break;");
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");
    nsc_p_line(c, "if (kept) continue;");
    if (map)
        nsc_p_line(c, "if (hooks->%s_remove) (hooks->%s_remove)(ctx, live, %s, %s);", m, m,
                   hook_arg(g, kt, NSC_FMT(g, "%s[at]", lkey)), hook_arg(g, vt, "v->values[at]"));
    else
        nsc_p_line(c, "if (hooks->%s_remove) (hooks->%s_remove)(ctx, live, %s);", m, m, hook_arg(g, kt, NSC_FMT(g, "%s[at]", lkey)));
    nsc_p_line(c, "memmove(&%s[at], &%s[i], (v->count - i) * sizeof %s[0]);", lkey, lkey, lkey);
    if (map) nsc_p_line(c, "memmove(&v->values[at], &v->values[i], (v->count - i) * sizeof v->values[0]);");
    nsc_p_line(c, "v->count = (uint16_t)(v->count - 1u);");
    nsc_p_close(c, "}");
    nsc_p_comment(c, "Now every live key is in the snapshot: entry j is either the snapshot's entry j or new.");
    nsc_p_open(c, "for (j = 0; j < n_new; j++) {");
    nsc_cg_dequantize_value(g, ks, kt, NSC_FMT(g, "%s[j]", skey), "k");
    nsc_p_open(c, "if (j < v->count && %s) {", key_equal(g, kt, NSC_FMT(g, "%s[j]", lkey), "k"));
    if (map) {
        nsc_cg_dequantize_value(g, s->elem, vt, NSC_FMT(g, "s->%s.values[j]", m), "e");
        nsc_p_line(c, "if (!(%s)) continue;", nsc_cg_value_differs(g, vt, "v->values[j]", "e"));
        save_old(g, vt, "v->values[j]");
        copy_value(g, vt, "v->values[j]", "e");
        nsc_p_line(c, "if (hooks->%s_set) (hooks->%s_set)(ctx, live, %s, %s, %s);", m, m, hook_arg(g, kt, NSC_FMT(g, "%s[j]", lkey)),
                   hook_arg(g, vt, "old"), hook_arg(g, vt, "v->values[j]"));
    }
    nsc_p_line(c, "continue;");
    nsc_p_close(c, "}");
    nsc_p_line(c, "if (v->count >= %uu) break; /* only a snapshot no reader makes gets here */", s->type->capacity);
    nsc_p_line(c, "memmove(&%s[j + 1], &%s[j], (v->count - j) * sizeof %s[0]);", lkey, lkey, lkey);
    if (map) nsc_p_line(c, "memmove(&v->values[j + 1], &v->values[j], (v->count - j) * sizeof v->values[0]);");
    copy_value(g, kt, NSC_FMT(g, "%s[j]", lkey), "k");
    if (map) nsc_cg_dequantize_value(g, s->elem, vt, NSC_FMT(g, "s->%s.values[j]", m), "v->values[j]");
    nsc_p_line(c, "v->count = (uint16_t)(v->count + 1u);");
    if (map)
        nsc_p_line(c, "if (hooks->%s_add) (hooks->%s_add)(ctx, live, %s, %s);", m, m, hook_arg(g, kt, NSC_FMT(g, "%s[j]", lkey)),
                   hook_arg(g, vt, "v->values[j]"));
    else
        nsc_p_line(c, "if (hooks->%s_add) (hooks->%s_add)(ctx, live, %s);", m, m, hook_arg(g, kt, NSC_FMT(g, "%s[j]", lkey)));
    nsc_p_close(c, "}");
    nsc_p_close(c, "}");
}

/* ---- _apply of a collection field ------------------------------------------------------- */

void nsc_cg_coll_apply(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *m = f->name.text;
    if (f->sem.type->kind == NSC_T_LIST) {
        list_events(g, f, s);
        return;
    }
    if (f->sem.type->kind != NSC_T_FASTARRAY) {
        keyed_events(g, f, s);
        return;
    }
    nsc_p_comment(c, "%s: removes, then adds, then changes (netschema/collections.h, ns_fa_apply).", m);
    nsc_p_open(c, "{");
    nsc_p_line(c, "%s scratch;", nsc_cg_coll(g, s, "item"));
    nsc_p_line(c, "ns_hook_ctx h = {hooks, ctx, live};");
    nsc_p_line(c, "ns_fa_events ev = {&h, NULL, NULL, NULL};");
    nsc_p_line(c, "if (hooks && hooks->%s_remove) ev.removed = %s;", m, nsc_cg_coll(g, s, "removed"));
    nsc_p_line(c, "if (hooks && hooks->%s_add) ev.added = %s;", m, nsc_cg_coll(g, s, "added"));
    nsc_p_line(c, "if (hooks && hooks->%s_change) ev.changed = %s;", m, nsc_cg_coll(g, s, "changed"));
    nsc_p_line(c, "ns_fa_apply(&%s, &%s, &live->%s, &s->%s, &ev, &scratch);", nsc_cg_coll(g, s, "ops"),
               nsc_cg_coll(g, s, "live"), m, m);
    nsc_p_close(c, "}");
}

/* ---- helpers (source) --------------------------------------------------------------------- */

typedef struct helper {
    nsc_cgen       *g;
    const nsc_decl *d;
    const nsc_field *f;
    const nsc_slot *s;
    const char     *r;      /* the record's C name */
    const char     *c;      /* the collection's member access: "v->hotbar" */
    const char     *mark;   /* the statement marking it dirty, or "" */
    unsigned        n;      /* capacity */
} helper;

/* Opens a helper's body. */
static void begin(helper *x, const char *sig)
{
    nsc_p_empty(x->g->c);
    nsc_p_line(x->g->c, "%s", sig);
    nsc_p_open(x->g->c, "{");
}

static void end(helper *x)
{
    nsc_p_close(x->g->c, "}");
}

/* The count, trusted only as far as the capacity (the value struct is the caller's to edit). */
static void count_line(helper *x)
{
    nsc_p_line(x->g->c, "const uint32_t n = %s.count < %uu ? %s.count : %uu;", x->c, x->n, x->c, x->n);
}

/* The helper's `value` argument as it will be stored: strings are cut to their capacity (at a
 * character boundary) into a local `clean` first, so comparing and storing agree. */
static const char *argument(helper *x, const nsc_type *t)
{
    if (t->kind != NSC_T_STRING) return "value";
    nsc_p_line(x->g->c, "char clean[%u + 1] = {0}; /* what the value holds after the string: zeros */", t->capacity);
    nsc_p_line(x->g->c, "ns_string_sanitize(clean, %u, value, strlen(value));", t->capacity);
    return "clean";
}

/* Stores a helper's (cleaned) argument into dst. */
static void store(helper *x, const nsc_type *t, const char *dst, const char *value)
{
    nsc_printer *c = x->g->c;
    if (t->kind == NSC_T_STRING) nsc_p_line(c, "memcpy(%s, %s, sizeof %s);", dst, value, value);
    else if (t->kind == NSC_T_STRUCT) nsc_p_line(c, "%s = *%s;", dst, value);
    else nsc_p_line(c, "%s = %s;", dst, value);
}

/* A condition: element `e` differs from the helper argument `value`. */
static const char *differs_arg(helper *x, const nsc_type *t, const char *e, const char *value)
{
    nsc_cgen *g = x->g;
    if (t->kind == NSC_T_STRING) return NSC_FMT(g, "strcmp(%s, %s) != 0", e, value);
    if (t->kind == NSC_T_STRUCT) return NSC_FMT(g, "!%s(&%s, %s)", nsc_cg_fn(g, t->decl, "equal"), e, value);
    return nsc_cg_value_differs(g, t, e, "value");
}

/* The ordered form of a key argument, for ns_key_search. */
static const char *ordered_arg(helper *x, const nsc_slot *k, const char *name)
{
    if (key_signed(k)) return NSC_FMT(x->g, "ns_key_ordered_i64((int64_t)%s)", name);
    return NSC_FMT(x->g, "(uint64_t)%s", name);
}

/* Shifts entries [i, n) of array `a` one place up (make room at i) or down (close i). */
static void shift(helper *x, const char *a, bool up)
{
    if (up) nsc_p_line(x->g->c, "memmove(&%s.%s[i + 1], &%s.%s[i], (n - i) * sizeof %s.%s[0]);", x->c, a, x->c, a, x->c, a);
    else nsc_p_line(x->g->c, "memmove(&%s.%s[i], &%s.%s[i + 1], (n - i - 1) * sizeof %s.%s[0]);", x->c, a, x->c, a, x->c, a);
}

static void common_tail(helper *x, const char *at_type, const char *at_expr)
{
    nsc_printer *c = x->g->c;
    begin(x, NSC_FMT(x->g, "void %s(%s *v)", nsc_cg_coll(x->g, x->s, "clear"), x->r));
    nsc_p_line(c, "if (%s.count == 0) return;", x->c);
    nsc_p_line(c, "%s.count = 0;", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    end(x);
    begin(x, NSC_FMT(x->g, "uint32_t %s(const %s *v)", nsc_cg_coll(x->g, x->s, "count"), x->r));
    nsc_p_line(c, "return %s.count < %uu ? %s.count : %uu;", x->c, x->n, x->c, x->n);
    end(x);
    begin(x, NSC_FMT(x->g, "%s%s(const %s *v, uint32_t index)", at_type, nsc_cg_coll(x->g, x->s, "at"), x->r));
    nsc_p_line(c, "return index < %s(v) ? %s : NULL;", nsc_cg_coll(x->g, x->s, "count"), at_expr);
    end(x);
}

static void list_helpers(helper *x)
{
    nsc_cgen *g = x->g;
    nsc_printer *c = g->c;
    const nsc_type *e = x->f->sem.type->elem;
    const char *p = param(g, e);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, %svalue)", nsc_cg_coll(g, x->s, "add"), x->r, p));
    nsc_p_line(c, "return %s(v, %s.count, value);", nsc_cg_coll(g, x->s, "insert"), x->c);
    end(x);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t i, %svalue)", nsc_cg_coll(g, x->s, "insert"), x->r, p));
    count_line(x);
    nsc_p_line(c, "if (n >= %uu) return NS_ERR_CAPACITY;", x->n);
    nsc_p_line(c, "if (i > n) return NS_ERR_RANGE;");
    const char *arg = argument(x, e);
    shift(x, "items", true);
    store(x, e, NSC_FMT(g, "%s.items[i]", x->c), arg);
    nsc_p_line(c, "%s.count = (uint16_t)(n + 1);", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t i)", nsc_cg_coll(g, x->s, "remove"), x->r));
    count_line(x);
    nsc_p_line(c, "if (i >= n) return NS_ERR_RANGE;");
    shift(x, "items", false);
    nsc_p_line(c, "%s.count = (uint16_t)(n - 1);", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t i, %svalue)", nsc_cg_coll(g, x->s, "set"), x->r, p));
    count_line(x);
    nsc_p_line(c, "if (i >= n) return NS_ERR_RANGE;");
    arg = argument(x, e);
    nsc_p_line(c, "if (!(%s)) return NS_OK;", differs_arg(x, e, NSC_FMT(g, "%s.items[i]", x->c), arg));
    store(x, e, NSC_FMT(g, "%s.items[i]", x->c), arg);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "int32_t %s(const %s *v, %svalue)", nsc_cg_coll(g, x->s, "find"), x->r, p));
    count_line(x);
    arg = argument(x, e);
    nsc_p_line(c, "for (uint32_t i = 0; i < n; i++)");
    nsc_p_line(c, "    if (!(%s)) return (int32_t)i;", differs_arg(x, e, NSC_FMT(g, "%s.items[i]", x->c), arg));
    nsc_p_line(c, "return -1;");
    end(x);
    if (e->kind == NSC_T_STRING) common_tail(x, "const char *", NSC_FMT(g, "%s.items[index]", x->c));
    else common_tail(x, NSC_FMT(g, "const %s *", nsc_cg_value_type(g, e)), NSC_FMT(g, "&%s.items[index]", x->c));
}

/* Prints text that may hold several lines, one statement each. */
static void emit_lines(nsc_printer *c, const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        nsc_p_line(c, "%.*s", (int)len, p);
        p += len + (nl ? 1 : 0);
    }
}

/* Stores the helper's key argument at index i of array a; a string key (already checked) with
 * the rest of its room zeroed, so equal keys are equal bytes. */
static void store_key(helper *x, bool text, const char *a)
{
    if (!text) {
        nsc_p_line(x->g->c, "%s.%s[i] = key;", x->c, a);
        return;
    }
    nsc_p_line(x->g->c, "memset(%s.%s[i], 0, sizeof %s.%s[i]);", x->c, a, x->c, a);
    nsc_p_line(x->g->c, "memcpy(%s.%s[i], key, strlen(key));", x->c, a);
}

/* Sets and maps: keys kept ascending, found by binary search. */
static void keyed_helpers(helper *x)
{
    nsc_cgen *g = x->g;
    nsc_printer *c = g->c;
    const nsc_type *t = x->f->sem.type;
    bool map = t->kind == NSC_T_MAP;
    const nsc_slot *k = map ? x->s->key : x->s->elem;
    const nsc_type *kt = map ? t->key : t->elem;
    const char *keys = map ? "keys" : "items", *ops = nsc_cg_coll(g, x->s, "ops");
    bool text = kt->kind == NSC_T_STRING; /* string keys: checked, never cut (two keys could become one) */
    const char *search = text ? NSC_FMT(g, "ns_key_search_text(&%s.key, %s.%s, n, key)", ops, x->c, keys)
                              : NSC_FMT(g, "ns_key_search(&%s.key, %s.%s, n, %s)", ops, x->c, keys, ordered_arg(x, k, "key"));
    const char *invalid = text ? NSC_FMT(g, "const ns_status bad = ns_key_text_check(&%s.key, key);\n"
                                            "if (bad != NS_OK) return bad;", ops)
                               : NSC_FMT(g, "if (!ns_key_valid(&%s.key, %s)) return NS_ERR_RANGE;", ops, ordered_arg(x, k, "key"));
    const char *pk = param(g, kt);
    if (map) {
        const nsc_type *vt = t->elem;
        begin(x, NSC_FMT(g, "ns_status %s(%s *v, %skey, %svalue)", nsc_cg_coll(g, x->s, "set"), x->r, pk, param(g, vt)));
        emit_lines(c, invalid);
        count_line(x);
        const char *arg = argument(x, vt);
        nsc_p_line(c, "const int32_t at = %s;", search);
        nsc_p_open(c, "if (at >= 0) {");
        nsc_p_line(c, "if (!(%s)) return NS_OK;", differs_arg(x, vt, NSC_FMT(g, "%s.values[at]", x->c), arg));
        store(x, vt, NSC_FMT(g, "%s.values[at]", x->c), arg);
        nsc_p_close(c, "} else {");
        c->indent++;
        nsc_p_line(c, "if (n >= %uu) return NS_ERR_CAPACITY;", x->n);
        nsc_p_line(c, "const uint32_t i = (uint32_t)(-at - 1);");
        shift(x, "keys", true);
        shift(x, "values", true);
        store_key(x, text, "keys");
        store(x, vt, NSC_FMT(g, "%s.values[i]", x->c), arg);
        nsc_p_line(c, "%s.count = (uint16_t)(n + 1);", x->c);
        nsc_p_close(c, "}");
    } else {
        begin(x, NSC_FMT(g, "ns_status %s(%s *v, %skey)", nsc_cg_coll(g, x->s, "add"), x->r, pk));
        emit_lines(c, invalid);
        count_line(x);
        nsc_p_line(c, "const int32_t at = %s;", search);
        nsc_p_line(c, "if (at >= 0) return NS_OK;");
        nsc_p_line(c, "if (n >= %uu) return NS_ERR_CAPACITY;", x->n);
        nsc_p_line(c, "const uint32_t i = (uint32_t)(-at - 1);");
        shift(x, "items", true);
        store_key(x, text, "items");
        nsc_p_line(c, "%s.count = (uint16_t)(n + 1);", x->c);
    }
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, %skey)", nsc_cg_coll(g, x->s, "remove"), x->r, pk));
    count_line(x);
    nsc_p_line(c, "const int32_t at = %s;", search);
    nsc_p_line(c, "if (at < 0) return NS_ERR_UNKNOWN_ID;");
    nsc_p_line(c, "const uint32_t i = (uint32_t)at;");
    shift(x, keys, false);
    if (map) shift(x, "values", false);
    nsc_p_line(c, "%s.count = (uint16_t)(n - 1);", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "int32_t %s(const %s *v, %skey)", nsc_cg_coll(g, x->s, "find"), x->r, pk));
    count_line(x);
    nsc_p_line(c, "const int32_t i = %s;", search);
    nsc_p_line(c, "return i >= 0 ? i : -1;");
    end(x);
    const nsc_type *at = t->elem; /* a map's value, a set's key */
    const char *arr = map ? "values" : "items";
    if (at->kind == NSC_T_STRING) common_tail(x, "const char *", NSC_FMT(g, "%s.%s[index]", x->c, arr));
    else common_tail(x, NSC_FMT(g, "const %s *", nsc_cg_value_type(g, at)), NSC_FMT(g, "&%s.%s[index]", x->c, arr));
}

static void fastarray_helpers(helper *x)
{
    nsc_cgen *g = x->g;
    nsc_printer *c = g->c;
    const nsc_type *e = x->f->sem.type->elem;
    const char *p = param(g, e), *item = nsc_cg_coll(g, x->s, "item");
    const char *find = NSC_FMT(g, "ns_fa_find(%s.items, n, sizeof %s.items[0], id)", x->c, x->c);
    const char *new_id = NSC_FMT(g, "ns_fa_new_id(%s.items, n, sizeof %s.items[0], &%s.next_id, &%s.wrapped)", x->c, x->c,
                                 x->c, x->c);
    bool ordered = x->f->sem.ordered;
    /* _add (and _insert): a new ID, key 1. */
    for (int insert = 0; insert < (ordered ? 2 : 1); insert++) {
        if (insert) begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t i, %svalue, uint32_t *id)", nsc_cg_coll(g, x->s, "insert"), x->r, p));
        else begin(x, NSC_FMT(g, "ns_status %s(%s *v, %svalue, uint32_t *id)", nsc_cg_coll(g, x->s, "add"), x->r, p));
        count_line(x);
        nsc_p_line(c, "if (n >= %uu) return NS_ERR_CAPACITY;", x->n);
        if (insert) nsc_p_line(c, "if (i > n) return NS_ERR_RANGE;");
        else nsc_p_line(c, "const uint32_t i = n;");
        nsc_p_line(c, "const uint32_t new_id = %s;", new_id);
        if (insert) shift(x, "items", true);
        nsc_p_line(c, "%s.items[i].id = new_id;", x->c);
        nsc_p_line(c, "%s.items[i].key = 1;", x->c);
        nsc_p_line(c, "%s.items[i].value = *value;", x->c);
        nsc_p_line(c, "%s.count = (uint16_t)(n + 1);", x->c);
        if (*x->mark) nsc_p_line(c, "%s", x->mark);
        nsc_p_line(c, "if (id) *id = new_id;");
        nsc_p_line(c, "return NS_OK;");
        end(x);
    }
    if (ordered) {
        begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t id, uint32_t to)", nsc_cg_coll(g, x->s, "move"), x->r));
        count_line(x);
        nsc_p_line(c, "const int32_t at = id ? %s : -1;", find);
        /* at < n always holds (the search looks at n items), but gcc -O2 cannot see it: with a
         * capacity of 1 it takes the branch at > to >= 0 for items[1] (-Warray-bounds). */
        nsc_p_line(c, "if (at < 0 || (uint32_t)at >= n) return NS_ERR_UNKNOWN_ID;");
        nsc_p_line(c, "if (to >= n) return NS_ERR_RANGE;");
        nsc_p_line(c, "if ((uint32_t)at == to) return NS_OK;");
        nsc_p_line(c, "const %s moving = %s.items[at];", item, x->c);
        nsc_p_line(c, "if ((uint32_t)at < to) memmove(&%s.items[at], &%s.items[at + 1], (to - (uint32_t)at) * sizeof moving);", x->c, x->c);
        nsc_p_line(c, "else memmove(&%s.items[to + 1], &%s.items[to], ((uint32_t)at - to) * sizeof moving);", x->c, x->c);
        nsc_p_line(c, "%s.items[to] = moving;", x->c);
        if (*x->mark) nsc_p_line(c, "%s", x->mark);
        nsc_p_line(c, "return NS_OK;");
        end(x);
    }
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t id)", nsc_cg_coll(g, x->s, "remove"), x->r));
    count_line(x);
    nsc_p_line(c, "const int32_t at = id ? %s : -1;", find);
    nsc_p_line(c, "if (at < 0) return NS_ERR_UNKNOWN_ID;");
    nsc_p_line(c, "const uint32_t i = (uint32_t)at;");
    shift(x, "items", false);
    nsc_p_line(c, "%s.count = (uint16_t)(n - 1);", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "ns_status %s(%s *v, uint32_t id, %svalue)", nsc_cg_coll(g, x->s, "set"), x->r, p));
    count_line(x);
    nsc_p_line(c, "const int32_t at = id ? %s : -1;", find);
    nsc_p_line(c, "if (at < 0) return NS_ERR_UNKNOWN_ID;");
    nsc_p_line(c, "if (%s(&%s.items[at].value, value)) return NS_OK;", nsc_cg_fn(g, e->decl, "equal"), x->c);
    nsc_p_line(c, "%s.items[at].value = *value;", x->c);
    nsc_p_line(c, "%s.items[at].key++;", x->c);
    if (*x->mark) nsc_p_line(c, "%s", x->mark);
    nsc_p_line(c, "return NS_OK;");
    end(x);
    begin(x, NSC_FMT(g, "int32_t %s(const %s *v, uint32_t id)", nsc_cg_coll(g, x->s, "find"), x->r));
    count_line(x);
    nsc_p_line(c, "return id ? %s : -1;", find);
    end(x);
    common_tail(x, NSC_FMT(g, "const %s *", item), NSC_FMT(g, "&%s.items[index]", x->c));
}

void nsc_cg_coll_helpers(nsc_cgen *g, const nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!nsc_type_is_collection(f->sem.type)) continue;
        helper x = {g, d, f, nsc_cg_field_slot(d->layout, f), nsc_cg_name(g, d), NSC_FMT(g, "v->%s", f->name.text),
                    nsc_cg_has_dirty(d) ? NSC_FMT(g, "v->ns_dirty[%zu] |= UINT32_C(1) << %zu;", i / 32, i % 32) : "",
                    f->sem.type->capacity};
        switch (f->sem.type->kind) {
        case NSC_T_LIST: list_helpers(&x); break;
        case NSC_T_FASTARRAY: fastarray_helpers(&x); break;
        default: keyed_helpers(&x); break;
        }
    }
}
