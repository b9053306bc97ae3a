/* repl_world.c — the server's world: entity slots and ids, components, owners, importance,
 * positions, send intervals, connections, relevancy and recording each tick. Writing the
 * packets is repl_write.c, reading acks repl_ack.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "repl_internal.h"

static bool bad_config(const ns_world_config *c)
{
    return !c->schema || c->max_entities == 0 || c->max_entities > (1u << 24) || c->max_connections == 0 ||
           c->max_connections > 256 || c->history_depth < 2 || c->reorder_window == 0 ||
           c->history_depth + c->reorder_window > NS_HISTORY_MAX_DEPTH || c->tick_rate == 0 || c->budget < 16 ||
           c->packet_format > NS_PACKET_FORMAT_5 ||
           (c->spawn_resend_ticks > 64 && c->spawn_resend_ticks != NS_SPAWN_RESEND_AUTO) ||
           !ns__short_tick_bits_ok(c->reorder_window, c->short_tick_bits) ||
           (c->compact_acks && ns__packet_format(c->packet_format) < NS_PACKET_FORMAT_2);
}

static ns_world_config with_defaults(const ns_world_config *in)
{
    ns_world_config c = *in;
    if (!c.history_depth) c.history_depth = NS_REPL_DEFAULT_DEPTH;
    if (!c.reorder_window) c.reorder_window = NS_REPL_DEFAULT_REORDER;
    if (!c.tick_rate) c.tick_rate = 60;
    if (!c.budget) c.budget = NS_REPL_DEFAULT_BUDGET;
    if (!c.spawn_resend_ticks) c.spawn_resend_ticks = 1;
    return c;
}

/* Send interval in ticks for a rate in Hz: the nearest whole number of ticks, at least 1. */
static uint32_t interval_for(uint32_t hz, uint32_t tick_rate)
{
    if (!hz || hz >= tick_rate) return 1;
    return (tick_rate + hz / 2) / hz;
}

static ns_world *fail(ns_world *w, ns_status *status, ns_status s)
{
    ns_world_destroy(w);
    if (status) *status = s;
    return NULL;
}

/* How many links a connection keeps, and records the write's scratch has room for, when the
 * ids in use are below end: a power of two, at least 64, at most max_entities. */
static uint32_t links_for(const ns_world *w, uint32_t end)
{
    uint32_t n = 64;
    while (n < end) n *= 2;
    return n < w->cfg.max_entities ? n : w->cfg.max_entities;
}

ns_world *ns_world_create(const ns_world_config *config, ns_status *status)
{
    if (!config) return fail(NULL, status, NS_ERR_ARGUMENT);
    ns_world_config cfg = with_defaults(config);
    if (bad_config(&cfg)) return fail(NULL, status, NS_ERR_ARGUMENT);
    ns_world *w = calloc(1, sizeof *w);
    if (!w) return fail(NULL, status, NS_ERR_NOMEM);
    w->cfg = cfg;
    w->schema = cfg.schema;
    if (ns__defaults_init(&w->defaults, w->schema) != NS_OK) return fail(w, status, NS_ERR_NOMEM);
    if (ns__dense_model_init(&w->dense) != NS_OK) return fail(w, status, NS_ERR_ARGUMENT);
    uint32_t n = cfg.max_entities, nc = w->schema->component_count;
    w->interval = calloc(nc ? nc : 1, sizeof *w->interval);
    w->ent = calloc(n, sizeof *w->ent);
    w->free_ids = calloc(ns__id_map_words(n), sizeof *w->free_ids);
    w->conn = calloc(cfg.max_connections, sizeof *w->conn);
    w->npicks = links_for(w, 0);
    w->pick = calloc(w->npicks, sizeof *w->pick);
    w->heap = calloc(w->npicks, sizeof *w->heap);
    w->chosen = calloc(w->npicks, sizeof *w->chosen);
    const bool ids = ns__idset_init(&w->pkt_ids, n);
    w->group_cap = 1024;
    w->groups = calloc(w->group_cap, sizeof *w->groups);
    w->scratch_cap = (size_t)cfg.budget * 2 + 64;
    w->scratch = calloc(w->scratch_cap, 1);
    if (!w->interval || !w->ent || !w->free_ids || !w->conn || !w->pick || !w->heap || !w->chosen || !ids || !w->groups || !w->scratch)
        return fail(w, status, NS_ERR_NOMEM);
    for (uint32_t i = 0; i < n; i++) ns__id_map_add(w->free_ids, i);
    for (uint32_t c = 0; c < nc; c++) w->interval[c] = interval_for(w->schema->components[c].send_rate_hz, cfg.tick_rate);
    if (status) *status = NS_OK;
    return w;
}

