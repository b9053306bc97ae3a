/* repl_write.c — ns_world_write: one snapshot packet for one connection, within its budget.
 *
 * Three passes. scan() walks every entity once: it moves the connection's knowledge of it
 * along (acked spawns become live, acked despawns start cooling), applies relevancy and the
 * skip rule, and lists what wants to go. choose() takes the despawns, then the rest by
 * priority (importance × ticks waited), encoding each body into scratch and counting an upper
 * bound of its bits, until the budget is full. emit() sorts what was chosen and writes the
 * packet; only then does commit() record what the connection was sent. The layout is
 * docs/replication.md, "The snapshot packet". */
#include <stdlib.h>
#include <string.h>

#include <netschema/packed.h>

#include "repl_write_internal.h"

/* Consecutive records that may fail to fit before a packet is called full. */
#define NS__MAX_MISSES 8u


/* An upper bound of an id gap's cost in either gap model (a gap is at most the id). */
static unsigned id_cost(const ns__pass *p, uint32_t id)
{
    unsigned a = ns__cost(id), b = ns_packed_u32_cost(id, &p->w->dense);
    return a > b ? a : b;
}

/* ---- scan ---- */

static void begin_despawn(ns__link *l)
{
    l->state = NS__DESPAWNING;
    l->moved = 0;
    ns_tickset_clear(&l->sent);
    ns_tickset_clear(&l->event);
    l->waiting = 0;
}

/* Moves the link along with what the client acked. */
static void resolve(ns__link *l, const ns__conn *c, uint32_t now, uint32_t window)
{
    if (l->state == NS__SPAWNING && ns__ticksets_meet(&l->event, &c->acked)) l->state = NS__LIVE;
    if (l->state == NS__DESPAWNING && ns__ticksets_meet(&l->event, &c->acked)) {
        l->state = NS__COOLING;
        l->since = now;
        ns_tickset_clear(&l->event);
    }
    if (l->state == NS__COOLING && now - l->since > window) l->state = NS__NONE;
}

/* Adds a candidate record; `to` is the audience it goes to (ns__audience). */
static ns__pick *add_pick(ns__pass *p, uint32_t id, uint8_t kind, const ns__link *l, const ns__entity *e, ns_audience to)
{
    ns__pick *k = &p->w->pick[p->npick++];
    k->id = id;
    k->kind = kind;
    k->audience = (uint8_t)to;
    k->priority = kind == NS__DESPAWN ? 0.0f : e->importance * (float)(p->now - l->since + 1u);
    k->base.count = 0;
    k->base.tick_now = p->now;
    k->lazy = 0;
    return k;
}

/* Whether a spawn the client has not acked goes again now: when no copy went yet, or the last
 * one went `every` ticks ago (ns_world_config.spawn_resend_ticks; 1: every packet). */
static bool spawn_due(const ns__link *l, uint32_t now, uint32_t every)
{
    return !l->event.mask || now - l->event.newest >= every;
}

/* The ticks between copies of an unacked spawn to connection c: the config's, or with
 * NS_SPAWN_RESEND_AUTO a quarter of its round trip, 1..16. A copy lost then costs the client at
 * most a quarter of a round trip more than a copy in every packet would, and a spawn goes about
 * four times per round trip instead of once per tick (docs/replication.md section 6). */
static uint32_t spawn_every(const ns_world *w, const ns__conn *c)
{
    if (w->cfg.spawn_resend_ticks != NS_SPAWN_RESEND_AUTO) return w->cfg.spawn_resend_ticks;
    const uint32_t k = (c->rtt8 + 16u) / 32u; /* round trip / 4, rounded */
    return k < 1u ? 1u : k > 16u ? 16u : k;
}

static bool wanted(const ns__pass *p, ns_entity_id id, const ns__entity *e)
{
    if (e->state != NS__ALIVE || !e->hist.held || e->recorded != p->now) return false;
    if (e->owner == (int32_t)p->conn || !p->c->relevant) return true;
    return p->c->relevant(p->w, p->conn, id, p->c->ctx);
}

/* The ticks both acked and sent, as a mask aligned to acked->newest (bit i: tick newest − i). */
static uint64_t acked_and_sent(const ns_tickset *acked, const ns_tickset *sent)
{
    if (!acked->mask || !sent->mask) return 0;
    uint32_t behind = acked->newest - sent->newest; /* sent's bit j is acked's bit j + behind */
    uint64_t s;
    if (behind < 0x80000000u) s = behind >= 64 ? 0 : sent->mask << behind;
    else s = 0u - behind >= 64 ? 0 : sent->mask >> (0u - behind);
    return s & acked->mask;
}

/* The next baseline of a link, newest first: takes the newest tick left in *m (the ticks both
 * acked and sent) whose state history still holds. False when none is left or the next is too
 * old for history (the older ones are too). */
static inline bool next_baseline(const ns__entity *e, const ns__conn *c, uint32_t now, uint64_t *m, uint32_t *tick,
                                 const void **snap)
{
    while (*m) {
        uint32_t t = c->acked.newest - ns__lowest_bit(*m);
        *m &= *m - 1;
        if (now - t >= e->hist.depth) return false;
        const void *s = ns__newer(now, t) ? ns__state_at(e, t) : NULL;
        if (s) {
            *tick = t, *snap = s;
            return true;
        }
    }
    return false;
}

