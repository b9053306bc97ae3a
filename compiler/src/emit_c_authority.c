/* emit_c_authority.c — client-authoritative fields (@authority(owner)): per component that has
 * any, the owner's _authority_write / _authority_send and the server's _authority_decode /
 * _authority_read with its validation hook type (docs/generated-api.md, "Client-authoritative
 * fields"; the message is described in netschema/replication.h).
 *
 * The payload is plain and fixed: each owner-written field in declaration order, each element
 * in the full width of its snapshot type (a bool 1 bit, integers and enums their C width,
 * quantized floats their int32, unquantized floats their bit pattern, smallest-three quaternions
 * their packed bits). No delta, no @range-narrowed width: the server must be able to see a value
 * out of range to refuse or clamp it, and it holds no baseline of what the client last sent. */
#include <string.h>

#include "emit_c.h"

static bool has_authority(const nsc_decl *d)
{
    if (d->kind != NSC_D_COMPONENT) return false;
    for (size_t i = 0; i < d->nfields; i++)
        if (d->fields[i]->sem.authority_owner) return true;
    return false;
}

/* Elements of a slot's snapshot: vectors and non-smallest-three quaternions are arrays. */
static unsigned elements(const nsc_slot *s)
{
    return s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_F
               ? s->arity : 1u;
}

/* Bits of one element on the wire, and the unsigned C type of the same width. */
static unsigned width(const nsc_slot *s, const char **utype)
{
    const char *t = s->snap_ctype;
    if (s->enc == NSC_ENC_BOOL) return *utype = "bool", 1u;
    if (s->enc == NSC_ENC_QUAT_S3) return *utype = "uint64_t", 2u + 3u * s->raw_bits;
    if (!strcmp(t, "int8_t") || !strcmp(t, "uint8_t")) return *utype = "uint8_t", 8u;
    if (!strcmp(t, "int16_t") || !strcmp(t, "uint16_t")) return *utype = "uint16_t", 16u;
    if (!strcmp(t, "int64_t") || !strcmp(t, "uint64_t")) return *utype = "uint64_t", 64u;
    return *utype = "uint32_t", 32u;
}

static uint32_t payload_bits(const nsc_decl *d)
{
    uint32_t bits = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!f->sem.authority_owner) continue;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        const char *u;
        bits += elements(s) * width(s, &u);
    }
    return bits;
}

static const char *elem(nsc_cgen *g, const char *base, const nsc_slot *s, unsigned k)
{
    bool array = s->enc == NSC_ENC_VEC_Q || s->enc == NSC_ENC_VEC_F || s->enc == NSC_ENC_QUAT_Q || s->enc == NSC_ENC_QUAT_F;
    return array ? NSC_FMT(g, "%s%s[%u]", base, s->path, k)
               : NSC_FMT(g, "%s%s", base, s->path);
}

static const char *i64c(nsc_cgen *g, int64_t v)
{
    if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
    return NSC_FMT(g, "INT64_C(%lld)", (long long)v);
}

/* The range of the snapshot's C type, to leave out comparisons that cannot fail. */
static void natural(const nsc_slot *s, int64_t *lo, int64_t *hi)
{
    const char *t = s->snap_ctype;
    if (!strcmp(t, "int8_t")) *lo = INT8_MIN, *hi = INT8_MAX;
    else if (!strcmp(t, "uint8_t")) *lo = 0, *hi = UINT8_MAX;
    else if (!strcmp(t, "int16_t")) *lo = INT16_MIN, *hi = INT16_MAX;
    else if (!strcmp(t, "uint16_t")) *lo = 0, *hi = UINT16_MAX;
    else if (!strcmp(t, "int32_t")) *lo = INT32_MIN, *hi = INT32_MAX;
    else if (!strcmp(t, "uint32_t")) *lo = 0, *hi = UINT32_MAX;
    else if (!strcmp(t, "int64_t")) *lo = INT64_MIN, *hi = INT64_MAX;
    else *lo = 0, *hi = INT64_MAX;
}

/* True if slot s of field f has bounds narrower than its C type: they are checked, or clamped. */
static bool range_checked(const nsc_field *f, const nsc_slot *s)
{
    if (!s->bounded || f->sem.type->kind == NSC_T_ENUM) return false;
    if (s->enc != NSC_ENC_INT && s->enc != NSC_ENC_INT64 && s->enc != NSC_ENC_RAW && s->enc != NSC_ENC_QUANT &&
        s->enc != NSC_ENC_VEC_Q && s->enc != NSC_ENC_QUAT_Q)
        return false;
    int64_t nlo, nhi;
    natural(s, &nlo, &nhi);
    return s->lo > nlo || s->hi < nhi;
}

/* ---- header ------------------------------------------------------------------------------ */

