/* emit_json.c — the checked schema as a JSON descriptor (--emit json), and the hash listing
 * (--hash). The format is documented in idl/SPEC.md ("The JSON descriptor"). */
#include <string.h>

#include "cnames.h"
#include "hash.h"
#include "json.h"
#include "layout.h"
#include "utf8.h"

/* "predicted", "owner interpolated", ...: nsc_sync_name (ast.h). */
static const char *sync_word(nsc_sync s)
{
    return nsc_sync_name(s);
}

static const char *smooth_word(nsc_smooth s)
{
    return s == NSC_SMOOTH_CLAMP ? "clamp" : s == NSC_SMOOTH_INTERPOLATE ? "interpolate" : "extrapolate";
}

static void doc(nsc_json *j, const char *text)
{
    nsc_json_key(j, "doc");
    if (text) nsc_json_string(j, text);
    else nsc_json_null(j);
}

static void number(nsc_json *j, const nsc_number *n)
{
    if (n->is_float) nsc_json_double(j, n->f);
    else if (n->is_unsigned_big) nsc_json_uint(j, n->u);
    else nsc_json_int(j, n->i);
}

static void literal(nsc_json *j, const nsc_literal *l)
{
    switch (l->kind) {
    case NSC_LIT_INT:
        if (l->neg) nsc_json_int(j, l->mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)l->mag);
        else nsc_json_uint(j, l->mag);
        return;
    case NSC_LIT_FLOAT: nsc_json_double(j, l->f); return;
    case NSC_LIT_BOOL: nsc_json_bool(j, l->b); return;
    case NSC_LIT_ENUM: nsc_json_string(j, l->ev->name.text); return;
    case NSC_LIT_STRING:
        /* Bytes defaults may hold any byte: write them as numbers so nothing is lost. */
        if (memchr(l->s, 0, l->n) || nsc_utf8_first_invalid(l->s, l->n) < l->n) {
            nsc_json_array_inline(j);
            for (size_t i = 0; i < l->n; i++) nsc_json_uint(j, (unsigned char)l->s[i]);
            nsc_json_end_array(j);
        } else {
            nsc_json_string_n(j, l->s, l->n);
        }
        return;
    case NSC_LIT_LIST:
        nsc_json_array_inline(j);
        for (size_t i = 0; i < l->count; i++) literal(j, l->items[i]);
        nsc_json_end_array(j);
        return;
    }
}

static void type_text(nsc_json *j, const nsc_type *t)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_type_spell(t, &sb);
    nsc_json_string(j, nsc_sb_str(&sb));
    nsc_sb_free(&sb);
}

static void field(nsc_json *j, const nsc_field *f)
{
    const nsc_field_sem *s = &f->sem;
    /* A fixed array is one field with an "array" length (its elements are the slots). */
    if (f->array_of && f->array_index > 0) return;
    nsc_json_object(j);
    nsc_json_key(j, "name"), nsc_json_string(j, nsc_field_base_name(f));
    nsc_json_key(j, "type"), type_text(j, s->type);
    if (f->array_of) nsc_json_key(j, "array"), nsc_json_uint(j, f->array_of->sem.array_n);
    doc(j, f->doc);
    nsc_json_key(j, "default");
    if (s->init) literal(j, s->init);
    else nsc_json_null(j);
    nsc_json_key(j, "attributes");
    nsc_json_object(j);
    if (s->has_quantize) nsc_json_key(j, "quantize"), nsc_json_double(j, s->quantize);
    if (s->has_range) {
        nsc_json_key(j, "range");
        nsc_json_array_inline(j);
        number(j, &s->range_lo);
        number(j, &s->range_hi);
        nsc_json_end_array(j);
    }
    if (s->smallest_three) nsc_json_key(j, "smallest_three"), nsc_json_uint(j, s->smallest_three);
    nsc_json_key(j, "smooth"), nsc_json_string(j, smooth_word(s->smooth));
    if (s->wrap) nsc_json_key(j, "wrap"), nsc_json_bool(j, true);
    if (s->max_distance > 0) nsc_json_key(j, "max_distance"), nsc_json_double(j, s->max_distance);
    nsc_json_key(j, "sync"), nsc_json_string(j, sync_word(s->sync));
    if (s->notify) nsc_json_key(j, "notify"), nsc_json_bool(j, true);
    if (s->initial) nsc_json_key(j, "initial"), nsc_json_bool(j, true);
    if (s->composite) nsc_json_key(j, "composite"), nsc_json_bool(j, true);
    if (s->nopredict) nsc_json_key(j, "nopredict"), nsc_json_bool(j, true);
    if (s->raw) nsc_json_key(j, "raw"), nsc_json_bool(j, true);
    if (s->ordered) nsc_json_key(j, "ordered"), nsc_json_bool(j, true);
    /* Only for owner-written fields: descriptors of server-written ones are unchanged. */
    if (s->authority_owner) nsc_json_key(j, "authority"), nsc_json_string(j, s->authority_clamp ? "owner, clamp" : "owner");
    nsc_json_end_object(j);
    nsc_json_end_object(j);
}

