/* netschema/batch.h — timestamp batching: many small messages packed into one datagram payload.
 *
 * A batch is an 8-byte little-endian timestamp followed by one or more messages, each prefixed
 * by its length as a LEB128 varint (1 to 2^32 - 1 bytes; see docs/messages.md for the layout
 * byte by byte). The timestamp is opaque to the runtime: a tick, microseconds, whatever the
 * caller's clock is; every message of a batch shares it.
 *
 * ns_batcher packs messages into batches of at most `threshold` bytes (default 1200, below a
 * typical path MTU); a message that does not fit an empty batch travels alone in its own batch;
 * a new batch starts when the timestamp changes. ns_unbatcher checks a whole received batch
 * before yielding anything from it: a malformed batch yields nothing. Neither allocates after
 * creation, and neither has global state. */
#ifndef NETSCHEMA_BATCH_H
#define NETSCHEMA_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_BATCH_THRESHOLD_DEFAULT 1200u /* bytes per batch, timestamp included */
#define NS_BATCH_TIMESTAMP_BYTES   8u
#define NS_BATCH_MESSAGE_MAX       0xffffffffu /* longest message a batch can carry */

/* Packs messages into batches inside caller-owned storage. Treat the members as private. */
typedef struct ns_batcher {
    uint8_t  *buf;        /* storage: records of [size_t length][batch bytes] */
    size_t    cap;        /* storage bytes */
    size_t    threshold;  /* largest batch that holds more than one message */
    size_t    head;       /* first record not yet taken */
    size_t    tail;       /* end of the last record */
    size_t    open;       /* offset of the open (still growing) record, or SIZE_MAX */
    uint64_t  timestamp;  /* timestamp of the open batch */
} ns_batcher;

/* Bytes of storage that always hold one batch with a message of max_message bytes. */
size_t ns_batcher_storage_for(size_t max_message);

/* Starts an empty batcher over storage (bytes long). threshold 0 means the default. Storage
 * should hold at least one full batch plus sizeof(size_t) bytes of bookkeeping per batch (8 on
 * 64-bit targets, 4 on 32-bit ones; ns_batcher_storage_for counts it); a smaller storage
 * still works but reports NS_ERR_FULL sooner. NS_ERR_ARGUMENT when threshold is below 10. */
ns_status ns_batcher_init(ns_batcher *b, void *storage, size_t bytes, size_t threshold);

/* Appends one message (1..NS_BATCH_MESSAGE_MAX bytes) with its timestamp. NS_ERR_ARGUMENT for an
 * empty or oversized message; NS_ERR_FULL when storage has no room (take batches, then retry);
 * nothing is appended on error. */
ns_status ns_batcher_add(ns_batcher *b, const void *msg, size_t len, uint64_t timestamp);

/* Takes the oldest batch, closing the open one if it is the last: *batch points into storage and
 * stays valid until the next add, take or reset. Returns false when there is nothing to send. */
bool ns_batcher_take(ns_batcher *b, const uint8_t **batch, size_t *len);

/* True while a batch is waiting to be taken. */
bool ns_batcher_pending(const ns_batcher *b);

/* Drops every batch not yet taken. */
void ns_batcher_reset(ns_batcher *b);

/* Reads the messages of one received batch. Treat the members as private. */
typedef struct ns_unbatcher {
    const uint8_t *buf;
    size_t    len;
    size_t    pos;        /* next length prefix */
    uint64_t  timestamp;
    uint32_t  count;      /* messages in the batch */
} ns_unbatcher;

/* Checks a whole batch: NS_ERR_TRUNCATED when it is shorter than its timestamp or a length (or
 * its varint) runs past the end; NS_ERR_MALFORMED for a batch without messages, a zero length, or
 * an overlong or over-32-bit varint. On error *u yields nothing. On success it yields every
 * message in order; batch must stay alive while it is read. */
ns_status ns_unbatcher_init(ns_unbatcher *u, const void *batch, size_t len);

/* The next message and its batch's timestamp; false when the batch is exhausted. *msg points into
 * the batch. */
bool ns_unbatcher_next(ns_unbatcher *u, const uint8_t **msg, size_t *len, uint64_t *timestamp);

/* The batch's timestamp and its message count (0 for a rejected batch). */
uint64_t ns_unbatcher_timestamp(const ns_unbatcher *u);
uint32_t ns_unbatcher_count(const ns_unbatcher *u);

#ifdef __cplusplus
}
#endif
#endif
