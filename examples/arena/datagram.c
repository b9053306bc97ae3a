/* datagram.c — the example's datagram container, the same both ways (README.md, "The
 * datagrams"): the reliable frame with its length in front, then a bit stream to the end of the
 * datagram. Only library calls: the length is an ns_varint, the frame is ns_reliable's, the bit
 * stream is written by ns_world_write, ns_replica_write_ack, ns_input_sender_write and the
 * generated _send. Also the rpc and input logs the checks keep. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

size_t datagram_frame_cost(size_t frame_len)
{
    return ns_varint_size(frame_len) + frame_len;
}

size_t datagram_write(uint8_t *out, size_t cap, const uint8_t *frame, size_t frame_len, const uint8_t *body,
                      size_t body_len)
{
    size_t n = ns_varint_encode(out, cap, frame_len);
    if (!n || cap - n < frame_len + body_len) return 0;
    memcpy(out + n, frame, frame_len);
    if (body_len) memcpy(out + n + frame_len, body, body_len);
    return n + frame_len + body_len;
}

ns_status datagram_parse(const uint8_t *bytes, size_t len, datagram_in *out)
{
    uint32_t frame_len;
    size_t n;
    ns_status st = ns_varint_decode_u32(bytes, len, &frame_len, &n);
    if (st != NS_OK) return st;
    if (frame_len > len - n) return NS_ERR_TRUNCATED;
    *out = (datagram_in){bytes + n, frame_len, bytes + n + frame_len, len - n - frame_len};
    return NS_OK;
}

/* FNV-1a: a fingerprint of a message's bytes. */
static uint64_t fingerprint(const void *msg, size_t len)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) h = (h ^ ((const uint8_t *)msg)[i]) * UINT64_C(0x100000001b3);
    return h ^ len;
}

void rpc_log_sent(rpc_log *log, const void *msg, size_t len)
{
    if (log->count == log->cap) {
        uint32_t cap = log->cap ? 2 * log->cap : 64;
        uint64_t *grown = realloc(log->sent, cap * sizeof *grown);
        if (!grown) return;
        log->sent = grown, log->cap = cap;
    }
    log->sent[log->count++] = fingerprint(msg, len);
}

void rpc_log_delivered(rpc_log *log, const void *msg, size_t len)
{
    if (log->delivered < log->count && log->sent[log->delivered] == fingerprint(msg, len)) log->delivered++;
    else log->wrong++;
}

void rpc_log_free(rpc_log *log)
{
    free(log->sent);
    memset(log, 0, sizeof *log);
}

/* The fingerprint of an input: of its bits as written against the defaults, so that padding
 * inside the snapshot struct does not count. */
static uint64_t input_print(const arena_PlayerInput_snap *snap)
{
    uint8_t buf[64] = {0};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    (void)arena_PlayerInput_write(&w, snap, NULL);
    return fingerprint(buf, ns_writer_flush(&w));
}

void input_log_pushed(input_log *log, uint32_t tick, const arena_PlayerInput_snap *snap)
{
    if (!log->count) log->first = tick;
    if (tick != log->first + log->count) return; /* one per tick: the client never skips one */
    if (log->count == log->cap) {
        uint32_t cap = log->cap ? 2 * log->cap : 256;
        uint64_t *grown = realloc(log->pushed, cap * sizeof *grown);
        if (!grown) return;
        log->pushed = grown, log->cap = cap;
    }
    log->pushed[log->count++] = input_print(snap);
}

void input_log_applied(input_log *log, uint32_t tick, const arena_PlayerInput_snap *snap)
{
    if (log->applied && tick <= log->last_applied) log->twice++;
    else if (tick < log->first || tick - log->first >= log->count)
        log->wrong++; /* never pushed */
    else if (log->pushed[tick - log->first] != input_print(snap))
        log->wrong++;
    else log->applied++, log->last_applied = tick;
}

void input_log_free(input_log *log)
{
    free(log->pushed);
    memset(log, 0, sizeof *log);
}
