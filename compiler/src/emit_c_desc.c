/* emit_c_desc.c — descriptors for generic tools (dumps, inspectors, bandwidth profiles): one
 * ns_type_desc per type with a field descriptor per change-mask slot, and the schema's table of
 * types. A descriptor holds what a walker needs to decode a record as the generated _read does
 * (netschema/dump.h): widths and signedness, effective bounds, enum values, the collections'
 * ops and the default snapshot. Never on the hot path. */
#include <netschema/desc.h> /* the NS_FIELD_* flags, printed as a number */

#include "emit_c.h"

static const char *kind_name(nsc_decl_kind k)
{
    switch (k) {
    case NSC_D_COMPONENT: return "NS_KIND_COMPONENT";
    case NSC_D_INPUT: return "NS_KIND_INPUT";
    case NSC_D_RPC: return "NS_KIND_RPC";
    default: return "NS_KIND_STRUCT";
    }
}

static const char *enc_name(nsc_enc e)
{
    static const char *const names[] = {
        "NS_ENC_BOOL", "NS_ENC_INT", "NS_ENC_INT64", "NS_ENC_RAW", "NS_ENC_QUANT", "NS_ENC_FLOAT32", "NS_ENC_FLOAT64",
        "NS_ENC_VEC_Q", "NS_ENC_VEC_F", "NS_ENC_QUAT_Q", "NS_ENC_QUAT_S3", "NS_ENC_QUAT_F", "NS_ENC_STRING",
        "NS_ENC_BYTES", "NS_ENC_COMPOSITE", "NS_ENC_LIST", "NS_ENC_MAP", "NS_ENC_SET", "NS_ENC_FASTARRAY",
        "NS_ENC_ARRAY", "NS_ENC_CUSTOM", "NS_ENC_UNION",
    };
    return names[e];
}

/* An int64_t constant: plain when an int holds it (every C and C++ compiler widens it as is). */
static const char *i64(nsc_cgen *g, int64_t v)
{
    if (v >= -32767 && v <= 32767) return NSC_FMT(g, "%lld", (long long)v);
    return v == INT64_MIN ? "(-INT64_C(9223372036854775807) - 1)" : NSC_FMT(g, "INT64_C(%lld)", (long long)v);
}

/* The slot's NS_FIELD_* flags (netschema/desc.h), as one hexadecimal constant: the names would
 * be most of a descriptor's bytes. */
static const char *flags(nsc_cgen *g, const nsc_slot *s)
{
    unsigned f = 0;
    if (s->sync & NSC_TO_OWNER) f |= NS_FIELD_TO_OWNER;
    if (s->sync & NSC_TO_OTHERS) f |= NS_FIELD_TO_OTHERS;
    if (s->initial) f |= NS_FIELD_INITIAL;
    if (s->predicted) f |= NS_FIELD_PREDICTED;
    if (s->has_range) f |= NS_FIELD_RANGED;
    if (s->field && s->top == s->field && s->field->sem.notify) f |= NS_FIELD_NOTIFY;
    if (s->enc != NSC_ENC_CUSTOM && s->snap_ctype && s->snap_ctype[0] == 'u') f |= NS_FIELD_UNSIGNED;
    if (s->bounded) f |= NS_FIELD_BOUNDED;
    if (s->sync & NSC_IF_PREDICTED) f |= NS_FIELD_IF_PREDICTED;
    if (s->sync & NSC_IF_INTERPOLATED) f |= NS_FIELD_IF_INTERPOLATED;
    if (s->sync & NSC_IF_CUSTOM) f |= NS_FIELD_IF_CUSTOM;
    return NSC_FMT(g, "0x%xu", f);
}

/* The struct descriptor of a composite slot, of a collection's struct elements, or of an extern
 * struct (its name and size only). */