static void header_one(nsc_cgen *g, const nsc_decl *d)
{
    if (!has_authority(d)) return;
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, d);
    nsc_strbuf names = NSC_STRBUF_INIT;
    for (size_t i = 0; i < d->nfields; i++)
        if (d->fields[i]->sem.authority_owner) nsc_sb_printf(&names, "%s%s", names.len ? ", " : "", d->fields[i]->name.text);
    nsc_p_empty(h);
    nsc_p_comment(h, "Client-authoritative fields of %s (@authority(owner)): %s.", n, nsc_sb_str(&names));
    nsc_sb_free(&names);
    nsc_p_comment(h, "The longest message %s writes (header included), in bytes.", nsc_cg_fn(g, d, "authority_send"));
    nsc_p_line(h, "#define %s %uu", nsc_cg_macro(g, d, "AUTHORITY_MAX_BYTES"),
               (payload_bits(d) + 40u + 7u) / 8u);
    nsc_p_comment(h, "The server's check of an owner's write: NS_OK accepts, any other status refuses it.");
    nsc_p_line(h, "typedef ns_status (*%s)(const %s_snap *proposed, const %s_snap *current, void *ctx, "
                  "ns_authority_report *report);", nsc_cg_fn(g, d, "validate_fn"), n, n);
    nsc_p_comment(h, "Owner: writes the owner-written fields of snap (the payload of an authority message).");
    nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *snap);", nsc_cg_fn(g, d, "authority_write"), n);
    nsc_p_comment(h, "Owner: writes a whole authority message (header, then payload) for entity with value's fields.");
    nsc_p_line(h, "ns_status %s(ns_writer *w, uint32_t entity, const %s *value);", nsc_cg_fn(g, d, "authority_send"), n);
    nsc_p_comment(h, "Server: decodes a payload into *proposed's owner-written fields and checks them (no hook);");
    nsc_p_comment(h, "on an error those fields of *proposed are undefined: decode into a copy.");
    nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *proposed, ns_authority_report *report);",
               nsc_cg_fn(g, d, "authority_decode"), n);
    nsc_p_comment(h, "Server: decodes and checks a payload, calls validate (if not NULL), then stores it in *into;");
    nsc_p_comment(h, "on any error *into is unchanged and report (if not NULL) says why.");
    nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *into, const %s validate, void *ctx, ns_authority_report *report);",
               nsc_cg_fn(g, d, "authority_read"), n, nsc_cg_fn(g, d, "validate_fn"));
}

void nsc_cg_authority_header(nsc_cgen *g)
{
    for (size_t i = 0; i < g->norder; i++) {
        nsc_arena_mark mark = nsc_arena_get_mark(g->a);
        header_one(g, g->order[i]);
        nsc_arena_release(g->a, mark);
    }
}

/* ---- source ------------------------------------------------------------------------------ */

static void write_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_writer *w, const %s_snap *snap)", nsc_cg_fn(g, d, "authority_write"), n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (!w || !snap) return NS_ERR_ARGUMENT;");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!f->sem.authority_owner) continue;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        const char *u;
        unsigned bits = width(s, &u);
        for (unsigned k = 0; k < elements(s); k++) {
            const char *x = elem(g, "snap->", s, k);
            if (s->enc == NSC_ENC_BOOL) nsc_p_line(c, "ns_write_bool(w, %s);", x);
            else nsc_p_line(c, "ns_write_raw(w, (uint64_t)(%s)%s, %u);", u, x, bits);
        }
    }
    nsc_p_line(c, "return ns_writer_status(w);");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_writer *w, uint32_t entity, const %s *value)", nsc_cg_fn(g, d, "authority_send"), n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (!w || !value || entity > 0xffffffu) return NS_ERR_ARGUMENT;");
    nsc_p_line(c, "%s_snap snap;", n);
    nsc_p_line(c, "%s(value, &snap);", nsc_cg_fn(g, d, "quantize"));
    nsc_p_line(c, "ns_authority_write_header(w, entity, %uu);", d->id);
    nsc_p_line(c, "return %s(w, &snap);", nsc_cg_fn(g, d, "authority_write"));
    nsc_p_close(c, "}");
}

/* The checks of one field after it is read: finite floats, enum values, the range (refused, or
 * clamped with @authority(owner, clamp)). The first refusal in field order is reported. */