/* ns_history_baselines for one link, with bit masks instead of a walk over 64 ticks: up to
 * three newest ticks before now that the client acked, the link sent and history holds. */
static void choose_baselines(const ns__entity *e, const ns__conn *c, const ns__link *l, uint32_t now, ns_baselines *b)
{
    b->count = 0;
    b->tick_now = now;
    uint64_t m = acked_and_sent(&c->acked, &l->sent);
    while (b->count < 3 && next_baseline(e, c, now, &m, &b->tick[b->count], &b->snap[b->count])) b->count++;
}

/* An update, unless the skip rule leaves the entity out: every state recorded since the newest
 * baseline equals it (so every state sent since then does too), and that baseline is young
 * enough to still be a baseline for a while (docs/replication.md, "The skip rule"). */
static void consider_update(ns__pass *p, ns_entity_id id, const ns__entity *e, ns__link *l)
{
    ns_audience to = ns__audience(p->w, e, p->conn, l);
    if (to != l->audience) { /* what the client holds was coded for another audience */
        if (l->sent.mask) l->moved = p->now; /* the client may hold states of the old one */
        ns_tickset_clear(&l->sent);
        l->audience = (uint8_t)to;
    }
    /* Every baseline is a tick the client acked: when the entity changed after the newest of
     * those, the skip rule cannot hold, and the baselines wait until the record is tried (most
     * records of a busy scene never are: the budget fills first). */
    if (!p->c->acked.mask || ns__newer(e->changed, p->c->acked.newest)) {
        add_pick(p, id, NS__UPDATE, l, e, to)->lazy = 1;
        return;
    }
    /* The rule reads only the newest baseline; the other two are looked for when it fails. An
     * idle scene skips nearly every entity, and looking for three was most of its cost. */
    uint64_t m = acked_and_sent(&p->c->acked, &l->sent);
    uint32_t newest;
    const void *snap;
    if (next_baseline(e, p->c, p->now, &m, &newest, &snap) && !ns__newer(e->changed, newest) &&
        p->now - newest < ns__age_cap(p->w)) {
        p->stats.skipped++;
        l->since = p->now;
        return;
    }
    /* From the newest again: carrying the walk on from here measured 1.5% more instructions in
     * the idle scene (callgrind), where mostly the age cap's refreshes get this far. */
    ns__pick *k = add_pick(p, id, NS__UPDATE, l, e, to);
    choose_baselines(e, p->c, l, p->now, &k->base);
}

static void scan(ns__pass *p)
{
    ns_world *w = p->w;
    const uint32_t every = spawn_every(w, p->c);
    for (uint32_t id = 0; id < w->id_end; id++) { /* the ids past it are free, their links clear */
        const ns__entity *e = &w->ent[id];
        if (e->state == NS__FREE) continue;
        ns__link *l = &p->c->links[id];
        resolve(l, p->c, p->now, w->cfg.reorder_window);
        bool want = wanted(p, id, e);
        switch (l->state) {
        case NS__NONE:
            if (!want) {
                l->waiting = 0;
                break;
            }
            if (!l->waiting) l->waiting = 1, l->since = p->now;
            add_pick(p, id, NS__SPAWN, l, e, ns__audience(w, e, p->conn, l));
            break;
        case NS__SPAWNING:
        case NS__LIVE:
            if (!want) {
                begin_despawn(l);
                add_pick(p, id, NS__DESPAWN, l, e, ns__audience(w, e, p->conn, l));
            } else if (l->state == NS__SPAWNING) {
                if (spawn_due(l, p->now, every))
                    add_pick(p, id, NS__SPAWN, l, e, ns__audience(w, e, p->conn, l));
            } else {
                consider_update(p, id, e, l);
            }
            break;
        case NS__DESPAWNING:
            add_pick(p, id, NS__DESPAWN, l, e, ns__audience(w, e, p->conn, l));
            break;
        default: /* cooling: not yet spawnable again */
            break;
        }
    }
}

/* ---- choose ---- */

/* Max-heap of candidates by priority; ties go to the lower pick index (the lower id), so the
 * order is stable. A priority is positive and not NaN (importance > 0 and finite, times
 * ticks waited), so its float bits order as the floats do: one integer compare per step, which
 * the compiler makes branch-free where the branches would be a coin toss. */
static ns__heap_entry heap_key(float priority, uint32_t pick)
{
    uint32_t bits;
    memcpy(&bits, &priority, sizeof bits);
    return (uint64_t)bits << 32 | (UINT32_MAX - pick);
}

static uint32_t heap_pick(ns__heap_entry key)
{
    return UINT32_MAX - (uint32_t)key;
}