void ns__entity_release(ns_world *w, ns_entity_id id)
{
    ns__entity *e = &w->ent[id];
    free(e->layout); /* and cur */
    free(e->store);
    memset(e, 0, sizeof *e);
    ns__id_map_add(w->free_ids, id);
    if (id + 1 == w->id_end)
        while (w->id_end && w->ent[w->id_end - 1].state == NS__FREE) w->id_end--;
    for (uint32_t c = 0; c < w->cfg.max_connections; c++)
        if (w->conn[c].used) memset(&w->conn[c].links[id], 0, sizeof(ns__link));
}

void ns_world_destroy(ns_world *w)
{
    if (!w) return;
    for (uint32_t i = 0; w->ent && i < w->cfg.max_entities; i++) free(w->ent[i].layout), free(w->ent[i].store);
    for (uint32_t c = 0; w->conn && c < w->cfg.max_connections; c++)
        free(w->conn[c].links), ns__idlists_free(w->conn[c].lists, ns__idlist_slots(w->cfg.history_depth));
    ns__defaults_free(&w->defaults);
    free(w->interval);
    free(w->ent);
    free(w->free_ids);
    free(w->conn);
    free(w->pick);
    free(w->heap);
    free(w->chosen);
    ns__idset_free(&w->pkt_ids);
    free(w->groups);
    free(w->scratch);
    free(w);
}

static ns__entity *alive(const ns_world *w, ns_entity_id e)
{
    return e < w->cfg.max_entities && w->ent[e].state == NS__ALIVE ? &w->ent[e] : NULL;
}

/* Bytes before an entity's cur in its allocation: its layout, rounded up so that cur keeps
 * malloc's alignment. */
#define NS__LAYOUT_ROOM ((sizeof(ns__layout) + 15u) & ~(size_t)15u)

static ns_status set_up_entity(ns_world *w, ns__entity *e, const uint32_t *types, uint32_t count)
{
    ns__layout l;
    ns_status st = ns__layout_init(&l, w->schema, types, count);
    if (st != NS_OK) return st;
    size_t size = l.size;
    uint8_t *block = calloc(NS__LAYOUT_ROOM + size, 1);
    if (!block) return NS_ERR_NOMEM;
    e->layout = memcpy(block, &l, sizeof l);
    e->cur = block + NS__LAYOUT_ROOM;
    e->store = calloc(NS_HISTORY_BYTES(size, w->cfg.history_depth), 1);
    if (!e->store) return NS_ERR_NOMEM;
    for (uint32_t i = 0; i < e->layout->ncomp; i++) {
        uint32_t c = e->layout->comp[i];
        memcpy(e->cur + e->layout->off[i], w->defaults.blob + w->defaults.off[c], w->schema->components[c].desc->snap_size);
    }
    return ns_history_init(&e->hist, e->store, size, w->cfg.history_depth);
}

/* The lowest free id: small ids keep the id gaps of packets short (docs/replication.md §6). */
static bool lowest_free(const ns_world *w, uint32_t *id)
{
    for (uint32_t k = 0; k < ns__id_map_words(w->cfg.max_entities); k++) {
        uint64_t m = w->free_ids[k];
        if (!m) continue;
        *id = k * 64 + ns__lowest_bit(m);
        return true;
    }
    return false;
}

/* Grows the write's scratch to a record for each id below end. Its contents live only within
 * one ns_world_write, so nothing is copied; false (and the old arrays kept) when out of memory. */
