/* emit_c_types.c — the header's types: enums, value structs, snapshot structs, hooks, macros
 * and the prototypes of every generated function. */
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"

const char *nsc_cg_name(nsc_cgen *g, const nsc_decl *d)
{
    return nsc_cname(g->a, d);
}

const char *nsc_cg_fn(nsc_cgen *g, const nsc_decl *d, const char *suffix)
{
    return nsc_cname_suffix(g->a, d, suffix);
}

const char *nsc_cg_macro(nsc_cgen *g, const nsc_decl *d, const char *suffix)
{
    return nsc_macro_name(g->a, d, suffix);
}

bool nsc_cg_has_dirty(const nsc_decl *d)
{
    return d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT;
}

const char *nsc_cg_value_type(nsc_cgen *g, const nsc_type *t)
{
    switch (t->kind) {
    case NSC_T_BOOL: return "bool";
    case NSC_T_F32: return "float";
    case NSC_T_F64: return "double";
    case NSC_T_VEC2: return "ns_vec2";
    case NSC_T_VEC3: return "ns_vec3";
    case NSC_T_VEC4: return "ns_vec4";
    case NSC_T_QUAT: return "ns_quat";
    case NSC_T_ENTITY: return "ns_entity";
    case NSC_T_ENUM:
    case NSC_T_STRUCT:
    case NSC_T_EXTERN:
    case NSC_T_UNION: return nsc_cg_name(g, t->decl);
    default: return nsc_int_ctype(t);
    }
}

const nsc_slot *nsc_cg_field_slot(const nsc_layout *l, const nsc_field *f)
{
    for (size_t i = 0; i < l->nslots; i++) {
        if (l->slots[i].top == f && l->slots[i].field == f) return &l->slots[i];
        /* An element of a @composite array: its slot inside the array's one slot. */
        if (l->slots[i].enc == NSC_ENC_ARRAY && f->array_of == l->slots[i].field)
            return &l->slots[i].composite->slots[f->array_index];
    }
    return NULL;
}

/* Struct dependencies first (depth-first, post-order), then everything in declaration order.
 * Visited flags are a byte per declaration, by index: a name map would cost far more. */
static void visit(nsc_cgen *g, const nsc_decl *d, unsigned char *seen)
{
    if (d->unit != g->u || seen[d->index]) return;
    seen[d->index] = 1;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_type *t = d->fields[i]->sem.type;
        while (t && t->elem) t = t->elem;
        if (t && (t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION)) visit(g, t->decl, seen);
    }
    g->order[g->norder++] = d;
}

void nsc_cg_record_order(nsc_cgen *g)
{
    size_t n = g->u->ndecls;
    unsigned char *seen = nsc_xrealloc(NULL, n);
    memset(seen, 0, n);
    g->order = nsc_xrealloc(NULL, (n ? n : 1) * sizeof *g->order);
    g->norder = 0;
    for (size_t i = 0; i < n; i++)
        if (nsc_decl_is_record(g->u->decls[i]) || g->u->decls[i]->kind == NSC_D_UNION) visit(g, g->u->decls[i], seen);
    free(seen);
}

/* ---- enums ------------------------------------------------------------------------------ */

static void header_enum(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *h = g->h;
    const char *name = nsc_cg_name(g, d);
    nsc_p_blank(h);
    nsc_p_doc(h, d->doc);
    nsc_p_line(h, "typedef %s %s;", nsc_int_ctype(d->underlying_type), name);
    for (size_t i = 0; i < d->nvalues; i++) {
        const nsc_enum_value *v = d->values[i];
        if (v->doc) nsc_p_doc(h, v->doc);
        nsc_p_line(h, "#define %s ((%s)%lld)", nsc_enum_value_cname(g->a, d, v), name, (long long)v->resolved);
    }
    nsc_p_line(h, "#define %s %zuu", nsc_cg_macro(g, d, "COUNT"), d->nvalues);
    nsc_p_empty(h);
    nsc_p_comment(h, "True if v is one of %s's values.", name);
    nsc_p_line(h, "static inline bool %s(int64_t v)", nsc_cg_fn(g, d, "is_valid"));
    nsc_p_open(h, "{");
    nsc_p_line(h, "switch (v) {");
    for (size_t i = 0; i < d->nvalues; i++) nsc_p_line(h, "case %lld:", (long long)d->values[i]->resolved);
    nsc_p_line(h, "    return true;");
    nsc_p_line(h, "default:");
    nsc_p_line(h, "    return false;");
    nsc_p_line(h, "}");
    nsc_p_close(h, "}");
    nsc_p_comment(h, "The value's name as written in the schema, or \"?\".");
    nsc_p_line(h, "const char *%s(%s v);", nsc_cg_fn(g, d, "name"), name);
    nsc_p_comment(h, "Its values and their names, for generic tools; the descriptors of enum fields point here.");
    nsc_p_line(h, "extern const ns_enum_desc %s;", nsc_cg_fn(g, d, "desc"));
}