static void sift_down(ns__heap_entry *h, uint32_t n, uint32_t i)
{
    ns__heap_entry x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        c += (uint32_t)(c + 1 < n && h[c + 1] > h[c]);
        if (h[c] <= x) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* Removes the heap's top (n > 0 entries before, n − 1 after). The hole left at the top goes
 * down along the larger children to a leaf, one branch-free compare per level, and the last
 * entry goes into it and up: it came from the bottom, so it seldom rises far. */
static void pop_top(ns__heap_entry *h, uint32_t n)
{
    ns__heap_entry x = h[--n];
    uint32_t i = 0;
    for (uint32_t c = 1; c < n; c = 2 * i + 1) {
        c += (uint32_t)(c + 1 < n && h[c + 1] > h[c]);
        h[i] = h[c];
        i = c;
    }
    while (i > 0 && h[(i - 1) / 2] < x) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static uint64_t signature(const ns_baselines *b)
{
    uint64_t s = b->count;
    for (uint32_t i = 0; i < b->count; i++) s = s * 0x9E3779B97F4A7C15u + b->tick[i] + 1u;
    return s | 1u; /* 0 marks an empty table slot */
}

/* The slot of the packet's table of groups that holds b's signature s, or the empty slot where
 * it would go (UINT32_MAX when the table is full). */
static uint32_t group_slot(const ns__pass *p, uint64_t s)
{
    uint32_t mask = p->w->group_cap - 1, i = (uint32_t)(s >> 32 ^ s) & mask;
    for (uint32_t probes = 0; probes < p->w->group_cap; probes++, i = (i + 1) & mask)
        if (p->w->groups[i] == s || p->w->groups[i] == 0) return i;
    return UINT32_MAX;
}

/* Bits of a group header for b (baseline ticks, then a bound of the record count), or 0 if the
 * packet already has a group with these baselines. */
static size_t group_cost(const ns__pass *p, const ns_baselines *b)
{
    uint64_t s = signature(b);
    uint32_t i = group_slot(p, s);
    if (i != UINT32_MAX && p->w->groups[i] == s) return 0;
    size_t bits = 3 + ns__cost(p->w->cfg.max_entities); /* count, record count, the by-type flag */
    uint32_t prev = p->now;
    for (uint32_t k = 0; k < b->count; k++) bits += ns_packed_u32_cost(prev - b->tick[k] - 1u, &p->w->dense), prev = b->tick[k];
    return bits + (p->format >= NS_PACKET_FORMAT_2 ? 4u : 0u); /* format 2: the baselines, repeat and two ids bits */
}

/* Notes that the packet has a group with baselines b (group_cost counts its header once). */
static void group_add(ns__pass *p, const ns_baselines *b)
{
    uint64_t s = signature(b);
    uint32_t i = group_slot(p, s);
    if (i != UINT32_MAX && p->w->groups[i] == 0) p->w->groups[i] = s, p->ngroups++;
}

/* The bits of a record's audience (ns__write_audience). */
static size_t audience_bits(const ns__defaults *d)
{
    return (size_t)((d->audiences & 1u) + (d->audiences >> 1 & 1u) + (d->audiences >> 2 & 1u));
}

/* An upper bound of the record's bits besides its body (gaps are at most the id itself). */
static size_t framing_bound(const ns__pass *p, const ns__pick *k, const ns__entity *e, size_t body)
{
    size_t bits = id_cost(p, k->id) + (p->sizes ? ns__cost((uint32_t)body) : 0);
    const size_t aud = audience_bits(&p->w->defaults);
    if (k->kind == NS__DESPAWN) bits += 1; /* destroyed or left */
    if (k->kind == NS__SPAWN) {
        bits += aud + ns__cost(e->layout->ncomp - 1);
        for (uint32_t i = 0; i < e->layout->ncomp; i++) bits += ns__cost(p->w->schema->components[e->layout->comp[i]].desc->id);
    } else if (k->kind == NS__UPDATE) {
        bits += group_cost(p, &k->base) + (k->base.count == 0 ? aud : 0);
    }
    return bits;
}

/* Encodes k's body into scratch; false if it does not fit there. */
static bool encode(ns__pass *p, ns__pick *k, const ns__entity *e)
{
    ns_world *w = p->w;
    const uint8_t *cur = ns__state_at(e, p->now); /* recorded this tick (wanted()) */
    ns_writer saved = p->scratch;
    k->at = ns_writer_bits(&p->scratch);
    k->payload = 0;
    ns_status st = ns__body_write(&p->scratch, w->schema, &w->defaults, e->layout, cur, &k->base,
                                  (ns_audience)k->audience, &k->payload, &k->pres);
    if (st != NS_OK) {
        p->scratch = saved;
        return false;
    }
    k->bits = ns_writer_bits(&p->scratch) - k->at;
    return true;
}

/* Format 3: whether the client derives exactly these baselines from a ladder that holds them
 * (repl_ladder.c). It does unless it may still hold acked states coded for the entity's old
 * audience within history: those are older than every state of the new one, so three
 * baselines stay exact, fewer might take one of the old in. Such a record goes without. (A
 * history depth that is not a power of two loses a tick early where t % depth jumps at the
 * 32-bit wrap, but every entity's history loses the same tick, so no ladder names it.) */
static bool derivable(const ns__pass *p, const ns__link *l, const ns_baselines *b)
{
    return b->count == 3 || l->moved == 0 || p->now - l->moved >= p->w->cfg.history_depth;
}

static bool try_add(ns__pass *p, ns__pick *k)
{
    const ns__entity *e = &p->w->ent[k->id];
    if (k->lazy) choose_baselines(e, p->c, &p->c->links[k->id], p->now, &k->base), k->lazy = 0;
    if (p->format >= NS_PACKET_FORMAT_3 && k->kind == NS__UPDATE && !derivable(p, &p->c->links[k->id], &k->base))
        k->base.count = 0;
    ns_writer saved = p->scratch;
    if (k->kind != NS__DESPAWN && !encode(p, k, e)) return false;
    size_t body = k->kind == NS__DESPAWN ? 0 : k->bits;
    size_t bits = framing_bound(p, k, e, body) + body;
    if (p->used + bits > p->budget) {
        p->scratch = saved;
        return false;
    }
    if (k->kind == NS__UPDATE) group_add(p, &k->base);
    p->used += bits;
    p->w->chosen[p->nchosen++] = *k;
    if (k->kind == NS__DESPAWN) p->ndespawn++;
    if (k->kind == NS__SPAWN) p->nspawn++;
    return true;
}

static void choose(ns__pass *p)
{
    ns__pick *pk = p->w->pick;
    ns__heap_entry *heap = p->w->heap;
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->npick; i++) {
        if (pk[i].kind != NS__DESPAWN) heap[n++] = heap_key(pk[i].priority, i);
        else if (!try_add(p, &pk[i])) p->stats.deferred++;
    }
    for (uint32_t i = n / 2; i-- > 0;) sift_down(heap, n, i);
    uint32_t misses = 0;
    while (n > 0 && misses < NS__MAX_MISSES) {
        uint32_t top = heap_pick(heap[0]);
        pop_top(heap, n--);
        if (try_add(p, &pk[top])) {
            misses = 0;
        } else {
            p->stats.deferred++;
            misses++;
        }
    }
    p->stats.deferred += n; /* the packet is full: the rest wait */
}

/* ---- emit ---- */

static int compare_records(const void *pa, const void *pb)
{
    const ns__pick *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->kind == NS__UPDATE) {
        if (a->base.count != b->base.count) return a->base.count < b->base.count ? -1 : 1;
        for (uint32_t i = 0; i < a->base.count; i++)
            if (a->base.tick[i] != b->base.tick[i]) return a->base.tick[i] < b->base.tick[i] ? -1 : 1;
    }
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Format 3's order: updates by section (without baselines, the crowd's, the rest's), each by id. */
static int compare_records3(const void *pa, const void *pb)
{
    const ns__pick *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->kind == NS__UPDATE && a->section != b->section) return a->section < b->section ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Sorts keys a[0, n) by their bits from `from` up (stable radix sort, 8 bits a pass, skipping
 * digits all keys share); tmp holds n. Returns the buffer that holds the result. */
static uint64_t *radix_sort(uint64_t *a, uint64_t *tmp, uint32_t n, unsigned from)
{
    uint64_t differ = 0; /* the bits in which some key differs from the first */
    for (uint32_t i = 1; i < n; i++) differ |= a[i] ^ a[0];
    for (unsigned shift = from; n && shift < 64; shift += 8) {
        if (!(differ >> shift & 255u)) continue; /* no pass over a digit all keys share */
        uint32_t count[257] = {0};
        for (uint32_t i = 0; i < n; i++) count[(a[i] >> shift & 255u) + 1]++;
        for (uint32_t d = 0; d < 256; d++) count[d + 1] += count[d];
        for (uint32_t i = 0; i < n; i++) tmp[count[a[i] >> shift & 255u]++] = a[i];
        uint64_t *t = a;
        a = tmp, tmp = t;
    }
    return a;
}

/* Sorts the chosen records into packet order (compare_records). The records themselves are
 * over 100 bytes each, so the usual case sorts 64-bit keys instead: the kind (2 bits), an update's
 * section (formats 3 and 4) or baseline count (2) and each baseline's age as 127 − age (7 each;
 * ascending ticks are descending ages when no baseline tick lies across the 32-bit wrap from
 * now, that is, when each is below now as a plain number), the id (24), and the record's index
 * (15), by a radix sort, then moves the records into the free pick array. Otherwise (formats 1
 * and 2: a baseline older than 127 ticks or across the wrap; any format: over 2^15 records) it
 * sorts the records. The order, and so every byte, is the same either way. Keys without ticks
 * serve from a world's first tick, so a young server sorts as fast as an old one. */
void ns__sort_chosen(ns__pass *p)
{
    ns_world *w = p->w;
    const uint32_t n = p->nchosen;
    bool keys = n <= 0x8000u;
    uint64_t *key = w->heap; /* choose() is done with the heap */
    for (uint32_t i = 0; keys && i < n; i++) {
        const ns__pick *k = &w->chosen[i];
        uint64_t g = (uint64_t)k->kind << 23;
        if (k->kind == NS__UPDATE && p->format >= NS_PACKET_FORMAT_3) {
            g |= (uint64_t)k->section << 21;
        } else if (k->kind == NS__UPDATE) {
            g |= (uint64_t)k->base.count << 21;
            for (uint32_t j = 0; j < k->base.count; j++) {
                uint32_t age = p->now - k->base.tick[j];
                if (age > 127u || k->base.tick[j] > p->now) keys = false;
                else g |= (uint64_t)(127u - age) << (14u - 7u * j);
            }
        }
        key[i] = g << 39 | (uint64_t)k->id << 15 | i;
    }
    if (!keys) {
        qsort(w->chosen, n, sizeof *w->chosen, p->format >= NS_PACKET_FORMAT_3 ? compare_records3 : compare_records);
        return;
    }
    /* ids are unique: the index bits need no sorting; the free pick array is the second buffer */
    const uint64_t *in = radix_sort(key, (uint64_t *)(void *)w->pick, n, 15);
    if (in != key) memcpy(key, in, (size_t)n * sizeof *key);
    ns__pick *sorted = w->pick; /* the picks are copied into chosen: free too */
    for (uint32_t i = 0; i < n; i++) sorted[i] = w->chosen[key[i] & 0x7fffu];
    w->pick = w->chosen;
    w->chosen = sorted;
}

static bool same_group(const ns__pick *a, const ns__pick *b)
{
    if (a->base.count != b->base.count) return false;
    for (uint32_t i = 0; i < a->base.count; i++)
        if (a->base.tick[i] != b->base.tick[i]) return false;
    return true;
}

/* Whether two updates are in one run of ids: one group (format 3: one section). */
static bool same_run(const ns__pass *p, const ns__pick *a, const ns__pick *b)
{
    return p->format >= NS_PACKET_FORMAT_3 ? a->section == b->section : same_group(a, b);
}

/* The body from scratch; with by_type, without its presence bits (the group's mask has them). */
static void write_body(ns__pass *p, ns_writer *out, const ns__pick *k, bool by_type)
{
    size_t skip = by_type ? k->pres.bits : 0;
    if (p->sizes) ns_write_packed_u32(out, (uint32_t)(k->bits - skip), NULL);
    ns__copy_bits(out, p->scratch.buf, k->at + skip, k->bits - skip);
}

static void write_spawn(ns__pass *p, ns_writer *out, const ns__pick *k)
{
    const ns__layout *l = p->w->ent[k->id].layout;
    ns__write_audience(out, &p->w->defaults, k->audience);
    ns_write_packed_u32(out, l->ncomp - 1, NULL);
    uint32_t prev = 0;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        uint32_t id = p->w->schema->components[l->comp[i]].desc->id;
        ns_write_packed_u32(out, i == 0 ? id : id - prev - 1, NULL);
        prev = id;
    }
    write_body(p, out, k, false);
}

