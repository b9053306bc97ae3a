/* emit_c_dispatch.c — the dispatch tables (runtime/include/netschema/schema.h): type-erased
 * wrappers, <prefix>_components[], <prefix>_messages[] and <prefix>_schema; the typed handler
 * table <prefix>_handlers with <prefix>_dispatch; and each input's and rpc's _send.
 *
 * The tables list every component, input and rpc the schema sees: its own and those of every
 * schema it imports, directly or not (ids are unique across all of them, idl/SPEC.md §4.9), so
 * the top schema of a game describes all of it. The wrappers are static in each file that lists
 * a type and call only the type's public functions (and its public _snap_default), so any number
 * of schemas importing one file link together. A message's _send is defined once, in the file
 * of the schema that declares it. The message id on the wire is a packed u32 in the default
 * model (docs/wire.md §13). */
#include <stdlib.h>

#include "emit_c.h"

/* ---- what the schema sees ---------------------------------------------------------------- */

typedef struct seen_records {
    const nsc_decl **components, **messages;
    size_t           ncomponents, nmessages;
} seen_records;

static void gather(const nsc_unit *u, nsc_map *visited, seen_records *s)
{
    const char *key = u->src->path;
    if (nsc_map_get(visited, key)) return;
    nsc_map_put(visited, key, (void *)u);
    for (size_t i = 0; i < u->ndecls; i++) {
        const nsc_decl *d = u->decls[i];
        if (d->kind == NSC_D_IMPORT && d->target) gather(d->target, visited, s);
        else if (d->kind == NSC_D_COMPONENT) s->components[s->ncomponents++] = d;
        else if (d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC) s->messages[s->nmessages++] = d;
    }
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = (*(const nsc_decl *const *)a)->id, y = (*(const nsc_decl *const *)b)->id;
    return x < y ? -1 : x > y;
}

/* Components and messages of u and of everything it imports, each sorted by type id. */
static seen_records seen_by(nsc_cgen *g)
{
    size_t cap = 1; /* every declaration of every unit loaded: the imports are among them */
    for (size_t i = 0; i < g->ctx->nunits; i++) cap += g->ctx->units[i]->ndecls;
    seen_records s = {NSC_NEW_ARRAY(g->a, const nsc_decl *, cap), NSC_NEW_ARRAY(g->a, const nsc_decl *, cap), 0, 0};
    nsc_map visited = {0};
    gather(g->u, &visited, &s);
    nsc_map_free(&visited);
    qsort((void *)s.components, s.ncomponents, sizeof *s.components, by_id);
    qsort((void *)s.messages, s.nmessages, sizeof *s.messages, by_id);
    return s;
}

/* ---- header ------------------------------------------------------------------------------ */

/* The handler member of message d: on_<prefix>_<Name> (the C name is unique across imports). */
static const char *handler(nsc_cgen *g, const nsc_decl *d)
{
    return NSC_FMT(g, "on_%s", nsc_cg_name(g, d));
}

static const char *prev_member(nsc_cgen *g, const nsc_decl *d)
{
    return NSC_FMT(g, "prev_%s", nsc_cg_name(g, d));
}

static const char *send_signature(nsc_cgen *g, const nsc_decl *d)
{
    const char *n = nsc_cg_name(g, d);
    if (d->kind == NSC_D_INPUT)
        return NSC_FMT(g, "ns_status %s(ns_writer *w, const %s *msg, %s_snap *prev)", nsc_cg_fn(g, d, "send"), n, n);
    return NSC_FMT(g, "ns_status %s(ns_writer *w, const %s *msg)", nsc_cg_fn(g, d, "send"), n);
}

static void header_handlers(nsc_cgen *g, const seen_records *s)
{
    nsc_printer *h = g->h;
    const char *p = g->u->prefix;
    nsc_p_blank(h);
    nsc_p_comment(h, "One callback per input and rpc: %s_dispatch calls the one of the message it reads.", p);
    nsc_p_open(h, "typedef struct %s_handlers {", p);
    for (size_t i = 0; i < s->nmessages; i++) {
        const nsc_decl *d = s->messages[i];
        const char *n = nsc_cg_name(g, d);
        nsc_p_comment(h, "%s %s (id %u); NULL: the message is read and skipped.", nsc_decl_kind_name(d->kind), n, d->id);
        nsc_p_line(h, "void (*%s)(void *ctx, const %s *msg);", handler(g, d), n);
        if (d->kind != NSC_D_INPUT) continue;
        nsc_p_comment(h, "The previous %s read on this stream: read against (NULL: the defaults), then replaced.", n);
        nsc_p_line(h, "%s_snap *%s;", n, prev_member(g, d));
    }
    if (s->nmessages == 0) nsc_p_line(h, "void *ns_unused;");
    nsc_p_close(h, "} %s_handlers;", p);
}

