/* repl_harness.c — the simulated game of repl_harness.h. */
#include "repl_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rh_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

double rh_uniform(uint64_t *s)
{
    return (double)(rh_next(s) >> 11) / 9007199254740992.0;
}

static uint32_t delay(rh_link *l)
{
    uint32_t d = l->impair.latency;
    if (l->impair.jitter) d += (uint32_t)(rh_next(l->rng) % (l->impair.jitter + 1));
    if (l->impair.reorder > 0 && rh_uniform(l->rng) < l->impair.reorder) d += 1 + (uint32_t)(rh_next(l->rng) % 4);
    return d;
}

void rh_link_send(rh_link *l, const void *data, size_t len, uint32_t now)
{
    l->sent++;
    if (len > RH_MAX_PACKET) abort();
    int copies = 1 + (l->impair.duplicate > 0 && rh_uniform(l->rng) < l->impair.duplicate);
    if (l->impair.loss > 0 && rh_uniform(l->rng) < l->impair.loss) {
        l->lost++;
        copies--;
    }
    for (int i = 0; i < copies && l->n < RH_QUEUE; i++) {
        rh_datagram *d = &l->q[l->n++];
        d->due = now + delay(l);
        d->len = len;
        memcpy(d->data, data, len);
    }
}

uint32_t rh_link_take(rh_link *l, uint32_t now, rh_datagram *out, uint32_t max)
{
    uint32_t got = 0;
    for (uint32_t i = 0; i < l->n;) {
        if (l->q[i].due <= now && got < max) {
            out[got++] = l->q[i];
            l->q[i] = l->q[--l->n];
            l->delivered++;
        } else {
            i++;
        }
    }
    return got;
}

void rh_start(rh_game *g, ns_world_config cfg, uint32_t n, rh_impair impair, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->rng = seed | 1;
    if (!cfg.schema) cfg.schema = &rt_schema;
    ns_status st;
    g->world = ns_world_create(&cfg, &st);
    if (!g->world) fprintf(stderr, "ns_world_create: %s\n", ns_status_str(st)), abort();
    g->nclients = n;
    g->max_entities = cfg.max_entities;
    for (uint32_t c = 0; c < n; c++) {
        if (ns_world_connect(g->world, &g->conn[c]) != NS_OK) abort();
        ns_handshake h = ns_world_handshake(g->world, g->conn[c]);
        ns_replica_config rc = {0};
        if (ns_handshake_accept(&h, cfg.schema, &rc, NULL, 0) != NS_OK) abort();
        g->replica[c] = ns_replica_create(&rc, &st);
        if (!g->replica[c]) abort();
        g->down[c].impair = g->up[c].impair = impair;
        g->down[c].rng = g->up[c].rng = &g->rng;
    }
}

ns_status rh_ack(ns_world *w, uint32_t conn, const ns_replica *r)
{
    uint8_t buf[32];
    ns_writer aw;
    ns_writer_init(&aw, buf, sizeof buf);
    ns_replica_write_ack(r, &aw);
    ns_reader ar;
    ns_reader_init(&ar, buf, ns_writer_flush(&aw));
    return ns_world_read_ack(w, conn, &ar);
}

rh_game *rh_new(ns_world_config cfg, uint32_t n, rh_impair impair, uint64_t seed)
{
    rh_game *g = malloc(sizeof *g);
    if (!g) abort();
    if (!cfg.max_entities) cfg.max_entities = 64;
    if (!cfg.max_connections) cfg.max_connections = 8;
    rh_start(g, cfg, n, impair, seed);
    return g;
}

void rh_free(rh_game *g)
{
    rh_stop(g);
    free(g);
}

bool rh_config_refused(uint32_t packet_format, uint32_t short_tick_bits, bool compact_acks)
{
    ns_world_config w = {.schema = &rt_schema, .max_entities = 4, .max_connections = 1, .packet_format = packet_format,
                         .short_tick_bits = short_tick_bits, .compact_acks = compact_acks};
    ns_replica_config r = {.schema = &rt_schema, .max_entities = 4, .history_depth = NS_REPL_DEFAULT_DEPTH,
                           .reorder_window = NS_REPL_DEFAULT_REORDER, .packet_format = packet_format,
                           .short_tick_bits = short_tick_bits, .compact_acks = compact_acks};
    ns_status ws = NS_OK, rs = NS_OK;
    ns_world *world = ns_world_create(&w, &ws);
    ns_replica *replica = ns_replica_create(&r, &rs);
    ns_world_destroy(world);
    ns_replica_destroy(replica);
    return !world && !replica && ws == NS_ERR_ARGUMENT && rs == NS_ERR_ARGUMENT;
}

void rh_stop(rh_game *g)
{
    for (uint32_t c = 0; c < g->nclients; c++) ns_replica_destroy(g->replica[c]);
    ns_world_destroy(g->world);
}