void nsc_cg_enum_functions(nsc_cgen *g)
{
    for (size_t k = 0; k < g->u->ndecls; k++) {
        const nsc_decl *d = g->u->decls[k];
        if (d->kind != NSC_D_ENUM) continue;
        nsc_printer *c = g->c;
        nsc_p_blank(c);
        nsc_p_open(c, "const char *%s(%s v)", nsc_cg_fn(g, d, "name"), nsc_cg_name(g, d));
        c->indent--;
        nsc_p_line(c, "{");
        c->indent++;
        nsc_p_line(c, "switch ((int64_t)v) {");
        for (size_t i = 0; i < d->nvalues; i++) {
            if (i > 0 && d->values[i]->resolved == d->values[i - 1]->resolved) continue;
            nsc_p_line(c, "case %lld: return \"%s\";", (long long)d->values[i]->resolved, d->values[i]->name.text);
        }
        nsc_p_line(c, "default: return \"?\";");
        nsc_p_line(c, "}");
        nsc_p_close(c, "}");
    }
}

/* ---- structs ---------------------------------------------------------------------------- */

/* The declarator of a member: its name, "name[N]" for the first element of an array (the C
 * declarator suffix of T then follows: "char names[4][33]"), NULL for its other elements. */
static const char *array_declarator(nsc_cgen *g, const nsc_field *f)
{
    if (!f->array_of) return f->name.text;
    if (f->array_index > 0) return NULL;
    return NSC_FMT(g, "%s[%u]", f->array_of->name.text, f->array_of->sem.array_n);
}

/* A value-struct member: "int32_t hp", "char name[33]", "struct {...} blob". */
static void value_member(nsc_cgen *g, const nsc_decl *d, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *n = array_declarator(g, f);
    if (!n) return;
    if (f->doc) nsc_p_doc(g->h, f->doc);
    if (nsc_type_is_collection(t)) nsc_p_line(g->h, "%s %s;", nsc_coll_name(g->a, d, f, ""), n);
    else if (t->kind == NSC_T_STRING) nsc_p_line(g->h, "char %s[%u + 1]; /* UTF-8, NUL-terminated */", n, t->capacity);
    else if (t->kind == NSC_T_BYTES) nsc_p_line(g->h, "struct { uint16_t len; uint8_t data[%u]; } %s;", t->capacity, n);
    else nsc_p_line(g->h, "%s %s;", nsc_cg_value_type(g, t), n);
}

/* A snapshot member, as the layout codes it. */
static void snap_member(nsc_cgen *g, const nsc_layout *l, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *n = array_declarator(g, f);
    if (!n) return;
    if (t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION) {
        nsc_p_line(g->h, "%s_snap %s;", nsc_cg_name(g, t->decl), n);
        return;
    }
    const nsc_slot *s = nsc_cg_field_slot(l, f);
    const char *note = "";
    switch (s->enc) {
    case NSC_ENC_VEC_Q:
    case NSC_ENC_QUAT_Q:
    case NSC_ENC_QUANT: note = NSC_FMT(g, " /* quantized: round(v * %g) */", s->scale); break;
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F: note = " /* float bit patterns */"; break;
    case NSC_ENC_FLOAT32:
    case NSC_ENC_FLOAT64: note = " /* bit pattern */"; break;
    case NSC_ENC_QUAT_S3: note = NSC_FMT(g, " /* smallest-three, %u bits per component */", s->raw_bits); break;
    default: break;
    }
    nsc_p_line(g->h, "%s;%s", nsc_cg_snap_decl(g, s, n), note);
}

