/* emit_c_union.c — generated code for unions (idl/SPEC.md, "Unions"; docs/wire.md section 12.9):
 * the value and snapshot types (a tag, then an anonymous C union of the member structs), tag
 * macros, and the functions a record calls for a union field: _init, _set_<member>, _quantize,
 * _dequantize, _snap_equal, _equal, _write, _read, _interpolate and the descriptor.
 *
 * A union is one slot of the records that hold it: the record's emitters only print calls to
 * these functions (emit_c_codec.c, emit_c_values.c, emit_c_smooth.c), so nothing here is
 * called back from them. The members not chosen by the tag are kept zero in every snapshot and
 * value this code produces, so snapshots of equal unions are equal byte for byte too. */
#include "emit_c.h"

static const nsc_decl *member_struct(const nsc_decl *u, size_t i)
{
    return u->fields[i]->sem.type->decl;
}

static const char *tag_macro(nsc_cgen *g, const nsc_decl *u, size_t i)
{
    return nsc_cg_macro(g, u, u->fields[i]->name.text);
}

/* ---- header ------------------------------------------------------------------------------- */

/* `typedef struct <U>[_snap] { uint8_t tag; union { ... }; } <U>[_snap];` */
static void union_struct(nsc_cgen *g, const nsc_decl *u, bool snap)
{
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, u), *sfx = snap ? "_snap" : "";
    nsc_p_open(h, "typedef struct %s%s {", n, sfx);
    nsc_p_line(h, "uint8_t tag; /* which member holds the value: %s .. %s */", tag_macro(g, u, 0),
               tag_macro(g, u, u->nfields - 1));
    nsc_p_open(h, "union {");
    for (size_t i = 0; i < u->nfields; i++) {
        const nsc_field *f = u->fields[i];
        if (f->doc && !snap) nsc_p_doc(h, f->doc);
        nsc_p_line(h, "%s%s %s;", nsc_cg_name(g, member_struct(u, i)), sfx, f->name.text);
    }
    nsc_p_close(h, "};");
    nsc_p_close(h, "} %s%s;", n, sfx);
}

void nsc_cg_union_types(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, u);
    nsc_p_blank(h);
    nsc_p_line(h, "/* ---- union %s ---- */", u->name.text);
    nsc_p_empty(h);
    nsc_p_doc(h, u->doc);
    nsc_p_comment(h, "One of its members, named by tag; the members not named stay zero.");
    union_struct(g, u, false);
    nsc_p_empty(h);
    nsc_p_comment(h, "The quantized state of %s: the tag and its member's snapshot.", n);
    union_struct(g, u, true);
    nsc_p_empty(h);
    nsc_p_comment(h, "The tags of %s's members.", n);
    for (size_t i = 0; i < u->nfields; i++) nsc_p_line(h, "#define %s %zuu", tag_macro(g, u, i), i);
    nsc_p_line(h, "#define %s %zuu", nsc_cg_macro(g, u, "COUNT"), u->nfields);
}

