/* hash.c — canonical text of types and the FNV-1a 64 protocol hashes.
 *
 * The canonical text names every field and type, and spells every attribute that changes what
 * goes on the wire (quantize, range, smallest_three, the effective sync, initial, composite,
 * nopredict, raw, ordered, @authority(owner), type ids) and every default (a write without baselines is coded
 * against them) — not @smooth or @notify, which only change what a receiver does with the
 * values, and not doc comments. Structs and enums used by a type are spelled out inside it, so
 * a change to an imported struct changes the hash of every type that uses it. */
#include "hash.h"

#include <stdio.h>
#include <string.h>

static void canon_type(const nsc_type *t, nsc_strbuf *sb, int depth);

static void canon_number(const nsc_number *n, nsc_strbuf *sb)
{
    if (n->is_float) nsc_sb_printf(sb, "%.17g", n->f);
    else if (n->is_unsigned_big) nsc_sb_printf(sb, "%llu", (unsigned long long)n->u);
    else nsc_sb_printf(sb, "%lld", (long long)n->i);
}

static void canon_literal(const nsc_literal *l, nsc_strbuf *sb)
{
    switch (l->kind) {
    case NSC_LIT_INT: nsc_sb_printf(sb, "%s%llu", l->neg ? "-" : "", (unsigned long long)l->mag); return;
    case NSC_LIT_FLOAT: nsc_sb_printf(sb, "%.17g", l->f); return;
    case NSC_LIT_BOOL: nsc_sb_puts(sb, l->b ? "true" : "false"); return;
    case NSC_LIT_ENUM: nsc_sb_puts(sb, l->ev->name.text); return;
    case NSC_LIT_STRING:
        nsc_sb_putc(sb, '"');
        for (size_t i = 0; i < l->n; i++) nsc_sb_printf(sb, "%02x", (unsigned char)l->s[i]);
        nsc_sb_putc(sb, '"');
        return;
    case NSC_LIT_LIST:
        nsc_sb_putc(sb, '{');
        for (size_t i = 0; i < l->count; i++) {
            if (i) nsc_sb_putc(sb, ',');
            canon_literal(l->items[i], sb);
        }
        nsc_sb_putc(sb, '}');
        return;
    }
}

static void canon_field(const nsc_field *f, nsc_strbuf *sb, int depth)
{
    const nsc_field_sem *s = &f->sem;
    /* A fixed array is spelled once, with its length, as "name[N]:type": the layout made its
     * elements fields of their own, which share everything but the index. */
    if (f->array_of && f->array_index > 0) return;
    if (f->array_of) nsc_sb_printf(sb, "%s[%u]:", f->array_of->name.text, f->array_of->sem.array_n);
    else nsc_sb_printf(sb, "%s:", f->name.text);
    canon_type(s->type, sb, depth);
    if (s->has_quantize) nsc_sb_printf(sb, " quantize=%.17g", s->quantize);
    if (s->has_range) {
        nsc_sb_puts(sb, " range=");
        canon_number(&s->range_lo, sb);
        nsc_sb_puts(sb, "..");
        canon_number(&s->range_hi, sb);
    }
    if (s->smallest_three) nsc_sb_printf(sb, " smallest_three=%u", s->smallest_three);
    /* The nsc_sync value: all, owner, others and none keep the numbers they always had, so
     * their hashes are unchanged; predicted, interpolated and custom add condition bits. */
    nsc_sb_printf(sb, " sync=%d", (int)s->sync);
    /* Defaults are on the wire too: with no baseline, fields are coded against them. */
    if (s->init) {
        nsc_sb_puts(sb, " default=");
        canon_literal(s->init, sb);
    }
    if (s->initial) nsc_sb_puts(sb, " initial");
    if (s->composite) nsc_sb_puts(sb, " composite");
    if (s->nopredict) nsc_sb_puts(sb, " nopredict");
    if (s->raw) nsc_sb_puts(sb, " raw");
    if (s->ordered) nsc_sb_puts(sb, " ordered");
    /* Only when the owner writes it: server-written fields, the default, keep their old text. */
    if (s->authority_owner) nsc_sb_puts(sb, s->authority_clamp ? " authority=owner,clamp" : " authority=owner");
    nsc_sb_putc(sb, ';');
}

static void canon_enum(const nsc_decl *d, nsc_strbuf *sb)
{
    nsc_sb_printf(sb, "enum %s:", d->name.text);
    nsc_type_spell(d->underlying_type, sb);
    nsc_sb_putc(sb, '{');
    for (size_t i = 0; i < d->nvalues; i++)
        nsc_sb_printf(sb, "%s=%lld;", d->values[i]->name.text, (long long)d->values[i]->resolved);
    nsc_sb_putc(sb, '}');
}