static const char *elem_desc(nsc_cgen *g, const nsc_slot *s)
{
    if (s->enc == NSC_ENC_STRUCT || s->enc == NSC_ENC_CUSTOM || s->enc == NSC_ENC_UNION) return NSC_FMT(g, "&%s", nsc_cg_fn(g, s->type->decl, "desc"));
    if (s->elem && s->elem->enc == NSC_ENC_STRUCT) return NSC_FMT(g, "&%s", nsc_cg_fn(g, s->elem->type->decl, "desc"));
    return "NULL";
}

/* A list's scalar element or a map's scalar value, or a @composite array's element (of any
 * kind), described as a slot of its own. */
static const nsc_slot *scalar_elem(const nsc_slot *s)
{
    if (s->enc == NSC_ENC_ARRAY) return &s->composite->slots[0];
    if (s->enc != NSC_ENC_LIST && s->enc != NSC_ENC_MAP) return NULL;
    return s->elem && s->elem->enc != NSC_ENC_STRUCT ? s->elem : NULL;
}

/* "&<prefix>_<Enum>_desc" for an enum slot (the enum's own descriptor, which every record using
 * it shares, an imported enum's in its schema's source), "NULL" for any other. */
static const char *enum_desc_ref(nsc_cgen *g, const nsc_slot *s)
{
    if (!s->type || s->type->kind != NSC_T_ENUM) return "NULL";
    return NSC_FMT(g, "&%s", nsc_cg_fn(g, s->type->decl, "desc"));
}

/* Enum en's values (each value once: an alias is left out) and its ns_enum_desc over them. */
static void enum_descriptor(nsc_cgen *g, const nsc_decl *en)
{
    nsc_printer *c = g->c;
    const char *values = nsc_cg_fn(g, en, "desc_values");
    unsigned count = 0;
    nsc_p_empty(c);
    nsc_p_open(c, "static const ns_enum_value %s[] = {", values);
    for (size_t k = 0; k < en->nvalues; k++) {
        bool alias = false;
        for (size_t m = 0; m < k && !alias; m++) alias = en->values[m]->resolved == en->values[k]->resolved;
        if (alias) continue;
        nsc_p_line(c, "{%s, \"%s\"},", i64(g, en->values[k]->resolved), en->values[k]->name.text);
        count++;
    }
    nsc_p_close(c, "};");
    nsc_p_line(c, "const ns_enum_desc %s = {\"%s\", %s, %uu};", nsc_cg_fn(g, en, "desc"), en->name.text, values, count);
}

/* The element descriptors of the record's lists and maps of scalars (what a dump prints), one
 * array in slot order; elem[i] gets "&<record>_desc_elems[k]" for slot i, "NULL" for none. */
static void elem_descs(nsc_cgen *g, const nsc_decl *d, const char **elem)
{
    const nsc_layout *l = d->layout;
    const char *name = nsc_cg_fn(g, d, "desc_elems");
    size_t k = 0;
    for (size_t i = 0; i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i], *e = scalar_elem(s);
        elem[i] = "NULL";
        if (!e) continue;
        if (k == 0) nsc_p_open(g->c, "static const ns_field_desc %s[] = {", name);
        const char *one = s->enc == NSC_ENC_ARRAY ? NSC_FMT(g, "%s[0]", s->path)
                        : NSC_FMT(g, "%s.%s[0]", s->path, s->enc == NSC_ENC_MAP ? "values" : "items");
        nsc_p_line(g->c, "{\"\", %s, %u, %u, %s, 0, 0, sizeof(((%s_snap *)0)->%s), %s, %s, %.17g, %uu, %uu, %s, %s, "
                         "NULL, NULL}, /* %s */",
                   enc_name(e->enc), e->arity, e->raw_bits, flags(g, e), nsc_cg_name(g, d), one,
                   i64(g, e->bounded ? e->lo : 0), i64(g, e->bounded ? e->hi : 0), e->scale, e->max_bits,
                   e->type->capacity, elem_desc(g, e), enum_desc_ref(g, e), s->path);
        elem[i] = NSC_FMT(g, "&%s[%zu]", name, k++);
    }
    if (k) nsc_p_close(g->c, "};");
}