static void check_field(nsc_cgen *g, const nsc_field *f, const nsc_slot *s)
{
    nsc_printer *c = g->c;
    const char *name = f->name.text;
    const char *refuse = NSC_FMT(g, "return ns_authority_refuse(report, NS_ERR_RANGE, \"%s\");", name);
    switch (s->enc) {
    case NSC_ENC_FLOAT32:
    case NSC_ENC_VEC_F:
    case NSC_ENC_QUAT_F:
        /* Infinity or NaN: the exponent's bits all set. Never clamped: there is no nearest value. */
        for (unsigned k = 0; k < elements(s); k++)
            nsc_p_line(c, "if ((%s & 0x7f800000u) == 0x7f800000u) %s", elem(g, "s->", s, k), refuse);
        return;
    case NSC_ENC_FLOAT64:
        nsc_p_line(c, "if ((%s & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000)) %s",
                   elem(g, "s->", s, 0), refuse);
        return;
    case NSC_ENC_BOOL:
    case NSC_ENC_QUAT_S3:
        return; /* every pattern of its width is valid */
    default:
        break;
    }
    if (f->sem.type->kind == NSC_T_ENUM) {
        nsc_p_line(c, "if (!%s(%s)) %s", nsc_cg_fn(g, f->sem.type->decl, "is_valid"), elem(g, "s->", s, 0), refuse);
        return;
    }
    if (!range_checked(f, s)) return;
    int64_t nlo, nhi;
    natural(s, &nlo, &nhi);
    bool low = s->lo > nlo, high = s->hi < nhi;
    bool u64 = !strcmp(s->snap_ctype, "uint64_t");
    const char *lo = u64 ? NSC_FMT(g, "UINT64_C(%llu)", (unsigned long long)s->lo) : i64c(g, s->lo);
    const char *hi = u64 ? NSC_FMT(g, "UINT64_C(%llu)", (unsigned long long)s->hi) : i64c(g, s->hi);
    for (unsigned k = 0; k < elements(s); k++) {
        const char *x = elem(g, "s->", s, k);
        const char *below = NSC_FMT(g, "%s < %s", x, lo), *above = NSC_FMT(g, "%s > %s", x, hi);
        if (!f->sem.authority_clamp) {
            if (low && high) nsc_p_line(c, "if ((%s) | (%s)) %s", below, above, refuse);
            else nsc_p_line(c, "if (%s) %s", low ? below : above, refuse);
            continue;
        }
        if (low) nsc_p_line(c, "if (%s) %s = (%s)%s, clamped = true;", below, x, s->snap_ctype, lo);
        if (high) nsc_p_line(c, "if (%s) %s = (%s)%s, clamped = true;", above, x, s->snap_ctype, hi);
    }
    if (f->sem.authority_clamp) {
        nsc_p_line(c, "if (clamped) ns_authority_clamped(report, \"%s\");", name);
        nsc_p_line(c, "clamped = false;");
    }
}

static void decode_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    bool any_clamp = false;
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_reader *r, %s_snap *s, ns_authority_report *report)", nsc_cg_fn(g, d, "authority_decode"), n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "ns_authority_begin(report);");
    nsc_p_line(c, "if (!r || !s) return ns_authority_refuse(report, NS_ERR_ARGUMENT, NULL);");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (!f->sem.authority_owner) continue;
        const nsc_slot *s = nsc_cg_field_slot(d->layout, f);
        any_clamp |= f->sem.authority_clamp && range_checked(f, s);
        const char *u;
        unsigned bits = width(s, &u);
        for (unsigned k = 0; k < elements(s); k++) {
            const char *x = elem(g, "s->", s, k);
            if (s->enc == NSC_ENC_BOOL) nsc_p_line(c, "%s = ns_read_bool(r);", x);
            else if (!strcmp(u, s->snap_ctype)) nsc_p_line(c, "%s = (%s)ns_read_raw(r, %u);", x, u, bits);
            else nsc_p_line(c, "%s = (%s)(%s)ns_read_raw(r, %u);", x, s->snap_ctype, u, bits);
        }
    }
    nsc_p_comment(c, "Checked once everything is read: a short message is refused as truncated.");
    nsc_p_line(c, "if (ns_reader_failed(r)) return ns_authority_refuse(report, ns_reader_status(r), NULL);");
    if (any_clamp) nsc_p_line(c, "bool clamped = false;");
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (f->sem.authority_owner) check_field(g, f, nsc_cg_field_slot(d->layout, f));
    }
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");
}

static void read_fn(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_reader *r, %s_snap *into, const %s validate, void *ctx, ns_authority_report *report)",
               nsc_cg_fn(g, d, "authority_read"), n, nsc_cg_fn(g, d, "validate_fn"));
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (!into) return ns_authority_refuse(report, NS_ERR_ARGUMENT, NULL);");
    nsc_p_comment(c, "Decoded into a copy: a refused write leaves *into as it was.");
    nsc_p_line(c, "%s_snap proposed = *into;", n);
    nsc_p_line(c, "ns_status st = %s(r, &proposed, report);", nsc_cg_fn(g, d, "authority_decode"));
    nsc_p_line(c, "if (st == NS_OK && validate) st = ns_authority_checked(report, validate(&proposed, into, ctx, report));");
    nsc_p_line(c, "if (st == NS_OK) *into = proposed;");
    nsc_p_line(c, "return st;");
    nsc_p_close(c, "}");
}

void nsc_cg_authority(nsc_cgen *g, const nsc_decl *d)
{
    if (!has_authority(d)) return;
    write_fn(g, d);
    decode_fn(g, d);
    read_fn(g, d);
}

bool nsc_cg_has_authority(const nsc_decl *d)
{
    return has_authority(d);
}
