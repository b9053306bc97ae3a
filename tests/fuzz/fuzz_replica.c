/* fuzz_replica.c — libFuzzer target for the replica's packet reader (ns_replica_read_packet).
 *
 * Each input is one packet given to a replica that already holds entities and baselines: a
 * world of tests/replication/repl.netschema runs a few ticks first, owner and observer, and
 * the replica applies its real packets. The second input byte also says whether the world
 * writes entity sizes (bit 0) and which packet format it writes (bit 1: format 2, the compact
 * one, whose groups may name their ids and baselines by reference to earlier packets; bits 1
 * and 2: format 3, whose updates derive their baselines from one ladder of ticks, and with bit 4
 * too format 4, whose sections name that packet by the round trip, and with bit 5 as well
 * format 5, whose steady packets may change their presence by type; bit 3: short ticks of 12
 * bits, short_tick_bits). Every Health changes on two of the first ticks, so that the
 * presence by type changes in real packets. Invariants: the reader never reads past the packet (ASan);
 * a refused packet leaves the replica exactly as it was; an accepted one leaves it usable (the
 * next real packet still reads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/dump.h>

#include "repl.ns.h"

#define ENTITIES 16

static const uint32_t kinds[3][3] = {{RT_BODY_ID, RT_HEALTH_ID, 0}, {RT_HEALTH_ID, RT_SECRET_ID, 0}, {RT_BODY_ID, RT_SLOW_ID, RT_HEALTH_ID}};
static const uint32_t counts[3] = {2, 2, 3};

/* Everything the replica holds, as bytes. */
static size_t digest(const ns_replica *r, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (ns_entity_id e = 0; e < ENTITIES; e++) {
        out[n++] = ns_replica_has(r, e) ? (uint8_t)(1 + ns_replica_is_owner(r, e)) : 0;
        for (uint32_t k = 0; k < rt_schema.component_count; k++) {
            const ns_type_desc *d = rt_schema.components[k].desc;
            uint32_t tick = 0;
            const void *s = ns_replica_snap(r, e, d->id, &tick);
            const void *v = ns_replica_value(r, e, d->id);
            if (!s || !v) continue;
            if (n + 4 + d->snap_size + d->value_size > cap) abort();
            memcpy(out + n, &tick, 4), n += 4;
            memcpy(out + n, s, d->snap_size), n += d->snap_size;
            memcpy(out + n, v, d->value_size), n += d->value_size;
        }
    }
    uint32_t tail[2] = {ns_replica_count(r), ns_replica_newest(r)};
    memcpy(out + n, tail, sizeof tail);
    return n + sizeof tail;
}

static void ack(ns_world *w, ns_replica *r)
{
    uint8_t buf[16];
    ns_writer wr;
    ns_writer_init(&wr, buf, sizeof buf);
    ns_replica_write_ack(r, &wr);
    ns_reader rd;
    ns_reader_init(&rd, buf, ns_writer_flush(&wr));
    if (ns_world_read_ack(w, 0, &rd) != NS_OK) abort();
}

/* Where dumps go: nowhere, but through every printing path. */
static FILE *sink(void)
{
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

/* ns_dump_repl_packet of a packet against the replica about to read it. */
static ns_status dump(const ns_replica *r, const uint8_t *pkt, size_t len)
{
    ns_reader in;
    ns_reader_init(&in, pkt, len);
    return ns_dump_repl_packet(sink(), &rt_schema, r, &in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = ENTITIES, .max_connections = 2, .entity_sizes = data[1] & 1,
                           .packet_format = !(data[1] & 2)  ? NS_PACKET_FORMAT_1
                                            : !(data[1] & 4) ? NS_PACKET_FORMAT_2
                                            : !(data[1] & 16) ? NS_PACKET_FORMAT_3
                                            : data[1] & 32   ? NS_PACKET_FORMAT_5 : NS_PACKET_FORMAT_4,
                           .short_tick_bits = data[1] & 8 ? 12u : 0u};
    ns_world *w = ns_world_create(&cfg, NULL);
    uint32_t conn;
    ns_world_connect(w, &conn);
    ns_handshake hs = ns_world_handshake(w, conn);
    ns_replica_config rc = {0};
    ns_handshake_accept(&hs, &rt_schema, &rc, NULL, 0);
    ns_replica *r = ns_replica_create(&rc, NULL);
    if (!w || !r) abort();
    for (uint32_t i = 0; i < 9; i++) {
        ns_entity_id id;
        ns_world_spawn(w, kinds[i % 3], counts[i % 3], &id);
    }
    ns_world_set_owner(w, 1, (int32_t)conn);
    static uint8_t pkt[4096], before[1 << 14], after[1 << 14];
    size_t len = 0;
    uint32_t tick = 100;
    for (; tick < 106; tick++) {
        for (ns_entity_id e = 0; e < 9; e++) {
            rt_Body b;
            rt_Body_init(&b);
            b.pos.x = (float)(tick * e) * 0.5f;
            ns_world_set(w, e, RT_BODY_ID, &b);
            rt_Health h;
            rt_Health_init(&h);
            h.hp = (int32_t)tick - 50;
            if (tick == 102 || tick == 104) ns_world_set(w, e, RT_HEALTH_ID, &h);
        }
        if (tick == 103) ns_world_despawn(w, 4);
        ns_world_tick(w, tick);
        if (ns_world_write_packet(w, conn, pkt, sizeof pkt, &len, NULL) != NS_OK) abort();
        if (dump(r, pkt, len) != NS_OK) abort(); /* the dump reads every real packet whole */
        if (ns_replica_read_packet(r, pkt, len) != NS_OK) abort();
        if (cfg.packet_format < NS_PACKET_FORMAT_4 || tick % 3 != 1) ack(w, r); /* formats 4, 5: acks late now and then */
    }
    /* The fuzzed packet: when the first byte's top bit is set, the server's real next packet
     * with the rest of the input XORed over it (mostly valid structure, so the fuzz reaches deep
     * records even without coverage feedback); otherwise the input itself (with the short-tick
     * bit set, its 16 tick bits land near the newest applied tick: fresh, late, stale or
     * duplicate; in format 2 its 6 tick bits do). */
    size_t n = size;
    uint8_t *in = malloc(sizeof pkt);
    if (data[0] & 0x80) {
        ns_world_tick(w, tick);
        if (ns_world_write_packet(w, conn, in, sizeof pkt, &n, NULL) != NS_OK) abort();
        for (size_t i = 1; i < size && i - 1 < n; i++) in[i - 1] ^= data[i];
        if (data[0] & 0x40) n -= n ? (size_t)(data[0] & 0x0f) % (n + 1) : 0; /* truncated too */
        tick++;
    } else {
        n = size < sizeof pkt ? size : sizeof pkt;
        memcpy(in, data, n);
    }
    size_t nb = digest(r, before, sizeof before);
    dump(r, in, n); /* the same bytes through the dump's walk: ASan watches it */
    ns_status st = ns_replica_read_packet(r, in, n);
    if (st != NS_OK) {
        size_t na = digest(r, after, sizeof after);
        if (na != nb || memcmp(before, after, nb) != 0) {
            fprintf(stderr, "refused packet (%s) changed the replica\n", ns_status_str(st));
            abort();
        }
    }
    free(in);
    /* The replica still reads real packets. */
    ns_world_tick(w, tick + 30);
    if (ns_world_write_packet(w, conn, pkt, sizeof pkt, &len, NULL) != NS_OK) abort();
    ns_replica_read_packet(r, pkt, len);
    ns_replica_destroy(r);
    ns_world_destroy(w);
    return 0;
}
