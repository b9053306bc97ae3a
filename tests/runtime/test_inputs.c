/* test_inputs.c — redundant inputs (inputs.h) with the generated ctl.Move input of
 * idl/examples/inputs.netschema: the packet layout, dedupe by tick, late inputs, rejection of
 * malformed packets without any change, and 100,000 ticks over a link that loses 30% each way. */
#include <stdlib.h>
#include <string.h>

#include <netschema/netschema.h>

#include "inputs.ns.h"
#include "ns_test.h"

/* An ns_message_ops built by hand around the generated functions (the tests do not rely on the
 * generated dispatch tables). */
static ns_status move_write(ns_writer *w, const void *cur, const void *prev)
{
    return ctl_Move_write(w, (const ctl_Move_snap *)cur, (const ctl_Move_snap *)prev);
}

static ns_status move_read(ns_reader *r, void *out, const void *prev)
{
    return ctl_Move_read(r, (ctl_Move_snap *)out, (const ctl_Move_snap *)prev);
}

static const ns_type_desc move_desc = {.name = "Move", .snap_size = sizeof(ctl_Move_snap)};
static const ns_message_ops move_ops = {.desc = &move_desc, .kind = NS_MSG_INPUT,
                                        .write = move_write, .read = move_read};

static ctl_Move_snap input_for(uint32_t tick)
{
    ctl_Move_snap s;
    memset(&s, 0, sizeof s);
    s.stick[0] = (int32_t)(tick % 255) - 127;
    s.stick[1] = (int32_t)((tick * 7) % 255) - 127;
    s.jump = tick % 5 == 0;
    s.crouch = tick % 3 == 0;
    s.buttons = (uint8_t)(tick * 13);
    s.tick = tick;
    return s;
}

static ns_input_sender *make_sender_with(uint32_t redundancy, uint32_t max, bool short_ticks)
{
    ns_inputs_config cfg = {.redundancy = redundancy, .max_per_packet = max, .short_ticks = short_ticks};
    ns_input_sender *s = NULL;
    ck_assert_int_eq(ns_input_sender_create(&move_ops, &cfg, &s), NS_OK);
    return s;
}

static ns_input_sender *make_sender(uint32_t redundancy, uint32_t max)
{
    return make_sender_with(redundancy, max, false);
}

static ns_input_receiver *make_receiver_with(bool short_ticks)
{
    ns_inputs_config cfg = {.short_ticks = short_ticks};
    ns_input_receiver *r = NULL;
    ck_assert_int_eq(ns_input_receiver_create(&move_ops, &cfg, &r), NS_OK);
    return r;
}

static ns_input_receiver *make_receiver(void)
{
    return make_receiver_with(false);
}

static size_t write_packet(ns_input_sender *s, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ck_assert_int_eq(ns_input_sender_write(s, &w), NS_OK);
    return ns_writer_flush(&w);
}

static void push(ns_input_sender *s, uint32_t tick)
{
    ctl_Move_snap in = input_for(tick);
    ck_assert_int_eq(ns_input_sender_push(s, tick, &in), NS_OK);
}

/* The packet as docs/messages.md lays it out, read back field by field. */
START_TEST(packet_layout)
{
    ns_input_sender *s = make_sender(3, 8);
    push(s, 100);
    push(s, 101);
    push(s, 103);
    push(s, 104);
    ck_assert_int_eq(ns_input_sender_ack(s, 100), NS_OK);
    uint8_t buf[256];
    size_t n = write_packet(s, buf, sizeof buf);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    ck_assert_uint_eq(ns_read_bits(&r, 5), 3 - 1);  /* three inputs: those not acked... */
    ck_assert_uint_eq(ns_read_bits(&r, 32), 101);   /* ...the newest three: 101, 103, 104 */
    ctl_Move_snap first, second, third, want;
    ck_assert_int_eq(ctl_Move_read(&r, &first, NULL), NS_OK); /* against the defaults */
    want = input_for(101);
    ck_assert(ctl_Move_snap_equal(&first, &want));
    ck_assert(!ns_read_bool(&r));                   /* not consecutive: */
    ck_assert_uint_eq(ns_read_bits(&r, 32), 2);     /* gap 2 */
    ck_assert_int_eq(ctl_Move_read(&r, &second, &first), NS_OK);
    want = input_for(103);
    ck_assert(ctl_Move_snap_equal(&second, &want));
    ck_assert(ns_read_bool(&r));                    /* consecutive */
    ck_assert_int_eq(ctl_Move_read(&r, &third, &second), NS_OK);
    want = input_for(104);
    ck_assert(ctl_Move_snap_equal(&third, &want));
    ck_assert_uint_lt(ns_reader_remaining_bits(&r), 8);
    ns_input_sender_destroy(s);
}
END_TEST