static unsigned dirty_words(const nsc_decl *d)
{
    return (unsigned)((d->nfields + 31) / 32);
}

/* A hook parameter for an element of type t: as @notify hooks take values (emit_c_coll.c's
 * hook_arg passes them so). */
static const char *hook_param(nsc_cgen *g, const nsc_type *t, const char *name)
{
    if (t->kind == NSC_T_STRING) return NSC_FMT(g, "const char *%s", name);
    if (t->kind == NSC_T_STRUCT || nsc_type_is_vector(t) || t->kind == NSC_T_QUAT)
        return NSC_FMT(g, "const %s *%s", nsc_cg_value_type(g, t), name);
    return NSC_FMT(g, "%s %s", nsc_cg_value_type(g, t), name);
}

/* The per-element event hooks of list, set or map field f (idl/SPEC.md, "Per-element
 * collection events"). */
static void event_hooks(nsc_cgen *g, const char *name, const nsc_field *f)
{
    nsc_printer *h = g->h;
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    if (t->kind == NSC_T_LIST) {
        const nsc_type *e = t->elem;
        nsc_p_line(h, "void (*%s_insert)(void *ctx, %s *live, uint32_t index, %s);", m, name, hook_param(g, e, "value"));
        nsc_p_line(h, "void (*%s_set)(void *ctx, %s *live, uint32_t index, %s, %s);", m, name, hook_param(g, e, "old_value"),
                   hook_param(g, e, "new_value"));
        nsc_p_line(h, "void (*%s_remove)(void *ctx, %s *live, uint32_t index, %s); /* still in live */", m, name,
                   hook_param(g, e, "old_value"));
        nsc_p_line(h, "void (*%s_clear)(void *ctx, %s *live); /* emptied; NULL: a remove per element */", m, name);
        return;
    }
    if (t->kind == NSC_T_SET) {
        nsc_p_line(h, "void (*%s_add)(void *ctx, %s *live, %s);", m, name, hook_param(g, t->elem, "key"));
        nsc_p_line(h, "void (*%s_remove)(void *ctx, %s *live, %s); /* still in live */", m, name, hook_param(g, t->elem, "key"));
        return;
    }
    const char *k = hook_param(g, t->key, "key");
    nsc_p_line(h, "void (*%s_add)(void *ctx, %s *live, %s, %s);", m, name, k, hook_param(g, t->elem, "value"));
    nsc_p_line(h, "void (*%s_set)(void *ctx, %s *live, %s, %s, %s);", m, name, k, hook_param(g, t->elem, "old_value"),
               hook_param(g, t->elem, "new_value"));
    nsc_p_line(h, "void (*%s_remove)(void *ctx, %s *live, %s, %s); /* still in live */", m, name, k,
               hook_param(g, t->elem, "old_value"));
}

/* True if d has a field _apply calls a hook for: @notify, or a collection. */
static bool has_hooks(const nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++)
        if (d->fields[i]->sem.notify || nsc_type_is_collection(d->fields[i]->sem.type)) return true;
    return false;
}

