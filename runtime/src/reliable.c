/* reliable.c — the reliable, ordered message channel (reliable.h).
 *
 * Sequence numbers are 16 bits and compared with wrap-around; the window is a power of two, so
 * `seq % window` names the same slot on both sides of a wrap. Send side: messages
 * [send_oldest, send_next) are in flight, each in its slot until acked. Receive side: everything
 * before deliver_next was delivered, everything before recv_contig received; slots hold the
 * messages received in [deliver_next, deliver_next + window). The ack header says recv_contig
 * ("everything before this arrived") and a 32-bit mask of what arrived beyond it, so a lost
 * header never loses information that a later header does not repeat.
 *
 * Quiet frames (quiet_after = N > 0): a header the peer already got N times carries nothing new,
 * so while nothing changes it and nothing is due, the frame is empty. If all N copies were lost,
 * the peer resends what they acked; a message arriving, even a duplicate, makes the next N frames
 * carry the header again, so an ack is never held back for good.
 *
 * Frame layout (docs/messages.md):
 *   ack   u16 LE     recv_contig
 *   mask  varint32   bit i: message ack + 1 + i arrived
 *   count varint32   messages in the frame (0..window)
 *   then per message: seq (the first as u16 LE, the next as varint32 seq - previous - 1),
 *   length varint32 (1..max_message), the message bytes. Nothing may follow the last message. */
#include "netschema/reliable.h"

#include <stdlib.h>
#include <string.h>

#include "netschema/varint.h"

typedef struct send_slot {
    uint64_t last_sent;
    uint32_t len;
    bool     sent;
    bool     acked;
} send_slot;

typedef struct recv_slot {
    uint32_t len;
    bool     present;
} recv_slot;

struct ns_reliable {
    uint32_t   window, max_message;
    uint64_t   resend_interval;
    uint16_t   send_oldest, send_next;
    uint16_t   deliver_next, recv_contig;
    send_slot *send;
    recv_slot *recv;
    uint8_t   *send_data, *recv_data;  /* window slots of max_message bytes each */
    uint16_t  *chosen;                 /* scratch for ns_reliable_write: sequences in a frame */
    uint32_t   quiet_after;
    uint16_t   said_ack;               /* quiet frames: the last header written, */
    uint32_t   said_mask;
    uint32_t   said_times;             /* ... in how many frames since it changed or a message came */
    ns_reliable_stats stats;
};

/* Signed distance from b to a under 16-bit wrap-around. */
static int32_t seq_diff(uint16_t a, uint16_t b)
{
    uint16_t d = (uint16_t)(a - b);
    return d < 0x8000u ? (int32_t)d : (int32_t)d - 0x10000;
}

static uint32_t slot_of(const ns_reliable *ch, uint16_t seq)
{
    return seq & (ch->window - 1u);
}

ns_status ns_reliable_create(const ns_reliable_config *cfg, ns_reliable **out)
{
    *out = NULL;
    uint32_t window = cfg && cfg->window ? cfg->window : NS_RELIABLE_WINDOW_DEFAULT;
    uint32_t max_message = cfg && cfg->max_message ? cfg->max_message : NS_RELIABLE_MAX_MESSAGE_DEFAULT;
    uint64_t resend = cfg && cfg->resend_interval ? cfg->resend_interval : NS_RELIABLE_RESEND_DEFAULT;
    if (window > NS_RELIABLE_WINDOW_MAX || (window & (window - 1u)) != 0) return NS_ERR_ARGUMENT;
    if (max_message > NS_RELIABLE_MESSAGE_MAX) return NS_ERR_ARGUMENT;
    size_t bytes = sizeof(ns_reliable) + window * (sizeof(send_slot) + sizeof(recv_slot) + sizeof(uint16_t)) +
                   2u * (size_t)window * max_message;
    /* One allocation: the struct, then the slot arrays (largest alignment first), then the
     * message bytes. */
    uint8_t *mem = (uint8_t *)calloc(1, bytes);
    if (!mem) return NS_ERR_NOMEM;
    ns_reliable *ch = (ns_reliable *)(void *)mem;
    size_t off = sizeof(ns_reliable);
    ch->send = (send_slot *)(void *)(mem + off);
    off += window * sizeof(send_slot);
    ch->recv = (recv_slot *)(void *)(mem + off);
    off += window * sizeof(recv_slot);
    ch->chosen = (uint16_t *)(void *)(mem + off);
    off += window * sizeof(uint16_t);
    ch->send_data = mem + off;
    ch->recv_data = mem + off + (size_t)window * max_message;
    ch->window = window;
    ch->max_message = max_message;
    ch->resend_interval = resend;
    ch->quiet_after = cfg ? cfg->quiet_after : 0;
    *out = ch;
    return NS_OK;
}

void ns_reliable_destroy(ns_reliable *ch)
{
    free(ch);
}

uint32_t ns_reliable_room(const ns_reliable *ch)
{
    return ch->window - (uint16_t)(ch->send_next - ch->send_oldest);
}

