/* repl_handshake.c — what a server tells a connecting client so that its replica matches the
 * world, and the check that both were generated from the same schema.
 *
 * Layout (24 bytes): "NSHS", the packet format (1 byte: 1 to 5), history_depth (1 byte),
 * reorder_window (1 byte), flags (1 byte: 0 in format 1; in formats 2 to 5 bit 0 says that
 * records carry their sizes, which their packets do not repeat, bits 1-5 hold short_tick_bits,
 * 0 when derived, and bit 6 says the replica writes compact acks), schema hash (8 bytes),
 * max_entities (4 bytes), tick_rate (2 bytes), conn (2 bytes); integers little-endian. A world
 * of format 1 writes exactly the handshake it always wrote; a client that reads only format 1
 * refuses one of format 2 (NS_ERR_MISMATCH) instead of misreading its packets. */
#include <inttypes.h>
#include <stdio.h>

#include "repl_internal.h"

#define NS__HANDSHAKE_SIZES      1u    /* format 2's flags byte: records carry their sizes */
#define NS__HANDSHAKE_TICK_SHIFT 1u    /* ... and bits 1-5: short_tick_bits */
#define NS__HANDSHAKE_TICK_MASK  0x3eu
#define NS__HANDSHAKE_COMPACT_ACKS 0x40u /* ... and bit 6: compact acks (repl_ack.c) */

ns_handshake ns_world_handshake(const ns_world *w, uint32_t conn)
{
    ns_handshake h = {
        .schema_hash = w->schema->hash,
        .max_entities = w->cfg.max_entities,
        .history_depth = w->cfg.history_depth,
        .reorder_window = w->cfg.reorder_window,
        .tick_rate = w->cfg.tick_rate,
        .conn = conn,
        .packet_format = ns__packet_format(w->cfg.packet_format),
        .entity_sizes = w->cfg.entity_sizes,
        .short_tick_bits = w->cfg.short_tick_bits,
        .compact_acks = w->cfg.compact_acks,
    };
    return h;
}

void ns_handshake_write(ns_writer *w, const ns_handshake *h)
{
    ns_write_bytes(w, "NSHS", 4);
    const uint32_t format = ns__packet_format(h->packet_format);
    ns_write_bits(w, format, 8);
    ns_write_bits(w, h->history_depth & 0xffu, 8);
    ns_write_bits(w, h->reorder_window & 0xffu, 8);
    uint32_t flags = h->entity_sizes ? NS__HANDSHAKE_SIZES : 0u;
    flags |= (h->short_tick_bits << NS__HANDSHAKE_TICK_SHIFT) & NS__HANDSHAKE_TICK_MASK;
    if (h->compact_acks) flags |= NS__HANDSHAKE_COMPACT_ACKS;
    ns_write_bits(w, format >= NS_PACKET_FORMAT_2 ? flags : 0u, 8);
    ns_write_bits64(w, h->schema_hash);
    ns_write_bits(w, h->max_entities, 32);
    ns_write_bits(w, h->tick_rate & 0xffffu, 16);
    ns_write_bits(w, h->conn & 0xffffu, 16);
}

ns_status ns_handshake_read(ns_reader *r, ns_handshake *out)
{
    uint8_t magic[4];
    ns_read_bytes(r, magic, 4);
    uint32_t format = ns_read_bits(r, 8);
    ns_handshake h;
    h.history_depth = ns_read_bits(r, 8);
    h.reorder_window = ns_read_bits(r, 8);
    uint32_t flags = ns_read_bits(r, 8);
    h.schema_hash = ns_read_bits64(r);
    h.max_entities = ns_read_bits(r, 32);
    h.tick_rate = ns_read_bits(r, 16);
    h.conn = ns_read_bits(r, 16);
    if (ns_reader_failed(r)) return ns_reader_status(r);
    h.packet_format = format;
    h.entity_sizes = format >= NS_PACKET_FORMAT_2 && (flags & NS__HANDSHAKE_SIZES);
    h.short_tick_bits = (flags & NS__HANDSHAKE_TICK_MASK) >> NS__HANDSHAKE_TICK_SHIFT;
    h.compact_acks = format >= NS_PACKET_FORMAT_2 && (flags & NS__HANDSHAKE_COMPACT_ACKS);
    const uint32_t known =
        format >= NS_PACKET_FORMAT_2 ? NS__HANDSHAKE_SIZES | NS__HANDSHAKE_TICK_MASK | NS__HANDSHAKE_COMPACT_ACKS : 0u;
    bool ok = magic[0] == 'N' && magic[1] == 'S' && magic[2] == 'H' && magic[3] == 'S' && (flags & ~known) == 0 &&
              h.history_depth >= 2 && h.reorder_window >= 1 &&
              h.history_depth + h.reorder_window <= NS_HISTORY_MAX_DEPTH && h.max_entities >= 1 &&
              h.max_entities <= (1u << 24) && h.tick_rate >= 1 &&
              ns__short_tick_bits_ok(h.reorder_window, h.short_tick_bits);
    if (format < NS_PACKET_FORMAT_1 || format > NS_PACKET_FORMAT_5) return ns_reader_fail(r, NS_ERR_MISMATCH), NS_ERR_MISMATCH;
    if (!ok) return ns_reader_fail(r, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
    *out = h;
    return NS_OK;
}

ns_status ns_handshake_accept(const ns_handshake *h, const ns_schema *schema, ns_replica_config *cfg, char *msg,
                              size_t msg_size)
{
    if (h->schema_hash != schema->hash) {
        if (msg && msg_size)
            snprintf(msg, msg_size,
                     "schema mismatch: the server runs schema hash 0x%016" PRIx64 ", this client was built with "
                     "'%s' hash 0x%016" PRIx64 "; regenerate both from the same schema",
                     h->schema_hash, schema->package, schema->hash);
        return NS_ERR_MISMATCH;
    }
    cfg->schema = schema;
    cfg->max_entities = h->max_entities;
    cfg->history_depth = h->history_depth;
    cfg->reorder_window = h->reorder_window;
    cfg->packet_format = ns__packet_format(h->packet_format);
    cfg->entity_sizes = cfg->packet_format >= NS_PACKET_FORMAT_2 && h->entity_sizes;
    cfg->short_tick_bits = cfg->packet_format >= NS_PACKET_FORMAT_2 ? h->short_tick_bits : 0u;
    cfg->compact_acks = cfg->packet_format >= NS_PACKET_FORMAT_2 && h->compact_acks;
    if (msg && msg_size) msg[0] = '\0';
    return NS_OK;
}