static void hooks_struct(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *h = g->h;
    const char *name = nsc_cg_name(g, d);
    if (!has_hooks(d)) {
        nsc_p_comment(h, "%s has no hooks: no @notify field and no collection.", nsc_cg_fn(g, d, "apply"));
        nsc_p_line(h, "typedef struct %s_hooks { void *ns_unused; } %s_hooks;", name, name);
        return;
    }
    nsc_p_comment(h, "Hooks %s calls (NULL members are skipped): per list, set and map element and per fast-array",
                  nsc_cg_fn(g, d, "apply"));
    nsc_p_comment(h, "item, removes first; then, once the whole component is updated, the @notify fields that changed.");
    nsc_p_open(h, "typedef struct %s_hooks {", name);
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        const nsc_type *t = f->sem.type;
        if (t->kind == NSC_T_FASTARRAY) {
            const char *item = nsc_coll_name(g->a, d, f, "item"), *m = f->name.text;
            nsc_p_line(h, "void (*%s_remove)(void *ctx, %s *live, const %s *item); /* item still in live */", m, name, item);
            nsc_p_line(h, "void (*%s_add)(void *ctx, %s *live, const %s *item);", m, name, item);
            nsc_p_line(h, "void (*%s_change)(void *ctx, %s *live, const %s *item, const %s *old);", m, name, item, item);
            continue;
        }
        if (f->sem.notify && f->array_of) {
            /* A fixed array: one hook, called per changed element with its index. */
            if (f->array_index > 0) continue;
            const char *vt = t->kind == NSC_T_BYTES ? "void" : nsc_cg_value_type(g, t), *m = f->array_of->name.text;
            if (t->kind == NSC_T_STRING)
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, uint32_t index, const char *old_value, const char *new_value);",
                           m, name);
            else if (t->kind == NSC_T_BYTES || t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION || nsc_type_is_vector(t) ||
                     t->kind == NSC_T_QUAT)
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, uint32_t index, const %s *old_value, const %s *new_value);",
                           m, name, vt, vt);
            else
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, uint32_t index, %s old_value, %s new_value);", m, name, vt, vt);
            continue;
        }
        if (f->sem.notify) {
            if (nsc_type_is_collection(t))
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live); /* after it changed */", f->name.text, name);
            else if (t->kind == NSC_T_STRING)
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, const char *old_value, const char *new_value);", f->name.text, name);
            else if (t->kind == NSC_T_BYTES || t->kind == NSC_T_STRUCT || t->kind == NSC_T_UNION || nsc_type_is_vector(t) ||
                     t->kind == NSC_T_QUAT)
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, const %s *old_value, const %s *new_value);", f->name.text, name,
                           t->kind == NSC_T_BYTES ? "void" : nsc_cg_value_type(g, t),
                           t->kind == NSC_T_BYTES ? "void" : nsc_cg_value_type(g, t));
            else
                nsc_p_line(h, "void (*%s)(void *ctx, %s *live, %s old_value, %s new_value);", f->name.text, name,
                           nsc_cg_value_type(g, t), nsc_cg_value_type(g, t));
        }
        if (nsc_type_is_collection(t)) event_hooks(g, name, f);
    }
    nsc_p_close(h, "} %s_hooks;", name);
}

/* What every record's types and macros are, said once before the first record. */
static const char *const types_legend[] = {
    "/* Each record T below has a value struct T, which the game reads and writes (set the fields of a",
    " * component or input through the setters below to keep its dirty bits), and a snapshot T_snap,",
    " * its quantized state: exactly what travels on the wire. A component also has T_hooks, the",
    " * callbacks its _apply calls. T_MAX_BITS and T_MAX_BYTES are the largest write of one T, T_HASH",
    " * its protocol hash (netschemac --hash), and T_ID (not for structs) its type id. */",
};

static void header_record(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *h = g->h;
    const char *name = nsc_cg_name(g, d);
    const nsc_layout *l = d->layout;
    nsc_p_blank(h);
    nsc_p_line(h, "/* ---- %s %s ---- */", nsc_decl_kind_name(d->kind), d->name.text);
    nsc_cg_coll_types(g, d);
    nsc_p_empty(h);
    nsc_p_doc(h, d->doc);
    nsc_p_open(h, "typedef struct %s {", name);
    for (size_t i = 0; i < d->nfields; i++) value_member(g, d, d->fields[i]);
    if (d->nfields == 0) nsc_p_line(h, "uint8_t ns_unused; /* no fields */");
    if (nsc_cg_has_dirty(d) && d->nfields)
        nsc_p_line(h, "uint32_t ns_dirty[%u]; /* see _is_dirty */", dirty_words(d));
    nsc_p_close(h, "} %s;", name);
    nsc_p_empty(h);
    nsc_p_open(h, "typedef struct %s_snap {", name);
    for (size_t i = 0; i < d->nfields; i++) snap_member(g, l, d->fields[i]);
    if (d->nfields == 0) nsc_p_line(h, "uint8_t ns_unused; /* no fields */");
    nsc_p_close(h, "} %s_snap;", name);
    if (d->kind == NSC_D_COMPONENT) {
        nsc_p_empty(h);
        hooks_struct(g, d);
    }
    nsc_p_empty(h);
    nsc_p_line(h, "#define %s %uu", nsc_cg_macro(g, d, "MAX_BITS"), l->max_bits_all);
    nsc_p_line(h, "#define %s %uu", nsc_cg_macro(g, d, "MAX_BYTES"), (l->max_bits_all + 7) / 8);
    if (d->kind != NSC_D_STRUCT) nsc_p_line(h, "#define %s %uu", nsc_cg_macro(g, d, "ID"), d->id);
    nsc_p_line(h, "#define %s UINT64_C(0x%016llx)", nsc_cg_macro(g, d, "HASH"), (unsigned long long)d->hash);
}