START_TEST(unacked_inputs_ride_along)
{
    ns_input_sender *s = make_sender(2, 5);
    ck_assert_uint_eq(ns_input_sender_pending(s), 0);
    uint8_t buf[256];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(ns_input_sender_write(s, &w), NS_ERR_ARGUMENT);
    for (uint32_t t = 10; t < 14; t++) push(s, t);
    ck_assert_uint_eq(ns_input_sender_pending(s), 4); /* nothing acked: all of them */
    push(s, 14);
    push(s, 15);
    ck_assert_uint_eq(ns_input_sender_pending(s), 5); /* capped at max_per_packet */
    ck_assert_int_eq(ns_input_sender_ack(s, 13), NS_OK);
    ck_assert_uint_eq(ns_input_sender_pending(s), 2); /* 14, 15 */
    ck_assert_int_eq(ns_input_sender_ack(s, 15), NS_OK);
    ck_assert_uint_eq(ns_input_sender_pending(s), 2); /* the redundancy stays */
    ck_assert_int_eq(ns_input_sender_ack(s, 12), NS_OK); /* an old ack changes nothing */
    ck_assert_uint_eq(ns_input_sender_pending(s), 2);
    ck_assert_int_eq(ns_input_sender_ack(s, 16), NS_ERR_RANGE);
    ctl_Move_snap in = input_for(15);
    ck_assert_int_eq(ns_input_sender_push(s, 15, &in), NS_ERR_ORDER);
    ck_assert_int_eq(ns_input_sender_push(s, 9, &in), NS_ERR_ORDER);
    ns_inputs_config bad = {.redundancy = 4, .max_per_packet = 3};
    ns_input_sender *x = NULL;
    ck_assert_int_eq(ns_input_sender_create(&move_ops, &bad, &x), NS_ERR_ARGUMENT);
    ns_input_sender_destroy(s);
}
END_TEST

static ns_status read_packet(ns_input_receiver *r, const uint8_t *buf, size_t n)
{
    ns_reader rd;
    ns_reader_init(&rd, buf, n);
    return ns_input_receiver_read(r, &rd);
}

START_TEST(server_dedupes_and_reports_late)
{
    ns_input_sender *s = make_sender(3, 8);
    ns_input_receiver *r = make_receiver();
    uint8_t buf[256];
    push(s, 1);
    push(s, 2);
    size_t n = write_packet(s, buf, sizeof buf);
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK);
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK); /* a duplicated datagram */
    ns_inputs_stats st = ns_input_receiver_stats(r);
    ck_assert_uint_eq(st.received, 2);
    ck_assert_uint_eq(st.duplicates, 2);
    uint32_t ack;
    ck_assert(!ns_input_receiver_ack(r, &ack));
    ctl_Move_snap out, want = input_for(1);
    ck_assert_int_eq(ns_input_receiver_take(r, 1, &out), NS_OK);
    ck_assert(ctl_Move_snap_equal(&out, &want));
    ck_assert(ns_input_receiver_ack(r, &ack));
    ck_assert_uint_eq(ack, 2);
    /* Tick 3 is taken before it arrives; it arrives late, later again as a duplicate. */
    ck_assert_int_eq(ns_input_receiver_take(r, 2, &out), NS_OK);
    ctl_Move_snap untouched = out;
    ck_assert_int_eq(ns_input_receiver_take(r, 3, &out), NS_ERR_UNKNOWN_ID);
    ck_assert_mem_eq(&out, &untouched, sizeof out);
    push(s, 3);
    push(s, 4);
    n = write_packet(s, buf, sizeof buf); /* 1..4: nothing acked on the client */
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK);
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK);
    st = ns_input_receiver_stats(r);
    ck_assert_uint_eq(st.late, 1);
    ck_assert_uint_eq(st.missing, 1);
    ck_assert_uint_eq(st.received, 3);             /* 1, 2, then 4 */
    ck_assert_uint_eq(st.duplicates, 2 + 2 + 4);   /* 1, 2 twice more; 3 (once late) and 4 once more */
    ck_assert_int_eq(ns_input_receiver_take(r, 3, &out), NS_ERR_STALE);
    ck_assert_int_eq(ns_input_receiver_take(r, 4, &out), NS_OK);
    want = input_for(4);
    ck_assert(ctl_Move_snap_equal(&out, &want));
    ck_assert_int_eq(ns_input_receiver_take(r, 4, &out), NS_ERR_STALE); /* never twice */
    ns_input_sender_destroy(s);
    ns_input_receiver_destroy(r);
}
END_TEST