void nsc_cg_enum_descriptors(nsc_cgen *g)
{
    for (size_t i = 0; i < g->u->ndecls; i++)
        if (g->u->decls[i]->kind == NSC_D_ENUM) enum_descriptor(g, g->u->decls[i]);
}

void nsc_cg_descriptor(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const nsc_layout *l = d->layout;
    const char *n = nsc_cg_name(g, d);
    const char *fields = nsc_cg_fn(g, d, "desc_fields");
    nsc_p_empty(c);
    const char **elem = nsc_arena_alloc(g->a, l->nslots * sizeof *elem);
    elem_descs(g, d, elem);
    if (l->nslots) {
        nsc_p_open(c, "static const ns_field_desc %s[] = {", fields);
        for (size_t i = 0; i < l->nslots; i++) {
            const nsc_slot *s = &l->slots[i];
            nsc_p_line(c, "{\"%s\", %s, %u, %u, %s, NS_FIELD_AT(%s, %s), %s, %s, %.17g, %uu, %uu, %s, %s, %s, %s},",
                       s->path, enc_name(s->enc), s->arity, s->raw_bits, flags(g, s), n, s->path,
                       i64(g, s->bounded ? s->lo : 0), i64(g, s->bounded ? s->hi : 0), s->scale, s->max_bits,
                       s->enc == NSC_ENC_ARRAY || s->enc == NSC_ENC_UNION ? (unsigned)s->composite->nslots
                                                                          : s->type->capacity,
                       elem_desc(g, s), enum_desc_ref(g, s),
                       nsc_type_is_collection(s->type) ? NSC_FMT(g, "&%s", nsc_cg_coll(g, s, "ops")) : "NULL", elem[i]);
        }
        nsc_p_close(c, "};");
    }
    nsc_p_open(c, "const ns_type_desc %s = {", nsc_cg_fn(g, d, "desc"));
    nsc_p_line(c, "\"%s\", \"%s\", \"%s\", %s, %uu, UINT64_C(0x%016llx),", d->name.text, n, d->unit->package,
               kind_name(d->kind), d->kind == NSC_D_STRUCT ? 0u : d->id, (unsigned long long)d->hash);
    nsc_p_line(c, "sizeof(%s), sizeof(%s_snap), %uu, %s, %zuu, &%s,", n, n, l->max_bits_all, l->nslots ? fields : "NULL",
               l->nslots, nsc_cg_fn(g, d, "snap_default"));
    nsc_p_close(c, "};");
}

void nsc_cg_extern_descriptor(nsc_cgen *g, const nsc_decl *d)
{
    /* No fields and no default snapshot: a walker given it refuses (NS_ERR_ARGUMENT). */
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(g->c);
    nsc_p_open(g->c, "const ns_type_desc %s = {", nsc_cg_fn(g, d, "desc"));
    nsc_p_line(g->c, "\"%s\", \"%s\", \"%s\", NS_KIND_STRUCT, 0u, UINT64_C(0),", d->name.text, n, d->unit->package);
    nsc_p_line(g->c, "sizeof(%s), sizeof(%s), %uu, NULL, 0u, NULL,", n, n, d->max_bits);
    nsc_p_close(g->c, "};");
}

void nsc_cg_type_table(nsc_cgen *g)
{
    nsc_printer *c = g->c;
    const nsc_decl **order = g->order;
    size_t n = g->norder;
    nsc_p_empty(c);
    nsc_p_open(c, "const ns_type_desc *const %s_types[] = {", g->u->prefix);
    size_t records = 0;
    for (size_t i = 0; i < n; i++) {
        if (order[i]->kind == NSC_D_UNION) continue; /* records only: a union is a field's type */
        records++;
        nsc_arena_mark mark = nsc_arena_get_mark(g->a); /* see source() in emit_c.c */
        nsc_p_line(c, "&%s,", nsc_cg_fn(g, order[i], "desc"));
        nsc_arena_release(g->a, mark);
    }
    if (records == 0) nsc_p_line(c, "NULL,");
    nsc_p_close(c, "};");
}
