/* repl_ack.c — the ack a replica sends back (ns_replica_write_ack) and the server's reading of
 * it (ns_world_read_ack), in its two forms, and the round trip the server times from it.
 *
 * The full ack (docs/replication.md section 3): 1 bit (0: nothing applied yet), the newest
 * applied tick (32 bits) and a mask of the history_depth - 1 ticks before it.
 *
 * The compact ack (compact_acks, formats 2 to 5) sends only what the server may not know. The
 * replica knows a tick the server already holds an ack of: `heard`, the newest baseline a packet
 * was coded against (a baseline is a tick the server knew acked) or what a short tick implies.
 * After the first bit, 1 bit says the form:
 *   - 1, short: the newest tick's low ack_bits bits (the snapshot's short tick + 1: 7 by default),
 *     read as the tick nearest the newest tick the server holds an ack of; then the mask's length
 *     m (packed) and m bits, tick newest - 1 first. The replica sends it when newest - heard <
 *     2^(ack_bits - 1): the server's newest acked tick lies between heard and newest, so the
 *     tick resolves right unless the datagram trails that by more than 2^(ack_bits - 1). The
 *     mask covers the ticks between heard and newest, NS__ACK_SPAN of them at most. A tick at
 *     or before heard was in the ack that first told the server of a tick at or after it (that
 *     ack was written while heard was older); a late packet applied after heard passed it may
 *     go unacked. Covering ticks below heard too left the arena's downlink the same (to the
 *     0.1 byte a datagram its report shows).
 *   - 0, long: the full ack's 32-bit tick and mask, when the replica has heard nothing recent.
 * A tick the mask leaves out is only a tick the server does not learn of: acks add ticks, never
 * remove them, so the server never codes against a state the client does not hold. */
#include "repl_replica_internal.h"

/* Ticks before the newest that a compact ack's mask covers at most. Each tick then rides in
 * the acks of the 9 ticks from its own on, so only 9 lost acks in a row keep it from the server
 * (which then codes against older states). In test_acks' four impaired scenes a span of 8 left
 * the downlink within 0.1% of the full ack's (4: 0.5%, 2: 4.5%), and a mask as long as the
 * round trip made the acks 1.9 times as long on a 24-tick round trip. */
#define NS__ACK_SPAN 8u

/* Bits of a compact ack's short tick: the snapshot's short tick and one more, so that an ack
 * datagram is read right up to 2^(bits - 1) ticks late, twice the span a packet has. */
static unsigned ack_tick_bits(uint32_t reorder_window, uint32_t short_tick_bits)
{
    return ns__short_tick_bits(reorder_window, short_tick_bits) + 1u;
}

static void write_mask(ns_writer *w, uint64_t mask, unsigned n)
{
    ns_write_bits(w, (uint32_t)mask, n < 32 ? n : 32); /* ns_write_bits keeps only the low n bits */
    if (n > 32) ns_write_bits(w, (uint32_t)(mask >> 32), n - 32);
}

static uint64_t read_mask(ns_reader *r, unsigned n)
{
    uint64_t lo = ns_read_bits(r, n < 32 ? n : 32), hi = n > 32 ? ns_read_bits(r, n - 32) : 0;
    return hi << 32 | lo;
}

void ns_replica_write_ack(const ns_replica *r, ns_writer *w)
{
    ns_write_bits(w, r->received.mask != 0, 1);
    if (!r->received.mask) return;
    /* Only ticks the server can still use as baselines: history_depth − 1 before the newest. */
    const unsigned depth = r->cfg.history_depth - 1;
    const uint32_t newest = r->received.newest;
    const uint64_t older = r->received.mask >> 1; /* bit i - 1: tick newest - i */
    if (r->cfg.compact_acks) {
        const unsigned k = ack_tick_bits(r->cfg.reorder_window, r->cfg.short_tick_bits);
        const bool near = r->heard_known && ns__newer(newest, r->heard) && newest - r->heard < (1u << (k - 1));
        ns_write_bits(w, near, 1);
        if (near) {
            const uint32_t m = newest - r->heard - 1u; /* the ticks between them */
            const unsigned span = depth < NS__ACK_SPAN ? depth : NS__ACK_SPAN;
            const unsigned n = m < span ? (unsigned)m : span;
            ns_write_bits(w, newest & ((1u << k) - 1u), k);
            ns_write_packed_u32(w, n, NULL);
            write_mask(w, older, n);
            return;
        }
    }
    ns_write_bits(w, newest, 32);
    write_mask(w, older, depth);
}

/* Folds one round-trip sample (ticks) into the connection's smoothed round trip: the first
 * (or the first after samples of 0) as it is, then 1/8 of each. Samples are capped, so that a
 * long silence cannot overflow rtt8. */
static void time_round_trip(ns__conn *c, uint32_t sample)
{
    if (sample > 4096) sample = 4096;
    c->rtt8 = c->rtt8 ? c->rtt8 - c->rtt8 / 8u + sample : sample * 8u;
}

/* Reads an ack's newest tick and its mask (bit i: tick newest - i, bit 0 newest itself). */
static ns_status read_ticks(const ns_world *w, const ns__conn *c, ns_reader *r, uint32_t *newest, uint64_t *mask)
{
    const unsigned depth = w->cfg.history_depth - 1; /* the ticks that can still be baselines */
    unsigned n = depth;
    if (w->cfg.compact_acks && ns_read_bits(r, 1)) {
        const unsigned k = ack_tick_bits(w->cfg.reorder_window, w->cfg.short_tick_bits);
        uint32_t low = ns_read_bits(r, k), m = ns_read_packed_u32(r, NULL);
        if (ns_reader_failed(r)) return ns_reader_status(r);
        /* the replica sends the short form only after a packet coded against an acked tick */
        if (!c->acked.mask || m > depth) return ns_reader_fail(r, NS_ERR_MALFORMED), NS_ERR_MALFORMED;
        *newest = ns__resolve_tick(low, k, c->acked.newest);
        n = (unsigned)m;
    } else {
        *newest = ns_read_bits(r, 32);
    }
    *mask = read_mask(r, n) << 1 | 1u;
    if (ns_reader_failed(r)) return ns_reader_status(r);
    if (!c->wrote || ns__newer(*newest, c->last)) return ns_reader_fail(r, NS_ERR_RANGE), NS_ERR_RANGE;
    return NS_OK;
}

ns_status ns_world_read_ack(ns_world *w, uint32_t conn, ns_reader *r)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return NS_ERR_ARGUMENT;
    ns__conn *c = &w->conn[conn];
    uint32_t newest = 0;
    uint64_t mask = 0;
    if (ns_read_bits(r, 1)) {
        ns_status st = read_ticks(w, c, r, &newest, &mask);
        if (st != NS_OK) return st;
    }
    if (ns_reader_failed(r)) return ns_reader_status(r);
    if (!mask) return NS_OK;
    if (!c->acked.mask || ns__newer(newest, c->acked.newest)) /* newest <= c->last <= w->tick */
        time_round_trip(c, w->tick - newest);
    for (uint32_t i = 0; i < 64; i++)
        if (mask >> i & 1u) ns_tickset_add(&c->acked, newest - i);
    return NS_OK;
}

uint32_t ns_world_round_trip(const ns_world *w, uint32_t conn)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return 0;
    return (w->conn[conn].rtt8 + 4u) / 8u;
}
