/* timeline.c — snapshot interpolation timeline (timeline.h): a sorted buffer of (server time, id)
 * played back behind the newest state, with a playback rate steered by the buffer's drift. */
#include "netschema/timeline.h"

#include <math.h>
#include <string.h>

static double or_default(double v, double dflt)
{
    return v == 0.0 ? dflt : v;
}

ns_status ns_timeline_init(ns_timeline *tl, const ns_timeline_config *cfg, ns_timeline_entry *storage,
                           uint32_t capacity)
{
    if (!cfg || !storage || capacity < 2 || !(cfg->send_interval > 0.0) || !isfinite(cfg->send_interval))
        return NS_ERR_ARGUMENT;
    ns_timeline_config c = *cfg;
    c.delay_intervals = or_default(c.delay_intervals, 2.0);
    c.catchup = or_default(c.catchup, 0.05);
    c.slowdown = or_default(c.slowdown, 0.05);
    c.tolerance_intervals = or_default(c.tolerance_intervals, 0.5);
    c.extrapolate_intervals = or_default(c.extrapolate_intervals, 1.0);
    if (c.extrapolate_intervals < 0.0) c.extrapolate_intervals = 0.0;
    c.snap_intervals = or_default(c.snap_intervals, 8.0);
    c.ema_samples = or_default(c.ema_samples, 10.0);
    if (c.delay_intervals < 0.0 || c.catchup < 0.0 || c.slowdown < 0.0 || c.slowdown >= 1.0 ||
        c.tolerance_intervals < 0.0 || c.snap_intervals < 0.0 || c.ema_samples < 1.0)
        return NS_ERR_ARGUMENT;
    memset(tl, 0, sizeof *tl);
    tl->cfg = c;
    tl->entries = storage;
    tl->capacity = capacity;
    tl->rate = 1.0;
    return NS_OK;
}

static double delay(const ns_timeline *tl)
{
    return tl->cfg.delay_intervals * tl->cfg.send_interval;
}

static double newest_time(const ns_timeline *tl)
{
    return tl->entries[tl->count - 1].time;
}

static void drop_oldest(ns_timeline *tl, uint32_t n)
{
    memmove(tl->entries, tl->entries + n, (tl->count - n) * sizeof tl->entries[0]);
    tl->count -= n;
}

/* Drops the states playback has passed, keeping the one it is blending from. */
static void drop_played(ns_timeline *tl)
{
    uint32_t n = 0;
    while (tl->count - n > 2 && tl->entries[n + 1].time <= tl->playback) n++;
    if (n) drop_oldest(tl, n);
}

/* Playback speed from the drift: catch up when the buffer is long, slow down when it is short. */
static void steer(ns_timeline *tl)
{
    double tolerance = tl->cfg.tolerance_intervals * tl->cfg.send_interval;
    if (tl->drift > delay(tl) + tolerance) tl->rate = 1.0 + tl->cfg.catchup;
    else if (tl->drift < delay(tl) - tolerance) tl->rate = 1.0 - tl->cfg.slowdown;
    else tl->rate = 1.0;
}

ns_status ns_timeline_insert(ns_timeline *tl, double time, uint32_t id)
{
    if (!isfinite(time)) return NS_ERR_ARGUMENT;
    /* Older than every buffered state: playback is past it, or (before playback reaches the
     * first state) drawing it now would move the picture back. */
    if (tl->count && time < tl->entries[0].time) {
        tl->stats.stale++;
        return NS_ERR_STALE;
    }
    uint32_t at = tl->count;
    while (at > 0 && tl->entries[at - 1].time > time) at--;
    if (at > 0 && tl->entries[at - 1].time == time) return NS_ERR_DUPLICATE;
    if (tl->count == tl->capacity) {
        if (at == 0) {
            tl->stats.stale++;
            return NS_ERR_STALE;
        }
        drop_oldest(tl, 1);
        at--;
        tl->stats.evicted++;
    }
    bool newest = at == tl->count;
    memmove(tl->entries + at + 1, tl->entries + at, (tl->count - at) * sizeof tl->entries[0]);
    tl->entries[at] = (ns_timeline_entry){time, id};
    tl->count++;
    if (!tl->started) {
        tl->started = true;
        tl->playback = time - delay(tl);
        tl->drift = delay(tl);
    } else if (newest) {
        double ahead = time - tl->playback;
        if (ahead > delay(tl) + tl->cfg.snap_intervals * tl->cfg.send_interval) {
            /* Too far behind to catch up at a few percent: jump to the target. */
            tl->playback = time - delay(tl);
            tl->drift = delay(tl);
            tl->stats.snaps++;
            drop_played(tl);
        } else {
            tl->drift += (ahead - tl->drift) * (2.0 / (tl->cfg.ema_samples + 1.0));
        }
    }
    steer(tl);
    return NS_OK;
}

ns_timeline_sample ns_timeline_advance(ns_timeline *tl, double dt)
{
    ns_timeline_sample s = {false, false, 0, 0, 0.0f, tl->playback};
    if (!tl->started || tl->count == 0) return s;
    if (dt > 0.0 && isfinite(dt)) tl->playback += dt * tl->rate;
    /* Dry: extrapolate a bounded time past the newest state, then hold. */
    double limit = newest_time(tl) + tl->cfg.extrapolate_intervals * tl->cfg.send_interval;
    if (tl->playback > limit) tl->playback = limit;
    drop_played(tl);
    const ns_timeline_entry *from = &tl->entries[0];
    const ns_timeline_entry *to = &tl->entries[tl->count > 1 ? 1 : 0];
    s.valid = true;
    s.time = tl->playback;
    s.from_id = from->id;
    s.to_id = to->id;
    s.extrapolating = tl->playback > to->time;
    if (to != from) {
        double t = (tl->playback - from->time) / (to->time - from->time);
        s.t = t > 0.0 ? (float)t : 0.0f;
    }
    return s;
}

ns_timeline_stats ns_timeline_get_stats(const ns_timeline *tl)
{
    ns_timeline_stats st = tl->stats;
    st.entries = tl->count;
    st.buffer_time = tl->count ? newest_time(tl) - tl->playback : 0.0;
    st.delay = delay(tl);
    st.drift = tl->drift;
    st.rate = tl->rate;
    return st;
}