static void slot(nsc_json *j, const nsc_slot *s)
{
    nsc_json_object(j);
    nsc_json_key(j, "index"), nsc_json_uint(j, s->index);
    nsc_json_key(j, "path"), nsc_json_string(j, s->path);
    nsc_json_key(j, "encoding"), nsc_json_string(j, nsc_enc_name(s->enc));
    nsc_json_key(j, "snapshot_type"), nsc_json_string(j, s->snap_ctype);
    nsc_json_key(j, "components"), nsc_json_uint(j, s->arity);
    if (s->enc == NSC_ENC_RAW || s->enc == NSC_ENC_QUAT_S3 || s->enc == NSC_ENC_UNION)
        nsc_json_key(j, "bits"), nsc_json_uint(j, s->raw_bits); /* a union's: its tag's */
    if (s->has_range) {
        nsc_json_key(j, "range");
        nsc_json_array_inline(j);
        nsc_json_int(j, s->lo);
        nsc_json_int(j, s->hi);
        nsc_json_end_array(j);
    }
    nsc_json_key(j, "max_bits"), nsc_json_uint(j, s->max_bits);
    nsc_json_key(j, "predicted"), nsc_json_bool(j, s->predicted);
    nsc_json_key(j, "sync"), nsc_json_string(j, sync_word(s->sync));
    nsc_json_key(j, "initial"), nsc_json_bool(j, s->initial);
    if (s->enc == NSC_ENC_ARRAY) { /* a @composite array: its length and how one element is coded */
        nsc_json_key(j, "elements"), nsc_json_uint(j, s->composite->nslots);
        nsc_json_key(j, "element"), slot(j, &s->composite->slots[0]);
    }
    nsc_json_end_object(j);
}

static void per_variant(nsc_json *j, const char *key, uint32_t v[2][2])
{
    nsc_json_key(j, key);
    nsc_json_object(j);
    nsc_json_key(j, "observer_delta"), nsc_json_uint(j, v[NSC_AUD_OBSERVER][NSC_WRITE_DELTA]);
    nsc_json_key(j, "observer_full"), nsc_json_uint(j, v[NSC_AUD_OBSERVER][NSC_WRITE_FULL]);
    nsc_json_key(j, "owner_delta"), nsc_json_uint(j, v[1][NSC_WRITE_DELTA]);
    nsc_json_key(j, "owner_full"), nsc_json_uint(j, v[1][NSC_WRITE_FULL]);
    nsc_json_end_object(j);
}

