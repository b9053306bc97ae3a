/* inputs.c — redundant, tick-stamped inputs (inputs.h).
 *
 * Packet layout, in ns_writer bit order (docs/messages.md):
 *   5 bits   count - 1 (1..32 inputs)
 *   32 bits  tick of the oldest input; with short_ticks, 1 bit first: 1, its low 16 bits follow
 *            instead (the sender has an ack less than 2^14 ticks behind its newest input), read
 *            as the tick nearest the receiver's newest taken one
 *   payload  oldest input, ops->write(w, cur, NULL): against the defaults
 *   then for each next input:
 *     1 bit    1: tick is the previous tick + 1;  0: 32 bits follow with the gap (2..2^31 - 1)
 *     payload  ops->write(w, cur, previous input)
 * The client keeps a ring of its newest inputs; the server a ring of `server_ticks` slots indexed
 * by tick, each remembering whether its tick was received, taken or missed, which is what tells
 * a duplicate from a late input. */
#include "netschema/inputs.h"

#include <stdlib.h>
#include <string.h>

#include "history_internal.h"

/* Signed distance from b to a under 32-bit wrap-around. */
static int64_t tick_diff(uint32_t a, uint32_t b)
{
    uint32_t d = a - b;
    return d < 0x80000000u ? (int64_t)d : (int64_t)d - 0x100000000;
}

/* short_ticks: the sender's newest input is less than NS__SHORT_INPUT_AGE ticks after its ack,
 * and the server takes its ticks within a few hundred of those acks, so the tick nearest the
 * receiver's newest taken one with these 16 low bits is the packet's (2^15 either side: 9 minutes
 * at 60 Hz for the server's clock and the client's acks to drift apart before one is misread). */
#define NS__SHORT_INPUT_BITS 16u
#define NS__SHORT_INPUT_AGE (1u << 14)

static ns_status resolve_config(const ns_inputs_config *cfg, ns_inputs_config *out)
{
    out->redundancy = cfg && cfg->redundancy ? cfg->redundancy : NS_INPUTS_REDUNDANCY_DEFAULT;
    out->max_per_packet = cfg && cfg->max_per_packet ? cfg->max_per_packet : NS_INPUTS_PER_PACKET_DEFAULT;
    out->server_ticks = cfg && cfg->server_ticks ? cfg->server_ticks : NS_INPUTS_SERVER_TICKS_DEFAULT;
    out->short_ticks = cfg && cfg->short_ticks;
    if (out->max_per_packet > NS_INPUTS_PER_PACKET_MAX || out->redundancy > out->max_per_packet)
        return NS_ERR_ARGUMENT;
    if (out->server_ticks > (1u << 20)) return NS_ERR_ARGUMENT;
    return NS_OK;
}

/* ---- client ---------------------------------------------------------------------------- */

struct ns_input_sender {
    const ns_message_ops *ops;
    ns_inputs_config cfg;
    size_t    snap_size;
    uint32_t  count;      /* inputs in the ring (<= max_per_packet) */
    uint32_t  newest;     /* ring index of the newest input */
    bool      has_ack;
    uint32_t  acked;      /* the server holds every input up to this tick */
    uint32_t *ticks;
    uint8_t  *snaps;
};

ns_status ns_input_sender_create(const ns_message_ops *ops, const ns_inputs_config *cfg, ns_input_sender **out)
{
    *out = NULL;
    ns_inputs_config c;
    if (!ops || !ops->desc || !ops->write || resolve_config(cfg, &c) != NS_OK) return NS_ERR_ARGUMENT;
    size_t snap = ops->desc->snap_size ? ops->desc->snap_size : 1;
    size_t bytes = sizeof(ns_input_sender) + c.max_per_packet * (sizeof(uint32_t) + snap);
    uint8_t *mem = (uint8_t *)calloc(1, bytes);
    if (!mem) return NS_ERR_NOMEM;
    ns_input_sender *s = (ns_input_sender *)(void *)mem;
    s->ops = ops;
    s->cfg = c;
    s->snap_size = snap;
    s->ticks = (uint32_t *)(void *)(mem + sizeof(ns_input_sender));
    s->snaps = mem + sizeof(ns_input_sender) + c.max_per_packet * sizeof(uint32_t);
    *out = s;
    return NS_OK;
}

void ns_input_sender_destroy(ns_input_sender *s)
{
    free(s);
}

/* Ring index of the k-th newest input (0 = newest). */
static uint32_t sender_index(const ns_input_sender *s, uint32_t k)
{
    uint32_t n = s->cfg.max_per_packet;
    return (s->newest + n - k) % n;
}

ns_status ns_input_sender_push(ns_input_sender *s, uint32_t tick, const void *snap)
{
    if (s->count && tick_diff(tick, s->ticks[s->newest]) <= 0) return NS_ERR_ORDER;
    s->newest = s->count ? (s->newest + 1) % s->cfg.max_per_packet : 0;
    if (s->count < s->cfg.max_per_packet) s->count++;
    s->ticks[s->newest] = tick;
    memcpy(s->snaps + (size_t)s->newest * s->snap_size, snap, s->snap_size);
    return NS_OK;
}