/* Inputs far ahead of the tick the server takes do not fit its buffer and are dropped. */
START_TEST(inputs_too_far_ahead_are_dropped)
{
    ns_inputs_config cfg = {.redundancy = 1, .max_per_packet = 4, .server_ticks = 8};
    ns_input_sender *s = NULL;
    ns_input_receiver *r = NULL;
    ck_assert_int_eq(ns_input_sender_create(&move_ops, &cfg, &s), NS_OK);
    ck_assert_int_eq(ns_input_receiver_create(&move_ops, &cfg, &r), NS_OK);
    ctl_Move_snap out;
    ck_assert_int_eq(ns_input_receiver_take(r, 100, &out), NS_ERR_UNKNOWN_ID);
    push(s, 108);
    uint8_t buf[64];
    ck_assert_int_eq(read_packet(r, buf, write_packet(s, buf, sizeof buf)), NS_OK);
    push(s, 109);
    ck_assert_int_eq(ns_input_sender_ack(s, 108), NS_OK);
    ck_assert_int_eq(read_packet(r, buf, write_packet(s, buf, sizeof buf)), NS_OK);
    ns_inputs_stats st = ns_input_receiver_stats(r);
    ck_assert_uint_eq(st.received, 1); /* 108 = 100 + 8 fits, 109 does not */
    ck_assert_uint_eq(st.dropped, 1);
    ck_assert_int_eq(ns_input_receiver_take(r, 108, &out), NS_OK);
    ck_assert_int_eq(ns_input_receiver_take(r, 109, &out), NS_ERR_UNKNOWN_ID);
    ns_input_sender_destroy(s);
    ns_input_receiver_destroy(r);
}
END_TEST