ns_status ns_reliable_send(ns_reliable *ch, const void *msg, size_t len)
{
    if (len == 0 || len > ch->max_message || !msg) return NS_ERR_ARGUMENT;
    if (ns_reliable_room(ch) == 0) return NS_ERR_FULL;
    uint32_t i = slot_of(ch, ch->send_next);
    memcpy(ch->send_data + (size_t)i * ch->max_message, msg, len);
    ch->send[i] = (send_slot){.last_sent = 0, .len = (uint32_t)len, .sent = false, .acked = false};
    ch->send_next++;
    ch->stats.sent++;
    return NS_OK;
}

/* ---- writing ---------------------------------------------------------------------------- */

static uint32_t ack_mask(const ns_reliable *ch)
{
    uint32_t mask = 0;
    for (uint32_t i = 0; i < 32; i++) {
        uint16_t seq = (uint16_t)(ch->recv_contig + 1u + i);
        if ((uint16_t)(seq - ch->deliver_next) >= ch->window) break;
        if (ch->recv[slot_of(ch, seq)].present) mask |= 1u << i;
    }
    return mask;
}

static bool due(const ns_reliable *ch, const send_slot *s, uint64_t now)
{
    if (s->acked) return false;
    if (!s->sent) return true;
    return now >= s->last_sent && now - s->last_sent >= ch->resend_interval;
}

/* Bytes a message takes in a frame after a message with sequence prev (first: none before it). */
static size_t message_bytes(uint16_t seq, uint16_t prev, bool first, uint32_t len)
{
    size_t seq_bytes = first ? 2u : ns_varint_size((uint16_t)(seq - prev - 1u));
    return seq_bytes + ns_varint_size(len) + len;
}