ns_status ns_input_sender_ack(ns_input_sender *s, uint32_t tick)
{
    if (!s->count || tick_diff(tick, s->ticks[s->newest]) > 0) return NS_ERR_RANGE;
    if (!s->has_ack || tick_diff(tick, s->acked) > 0) s->acked = tick;
    s->has_ack = true;
    return NS_OK;
}

uint32_t ns_input_sender_pending(const ns_input_sender *s)
{
    uint32_t unacked = 0;
    while (unacked < s->count &&
           (!s->has_ack || tick_diff(s->ticks[sender_index(s, unacked)], s->acked) > 0))
        unacked++;
    uint32_t n = unacked > s->cfg.redundancy ? unacked : s->cfg.redundancy;
    return n < s->count ? n : s->count;
}

ns_status ns_input_sender_write(ns_input_sender *s, ns_writer *w)
{
    uint32_t n = ns_input_sender_pending(s);
    if (n == 0) return NS_ERR_ARGUMENT;
    ns_write_bits(w, n - 1, 5);
    const bool short_tick =
        s->cfg.short_ticks && s->has_ack && tick_diff(s->ticks[s->newest], s->acked) < NS__SHORT_INPUT_AGE;
    const unsigned tick_bits = short_tick ? NS__SHORT_INPUT_BITS : 32u;
    if (s->cfg.short_ticks) ns_write_bool(w, short_tick);
    const void *prev = NULL;
    uint32_t prev_tick = 0;
    for (uint32_t k = n; k-- > 0;) {
        uint32_t i = sender_index(s, k);
        uint32_t tick = s->ticks[i];
        if (!prev) {
            ns_write_bits(w, tick, tick_bits); /* ns_write_bits keeps only the low tick_bits bits */
        } else if (tick - prev_tick == 1) {
            ns_write_bool(w, true);
        } else {
            ns_write_bool(w, false);
            ns_write_bits(w, tick - prev_tick, 32);
        }
        const void *cur = s->snaps + (size_t)i * s->snap_size;
        ns_status st = s->ops->write(w, cur, prev);
        if (st != NS_OK) return st;
        prev = cur;
        prev_tick = tick;
    }
    return ns_writer_status(w);
}

/* ---- server ---------------------------------------------------------------------------- */

enum slot_state { SLOT_EMPTY, SLOT_WAITING, SLOT_TAKEN, SLOT_MISSED, SLOT_LATE };

typedef struct input_slot {
    uint32_t tick;
    uint8_t  state;
} input_slot;

struct ns_input_receiver {
    const ns_message_ops *ops;
    ns_inputs_config cfg;
    size_t      snap_size;
    bool        has_taken;
    uint32_t    last_taken;
    input_slot *slots;        /* server_ticks of them, indexed by tick % server_ticks */
    uint8_t    *snaps;        /* their inputs */
    uint8_t    *scratch;      /* max_per_packet decoded inputs of the packet being read */
    uint32_t   *scratch_tick;
    ns_inputs_stats stats;
};

ns_status ns_input_receiver_create(const ns_message_ops *ops, const ns_inputs_config *cfg, ns_input_receiver **out)
{
    *out = NULL;
    ns_inputs_config c;
    if (!ops || !ops->desc || !ops->read || resolve_config(cfg, &c) != NS_OK) return NS_ERR_ARGUMENT;
    size_t snap = ops->desc->snap_size ? ops->desc->snap_size : 1;
    size_t head = sizeof(ns_input_receiver);
    size_t slots = c.server_ticks * sizeof(input_slot);
    size_t ticks = c.max_per_packet * sizeof(uint32_t);
    /* Snapshots come last, after the arrays rounded up to 16 bytes, so they stay aligned. */
    size_t fixed = (head + slots + ticks + 15u) & ~(size_t)15u;
    size_t snap_stride = (snap + 15u) & ~(size_t)15u;
    uint8_t *mem = (uint8_t *)calloc(1, fixed + (c.server_ticks + c.max_per_packet) * snap_stride);
    if (!mem) return NS_ERR_NOMEM;
    ns_input_receiver *r = (ns_input_receiver *)(void *)mem;
    r->ops = ops;
    r->cfg = c;
    r->snap_size = snap_stride;
    r->slots = (input_slot *)(void *)(mem + head);
    r->scratch_tick = (uint32_t *)(void *)(mem + head + slots);
    r->snaps = mem + fixed;
    r->scratch = mem + fixed + c.server_ticks * snap_stride;
    *out = r;
    return NS_OK;
}

void ns_input_receiver_destroy(ns_input_receiver *r)
{
    free(r);
}

static uint8_t *slot_snap(const ns_input_receiver *r, uint32_t tick)
{
    return r->snaps + (size_t)(tick % r->cfg.server_ticks) * r->snap_size;
}

static input_slot *slot_of(const ns_input_receiver *r, uint32_t tick)
{
    return &r->slots[tick % r->cfg.server_ticks];
}

