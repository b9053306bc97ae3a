/* fuzz_dispatch.c — libFuzzer target: any bytes through a generated dispatcher
 * (tests/e2e/dispatch_a.netschema, which imports dispatch_base). Each input is dispatched twice:
 * as it is, and as a buffer of valid messages built from it (_send of messages whose fields the
 * input chooses) with one bit flipped and cut short where the input says. Checked for every
 * message: a dispatch that fails calls no handler and leaves the inputs' prev snapshots as they
 * were; one that succeeds hands its handler a message that _send writes and _dispatch reads
 * back to the same message. ASan catches any read past the buffer, which is copied to a
 * heap block of its exact size. Built by `make fuzz` with clang -fsanitize=fuzzer; replayed in
 * the test suite by fuzz_dispatch_replay (tests/fuzz/fuzz_replay.c) on generated inputs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch_a.ns.h"

typedef struct state {
    unsigned            calls;
    disp_a_Move_snap    move_prev;
    disp_base_Keys_snap keys_prev;
} state;

/* Re-sends a message the dispatcher delivered and checks that it reads back equal. */
static void resend_chat(void *ctx, const disp_a_Chat *m)
{
    ((state *)ctx)->calls++;
    uint8_t buf[DISP_A_CHAT_MAX_BYTES + 8];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    if (disp_a_Chat_send(&w, m) != NS_OK) abort();
    disp_a_Chat_snap a, b;
    disp_a_Chat_quantize(m, &a);
    ns_reader r;
    ns_reader_init(&r, buf, ns_writer_flush(&w));
    if (ns_read_packed_u32(&r, NULL) != DISP_A_CHAT_ID || disp_a_Chat_read(&r, &b) != NS_OK ||
        !disp_a_Chat_snap_equal(&a, &b))
        abort();
}

static void resend_ping(void *ctx, const disp_base_Ping *m)
{
    ((state *)ctx)->calls++;
    uint8_t buf[DISP_BASE_PING_MAX_BYTES + 8];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    if (disp_base_Ping_send(&w, m) != NS_OK) abort();
    disp_base_Ping_snap a, b;
    disp_base_Ping_quantize(m, &a);
    ns_reader r;
    ns_reader_init(&r, buf, ns_writer_flush(&w));
    if (ns_read_packed_u32(&r, NULL) != DISP_BASE_PING_ID || disp_base_Ping_read(&r, &b) != NS_OK ||
        !disp_base_Ping_snap_equal(&a, &b))
        abort();
}

/* An input's handler runs after its prev was replaced by the message itself. */
static void check_move(void *ctx, const disp_a_Move *m)
{
    state *s = (state *)ctx;
    s->calls++;
    disp_a_Move_snap q;
    disp_a_Move_quantize(m, &q);
    if (!disp_a_Move_snap_equal(&q, &s->move_prev)) abort();
}

static void check_keys(void *ctx, const disp_base_Keys *m)
{
    state *s = (state *)ctx;
    s->calls++;
    disp_base_Keys_snap q;
    disp_base_Keys_quantize(m, &q);
    if (!disp_base_Keys_snap_equal(&q, &s->keys_prev)) abort();
}

/* Dispatches every message of buf until one fails or fewer than 2 bits are left. */
static void dispatch_all(const uint8_t *data, size_t size)
{
    uint8_t *buf = (uint8_t *)malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    state s;
    memset(&s, 0, sizeof s);
    s.move_prev = disp_a_Move_snap_default;
    s.keys_prev = disp_base_Keys_snap_default;
    disp_a_handlers h;
    memset(&h, 0, sizeof h);
    h.on_disp_a_Chat = resend_chat;
    h.on_disp_a_Move = check_move;
    h.prev_disp_a_Move = &s.move_prev;
    h.on_disp_base_Keys = check_keys;
    h.prev_disp_base_Keys = &s.keys_prev;
    h.on_disp_base_Ping = resend_ping;
    ns_reader r;
    ns_reader_init(&r, buf, size);
    for (unsigned i = 0; i < 64 && ns_reader_remaining_bits(&r) >= 2; i++) {
        state before = s;
        uint32_t id = UINT32_MAX;
        ns_status st = disp_a_dispatch(&r, &h, &s, &id);
        if (st == NS_OK) {
            if (s.calls != before.calls + 1) abort();
            continue;
        }
        if (s.calls != before.calls || !disp_a_Move_snap_equal(&s.move_prev, &before.move_prev) ||
            !disp_base_Keys_snap_equal(&s.keys_prev, &before.keys_prev) || !ns_reader_failed(&r))
            abort();
        if (st == NS_ERR_UNKNOWN_TYPE && ns_schema_message_index(&disp_a_schema, id) >= 0) abort();
        break;
    }
    free(buf);
}

/* Up to 8 valid messages whose kinds and fields come from the input's bytes. */
static size_t build_valid(const uint8_t *data, size_t size, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    disp_a_Move_snap move_prev = disp_a_Move_snap_default;
    disp_base_Keys_snap keys_prev = disp_base_Keys_snap_default;
    for (size_t i = 0; i + 4 <= size && i < 32; i += 4) {
        const uint8_t *b = data + i;
        switch (b[0] & 3u) {
        case 0: {
            disp_a_Chat c;
            disp_a_Chat_init(&c);
            memset(c.text, 'a' + (b[1] & 15), (size_t)(b[2] & 31));
            c.channel = b[3];
            c.tag.v = (uint8_t)(b[1] % 201);
            disp_a_Chat_send(&w, &c);
            break;
        }
        case 1: {
            disp_a_Move m;
            disp_a_Move_init(&m);
            m.stick.x = (float)(int8_t)b[1] / 127.0f, m.stick.y = (float)(int8_t)b[2] / 127.0f, m.jump = b[3] & 1;
            disp_a_Move_send(&w, &m, &move_prev);
            break;
        }
        case 2: {
            disp_base_Keys k;
            disp_base_Keys_init(&k);
            k.tick = (uint16_t)(b[1] | b[2] << 8);
            for (unsigned j = 0; j < (b[3] & 7u); j++) disp_base_Keys_pressed_add(&k, (uint8_t)(b[3] + j));
            disp_base_Keys_send(&w, &k, &keys_prev);
            break;
        }
        default: {
            disp_base_Ping p;
            disp_base_Ping_init(&p);
            p.n = (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
            disp_base_Ping_send(&w, &p);
        }
        }
    }
    return ns_writer_flush(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dispatch_all(data, size);
    if (size < 3) return 0;
    /* The first two bytes pick the bit to flip (or none) and where to cut. */
    uint8_t valid[512];
    size_t n = build_valid(data + 2, size - 2, valid, sizeof valid);
    if (n == 0) return 0;
    size_t flip = ((size_t)data[0] << 8 | data[1]) % (n * 8 + 1), cut = n - (size_t)(data[0] >> 4) % (n + 1);
    if (flip < n * 8) valid[flip / 8] ^= (uint8_t)(1u << (flip % 8));
    dispatch_all(valid, cut);
    return 0;
}
