/* test_reliable.c — the reliable, ordered channel: its frame bytes, the window-full status,
 * resend timing, rejection of hostile frames without any change, and 100,000 messages each way
 * over a link that loses 30%, reorders and duplicates, each delivered once and in order; quiet
 * frames (quiet_after): when they go empty, what brings the header back, and the same link with
 * them, busy and nearly idle. */
#include <stdlib.h>
#include <string.h>

#include <netschema/netschema.h>

#include "ns_test.h"

static ns_reliable *make_quiet(uint32_t window, uint32_t max_message, uint64_t resend, uint32_t quiet_after)
{
    ns_reliable_config cfg = {.window = window, .max_message = max_message, .resend_interval = resend,
                              .quiet_after = quiet_after};
    ns_reliable *ch = NULL;
    ck_assert_int_eq(ns_reliable_create(&cfg, &ch), NS_OK);
    return ch;
}

static ns_reliable *make(uint32_t window, uint32_t max_message, uint64_t resend)
{
    return make_quiet(window, max_message, resend, 0);
}

static size_t frame(ns_reliable *ch, uint64_t now, uint8_t *buf, size_t cap)
{
    size_t n = 0;
    ck_assert_int_eq(ns_reliable_write(ch, now, buf, cap, &n), NS_OK);
    return n;
}

START_TEST(frame_bytes)
{
    ns_reliable *a = make(0, 0, 0), *b = make(0, 0, 0);
    uint8_t buf[64];
    ck_assert_int_eq(ns_reliable_send(a, "hi", 2), NS_OK);
    ck_assert_int_eq(ns_reliable_send(a, "yo!", 3), NS_OK);
    size_t n = frame(a, 0, buf, sizeof buf);
    static const uint8_t want[] = {0x00, 0x00, /* ack: nothing received */
                                   0x00,       /* mask */
                                   0x02,       /* two messages */
                                   0x00, 0x00, 0x02, 'h', 'i', /* seq 0 (u16), length, bytes */
                                   0x00, 0x03, 'y', 'o', '!'}; /* seq 0 + 1 + 0, length, bytes */
    ck_assert_uint_eq(n, sizeof want);
    ck_assert_mem_eq(buf, want, sizeof want);
    ck_assert_int_eq(ns_reliable_read(b, buf, n), NS_OK);
    const uint8_t *m;
    size_t len;
    ck_assert(ns_reliable_receive(b, &m, &len));
    ck_assert_uint_eq(len, 2);
    ck_assert_mem_eq(m, "hi", 2);
    ck_assert(ns_reliable_receive(b, &m, &len));
    ck_assert_mem_eq(m, "yo!", 3);
    ck_assert(!ns_reliable_receive(b, &m, &len));
    /* B's ack-only frame: everything before 2 arrived. */
    n = frame(b, 0, buf, sizeof buf);
    static const uint8_t ack[] = {0x02, 0x00, 0x00, 0x00};
    ck_assert_uint_eq(n, sizeof ack);
    ck_assert_mem_eq(buf, ack, sizeof ack);
    ck_assert_uint_eq(ns_reliable_get_stats(a).in_flight, 2);
    ck_assert_int_eq(ns_reliable_read(a, buf, n), NS_OK);
    ck_assert_uint_eq(ns_reliable_get_stats(a).in_flight, 0);
    ck_assert_uint_eq(ns_reliable_get_stats(a).acked, 2);
    ns_reliable_destroy(a);
    ns_reliable_destroy(b);
}
END_TEST