void nsc_cg_union_prototypes(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *h = g->h;
    const char *n = nsc_cg_name(g, u);
    nsc_p_blank(h);
    nsc_p_line(h, "/* %s */", n);
    nsc_p_comment(h, "The first member, %s, with its schema defaults.", u->fields[0]->name.text);
    nsc_p_line(h, "void %s(%s *v);", nsc_cg_fn(g, u, "init"), n);
    for (size_t i = 0; i < u->nfields; i++) {
        const char *m = u->fields[i]->name.text;
        nsc_p_comment(h, "Makes %s the member, holding *value (the other members zeroed).", m);
        nsc_p_line(h, "void %s(%s *v, const %s *value);", nsc_cg_fn(g, u, NSC_FMT(g, "set_%s", m)), n,
                   nsc_cg_name(g, member_struct(u, i)));
    }
    nsc_p_comment(h, "Quantizes the member the tag names (an unknown tag is kept: _write refuses it).");
    nsc_p_line(h, "void %s(const %s *v, %s_snap *s);", nsc_cg_fn(g, u, "quantize"), n, n);
    nsc_p_comment(h, "The value a snapshot stands for.");
    nsc_p_line(h, "void %s(const %s_snap *s, %s *v);", nsc_cg_fn(g, u, "dequantize"), n, n);
    nsc_p_comment(h, "True if both hold the same member with identical snapshots.");
    nsc_p_line(h, "bool %s(const %s_snap *a, const %s_snap *b);", nsc_cg_fn(g, u, "snap_equal"), n, n);
    nsc_p_comment(h, "True if both hold the same member with identical values (floats bitwise).");
    nsc_p_line(h, "bool %s(const %s *a, const %s *b);", nsc_cg_fn(g, u, "equal"), n, n);
    nsc_p_comment(h, "Writes the tag, then the member against ref's when ref holds the same member, else against");
    nsc_p_comment(h, "its defaults (ref NULL: the union's defaults). An unknown tag is NS_ERR_RANGE, the writer unmoved.");
    nsc_p_line(h, "ns_status %s(ns_writer *w, const %s_snap *cur, const %s_snap *ref);", nsc_cg_fn(g, u, "write"), n, n);
    nsc_p_comment(h, "Reads what _write wrote against the same ref; a tag past the last member is NS_ERR_RANGE.");
    nsc_p_comment(h, "On error out keeps what it held.");
    nsc_p_line(h, "ns_status %s(ns_reader *r, %s_snap *out, const %s_snap *ref);", nsc_cg_fn(g, u, "read"), n, n);
    nsc_p_comment(h, "The member's own interpolation while both hold the same member; else from until t reaches 1.");
    nsc_p_line(h, "void %s(const %s_snap *from, const %s_snap *to, float t, %s *out);", nsc_cg_fn(g, u, "interpolate"), n,
               n, n);
    nsc_p_comment(h, "The snapshot of the defaults: the first member's.");
    nsc_p_line(h, "extern const %s_snap %s;", n, nsc_cg_fn(g, u, "snap_default"));
    nsc_p_line(h, "extern const ns_type_desc %s;", nsc_cg_fn(g, u, "desc"));
}

/* ---- source ------------------------------------------------------------------------------- */

/* `switch (<on>) { case <TAG>: <stmt> break; ... default: <dflt> }`: stmt is fmt formatted with
 * the member struct's function `suffix` and then the member's name three times; no `break` after
 * a stmt that returns. */
static void member_switch(nsc_cgen *g, const nsc_decl *u, const char *on, const char *fmt, const char *suffix,
                          bool returns, const char *dflt)
{
    nsc_printer *c = g->c;
    nsc_p_line(c, "switch (%s) {", on);
    for (size_t i = 0; i < u->nfields; i++) {
        const char *m = u->fields[i]->name.text;
        nsc_p_line(c, "case %s:", tag_macro(g, u, i));
        nsc_p_line(c, "    %s", NSC_FMT(g, fmt, nsc_cg_fn(g, member_struct(u, i), suffix), m, m, m));
        if (!returns) nsc_p_line(c, "    break;");
    }
    nsc_p_line(c, "default:");
    nsc_p_line(c, "    %s", dflt);
    nsc_p_line(c, "}");
}

