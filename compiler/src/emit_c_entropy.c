/* emit_c_entropy.c — the entry points of the entropy coding mode for components declared with
 * @model(entropy): <R>_entropy_write and <R>_entropy_read, thin typed wrappers that hand the
 * record's descriptor to the runtime's descriptor-driven coder (netschema/entropy.h). Nothing is
 * printed for a schema without @model(entropy), so every other schema's output is unchanged. */
#include "emit_c.h"

static bool any_entropy(const nsc_cgen *g)
{
    for (size_t i = 0; i < g->norder; i++)
        if (g->order[i]->entropy) return true;
    return false;
}

void nsc_cg_entropy_header(nsc_cgen *g)
{
    if (!any_entropy(g)) return;
    nsc_printer *h = g->h;
    nsc_p_empty(h);
    nsc_p_line(h, "#include <netschema/entropy.h>");
    for (size_t i = 0; i < g->norder; i++) {
        const nsc_decl *d = g->order[i];
        if (!d->entropy) continue;
        nsc_arena_mark mark = nsc_arena_get_mark(g->a);
        const char *n = nsc_cg_name(g, d);
        nsc_p_empty(h);
        nsc_p_comment(h, "The entropy mode of %s (@model(entropy), netschema/entropy.h): count snapshots in one packet,",
                      n);
        nsc_p_comment(h, "entity k against base[k]; prior: trained starting probabilities, or NULL.");
        nsc_p_line(h, "ns_status %s(const %s_snap *snaps, const ns_baselines *base, size_t count, ns_entropy_work *work,",
                   nsc_cg_fn(g, d, "entropy_write"), n);
        nsc_p_line(h, "    const ns_entropy_prior *prior, void *buf, size_t cap, size_t *len);");
        nsc_p_line(h, "ns_status %s(%s_snap *out, const ns_baselines *base, size_t count, ns_entropy_work *work,",
                   nsc_cg_fn(g, d, "entropy_read"), n);
        nsc_p_line(h, "    const ns_entropy_prior *prior, const void *buf, size_t len);");
        nsc_arena_release(g->a, mark);
    }
}

void nsc_cg_entropy(nsc_cgen *g, const nsc_decl *d)
{
    if (!d->entropy) return;
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d), *desc = nsc_cg_fn(g, d, "desc");
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(const %s_snap *snaps, const ns_baselines *base, size_t count, ns_entropy_work *work,",
               nsc_cg_fn(g, d, "entropy_write"), n);
    nsc_p_line(c, "    const ns_entropy_prior *prior, void *buf, size_t cap, size_t *len)");
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_entropy_write(&%s, snaps, base, count, work, prior, buf, cap, len, NULL);", desc);
    nsc_p_close(c, "}");
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s(%s_snap *out, const ns_baselines *base, size_t count, ns_entropy_work *work,",
               nsc_cg_fn(g, d, "entropy_read"), n);
    nsc_p_line(c, "    const ns_entropy_prior *prior, const void *buf, size_t len)");
    nsc_p_open(c, "{");
    nsc_p_line(c, "return ns_entropy_read(&%s, out, base, count, work, prior, buf, len);", desc);
    nsc_p_close(c, "}");
}