void rh_step(rh_game *g)
{
    uint8_t buf[RH_MAX_PACKET];
    rh_datagram *got = g->scratch;
    g->tick++;
    ns_world_tick(g->world, g->tick);
    for (uint32_t c = 0; c < g->nclients; c++) {
        size_t len = 0;
        if (ns_world_write_packet(g->world, g->conn[c], buf, sizeof buf, &len, &g->last[c]) != NS_OK) abort();
        g->bits_down[c] += g->last[c].bits;
        rh_link_send(&g->down[c], buf, len, g->tick);
    }
    for (uint32_t c = 0; c < g->nclients; c++) {
        uint32_t n = rh_link_take(&g->down[c], g->tick, got, RH_QUEUE);
        bool any = false;
        for (uint32_t i = 0; i < n; i++) {
            ns_status st = ns_replica_read_packet(g->replica[c], got[i].data, got[i].len);
            if (st == NS_OK) any = true;
            else if (st != NS_ERR_STALE) g->read_errors++;
        }
        if (any) {
            ns_writer w;
            ns_writer_init(&w, buf, sizeof buf);
            ns_replica_write_ack(g->replica[c], &w);
            g->bits_up[c] += ns_writer_bits(&w);
            size_t len = ns_writer_flush(&w);
            rh_link_send(&g->up[c], buf, len, g->tick);
        }
        n = rh_link_take(&g->up[c], g->tick, got, RH_QUEUE);
        for (uint32_t i = 0; i < n; i++) {
            ns_reader r;
            ns_reader_init(&r, got[i].data, got[i].len);
            if (ns_world_read_ack(g->world, g->conn[c], &r) != NS_OK) g->read_errors++;
        }
    }
}

/* The bits a full write of snap puts on the wire for audience `to`: what the client sees. */
static size_t visible(const ns_component_ops *ops, const void *snap, ns_audience to, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ops->write(&w, snap, NULL, to);
    size_t bits = ns_writer_bits(&w);
    ns_writer_flush(&w);
    return bits;
}

static bool same_view(const ns_component_ops *ops, const void *a, const void *b, ns_audience to)
{
    uint8_t x[512], y[512];
    memset(x, 0, sizeof x), memset(y, 0, sizeof y);
    size_t nx = visible(ops, a, to, x, sizeof x), ny = visible(ops, b, to, y, sizeof y);
    return nx == ny && memcmp(x, y, (nx + 7) / 8) == 0;
}

bool rh_consistent(const rh_game *g, uint32_t c, char *why, size_t why_size)
{
    const ns_schema *s = &rt_schema;
    const ns_replica *r = g->replica[c];
    for (ns_entity_id e = 0; e < g->max_entities; e++) {
        if (!ns_replica_has(r, e)) continue;
        ns_audience to = ns_replica_is_owner(r, e) ? NS_TO_OWNER : NS_TO_OBSERVER;
        for (uint32_t k = 0; k < s->component_count; k++) {
            uint32_t type = s->components[k].desc->id, tick;
            const void *mine = ns_replica_snap(r, e, type, &tick);
            if (!mine) continue;
            const void *theirs = ns_world_recorded(g->world, e, type, tick);
            if (!theirs) continue; /* no longer in the server's history: checked by rh_settled */
            if (!same_view(&s->components[k], mine, theirs, to)) {
                snprintf(why, why_size, "client %u entity %u component %s differs at tick %u", c, e,
                         s->components[k].desc->name, tick);
                return false;
            }
        }
    }
    return true;
}

bool rh_settled(const rh_game *g, uint32_t c, char *why, size_t why_size)
{
    const ns_schema *s = &rt_schema;
    const ns_replica *r = g->replica[c];
    for (ns_entity_id e = 0; e < g->max_entities; e++) {
        bool server = ns_world_alive(g->world, e) && ns_world_client_holds(g->world, g->conn[c], e);
        if (server != ns_replica_has(r, e)) {
            snprintf(why, why_size, "client %u %s entity %u", c, server ? "lacks" : "still holds", e);
            return false;
        }
        if (!server) continue;
        ns_audience to = ns_world_owner(g->world, e) == (int32_t)g->conn[c] ? NS_TO_OWNER : NS_TO_OBSERVER;
        if (ns_replica_is_owner(r, e) != (to == NS_TO_OWNER)) {
            snprintf(why, why_size, "client %u has the wrong audience for entity %u", c, e);
            return false;
        }
        for (uint32_t k = 0; k < s->component_count; k++) {
            uint32_t type = s->components[k].desc->id, tick;
            const void *mine = ns_replica_snap(r, e, type, &tick);
            const void *theirs = ns_world_recorded(g->world, e, type, g->tick);
            if (!mine != !theirs || (mine && !same_view(&s->components[k], mine, theirs, to))) {
                snprintf(why, why_size, "client %u entity %u component %s is not the server's newest state", c, e,
                         s->components[k].desc->name);
                return false;
            }
        }
    }
    return true;
}
