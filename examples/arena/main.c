/* main.c — the arena example: a server and N clients, each a thread of this process, replicate
 * players and NPCs over UDP on 127.0.0.1 for a number of ticks, in lockstep but as fast as the
 * machine goes; then a report, and exit status 0 only if every check passed.
 *
 *   arena [--clients N] [--ticks N] [--loss PERCENT] [--seed N] */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"

typedef struct options {
    unsigned long clients, ticks, loss, seed;
} options;

/* Every thread waits here twice a tick: the clients' half of a tick (read snapshots, send
 * inputs) and the server's half (read inputs, simulate, send snapshots) never overlap. That is
 * what lets a client compare what it decoded with the server's memory: the server is waiting. */
typedef struct lockstep {
    pthread_mutex_t mutex;
    pthread_cond_t  cond;
    unsigned        parties, waiting, round;
} lockstep;

static void lockstep_wait(lockstep *l)
{
    pthread_mutex_lock(&l->mutex);
    unsigned round = l->round;
    if (++l->waiting == l->parties) {
        l->waiting = 0, l->round++;
        pthread_cond_broadcast(&l->cond);
    }
    while (round == l->round) pthread_cond_wait(&l->cond, &l->mutex);
    pthread_mutex_unlock(&l->mutex);
}

/* One thread: the server (srv) or one client (cl). */
typedef struct role {
    lockstep      *step;
    unsigned long  ticks;
    server        *srv;
    client        *cl;
} role;

static void *run(void *arg)
{
    role *r = arg;
    for (uint32_t t = 1; t <= r->ticks; t++) {
        if (r->cl) client_tick(r->cl, t);
        lockstep_wait(r->step);
        if (r->srv) server_tick(r->srv, t);
        lockstep_wait(r->step);
    }
    if (r->cl) client_finish(r->cl);
    return NULL;
}

/* ---- the report -------------------------------------------------------------------------- */

static void add_client(client_stats *sum, const client_stats *s)
{
    sum->decoded += s->decoded, sum->stale += s->stale, sum->missing_baseline += s->missing_baseline;
    sum->malformed += s->malformed, sum->checked += s->checked, sum->mismatches += s->mismatches;
    sum->unchecked += s->unchecked, sum->leaks += s->leaks, sum->hp_hooks += s->hp_hooks;
    sum->item_adds += s->item_adds, sum->item_removes += s->item_removes;
    sum->item_changes += s->item_changes, sum->hotbar_hooks += s->hotbar_hooks;
    sum->foreign_inventory_hooks += s->foreign_inventory_hooks;
    sum->inventory_mismatch += s->inventory_mismatch, sum->interpolated += s->interpolated;
    sum->rpcs_sent += s->rpcs_sent, sum->rpcs_confirmed += s->rpcs_confirmed;
}

static void add_net(net_stats *sum, const net_stats *s)
{
    sum->sent += s->sent, sum->dropped += s->dropped, sum->received += s->received;
    sum->bytes += s->bytes, sum->errors += s->errors;
    if (s->max_bytes > sum->max_bytes) sum->max_bytes = s->max_bytes;
}

static double ratio(unsigned long a, unsigned long b)
{
    return b ? (double)a / (double)b : 0.0;
}

static void print_link(const char *name, const net_stats *n, const options *o)
{
    double per_second = ratio(n->bytes, o->ticks * o->clients) * GAME_RATE;
    printf("  %-18s %8lu %8lu %9lu %10.1f %10lu   %6.0f B/s (%.1f kbit/s)\n", name, n->sent, n->dropped,
           n->received, ratio(n->bytes, n->sent), n->max_bytes, per_second, per_second * 8 / 1000);
}

/* Everything counted during the run, summed over the threads. */
typedef struct totals {
    server_stats s;
    client_stats c;
    net_stats    down, up;    /* server -> clients, clients -> server */
    unsigned long writes;     /* entity writes */
} totals;

