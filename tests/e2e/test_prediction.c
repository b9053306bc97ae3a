/* test_prediction.c — client-side prediction end to end (netschema/prediction.h): a client
 * predicts its player from its own inputs, sent redundantly (netschema/inputs.h) over a link
 * that loses 20% each way with jitter; the server applies them, plus pushes the client cannot
 * foresee, and sends its state back. On every disagreement the client rolls back to the
 * server's state and re-simulates its inputs. The step is deterministic (integer positions), so:
 *   - every disagreement is explained by a push or an input the server did not have in time;
 *   - after a rollback, a prediction the server later confirms is exactly the server's state;
 *   - once the link drains, the client's newest state equals the server's for that tick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "predict.ns.h"

#define TICKS 4000
#define DEPTH 64
#define MAX_LATENCY 12
#define LEAD 8 /* the client runs this many ticks ahead of the server */

static ns_status move_write(ns_writer *w, const void *cur, const void *prev)
{
    return pred_Move_write(w, (const pred_Move_snap *)cur, (const pred_Move_snap *)prev);
}

static ns_status move_read(ns_reader *r, void *out, const void *prev)
{
    return pred_Move_read(r, (pred_Move_snap *)out, (const pred_Move_snap *)prev);
}

static const ns_type_desc move_desc = {.name = "Move", .snap_size = sizeof(pred_Move_snap)};
static const ns_message_ops move_ops = {.desc = &move_desc, .kind = NS_MSG_INPUT, .write = move_write, .read = move_read};

/* The game's one rule, the same on both sides: the player moves by its input, 3 units a step. */
static void step(void *ctx, uint32_t tick, const void *input, void *state)
{
    (void)ctx, (void)tick;
    const pred_Move_snap *in = (const pred_Move_snap *)input;
    pred_Player_snap *p = (pred_Player_snap *)state;
    p->x += 3 * in->dx;
    p->y += 3 * in->dy;
}

/* A datagram in flight: bytes and the tick it arrives. */
typedef struct datagram {
    uint8_t  data[256];
    size_t   len;
    uint32_t due;
    bool     used;
} datagram;

typedef struct link {
    datagram q[MAX_LATENCY * 4 + 8];
    ns_rng   rng;
    double   loss;
} link;

static void link_send(link *l, uint32_t now, const uint8_t *data, size_t len)
{
    if (ns_rng_unit(&l->rng) < l->loss) return;
    for (size_t i = 0; i < sizeof l->q / sizeof l->q[0]; i++) {
        if (l->q[i].used) continue;
        memcpy(l->q[i].data, data, len);
        l->q[i].len = len;
        l->q[i].due = now + 2 + (uint32_t)ns_rng_below(&l->rng, MAX_LATENCY - 2); /* jitter reorders */
        l->q[i].used = true;
        return;
    }
    ck_abort_msg("link queue full");
}

/* The next datagram due by `now`, or NULL. */
static datagram *link_recv(link *l, uint32_t now)
{
    for (size_t i = 0; i < sizeof l->q / sizeof l->q[0]; i++)
        if (l->q[i].used && l->q[i].due <= now) {
            l->q[i].used = false;
            return &l->q[i];
        }
    return NULL;
}

typedef struct server {
    ns_input_receiver *inputs;
    pred_Player_snap   state;
    pred_Player_snap   log[TICKS + 100];  /* the state at the end of each tick */
    bool               surprise[TICKS + 100]; /* a push, or no input from the client in time */
} server;

typedef struct client {
    ns_input_sender *inputs;
    ns_prediction    pred;
    void            *store;
    pred_Player_snap state;
    uint32_t         confirmed;  /* newest server tick applied */
    bool             any;
    uint32_t         rollbacks, resimulated, stale;
    ns_error_stats   errors;
} client;

static pred_Move_snap input_at(uint32_t tick)
{
    pred_Move_snap m;
    memset(&m, 0, sizeof m);
    m.dx = (int8_t)((int)((tick * 2654435761u) >> 28) % 17 - 8);
    m.dy = (int8_t)((int)((tick * 40503u) >> 12) % 17 - 8);
    return m;
}

static void server_tick(server *s, uint32_t t, ns_rng *rng)
{
    pred_Move_snap in;
    memset(&in, 0, sizeof in);
    s->surprise[t] = ns_input_receiver_take(s->inputs, t, &in) != NS_OK;
    step(NULL, t, &in, &s->state);
    if (ns_rng_below(rng, 40) == 0 && t < TICKS) { /* something the client cannot predict */
        s->state.x += 50;
        s->state.pushes++;
        s->surprise[t] = true;
    }
    s->log[t] = s->state;
}