static void header(nsc_cgen *g, const seen_records *s)
{
    nsc_printer *h = g->h;
    const char *p = g->u->prefix;
    nsc_p_blank(h);
    nsc_p_line(h, "/* ---- dispatch tables ---- */");
    nsc_p_empty(h);
    const nsc_decl **order = g->order;
    size_t n = g->norder;
    if (n) nsc_p_comment(h, "The snapshot of each record's schema defaults (what _read decodes when nothing changed).");
    for (size_t i = 0; i < n; i++) {
        if (order[i]->kind == NSC_D_UNION) continue; /* declared with its functions */
        nsc_arena_mark mark = nsc_arena_get_mark(g->a); /* see source() in emit_c.c */
        nsc_p_line(h, "extern const %s_snap %s;", nsc_cg_name(g, order[i]), nsc_cg_fn(g, order[i], "snap_default"));
        nsc_arena_release(g->a, mark);
    }
    nsc_p_blank(h);
    if (s->ncomponents) {
        nsc_p_comment(h, "Every component this schema sees (its own and its imports'), by type id: %zu.", s->ncomponents);
        nsc_p_line(h, "extern const ns_component_ops %s_components[];", p);
    }
    if (s->nmessages) {
        nsc_p_comment(h, "Every input and rpc this schema sees, by type id: %zu.", s->nmessages);
        nsc_p_line(h, "extern const ns_message_ops %s_messages[];", p);
    }
    nsc_p_comment(h, "The schema as the runtime sees it: package, hash and both tables.");
    nsc_p_line(h, "extern const ns_schema %s_schema;", p);
    header_handlers(g, s);
    nsc_p_empty(h);
    nsc_p_line(h, "/* Reads one message (its id, then its body) and calls its handler. *id_out (unless NULL) gets");
    nsc_p_line(h, " * the id once read; an id of no input or rpc here is NS_ERR_UNKNOWN_TYPE. */");
    nsc_p_line(h, "ns_status %s_dispatch(ns_reader *r, const %s_handlers *h, void *ctx, uint32_t *id_out);", p, p);
    for (size_t i = 0; i < g->u->ndecls; i++) {
        const nsc_decl *d = g->u->decls[i];
        if (d->kind != NSC_D_INPUT && d->kind != NSC_D_RPC) continue;
        if (d->kind == NSC_D_INPUT)
            nsc_p_comment(h, "Writes the id and msg against *prev (NULL: the defaults); on success *prev becomes msg.");
        else
            nsc_p_comment(h, "Writes the id and msg, for %s_dispatch to read.", p);
        nsc_p_line(h, "%s;", send_signature(g, d));
    }
}

/* ---- source: wrappers -------------------------------------------------------------------- */

/* The name of a file-local helper of record d: <prefix>_<Name>_erased_<fn>. */
static const char *erased(nsc_cgen *g, const nsc_decl *d, const char *fn)
{
    return nsc_cg_fn(g, d, NSC_FMT(g, "erased_%s", fn));
}

/* The entity fields of record d, its structs' members included: one ns_entity_field each, the
 * offsets relative to `snap` and `value` (C expressions ending in " + ", or ""). `coll` is NULL
 * outside a collection, else the rest of an entry for the elements of the collection holding
 * d: capacity, count offset, strides and order offset (netschema/schema.h). A fixed array's
 * elements are fields of their own (the layout flattened them). Set elements and map keys
 * are not listed: they are their collection's keys, and stay network references. `tag` is NULL
 * outside a union, else an entry's last two columns: 1 + its union's tag offset, and the tag of
 * the member holding d. */