/* Message 0 lost, 1 and 2 arrive: the ack says "before 0", the mask bits 0 and 1. */
START_TEST(selective_ack_mask)
{
    ns_reliable *a = make(0, 0, 10), *b = make(0, 0, 10);
    uint8_t buf[64];
    ns_reliable_send(a, "a", 1);
    frame(a, 0, buf, sizeof buf); /* lost */
    ns_reliable_send(a, "b", 1);
    ns_reliable_send(a, "c", 1);
    size_t n = frame(a, 1, buf, sizeof buf); /* only the two new ones are due */
    static const uint8_t want[] = {0, 0, 0, 2, 0x01, 0x00, 1, 'b', 0x00, 1, 'c'};
    ck_assert_uint_eq(n, sizeof want);
    ck_assert_mem_eq(buf, want, sizeof want);
    ck_assert_int_eq(ns_reliable_read(b, buf, n), NS_OK);
    const uint8_t *m;
    size_t len;
    ck_assert(!ns_reliable_receive(b, &m, &len)); /* waits for "a" */
    n = frame(b, 1, buf, sizeof buf);
    static const uint8_t ack[] = {0x00, 0x00, 0x03, 0x00};
    ck_assert_mem_eq(buf, ack, sizeof ack);
    ck_assert_int_eq(ns_reliable_read(a, buf, n), NS_OK);
    ck_assert_uint_eq(ns_reliable_get_stats(a).in_flight, 3); /* "a" still holds the window */
    ck_assert_uint_eq(ns_reliable_get_stats(a).acked, 2);
    /* At time 10 only "a" is due again. */
    n = frame(a, 10, buf, sizeof buf);
    static const uint8_t resend[] = {0, 0, 0, 1, 0x00, 0x00, 1, 'a'};
    ck_assert_uint_eq(n, sizeof resend);
    ck_assert_mem_eq(buf, resend, sizeof resend);
    ck_assert_int_eq(ns_reliable_read(b, buf, n), NS_OK);
    const char *order = "abc";
    for (int i = 0; i < 3; i++) {
        ck_assert(ns_reliable_receive(b, &m, &len));
        ck_assert_int_eq(m[0], order[i]);
    }
    ns_reliable_destroy(a);
    ns_reliable_destroy(b);
}
END_TEST

START_TEST(window_full)
{
    ns_reliable *a = make(4, 16, 5), *b = make(4, 16, 5);
    uint8_t buf[64];
    for (int i = 0; i < 4; i++) ck_assert_int_eq(ns_reliable_send(a, "m", 1), NS_OK);
    ck_assert_uint_eq(ns_reliable_room(a), 0);
    ck_assert_int_eq(ns_reliable_send(a, "m", 1), NS_ERR_FULL);
    ck_assert_uint_eq(ns_reliable_get_stats(a).sent, 4);
    ck_assert_int_eq(ns_reliable_send(a, "m", 0), NS_ERR_ARGUMENT);
    uint8_t big[17] = {0};
    ck_assert_int_eq(ns_reliable_send(b, big, sizeof big), NS_ERR_ARGUMENT);
    /* Once the peer acks, the room comes back. */
    ns_reliable_read(b, buf, frame(a, 0, buf, sizeof buf));
    ck_assert_int_eq(ns_reliable_read(a, buf, frame(b, 0, buf, sizeof buf)), NS_OK);
    ck_assert_uint_eq(ns_reliable_room(a), 4);
    ck_assert_int_eq(ns_reliable_send(a, "m", 1), NS_OK);
    ns_reliable_config bad = {.window = 3};
    ns_reliable *c = NULL;
    ck_assert_int_eq(ns_reliable_create(&bad, &c), NS_ERR_ARGUMENT); /* not a power of two */
    ck_assert_ptr_null(c);
    ns_reliable_destroy(a);
    ns_reliable_destroy(b);
}
END_TEST

START_TEST(resend_interval)
{
    ns_reliable *a = make(0, 0, 100);
    uint8_t buf[64];
    ns_reliable_send(a, "x", 1);
    ck_assert_uint_eq(frame(a, 1000, buf, sizeof buf), 8);
    ck_assert_uint_eq(frame(a, 1099, buf, sizeof buf), 4); /* header only */
    ck_assert_uint_eq(frame(a, 1100, buf, sizeof buf), 8);
    ck_assert_uint_eq(ns_reliable_get_stats(a).resent, 1);
    ck_assert_uint_eq(ns_reliable_get_stats(a).transmitted, 2);
    /* A frame too small for the message still carries the ack header. */
    ns_reliable_send(a, "y", 1);
    ck_assert_uint_eq(frame(a, 5000, buf, 5), 4);
    size_t n = 0;
    ck_assert_int_eq(ns_reliable_write(a, 5000, buf, 3, &n), NS_ERR_OVERFLOW);
    ck_assert_uint_eq(n, 0);
    ns_reliable_destroy(a);
}
END_TEST

/* The application does not take its messages: the receive buffer (one window) fills, what does
 * not fit is neither stored nor acked, and arrives once the application catches up. */
