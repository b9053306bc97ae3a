/* netschema/timeline.h — the client's snapshot interpolation timeline.
 *
 * The client keeps the states it receives, each stamped with its server time (a batch timestamp
 * or a tick, in any unit: every time here is in the same unit as send_interval), and plays them
 * back `delay_intervals` send intervals behind the newest one, so that a late or lost snapshot
 * does not stop the picture. The timeline is generic: it keeps (time, id) pairs, and each
 * ns_timeline_advance tells the caller which two states to blend and at what t; the caller keeps
 * the states (for example in a ring indexed by tick) and calls the generated
 * <pkg>_<T>_interpolate(from, to, t, out), or ns_component_ops->interpolate.
 *
 * Under jitter the buffer drifts; the timeline measures how far the newest state is ahead of
 * playback each time one arrives (an exponential moving average) and plays slightly faster
 * (1 + catchup) when the buffer is too long or slower (1 - slowdown) when it is too short. When the
 * buffer runs dry it extrapolates at most extrapolate_intervals past the newest state and then
 * holds; when playback falls more than snap_intervals behind its target it jumps (snaps) forward.
 * Playback time never goes backwards. docs/messages.md lists the defaults and why. */
#ifndef NETSCHEMA_TIMELINE_H
#define NETSCHEMA_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_timeline_config {
    double send_interval;         /* required: the server's snapshot interval (> 0) */
    double delay_intervals;       /* 0: default 2. Target buffer, in send intervals */
    double catchup;               /* 0: default 0.05. Rate 1 + catchup while the buffer is long */
    double slowdown;              /* 0: default 0.05. Rate 1 - slowdown while it is short */
    double tolerance_intervals;   /* 0: default 0.5. Dead band around the target */
    double extrapolate_intervals; /* 0: default 1; negative: no extrapolation */
    double snap_intervals;        /* 0: default 8. Behind the target by more than this: snap */
    double ema_samples;           /* 0: default 10. Arrivals the drift average spans */
} ns_timeline_config;

/* One buffered state: its server time and the caller's id for it. */
typedef struct ns_timeline_entry {
    double   time;
    uint32_t id;
} ns_timeline_entry;

/* What to draw now: blend state from_id into to_id at t (t > 1 while extrapolating). */
typedef struct ns_timeline_sample {
    bool     valid;          /* false until the first state arrived */
    bool     extrapolating;  /* playback is past the newest state */
    uint32_t from_id, to_id; /* equal while only one state is buffered */
    float    t;
    double   time;           /* playback time, in server time */
} ns_timeline_sample;

/* Net-graph figures. */
typedef struct ns_timeline_stats {
    uint32_t entries;      /* states buffered */
    double   buffer_time;  /* newest state's time - playback time */
    double   delay;        /* the target buffer_time: delay_intervals * send_interval */
    double   drift;        /* the moving average of buffer_time at arrivals */
    double   rate;         /* current playback speed: 1, 1 + catchup or 1 - slowdown */
    uint64_t snaps;        /* jumps forward */
    uint64_t stale;        /* states refused as older than playback */
    uint64_t evicted;      /* states dropped because the buffer was full */
} ns_timeline_stats;

/* The timeline. Treat the members as private. */
typedef struct ns_timeline {
    ns_timeline_config cfg;
    ns_timeline_entry *entries;  /* sorted by time, oldest first */
    uint32_t capacity, count;
    bool     started;
    double   playback, drift, rate;
    ns_timeline_stats stats;
} ns_timeline;

/* Starts an empty timeline over caller storage of capacity (>= 2) entries. NS_ERR_ARGUMENT for a
 * missing or non-positive send_interval, a capacity below 2 or a negative setting. */
ns_status ns_timeline_init(ns_timeline *tl, const ns_timeline_config *cfg, ns_timeline_entry *storage,
                           uint32_t capacity);

/* Buffers a state received with server time `time`. NS_ERR_STALE when it is older than what is
 * being played, NS_ERR_DUPLICATE when a state with that time is buffered, NS_ERR_ARGUMENT for a
 * time that is not finite; nothing changes then. A full buffer drops its oldest state. */
ns_status ns_timeline_insert(ns_timeline *tl, double time, uint32_t id);

/* Moves playback forward by dt (local time elapsed, >= 0) at the current rate and says what to
 * draw. */
ns_timeline_sample ns_timeline_advance(ns_timeline *tl, double dt);

/* The net-graph figures. */
ns_timeline_stats ns_timeline_get_stats(const ns_timeline *tl);

#ifdef __cplusplus
}
#endif
#endif