/* True if the server's state for tick t could differ from a prediction made after tick `from`:
 * a surprise in (from, t]. */
static bool explained(const server *s, uint32_t from, uint32_t t)
{
    for (uint32_t k = from + 1; k <= t; k++)
        if (s->surprise[k]) return true;
    return false;
}

/* A server state arrives at the client: compare, and roll back when they differ. */
static void client_receive(client *c, const server *s, uint32_t t, const pred_Player_snap *auth)
{
    if (c->any && (t == c->confirmed || t - c->confirmed >= 0x80000000u)) return; /* late or duplicate */
    const pred_Player_snap *mine = (const pred_Player_snap *)ns_prediction_state(&c->pred, t);
    if (mine) {
        pred_Player pv, av;
        pred_Player_dequantize(mine, &pv);
        pred_Player_dequantize(auth, &av);
        float e[PRED_PLAYER_PREDICTION_ERRORS];
        pred_Player_prediction_error(&pv, &av, e);
        ns_error_stats_add(&c->errors, e);
    }
    if (!mine || !pred_Player_snap_equal(mine, auth)) {
        /* Every disagreement has a cause the client could not see. */
        if (mine && c->any) ck_assert_msg(explained(s, c->confirmed, t), "tick %u mispredicted without cause", t);
        uint32_t n = 0;
        ns_status st = ns_prediction_rollback(&c->pred, t, auth, &c->state, step, NULL, &n);
        if (st == NS_ERR_STALE) {
            /* Only before the client's first predicted tick: it has no inputs before that. */
            ck_assert_uint_le(t, LEAD);
            c->stale++;
            c->state = *auth;
        } else {
            ck_assert_int_eq(st, NS_OK);
            c->rollbacks++;
            c->resimulated += n;
        }
    }
    c->confirmed = t;
    c->any = true;
}

START_TEST(rollback_reproduces_the_server)
{
    server *s = calloc(1, sizeof *s);
    client *c = calloc(1, sizeof *c);
    link *up = calloc(1, sizeof *up), *down = calloc(1, sizeof *down);
    ck_assert(s && c && up && down);
    up->rng.s = 1;
    down->rng.s = 2;
    up->loss = down->loss = 0.2;
    ns_rng events;
    events.s = 3;
    ck_assert_int_eq(ns_input_receiver_create(&move_ops, NULL, &s->inputs), NS_OK);
    ck_assert_int_eq(ns_input_sender_create(&move_ops, NULL, &c->inputs), NS_OK);
    c->store = malloc(NS_PREDICTION_BYTES(sizeof(pred_Player_snap), sizeof(pred_Move_snap), DEPTH));
    ck_assert_int_eq(ns_prediction_init(&c->pred, c->store, sizeof(pred_Player_snap), sizeof(pred_Move_snap), DEPTH), NS_OK);
    ck_assert_int_eq(ns_error_stats_init(&c->errors, pred_Player_prediction_error_names, PRED_PLAYER_PREDICTION_ERRORS), NS_OK);
    s->state = pred_Player_snap_default;
    c->state = s->state;

    const uint32_t lead = LEAD;
    uint8_t buf[256];
    for (uint32_t now = 1; now <= TICKS + 60; now++) {
        if (now > TICKS) up->loss = down->loss = 0.0; /* drain */
        /* client: predict tick now + lead */
        uint32_t ct = now + lead;
        pred_Move_snap in = ct <= TICKS ? input_at(ct) : (pred_Move_snap){0, 0};
        ck_assert_int_eq(ns_input_sender_push(c->inputs, ct, &in), NS_OK);
        step(NULL, ct, &in, &c->state);
        ns_prediction_record(&c->pred, ct, &in, &c->state);
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(ns_input_sender_write(c->inputs, &w), NS_OK);
        link_send(up, now, buf, ns_writer_flush(&w));
        /* server: read inputs, simulate tick now, send its state with the input ack */
        for (datagram *d; (d = link_recv(up, now)) != NULL;) {
            ns_reader r;
            ns_reader_init(&r, d->data, d->len);
            ck_assert_int_eq(ns_input_receiver_read(s->inputs, &r), NS_OK);
        }
        server_tick(s, now, &events);
        ns_writer_init(&w, buf, sizeof buf);
        uint32_t ack = 0;
        bool acked = ns_input_receiver_ack(s->inputs, &ack);
        ns_write_bits(&w, now, 32);
        ns_write_bool(&w, acked);
        ns_write_bits(&w, ack, 32);
        ck_assert_int_eq(pred_Player_write(&w, &s->state, NULL, NS_TO_OWNER), NS_OK);
        link_send(down, now, buf, ns_writer_flush(&w));
        /* client: server states */
        for (datagram *d; (d = link_recv(down, now)) != NULL;) {
            ns_reader r;
            ns_reader_init(&r, d->data, d->len);
            uint32_t t = ns_read_bits(&r, 32);
            bool has_ack = ns_read_bool(&r);
            uint32_t a = ns_read_bits(&r, 32);
            pred_Player_snap auth;
            ck_assert_int_eq(pred_Player_read(&r, &auth, NULL, NS_TO_OWNER), NS_OK);
            if (has_ack) ns_input_sender_ack(c->inputs, a);
            client_receive(c, s, t, &auth);
        }
    }
    /* Drained: the client's prediction for the server's last tick is the server's state, and its
     * newest state follows from it by the same inputs. */
    const pred_Player_snap *last = (const pred_Player_snap *)ns_prediction_state(&c->pred, c->confirmed);
    ck_assert_ptr_nonnull(last);
    ck_assert(pred_Player_snap_equal(last, &s->log[c->confirmed]));
    ck_assert_uint_ge(c->confirmed, TICKS + 60 - MAX_LATENCY); /* the last states are still in flight */
    ck_assert_uint_gt(c->rollbacks, 50);       /* pushes every ~40 ticks, and lost inputs */
    ck_assert_uint_le(c->stale, LEAD);         /* a ring of 64 covers lead + latency */
    ck_assert_uint_gt(c->resimulated, c->rollbacks * lead);
    ck_assert_uint_gt(c->errors.samples[0], 1000);
    ck_assert_float_ge(c->errors.max[0], 50.0f); /* a push is 50 units */
    printf("%u rollbacks, %u ticks re-simulated, %u server states taken before the first prediction\n",
           c->rollbacks, c->resimulated, c->stale);
    ns_error_stats_print(&c->errors, "prediction error per field:", stdout);
    ns_input_sender_destroy(c->inputs);
    ns_input_receiver_destroy(s->inputs);
    free(c->store);
    free(s), free(c), free(up), free(down);
}
END_TEST