ns_status ns_reliable_write(ns_reliable *ch, uint64_t now, void *out, size_t cap, size_t *written)
{
    uint8_t *p = (uint8_t *)out;
    uint32_t mask = ack_mask(ch);
    size_t header = 2u + ns_varint_size(mask);
    *written = 0;
    if (!p || cap < header + 1u) return NS_ERR_OVERFLOW;
    /* Choose the due messages that fit, oldest first, reserving the longest count. */
    size_t reserve = header + ns_varint_size(ch->window);
    size_t budget = cap > reserve ? cap - reserve : 0;
    uint32_t count = 0;
    uint16_t prev = 0;
    for (uint16_t seq = ch->send_oldest; seq != ch->send_next; seq++) {
        const send_slot *s = &ch->send[slot_of(ch, seq)];
        if (!due(ch, s, now)) continue;
        size_t need = message_bytes(seq, prev, count == 0, s->len);
        if (need > budget) continue;
        budget -= need;
        ch->chosen[count++] = seq;
        prev = seq;
    }
    const bool same = ch->said_times && ch->said_ack == ch->recv_contig && ch->said_mask == mask;
    if (count == 0 && ch->quiet_after && same && ch->said_times >= ch->quiet_after)
        return NS_OK; /* a quiet frame: nothing the peer does not have */
    ch->said_times = same && ch->said_times < UINT32_MAX ? ch->said_times + 1u : 1u;
    ch->said_ack = ch->recv_contig, ch->said_mask = mask;
    size_t pos = 0;
    p[pos++] = (uint8_t)ch->recv_contig;
    p[pos++] = (uint8_t)(ch->recv_contig >> 8);
    pos += ns_varint_encode(p + pos, cap - pos, mask);
    pos += ns_varint_encode(p + pos, cap - pos, count);
    for (uint32_t k = 0; k < count; k++) {
        uint16_t seq = ch->chosen[k];
        send_slot *s = &ch->send[slot_of(ch, seq)];
        if (k == 0) {
            p[pos++] = (uint8_t)seq;
            p[pos++] = (uint8_t)(seq >> 8);
        } else {
            pos += ns_varint_encode(p + pos, cap - pos, (uint16_t)(seq - ch->chosen[k - 1] - 1u));
        }
        pos += ns_varint_encode(p + pos, cap - pos, s->len);
        memcpy(p + pos, ch->send_data + (size_t)slot_of(ch, seq) * ch->max_message, s->len);
        pos += s->len;
        if (s->sent) ch->stats.resent++;
        ch->stats.transmitted++;
        s->sent = true;
        s->last_sent = now;
    }
    *written = pos;
    return NS_OK;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* One message of a frame as parse_frame finds it. */
typedef struct frame_cursor {
    const uint8_t *p;
    size_t len, pos;
} frame_cursor;

static ns_status read_u32(frame_cursor *c, uint32_t *v)
{
    size_t used;
    ns_status s = ns_varint_decode_u32(c->p + c->pos, c->len - c->pos, v, &used);
    c->pos += used;
    return s;
}

static ns_status read_u16(frame_cursor *c, uint16_t *v)
{
    if (c->len - c->pos < 2) return NS_ERR_TRUNCATED;
    *v = (uint16_t)(c->p[c->pos] | c->p[c->pos + 1] << 8);
    c->pos += 2;
    return NS_OK;
}

/* The ack header must not ack a message this side never sent. */
static ns_status check_ack(const ns_reliable *ch, uint16_t ack, uint32_t mask)
{
    int32_t ahead = seq_diff(ack, ch->send_next);
    if (ahead > 0) return NS_ERR_RANGE;
    uint32_t allowed = (uint32_t)(-ahead); /* messages after ack that were sent, plus one */
    allowed = allowed ? allowed - 1u : 0u;
    if (allowed < 32 && (mask >> allowed) != 0) return NS_ERR_RANGE;
    return NS_OK;
}

static void apply_ack(ns_reliable *ch, uint16_t ack, uint32_t mask)
{
    for (uint16_t seq = ch->send_oldest; seq != ch->send_next; seq++) {
        send_slot *s = &ch->send[slot_of(ch, seq)];
        int32_t d = seq_diff(seq, ack);
        bool acked = d < 0 || (d >= 1 && d <= 32 && (mask >> (d - 1)) & 1u);
        if (acked && !s->acked) {
            s->acked = true;
            ch->stats.acked++;
        }
    }
    while (ch->send_oldest != ch->send_next && ch->send[slot_of(ch, ch->send_oldest)].acked)
        ch->send_oldest++;
}

/* Stores one received message if it is new and there is room for it. */
static void accept_message(ns_reliable *ch, uint16_t seq, const uint8_t *data, uint32_t len)
{
    recv_slot *r = &ch->recv[slot_of(ch, seq)];
    bool before = seq_diff(seq, ch->deliver_next) < 0;
    if (before || ((uint16_t)(seq - ch->deliver_next) < ch->window && r->present)) {
        ch->stats.duplicates++;
        return;
    }
    /* Legal but no room until the application takes what it was given: not acked, so resent. */
    if ((uint16_t)(seq - ch->deliver_next) >= ch->window) return;
    memcpy(ch->recv_data + (size_t)slot_of(ch, seq) * ch->max_message, data, len);
    r->len = len;
    r->present = true;
    while ((uint16_t)(ch->recv_contig - ch->deliver_next) < ch->window && ch->recv[slot_of(ch, ch->recv_contig)].present)
        ch->recv_contig++;
}

/* Walks a frame; checks everything when apply is false, applies it (already checked) when true. */
static ns_status parse_frame(ns_reliable *ch, const uint8_t *p, size_t len, bool apply)
{
    frame_cursor c = {p, len, 0};
    uint16_t ack;
    uint32_t mask, count;
    ns_status s = read_u16(&c, &ack);
    if (s == NS_OK) s = read_u32(&c, &mask);
    if (s == NS_OK) s = read_u32(&c, &count);
    if (s != NS_OK) return s;
    if (count > ch->window) return NS_ERR_MALFORMED;
    if (!apply && (s = check_ack(ch, ack, mask)) != NS_OK) return s;
    uint16_t seq = 0;
    for (uint32_t k = 0; k < count; k++) {
        if (k == 0) {
            s = read_u16(&c, &seq);
        } else {
            uint32_t gap;
            s = read_u32(&c, &gap);
            if (s == NS_OK && gap >= ch->window) s = NS_ERR_MALFORMED;
            seq = (uint16_t)(seq + 1u + gap);
        }
        uint32_t n = 0;
        if (s == NS_OK) s = read_u32(&c, &n);
        if (s != NS_OK) return s;
        if (n == 0 || n > ch->max_message) return NS_ERR_MALFORMED;
        if (n > c.len - c.pos) return NS_ERR_TRUNCATED;
        /* The peer never sends beyond what this side received plus its window. */
        if (!apply && seq_diff(seq, ch->recv_contig) >= (int32_t)ch->window) return NS_ERR_RANGE;
        if (apply) accept_message(ch, seq, c.p + c.pos, n);
        c.pos += n;
    }
    if (c.pos != c.len) return NS_ERR_MALFORMED;
    if (apply) apply_ack(ch, ack, mask);
    if (apply && count) ch->said_times = 0; /* a message came: ack it in the next frames */
    return NS_OK;
}

ns_status ns_reliable_read(ns_reliable *ch, const void *frame, size_t len)
{
    if (len == 0 && ch->quiet_after) return NS_OK; /* a quiet frame */
    if (!frame) return NS_ERR_TRUNCATED;
    ns_status s = parse_frame(ch, (const uint8_t *)frame, len, false);
    if (s != NS_OK) return s;
    return parse_frame(ch, (const uint8_t *)frame, len, true);
}

bool ns_reliable_receive(ns_reliable *ch, const uint8_t **msg, size_t *len)
{
    recv_slot *r = &ch->recv[slot_of(ch, ch->deliver_next)];
    if (!r->present) return false;
    *msg = ch->recv_data + (size_t)slot_of(ch, ch->deliver_next) * ch->max_message;
    *len = r->len;
    r->present = false;
    ch->deliver_next++;
    ch->stats.delivered++;
    return true;
}

ns_reliable_stats ns_reliable_get_stats(const ns_reliable *ch)
{
    ns_reliable_stats st = ch->stats;
    st.in_flight = (uint16_t)(ch->send_next - ch->send_oldest);
    st.buffered = (uint16_t)(ch->recv_contig - ch->deliver_next);
    return st;
}