/* Writes the records of one group (or section) chosen[from, to), id gaps in model m (none when
 * ids is false: the group named them by reference); by_type: the group's presence mask stands
 * for the records' presence bits. */
void ns__write_run(ns__pass *p, ns_writer *out, uint32_t from, uint32_t to, const ns_model *m, bool by_type, bool ids)
{
    const ns__pick *ch = p->w->chosen;
    uint32_t next = 0; /* the lowest id the next record may have */
    for (uint32_t i = from; i < to; i++) {
        const ns__pick *k = &ch[i];
        if (ids) ns_write_packed_u32(out, k->id - next, m);
        next = k->id + 1;
        if (k->kind == NS__DESPAWN) {
            /* 1: destroyed (references to it end); 0: it left this client's relevancy. */
            ns_write_bits(out, p->w->ent[k->id].state != NS__ALIVE, 1);
        } else if (k->kind == NS__SPAWN) {
            write_spawn(p, out, k);
        } else if (k->kind == NS__UPDATE) {
            if (k->base.count == 0) ns__write_audience(out, &p->w->defaults, k->audience);
            write_body(p, out, k, by_type);
        }
    }
}

/* Whether the records chosen[from, to) agree on presence by component type: every record has
 * exactly the components present whose types are in *types (among those it can carry). Then
 * the group writes that mask once instead of each record's presence bits, if that is shorter:
 * in a moving scene every record has its Transform and nothing else present. */