START_TEST(slow_reader_holds_the_window)
{
    ns_reliable *a = make(4, 16, 1), *b = make(4, 16, 1);
    uint8_t buf[128];
    uint64_t now = 0;
    for (uint8_t i = 0; i < 4; i++) ck_assert_int_eq(ns_reliable_send(a, &i, 1), NS_OK);
    ck_assert_int_eq(ns_reliable_read(b, buf, frame(a, now++, buf, sizeof buf)), NS_OK);
    ck_assert_int_eq(ns_reliable_read(a, buf, frame(b, now++, buf, sizeof buf)), NS_OK);
    for (uint8_t i = 4; i < 8; i++) ck_assert_int_eq(ns_reliable_send(a, &i, 1), NS_OK);
    /* b holds 0..3 undelivered: 4..7 arrive but find no room, so b acks only up to 4. */
    ck_assert_int_eq(ns_reliable_read(b, buf, frame(a, now++, buf, sizeof buf)), NS_OK);
    size_t n = frame(b, now++, buf, sizeof buf);
    static const uint8_t ack[] = {4, 0, 0, 0};
    ck_assert_uint_eq(n, sizeof ack);
    ck_assert_mem_eq(buf, ack, sizeof ack);
    ck_assert_int_eq(ns_reliable_read(a, buf, n), NS_OK);
    ck_assert_uint_eq(ns_reliable_room(a), 0);
    const uint8_t *m;
    size_t len;
    for (uint8_t i = 0; i < 4; i++) {
        ck_assert(ns_reliable_receive(b, &m, &len));
        ck_assert_uint_eq(m[0], i);
    }
    ck_assert(!ns_reliable_receive(b, &m, &len));
    /* a resends 4..7; now they fit. */
    ck_assert_int_eq(ns_reliable_read(b, buf, frame(a, now++, buf, sizeof buf)), NS_OK);
    for (uint8_t i = 4; i < 8; i++) {
        ck_assert(ns_reliable_receive(b, &m, &len));
        ck_assert_uint_eq(m[0], i);
    }
    ck_assert_int_eq(ns_reliable_read(a, buf, frame(b, now++, buf, sizeof buf)), NS_OK);
    ck_assert_uint_eq(ns_reliable_room(a), 4);
    ns_reliable_destroy(a);
    ns_reliable_destroy(b);
}
END_TEST

/* ---- hostile frames ------------------------------------------------------------------- */

/* A frame that must be rejected with `want`, leaving the channel exactly as it was: same
 * counters, same ack frame, same message still to be delivered. */
static void expect_rejected(ns_reliable *ch, const uint8_t *bytes, size_t len, ns_status want)
{
    uint8_t before[64], after[64];
    size_t nb = frame(ch, 0, before, sizeof before);
    ns_reliable_stats sb = ns_reliable_get_stats(ch);
    uint8_t *exact = malloc(len ? len : 1);
    if (len) memcpy(exact, bytes, len);
    ck_assert_int_eq(ns_reliable_read(ch, exact, len), want);
    free(exact);
    ns_reliable_stats sa = ns_reliable_get_stats(ch);
    ck_assert_mem_eq(&sa, &sb, sizeof sa);
    size_t na = frame(ch, 0, after, sizeof after);
    ck_assert_uint_eq(na, nb);
    ck_assert_mem_eq(after, before, na);
}

