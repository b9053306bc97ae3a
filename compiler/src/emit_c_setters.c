/* emit_c_setters.c — the dirty-tracking setters of components and inputs, _is_dirty and
 * _clear_dirty: their declarations in the header and their bodies in the source.
 *
 * A record with a value table (table-driven, nsc_cg_table_values) gets macros instead of
 * functions for its setters, _is_dirty and _clear_dirty: they expand to netschema/table.h's
 * NS_TABLE_SET and friends, which call ns_table_set (_string, _bytes, _struct) with the record's
 * value table, extern for them. gcc -O2 spends about 2.5 ms on each small function whatever its
 * size, and a macro costs nothing until used (docs/performance.md section 4). Such a record holds
 * no union or extern struct (nsc_cg_table_values refuses them). The setters of every other
 * record are functions printed here. */
#include "emit_c.h"

/* True if field f is a setter's own field: not a collection (those have helpers, emit_c_coll.c)
 * and not a fixed array's second or later element (the first's setter takes the index). */
static bool has_setter(const nsc_field *f)
{
    return !nsc_type_is_collection(f->sem.type) && !(f->array_of && f->array_index > 0);
}

/* True if d's setters, _is_dirty and _clear_dirty are macros (its value table is extern). */
bool nsc_cg_setter_macros(nsc_cgen *g, const nsc_decl *d)
{
    return nsc_cg_has_dirty(d) && nsc_cg_table_values(g, d);
}

/* ---- the header --------------------------------------------------------------------------- */

/* Field i's setter macro: NS_TABLE_SET and friends with the record's type and the field's index
 * (an array's: its first element's, its length, the index argument; a single field's: 1u, 0u). */
static void setter_macro(nsc_cgen *g, const nsc_decl *d, size_t i)
{
    const nsc_field *f = d->fields[i];
    const nsc_type *t = f->sem.type;
    const char *n = nsc_cg_name(g, d);
    const char *fn = nsc_cg_fn(g, d, NSC_FMT(g, "set_%s", nsc_field_base_name(f)));
    const char *type = nsc_cg_value_type(g, t);
    const unsigned count = f->array_of ? f->array_of->sem.array_n : 1u;
    const char *params = f->array_of ? "v, index" : "v", *index = f->array_of ? "index" : "0u";
    switch (t->kind) {
    case NSC_T_STRING:
        nsc_p_line(g->h, "#define %s(%s, value) NS_TABLE_SET_STRING(%s, %zuu, %uu, v, %s, value)", fn, params, n, i, count,
                   index);
        break;
    case NSC_T_BYTES:
        nsc_p_line(g->h, "#define %s(%s, data, len) NS_TABLE_SET_BYTES(%s, %zuu, %uu, v, %s, data, len)", fn, params, n, i,
                   count, index);
        break;
    case NSC_T_STRUCT:
        nsc_p_line(g->h, "#define %s(%s, value) NS_TABLE_SET_STRUCT(%s, %zuu, %uu, %s, v, %s, value)", fn, params, n, i,
                   count, type, index);
        break;
    default:
        nsc_p_line(g->h, "#define %s(%s, ...) NS_TABLE_SET(%s, %zuu, %uu, %s, v, %s, __VA_ARGS__)", fn, params, n, i, count,
                   type, index);
    }
}

/* Field f's setter signature, "void <fn>(<T> *v[, uint32_t index], <value parameters>)": the
 * header's prototype and the source's definition. */
static const char *setter_signature(nsc_cgen *g, const nsc_decl *d, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const char *fn = nsc_cg_fn(g, d, NSC_FMT(g, "set_%s", nsc_field_base_name(f)));
    /* An array's setter sets one element: an index past the end changes nothing. */
    const char *self = NSC_FMT(g, f->array_of ? "%s *v, uint32_t index" : "%s *v", nsc_cg_name(g, d));
    const char *value;
    if (t->kind == NSC_T_STRING) value = "const char *value";
    else if (t->kind == NSC_T_BYTES) value = "const void *data, size_t len";
    else if (t->kind == NSC_T_STRUCT || t->kind == NSC_T_EXTERN || t->kind == NSC_T_UNION)
        value = NSC_FMT(g, "const %s *value", nsc_cg_value_type(g, t));
    else value = NSC_FMT(g, "%s value", nsc_cg_value_type(g, t));
    return NSC_FMT(g, "void %s(%s, %s)", fn, self, value);
}