void nsc_cg_header_types(nsc_cgen *g)
{
    nsc_printer *h = g->h;
    bool consts = false;
    for (size_t i = 0; i < g->u->ndecls; i++) {
        const nsc_decl *d = g->u->decls[i];
        if (d->kind != NSC_D_CONST) continue;
        if (!consts) nsc_p_blank(h), nsc_p_line(h, "/* ---- constants ---- */"), nsc_p_empty(h);
        consts = true;
        nsc_p_doc(h, d->doc);
        if (d->const_value == INT64_MIN) /* -9223372036854775808LL negates a literal too big for long long */
            nsc_p_line(h, "#define %s (-9223372036854775807LL - 1)", nsc_macro_name(g->a, d, NULL));
        else
            nsc_p_line(h, "#define %s %lldLL", nsc_macro_name(g->a, d, NULL), (long long)d->const_value);
    }
    for (size_t i = 0; i < g->u->ndecls; i++)
        if (g->u->decls[i]->kind == NSC_D_ENUM) header_enum(g, g->u->decls[i]);
    const nsc_decl **order = g->order;
    size_t n = g->norder;
    if (n) {
        nsc_p_blank(h);
        nsc_p_lines(h, types_legend, sizeof types_legend / sizeof types_legend[0]);
    }
    for (size_t i = 0; i < n; i++) {
        nsc_arena_mark mark = nsc_arena_get_mark(g->a); /* see source() in emit_c.c */
        if (order[i]->kind == NSC_D_UNION) nsc_cg_union_types(g, order[i]);
        else header_record(g, order[i]);
        nsc_arena_release(g->a, mark);
    }
}

/* ---- prototypes ------------------------------------------------------------------------- */

/* The functions every record has, documented once at the head of the functions instead of
 * before each prototype: the same sentences on every record were a third of the header. */
static const char *const functions_legend[] = {
    "/* Each record T below (a struct, component, input or rpc) has these functions, documented here",
    " * once (docs/generated-api.md section 6 has the details):",
    " *   T_init           sets every field to its schema default;",
    " *   T_quantize       quantizes (and clamps to @range) a value into its snapshot;",
    " *   T_dequantize     the value a snapshot stands for;",
    " *   T_snap_equal     true if two snapshots are identical;",
    " *   T_equal          true if two values are identical, field by field (floats bitwise);",
    " *   T_write          writes cur: a component's against the baselines for one audience, an input's",
    " *                    against the previous input, a struct's against ref (NULL or no baseline:",
    " *                    against the defaults); an rpc's whole, a field at its default in one bit;",
    " *   T_read           reads what _write wrote, given the same baselines and audience, previous",
    " *                    input or ref; on error out keeps what it held;",
    " *   T_interpolate    (structs, components) fills out between two snapshots per @smooth (t = 0",
    " *                    at from, 1 at to);",
    " *   T_apply          (components) brings live to s: collections element by element with their",
    " *                    hooks, then the @notify hooks;",
    " *   T_set_<field>    (components, inputs) sets a field, or element index of an array (an index",
    " *                    past the end changes nothing), and marks it dirty if the value changed;",
    " *   T_is_dirty       true if a setter or collection helper changed a field since _clear_dirty;",
    " *   T_clear_dirty    forgets those changes;",
    " *   T_desc           the record's descriptor, for generic tools (netschema/desc.h).",
    " * A table-driven record's setters, _is_dirty and _clear_dirty are macros over its value table",
    " * T_values (netschema/table.h). Collection helpers are documented where they are declared. */",
};

