/* wire.c — the example's datagrams, writer and reader side by side. The generated code writes
 * components, inputs and rpcs; everything around them (ticks, entity ids, which baselines were
 * used, acks) is the application's framing, written here with libnetschema's bit writer.
 *
 *   server -> client  tick:32  rpc_ack:packed  { 1  id:packed  baseline ticks  has_inventory:1
 *                                                  Transform Health [Inventory] }...  0
 *   client -> server  client:8  input_tick:32  count:2  acks:1 [newest:packed mask:32]
 *                     inputs...  rpc:1 [seq:packed UseItem] */
#include <stddef.h>
#include <string.h>

#include "arena.h"

/* The baselines of one component: the entity's baselines with each pointer moved to the
 * component inside entity_snap. */
static ns_baselines part(const ns_baselines *b, size_t offset)
{
    ns_baselines p = *b;
    for (uint32_t k = 0; k < b->count; k++) p.snap[k] = (const uint8_t *)b->snap[k] + offset;
    return p;
}

void wire_write_downlink_head(ns_writer *w, uint32_t tick, uint32_t rpc_ack)
{
    ns_write_bits(w, tick, 32);
    ns_write_packed_u32(w, rpc_ack, NULL);
}

void wire_read_downlink_head(ns_reader *r, uint32_t *tick, uint32_t *rpc_ack)
{
    *tick = ns_read_bits(r, 32);
    *rpc_ack = ns_read_packed_u32(r, NULL);
}

ns_status wire_write_entity(ns_writer *w, uint32_t id, bool has_inventory, const entity_snap *cur,
                            const ns_baselines *b, ns_audience to, wire_bits *bits)
{
    ns_baselines bt = part(b, offsetof(entity_snap, transform));
    ns_baselines bh = part(b, offsetof(entity_snap, health));
    ns_baselines bi = part(b, offsetof(entity_snap, inventory));
    ns_write_bool(w, true); /* one more entity */
    ns_write_packed_u32(w, id, NULL);
    ns_write_baseline_ticks(w, b);
    ns_write_bool(w, has_inventory);
    size_t at = ns_writer_bits(w);
    ns_status st = arena_Transform_write(w, &cur->transform, &bt, to);
    bits->transform = ns_writer_bits(w) - at, at = ns_writer_bits(w);
    if (st == NS_OK) st = arena_Health_write(w, &cur->health, &bh, to);
    bits->health = ns_writer_bits(w) - at, at = ns_writer_bits(w);
    if (st == NS_OK && has_inventory) st = arena_Inventory_write(w, &cur->inventory, &bi, to);
    bits->inventory = ns_writer_bits(w) - at;
    return st;
}

void wire_write_end(ns_writer *w)
{
    ns_write_bool(w, false);
}

bool wire_read_entity_head(ns_reader *r, uint32_t tick, wire_entity *e)
{
    memset(e, 0, sizeof *e);
    if (!ns_read_bool(r)) return false;
    e->id = ns_read_packed_u32(r, NULL);
    e->base.tick_now = tick;
    ns_read_baseline_ticks(r, tick, e->base.tick, &e->base.count);
    e->has_inventory = ns_read_bool(r);
    return !ns_reader_failed(r);
}

ns_status wire_read_entity(ns_reader *r, entity_snap *out, const wire_entity *e, ns_audience to)
{
    ns_baselines bt = part(&e->base, offsetof(entity_snap, transform));
    ns_baselines bh = part(&e->base, offsetof(entity_snap, health));
    ns_baselines bi = part(&e->base, offsetof(entity_snap, inventory));
    ns_status st = arena_Transform_read(r, &out->transform, &bt, to);
    if (st == NS_OK) st = arena_Health_read(r, &out->health, &bh, to);
    if (st == NS_OK && e->has_inventory) return arena_Inventory_read(r, &out->inventory, &bi, to);
    memset(&out->inventory, 0, sizeof out->inventory); /* an NPC's: empty */
    return st;
}

size_t wire_write_uplink(const wire_uplink *u, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ns_write_bits(&w, u->client, 8);
    ns_write_bits(&w, u->input_tick, 32);
    ns_write_bits(&w, u->input_count, 2);
    ns_write_bool(&w, u->acks.mask != 0);
    if (u->acks.mask) { /* the newest tick decoded, as a distance back from the input's */
        ns_write_packed_u32(&w, u->input_tick - u->acks.newest, NULL);
        ns_write_bits(&w, (uint32_t)u->acks.mask, 32);
    }
    ns_status st = NS_OK;
    for (uint32_t i = 0; i < u->input_count && st == NS_OK; i++) /* each against the one before */
        st = arena_PlayerInput_write(&w, &u->input[i], i ? &u->input[i - 1] : NULL);
    ns_write_bool(&w, u->rpc_seq != 0);
    if (u->rpc_seq && st == NS_OK) {
        ns_write_packed_u32(&w, u->rpc_seq, NULL);
        st = arena_UseItem_write(&w, &u->use);
    }
    size_t len = ns_writer_flush(&w);
    return st == NS_OK && !ns_writer_overflowed(&w) ? len : 0;
}

bool wire_read_uplink(const void *buf, size_t len, wire_uplink *u)
{
    ns_reader r;
    ns_reader_init(&r, buf, len);
    memset(u, 0, sizeof *u);
    u->client = ns_read_bits(&r, 8);
    u->input_tick = ns_read_bits(&r, 32);
    u->input_count = ns_read_bits(&r, 2);
    if (ns_read_bool(&r)) {
        u->acks.newest = u->input_tick - ns_read_packed_u32(&r, NULL);
        u->acks.mask = ns_read_bits(&r, 32);
    }
    if (u->input_count == 0) return false;
    ns_status st = NS_OK;
    for (uint32_t i = 0; i < u->input_count && st == NS_OK; i++)
        st = arena_PlayerInput_read(&r, &u->input[i], i ? &u->input[i - 1] : NULL);
    if (st == NS_OK && ns_read_bool(&r)) {
        u->rpc_seq = ns_read_packed_u32(&r, NULL);
        st = arena_UseItem_read(&r, &u->use);
    }
    return st == NS_OK && !ns_reader_failed(&r);
}
