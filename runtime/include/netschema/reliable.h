/* netschema/reliable.h — a reliable, ordered channel for byte messages (reliable rpcs).
 *
 * One ns_reliable sits at each end of a connection and does both directions. The sender numbers
 * each message with a 16-bit sequence, keeps it until the peer acks it and resends it at most once
 * per resend_interval; the receiver buffers what arrives out of order and delivers every message
 * exactly once, in order. Acks ride on the traffic that flows anyway: every frame the channel
 * writes starts with an ack header (a cumulative ack plus a bitmask of what arrived beyond it), so
 * the caller writes one frame into every datagram it sends, even when there is no message to
 * carry, and passes every frame it receives to ns_reliable_read. The frame layout is in
 * docs/messages.md.
 *
 * Time is the caller's unit (milliseconds or ticks): only resend_interval is compared against it.
 * Both ends must use the same window, max_message and quiet_after. Everything is allocated once
 * by ns_reliable_create; frames that fail to read change nothing. */
#ifndef NETSCHEMA_RELIABLE_H
#define NETSCHEMA_RELIABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_RELIABLE_WINDOW_DEFAULT      256u  /* messages in flight, and buffered out of order */
#define NS_RELIABLE_WINDOW_MAX          4096u
#define NS_RELIABLE_MAX_MESSAGE_DEFAULT 512u  /* bytes */
#define NS_RELIABLE_RESEND_DEFAULT      100u  /* caller time units between two sends of a message */
#define NS_RELIABLE_MESSAGE_MAX         524287u /* largest max_message */
#define NS_RELIABLE_HEADER_MAX          12u   /* bytes of the longest ack header */

typedef struct ns_reliable_config {
    uint32_t window;          /* 0: default; 1..NS_RELIABLE_WINDOW_MAX */
    uint32_t max_message;     /* 0: default; largest message in bytes, at most NS_RELIABLE_MESSAGE_MAX */
    uint64_t resend_interval; /* 0: default */
    uint32_t quiet_after;     /* 0: every frame carries the ack header. N: once N frames carried the
                                 same header and no message arrived since, frames with no message
                                 to send are empty (0 bytes) until either changes; an empty frame
                                 reads as no news (docs/messages.md section 2, "Quiet frames") */
} ns_reliable_config;

/* Counters for a net graph and for tests. */
typedef struct ns_reliable_stats {
    uint64_t sent;        /* messages accepted by ns_reliable_send */
    uint64_t transmitted; /* message copies written into frames, resends included */
    uint64_t resent;      /* copies after the first */
    uint64_t acked;       /* messages the peer acked */
    uint64_t delivered;   /* messages handed to the application */
    uint64_t duplicates;  /* received copies of messages already received */
    uint32_t in_flight;   /* sent but not yet acked */
    uint32_t buffered;    /* received, not yet delivered */
} ns_reliable_stats;

typedef struct ns_reliable ns_reliable;

/* Allocates a channel (one allocation). cfg may be NULL for the defaults. NS_ERR_ARGUMENT for a
 * window that is not a power of two up to NS_RELIABLE_WINDOW_MAX or a max_message above
 * NS_RELIABLE_MESSAGE_MAX; NS_ERR_NOMEM when the allocation fails. */
ns_status ns_reliable_create(const ns_reliable_config *cfg, ns_reliable **out);

/* Frees a channel (NULL is fine). */
void ns_reliable_destroy(ns_reliable *ch);

/* Queues one message (1..max_message bytes, copied). NS_ERR_FULL when window messages are
 * already waiting for their ack; NS_ERR_ARGUMENT for an empty or oversized message. */
ns_status ns_reliable_send(ns_reliable *ch, const void *msg, size_t len);

/* Writes one frame into out (cap bytes): the ack header, then as many due messages as fit,
 * oldest first. A message is due when it was never sent or was last sent resend_interval or more
 * before now. *written is the frame's length (0 for a quiet frame, with quiet_after).
 * NS_ERR_OVERFLOW (nothing written) when cap cannot hold the ack header. */
ns_status ns_reliable_write(ns_reliable *ch, uint64_t now, void *out, size_t cap, size_t *written);

/* Reads one frame from the peer: applies its acks and buffers its messages. The whole frame is
 * checked first; on error nothing changes: NS_ERR_TRUNCATED or NS_ERR_MALFORMED for bad bytes
 * (an empty frame too, unless quiet_after is set), NS_ERR_RANGE for an ack of a message never
 * sent or a message beyond the window. */
ns_status ns_reliable_read(ns_reliable *ch, const void *frame, size_t len);

/* The next message in order, if it has arrived: *msg stays valid until the next
 * ns_reliable_read. Returns false when the next message has not arrived. */
bool ns_reliable_receive(ns_reliable *ch, const uint8_t **msg, size_t *len);

/* Messages ns_reliable_send can still accept before NS_ERR_FULL. */
uint32_t ns_reliable_room(const ns_reliable *ch);

/* The channel's counters. */
ns_reliable_stats ns_reliable_get_stats(const ns_reliable *ch);

#ifdef __cplusplus
}
#endif
#endif