/* Fails the reader with s and returns s. */
static ns_status fail(ns_reader *rd, ns_status s)
{
    ns_reader_fail(rd, s);
    return s;
}

/* Decodes the whole packet into scratch; returns the number of inputs via *count. */
static ns_status decode_packet(ns_input_receiver *r, ns_reader *rd, uint32_t *count)
{
    uint32_t n = ns_read_bits(rd, 5) + 1u;
    if (ns_reader_failed(rd)) return ns_reader_status(rd);
    if (n > r->cfg.max_per_packet) return fail(rd, NS_ERR_CAPACITY);
    const bool short_tick = r->cfg.short_ticks && ns_read_bool(rd);
    uint32_t tick = ns_read_bits(rd, short_tick ? NS__SHORT_INPUT_BITS : 32);
    if (short_tick) { /* the sender had an ack, so this side has taken a tick */
        if (!r->has_taken && !ns_reader_failed(rd)) return fail(rd, NS_ERR_MALFORMED);
        tick = ns__resolve_tick(tick, NS__SHORT_INPUT_BITS, r->last_taken);
    }
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0) {
            uint32_t gap = 1;
            if (!ns_read_bool(rd)) {
                /* A gap of 1 has its own 1-bit code; beyond 2^31 - 1 ticks would not compare. */
                gap = ns_read_bits(rd, 32);
                if (!ns_reader_failed(rd) && (gap < 2u || gap >= 0x80000000u)) return fail(rd, NS_ERR_MALFORMED);
            }
            tick += gap;
        }
        uint8_t *cur = r->scratch + (size_t)k * r->snap_size;
        const void *prev = k ? cur - r->snap_size : NULL;
        ns_status s = r->ops->read(rd, cur, prev);
        if (s == NS_OK) s = ns_reader_status(rd);
        if (s != NS_OK) return s;
        r->scratch_tick[k] = tick;
    }
    *count = n;
    return NS_OK;
}

static void store_input(ns_input_receiver *r, uint32_t tick, const void *snap)
{
    input_slot *slot = slot_of(r, tick);
    if (r->has_taken && tick_diff(tick, r->last_taken) <= 0) {
        /* Its tick is already consumed: a copy of what was applied, a late input, or older. */
        if (slot->tick != tick) r->stats.dropped++;
        else if (slot->state == SLOT_MISSED) r->stats.late++, slot->state = SLOT_LATE;
        else r->stats.duplicates++;
        return;
    }
    if (r->has_taken && tick_diff(tick, r->last_taken) > (int64_t)r->cfg.server_ticks) {
        r->stats.dropped++;
        return;
    }
    if (slot->state == SLOT_WAITING) {
        if (slot->tick == tick) {
            r->stats.duplicates++;
            return;
        }
        /* Before the first take two ticks may share a slot: the newer one stays. */
        if (tick_diff(tick, slot->tick) < 0) {
            r->stats.dropped++;
            return;
        }
        r->stats.dropped++;
    }
    slot->tick = tick;
    slot->state = SLOT_WAITING;
    memcpy(slot_snap(r, tick), snap, r->ops->desc->snap_size);
    r->stats.received++;
}

ns_status ns_input_receiver_read(ns_input_receiver *r, ns_reader *rd)
{
    uint32_t n = 0;
    ns_status s = decode_packet(r, rd, &n);
    if (s != NS_OK) return s;
    for (uint32_t k = 0; k < n; k++) store_input(r, r->scratch_tick[k], r->scratch + (size_t)k * r->snap_size);
    return NS_OK;
}

ns_status ns_input_receiver_take(ns_input_receiver *r, uint32_t tick, void *out_snap)
{
    if (r->has_taken && tick_diff(tick, r->last_taken) <= 0) return NS_ERR_STALE;
    r->has_taken = true;
    r->last_taken = tick;
    input_slot *slot = slot_of(r, tick);
    if (slot->state == SLOT_WAITING && slot->tick == tick) {
        memcpy(out_snap, slot_snap(r, tick), r->ops->desc->snap_size);
        slot->state = SLOT_TAKEN;
        return NS_OK;
    }
    /* A waiting input for another tick in this slot is older than this one and can never be
     * taken now; the slot is reused to remember that this tick went without. */
    if (slot->state == SLOT_WAITING) r->stats.dropped++;
    slot->tick = tick;
    slot->state = SLOT_MISSED;
    r->stats.missing++;
    return NS_ERR_UNKNOWN_ID;
}

bool ns_input_receiver_ack(const ns_input_receiver *r, uint32_t *tick)
{
    if (!r->has_taken) return false;
    uint32_t ack = r->last_taken;
    for (uint32_t k = 0; k < r->cfg.server_ticks; k++) {
        const input_slot *slot = slot_of(r, ack + 1u);
        if (slot->state != SLOT_WAITING || slot->tick != ack + 1u) break;
        ack++;
    }
    *tick = ack;
    return true;
}

ns_inputs_stats ns_input_receiver_stats(const ns_input_receiver *r)
{
    return r->stats;
}