bool ns__presence_by_type(const ns__pass *p, uint32_t from, uint32_t to, uint64_t *types)
{
    const ns__pick *ch = p->w->chosen;
    uint32_t ntypes = p->w->schema->component_count;
    uint64_t mask = 0;
    size_t bits = 0;
    if (ntypes > NS__MASK_TYPES) return false;
    for (uint32_t i = from; i < to; i++) {
        const ns__layout *l = p->w->ent[ch[i].id].layout;
        for (uint32_t c = 0; c < l->ncomp; c++)
            if (ch[i].pres.present >> c & 1u) mask |= UINT64_C(1) << l->comp[c];
        bits += ch[i].pres.bits;
    }
    if (bits <= ntypes) return false;
    for (uint32_t i = from; i < to; i++) {
        const ns__layout *l = p->w->ent[ch[i].id].layout;
        for (uint32_t c = 0; c < l->ncomp; c++) {
            bool carried = ns__carries(&p->w->defaults, l->comp[c], (ns_audience)ch[i].audience, ch[i].base.count != 0);
            if (carried && (mask >> l->comp[c] & 1u) != (ch[i].pres.present >> c & 1u)) return false;
        }
    }
    *types = mask;
    return true;
}

/* True when the chosen ids cost fewer bits in the dense gap model than in the default one. */
bool ns__dense_is_cheaper(const ns__pass *p)
{
    const ns__pick *ch = p->w->chosen;
    size_t dense = 0, plain = 0;
    for (uint32_t i = 0; i < p->nchosen; i++) {
        bool first = i == 0 || i == p->ndespawn || i == p->ndespawn + p->nspawn ||
                     (i > p->ndespawn + p->nspawn && !same_run(p, &ch[i - 1], &ch[i]));
        uint32_t gap = first ? ch[i].id : ch[i].id - ch[i - 1].id - 1;
        dense += ns_packed_u32_cost(gap, &p->w->dense);
        plain += ns__cost(gap);
    }
    return dense < plain;
}

