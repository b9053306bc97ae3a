/* batch.c — timestamp batching (batch.h): the batcher packs length-prefixed messages behind one
 * 8-byte timestamp; the unbatcher checks a whole batch before yielding any of it.
 *
 * The batcher's storage is a queue of records, each a native size_t (the batch's length, never
 * sent) followed by the batch bytes, so that finished batches can be handed out in place without
 * copying. Records are appended at `tail` and taken from `head`; when the queue is empty or the
 * end of storage is reached, the records still queued are moved back to the start. */
#include "netschema/batch.h"

#include <string.h>

#include "netschema/platform.h"
#include "netschema/varint.h"

#define RECORD_HEADER sizeof(size_t)
#define NO_OPEN_BATCH ((size_t)-1)

size_t ns_batcher_storage_for(size_t max_message)
{
    return RECORD_HEADER + NS_BATCH_TIMESTAMP_BYTES + ns_varint_size(max_message) + max_message;
}

ns_status ns_batcher_init(ns_batcher *b, void *storage, size_t bytes, size_t threshold)
{
    if (threshold == 0) threshold = NS_BATCH_THRESHOLD_DEFAULT;
    /* The smallest useful batch: a timestamp, a 1-byte length and a 1-byte message. */
    if (threshold < NS_BATCH_TIMESTAMP_BYTES + 2 || (!storage && bytes)) return NS_ERR_ARGUMENT;
    b->buf = (uint8_t *)storage;
    b->cap = storage ? bytes : 0;
    b->threshold = threshold;
    ns_batcher_reset(b);
    return NS_OK;
}

void ns_batcher_reset(ns_batcher *b)
{
    b->head = 0;
    b->tail = 0;
    b->open = NO_OPEN_BATCH;
    b->timestamp = 0;
}

static size_t record_length(const ns_batcher *b, size_t record)
{
    size_t len;
    memcpy(&len, b->buf + record, sizeof len);
    return len;
}

static void set_record_length(ns_batcher *b, size_t record, size_t len)
{
    memcpy(b->buf + record, &len, sizeof len);
}

/* Makes `need` bytes available at tail, moving the queued records to the start of storage if
 * that helps. False (nothing moved) when the queue plus `need` exceeds the storage. */
static bool make_room(ns_batcher *b, size_t need)
{
    size_t used = b->tail - b->head;
    if (need > b->cap - used) return false;
    if (need <= b->cap - b->tail) return true;
    memmove(b->buf, b->buf + b->head, used);
    if (b->open != NO_OPEN_BATCH) b->open -= b->head;
    b->head = 0;
    b->tail = used;
    return true;
}

ns_status ns_batcher_add(ns_batcher *b, const void *msg, size_t len, uint64_t timestamp)
{
    if (len == 0 || len > NS_BATCH_MESSAGE_MAX || !msg) return NS_ERR_ARGUMENT;
    if (b->head == b->tail && b->open == NO_OPEN_BATCH) b->head = b->tail = 0;
    size_t prefix = ns_varint_size(len);
    bool start = b->open == NO_OPEN_BATCH || timestamp != b->timestamp ||
                 record_length(b, b->open) + prefix + len > b->threshold;
    size_t need = prefix + len + (start ? RECORD_HEADER + NS_BATCH_TIMESTAMP_BYTES : 0);
    if (!make_room(b, need)) return NS_ERR_FULL;
    if (start) {
        b->open = b->tail;
        b->timestamp = timestamp;
        set_record_length(b, b->open, NS_BATCH_TIMESTAMP_BYTES);
        ns__store_le64(b->buf + b->open + RECORD_HEADER, timestamp);
        b->tail += RECORD_HEADER + NS_BATCH_TIMESTAMP_BYTES;
    }
    b->tail += ns_varint_encode(b->buf + b->tail, prefix, len);
    memcpy(b->buf + b->tail, msg, len);
    b->tail += len;
    size_t batch_len = record_length(b, b->open) + prefix + len;
    set_record_length(b, b->open, batch_len);
    /* A message too large to share a batch closes it at once: it travels alone. */
    if (batch_len >= b->threshold) b->open = NO_OPEN_BATCH;
    return NS_OK;
}

bool ns_batcher_take(ns_batcher *b, const uint8_t **batch, size_t *len)
{
    if (b->head == b->tail) return false;
    if (b->open == b->head) b->open = NO_OPEN_BATCH;
    size_t n = record_length(b, b->head);
    *batch = b->buf + b->head + RECORD_HEADER;
    *len = n;
    b->head += RECORD_HEADER + n;
    return true;
}

bool ns_batcher_pending(const ns_batcher *b)
{
    return b->head != b->tail;
}

/* ---- unbatcher ------------------------------------------------------------------------- */

static void yield_nothing(ns_unbatcher *u)
{
    u->buf = NULL;
    u->len = 0;
    u->pos = 0;
    u->timestamp = 0;
    u->count = 0;
}

ns_status ns_unbatcher_init(ns_unbatcher *u, const void *batch, size_t len)
{
    yield_nothing(u);
    const uint8_t *p = (const uint8_t *)batch;
    if (!p || len < NS_BATCH_TIMESTAMP_BYTES) return NS_ERR_TRUNCATED;
    uint32_t count = 0;
    for (size_t pos = NS_BATCH_TIMESTAMP_BYTES; pos < len; count++) {
        uint32_t n;
        size_t used;
        ns_status s = ns_varint_decode_u32(p + pos, len - pos, &n, &used);
        if (s != NS_OK) return s;
        if (n == 0) return NS_ERR_MALFORMED;
        pos += used;
        if (n > len - pos) return NS_ERR_TRUNCATED;
        pos += n;
    }
    if (count == 0) return NS_ERR_MALFORMED; /* the batcher never sends an empty batch */
    u->buf = p;
    u->len = len;
    u->pos = NS_BATCH_TIMESTAMP_BYTES;
    u->timestamp = ns__load_le64(p);
    u->count = count;
    return NS_OK;
}

bool ns_unbatcher_next(ns_unbatcher *u, const uint8_t **msg, size_t *len, uint64_t *timestamp)
{
    if (u->pos >= u->len) return false;
    uint32_t n;
    size_t used;
    /* Checked by init: cannot fail here. */
    (void)ns_varint_decode_u32(u->buf + u->pos, u->len - u->pos, &n, &used);
    *msg = u->buf + u->pos + used;
    *len = n;
    if (timestamp) *timestamp = u->timestamp;
    u->pos += used + n;
    return true;
}

uint64_t ns_unbatcher_timestamp(const ns_unbatcher *u)
{
    return u->timestamp;
}

uint32_t ns_unbatcher_count(const ns_unbatcher *u)
{
    return u->count;
}