static bool cover_picks(ns_world *w, uint32_t end)
{
    if (end <= w->npicks) return true;
    const uint32_t n = links_for(w, end);
    ns__pick *pick = malloc((size_t)n * sizeof *pick), *chosen = malloc((size_t)n * sizeof *chosen);
    ns__heap_entry *heap = malloc((size_t)n * sizeof *heap);
    if (!pick || !chosen || !heap) {
        free(pick), free(chosen), free(heap);
        return false;
    }
    free(w->pick), free(w->chosen), free(w->heap);
    w->pick = pick, w->chosen = chosen, w->heap = heap;
    w->npicks = n;
    return true;
}

/* Grows the write's scratch and every connection's links to cover the ids below end; false when
 * out of memory (what was grown so far keeps its larger arrays). */
static bool cover_ids(ns_world *w, uint32_t end)
{
    if (!cover_picks(w, end)) return false;
    for (uint32_t c = 0; c < w->cfg.max_connections; c++) {
        ns__conn *k = &w->conn[c];
        if (!k->used || end <= k->nlinks) continue;
        const uint32_t n = links_for(w, end);
        ns__link *p = realloc(k->links, (size_t)n * sizeof *p);
        if (!p) return false;
        memset(p + k->nlinks, 0, (size_t)(n - k->nlinks) * sizeof *p);
        k->links = p;
        k->nlinks = n;
    }
    return true;
}

ns_status ns_world_spawn(ns_world *w, const uint32_t *types, uint32_t count, ns_entity_id *id)
{
    uint32_t i;
    if (!lowest_free(w, &i)) return NS_ERR_FULL;
    if (!cover_ids(w, i + 1)) return NS_ERR_NOMEM;
    ns__entity *e = &w->ent[i];
    ns_status st = set_up_entity(w, e, types, count);
    if (st != NS_OK) {
        ns__entity_release(w, i);
        return st;
    }
    w->free_ids[i / 64] &= ~(UINT64_C(1) << (i % 64));
    e->state = NS__ALIVE;
    if (i >= w->id_end) w->id_end = i + 1;
    e->owner = NS_NO_OWNER;
    e->importance = 1.0f;
    w->alive++;
    if (id) *id = i;
    return NS_OK;
}

ns_status ns_world_despawn(ns_world *w, ns_entity_id id)
{
    ns__entity *e = alive(w, id);
    if (!e) return NS_ERR_UNKNOWN_ID;
    e->state = NS__DEAD;
    w->alive--;
    return NS_OK;
}

bool ns_world_alive(const ns_world *w, ns_entity_id e)
{
    return alive(w, e) != NULL;
}

void *ns_world_snap(ns_world *w, ns_entity_id id, uint32_t type)
{
    ns__entity *e = alive(w, id);
    int32_t i = e ? ns__layout_find(e->layout, w->schema, type) : -1;
    return i < 0 ? NULL : e->cur + e->layout->off[i];
}

ns_status ns_world_set(ns_world *w, ns_entity_id id, uint32_t type, const void *value)
{
    ns__entity *e = alive(w, id);
    if (!e) return NS_ERR_UNKNOWN_ID;
    int32_t i = ns__layout_find(e->layout, w->schema, type);
    if (i < 0) return NS_ERR_UNKNOWN_ID;
    w->schema->components[e->layout->comp[i]].quantize(value, e->cur + e->layout->off[i]);
    return NS_OK;
}

ns_status ns_world_set_owner(ns_world *w, ns_entity_id id, int32_t conn)
{
    ns__entity *e = alive(w, id);
    if (!e) return NS_ERR_UNKNOWN_ID;
    if (conn != NS_NO_OWNER && (conn < 0 || (uint32_t)conn >= w->cfg.max_connections || !w->conn[conn].used))
        return NS_ERR_ARGUMENT;
    e->owner = conn;
    return NS_OK;
}

int32_t ns_world_owner(const ns_world *w, ns_entity_id id)
{
    const ns__entity *e = alive(w, id);
    return e ? e->owner : NS_NO_OWNER;
}

ns_status ns_world_set_predicted(ns_world *w, uint32_t conn, ns_entity_id id, int mode)
{
    if (!alive(w, id)) return NS_ERR_UNKNOWN_ID;
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return NS_ERR_ARGUMENT;
    if (mode != NS_MODE_DEFAULT && mode != NS_MODE_PREDICTED && mode != NS_MODE_INTERPOLATED) return NS_ERR_ARGUMENT;
    /* ns__audience reads it at the next write; states coded for the old audience stop being
     * baselines there (repl_write.c). */
    w->conn[conn].links[id].mode = (uint8_t)mode;
    return NS_OK;
}