static void emit(ns__pass *p, ns_writer *out)
{
    ns__sort_chosen(p);
    ns__pick *ch = p->w->chosen;
    const ns_model *gaps = ns__dense_is_cheaper(p) ? &p->w->dense : NULL;
    bool short_tick = p->c->acked.mask && p->now - p->c->acked.newest < NS__SHORT_TICK_AGE;
    ns_write_bits(out, short_tick, 1);
    ns_write_bits(out, short_tick ? p->now & 0xffffu : p->now, short_tick ? 16 : 32);
    bool events = p->ndespawn || p->nspawn;
    ns_write_bits(out, (p->sizes ? NS__HDR_SIZES : 0u) | (gaps ? NS__HDR_DENSE : 0u) | (events ? NS__HDR_EVENTS : 0u),
                  NS__HDR_BITS);
    if (events) {
        ns_write_packed_u32(out, p->ndespawn, NULL);
        ns_write_packed_u32(out, p->nspawn, NULL);
    }
    uint32_t groups = 0;
    for (uint32_t i = p->ndespawn + p->nspawn; i < p->nchosen; i++) groups += i == p->ndespawn + p->nspawn || !same_group(&ch[i - 1], &ch[i]);
    ns_write_packed_u32(out, groups, NULL);
    p->stats.groups = groups;
    ns__write_run(p, out, 0, p->ndespawn, gaps, false, true);
    ns__write_run(p, out, p->ndespawn, p->ndespawn + p->nspawn, gaps, false, true);
    for (uint32_t i = p->ndespawn + p->nspawn; i < p->nchosen;) {
        uint32_t j = i + 1;
        while (j < p->nchosen && same_group(&ch[i], &ch[j])) j++;
        ns__write_ticks(out, &ch[i].base, &p->w->dense);
        ns_write_packed_u32(out, j - i - 1, NULL);
        uint64_t types;
        bool by_type = ns__presence_by_type(p, i, j, &types);
        ns_write_bits(out, by_type, 1);
        if (by_type) ns__write_types(out, types, p->w->schema->component_count);
        ns__write_run(p, out, i, j, gaps, by_type, true);
        i = j;
    }
}

/* ---- emit, format 2 ---- */

/* One group of updates, chosen[from, to), as format 2 codes its header. */
typedef struct ns__group2 {
    uint32_t           from, to;
    const ns_baselines *base;
    bool               by_type;
    uint64_t           types;
    const ns__idlist  *ref;    /* the packet of its newest baseline, if the server kept it */
    bool               repeat; /* its other baselines and presence are ref's reference group's */
    uint8_t            ids;    /* NS__IDS_* */
} ns__group2;

/* Decides g's coding. The ids by reference when they are a subset of ref and that is cheaper. */
static void plan_group(const ns__pass *p, ns__group2 *g, const ns_model *m)
{
    const ns__pick *ch = p->w->chosen;
    g->by_type = ns__presence_by_type(p, g->from, g->to, &g->types);
    g->ref = g->base->count ? ns__idlist_get(p->c->lists, ns__idlist_slots(p->w->cfg.history_depth), g->base->tick[0]) : NULL;
    g->repeat = false;
    g->ids = NS__IDS_GAPS;
    if (!g->ref) return;
    uint32_t chain[3], n = ns__chain(g->ref, g->base->tick[0], chain);
    g->repeat = n == g->base->count && g->by_type == g->ref->ref_by_type && (!g->by_type || g->types == g->ref->ref_types);
    for (uint32_t i = 1; g->repeat && i < n; i++) g->repeat = chain[i] == g->base->tick[i];
    size_t gaps = ns__cost(g->to - g->from - 1u);
    uint32_t j = 0, next = 0;
    for (uint32_t i = g->from; i < g->to; i++) {
        while (j < g->ref->count && g->ref->id[j] < ch[i].id) j++;
        if (j == g->ref->count || g->ref->id[j] != ch[i].id) return; /* not a subset */
        gaps += ns_packed_u32_cost(ch[i].id - next, m);
        next = ch[i].id + 1;
    }
    if (g->ref->count == g->to - g->from) g->ids = NS__IDS_ALL;
    else if (g->ref->count < gaps) g->ids = NS__IDS_MASK;
}

/* The bit per id of g->ref: 1 when the group has it. */
static void write_id_mask(const ns__pass *p, ns_writer *out, const ns__group2 *g)
{
    const ns__pick *ch = p->w->chosen;
    uint32_t i = g->from;
    for (uint32_t j = 0; j < g->ref->count; j++) {
        bool has = i < g->to && ch[i].id == g->ref->id[j];
        ns_write_bits(out, has, 1);
        i += has;
    }
}

/* A group's header and records, but for the steady packet's (whose header says it all). */
static void write_group2(ns__pass *p, ns_writer *out, const ns__group2 *g, const ns_model *gaps)
{
    const ns_baselines *b = g->base;
    ns_write_bits(out, b->count != 0, 1);
    if (b->count) {
        ns_write_packed_u32(out, p->now - b->tick[0] - 1u, &p->w->dense);
        ns_write_bits(out, g->repeat, 1);
        if (!g->repeat) {
            ns_write_bits(out, b->count - 1u, 2);
            for (uint32_t k = 1; k < b->count; k++) ns_write_packed_u32(out, b->tick[k - 1] - b->tick[k] - 1u, &p->w->dense);
        }
        ns_write_bits(out, g->ids == NS__IDS_ALL, 1);
        if (g->ids != NS__IDS_ALL) ns_write_bits(out, g->ids == NS__IDS_MASK, 1);
    }
    if (g->ids == NS__IDS_GAPS) ns_write_packed_u32(out, g->to - g->from - 1u, NULL);
    if (!g->repeat) {
        ns_write_bits(out, g->by_type, 1);
        if (g->by_type) ns__write_types(out, g->types, p->w->schema->component_count);
    }
    if (g->ids == NS__IDS_MASK) write_id_mask(p, out, g);
    ns__write_run(p, out, g->from, g->to, gaps, g->by_type, g->ids == NS__IDS_GAPS);
}