static void record(nsc_context *ctx, nsc_json *j, const nsc_decl *d)
{
    nsc_arena *a = &ctx->arena;
    const nsc_layout *l = d->layout;
    nsc_json_object(j);
    nsc_json_key(j, "kind"), nsc_json_string(j, nsc_decl_kind_name(d->kind));
    nsc_json_key(j, "name"), nsc_json_string(j, d->name.text);
    nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_cname(a, d));
    if (d->kind != NSC_D_STRUCT) nsc_json_key(j, "id"), nsc_json_uint(j, d->id);
    nsc_json_key(j, "hash"), nsc_json_hex64(j, d->hash);
    doc(j, d->doc);
    if (d->kind == NSC_D_COMPONENT) nsc_json_key(j, "sync"), nsc_json_string(j, sync_word(d->sync));
    /* Only when present, like in the hash: descriptors of schemas without them are unchanged. */
    if (d->send_rate_hz) nsc_json_key(j, "send_rate"), nsc_json_uint(j, d->send_rate_hz);
    if (d->unreliable) nsc_json_key(j, "unreliable"), nsc_json_bool(j, true);
    /* The two default receivers: an observer (interpolating) and the owner (predicting). */
    static const int aud[2] = {NSC_AUD_OBSERVER, NSC_AUD_PREDICTING_OWNER};
    uint32_t slots[2][2], bits[2][2];
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) slots[x][y] = l->mask_slots[aud[x]][y], bits[x][y] = l->max_bits[aud[x]][y];
    per_variant(j, "mask_slots", slots);
    per_variant(j, "max_bits", bits);
    nsc_json_key(j, "fields");
    nsc_json_array(j);
    for (size_t i = 0; i < d->nfields; i++) field(j, d->fields[i]);
    nsc_json_end_array(j);
    nsc_json_key(j, "slots");
    nsc_json_array(j);
    for (size_t i = 0; i < l->nslots; i++) slot(j, &l->slots[i]);
    nsc_json_end_array(j);
    nsc_json_end_object(j);
}

static void enumeration(nsc_context *ctx, nsc_json *j, const nsc_decl *d)
{
    nsc_json_object(j);
    nsc_json_key(j, "name"), nsc_json_string(j, d->name.text);
    nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_cname(&ctx->arena, d));
    nsc_json_key(j, "underlying"), type_text(j, d->underlying_type);
    nsc_json_key(j, "hash"), nsc_json_hex64(j, d->hash);
    doc(j, d->doc);
    nsc_json_key(j, "values");
    nsc_json_array(j);
    for (size_t i = 0; i < d->nvalues; i++) {
        const nsc_enum_value *v = d->values[i];
        nsc_json_object(j);
        nsc_json_key(j, "name"), nsc_json_string(j, v->name.text);
        nsc_json_key(j, "value"), nsc_json_int(j, v->resolved);
        nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_enum_value_cname(&ctx->arena, d, v));
        doc(j, v->doc);
        nsc_json_end_object(j);
    }
    nsc_json_end_array(j);
    nsc_json_end_object(j);
}

static void section(nsc_context *ctx, nsc_json *j, const nsc_unit *u, const char *key, int which)
{
    nsc_json_key(j, key);
    nsc_json_array(j);
    for (size_t i = 0; i < u->ndecls; i++) {
        const nsc_decl *d = u->decls[i];
        if (which == 0 && d->kind == NSC_D_IMPORT) {
            nsc_json_object(j);
            nsc_json_key(j, "path"), nsc_json_string(j, d->path);
            nsc_json_key(j, "package"), nsc_json_string(j, d->target ? d->target->package : "");
            nsc_json_end_object(j);
        } else if (which == 1 && d->kind == NSC_D_CONST) {
            nsc_json_object(j);
            nsc_json_key(j, "name"), nsc_json_string(j, d->name.text);
            nsc_json_key(j, "value"), nsc_json_int(j, d->const_value);
            nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_macro_name(&ctx->arena, d, NULL));
            doc(j, d->doc);
            nsc_json_end_object(j);
        } else if (which == 2 && d->kind == NSC_D_ENUM) {
            enumeration(ctx, j, d);
        } else if (which == 3 && nsc_decl_is_record(d)) {
            record(ctx, j, d);
        } else if (which == 4 && d->kind == NSC_D_EXTERN) {
            nsc_json_object(j);
            nsc_json_key(j, "name"), nsc_json_string(j, d->name.text);
            nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_cname(&ctx->arena, d));
            nsc_json_key(j, "max_bits"), nsc_json_uint(j, d->max_bits);
            doc(j, d->doc);
            nsc_json_end_object(j);
        } else if (which == 5 && d->kind == NSC_D_UNION) {
            const nsc_layout *l = nsc_union_layout(d);
            nsc_json_object(j);
            nsc_json_key(j, "name"), nsc_json_string(j, d->name.text);
            nsc_json_key(j, "c_name"), nsc_json_string(j, nsc_cname(&ctx->arena, d));
            nsc_json_key(j, "hash"), nsc_json_hex64(j, d->hash);
            nsc_json_key(j, "tag_bits"), nsc_json_uint(j, l->nslots ? l->slots[0].raw_bits : 0);
            nsc_json_key(j, "max_bits"), nsc_json_uint(j, l->max_bits_all);
            doc(j, d->doc);
            nsc_json_key(j, "members");
            nsc_json_array(j);
            for (size_t k = 0; k < d->nfields; k++) {
                nsc_json_object(j);
                nsc_json_key(j, "tag"), nsc_json_uint(j, k);
                nsc_json_key(j, "name"), nsc_json_string(j, d->fields[k]->name.text);
                nsc_json_key(j, "type"), type_text(j, d->fields[k]->sem.type);
                nsc_json_key(j, "max_bits"), nsc_json_uint(j, l->slots[k].max_bits);
                doc(j, d->fields[k]->doc);
                nsc_json_end_object(j);
            }
            nsc_json_end_array(j);
            nsc_json_end_object(j);
        }
    }
    nsc_json_end_array(j);
}