static size_t entity_fields(nsc_cgen *g, const nsc_decl *d, const char *snap, const char *value, const char *coll,
                            const char *tag, bool print)
{
    size_t n = 0;
    const char *name = nsc_cg_name(g, d);
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        const nsc_type *t = f->sem.type;
        const char *fn = f->name.text;
        if (t->kind == NSC_T_STRUCT) {
            n += entity_fields(g, t->decl, NSC_FMT(g, "%soffsetof(%s_snap, %s) + ", snap, name, fn),
                               NSC_FMT(g, "%soffsetof(%s, %s) + ", value, name, fn), coll, tag, print);
        } else if (t->kind == NSC_T_ENTITY) {
            if (print)
                nsc_p_line(g->c, "{(uint32_t)(%soffsetof(%s_snap, %s)), (uint32_t)(%soffsetof(%s, %s)), %s, %s},", snap,
                           name, fn, value, name, fn, coll ? coll : "0, 0, 0, 0, 0", tag ? tag : "0, 0");
            n++;
        } else if (t->kind == NSC_T_UNION) {
            /* Each member's references, there while the union's tag names the member (unions
             * hold no collections and sit in none: idl/SPEC.md, "Unions"). */
            const char *u = nsc_cg_name(g, t->decl);
            for (size_t m = 0; m < t->decl->nfields; m++) {
                const nsc_field *mf = t->decl->fields[m];
                const char *cond = NSC_FMT(g, "(uint32_t)(%soffsetof(%s_snap, %s.tag)) + 1u, %zuu", snap, name, fn, m);
                n += entity_fields(g, mf->sem.type->decl,
                                   NSC_FMT(g, "%soffsetof(%s_snap, %s) + offsetof(%s_snap, %s) + ", snap, name, fn, u,
                                           mf->name.text),
                                   NSC_FMT(g, "%soffsetof(%s, %s) + offsetof(%s, %s) + ", value, name, fn, u, mf->name.text),
                                   NULL, cond, print);
            }
        } else if (!coll && (t->kind == NSC_T_LIST || t->kind == NSC_T_MAP || t->kind == NSC_T_FASTARRAY)) {
            /* Collection elements cannot hold collections (idl/SPEC.md, struct): one level. */
            const char *items = t->kind == NSC_T_MAP ? "values" : "items";
            const char *elem = t->kind == NSC_T_FASTARRAY ? "items[0].value" : items;
            const char *order = t->kind == NSC_T_FASTARRAY && f->sem.ordered
                                    ? NSC_FMT(g, "(uint32_t)(%soffsetof(%s_snap, %s.order))", snap, name, fn)
                                    : "0";
            const char *inner = NSC_FMT(g,
                                        "%uu, (uint32_t)(%soffsetof(%s_snap, %s.count)), (uint32_t)sizeof(((%s_snap *)0)->%s.%s[0]), "
                                        "(uint32_t)sizeof(((%s *)0)->%s.%s[0]), %s",
                                        t->capacity, snap, name, fn, name, fn, items, name, fn, items, order);
            const char *so = NSC_FMT(g, "%soffsetof(%s_snap, %s.%s)", snap, name, fn, elem);
            const char *vo = NSC_FMT(g, "%soffsetof(%s, %s.%s)", value, name, fn, elem);
            if (t->elem->kind == NSC_T_ENTITY) {
                if (print) nsc_p_line(g->c, "{(uint32_t)(%s), (uint32_t)(%s), %s, 0, 0},", so, vo, inner);
                n++;
            } else if (t->elem->kind == NSC_T_STRUCT) {
                n += entity_fields(g, t->elem->decl, NSC_FMT(g, "%s + ", so), NSC_FMT(g, "%s + ", vo), inner, NULL, print);
            }
        }
    }
    return n;
}

/* A component's table of entity fields, when it has any. */
static void entity_table(nsc_cgen *g, const nsc_decl *d)
{
    if (entity_fields(g, d, "", "", NULL, NULL, false) == 0) return;
    nsc_p_empty(g->c);
    nsc_p_open(g->c, "static const ns_entity_field %s[] = {", erased(g, d, "entities"));
    entity_fields(g, d, "", "", NULL, NULL, true);
    nsc_p_close(g->c, "};");
}

/* ns_component_ops.authority_read of a component with @authority(owner) fields: the typed
 * _authority_read with an untyped hook, and without a destination for a write that is read
 * only to be refused (netschema/replication.h, ns_world_read_authority). */
static void authority_wrapper(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    nsc_p_empty(c);
    nsc_p_line(c, "static ns_status %s(ns_reader *r, void *snap, ns_authority_validate_fn validate, void *ctx, "
                  "ns_authority_report *report)", erased(g, d, "authority_read"));
    nsc_p_open(c, "{");
    nsc_p_line(c, "%s_snap proposed = snap ? *(const %s_snap *)snap : %s;", n, n, nsc_cg_fn(g, d, "snap_default"));
    nsc_p_line(c, "ns_status st = %s(r, &proposed, report);", nsc_cg_fn(g, d, "authority_decode"));
    nsc_p_line(c, "if (!snap || st != NS_OK) return st;");
    nsc_p_line(c, "if (validate) st = ns_authority_checked(report, validate(&proposed, snap, ctx, report));");
    nsc_p_line(c, "if (st == NS_OK) *(%s_snap *)snap = proposed;", n);
    nsc_p_line(c, "return st;");
    nsc_p_close(c, "}");
}