ns_status ns_world_set_condition(ns_world *w, uint32_t conn, bool on)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return NS_ERR_ARGUMENT;
    w->conn[conn].custom = on;
    return NS_OK;
}

ns_status ns_world_set_importance(ns_world *w, ns_entity_id id, float importance)
{
    ns__entity *e = alive(w, id);
    if (!e) return NS_ERR_UNKNOWN_ID;
    if (!(importance > 0.0f) || !isfinite(importance)) return NS_ERR_ARGUMENT;
    e->importance = importance;
    return NS_OK;
}

ns_status ns_world_set_position(ns_world *w, ns_entity_id id, float x, float y, float z)
{
    ns__entity *e = alive(w, id);
    if (!e) return NS_ERR_UNKNOWN_ID;
    e->pos[0] = x, e->pos[1] = y, e->pos[2] = z;
    e->has_pos = 1;
    return NS_OK;
}

bool ns_world_position(const ns_world *w, ns_entity_id id, float xyz[3])
{
    const ns__entity *e = alive(w, id);
    if (!e || !e->has_pos) return false;
    memcpy(xyz, e->pos, sizeof e->pos);
    return true;
}

ns_status ns_world_set_send_interval(ns_world *w, uint32_t type, uint32_t ticks)
{
    int32_t c = ns_schema_component_index(w->schema, type);
    if (c < 0) return NS_ERR_UNKNOWN_ID;
    if (ticks == 0) return NS_ERR_ARGUMENT;
    w->interval[c] = ticks;
    return NS_OK;
}

/* Records e's state at `tick`: components not due this tick keep their last recorded value. */
static void record(ns_world *w, ns_entity_id id, ns__entity *e, uint32_t tick)
{
    const ns__layout *l = e->layout;
    const uint8_t *prev = e->hist.held ? ns__state_at(e, e->recorded) : NULL;
    uint8_t *slot = ns_history_put(&e->hist, tick);
    bool differs = prev == NULL;
    for (uint32_t i = 0; i < l->ncomp; i++) {
        const ns_component_ops *ops = &w->schema->components[l->comp[i]];
        size_t off = l->off[i], size = ops->desc->snap_size;
        uint32_t k = w->interval[l->comp[i]];
        bool due = !prev || k <= 1 || (tick + id) % k == 0;
        memcpy(slot + off, due ? e->cur + off : prev + off, size);
        if (prev && !differs && !ops->snap_equal(slot + off, prev + off)) differs = true;
    }
    if (differs) e->changed = tick;
    e->recorded = tick;
}

/* True once no connection holds a despawned entity and none can still receive a late packet
 * that carries it: then its id may be given to a new entity. */
static bool released_everywhere(const ns_world *w, ns_entity_id id, uint32_t tick)
{
    for (uint32_t c = 0; c < w->cfg.max_connections; c++) {
        if (!w->conn[c].used) continue;
        const ns__link *l = &w->conn[c].links[id];
        if (l->state == NS__COOLING && tick - l->since > w->cfg.reorder_window) continue;
        if (l->state != NS__NONE) return false;
    }
    return true;
}

ns_status ns_world_tick(ns_world *w, uint32_t tick)
{
    if (w->ticked && !ns__newer(tick, w->tick)) return NS_ERR_ARGUMENT; /* history is by tick */
    for (uint32_t i = 0; i < w->id_end; i++) {
        if (w->ent[i].state == NS__ALIVE) record(w, i, &w->ent[i], tick);
        else if (w->ent[i].state == NS__DEAD && released_everywhere(w, i, tick)) ns__entity_release(w, i);
    }
    w->tick = tick;
    w->ticked = true;
    return NS_OK;
}