static void prototypes(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, d);
    nsc_p_blank(h);
    nsc_p_line(h, "/* %s */", n);
    nsc_p_line(h, "void %s(%s *v);", nsc_cg_fn(g, d, "init"), n);
    nsc_p_line(h, "void %s(const %s *v, %s_snap *s);", nsc_cg_fn(g, d, "quantize"), n, n);
    nsc_p_line(h, "void %s(const %s_snap *s, %s *v);", nsc_cg_fn(g, d, "dequantize"), n, n);
    nsc_p_line(h, "bool %s(const %s_snap *a, const %s_snap *b);", nsc_cg_fn(g, d, "snap_equal"), n, n);
    nsc_p_line(h, "bool %s(const %s *a, const %s *b);", nsc_cg_fn(g, d, "equal"), n, n);
    switch (d->kind) {
    case NSC_D_COMPONENT:
        nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *cur, const ns_baselines *base, ns_audience to);",
                   nsc_cg_fn(g, d, "write"), n);
        nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *out, const ns_baselines *base, ns_audience to);",
                   nsc_cg_fn(g, d, "read"), n);
        break;
    case NSC_D_INPUT:
        nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *cur, const %s_snap *prev);", nsc_cg_fn(g, d, "write"), n, n);
        nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *out, const %s_snap *prev);", nsc_cg_fn(g, d, "read"), n, n);
        break;
    case NSC_D_RPC:
        nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *cur);", nsc_cg_fn(g, d, "write"), n);
        nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *out);", nsc_cg_fn(g, d, "read"), n);
        break;
    default:
        nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *cur, const %s_snap *ref);", nsc_cg_fn(g, d, "write"), n, n);
        nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *out, const %s_snap *ref);", nsc_cg_fn(g, d, "read"), n, n);
    }
    if (d->kind == NSC_D_COMPONENT || d->kind == NSC_D_STRUCT)
        nsc_p_line(h, "void %s(const %s_snap *from, const %s_snap *to, float t, %s *out);", nsc_cg_fn(g, d, "interpolate"),
                   n, n, n);
    if (d->kind == NSC_D_COMPONENT)
        nsc_p_line(h, "void %s(%s *live, const %s_snap *s, const %s_hooks *hooks, void *ctx);", nsc_cg_fn(g, d, "apply"), n,
                   n, n);
    nsc_cg_setter_prototypes(g, d);
    nsc_cg_coll_prototypes(g, d);
    nsc_p_line(h, "extern const ns_type_desc %s;", nsc_cg_fn(g, d, "desc"));
}

void nsc_cg_header_functions(nsc_cgen *g)
{
    const nsc_decl **order = g->order;
    size_t n = g->norder;
    nsc_p_blank(g->h);
    nsc_p_line(g->h, "/* ---- functions ---- */");
    nsc_p_empty(g->h);
    nsc_p_lines(g->h, functions_legend, sizeof functions_legend / sizeof functions_legend[0]);
    size_t records = 0; /* unions have no place in the type table */
    for (size_t i = 0; i < n; i++) {
        nsc_arena_mark mark = nsc_arena_get_mark(g->a);
        if (order[i]->kind == NSC_D_UNION) nsc_cg_union_prototypes(g, order[i]);
        else prototypes(g, order[i]), records++;
        nsc_arena_release(g->a, mark);
    }
    nsc_p_blank(g->h);
    nsc_p_comment(g->h, "Every type of this schema, for generic tools.");
    nsc_p_line(g->h, "extern const ns_type_desc *const %s_types[];", g->u->prefix);
    nsc_p_line(g->h, "#define %s %zuu", nsc_unit_macro(g->a, g->u, "TYPE_COUNT"), records);
}