/* The ring alone: what a rollback re-simulates, and a correction older than the ring. */
START_TEST(rollback_in_the_ring)
{
    enum { D = 8 };
    static uint8_t store[NS_PREDICTION_BYTES(sizeof(pred_Player_snap), sizeof(pred_Move_snap), D)];
    ns_prediction p;
    ck_assert_int_eq(ns_prediction_init(&p, store, sizeof(pred_Player_snap), sizeof(pred_Move_snap), 0), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_prediction_init(&p, store, sizeof(pred_Player_snap), sizeof(pred_Move_snap), D), NS_OK);
    pred_Player_snap st;
    st = pred_Player_snap_default;
    pred_Move_snap one = {1, 0};
    for (uint32_t t = 100; t < 110; t++) {
        step(NULL, t, &one, &st);
        ns_prediction_record(&p, t, &one, &st);
    }
    ck_assert_int_eq(st.x, 30);
    ck_assert_ptr_null(ns_prediction_state(&p, 101)); /* out of the ring */
    pred_Player_snap auth;
    auth = pred_Player_snap_default;
    auth.x = 1000;
    uint32_t n = 9;
    /* to 100 needs the inputs of 101..109, and 101 fell out */
    ck_assert_int_eq(ns_prediction_rollback(&p, 100, &auth, &st, step, NULL, &n), NS_ERR_STALE);
    ck_assert_int_eq(st.x, 30); /* unchanged */
    ck_assert_int_eq(ns_prediction_rollback(&p, 105, &auth, &st, step, NULL, &n), NS_OK);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(st.x, 1000 + 4 * 3);
    ck_assert_int_eq(((const pred_Player_snap *)ns_prediction_state(&p, 107))->x, 1000 + 2 * 3);
    ck_assert_int_eq(((const pred_Move_snap *)ns_prediction_input(&p, 107))->dx, 1);
    /* a server state at or after the newest prediction is simply taken */
    auth.x = -5;
    ck_assert_int_eq(ns_prediction_rollback(&p, 112, &auth, &st, step, NULL, &n), NS_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(st.x, -5);
    ck_assert_uint_eq(p.newest, 112);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("prediction");
    TCase *tc = tcase_create("rollback");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rollback_in_the_ring);
    tcase_add_test(tc, rollback_reproduces_the_server);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
