/* test_timeline.c — the snapshot interpolation timeline: blending between the right states,
 * bounded extrapolation when dry, snapping when far behind, refusing stale states, and under
 * jitter a monotonic playback whose buffer converges to its target. */
#include <math.h>
#include <stdlib.h>

#include <netschema/netschema.h>

#include "ns_test.h"

#define INTERVAL 0.05 /* 20 Hz snapshots, times in seconds */

/* A timeline that keeps its rate at 1 (a dead band wider than these tests' buffers), so that
 * positions are exact. */
static void init(ns_timeline *tl, ns_timeline_entry *storage, uint32_t capacity)
{
    ns_timeline_config cfg = {.send_interval = INTERVAL, .tolerance_intervals = 100.0};
    ck_assert_int_eq(ns_timeline_init(tl, &cfg, storage, capacity), NS_OK);
}

START_TEST(blends_between_the_right_states)
{
    ns_timeline_entry storage[8];
    ns_timeline tl;
    init(&tl, storage, 8);
    ns_timeline_sample s = ns_timeline_advance(&tl, 0.01);
    ck_assert(!s.valid);
    /* Playback starts at the first state's time minus the delay (2 intervals = 0.1). */
    ck_assert_int_eq(ns_timeline_insert(&tl, 1.00, 100), NS_OK);
    ck_assert_int_eq(ns_timeline_insert(&tl, 1.05, 101), NS_OK);
    ck_assert_int_eq(ns_timeline_insert(&tl, 1.10, 102), NS_OK);
    ns_timeline_stats st = ns_timeline_get_stats(&tl);
    ck_assert_double_eq_tol(st.delay, 0.1, 1e-12);
    ck_assert_uint_eq(st.entries, 3);
    s = ns_timeline_advance(&tl, 0.0);
    ck_assert(s.valid);
    ck_assert_double_eq_tol(s.time, 0.9, 1e-12);
    ck_assert_uint_eq(s.from_id, 100);
    ck_assert_uint_eq(s.to_id, 101);
    ck_assert_float_eq(s.t, 0.0f); /* before the first state: hold it */
    s = ns_timeline_advance(&tl, 0.125);
    ck_assert_double_eq_tol(s.time, 1.025, 1e-9);
    ck_assert_uint_eq(s.from_id, 100);
    ck_assert_float_eq_tol(s.t, 0.5f, 1e-4f);
    s = ns_timeline_advance(&tl, 0.05);
    ck_assert_uint_eq(s.from_id, 101);
    ck_assert_uint_eq(s.to_id, 102);
    ck_assert_float_eq_tol(s.t, 0.5f, 1e-4f);
    ck_assert(!s.extrapolating);
    ck_assert_uint_eq(ns_timeline_get_stats(&tl).entries, 2);
}
END_TEST

START_TEST(bounded_extrapolation_when_dry)
{
    ns_timeline_entry storage[8];
    ns_timeline tl;
    init(&tl, storage, 8);
    ns_timeline_insert(&tl, 1.00, 1);
    ns_timeline_insert(&tl, 1.05, 2);
    ns_timeline_sample s = ns_timeline_advance(&tl, 0.2); /* 0.9 + 0.2 = 1.1: past the newest */
    ck_assert(s.extrapolating);
    ck_assert_uint_eq(s.from_id, 1);
    ck_assert_uint_eq(s.to_id, 2);
    ck_assert_float_eq_tol(s.t, 2.0f, 1e-4f);
    /* One interval past the newest state at most, then playback holds. */
    s = ns_timeline_advance(&tl, 10.0);
    ck_assert_double_eq_tol(s.time, 1.10, 1e-9);
    ck_assert_float_eq_tol(s.t, 2.0f, 1e-4f);
    s = ns_timeline_advance(&tl, 10.0);
    ck_assert_double_eq_tol(s.time, 1.10, 1e-9);
}
END_TEST