START_TEST(hostile_frames_change_nothing)
{
    /* The channel has sent messages 0..2 and received 0 and 2 (mask bit 0 for 2). */
    ns_reliable *ch = make(8, 16, 1000000), *peer = make(8, 16, 1000000);
    uint8_t buf[64];
    for (int i = 0; i < 3; i++) ns_reliable_send(ch, "s", 1);
    frame(ch, 0, buf, sizeof buf);
    static const uint8_t in[] = {0, 0, 0, 2, 0x00, 0x00, 1, 'a', 0x01, 1, 'c'};
    ck_assert_int_eq(ns_reliable_read(ch, in, sizeof in), NS_OK);

    static const uint8_t empty[] = {0};
    expect_rejected(ch, empty, 0, NS_ERR_TRUNCATED);
    static const uint8_t short_ack[] = {0};
    expect_rejected(ch, short_ack, sizeof short_ack, NS_ERR_TRUNCATED);
    static const uint8_t no_count[] = {0, 0, 0};
    expect_rejected(ch, no_count, sizeof no_count, NS_ERR_TRUNCATED);
    static const uint8_t ack_unsent[] = {4, 0, 0, 0}; /* acks 0..3, only 0..2 were sent */
    expect_rejected(ch, ack_unsent, sizeof ack_unsent, NS_ERR_RANGE);
    static const uint8_t mask_unsent[] = {1, 0, 0x02, 0}; /* bit 1: message 3 */
    expect_rejected(ch, mask_unsent, sizeof mask_unsent, NS_ERR_RANGE);
    static const uint8_t overlong_mask[] = {0, 0, 0x80, 0x00, 0};
    expect_rejected(ch, overlong_mask, sizeof overlong_mask, NS_ERR_MALFORMED);
    static const uint8_t too_many[] = {0, 0, 0, 9};
    expect_rejected(ch, too_many, sizeof too_many, NS_ERR_MALFORMED);
    static const uint8_t zero_len[] = {0, 0, 0, 1, 1, 0, 0};
    expect_rejected(ch, zero_len, sizeof zero_len, NS_ERR_MALFORMED);
    static const uint8_t over_max[] = {0, 0, 0, 1, 1, 0, 17, [23] = 0};
    expect_rejected(ch, over_max, sizeof over_max, NS_ERR_MALFORMED);
    static const uint8_t past_end[] = {0, 0, 0, 1, 1, 0, 3, 'x'};
    expect_rejected(ch, past_end, sizeof past_end, NS_ERR_TRUNCATED);
    static const uint8_t trailing[] = {0, 0, 0, 1, 1, 0, 1, 'x', 0};
    expect_rejected(ch, trailing, sizeof trailing, NS_ERR_MALFORMED);
    static const uint8_t missing_message[] = {0, 0, 0, 2, 1, 0, 1, 'x'};
    expect_rejected(ch, missing_message, sizeof missing_message, NS_ERR_TRUNCATED);
    static const uint8_t beyond_window[] = {0, 0, 0, 1, 9, 0, 1, 'x'}; /* 9 >= received 1 + window 8 */
    expect_rejected(ch, beyond_window, sizeof beyond_window, NS_ERR_RANGE);
    static const uint8_t gap_beyond_window[] = {0, 0, 0, 2, 1, 0, 1, 'x', 8, 1, 'y'};
    expect_rejected(ch, gap_beyond_window, sizeof gap_beyond_window, NS_ERR_MALFORMED);
    /* A good message followed by a bad one: the good one is not kept either. */
    static const uint8_t good_then_bad[] = {0, 0, 0, 2, 1, 0, 1, 'b', 0, 0};
    expect_rejected(ch, good_then_bad, sizeof good_then_bad, NS_ERR_MALFORMED);

    /* Still works: message 1 arrives, then 0, 1, 2 come out in order. */
    static const uint8_t good[] = {0, 0, 0, 1, 1, 0, 1, 'b'};
    ck_assert_int_eq(ns_reliable_read(ch, good, sizeof good), NS_OK);
    const uint8_t *m;
    size_t len;
    for (int i = 0; i < 3; i++) {
        ck_assert(ns_reliable_receive(ch, &m, &len));
        ck_assert_int_eq(m[0], "abc"[i]);
    }
    ck_assert(!ns_reliable_receive(ch, &m, &len));
    ns_reliable_destroy(ch);
    ns_reliable_destroy(peer);
}
END_TEST

/* quiet_after = 2: a header goes out in two frames, then frames with nothing to send are empty
 * until the header changes or a message arrives (a duplicate too: its sender missed the acks).
 * An empty frame reads as no news; a channel without quiet_after refuses it. */
START_TEST(quiet_frames)
{
    ns_reliable *a = make_quiet(0, 0, 8, 2), *b = make_quiet(0, 0, 8, 2), *plain = make(0, 0, 8);
    uint8_t buf[64], lost[64];
    ck_assert_int_eq(ns_reliable_send(a, "hi", 2), NS_OK);
    size_t n = frame(a, 0, buf, sizeof buf);
    ck_assert_uint_eq(n, 4 + 5);
    ck_assert_int_eq(ns_reliable_read(b, buf, n), NS_OK);
    static const uint8_t ack1[] = {0x01, 0x00, 0x00, 0x00};
    for (int i = 0; i < 2; i++) { /* b's header twice, both lost */
        n = frame(b, 1, lost, sizeof lost);
        ck_assert_uint_eq(n, sizeof ack1);
        ck_assert_mem_eq(lost, ack1, sizeof ack1);
    }
    ck_assert_uint_eq(frame(b, 2, buf, sizeof buf), 0); /* quiet */
    ck_assert_uint_eq(frame(b, 3, buf, sizeof buf), 0);
    ck_assert_uint_eq(frame(a, 3, buf, sizeof buf), 4); /* a's header (nothing received) once more */
    ck_assert_uint_eq(frame(a, 4, buf, sizeof buf), 0); /* "hi" is not due before tick 8 */
    ck_assert_int_eq(ns_reliable_read(b, buf, 0), NS_OK);  /* no news */
    ck_assert_int_eq(ns_reliable_read(plain, buf, 0), NS_ERR_TRUNCATED);
    ck_assert_uint_eq(ns_reliable_get_stats(a).in_flight, 1);
    n = frame(a, 8, buf, sizeof buf); /* the resend */
    ck_assert_uint_eq(n, 4 + 5);
    ck_assert_int_eq(ns_reliable_read(b, buf, n), NS_OK);
    ck_assert_uint_eq(ns_reliable_get_stats(b).duplicates, 1);
    n = frame(b, 9, buf, sizeof buf); /* the duplicate brings the header back */
    ck_assert_uint_eq(n, sizeof ack1);
    ck_assert_int_eq(ns_reliable_read(a, buf, n), NS_OK);
    ck_assert_uint_eq(ns_reliable_get_stats(a).in_flight, 0);
    ck_assert_uint_eq(frame(b, 10, buf, sizeof buf), 4);
    ck_assert_uint_eq(frame(b, 11, buf, sizeof buf), 0);
    ns_reliable_destroy(a);
    ns_reliable_destroy(b);
    ns_reliable_destroy(plain);
}
END_TEST