/* The packet's reference group, for later packets: the group with the most records (the first). */
static void note_reference(ns__pass *p, const ns__group2 *g)
{
    if (g->to - g->from <= p->ref_records) return;
    p->ref_records = g->to - g->from;
    p->ref.ref_count = g->base->count;
    for (uint32_t i = 0; i < 3; i++) p->ref.ref_tick[i] = i < g->base->count ? g->base->tick[i] : 0;
    p->ref.ref_by_type = g->by_type;
    p->ref.ref_types = g->by_type ? g->types : 0;
}

bool ns__tick_is_short(const ns__pass *p)
{
    const unsigned k = ns__short_tick_bits(p->w->cfg.reorder_window, p->w->cfg.short_tick_bits);
    return p->c->acked.mask && p->now - p->c->acked.newest < (1u << (k - 1));
}

void ns__write_start(const ns__pass *p, ns_writer *out, bool short_tick, unsigned steady)
{
    /* format 5: '1' steady with ref's presence, '01' short, '001' steady with its own, '000' full */
    if (p->format >= NS_PACKET_FORMAT_5) {
        const bool plain = short_tick && steady == NS__STEADY_NO;
        ns_write_bits(out, steady == NS__STEADY_SAME, 1);
        if (steady != NS__STEADY_SAME) ns_write_bits(out, plain, 1);
        if (steady != NS__STEADY_SAME && !plain) ns_write_bits(out, steady == NS__STEADY_NEW, 1);
    } else {
        ns_write_bits(out, short_tick, 1);
    }
    const unsigned k = ns__short_tick_bits(p->w->cfg.reorder_window, p->w->cfg.short_tick_bits);
    ns_write_bits(out, short_tick ? p->now & ((1u << k) - 1u) : p->now, short_tick ? k : 32);
    if (p->format < NS_PACKET_FORMAT_5) ns_write_bits(out, steady != NS__STEADY_NO, 1);
}

/* Format 2 (docs/replication.md section 2): a short tick, and the steady packet (one group
 * that repeats the reference group of the packet of its newest baseline, with all its ids) in
 * one bit and that baseline's gap. */
static void emit2(ns__pass *p, ns_writer *out)
{
    ns__sort_chosen(p);
    ns__pick *ch = p->w->chosen;
    const ns_model *gaps = ns__dense_is_cheaper(p) ? &p->w->dense : NULL;
    const uint32_t u0 = p->ndespawn + p->nspawn;
    uint32_t groups = 0;
    for (uint32_t i = u0; i < p->nchosen; i++) groups += i == u0 || !same_group(&ch[i - 1], &ch[i]);
    p->stats.groups = groups;
    p->ref_records = 0;
    ns__group2 g = {0};
    if (groups == 1) g = (ns__group2){.from = u0, .to = p->nchosen, .base = &ch[u0].base}, plan_group(p, &g, gaps);
    bool steady = groups == 1 && u0 == 0 && g.repeat && g.ids == NS__IDS_ALL;
    ns__write_start(p, out, ns__tick_is_short(p), steady ? NS__STEADY_SAME : NS__STEADY_NO);
    if (steady) {
        ns_write_packed_u32(out, p->now - g.base->tick[0] - 1u, &p->w->dense);
        ns__write_run(p, out, g.from, g.to, gaps, g.by_type, false);
        note_reference(p, &g);
        return;
    }
    bool events = u0 != 0;
    ns_write_bits(out, (gaps ? NS__HDR2_DENSE : 0u) | (events ? NS__HDR2_EVENTS : 0u), NS__HDR2_BITS);
    if (events) {
        ns_write_packed_u32(out, p->ndespawn, NULL);
        ns_write_packed_u32(out, p->nspawn, NULL);
    }
    ns_write_bits(out, groups == 1, 1); /* one group (most packets): 1 bit */
    if (groups != 1) ns_write_packed_u32(out, groups, NULL);
    ns__write_run(p, out, 0, p->ndespawn, gaps, false, true);
    ns__write_run(p, out, p->ndespawn, u0, gaps, false, true);
    for (uint32_t i = u0; i < p->nchosen;) {
        uint32_t j = i + 1;
        while (j < p->nchosen && same_group(&ch[i], &ch[j])) j++;
        if (groups != 1) { /* one group was planned above */
            g = (ns__group2){.from = i, .to = j, .base = &ch[i].base};
            plan_group(p, &g, gaps);
        }
        write_group2(p, out, &g, gaps);
        note_reference(p, &g);
        i = j;
    }
}

/* Format 2: keeps the ids this packet carried (spawns and updates) and its reference group, for
 * later packets to refer to. Out of memory, the slot holds nothing and no packet refers to it. */