START_TEST(snaps_when_far_behind)
{
    ns_timeline_entry storage[8];
    ns_timeline tl;
    init(&tl, storage, 8);
    ns_timeline_insert(&tl, 1.00, 1);
    ns_timeline_insert(&tl, 1.05, 2);
    /* The client stalled; the next state is 2 s ahead: far more than 8 intervals behind. */
    ck_assert_int_eq(ns_timeline_insert(&tl, 3.05, 3), NS_OK);
    ns_timeline_stats st = ns_timeline_get_stats(&tl);
    ck_assert_uint_eq(st.snaps, 1);
    ck_assert_double_eq_tol(st.buffer_time, 0.1, 1e-9);
    ns_timeline_sample s = ns_timeline_advance(&tl, 0.0);
    ck_assert_double_eq_tol(s.time, 2.95, 1e-9);
    ck_assert_uint_eq(s.to_id, 3);
    /* States older than playback are refused and counted; an equal time is a duplicate. */
    ck_assert_int_eq(ns_timeline_insert(&tl, 1.00, 4), NS_ERR_STALE);
    ck_assert_int_eq(ns_timeline_insert(&tl, 3.05, 5), NS_ERR_DUPLICATE);
    ck_assert_int_eq(ns_timeline_insert(&tl, NAN, 6), NS_ERR_ARGUMENT);
    ck_assert_uint_eq(ns_timeline_get_stats(&tl).stale, 1);
    ns_timeline_config bad = {.send_interval = 0.0};
    ck_assert_int_eq(ns_timeline_init(&tl, &bad, storage, 8), NS_ERR_ARGUMENT);
}
END_TEST

START_TEST(reordered_states_fall_into_place)
{
    ns_timeline_entry storage[8];
    ns_timeline tl;
    init(&tl, storage, 8);
    ns_timeline_insert(&tl, 1.00, 1);
    ns_timeline_insert(&tl, 1.10, 3);
    ck_assert_int_eq(ns_timeline_insert(&tl, 1.05, 2), NS_OK); /* arrived after 1.10 */
    ns_timeline_sample s = ns_timeline_advance(&tl, 0.125); /* playback 0.9 + 0.125 = 1.025 */
    ck_assert_uint_eq(s.from_id, 1);
    ck_assert_uint_eq(s.to_id, 2);
    ck_assert_float_eq_tol(s.t, 0.5f, 1e-4f);
}
END_TEST

START_TEST(a_full_buffer_drops_its_oldest)
{
    ns_timeline_entry storage[3];
    ns_timeline tl;
    init(&tl, storage, 3);
    for (uint32_t i = 0; i < 5; i++) ck_assert_int_eq(ns_timeline_insert(&tl, 1.0 + 0.01 * i, i), NS_OK);
    ns_timeline_stats st = ns_timeline_get_stats(&tl);
    ck_assert_uint_eq(st.entries, 3);
    ck_assert_uint_eq(st.evicted, 2);
    ck_assert_uint_eq(storage[0].id, 2);
}
END_TEST

/* Runs a client for `seconds` at 60 frames/s (frame time jittered ±20%) receiving 20 Hz
 * snapshots over a link whose one-way latency is `latency` plus 0..jitter, reordered. */
typedef struct sim {
    ns_timeline tl;
    ns_timeline_entry storage[64];
    ns_rng rng;
    double now, next_send;
    double arrivals[64];   /* pending arrival times of sent states, by send time below */
    double sent_at[64];
    int pending;
    double last_time;      /* playback monotonic check */
    double last_rendered;  /* the blended time: from + t * (to - from) */
    double rate_seen_max, rate_seen_min;
} sim;

