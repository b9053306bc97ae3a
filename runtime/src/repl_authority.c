/* repl_authority.c — the server's side of client-authoritative fields (@authority(owner)):
 * ns_world_read_authority reads one authority message from a connection, refuses it unless the
 * connection owns the entity and every value passes the generated checks and the application's
 * hook, and stores the accepted values in the entity's state for the next tick
 * (docs/replication.md section 14). */
#include <string.h>

#include "repl_internal.h"

static ns_status refuse(ns_reader *r, ns_authority_report *report, ns_status s)
{
    ns_reader_fail(r, s); /* the payload cannot be skipped: stop whoever reads on */
    return ns_authority_refuse(report, s, NULL);
}

ns_status ns_world_read_authority(ns_world *w, uint32_t conn, ns_reader *r, ns_authority_validate_fn validate,
                                  void *ctx, ns_authority_report *report)
{
    ns_authority_report local;
    if (!report) report = &local;
    memset(report, 0, sizeof *report);
    report->conn = conn;
    if (!w || !r) return ns_authority_refuse(report, NS_ERR_ARGUMENT, NULL);
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return ns_authority_refuse(report, NS_ERR_ARGUMENT, NULL);
    uint32_t id = ns_read_bits(r, 24), type = ns_read_bits(r, 16);
    if (ns_reader_failed(r)) return ns_authority_refuse(report, ns_reader_status(r), NULL);
    report->entity = id;
    report->type = type;
    int32_t c = ns_schema_component_index(w->schema, type);
    if (c < 0) return refuse(r, report, NS_ERR_UNKNOWN_TYPE);
    const ns_component_ops *ops = &w->schema->components[c];
    if (!ops->authority_read) return refuse(r, report, NS_ERR_DENIED); /* no field a client may write */
    ns__entity *e = id < w->cfg.max_entities && w->ent[id].state == NS__ALIVE ? &w->ent[id] : NULL;
    int32_t slot = e ? ns__layout_find(e->layout, w->schema, type) : -1;
    bool owned = slot >= 0 && e->owner == (int32_t)conn;
    /* A write that is refused is still read to its end, so that a stream of messages goes on;
     * without a destination nothing is stored and the hook is not asked. */
    ns_status st = ops->authority_read(r, owned ? e->cur + e->layout->off[slot] : NULL, owned ? validate : NULL, ctx,
                                       report);
    if (ns_reader_failed(r)) return ns_authority_refuse(report, ns_reader_status(r), NULL);
    if (slot < 0) return ns_authority_refuse(report, NS_ERR_UNKNOWN_ID, NULL);
    if (!owned) {
        report->clamped = 0, report->clamped_field = NULL;
        return ns_authority_refuse(report, NS_ERR_DENIED, NULL);
    }
    return st;
}
