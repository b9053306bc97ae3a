/* compat.c — `netschemac --compat OLD NEW`: what changed, type by type, between two versions of
 * a schema, and whether it breaks the wire (idl/SPEC.md section 15).
 *
 * The verdict is the protocol hash's, by construction: a type breaks exactly when its canonical
 * text (hash.c, what its hash is computed over) changed. The walk below only explains a break:
 * it compares the two declarations in the order the canonical text spells them and names the
 * first slot that differs. For a type whose canonical text did not change, the report says
 * whether anything else did (doc comments, @smooth, @notify, comments, the spelling of equal
 * values) or nothing at all. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "hash.h"

typedef enum { V_UNCHANGED, V_NOWIRE, V_BREAKING, V_ADDED, V_REMOVED, V_COUNT } verdict;
static const char *const verdict_names[V_COUNT] = {"unchanged", "no-wire-change", "breaking", "added", "removed"};

/* The first difference found in a breaking type. */
typedef struct finding {
    bool        found;
    nsc_strbuf  slot;     /* the field (a.b for struct members, a[] for elements), the enum value, or "" */
    const char *reason;   /* a word for tools: "range", "quantize", "type", "order", ... */
    nsc_strbuf  msg;
} finding;

typedef struct report {
    nsc_diag_format format;
    FILE           *out;
    nsc_strbuf     *old_text, *new_text;  /* each declaration formatted (format.c), by index */
    unsigned        counts[V_COUNT];
} report;

/* ---- finding the first difference ------------------------------------------------------ */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static bool found(finding *w, const char *slot, const char *reason, const char *fmt, ...)
{
    if (w->found) return true;
    w->found = true;
    nsc_sb_puts(&w->slot, slot);
    w->reason = reason;
    va_list ap;
    va_start(ap, fmt);
    nsc_sb_vprintf(&w->msg, fmt, ap);
    va_end(ap);
    return true;
}