static void sim_run(sim *s, double seconds, double latency, double jitter)
{
    double end = s->now + seconds;
    while (s->now < end) {
        double dt = (1.0 / 60.0) * (0.8 + 0.4 * ns_rng_unit(&s->rng));
        s->now += dt;
        while (s->next_send <= s->now) {
            NS_CHECK(s->pending < 64, "too many in flight");
            s->sent_at[s->pending] = s->next_send;
            s->arrivals[s->pending] = s->next_send + latency + jitter * ns_rng_unit(&s->rng);
            s->pending++;
            s->next_send += INTERVAL;
        }
        for (int i = 0; i < s->pending;) {
            if (s->arrivals[i] > s->now) {
                i++;
                continue;
            }
            ns_status st = ns_timeline_insert(&s->tl, s->sent_at[i], (uint32_t)lround(s->sent_at[i] / INTERVAL));
            NS_CHECK(st == NS_OK || st == NS_ERR_STALE, "insert: %d", st);
            s->arrivals[i] = s->arrivals[s->pending - 1];
            s->sent_at[i] = s->sent_at[s->pending - 1];
            s->pending--;
        }
        ns_timeline_sample smp = ns_timeline_advance(&s->tl, dt);
        if (!smp.valid) continue;
        NS_CHECK(smp.time >= s->last_time, "playback went back from %f to %f", s->last_time, smp.time);
        s->last_time = smp.time;
        double from = smp.from_id * INTERVAL, to = smp.to_id * INTERVAL;
        double rendered = smp.to_id == smp.from_id ? from : from + smp.t * (to - from);
        NS_CHECK(rendered >= s->last_rendered - 1e-5, "rendered time went back from %f to %f", s->last_rendered, rendered);
        if (rendered > s->last_rendered) s->last_rendered = rendered;
        double rate = ns_timeline_get_stats(&s->tl).rate;
        if (rate > s->rate_seen_max) s->rate_seen_max = rate;
        if (rate < s->rate_seen_min) s->rate_seen_min = rate;
    }
}

START_TEST(jitter_converges_to_target)
{
    sim *s = calloc(1, sizeof *s);
    ns_timeline_config cfg = {.send_interval = INTERVAL};
    ck_assert_int_eq(ns_timeline_init(&s->tl, &cfg, s->storage, 64), NS_OK);
    s->rng.s = 99;
    s->next_send = 10.0;
    s->now = 10.0;
    s->rate_seen_min = s->rate_seen_max = 1.0;
    /* 200 ms latency with 0..60 ms jitter (more than an interval: states arrive reordered). */
    sim_run(s, 20.0, 0.20, 0.06);
    ns_timeline_stats st = ns_timeline_get_stats(&s->tl);
    double tolerance = 0.5 * INTERVAL;
    ck_assert_double_ge(st.drift, st.delay - tolerance - 1e-9);
    ck_assert_double_le(st.drift, st.delay + tolerance + 1e-9);
    /* The latency drops by 150 ms at once: the buffer is 3 intervals too long. The timeline
     * catches up (rate above 1) and the buffer comes back to its target, without a snap. */
    sim_run(s, 0.5, 0.05, 0.06);
    ck_assert_double_gt(ns_timeline_get_stats(&s->tl).drift, st.delay + tolerance);
    sim_run(s, 20.0, 0.05, 0.06);
    st = ns_timeline_get_stats(&s->tl);
    ck_assert_double_gt(s->rate_seen_max, 1.0);
    ck_assert_uint_eq(st.snaps, 0);
    ck_assert_double_ge(st.drift, st.delay - tolerance - 1e-9);
    ck_assert_double_le(st.drift, st.delay + tolerance + 1e-9);
    /* The latency grows by 100 ms: the buffer runs short, playback slows down, and converges. */
    sim_run(s, 20.0, 0.15, 0.06);
    st = ns_timeline_get_stats(&s->tl);
    ck_assert_double_lt(s->rate_seen_min, 1.0);
    ck_assert_double_ge(st.drift, st.delay - tolerance - 1e-9);
    ck_assert_double_le(st.drift, st.delay + tolerance + 1e-9);
    free(s);
}
END_TEST

static Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("timeline");
    tcase_add_test(tc, blends_between_the_right_states);
    tcase_add_test(tc, bounded_extrapolation_when_dry);
    tcase_add_test(tc, snaps_when_far_behind);
    tcase_add_test(tc, reordered_states_fall_into_place);
    tcase_add_test(tc, a_full_buffer_drops_its_oldest);
    tcase_add_test(tc, jitter_converges_to_target);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(timeline_suite)