/* Every truncation of a good packet, and a bad gap, is rejected and leaves the server as it was. */
START_TEST(malformed_packets_change_nothing)
{
    ns_input_sender *s = make_sender(4, 8);
    ns_input_receiver *r = make_receiver();
    for (uint32_t t = 50; t < 54; t++) push(s, t);
    uint8_t buf[256];
    size_t n = write_packet(s, buf, sizeof buf);
    for (size_t len = 0; len < n; len++) {
        uint8_t *exact = malloc(len ? len : 1);
        memcpy(exact, buf, len);
        ck_assert_int_ne(read_packet(r, exact, len), NS_OK);
        free(exact);
        ns_inputs_stats stats = ns_input_receiver_stats(r);
        ck_assert_uint_eq(stats.received + stats.duplicates + stats.dropped, 0);
    }
    /* Gap of 1 in the long form: one value, one encoding. */
    uint8_t bad[64];
    ns_writer w;
    ns_writer_init(&w, bad, sizeof bad);
    ctl_Move_snap a = input_for(7), b = input_for(8);
    ns_write_bits(&w, 1, 5);
    ns_write_bits(&w, 7, 32);
    ctl_Move_write(&w, &a, NULL);
    ns_write_bool(&w, false);
    ns_write_bits(&w, 1, 32);
    ctl_Move_write(&w, &b, &a);
    size_t bn = ns_writer_flush(&w);
    ns_input_receiver *fresh = make_receiver();
    ck_assert_int_eq(read_packet(fresh, bad, bn), NS_ERR_MALFORMED);
    /* More inputs than the receiver allows per packet. */
    ns_inputs_config small = {.redundancy = 1, .max_per_packet = 2};
    ns_input_receiver *strict = NULL;
    ck_assert_int_eq(ns_input_receiver_create(&move_ops, &small, &strict), NS_OK);
    ck_assert_int_eq(read_packet(strict, buf, n), NS_ERR_CAPACITY);
    ctl_Move_snap out;
    ck_assert_int_eq(ns_input_receiver_take(fresh, 7, &out), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(ns_input_receiver_take(strict, 50, &out), NS_ERR_UNKNOWN_ID);
    ns_input_receiver_destroy(strict);
    ns_input_receiver_destroy(fresh);
    ns_input_sender_destroy(s);
    ns_input_receiver_destroy(r);
}
END_TEST

/* short_ticks: the first packet has no ack to go by and sends 32 bits; after the ack, 16 (after
 * the form bit). A short packet to a receiver that has taken no tick is malformed; after a take
 * the ticks read right across 2^16. */
START_TEST(short_ticks_layout)
{
    ns_input_sender *s = make_sender_with(3, 8, true);
    ns_input_receiver *r = make_receiver_with(true);
    uint8_t buf[256];
    push(s, 65533);
    size_t n = write_packet(s, buf, sizeof buf);
    ns_reader rd;
    ns_reader_init(&rd, buf, n);
    ck_assert_uint_eq(ns_read_bits(&rd, 5), 0);
    ck_assert(!ns_read_bool(&rd)); /* long: no ack yet */
    ck_assert_uint_eq(ns_read_bits(&rd, 32), 65533);
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK);
    ctl_Move_snap out, want = input_for(65533);
    ck_assert_int_eq(ns_input_receiver_take(r, 65533, &out), NS_OK);
    ck_assert(ctl_Move_snap_equal(&out, &want));
    uint32_t ack;
    ck_assert(ns_input_receiver_ack(r, &ack));
    ck_assert_int_eq(ns_input_sender_ack(s, ack), NS_OK);
    for (uint32_t t = 65534; t <= 65538; t++) push(s, t);
    n = write_packet(s, buf, sizeof buf);
    ns_reader_init(&rd, buf, n);
    ck_assert_uint_eq(ns_read_bits(&rd, 5), 5 - 1); /* 65534 .. 65538, none acked */
    ck_assert(ns_read_bool(&rd));                    /* short */
    ck_assert_uint_eq(ns_read_bits(&rd, 16), 65534);
    ns_input_receiver *fresh = make_receiver_with(true);
    ck_assert_int_eq(read_packet(fresh, buf, n), NS_ERR_MALFORMED);
    ck_assert_uint_eq(ns_input_receiver_stats(fresh).received, 0);
    ck_assert_int_eq(read_packet(r, buf, n), NS_OK);
    for (uint32_t t = 65534; t <= 65538; t++) {
        want = input_for(t);
        ck_assert_int_eq(ns_input_receiver_take(r, t, &out), NS_OK);
        ck_assert(ctl_Move_snap_equal(&out, &want));
    }
    ns_input_sender_destroy(s);
    ns_input_receiver_destroy(r);
    ns_input_receiver_destroy(fresh);
}
END_TEST

/* ---- 30% loss each way ---------------------------------------------------------------- */

enum { TICKS = 100000, SERVER_DELAY = 8, QUEUE = 64 };

/* A link direction: loses 30%, delays 1..3 ticks (so it reorders), duplicates 5%. */
typedef struct queued {
    uint32_t at;
    size_t   len;
    uint8_t  bytes[512];
} queued;

typedef struct lossy {
    queued slots[QUEUE];
    bool   used[QUEUE];
    ns_rng rng;
} lossy;

static void lossy_put(lossy *l, uint32_t now, const uint8_t *bytes, size_t len)
{
    if (ns_rng_unit(&l->rng) < 0.30) return;
    int copies = ns_rng_unit(&l->rng) < 0.05 ? 2 : 1;
    for (int c = 0; c < copies; c++) {
        for (int i = 0; i < QUEUE; i++) {
            if (l->used[i]) continue;
            l->used[i] = true;
            l->slots[i] = (queued){now + 1 + (uint32_t)ns_rng_below(&l->rng, 3), len, {0}};
            memcpy(l->slots[i].bytes, bytes, len);
            break;
        }
    }
}