static totals gather(const options *o, const server *srv, client *const *cl)
{
    totals t;
    memset(&t, 0, sizeof t);
    t.s = *server_get_stats(srv);
    t.down = *server_net(srv);
    for (unsigned long i = 0; i < o->clients; i++) add_client(&t.c, client_get_stats(cl[i])), add_net(&t.up, client_net(cl[i]));
    /* Each socket counted what it sent and what it received: swap the received counts. */
    t.down.received = t.up.received, t.up.received = server_net(srv)->received;
    t.writes = t.s.writes[0] + t.s.writes[1] + t.s.writes[2] + t.s.writes[3];
    return t;
}

static void print_numbers(const options *o, const totals *t, double seconds)
{
    const server_stats *s = &t->s;
    const client_stats *c = &t->c;
    printf("arena: %lu clients, %d NPCs, %lu ticks (%.1f s at %d Hz), %lu%% loss each way, seed %lu\n", o->clients,
           GAME_NPCS, o->ticks, (double)o->ticks / GAME_RATE, GAME_RATE, o->loss, o->seed);
    printf("ran in %.2f s: UDP on 127.0.0.1, the server and each client a thread, in lockstep\n\n", seconds);
    printf("  %-18s %8s %8s %9s %10s %10s   %s\n", "datagrams", "written", "dropped", "received", "avg bytes",
           "max bytes", "per client at 60 Hz");
    print_link("server -> clients", &t->down, o);
    print_link("clients -> server", &t->up, o);
    printf("\n  entity writes %lu, by baselines used: 0: %lu  1: %lu  2: %lu  3: %lu\n", t->writes, s->writes[0],
           s->writes[1], s->writes[2], s->writes[3]);
    printf("  average bits per write: Transform %.1f, Health %.1f, Inventory %.1f to its owner, %.1f to others\n",
           ratio(s->bits_transform, t->writes), ratio(s->bits_health, t->writes),
           ratio(s->bits_inventory_owner, s->owner_writes), ratio(s->bits_inventory_observer, s->observer_inventory_writes));
    printf("  entity states left for a later datagram (%d-byte limit): %lu\n", WIRE_MAX_DATAGRAM, s->deferred);
    printf("  server: items added %lu, changed %lu, removed %lu; hotbars rearranged %lu; UseItem applied %lu (%lu too late)\n",
           s->item_adds, s->item_changes, s->item_removes, s->hotbar_changes, s->rpcs_applied + s->rpcs_gone, s->rpcs_gone);
    printf("  clients: datagrams decoded %lu (%lu stale), entity frames interpolated %lu, UseItem sent %lu\n", c->decoded,
           c->stale, c->interpolated, c->rpcs_sent);
    printf("  client hooks: hp %lu; items added %lu, removed %lu, changed %lu; hotbar %lu\n\n", c->hp_hooks,
           c->item_adds, c->item_removes, c->item_changes, c->hotbar_hooks);
}

/* Prints one check's line; returns 1 if it failed. */
static int verdict(bool ok, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    printf("  %-6s ", ok ? "ok" : "FAILED");
    vprintf(format, ap);
    printf("\n");
    va_end(ap);
    return ok ? 0 : 1;
}