static void remember_ids(ns__pass *p)
{
    ns__idlist *lists = p->c->lists;
    const uint32_t n = ns__idlist_slots(p->w->cfg.history_depth), count = p->nchosen - p->ndespawn;
    ns__idlist *l = &lists[p->now % n];
    l->valid = false;
    l->tick = p->now; /* format 4: a packet went out that tick, whose list may be lost */
    if (!ns__idlist_reserve(lists, n, p->now, count)) return;
    /* Ascending, through a set of ids, as the replica orders the same list (a packet names an
     * id once: the replica refuses it twice). */
    for (uint32_t i = p->ndespawn; i < p->nchosen; i++) ns__idset_add(&p->w->pkt_ids, p->w->chosen[i].id);
    l->count = ns__idset_drain(&p->w->pkt_ids, l->id);
    l->tick = p->now;
    l->ref_count = p->ref.ref_count;
    memcpy(l->ref_tick, p->ref.ref_tick, sizeof l->ref_tick);
    l->ref_by_type = p->ref.ref_by_type;
    l->ref_types = p->ref.ref_types;
    l->ladder = p->ref.ladder;
    l->valid = true;
}

/* ---- commit ---- */

static void commit(ns__pass *p)
{
    for (uint32_t i = 0; i < p->nchosen; i++) {
        const ns__pick *k = &p->w->chosen[i];
        ns__link *l = &p->c->links[k->id];
        /* States coded for another audience can never be baselines of this one. */
        if (k->kind != NS__DESPAWN && k->audience != l->audience) {
            if (l->sent.mask) l->moved = p->now; /* the client may hold states of the old one */
            ns_tickset_clear(&l->sent);
        }
        ns_tickset_add(k->kind == NS__UPDATE ? &l->sent : &l->event, p->now);
        if (k->kind == NS__DESPAWN) {
            p->stats.despawns++;
            continue;
        }
        if (k->kind == NS__SPAWN) {
            l->state = NS__SPAWNING;
            ns_tickset_add(&l->sent, p->now);
            p->stats.spawns++;
        } else {
            p->stats.updates++;
            p->stats.full_states += k->base.count == 0;
        }
        l->audience = k->audience;
        l->since = p->now;
        l->waiting = 0;
    }
    if (p->format >= NS_PACKET_FORMAT_2) remember_ids(p);
    p->c->last = p->now;
    p->c->wrote = true;
}

ns_status ns_world_write(ns_world *w, uint32_t conn, ns_writer *out, size_t budget_bits, ns_repl_stats *stats)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used || !w->ticked) return NS_ERR_ARGUMENT;
    ns__conn *c = &w->conn[conn];
    if (c->wrote && !ns__newer(w->tick, c->last)) return NS_ERR_STALE; /* one packet per tick */
    ns__pass p = {.w = w, .c = c, .conn = conn, .now = w->tick, .sizes = w->cfg.entity_sizes,
                  .format = ns__packet_format(w->cfg.packet_format)};
    p.budget = (size_t)w->cfg.budget * 8; /* the scratch holds bodies for this much */
    if (budget_bits && budget_bits < p.budget) p.budget = budget_bits;
    p.used = 33 + NS__HDR_BITS + 3 * (size_t)ns__cost(w->cfg.max_entities) + (p.format >= NS_PACKET_FORMAT_2 ? 2u : 0u);
    /* format 3: the fulls, two section headers */
    if (p.format >= NS_PACKET_FORMAT_3) p.used += 16 + 2 * ns__cost(64) + ns__cost(w->cfg.max_entities);
    /* format 4, more than format 3: event counts 3, the crowd's newest tick 3, a drop count 2 */
    if (p.format >= NS_PACKET_FORMAT_4) p.used += 8;
    /* format 5, more than format 4: a full tick's first bits, '000' for 2 bits */
    if (p.format >= NS_PACKET_FORMAT_5) p.used += 1;
    if (p.used > p.budget) return NS_ERR_ARGUMENT;
    memset(w->groups, 0, w->group_cap * sizeof *w->groups);
    ns_writer_init(&p.scratch, w->scratch, w->scratch_cap);
#ifdef NS_PROFILE
    p.scratch.profile = out->profile; /* bodies are written here, then copied: count them here */
#endif
    scan(&p);
    choose(&p);
    ns_writer_flush(&p.scratch);
    size_t start = ns_writer_bits(out);
    ns_writer saved = *out;
    if (p.format >= NS_PACKET_FORMAT_3) ns__emit3(&p, out);
    else if (p.format >= NS_PACKET_FORMAT_2) emit2(&p, out);
    else emit(&p, out);
    if (ns_writer_overflowed(out)) {
        *out = saved;
        return NS_ERR_OVERFLOW;
    }
    commit(&p);
    p.stats.bits = (uint32_t)(ns_writer_bits(out) - start);
    size_t payload = 0;
    for (uint32_t i = 0; i < p.nchosen; i++) payload += w->chosen[i].kind == NS__DESPAWN ? 0 : w->chosen[i].payload;
    p.stats.framing_bits = p.stats.bits - (uint32_t)payload;
    if (stats) *stats = p.stats;
    return NS_OK;
}

ns_status ns_world_write_packet(ns_world *w, uint32_t conn, void *buf, size_t cap, size_t *len, ns_repl_stats *stats)
{
    ns_writer out;
    ns_writer_init(&out, buf, cap);
    ns_status st = ns_world_write(w, conn, &out, cap * 8 < (size_t)w->cfg.budget * 8 ? cap * 8 : 0, stats);
    size_t n = ns_writer_flush(&out);
    if (st == NS_OK) st = ns_writer_status(&out);
    if (len) *len = st == NS_OK ? n : 0;
    return st;
}