/* The next packet due by now, or NULL. */
static queued *lossy_take(lossy *l, uint32_t now)
{
    for (int i = 0; i < QUEUE; i++) {
        if (l->used[i] && l->slots[i].at <= now) {
            l->used[i] = false;
            return &l->slots[i];
        }
    }
    return NULL;
}

/* Run 0 as docs/messages.md lays the packet out; run 1 with short_ticks, from tick 15,536 on so
 * that the ticks cross 2^16 (where their low 16 bits wrap), with the same results. */
START_TEST(thirty_percent_loss)
{
    const bool short_ticks = _i == 1;
    const uint32_t base = short_ticks ? 65536u - 50000u : 0u;
    ns_input_sender *s = make_sender_with(3, 16, short_ticks);
    ns_input_receiver *r = make_receiver_with(short_ticks);
    lossy *up = calloc(1, sizeof *up), *down = calloc(1, sizeof *down);
    up->rng.s = 77;
    down->rng.s = 78;
    uint8_t *applied = calloc(TICKS, 1);
    uint32_t in_time = 0;
    uint8_t buf[512];
    /* Client tick t is pushed and sent at time t; the server takes tick t at t + SERVER_DELAY. */
    for (uint32_t now = 0; now < TICKS + SERVER_DELAY; now++) {
        if (now < TICKS) {
            push(s, base + now);
            lossy_put(up, now, buf, write_packet(s, buf, sizeof buf));
        }
        for (queued *q; (q = lossy_take(up, now));) NS_CHECK(read_packet(r, q->bytes, q->len) == NS_OK, "read");
        if (now >= SERVER_DELAY) {
            uint32_t tick = now - SERVER_DELAY;
            ctl_Move_snap out;
            ns_status st = ns_input_receiver_take(r, base + tick, &out);
            if (st == NS_OK) {
                ctl_Move_snap want = input_for(base + tick);
                NS_CHECK(ctl_Move_snap_equal(&out, &want), "input of tick %u", tick);
                NS_CHECK(!applied[tick], "tick %u applied twice", tick);
                applied[tick] = 1;
                in_time++;
            } else {
                NS_CHECK(st == NS_ERR_UNKNOWN_ID, "take: %d", st);
            }
            uint32_t ack;
            if (ns_input_receiver_ack(r, &ack)) {
                uint8_t ackbuf[4];
                memcpy(ackbuf, &ack, 4);
                lossy_put(down, now, ackbuf, 4);
            }
        }
        for (queued *q; (q = lossy_take(down, now));) {
            uint32_t ack;
            memcpy(&ack, q->bytes, 4);
            NS_CHECK(ns_input_sender_ack(s, ack) == NS_OK, "ack");
        }
    }
    ns_inputs_stats st = ns_input_receiver_stats(r);
    ck_assert_uint_ge((uint64_t)in_time * 1000, (uint64_t)TICKS * 999); /* >= 99.9% in time */
    ck_assert_uint_eq(in_time + st.missing, TICKS);
    ck_assert_uint_gt(st.duplicates, TICKS); /* redundancy and duplication: many copies, none applied twice */
    free(applied);
    free(up);
    free(down);
    ns_input_sender_destroy(s);
    ns_input_receiver_destroy(r);
}
END_TEST

static Suite *inputs_suite(void)
{
    Suite *s = suite_create("inputs");
    TCase *tc = tcase_create("inputs");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, packet_layout);
    tcase_add_test(tc, unacked_inputs_ride_along);
    tcase_add_test(tc, server_dedupes_and_reports_late);
    tcase_add_test(tc, inputs_too_far_ahead_are_dropped);
    tcase_add_test(tc, malformed_packets_change_nothing);
    tcase_add_loop_test(tc, thirty_percent_loss, 0, 2);
    tcase_add_test(tc, short_ticks_layout);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(inputs_suite)