ns_status ns_world_connect(ns_world *w, uint32_t *conn)
{
    for (uint32_t c = 0; c < w->cfg.max_connections; c++) {
        if (w->conn[c].used) continue;
        ns__conn *k = &w->conn[c];
        memset(k, 0, sizeof *k);
        k->nlinks = links_for(w, w->id_end);
        k->links = calloc(k->nlinks, sizeof *k->links);
        if (!k->links) return NS_ERR_NOMEM;
        if (ns__packet_format(w->cfg.packet_format) >= NS_PACKET_FORMAT_2) {
            k->lists = calloc(ns__idlist_slots(w->cfg.history_depth), sizeof *k->lists); /* grown by the writes */
            if (!k->lists) {
                free(k->links);
                k->links = NULL;
                return NS_ERR_NOMEM;
            }
        }
        k->used = true;
        if (conn) *conn = c;
        return NS_OK;
    }
    return NS_ERR_FULL;
}

void ns_world_disconnect(ns_world *w, uint32_t conn)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return;
    free(w->conn[conn].links);
    ns__idlists_free(w->conn[conn].lists, ns__idlist_slots(w->cfg.history_depth));
    memset(&w->conn[conn], 0, sizeof w->conn[conn]);
    for (uint32_t i = 0; i < w->id_end; i++)
        if (w->ent[i].state != NS__FREE && w->ent[i].owner == (int32_t)conn) w->ent[i].owner = NS_NO_OWNER;
}

void ns_world_set_relevancy(ns_world *w, uint32_t conn, ns_relevancy_fn fn, void *ctx)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return;
    w->conn[conn].relevant = fn;
    w->conn[conn].ctx = ctx;
}

void ns_world_set_viewpoint(ns_world *w, uint32_t conn, float x, float y, float z)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used) return;
    float *v = w->conn[conn].view;
    v[0] = x, v[1] = y, v[2] = z;
}

bool ns_relevant_by_distance(const ns_world *w, uint32_t conn, ns_entity_id id, void *ctx)
{
    const ns__entity *e = alive(w, id);
    if (!e || !e->has_pos || !ctx) return true;
    float r = *(const float *)ctx;
    const float *v = w->conn[conn].view;
    float dx = e->pos[0] - v[0], dz = e->pos[2] - v[2];
    return dx * dx + dz * dz <= r * r;
}

/* ---- inspection ---- */

uint32_t ns_world_count(const ns_world *w)
{
    return w->alive;
}

size_t ns_world_memory(const ns_world *w)
{
    size_t n = sizeof *w + (size_t)w->cfg.max_entities * sizeof *w->ent;
    n += (size_t)w->npicks * (2 * sizeof *w->pick + sizeof *w->heap);
    n += (size_t)w->cfg.max_connections * sizeof *w->conn + w->scratch_cap + w->group_cap * sizeof *w->groups;
    n += ns__id_map_words(w->cfg.max_entities) * sizeof *w->free_ids + ns__idset_bytes(w->cfg.max_entities);
    for (uint32_t i = 0; i < w->id_end; i++) /* the ids past it are free */
        if (w->ent[i].state != NS__FREE)
            n += NS__LAYOUT_ROOM + w->ent[i].layout->size + NS_HISTORY_BYTES(w->ent[i].layout->size, w->cfg.history_depth);
    for (uint32_t c = 0; c < w->cfg.max_connections; c++)
        if (w->conn[c].used) {
            n += (size_t)w->conn[c].nlinks * sizeof(ns__link);
            for (uint32_t i = 0; w->conn[c].lists && i < ns__idlist_slots(w->cfg.history_depth); i++)
                n += sizeof *w->conn[c].lists + (size_t)w->conn[c].lists[i].cap * sizeof(uint32_t);
        }
    return n;
}

bool ns_world_client_holds(const ns_world *w, uint32_t conn, ns_entity_id e)
{
    if (conn >= w->cfg.max_connections || !w->conn[conn].used || e >= w->conn[conn].nlinks) return false;
    uint8_t s = w->conn[conn].links[e].state;
    return s == NS__SPAWNING || s == NS__LIVE || s == NS__DESPAWNING;
}

const void *ns_world_recorded(const ns_world *w, ns_entity_id id, uint32_t type, uint32_t tick)
{
    if (id >= w->cfg.max_entities || w->ent[id].state == NS__FREE) return NULL;
    const ns__entity *e = &w->ent[id];
    int32_t i = ns__layout_find(e->layout, w->schema, type);
    const uint8_t *s = i < 0 ? NULL : ns_history_get(&e->hist, tick);
    return s ? s + e->layout->off[i] : NULL;
}
