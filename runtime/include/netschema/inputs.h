/* netschema/inputs.h — redundant client inputs: a tick-stamped ring on the client, and on the
 * server a buffer that dedupes by tick and reports what came too late.
 *
 * Every packet the client writes carries its newest inputs: at least `redundancy` of them
 * (default 3), and more when the server has not acked them yet, up to `max_per_packet`. The
 * oldest input in a packet is coded against the schema defaults, each next one against the one
 * before it (ns_message_ops->write(w, cur, prev)), so a packet decodes on its own whatever was
 * lost before it. The server acks the newest tick up to which it holds (or has consumed) every
 * input; the caller carries that tick back in its own packets and gives it to
 * ns_input_sender_ack. The packet layout is in docs/messages.md.
 *
 * Ticks are uint32_t and compared with wrap-around. Each side makes one allocation at create. */
#ifndef NETSCHEMA_INPUTS_H
#define NETSCHEMA_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"
#include "schema.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_INPUTS_REDUNDANCY_DEFAULT 3u
#define NS_INPUTS_PER_PACKET_DEFAULT 16u
#define NS_INPUTS_PER_PACKET_MAX     32u   /* the packet's count field has 5 bits */
#define NS_INPUTS_SERVER_TICKS_DEFAULT 64u /* ticks the server buffers ahead of the one it takes */

typedef struct ns_inputs_config {
    uint32_t redundancy;     /* 0: default. Inputs every packet repeats, acked or not */
    uint32_t max_per_packet; /* 0: default. 1..NS_INPUTS_PER_PACKET_MAX, >= redundancy */
    uint32_t server_ticks;   /* 0: default. Server buffer, in ticks */
    bool     short_ticks;    /* both ends: once the sender has an ack, the packet's first tick
                                goes as its low 16 bits (1 + 16 bits instead of 32), read against
                                the server's newest taken tick (docs/messages.md section 3) */
} ns_inputs_config;

/* Server-side counters: what a net graph or a cheat check wants to see. */
typedef struct ns_inputs_stats {
    uint64_t received;   /* inputs stored for a tick not yet taken */
    uint64_t duplicates; /* copies of inputs already held or taken (never applied twice) */
    uint64_t late;       /* inputs that arrived after their tick was taken without them */
    uint64_t missing;    /* takes that found no input for their tick */
    uint64_t dropped;    /* inputs too far ahead of the server, or older than its buffer */
} ns_inputs_stats;

typedef struct ns_input_sender ns_input_sender;
typedef struct ns_input_receiver ns_input_receiver;

/* ---- client ---------------------------------------------------------------------------- */

/* Allocates a sender for the input type ops (ops must stay alive). cfg may be NULL. */
ns_status ns_input_sender_create(const ns_message_ops *ops, const ns_inputs_config *cfg, ns_input_sender **out);

/* Frees a sender (NULL is fine). */
void ns_input_sender_destroy(ns_input_sender *s);

/* Records the input (a snapshot, ops->desc->snap_size bytes) for tick, which must be newer than
 * the last one pushed (NS_ERR_ORDER otherwise). The oldest input falls out when the ring is full. */
ns_status ns_input_sender_push(ns_input_sender *s, uint32_t tick, const void *snap);

/* The server holds every input up to tick: they are no longer resent beyond the redundancy.
 * NS_ERR_RANGE (nothing changes) for a tick newer than the newest pushed; older acks are ignored. */
ns_status ns_input_sender_ack(ns_input_sender *s, uint32_t tick);

/* Writes one packet with the newest inputs. NS_ERR_ARGUMENT when nothing was pushed; the
 * writer's status (NS_ERR_OVERFLOW) when it ran out of room: rewind it with a saved copy. */
ns_status ns_input_sender_write(ns_input_sender *s, ns_writer *w);

/* Inputs the next packet will carry. */
uint32_t ns_input_sender_pending(const ns_input_sender *s);

/* ---- server ---------------------------------------------------------------------------- */

/* Allocates a receiver for the input type ops (ops must stay alive). cfg may be NULL. */
ns_status ns_input_receiver_create(const ns_message_ops *ops, const ns_inputs_config *cfg, ns_input_receiver **out);

/* Frees a receiver (NULL is fine). */
void ns_input_receiver_destroy(ns_input_receiver *r);

/* Reads one packet and keeps the inputs it did not have. The whole packet is decoded first; on
 * error (the reader's status, NS_ERR_CAPACITY for too many inputs, NS_ERR_MALFORMED for a bad tick
 * gap) nothing changes. */
ns_status ns_input_receiver_read(ns_input_receiver *r, ns_reader *rd);

/* Consumes the input for tick (newer than the last tick taken, else NS_ERR_STALE) into *out_snap.
 * NS_ERR_UNKNOWN_ID when it has not arrived (*out_snap unchanged; the game repeats the previous
 * input): a copy arriving later counts as late. */
ns_status ns_input_receiver_take(ns_input_receiver *r, uint32_t tick, void *out_snap);

/* The tick to ack to the client: every input up to it is held or was taken. False before the
 * first take. */
bool ns_input_receiver_ack(const ns_input_receiver *r, uint32_t *tick);

/* The receiver's counters. */
ns_inputs_stats ns_input_receiver_stats(const ns_input_receiver *r);

#ifdef __cplusplus
}
#endif
#endif
