/* emit_c_table.c — the table mode (`netschemac --codec table`, nsc_options.codec; docs/generated-api.md
 * "Table mode"): a record's _write and _read keep their names and signatures but their bodies call
 * the runtime's descriptor-driven functions (netschema/table.h) with the record's <pkg>_<T>_desc,
 * instead of the straight-line code of emit_c_codec.c, and _snap_equal calls ns_table_snap_equal.
 * The runtime puts the same bits on the wire,
 * so the two modes interoperate; the table mode trades encode and decode speed for much less C
 * to compile. Records the descriptor cannot code — those holding an extern struct, whose codec is
 * the user's — keep the straight-line codec (nsc_cg_table_eligible). Only emit_c.c calls this file;
 * it calls nothing of the other emit_c_*.c files but names (emit_c_types.c, emit_c_coll.c) and
 * nsc_cg_value_equality (emit_c_values.c) for _equal, which compares values, not snapshots. */
#include <string.h>

#include "emit_c.h"

static bool slots_custom(const nsc_layout *l)
{
    for (size_t i = 0; l && i < l->nslots; i++) {
        const nsc_slot *s = &l->slots[i];
        if (s->enc == NSC_ENC_CUSTOM) return true;
        if ((s->enc == NSC_ENC_STRUCT || s->enc == NSC_ENC_ARRAY) && slots_custom(s->composite)) return true;
    }
    return false;
}

bool nsc_cg_table_eligible(nsc_cgen *g, const nsc_decl *d)
{
    if (g->ctx->opt.codec != NSC_CODEC_TABLE || d->kind == NSC_D_UNION || !d->layout) return false;
    return !slots_custom(d->layout);
}

void nsc_cg_table_codec(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d), *desc = nsc_cg_fn(g, d, "desc");
    const char *params, *ref, *base, *to, *profile;
    switch (d->kind) {
    case NSC_D_COMPONENT:
        params = "const ns_baselines *base, ns_audience to";
        ref = "NULL", base = "base", to = "to", profile = "base, to, NULL";
        break;
    case NSC_D_INPUT:
        params = NSC_FMT(g, "const %s_snap *prev", n);
        ref = "prev", base = "NULL", to = "NS_TO_OWNER", profile = "NULL, NS_TO_OWNER, prev";
        break;
    case NSC_D_STRUCT:
        params = NSC_FMT(g, "const %s_snap *ref_in", n);
        ref = "ref_in", base = "NULL", to = "NS_TO_OWNER", profile = NULL; /* counted in their collection */
        break;
    default:
        params = NULL;
        ref = "NULL", base = "NULL", to = "NS_TO_OWNER", profile = "NULL, NS_TO_OWNER, NULL";
        break;
    }
    const char *sep = params ? ", " : "";
    params = params ? params : "";
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_writer *wp, const %s_snap *cur%s%s)", nsc_cg_fn(g, d, "write"), n, sep, params);
    nsc_p_open(c, "{");
    nsc_p_comment(c, "Table mode (netschema/table.h).");
    nsc_p_line(c, "ns_writer w = *wp;");
    nsc_p_line(c, "const ns_status st = ns_table_write(&w, &%s, cur, %s, %s, %s);", desc, ref, base, to);
    nsc_p_line(c, "if (st != NS_OK) return st;");
    if (profile) nsc_p_line(c, "NS_PROFILE_WRITE(&%s, wp, &w, %s);", desc, profile);
    nsc_p_line(c, "*wp = w;");
    nsc_p_line(c, "return ns_writer_status(&w);");
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(ns_reader *rp, %s_snap *out%s%s)", nsc_cg_fn(g, d, "read"), n, sep, params);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_read(rp, &%s, out, %s, %s, %s);", desc, ref, base, to);
    nsc_p_close(c, "}");
}

void nsc_cg_table_equality(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "bool %s(const %s_snap *a, const %s_snap *b)", nsc_cg_fn(g, d, "snap_equal"), n, n);
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_table_snap_equal(&%s, a, b);", nsc_cg_fn(g, d, "desc"));
    nsc_p_close(c, "}");
    nsc_cg_value_equality(g, d); /* values: the same code as the default mode's */
}
