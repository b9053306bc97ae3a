/* coll_link.c — the simulated link of coll_link.h. */
#include "coll_link.h"

#include <stdlib.h>
#include <string.h>

#define DEPTH 32u         /* snapshots each side keeps */
#define MAX_DELAY 4u      /* ticks a packet may take */
#define QUEUE 64u

typedef struct packet {
    bool     used;
    uint32_t due;         /* tick at which it arrives */
    uint32_t tick;        /* data packets: the tick; acks: the acked tick */
    size_t   len;
    uint8_t *data;        /* NULL for acks */
} packet;

typedef struct link {
    packet q[QUEUE];
    ns_rng rng;
    unsigned loss;
} link;

static void send(link *l, uint32_t now, uint32_t tick, const uint8_t *data, size_t len, coll_stats *st)
{
    unsigned copies = ns_rng_below(&l->rng, 10) == 0 ? 2 : 1; /* 10% duplicated */
    for (unsigned c = 0; c < copies; c++) {
        if (ns_rng_below(&l->rng, 100) < l->loss) continue;
        for (unsigned i = 0; i < QUEUE; i++) {
            packet *p = &l->q[i];
            if (p->used) continue;
            p->used = true;
            p->due = now + 1 + (uint32_t)ns_rng_below(&l->rng, MAX_DELAY);
            p->tick = tick;
            p->len = len;
            p->data = NULL;
            if (data) {
                p->data = malloc(len ? len : 1);
                memcpy(p->data, data, len);
            }
            if (st) st->sent++;
            break;
        }
    }
}

/* The next packet due by `now`, in random order among those due; NULL if none. */
static packet *arrive(link *l, uint32_t now)
{
    unsigned due[QUEUE], n = 0;
    for (unsigned i = 0; i < QUEUE; i++)
        if (l->q[i].used && l->q[i].due <= now) due[n++] = i;
    return n ? &l->q[due[ns_rng_below(&l->rng, n)]] : NULL;
}

static void done(packet *p)
{
    free(p->data);
    p->data = NULL;
    p->used = false;
}

typedef struct side {
    ns_history hist;
    uint8_t   *store;
} side;

static void side_init(side *s, size_t snap_size)
{
    s->store = calloc(1, NS_HISTORY_BYTES(snap_size, DEPTH));
    ns_status st = ns_history_init(&s->hist, s->store, snap_size, DEPTH);
    ck_assert_int_eq(st, NS_OK);
}

/* The receiver's handling of one data packet; returns the decoded tick's snapshot or NULL. */
static const void *receive(const coll_model *m, side *rx, const side *truth, const packet *p, void *scratch, coll_stats *st)
{
    ns_reader r;
    ns_reader_init(&r, p->data, p->len);
    uint32_t tick = ns_read_bits(&r, 32), ticks[3], count = 0;
    ns_read_baseline_ticks(&r, tick, ticks, &count);
    NS_CHECK(!ns_reader_failed(&r), "%s: packet header unreadable", m->name);
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.count = count;
    b.tick_now = tick;
    for (uint32_t i = 0; i < count; i++) {
        b.snap[i] = ns_history_get(&rx->hist, ticks[i]);
        b.tick[i] = ticks[i];
        if (!b.snap[i]) {
            st->undecodable++;
            return NULL; /* an acked baseline the receiver no longer holds */
        }
    }
    ns_status rs = m->read(&r, scratch, &b, NS_TO_OWNER);
    NS_CHECK(rs == NS_OK, "%s: tick %u did not decode: %s", m->name, tick, ns_status_str(rs));
    const void *want = ns_history_get(&truth->hist, tick);
    NS_CHECK(want != NULL, "%s: no truth for tick %u", m->name, tick);
    NS_CHECK(m->snap_equal(scratch, want), "%s: tick %u decoded to a different state", m->name, tick);
    memcpy(ns_history_put(&rx->hist, tick), scratch, m->snap_size);
    st->decoded++;
    return ns_history_get(&rx->hist, tick);
}

coll_stats coll_run(const coll_model *m, uint64_t seed, unsigned ticks, unsigned loss_percent)
{
    coll_stats st;
    memset(&st, 0, sizeof st);
    link down, up;
    memset(&down, 0, sizeof down);
    memset(&up, 0, sizeof up);
    down.rng.s = seed ^ 0xd0;
    up.rng.s = seed ^ 0x0b;
    down.loss = up.loss = loss_percent;
    ns_rng rng = {seed};
    side tx, rx;
    side_init(&tx, m->snap_size);
    side_init(&rx, m->snap_size);
    ns_tickset acked;
    ns_tickset_clear(&acked);
    void *value = calloc(1, m->value_size), *live = calloc(1, m->value_size), *scratch = calloc(1, m->snap_size);
    size_t cap = m->max_bytes + 32;
    uint8_t *buf = malloc(cap);
    m->init(value);
    m->init(live);
    uint32_t applied = 0;
    for (uint32_t t = 1; t <= ticks; t++) {
        st.ops += m->mutate(value, &rng);
        void *snap = ns_history_put(&tx.hist, t);
        m->quantize(value, snap);
        ns_baselines b;
        ns_history_baselines(&tx.hist, &acked, NULL, t, (uint32_t)ns_rng_below(&rng, 4), &b);
        st.baselines[b.count]++;
        ns_writer w;
        ns_writer_init(&w, buf, cap);
        ns_write_bits(&w, t, 32);
        ns_write_baseline_ticks(&w, &b);
        size_t before = ns_writer_bits(&w);
        ns_status ws = m->write(&w, snap, &b, NS_TO_OWNER);
        NS_CHECK(ws == NS_OK, "%s: tick %u did not write: %s", m->name, t, ns_status_str(ws));
        NS_CHECK(ns_writer_bits(&w) - before <= m->max_bytes * 8, "%s: tick %u wrote more than MAX_BITS", m->name, t);
        size_t len = ns_writer_flush(&w);
        st.bytes += len;
        send(&down, t, t, buf, len, &st);
        /* Deliver what is due, ack it, apply the newest in order. */
        for (packet *p; (p = arrive(&down, t)) != NULL; done(p)) {
            st.delivered++;
            const void *got = receive(m, &rx, &tx, p, scratch, &st);
            if (!got) continue;
            send(&up, t, p->tick, NULL, 0, NULL);
            if (p->tick > applied) {
                m->apply(live, got, m->checker);
                applied = p->tick;
                st.applied++;
            }
        }
        for (packet *p; (p = arrive(&up, t)) != NULL; done(p)) ns_tickset_add(&acked, p->tick);
    }
    for (unsigned i = 0; i < QUEUE; i++) done(&down.q[i]), done(&up.q[i]);
    st.ticks = ticks;
    free(value), free(live), free(scratch), free(buf), free(tx.store), free(rx.store);
    return st;
}