static void defaults(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, u);
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_sb_puts(&sb, "{0, {");
    nsc_cg_snap_initializer(g, u->fields[0]->sem.type, &sb);
    nsc_sb_puts(&sb, "}}");
    nsc_p_blank(c);
    nsc_p_comment(c, "The snapshot of the defaults: the first member, with its struct's defaults.");
    nsc_p_line(c, "const %s_snap %s = %s;", n, nsc_cg_fn(g, u, "snap_default"), nsc_sb_str(&sb));
    nsc_sb_free(&sb);

    nsc_p_empty(c);
    nsc_p_line(c, "void %s(%s *v)", nsc_cg_fn(g, u, "init"), n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "memset(v, 0, sizeof *v);");
    nsc_p_line(c, "%s(&v->%s);", nsc_cg_fn(g, member_struct(u, 0), "init"), u->fields[0]->name.text);
    nsc_p_close(c, "}");

    for (size_t i = 0; i < u->nfields; i++) {
        const char *m = u->fields[i]->name.text, *mt = nsc_cg_name(g, member_struct(u, i));
        nsc_p_empty(c);
        nsc_p_line(c, "void %s(%s *v, const %s *value)", nsc_cg_fn(g, u, NSC_FMT(g, "set_%s", m)), n, mt);
        nsc_p_open(c, "{");
        nsc_p_line(c, "const %s copy = *value; /* value may be v's own member */", mt);
        nsc_p_line(c, "memset(v, 0, sizeof *v);");
        nsc_p_line(c, "v->tag = %s;", tag_macro(g, u, i));
        nsc_p_line(c, "v->%s = copy;", m);
        nsc_p_close(c, "}");
    }
}

static void conversions(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, u);
    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s *v, %s_snap *s)", nsc_cg_fn(g, u, "quantize"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "memset(s, 0, sizeof *s);");
    nsc_p_line(c, "s->tag = v->tag;");
    member_switch(g, u, "v->tag", "%s(&v->%s, &s->%s);", "quantize", false, "break; /* kept: _write refuses it */");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *s, %s *v)", nsc_cg_fn(g, u, "dequantize"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "memset(v, 0, sizeof *v);");
    nsc_p_line(c, "v->tag = s->tag;");
    member_switch(g, u, "s->tag", "%s(&s->%s, &v->%s);", "dequantize", false, "break;");
    nsc_p_close(c, "}");

    static const char *const equal[2][2] = {{"snap_equal", "_snap"}, {"equal", ""}};
    for (int k = 0; k < 2; k++) {
        nsc_p_empty(c);
        nsc_p_line(c, "bool %s(const %s%s *a, const %s%s *b)", nsc_cg_fn(g, u, equal[k][0]), n, equal[k][1], n,
                   equal[k][1]);
        nsc_p_open(c, "{");
        nsc_p_line(c, "if (a->tag != b->tag) return false;");
        member_switch(g, u, "a->tag", "return %s(&a->%s, &b->%s);", equal[k][0], true, "return true;");
        nsc_p_close(c, "}");
    }
}