/* The type-erased wrappers of a component's row (netschema/schema.h), its entity fields and its
 * authority reader. */
static void component_wrappers(nsc_cgen *g, const nsc_decl *d)
{
    nsc_p_blank(g->c);
    nsc_p_line(g->c, "NS_COMPONENT_WRAPPERS(%s)", nsc_cg_name(g, d));
    entity_table(g, d);
    if (nsc_cg_has_authority(d)) authority_wrapper(g, d);
}

static void message_wrappers(nsc_cgen *g, const nsc_decl *d)
{
    nsc_p_blank(g->c);
    nsc_p_line(g->c, "%s(%s)", d->kind == NSC_D_INPUT ? "NS_INPUT_WRAPPERS" : "NS_RPC_WRAPPERS", nsc_cg_name(g, d));
}

/* ---- source: tables ---------------------------------------------------------------------- */

static const char *message_kind(const nsc_decl *d)
{
    if (d->kind == NSC_D_INPUT) return "NS_MSG_INPUT";
    return d->unreliable ? "NS_MSG_RPC_UNRELIABLE" : "NS_MSG_RPC";
}

static void tables(nsc_cgen *g, const seen_records *s)
{
    nsc_printer *c = g->c;
    const char *p = g->u->prefix;
    if (s->ncomponents) {
        nsc_p_empty(c);
        nsc_p_open(c, "const ns_component_ops %s_components[] = {", p);
        for (size_t i = 0; i < s->ncomponents; i++) {
            const nsc_decl *d = s->components[i];
            size_t refs = entity_fields(g, d, "", "", NULL, NULL, false);
            nsc_p_line(c, "NS_COMPONENT_ROW(%s, %uu, %s, %zuu, %s),", nsc_cg_name(g, d), d->send_rate_hz,
                       refs ? erased(g, d, "entities") : "NULL", refs,
                       nsc_cg_has_authority(d) ? erased(g, d, "authority_read") : "NULL");
        }
        nsc_p_close(c, "};");
    }
    if (s->nmessages) {
        nsc_p_empty(c);
        nsc_p_open(c, "const ns_message_ops %s_messages[] = {", p);
        for (size_t i = 0; i < s->nmessages; i++) {
            const nsc_decl *d = s->messages[i];
            nsc_p_line(c, "NS_MESSAGE_ROW(%s, %s),", nsc_cg_name(g, d), message_kind(d));
        }
        nsc_p_close(c, "};");
    }
    nsc_p_empty(c);
    nsc_p_open(c, "const ns_schema %s_schema = {", p);
    nsc_p_line(c, "\"%s\", %s,", g->u->package, nsc_unit_macro(g->a, g->u, "SCHEMA_HASH"));
    nsc_p_line(c, "%s, %zuu,", s->ncomponents ? NSC_FMT(g, "%s_components", p) : "NULL", s->ncomponents);
    nsc_p_line(c, "%s, %zuu,", s->nmessages ? NSC_FMT(g, "%s_messages", p) : "NULL", s->nmessages);
    nsc_p_close(c, "};");
}

/* ---- source: dispatch and send ----------------------------------------------------------- */

/* Reads one message of type d (its id already read) and calls its handler. */
static void dispatch_one(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d), *p = g->u->prefix;
    bool input = d->kind == NSC_D_INPUT;
    nsc_p_empty(c);
    nsc_p_line(c, "static ns_status %s(ns_reader *r, const %s_handlers *h, void *ctx)", nsc_cg_fn(g, d, "dispatch_one"), p);
    nsc_p_open(c, "{");
    nsc_p_line(c, "%s_snap snap = %s;", n, nsc_cg_fn(g, d, "snap_default"));
    if (input) {
        nsc_p_comment(c, "Read into a copy: a record with collections may not be read into its reference.");
        nsc_p_line(c, "ns_status st = %s(r, &snap, h->%s);", nsc_cg_fn(g, d, "read"), prev_member(g, d));
    } else {
        nsc_p_line(c, "ns_status st = %s(r, &snap);", nsc_cg_fn(g, d, "read"));
    }
    nsc_p_line(c, "if (st != NS_OK) return st;");
    if (input) nsc_p_line(c, "if (h->%s) *h->%s = snap;", prev_member(g, d), prev_member(g, d));
    nsc_p_line(c, "if (!h->%s) return NS_OK;", handler(g, d));
    nsc_p_line(c, "%s msg;", n);
    nsc_p_line(c, "%s(&msg);", nsc_cg_fn(g, d, "init"));
    nsc_p_line(c, "%s(&snap, &msg);", nsc_cg_fn(g, d, "dequantize"));
    nsc_p_line(c, "h->%s(ctx, &msg);", handler(g, d));
    nsc_p_line(c, "return NS_OK;");
    nsc_p_close(c, "}");
}