int nsc_emit_json(nsc_context *ctx, const nsc_unit *u, FILE *out)
{
    if (!ctx->checked || ctx->check_errors) return -1;
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_json j;
    nsc_json_init(&j, &sb);
    nsc_json_object(&j);
    nsc_json_key(&j, "netschema"), nsc_json_uint(&j, 1);
    nsc_json_key(&j, "wire_version"), nsc_json_uint(&j, NSC_WIRE_VERSION);
    nsc_json_key(&j, "file"), nsc_json_string(&j, u->src->path);
    nsc_json_key(&j, "package"), nsc_json_string(&j, u->package);
    nsc_json_key(&j, "c_prefix"), nsc_json_string(&j, u->prefix);
    nsc_json_key(&j, "schema_hash"), nsc_json_hex64(&j, u->hash);
    doc(&j, u->package_decl ? u->package_decl->doc : NULL);
    section(ctx, &j, u, "imports", 0);
    section(ctx, &j, u, "constants", 1);
    section(ctx, &j, u, "enums", 2);
    section(ctx, &j, u, "types", 3);
    /* Only when the schema has extern structs: descriptors of others are unchanged. */
    bool externs = false;
    for (size_t i = 0; i < u->ndecls; i++) externs |= u->decls[i]->kind == NSC_D_EXTERN;
    if (externs) section(ctx, &j, u, "externs", 4);
    bool unions = false;
    for (size_t i = 0; i < u->ndecls; i++) unions |= u->decls[i]->kind == NSC_D_UNION;
    if (unions) section(ctx, &j, u, "unions", 5);
    nsc_json_end_object(&j);
    int rc = fputs(nsc_sb_str(&sb), out) < 0 ? -1 : 0;
    nsc_sb_free(&sb);
    return rc;
}

int nsc_emit_hash(nsc_context *ctx, const nsc_unit *u, FILE *out)
{
    if (!ctx->checked || ctx->check_errors) return -1;
    fprintf(out, "0x%016llx  %s (schema, package %s)\n", (unsigned long long)u->hash, u->src->path, u->package);
    for (size_t i = 0; i < u->ndecls; i++) {
        const nsc_decl *d = u->decls[i];
        if (d->kind != NSC_D_ENUM && !nsc_decl_is_record(d)) continue;
        fprintf(out, "0x%016llx  %s %s", (unsigned long long)d->hash, nsc_decl_kind_name(d->kind), d->name.text);
        if (d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC) fprintf(out, " (id %u)", d->id);
        fputc('\n', out);
    }
    return 0;
}