static void codec(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, u);
    const unsigned bits = u->layout->nslots ? u->layout->slots[0].raw_bits : 0;
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_writer *w, const %s_snap *cur, const %s_snap *ref_in)", nsc_cg_fn(g, u, "write"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "const %s_snap *ref = ref_in ? ref_in : &%s;", n, nsc_cg_fn(g, u, "snap_default"));
    nsc_p_line(c, "if (cur->tag >= %s) return NS_ERR_RANGE;", nsc_cg_macro(g, u, "COUNT"));
    nsc_p_comment(c, "Against the reference's member when it holds the same one, else against the member's defaults.");
    nsc_p_line(c, "const bool same = cur->tag == ref->tag;");
    nsc_p_line(c, "const ns_writer at = *w;");
    nsc_p_line(c, "ns_status st = NS_OK;");
    if (bits) nsc_p_line(c, "ns_write_raw(w, cur->tag, %u);", bits);
    member_switch(g, u, "cur->tag", "st = %s(w, &cur->%s, same ? &ref->%s : NULL);", "write", false, "break;");
    nsc_p_line(c, "if (st != NS_OK) *w = at; /* the writer unmoved */");
    nsc_p_line(c, "return st;");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_reader *rp, %s_snap *out, const %s_snap *ref_in)", nsc_cg_fn(g, u, "read"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "const %s_snap *ref = ref_in ? ref_in : &%s;", n, nsc_cg_fn(g, u, "snap_default"));
    nsc_p_line(c, "ns_reader r = *rp;");
    nsc_p_line(c, "%s_snap v;", n);
    nsc_p_line(c, "memset(&v, 0, sizeof v);");
    if (bits) nsc_p_line(c, "v.tag = (uint8_t)ns_read_raw_i64(&r, %u, 0, %zu);", bits, u->nfields - 1);
    else nsc_p_line(c, "v.tag = 0;");
    nsc_p_line(c, "const bool same = v.tag == ref->tag;");
    nsc_p_line(c, "ns_status st = NS_OK;");
    nsc_p_open(c, "if (!ns_reader_failed(&r)) {");
    member_switch(g, u, "v.tag", "st = %s(&r, &v.%s, same ? &ref->%s : NULL);", "read", false, "break;");
    nsc_p_close(c, "}");
    nsc_p_line(c, "if (st == NS_OK) st = ns_reader_status(&r);");
    nsc_p_comment(c, "On error the destination keeps what it held.");
    nsc_p_line(c, "if (st != NS_OK) return st;");
    nsc_p_line(c, "*rp = r;");
    nsc_p_line(c, "*out = v;");
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");

    nsc_p_empty(c);
    nsc_p_line(c, "void %s(const %s_snap *from, const %s_snap *to, float t, %s *out)", nsc_cg_fn(g, u, "interpolate"), n, n,
               n);
    nsc_p_open(c, "{");
    nsc_p_open(c, "if (from->tag != to->tag) {");
    nsc_p_line(c, "%s(t >= 1.0f ? to : from, out);", nsc_cg_fn(g, u, "dequantize"));
    nsc_p_line(c, "return;");
    nsc_p_close(c, "}");
    nsc_p_line(c, "memset(out, 0, sizeof *out);");
    nsc_p_line(c, "out->tag = to->tag;");
    member_switch(g, u, "to->tag", "%s(&from->%s, &to->%s, t, &out->%s);", "interpolate", false, "break;");
    nsc_p_close(c, "}");
}

static void descriptor(nsc_cgen *g, const nsc_decl *u)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, u), *fields = nsc_cg_fn(g, u, "desc_fields");
    nsc_p_empty(c);
    nsc_p_comment(c, "One field per member, in tag order: a struct coded by its own change mask.");
    nsc_p_open(c, "static const ns_field_desc %s[] = {", fields);
    for (size_t i = 0; i < u->nfields; i++) {
        const char *m = u->fields[i]->name.text;
        nsc_p_line(c, "{\"%s\", NS_ENC_COMPOSITE, 1, 0, 0, offsetof(%s, %s), offsetof(%s_snap, %s), "
                      "sizeof(((%s_snap *)0)->%s), INT64_C(0), INT64_C(0), 0, %uu, 0u, &%s, NULL, NULL, NULL},",
                   m, n, m, n, m, n, m, u->layout->slots[i].max_bits, nsc_cg_fn(g, member_struct(u, i), "desc"));
    }
    nsc_p_close(c, "};");
    nsc_p_open(c, "const ns_type_desc %s = {", nsc_cg_fn(g, u, "desc"));
    nsc_p_line(c, "\"%s\", \"%s\", \"%s\", NS_KIND_UNION, 0u, UINT64_C(0x%016llx),", u->name.text, n, u->unit->package,
               (unsigned long long)u->hash);
    nsc_p_line(c, "sizeof(%s), sizeof(%s_snap), %uu, %s, %zuu, &%s,", n, n, u->layout->max_bits_all, fields, u->nfields,
               nsc_cg_fn(g, u, "snap_default"));
    nsc_p_close(c, "};");
}

void nsc_cg_union_source(nsc_cgen *g, const nsc_decl *u)
{
    defaults(g, u);
    conversions(g, u);
    codec(g, u);
    descriptor(g, u);
}