static void canon_record(const nsc_decl *d, nsc_strbuf *sb, int depth)
{
    nsc_sb_printf(sb, "%s %s", nsc_decl_kind_name(d->kind), d->name.text);
    if (d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC) nsc_sb_printf(sb, " id=%u", d->id);
    if (d->kind == NSC_D_COMPONENT) nsc_sb_printf(sb, " sync=%d", (int)d->sync);
    /* Spelled only when present, so the hashes of schemas without them stay as they were. */
    if (d->send_rate_hz) nsc_sb_printf(sb, " send_rate=%u", d->send_rate_hz);
    if (d->unreliable) nsc_sb_puts(sb, " unreliable");
    nsc_sb_putc(sb, '{');
    for (size_t i = 0; i < d->nfields; i++) canon_field(d->fields[i], sb, depth + 1);
    nsc_sb_putc(sb, '}');
}

static void canon_type(const nsc_type *t, nsc_strbuf *sb, int depth);

/* "union Shape{circle:struct Circle{...};box:struct Box{...};}": the members in tag order, each
 * its name and its struct (members take no attributes, so nothing else is spelled). */
static void canon_union(const nsc_decl *d, nsc_strbuf *sb, int depth)
{
    nsc_sb_printf(sb, "union %s{", d->name.text);
    for (size_t i = 0; i < d->nfields; i++) {
        nsc_sb_printf(sb, "%s:", d->fields[i]->name.text);
        canon_type(d->fields[i]->sem.type, sb, depth + 1);
        nsc_sb_putc(sb, ';');
    }
    nsc_sb_putc(sb, '}');
}

static void canon_type(const nsc_type *t, nsc_strbuf *sb, int depth)
{
    switch (t->kind) {
    case NSC_T_ENUM:
        canon_enum(t->decl, sb);
        return;
    case NSC_T_STRUCT:
        if (depth > 16) nsc_sb_puts(sb, "...");
        else canon_record(t->decl, sb, depth);
        return;
    case NSC_T_UNION:
        canon_union(t->decl, sb, depth);
        return;
    case NSC_T_EXTERN: /* the user's codec: only its name and bound are known (and on the wire) */
        nsc_sb_printf(sb, "extern %s max_bits=%u", t->decl->name.text, t->decl->max_bits);
        return;
    case NSC_T_LIST:
    case NSC_T_SET:
    case NSC_T_FASTARRAY:
        nsc_sb_puts(sb, t->kind == NSC_T_LIST ? "list<" : t->kind == NSC_T_SET ? "set<" : "fastarray<");
        canon_type(t->elem, sb, depth);
        nsc_sb_printf(sb, ",%u>", t->capacity);
        return;
    case NSC_T_MAP:
        nsc_sb_puts(sb, "map<");
        canon_type(t->key, sb, depth);
        nsc_sb_putc(sb, ',');
        canon_type(t->elem, sb, depth);
        nsc_sb_printf(sb, ",%u>", t->capacity);
        return;
    default:
        nsc_type_spell(t, sb);
    }
}

void nsc_canonical_decl(const nsc_decl *d, nsc_strbuf *sb)
{
    /* `model=entropy` for a component with @model(entropy); every other type keeps `default`,
     * so their hashes are unchanged. */
    nsc_sb_printf(sb, "netschema-wire-%d model=%s ", NSC_WIRE_VERSION, d->entropy ? "entropy" : "default");
    if (d->kind == NSC_D_ENUM) canon_enum(d, sb);
    else if (d->kind == NSC_D_UNION) canon_union(d, sb, 0);
    else canon_record(d, sb, 0);
}

void nsc_hash_unit(nsc_checker *c, nsc_unit *u)
{
    (void)c;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_sb_printf(&sb, "netschema-wire-%d package %s", NSC_WIRE_VERSION, u->package);
    uint64_t h = nsc_fnv1a(sb.data, sb.len, NSC_FNV_OFFSET);
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        if (d->kind != NSC_D_ENUM && !nsc_decl_is_record(d) && d->kind != NSC_D_UNION) continue;
        nsc_sb_reset(&sb);
        nsc_canonical_decl(d, &sb);
        d->hash = nsc_fnv1a(sb.data, sb.len, NSC_FNV_OFFSET);
        /* A union is on the wire only inside the records that hold it (their hashes spell it):
         * on its own it leaves the schema hash alone. */
        if (d->kind == NSC_D_UNION) continue;
        uint8_t le[8];
        for (int k = 0; k < 8; k++) le[k] = (uint8_t)(d->hash >> (8 * k));
        h = nsc_fnv1a(le, 8, h);
    }
    u->hash = h;
    nsc_sb_free(&sb);
}