/* A number as short as it reads back exactly (0.1, not 0.10000000000000001). */
static void put_double(nsc_strbuf *sb, double v)
{
    char buf[40];
    if (v > -1e15 && v < 1e15 && v == (double)(long long)v) {
        nsc_sb_printf(sb, "%lld", (long long)v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    nsc_sb_puts(sb, buf);
}

static void put_number(nsc_strbuf *sb, const nsc_number *n)
{
    if (n->is_float) put_double(sb, n->f);
    else if (n->is_unsigned_big) nsc_sb_printf(sb, "%llu", (unsigned long long)n->u);
    else nsc_sb_printf(sb, "%lld", (long long)n->i);
}

static void put_literal(nsc_strbuf *sb, const nsc_literal *l)
{
    switch (l->kind) {
    case NSC_LIT_INT: nsc_sb_printf(sb, "%s%llu", l->neg ? "-" : "", (unsigned long long)l->mag); return;
    case NSC_LIT_FLOAT: put_double(sb, l->f); return;
    case NSC_LIT_BOOL: nsc_sb_puts(sb, l->b ? "true" : "false"); return;
    case NSC_LIT_ENUM: nsc_sb_puts(sb, l->ev->name.text); return;
    case NSC_LIT_STRING: nsc_sb_json_string(sb, l->s, l->n); return;
    case NSC_LIT_LIST:
        nsc_sb_putc(sb, '{');
        for (size_t i = 0; i < l->count; i++) {
            if (i) nsc_sb_puts(sb, ", ");
            put_literal(sb, l->items[i]);
        }
        nsc_sb_putc(sb, '}');
        return;
    }
}

/* What a field's attribute-like property reads as, for comparing and for the message. */
static void spell_quantize(const nsc_field_sem *s, nsc_strbuf *sb)
{
    if (s->has_quantize) put_double(sb, s->quantize);
    else nsc_sb_puts(sb, "none");
}

static void spell_range(const nsc_field_sem *s, nsc_strbuf *sb)
{
    if (!s->has_range) {
        nsc_sb_puts(sb, "none");
        return;
    }
    put_number(sb, &s->range_lo);
    nsc_sb_puts(sb, "..");
    put_number(sb, &s->range_hi);
}

static void spell_default(const nsc_field_sem *s, nsc_strbuf *sb)
{
    if (s->init) put_literal(sb, s->init);
    else nsc_sb_puts(sb, "none (the zero value)");
}

/* "predicted", "owner interpolated", ...: nsc_sync_name (ast.h). */
static const char *sync_name(nsc_sync s)
{
    return nsc_sync_name(s);
}

typedef void (*speller)(const nsc_field_sem *, nsc_strbuf *);

/* Compares one property spelled both ways; reports "<what> OLD -> NEW" when they differ. */
static bool diff_spelled(finding *w, const char *slot, const char *reason, const char *what, speller spell,
                         const nsc_field_sem *o, const nsc_field_sem *n)
{
    nsc_strbuf a = NSC_STRBUF_INIT, b = NSC_STRBUF_INIT;
    spell(o, &a);
    spell(n, &b);
    bool differ = strcmp(nsc_sb_str(&a), nsc_sb_str(&b)) != 0;
    if (differ) found(w, slot, reason, "%s %s -> %s", what, nsc_sb_str(&a), nsc_sb_str(&b));
    nsc_sb_free(&a);
    nsc_sb_free(&b);
    return differ;
}

static bool diff_flag(finding *w, const char *slot, const char *name, bool o, bool n)
{
    if (o == n) return false;
    return found(w, slot, name, "@%s %s", name, n ? "added" : "removed");
}

static bool diff_fields(finding *w, const nsc_decl *o, const nsc_decl *n, const char *prefix);

/* slot: the field holding the enum ("" for the enum itself, whose slots are its values). */
static bool diff_enum(finding *w, const nsc_decl *o, const nsc_decl *n, const char *slot)
{
    nsc_strbuf a = NSC_STRBUF_INIT, b = NSC_STRBUF_INIT, what = NSC_STRBUF_INIT;
    if (*slot) nsc_sb_printf(&what, "enum %s: ", o->name.text);
    const char *e = nsc_sb_str(&what);
    nsc_type_spell(o->underlying_type, &a);
    nsc_type_spell(n->underlying_type, &b);
    if (strcmp(nsc_sb_str(&a), nsc_sb_str(&b)) != 0)
        found(w, slot, "underlying", "%sunderlying type %s -> %s", e, nsc_sb_str(&a), nsc_sb_str(&b));
    size_t k = o->nvalues < n->nvalues ? o->nvalues : n->nvalues;
    for (size_t i = 0; i < k && !w->found; i++) {
        const nsc_enum_value *vo = o->values[i], *vn = n->values[i];
        const char *at = *slot ? slot : vo->name.text;
        bool same_name = strcmp(vo->name.text, vn->name.text) == 0;
        if (same_name && vo->resolved != vn->resolved)
            found(w, at, "value", "%svalue %s = %lld -> %lld", e, vo->name.text, (long long)vo->resolved,
                  (long long)vn->resolved);
        else if (!same_name && vo->resolved == vn->resolved)
            found(w, at, "value-name", "%svalue %lld renamed %s -> %s (the hash spells value names)", e,
                  (long long)vo->resolved, vo->name.text, vn->name.text);
        else if (!same_name)
            found(w, at, "value", "%svalue %zu is %s = %lld, was %s = %lld", e, i, vn->name.text, (long long)vn->resolved,
                  vo->name.text, (long long)vo->resolved);
    }
    const nsc_decl *longer = o->nvalues > k ? o : n;
    if (!w->found && longer->nvalues > k)
        found(w, *slot ? slot : longer->values[k]->name.text, longer == o ? "value-removed" : "value-added",
              "%svalue %s = %lld %s", e, longer->values[k]->name.text, (long long)longer->values[k]->resolved,
              longer == o ? "removed" : "added");
    nsc_sb_free(&a);
    nsc_sb_free(&b);
    nsc_sb_free(&what);
    return w->found;
}

/* Types, in the order the canonical text spells them: elements before capacities. */
static bool diff_type(finding *w, const nsc_type *o, const nsc_type *n, const char *slot)
{
    nsc_strbuf a = NSC_STRBUF_INIT, b = NSC_STRBUF_INIT, sub = NSC_STRBUF_INIT;
    nsc_type_spell(o, &a);
    nsc_type_spell(n, &b);
    bool named = o->kind == NSC_T_ENUM || o->kind == NSC_T_STRUCT || o->kind == NSC_T_EXTERN || o->kind == NSC_T_UNION;
    if (o->kind != n->kind || (named && strcmp(o->decl->name.text, n->decl->name.text) != 0)) {
        found(w, slot, "type", "type %s -> %s", nsc_sb_str(&a), nsc_sb_str(&b));
    } else if (o->kind == NSC_T_ENUM) {
        diff_enum(w, o->decl, n->decl, slot);
    } else if (o->kind == NSC_T_EXTERN && o->decl->max_bits != n->decl->max_bits) {
        /* The user's codec: its bound is all the schema knows of its wire (the hash spells it). */
        found(w, slot, "max_bits", "@max_bits %u -> %u (%s)", o->decl->max_bits, n->decl->max_bits, nsc_sb_str(&a));
    } else if (o->kind == NSC_T_STRUCT || o->kind == NSC_T_UNION) { /* a union's members, in tag order */
        nsc_sb_printf(&sub, "%s.", slot);
        diff_fields(w, o->decl, n->decl, nsc_sb_str(&sub));
    } else if (o->kind == NSC_T_MAP) {
        nsc_sb_printf(&sub, "%s[key]", slot);
        diff_type(w, o->key, n->key, nsc_sb_str(&sub));
    }
    if (!w->found && o->elem) {
        nsc_sb_reset(&sub);
        nsc_sb_printf(&sub, "%s[]", slot);
        diff_type(w, o->elem, n->elem, nsc_sb_str(&sub));
    }
    if (!w->found && o->capacity != n->capacity)
        found(w, slot, "capacity", "capacity %u -> %u (%s -> %s)", o->capacity, n->capacity, nsc_sb_str(&a), nsc_sb_str(&b));
    nsc_sb_free(&a);
    nsc_sb_free(&b);
    nsc_sb_free(&sub);
    return w->found;
}

/* A field's properties in the order of the canonical text (SPEC section 13.1). */
static bool diff_field(finding *w, const nsc_field *fo, const nsc_field *fn, const char *slot)
{
    const nsc_field_sem *o = &fo->sem, *n = &fn->sem;
    if (diff_type(w, o->type, n->type, slot)) return true;
    if (diff_spelled(w, slot, "quantize", "@quantize", spell_quantize, o, n)) return true;
    if (diff_spelled(w, slot, "range", "@range", spell_range, o, n)) return true;
    if (o->smallest_three != n->smallest_three)
        return found(w, slot, "smallest_three", "@smallest_three %u -> %u", o->smallest_three, n->smallest_three);
    if (o->sync != n->sync)
        return found(w, slot, "sync", "sync %s -> %s", sync_name(o->sync), sync_name(n->sync));
    if (diff_spelled(w, slot, "default", "default", spell_default, o, n)) return true;
    return diff_flag(w, slot, "initial", o->initial, n->initial) || diff_flag(w, slot, "composite", o->composite, n->composite) ||
           diff_flag(w, slot, "nopredict", o->nopredict, n->nopredict) || diff_flag(w, slot, "raw", o->raw, n->raw) ||
           diff_flag(w, slot, "ordered", o->ordered, n->ordered);
}

static size_t field_index(const nsc_decl *d, const char *name)
{
    for (size_t i = 0; i < d->nfields; i++)
        if (strcmp(d->fields[i]->name.text, name) == 0) return i;
    return SIZE_MAX;
}

/* Slot i holds another field: renamed, removed, inserted or moved. */
static bool diff_names(finding *w, const nsc_decl *o, const nsc_decl *n, size_t i, const char *prefix)
{
    const char *x = o->fields[i]->name.text, *y = n->fields[i]->name.text;
    size_t x_now = field_index(n, x), y_was = field_index(o, y);
    nsc_strbuf slot = NSC_STRBUF_INIT;
    nsc_sb_printf(&slot, "%s%s", prefix, x);
    if (x_now == SIZE_MAX && y_was == SIZE_MAX)
        found(w, nsc_sb_str(&slot), "name", "slot %zu: field %s renamed %s", i, x, y);
    else if (x_now == SIZE_MAX)
        found(w, nsc_sb_str(&slot), "removed", "slot %zu: field %s removed", i, x);
    else if (y_was == SIZE_MAX)
        found(w, nsc_sb_str(&slot), "added", "slot %zu: field %s inserted before %s", i, y, x);
    else
        found(w, nsc_sb_str(&slot), "order", "slot %zu: field %s moved to slot %zu (%s takes its place)", i, x, x_now, y);
    nsc_sb_free(&slot);
    return true;
}

static bool diff_fields(finding *w, const nsc_decl *o, const nsc_decl *n, const char *prefix)
{
    size_t k = o->nfields < n->nfields ? o->nfields : n->nfields;
    nsc_strbuf slot = NSC_STRBUF_INIT;
    for (size_t i = 0; i < k && !w->found; i++) {
        if (strcmp(o->fields[i]->name.text, n->fields[i]->name.text) != 0) {
            diff_names(w, o, n, i, prefix);
            break;
        }
        nsc_sb_reset(&slot);
        nsc_sb_printf(&slot, "%s%s", prefix, o->fields[i]->name.text);
        diff_field(w, o->fields[i], n->fields[i], nsc_sb_str(&slot));
    }
    const nsc_decl *longer = o->nfields > k ? o : n;
    if (!w->found && longer->nfields > k) {
        nsc_sb_reset(&slot);
        nsc_sb_printf(&slot, "%s%s", prefix, longer->fields[k]->name.text);
        found(w, nsc_sb_str(&slot), longer == o ? "removed" : "added", "slot %zu: field %s %s at the end", k,
              longer->fields[k]->name.text, longer == o ? "removed" : "added");
    }
    nsc_sb_free(&slot);
    return w->found;
}

static bool has_id(const nsc_decl *d)
{
    return d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC;
}

/* The record's header (kind, id, sync, send rate, reliability), then its fields. */
static bool diff_record(finding *w, const nsc_decl *o, const nsc_decl *n)
{
    if (o->kind != n->kind)
        return found(w, "", "kind", "%s -> %s", nsc_decl_kind_name(o->kind), nsc_decl_kind_name(n->kind));
    if (has_id(o) && o->id != n->id)
        return found(w, "", "id", "type id %u -> %u%s", o->id, n->id,
                     o->has_id || n->has_id ? "" : " (ids follow declaration order: give it an @id to keep it)");
    if (o->kind == NSC_D_COMPONENT && o->sync != n->sync)
        return found(w, "", "sync", "@sync %s -> %s", sync_name(o->sync), sync_name(n->sync));
    if (o->send_rate_hz != n->send_rate_hz)
        return found(w, "", "send_rate", "@send_rate %u -> %u (0: every tick)", o->send_rate_hz, n->send_rate_hz);
    if (o->unreliable != n->unreliable) return found(w, "", "unreliable", "@unreliable %s", n->unreliable ? "added" : "removed");
    return diff_fields(w, o, n, "");
}

/* Explains why two canonical texts differ; falls back on the texts if the walk finds nothing. */
static void explain(finding *w, const nsc_decl *o, const nsc_decl *n, const nsc_strbuf *co, const nsc_strbuf *cn)
{
    if (o->entropy != n->entropy) /* the coding model leads the canonical text */
        found(w, "", "model", "@model %s -> %s", o->entropy ? "entropy" : "packed", n->entropy ? "entropy" : "packed");
    else if ((o->kind == NSC_D_ENUM) != (n->kind == NSC_D_ENUM))
        found(w, "", "kind", "%s -> %s", nsc_decl_kind_name(o->kind), nsc_decl_kind_name(n->kind));
    else if (o->kind == NSC_D_ENUM) diff_enum(w, o, n, "");
    else diff_record(w, o, n);
    if (w->found) return;
    size_t i = 0;
    while (i < co->len && i < cn->len && co->data[i] == cn->data[i]) i++;
    found(w, "", "canonical", "canonical text differs from byte %zu: '%.40s' -> '%.40s'", i, co->data + i, cn->data + i);
}

/* ---- changes without a wire change ----------------------------------------------------- */

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A declaration's text with its layout removed (one space only where two words meet), with or
 * without its comments. */
static void normalize(const char *s, bool comments, nsc_strbuf *sb)
{
    bool space = false;
    uint32_t end = (uint32_t)strlen(s);
    for (uint32_t i = 0; i < end;) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            space = true;
            i++;
            continue;
        }
        uint32_t j = i + 1;
        if (c == '/' && (s[i + 1] == '/' || s[i + 1] == '*')) {
            const char *close = s[i + 1] == '/' ? strchr(s + i, '\n') : strstr(s + i + 2, "*/");
            j = close ? (uint32_t)(close - s) + (s[i + 1] == '*' ? 2 : 0) : end;
            if (comments) nsc_sb_printf(sb, " %.*s\n", (int)(j - i), s + i);
            space = true;
            i = j;
            continue;
        }
        if (c == '"')
            while (j < end && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
        if (c == '"' && j < end) j++;
        if (j > end) j = end;
        if (space && sb->len && word_char(sb->data[sb->len - 1]) && word_char(c)) nsc_sb_putc(sb, ' ');
        if (c == '}' && sb->len && sb->data[sb->len - 1] == ',') sb->len--; /* an optional trailing comma */
        nsc_sb_append(sb, s + i, j - i);
        space = false;
        i = j;
    }
}

static bool same_doc(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool docs_differ(const nsc_decl *o, const nsc_decl *n)
{
    if (!same_doc(o->doc, n->doc)) return true;
    for (size_t i = 0; i < o->nfields && i < n->nfields; i++)
        if (!same_doc(o->fields[i]->doc, n->fields[i]->doc)) return true;
    for (size_t i = 0; i < o->nvalues && i < n->nvalues; i++)
        if (!same_doc(o->values[i]->doc, n->values[i]->doc)) return true;
    return false;
}

static bool fields_differ(const nsc_decl *o, const nsc_decl *n, bool notify)
{
    for (size_t i = 0; i < o->nfields && i < n->nfields; i++) {
        const nsc_field_sem *a = &o->fields[i]->sem, *b = &n->fields[i]->sem;
        bool smooth = a->smooth != b->smooth || a->wrap != b->wrap || a->max_distance != b->max_distance;
        if (notify ? a->notify != b->notify : smooth) return true;
    }
    return false;
}

static bool normalized_differ(const char *a, const char *b, bool comments)
{
    nsc_strbuf x = NSC_STRBUF_INIT, y = NSC_STRBUF_INIT;
    normalize(a, comments, &x);
    normalize(b, comments, &y);
    bool differ = strcmp(nsc_sb_str(&x), nsc_sb_str(&y)) != 0;
    nsc_sb_free(&x);
    nsc_sb_free(&y);
    return differ;
}

/* What changed in a type whose wire did not, given both declarations as the formatter prints
 * them (so attribute order and optional commas are not changes), compared without their layout
 * (so a declaration on one line or on several is the same): a comma-separated list, empty if
 * nothing did. */
static void no_wire_reasons(const char *text_o, const nsc_decl *o, const char *text_n, const nsc_decl *n,
                            nsc_strbuf *sb)
{
    if (!normalized_differ(text_o, text_n, true)) return;
    bool docs = docs_differ(o, n), smooth = fields_differ(o, n, false), notify = fields_differ(o, n, true);
    bool code = normalized_differ(text_o, text_n, false);
    if (docs) nsc_sb_puts(sb, "doc comments, ");
    if (smooth) nsc_sb_puts(sb, "@smooth, ");
    if (notify) nsc_sb_puts(sb, "@notify, ");
    if (!code && !docs) nsc_sb_puts(sb, "comments, ");
    if (code && !smooth && !notify) nsc_sb_puts(sb, "the spelling of equal values, ");
    if (sb->len) {
        sb->len -= 2; /* the last ", " */
        sb->data[sb->len] = '\0';
    }
}

/* ---- the report ------------------------------------------------------------------------ */

static bool is_type(const nsc_decl *d)
{
    return d->kind == NSC_D_ENUM || nsc_decl_is_record(d);
}

static const nsc_decl *find_type(const nsc_unit *u, const char *name)
{
    for (size_t i = 0; i < u->ndecls; i++)
        if (is_type(u->decls[i]) && strcmp(u->decls[i]->name.text, name) == 0) return u->decls[i];
    return NULL;
}

/* key then the items of a ", "-separated list as a JSON array. */
static void put_json_list(nsc_strbuf *sb, const char *key, const char *list)
{
    nsc_sb_puts(sb, key);
    nsc_sb_putc(sb, '[');
    for (const char *p = list, *end; *p; p = *end ? end + 2 : end) {
        end = strstr(p, ", ");
        if (!end) end = p + strlen(p);
        if (p != list) nsc_sb_putc(sb, ',');
        nsc_sb_json_string(sb, p, (size_t)(end - p));
    }
    nsc_sb_putc(sb, ']');
}

static void print_line(report *r, verdict v, const nsc_decl *o, const nsc_decl *n, const char *detail, const finding *w)
{
    const nsc_decl *d = n ? n : o;
    r->counts[v]++;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    if (r->format == NSC_DIAG_JSON) {
        nsc_sb_printf(&sb, "{\"verdict\":\"%s\",\"kind\":\"%s\",\"name\":", verdict_names[v], nsc_decl_kind_name(d->kind));
        nsc_sb_json_string(&sb, d->name.text, strlen(d->name.text));
        if (o) nsc_sb_printf(&sb, ",\"old_hash\":\"0x%016llx\"", (unsigned long long)o->hash);
        if (n) nsc_sb_printf(&sb, ",\"new_hash\":\"0x%016llx\"", (unsigned long long)n->hash);
        if (w) {
            nsc_sb_puts(&sb, ",\"slot\":");
            nsc_sb_json_string(&sb, w->slot.data ? w->slot.data : "", w->slot.len);
            nsc_sb_printf(&sb, ",\"reason\":\"%s\",\"message\":", w->reason);
            nsc_sb_json_string(&sb, w->msg.data, w->msg.len);
        } else if (detail && *detail) {
            put_json_list(&sb, ",\"changes\":", detail);
        }
        nsc_sb_puts(&sb, "}");
    } else {
        nsc_sb_printf(&sb, "%-15s %s %s", verdict_names[v], nsc_decl_kind_name(d->kind), d->name.text);
        if (w && w->slot.len) nsc_sb_printf(&sb, ": %s: %s", w->slot.data, w->msg.data);
        else if (w) nsc_sb_printf(&sb, ": %s", w->msg.data);
        else if (detail && *detail) nsc_sb_printf(&sb, " (%s)", detail);
    }
    fprintf(r->out, "%s\n", nsc_sb_str(&sb));
    nsc_sb_free(&sb);
}

static void compare_type(report *r, const nsc_decl *o, const nsc_decl *n)
{
    nsc_strbuf co = NSC_STRBUF_INIT, cn = NSC_STRBUF_INIT;
    nsc_canonical_decl(o, &co);
    nsc_canonical_decl(n, &cn);
    if (strcmp(nsc_sb_str(&co), nsc_sb_str(&cn)) != 0) {
        finding w = {false, NSC_STRBUF_INIT, "", NSC_STRBUF_INIT};
        explain(&w, o, n, &co, &cn);
        print_line(r, V_BREAKING, o, n, NULL, &w);
        nsc_sb_free(&w.slot);
        nsc_sb_free(&w.msg);
    } else {
        nsc_strbuf why = NSC_STRBUF_INIT;
        no_wire_reasons(nsc_sb_str(&r->old_text[o->index]), o, nsc_sb_str(&r->new_text[n->index]), n, &why);
        print_line(r, why.len ? V_NOWIRE : V_UNCHANGED, o, n, nsc_sb_str(&why), NULL);
        nsc_sb_free(&why);
    }
    nsc_sb_free(&co);
    nsc_sb_free(&cn);
}

static void print_schema(report *r, const nsc_unit *o, const nsc_unit *n)
{
    bool changed = o->hash != n->hash;
    unsigned *c = r->counts;
    if (r->format == NSC_DIAG_JSON) {
        fprintf(r->out, "{\"verdict\":\"schema\",\"old_hash\":\"0x%016llx\",\"new_hash\":\"0x%016llx\",\"changed\":%s,"
                        "\"breaking\":%u,\"removed\":%u,\"added\":%u,\"no_wire_change\":%u,\"unchanged\":%u}\n",
                (unsigned long long)o->hash, (unsigned long long)n->hash, changed ? "true" : "false", c[V_BREAKING],
                c[V_REMOVED], c[V_ADDED], c[V_NOWIRE], c[V_UNCHANGED]);
        return;
    }
    fprintf(r->out, "schema hash     0x%016llx -> 0x%016llx%s\n", (unsigned long long)o->hash, (unsigned long long)n->hash,
            !changed ? " (unchanged)"
            : strcmp(o->package, n->package) != 0 ? " (the package was renamed: the handshake tells the versions apart)"
                                                  : " (changed: the handshake tells the versions apart)");
    fprintf(r->out, "summary         %u breaking, %u removed, %u added, %u without a wire change, %u unchanged\n",
            c[V_BREAKING], c[V_REMOVED], c[V_ADDED], c[V_NOWIRE], c[V_UNCHANGED]);
}

static nsc_strbuf *formatted(nsc_context *ctx, const nsc_unit *u)
{
    nsc_strbuf *texts = calloc(u->ndecls + 1, sizeof *texts);
    if (!texts) nsc_out_of_memory();
    nsc_format_decls(ctx, u, texts);
    return texts;
}

static void free_texts(nsc_strbuf *texts, size_t n)
{
    for (size_t i = 0; i < n; i++) nsc_sb_free(&texts[i]);
    free(texts);
}

int nsc_compat(nsc_context *old_ctx, const nsc_unit *uo, nsc_context *new_ctx, const nsc_unit *un, nsc_diag_format format,
               FILE *out)
{
    if (!old_ctx->checked || old_ctx->check_errors || !new_ctx->checked || new_ctx->check_errors) return -1;
    report r;
    memset(&r, 0, sizeof r);
    r.format = format;
    r.out = out;
    r.old_text = formatted(old_ctx, uo);
    r.new_text = formatted(new_ctx, un);
    for (size_t i = 0; i < un->ndecls; i++) {
        const nsc_decl *n = un->decls[i], *o = is_type(n) ? find_type(uo, n->name.text) : NULL;
        if (!is_type(n)) continue;
        if (o) compare_type(&r, o, n);
        else print_line(&r, V_ADDED, NULL, n, NULL, NULL);
    }
    for (size_t i = 0; i < uo->ndecls; i++) {
        const nsc_decl *o = uo->decls[i];
        if (is_type(o) && !find_type(un, o->name.text)) print_line(&r, V_REMOVED, o, NULL, NULL, NULL);
    }
    print_schema(&r, uo, un);
    free_texts(r.old_text, uo->ndecls);
    free_texts(r.new_text, un->ndecls);
    return r.counts[V_BREAKING] || r.counts[V_REMOVED] ? 1 : 0;
}