static void dispatch(nsc_cgen *g, const seen_records *s)
{
    nsc_printer *c = g->c;
    const char *p = g->u->prefix;
    for (size_t i = 0; i < s->nmessages; i++) dispatch_one(g, s->messages[i]);
    nsc_p_empty(c);
    nsc_p_line(c, "ns_status %s_dispatch(ns_reader *r, const %s_handlers *h, void *ctx, uint32_t *id_out)", p, p);
    nsc_p_open(c, "{");
    nsc_p_line(c, "if (!r || !h) return NS_ERR_ARGUMENT;");
    nsc_p_line(c, "uint32_t id = ns_read_packed_u32(r, NULL);");
    nsc_p_line(c, "if (ns_reader_failed(r)) return ns_reader_status(r);");
    nsc_p_line(c, "if (id_out) *id_out = id;");
    if (s->nmessages) {
        nsc_p_open(c, "switch (id) {");
        for (size_t i = 0; i < s->nmessages; i++)
            nsc_p_line(c, "case %uu: return %s(r, h, ctx);", s->messages[i]->id, nsc_cg_fn(g, s->messages[i], "dispatch_one"));
        nsc_p_line(c, "default: break;");
        nsc_p_close(c, "}");
    } else {
        nsc_p_line(c, "(void)ctx;");
    }
    nsc_p_line(c, "ns_reader_fail(r, NS_ERR_UNKNOWN_TYPE);");
    nsc_p_line(c, "return NS_ERR_UNKNOWN_TYPE;");
    nsc_p_close(c, "}");
}

static void send(nsc_cgen *g, const nsc_decl *d)
{
    nsc_printer *c = g->c;
    const char *n = nsc_cg_name(g, d);
    bool input = d->kind == NSC_D_INPUT;
    nsc_p_empty(c);
    nsc_p_line(c, "%s", send_signature(g, d));
    nsc_p_open(c, "{");
    nsc_p_line(c, "%s_snap snap;", n);
    nsc_p_line(c, "%s(msg, &snap);", nsc_cg_fn(g, d, "quantize"));
    nsc_p_line(c, "ns_writer before = *w;");
    nsc_p_line(c, "ns_write_packed_u32(w, %uu, NULL);", d->id);
    nsc_p_line(c, "ns_status st = %s(w, &snap%s);", nsc_cg_fn(g, d, "write"), input ? ", prev" : "");
    nsc_p_comment(c, "A refused message takes its id back; an overflow leaves the writer failed, as _write does.");
    nsc_p_line(c, "if (st != NS_OK && st != NS_ERR_OVERFLOW) *w = before;");
    if (input) nsc_p_line(c, "if (st == NS_OK && prev) *prev = snap;");
    nsc_p_line(c, "return st;");
    nsc_p_close(c, "}");
}

void nsc_cg_dispatch_header(nsc_cgen *g)
{
    seen_records s = seen_by(g);
    header(g, &s);
}

void nsc_cg_dispatch_source(nsc_cgen *g)
{
    seen_records s = seen_by(g);
    nsc_printer *c = g->c;
    nsc_p_blank(c);
    nsc_p_line(c, "/* ---- dispatch tables ---- */");
    if (s.ncomponents || s.nmessages) {
        nsc_p_empty(c);
        nsc_p_comment(c, "Each type's row points at wrappers that cast and call its functions (netschema/schema.h).");
    }
    for (size_t i = 0; i < s.ncomponents; i++) component_wrappers(g, s.components[i]);
    for (size_t i = 0; i < s.nmessages; i++) message_wrappers(g, s.messages[i]);
    tables(g, &s);
    dispatch(g, &s);
    for (size_t i = 0; i < g->u->ndecls; i++) {
        const nsc_decl *d = g->u->decls[i];
        if (d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC) send(g, d);
    }
}