/* ---- a bad link ----------------------------------------------------------------------- */

enum { LINK_SLOTS = 256, FRAME_CAP = 1200 };

typedef struct packet {
    uint64_t at;
    size_t   len;
    uint8_t  bytes[FRAME_CAP];
} packet;

/* One direction of a link: loses 30%, delays 1..6 ticks (so it reorders), duplicates 10%. */
typedef struct link {
    packet  *slots;
    bool     used[LINK_SLOTS];
    ns_rng   rng;
    uint64_t lost, duplicated;
} link;

static void link_put(link *l, uint64_t now, const uint8_t *bytes, size_t len)
{
    if (ns_rng_unit(&l->rng) < 0.30) {
        l->lost++;
        return;
    }
    int copies = ns_rng_unit(&l->rng) < 0.10 ? 2 : 1;
    l->duplicated += (uint64_t)(copies - 1);
    for (int c = 0; c < copies; c++) {
        for (int i = 0; i < LINK_SLOTS; i++) {
            if (l->used[i]) continue;
            l->used[i] = true;
            l->slots[i].at = now + 1 + ns_rng_below(&l->rng, 6);
            l->slots[i].len = len;
            memcpy(l->slots[i].bytes, bytes, len);
            break;
        }
    }
}

/* Hands every packet due by now to ch, in slot order (not send order). */
static void link_deliver(link *l, uint64_t now, ns_reliable *ch)
{
    for (int i = 0; i < LINK_SLOTS; i++) {
        if (!l->used[i] || l->slots[i].at > now) continue;
        NS_CHECK(ns_reliable_read(ch, l->slots[i].bytes, l->slots[i].len) == NS_OK, "good frame rejected");
        l->used[i] = false;
    }
}

/* One end of the test: sends numbered messages of varying length, checks what it receives. */
typedef struct end {
    ns_reliable *ch;
    uint32_t next_send, next_expect;
    uint64_t full;
} end;

static void end_send(end *e, ns_rng *rng, uint32_t total, uint32_t max_burst)
{
    int burst = (int)ns_rng_below(rng, max_burst);
    for (int k = 0; k < burst && e->next_send < total; k++) {
        uint8_t msg[64];
        size_t len = 4 + (size_t)ns_rng_below(rng, 60);
        memcpy(msg, &e->next_send, 4);
        for (size_t i = 4; i < len; i++) msg[i] = (uint8_t)(e->next_send + i);
        ns_status s = ns_reliable_send(e->ch, msg, len);
        NS_CHECK(s == NS_OK || s == NS_ERR_FULL, "send: %d", s);
        if (s == NS_ERR_FULL) {
            e->full++;
            break;
        }
        e->next_send++;
    }
}

static void end_receive(end *e)
{
    const uint8_t *m;
    size_t len;
    while (ns_reliable_receive(e->ch, &m, &len)) {
        uint32_t id;
        NS_CHECK(len >= 4, "short message");
        memcpy(&id, m, 4);
        NS_CHECK(id == e->next_expect, "expected message %u, got %u", e->next_expect, id);
        for (size_t i = 4; i < len; i++) NS_CHECK(m[i] == (uint8_t)(id + i), "payload of %u", id);
        e->next_expect++;
    }
}