void nsc_cg_setter_prototypes(nsc_cgen *g, const nsc_decl *d)
{
    if (!nsc_cg_has_dirty(d)) return;
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, d);
    const bool macros = nsc_cg_setter_macros(g, d);
    if (macros) nsc_p_line(h, "extern const ns_value_table %s;", nsc_cg_fn(g, d, "values"));
    for (size_t i = 0; i < d->nfields; i++) {
        if (!has_setter(d->fields[i])) continue;
        if (macros) setter_macro(g, d, i);
        else nsc_p_line(h, "%s;", setter_signature(g, d, d->fields[i]));
    }
    if (macros) nsc_p_line(h, "#define %s(v) NS_TABLE_IS_DIRTY(%s, v)", nsc_cg_fn(g, d, "is_dirty"), n);
    else nsc_p_line(h, "bool %s(const %s *v);", nsc_cg_fn(g, d, "is_dirty"), n);
    if (macros) nsc_p_line(h, "#define %s(v) NS_TABLE_CLEAR_DIRTY(%s, v)", nsc_cg_fn(g, d, "clear_dirty"), n);
    else nsc_p_line(h, "void %s(%s *v);", nsc_cg_fn(g, d, "clear_dirty"), n);
}

/* ---- the source ----------------------------------------------------------------------------- */

/* Field i's setter function. */
static void setter(nsc_cgen *g, const nsc_decl *d, size_t i)
{
    nsc_printer *c = g->c;
    const nsc_field *f = d->fields[i];
    const nsc_type *t = f->sem.type;
    const char *m = f->name.text;
    const char *mark = NSC_FMT(g, "v->ns_dirty[%zu] |= UINT32_C(1) << %zu;", i / 32, i % 32);
    nsc_p_empty(c);
    nsc_p_line(c, "%s", setter_signature(g, d, f));
    nsc_p_open(c, "{");
    if (f->array_of) {
        /* A fixed array: one setter taking the index; each element has its own dirty bit, the
         * elements' bits consecutive from the first's (i). */
        m = NSC_FMT(g, "%s[index]", f->array_of->name.text);
        mark = NSC_FMT(g, "v->ns_dirty[(%zuu + index) / 32u] |= UINT32_C(1) << ((%zuu + index) %% 32u);", i, i);
        nsc_p_line(c, "if (index >= %uu) return;", f->array_of->sem.array_n);
    }
    switch (t->kind) {
    case NSC_T_STRING:
        nsc_p_line(c, "char clean[%u + 1] = {0}; /* what the value holds after the string: zeros */", t->capacity);
        nsc_p_line(c, "ns_string_sanitize(clean, %u, value, strlen(value));", t->capacity);
        nsc_p_line(c, "if (strncmp(clean, v->%s, sizeof clean) == 0) return;", m);
        nsc_p_line(c, "memcpy(v->%s, clean, sizeof clean);", m);
        break;
    case NSC_T_BYTES:
        nsc_p_line(c, "if (len > %u) len = %u;", t->capacity, t->capacity);
        nsc_p_line(c, "if (v->%s.len == len && memcmp(v->%s.data, data, len) == 0) return;", m, m);
        nsc_p_line(c, "v->%s.len = (uint16_t)len;", m);
        nsc_p_line(c, "memcpy(v->%s.data, data, len);", m);
        break;
    case NSC_T_STRUCT:
    case NSC_T_UNION:
    case NSC_T_EXTERN:
        nsc_p_line(c, "if (%s(&v->%s, value)) return;", nsc_cg_fn(g, t->decl, "equal"), m);
        nsc_p_line(c, "v->%s = *value;", m);
        break;
    default:
        if (nsc_type_is_float(t) || nsc_type_is_vector(t) || t->kind == NSC_T_QUAT)
            nsc_p_line(c, "if (memcmp(&v->%s, &value, sizeof value) == 0) return; /* bitwise, so NaN and -0 count */", m);
        else
            nsc_p_line(c, "if (v->%s == value) return;", m);
        nsc_p_line(c, "v->%s = value;", m);
    }
    nsc_p_line(c, "%s", mark);
    nsc_p_close(c, "}");
}

void nsc_cg_setters(nsc_cgen *g, const nsc_decl *d)
{
    if (!nsc_cg_has_dirty(d)) return;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    if (nsc_cg_setter_macros(g, d)) return; /* all macros in the header */
    for (size_t i = 0; i < d->nfields; i++)
        if (has_setter(d->fields[i])) setter(g, d, i);
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s *v)", nsc_cg_fn(g, d, "is_dirty"), n);
    nsc_p_open(c, "{");
    if (d->nfields == 0) {
        nsc_p_line(c, "(void)v;");
        nsc_p_line(c, "return false;");
    } else {
        nsc_p_line(c, "for (size_t i = 0; i < sizeof v->ns_dirty / sizeof v->ns_dirty[0]; i++)");
        nsc_p_line(c, "    if (v->ns_dirty[i]) return true;");
        nsc_p_line(c, "return false;");
    }
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(%s *v)", nsc_cg_fn(g, d, "clear_dirty"), n);
    nsc_p_open(c, "{");
    if (d->nfields == 0) nsc_p_line(c, "(void)v;");
    else nsc_p_line(c, "memset(v->ns_dirty, 0, sizeof v->ns_dirty);");
    nsc_p_close(c, "}");
}