/* The checks; returns how many failed. */
static int print_checks(const totals *t)
{
    const server_stats *s = &t->s;
    const client_stats *c = &t->c;
    const net_stats *down = &t->down, *up = &t->up;
    unsigned long applied = s->rpcs_applied + s->rpcs_gone, errors = down->errors + up->errors;
    unsigned long lost = (down->sent - down->dropped - down->received) + (up->sent - up->dropped - up->received);
    int failed = 0;
    failed += verdict(c->mismatches == 0 && c->unchecked == 0 && c->checked > 0,
                      "every entity state decoded equals the server's snapshot of its tick (%lu of %lu, %lu unchecked)",
                      c->checked - c->mismatches, c->checked, c->unchecked);
    failed += verdict(c->leaks == 0 && c->foreign_inventory_hooks == 0 && s->bits_inventory_observer == 0,
                      "no client saw another player's inventory (%lu items, %lu hooks, %lu bits in %lu writes)",
                      c->leaks, c->foreign_inventory_hooks, s->bits_inventory_observer, s->observer_inventory_writes);
    failed += verdict(c->malformed + c->missing_baseline + s->bad_datagrams + s->failures == 0 && c->decoded > 0,
                      "every datagram decoded (%lu malformed, %lu missing a baseline, %lu bad inputs)", c->malformed,
                      c->missing_baseline, s->bad_datagrams);
    failed += verdict(down->max_bytes <= WIRE_MAX_DATAGRAM && up->max_bytes <= WIRE_MAX_DATAGRAM,
                      "no datagram over %d bytes (largest %lu)", WIRE_MAX_DATAGRAM,
                      down->max_bytes > up->max_bytes ? down->max_bytes : up->max_bytes);
    failed += verdict(c->inventory_mismatch == 0 && c->item_adds > 0,
                      "fast-array hooks add up to each client's inventory (%lu clients off)", c->inventory_mismatch);
    failed += verdict(c->rpcs_confirmed <= applied && applied <= c->rpcs_sent,
                      "each UseItem applied once: acked %lu <= applied %lu <= sent %lu", c->rpcs_confirmed, applied,
                      c->rpcs_sent);
    failed += verdict(lost == 0 && errors == 0,
                      "every datagram not dropped on purpose arrived (%lu lost, %lu send errors)", lost, errors);
    printf("%s\n", failed ? "SOME CHECKS FAILED" : "all checks passed");
    return failed;
}

/* ---- options and threads ----------------------------------------------------------------- */

static bool parse(int argc, char **argv, options *o)
{
    *o = (options){3, 600, 10, 1};
    for (int i = 1; i < argc; i++) {
        unsigned long *v = !strcmp(argv[i], "--clients") ? &o->clients
                         : !strcmp(argv[i], "--ticks")   ? &o->ticks
                         : !strcmp(argv[i], "--loss")    ? &o->loss
                         : !strcmp(argv[i], "--seed")    ? &o->seed
                                                         : NULL;
        char *end;
        if (!v || i + 1 == argc) return false;
        *v = strtoul(argv[++i], &end, 10);
        if (*end || end == argv[i]) return false;
    }
    return o->clients >= 1 && o->clients <= GAME_MAX_CLIENTS && o->ticks >= 1 && o->ticks <= 1000000 && o->loss <= 99;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o)) {
        fprintf(stderr, "usage: arena [--clients 1..%d] [--ticks N] [--loss 0..99] [--seed N]\n", GAME_MAX_CLIENTS);
        return 2;
    }
    unsigned n = (unsigned)o.clients, loss = (unsigned)o.loss;
    server *srv = server_create(n, loss, o.seed);
    client *cl[GAME_MAX_CLIENTS] = {NULL};
    for (unsigned i = 0; srv && i < n; i++)
        if (!(cl[i] = client_create(i, n, server_port(srv), srv, loss, o.seed * 1000 + i + 1))) break;
    if (!srv || !cl[n - 1]) {
        fprintf(stderr, "arena: cannot open UDP sockets on 127.0.0.1\n");
        return 1;
    }

    lockstep step = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, n + 1, 0, 0};
    role roles[GAME_MAX_CLIENTS + 1];
    pthread_t threads[GAME_MAX_CLIENTS + 1];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; i <= n; i++) {
        roles[i] = (role){&step, o.ticks, i == n ? srv : NULL, i < n ? cl[i] : NULL};
        if (pthread_create(&threads[i], NULL, run, &roles[i]) != 0) {
            fprintf(stderr, "arena: cannot start a thread\n");
            return 1;
        }
    }
    for (unsigned i = 0; i <= n; i++) pthread_join(threads[i], NULL);
    server_finish(srv);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    totals t = gather(&o, srv, cl);
    print_numbers(&o, &t, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    int failed = print_checks(&t);
    for (unsigned i = 0; i < n; i++) client_destroy(cl[i]);
    server_destroy(srv);
    return failed ? 1 : 0;
}