/* What a run of run_link saw. */
typedef struct link_run {
    uint64_t bytes;                 /* frame bytes written, both ways */
    uint64_t lost, duplicated, full;
    ns_reliable_stats a, b;
} link_run;

/* Sends `total` numbered messages each way over the bad link (bursts of up to 19 every tick, or
 * when `sparse` a message in 60 ticks on average) and checks each is delivered once and in
 * order. */
static link_run run_link(uint32_t quiet_after, bool sparse, uint32_t total)
{
    ns_rng rng = {2026};
    link ab = {calloc(LINK_SLOTS, sizeof(packet)), {false}, {11}, 0, 0};
    link ba = {calloc(LINK_SLOTS, sizeof(packet)), {false}, {12}, 0, 0};
    end a = {make_quiet(256, 64, 8, quiet_after), 0, 0, 0}, b = {make_quiet(256, 64, 8, quiet_after), 0, 0, 0};
    uint8_t buf[FRAME_CAP];
    uint64_t now = 0, bytes = 0;
    for (; now < 2000000 && (a.next_expect < total || b.next_expect < total); now++) {
        if (!sparse || ns_rng_below(&rng, 30) == 0) end_send(&a, &rng, total, sparse ? 2 : 20);
        if (!sparse || ns_rng_below(&rng, 30) == 0) end_send(&b, &rng, total, sparse ? 2 : 20);
        size_t n = frame(a.ch, now, buf, sizeof buf);
        bytes += n;
        link_put(&ab, now, buf, n);
        bytes += n = frame(b.ch, now, buf, sizeof buf);
        link_put(&ba, now, buf, n);
        link_deliver(&ab, now, b.ch);
        link_deliver(&ba, now, a.ch);
        /* The applications do not always read at once: receive buffers fill up now and then. */
        if (ns_rng_below(&rng, 3) != 0) end_receive(&a);
        if (ns_rng_below(&rng, 3) != 0) end_receive(&b);
    }
    ck_assert_uint_eq(a.next_expect, total);
    ck_assert_uint_eq(b.next_expect, total);
    link_run r = {bytes, ab.lost, ab.duplicated, a.full, ns_reliable_get_stats(a.ch), ns_reliable_get_stats(b.ch)};
    ck_assert_uint_eq(r.b.delivered, total);
    ck_assert_uint_eq(r.a.delivered, total);
    ns_reliable_destroy(a.ch);
    ns_reliable_destroy(b.ch);
    free(ab.slots);
    free(ba.slots);
    return r;
}

START_TEST(lossy_link_delivers_everything_once_in_order)
{
    link_run r = run_link(0, false, 100000);
    /* The link really was bad: things were lost, resent, duplicated, and the window filled. */
    ck_assert_uint_gt(r.lost, 0);
    ck_assert_uint_gt(r.duplicated, 0);
    ck_assert_uint_gt(r.a.resent, 0);
    ck_assert_uint_gt(r.b.duplicates, 0);
    ck_assert_uint_gt(r.full, 0);
}
END_TEST

/* Quiet frames over the same link: busy, everything still arrives once and in order; nearly
 * idle (a message in 60 ticks, as rpcs go in a game), the same, in less than half the frame
 * bytes of plain frames. */
START_TEST(quiet_frames_on_a_lossy_link)
{
    link_run busy = run_link(2, false, 100000);
    ck_assert_uint_gt(busy.a.resent, 0);
    link_run plain = run_link(0, true, 1000), quiet = run_link(2, true, 1000);
    fprintf(stderr, "nearly idle link: %llu frame bytes plain, %llu quiet\n", (unsigned long long)plain.bytes,
            (unsigned long long)quiet.bytes);
    ck_assert_uint_lt(quiet.bytes * 2, plain.bytes);
}
END_TEST

static Suite *reliable_suite(void)
{
    Suite *s = suite_create("reliable");
    TCase *tc = tcase_create("reliable");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, frame_bytes);
    tcase_add_test(tc, selective_ack_mask);
    tcase_add_test(tc, window_full);
    tcase_add_test(tc, resend_interval);
    tcase_add_test(tc, slow_reader_holds_the_window);
    tcase_add_test(tc, hostile_frames_change_nothing);
    tcase_add_test(tc, lossy_link_delivers_everything_once_in_order);
    tcase_add_test(tc, quiet_frames);
    tcase_add_test(tc, quiet_frames_on_a_lossy_link);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(reliable_suite)
