/* main.c — the arena example: a server and N clients replicate players, NPCs and projectiles
 * over simulated links that lose, reorder, duplicate and delay datagrams, one tick after the
 * other in one thread; then a report, and exit status 0 only if every check passed.
 *
 * The end of a run is quiet: the links are honest for the last quiet_ticks() ticks (60, more on a
 * link slow enough that a lost message's resend would not land in 60), and for
 * the last GAME_PAUSE_TICKS of them the game pauses (nothing moves, spawns or talks), so that
 * replication settles and the checks can ask for exactly the server's state, every despawn
 * acked and every rpc delivered, and each client's predicted player to be exactly the server's.
 *
 *   arena [--clients N] [--ticks N] [--budget BYTES] [--seed N]
 *         [--loss P] [--reorder P] [--duplicate P] [--latency TICKS] [--jitter TICKS]
 *         [--dump N] [--profile] [--format 1..5] [--spawn-resend K|auto] [--short-tick-bits B] [--calm]
 *         [--compact-acks] [--quiet-frames] [--short-input-ticks]
 *
 * --dump N prints client 0's first N snapshot packets field by field with their bits
 * (ns_dump_repl_packet); --profile prints the server's per-field bandwidth profile at exit
 * (ns_profile_report), in a build with NS_PROFILE: the arena_profile target, or any target of
 * a build configured with -DNETSCHEMA_PROFILE=ON. --format picks the snapshot packet format
 * (docs/replication.md section 2): 3 by default; 4, format 3 with sections that stay short when
 * acks come back several ticks late; 5, format 4 whose steady packets may change which component
 * types they carry (the most compact); 2, format 3's predecessor; 1, the original.
 * --spawn-resend K sends an unacked spawn's copies K ticks apart instead of in every packet
 * (ns_world_config.spawn_resend_ticks; 0, the default: every packet; auto: a quarter of each
 * connection's round trip, NS_SPAWN_RESEND_AUTO). --short-tick-bits B
 * sets ns_world_config.short_tick_bits (0, the default: derived from the reorder window). --calm
 * plays the moving half of the game: players and NPCs walk, nobody fires, bites or uses items,
 * and inventories stay as they spawned (chat goes on: it is not in the snapshot). --compact-acks
 * has the clients ack in a short tick and the ticks the server may not know yet
 * (ns_world_config.compact_acks; formats 2 to 5) instead of 64 bits. --quiet-frames leaves the
 * reliable frame empty while it has no rpc and its ack header went out 3 times unchanged
 * (ns_reliable_config.quiet_after). --short-input-ticks sends the first tick of an input packet
 * as its low 16 bits once the client has an ack (ns_inputs_config.short_ticks). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"

/* ---- options ---------------------------------------------------------------------------- */

typedef struct option_spec {
    const char *name;
    unsigned    min, max;
    size_t      offset; /* of the unsigned in options */
} option_spec;

static const option_spec SPECS[] = {
    {"--clients", 1, GAME_MAX_CLIENTS, offsetof(options, clients)},
    {"--npcs", 0, GAME_MAX_NPCS, offsetof(options, npcs)},
    {"--ticks", 2 * GAME_QUIET_TICKS, 1000000, offsetof(options, ticks)}, /* and 2 x quiet_ticks (parse) */
    {"--budget", DATAGRAM_MIN, DATAGRAM_MAX, offsetof(options, budget)},
    {"--loss", 0, 99, offsetof(options, impair.loss)},
    {"--reorder", 0, 100, offsetof(options, impair.reorder)},
    {"--duplicate", 0, 100, offsetof(options, impair.duplicate)},
    {"--latency", 0, 30, offsetof(options, impair.latency)},
    {"--jitter", 0, 8, offsetof(options, impair.jitter)},
    {"--spawn-resend", 0, 64, offsetof(options, spawn_resend)},
    {"--short-tick-bits", 0, 16, offsetof(options, short_tick_bits)},
    {"--dump", 0, 1000000, offsetof(options, dump)},
    {"--format", NS_PACKET_FORMAT_1, NS_PACKET_FORMAT_5, offsetof(options, format)},
};

/* The --profile counters: main owns them, the server's writers count into them. */
static ns_profile profile_store;

static bool parse(int argc, char **argv, options *o)
{
    *o = (options){.clients = 3, .npcs = GAME_NPCS, .ticks = 600, .budget = 1200, .seed = 1, .impair = {.loss = 10},
                   .format = NS_PACKET_FORMAT_3};
    for (int i = 1; i < argc; i += 2) {
        const bool profile = !strcmp(argv[i], "--profile"), calm = !strcmp(argv[i], "--calm");
        const bool compact_acks = !strcmp(argv[i], "--compact-acks"), quiet = !strcmp(argv[i], "--quiet-frames");
        const bool short_inputs = !strcmp(argv[i], "--short-input-ticks");
        if (profile || calm || compact_acks || quiet || short_inputs) { /* the options without a value */
            if (profile) o->profile = &profile_store;
            o->calm = o->calm || calm;
            o->compact_acks = o->compact_acks || compact_acks;
            o->quiet_frames = o->quiet_frames || quiet;
            o->short_input_ticks = o->short_input_ticks || short_inputs;
            i--;
            continue;
        }
        if (i + 1 == argc) return false;
        if (!strcmp(argv[i], "--spawn-resend") && !strcmp(argv[i + 1], "auto")) {
            o->spawn_resend = NS_SPAWN_RESEND_AUTO;
            continue;
        }
        char *end;
        unsigned long v = strtoul(argv[i + 1], &end, 10);
        if (*end || end == argv[i + 1]) return false;
        if (!strcmp(argv[i], "--seed")) {
            o->seed = v;
            continue;
        }
        const option_spec *spec = NULL;
        for (size_t k = 0; k < sizeof SPECS / sizeof *SPECS; k++)
            if (!strcmp(argv[i], SPECS[k].name)) spec = &SPECS[k];
        if (!spec || v < spec->min || v > spec->max) return false;
        *(unsigned *)((char *)o + spec->offset) = (unsigned)v;
    }
    if (o->short_tick_bits != 0 && o->short_tick_bits < 6) { /* the default reorder window's 6 at least */
        fprintf(stderr, "arena: --short-tick-bits %u is too few: 0 (derived, 6) or 6..16\n", o->short_tick_bits);
        return false;
    }
    if (o->compact_acks && o->format < NS_PACKET_FORMAT_2) {
        fprintf(stderr, "arena: --compact-acks needs --format 2 or later\n");
        return false;
    }
    if (o->ticks < 2 * quiet_ticks(&o->impair)) {
        fprintf(stderr, "arena: --ticks %u is too short for this link: at least %u, twice its honest end\n", o->ticks,
                2 * quiet_ticks(&o->impair));
        return false;
    }
    return true;
}

static void usage(void)
{
    fprintf(stderr, "usage: arena [--clients 1..%d] [--npcs 0..%d] [--ticks %d..] [--budget %d..%d] [--seed N]\n"
                    "             [--loss 0..99] [--reorder 0..100] [--duplicate 0..100] [--latency 0..30]"
                    " [--jitter 0..8]\n"
                    "             [--dump N] [--profile] [--format 1..5] [--spawn-resend 0..64|auto]"
                    " [--short-tick-bits 0..16] [--calm]\n"
                    "             [--compact-acks] [--quiet-frames] [--short-input-ticks]\n",
            GAME_MAX_CLIENTS, GAME_MAX_NPCS, 2 * GAME_QUIET_TICKS, DATAGRAM_MIN, DATAGRAM_MAX);
}

/* ---- the run ---------------------------------------------------------------------------- */

typedef struct game {
    options     o;
    impairment  now;                     /* what every link does at the moment */
    link        up[GAME_MAX_CLIENTS], down[GAME_MAX_CLIENTS];
    rpc_log     log_up[GAME_MAX_CLIENTS], log_down[GAME_MAX_CLIENTS];
    input_log   inputs[GAME_MAX_CLIENTS];
    server     *srv;
    client     *cl[GAME_MAX_CLIENTS];
    char        settle_why[GAME_MAX_CLIENTS][160];
    unsigned    unsettled;
    char        predict_why[GAME_MAX_CLIENTS][160];
    unsigned    mispredicted;            /* clients whose predicted player is not the server's at the end */
    char        refusal[256];            /* a client of another schema, refused */
    ns_status   refusal_status;
} game;

static bool start(game *g)
{
    g->now = g->o.impair;
    for (unsigned c = 0; c < g->o.clients; c++) {
        link_init(&g->up[c], &g->now, g->o.seed * 7919 + 2 * c + 1);
        link_init(&g->down[c], &g->now, g->o.seed * 7919 + 2 * c + 2);
    }
    g->srv = server_create(&g->o, g->up, g->down, g->log_up, g->log_down, g->inputs);
    for (unsigned c = 0; g->srv && c < g->o.clients; c++)
        if (!(g->cl[c] = client_create(c, &g->o, &g->up[c], &g->down[c], &g->log_up[c], &g->log_down[c],
                                       &g->inputs[c], server_world(g->srv), server_conn(g->srv, c))))
            return false;
    return g->srv != NULL;
}

/* What a client built from another version of the schema does with this server's handshake. */
static void try_other_schema(game *g)
{
    ns_handshake h = ns_world_handshake(server_world(g->srv), server_conn(g->srv, 0));
    ns_schema older = arena_schema;
    older.hash ^= UINT64_C(0x5eed); /* stands in for any change to arena.netschema */
    ns_replica_config rc = {0};
    g->refusal_status = client_accept_handshake(&h, &older, &rc, g->refusal, sizeof g->refusal);
}

static void run(game *g)
{
    uint32_t quiet = g->o.ticks - quiet_ticks(&g->o.impair);
    for (uint32_t t = 1; t <= g->o.ticks; t++) {
        if (t == quiet + 1) g->now = (impairment){0}; /* an honest link from here on */
        server_tick(g->srv, t);
        for (unsigned c = 0; c < g->o.clients; c++) client_tick(g->cl[c], t);
    }
    server_receive(g->srv, g->o.ticks); /* the clients' last acks */
    for (unsigned c = 0; c < g->o.clients; c++)
        if (!client_settled(g->cl[c], g->o.ticks, g->settle_why[c], sizeof g->settle_why[c])) g->unsettled++;
    for (unsigned c = 0; c < g->o.clients; c++)
        if (!client_prediction_settled(g->cl[c], g->o.ticks, g->predict_why[c], sizeof g->predict_why[c]))
            g->mispredicted++;
}

static void stop(game *g)
{
    for (unsigned c = 0; c < g->o.clients; c++) {
        client_destroy(g->cl[c]);
        link_free(&g->up[c]), link_free(&g->down[c]);
        rpc_log_free(&g->log_up[c]), rpc_log_free(&g->log_down[c]), input_log_free(&g->inputs[c]);
    }
    server_destroy(g->srv);
}

/* ---- the report ------------------------------------------------------------------------- */

static double ratio(double a, double b)
{
    return b != 0 ? a / b : 0.0;
}

static double kbits(const game *g, unsigned long bytes)
{
    return ratio((double)bytes * 8 / 1000, (double)g->o.ticks / GAME_RATE);
}

/* Everything counted, summed over the clients and the links. */
typedef struct totals {
    client_stats c;
    link_stats   down, up;
    unsigned long inputs_due;   /* inputs pushed for ticks the server has taken */
    unsigned long rpcs_sent, rpcs_delivered, rpcs_wrong;
    unsigned      handshakes;   /* clients that accepted the server's handshake */
    unsigned long inputs_applied, inputs_wrong, inputs_twice;
} totals;

static void add_link(link_stats *sum, const link_stats *l)
{
    sum->sent += l->sent, sum->lost += l->lost, sum->duplicated += l->duplicated;
    sum->delivered += l->delivered, sum->overflows += l->overflows, sum->bytes += l->bytes;
    if (l->max_bytes > sum->max_bytes) sum->max_bytes = l->max_bytes;
}

static void add_client(client_stats *sum, const client_stats *s)
{
    sum->datagrams += s->datagrams, sum->bad_datagrams += s->bad_datagrams, sum->refused += s->refused;
    sum->stale += s->stale, sum->checked += s->checked, sum->mismatches += s->mismatches;
    sum->leaks += s->leaks, sum->wrong_audience += s->wrong_audience, sum->spawns += s->spawns;
    sum->despawns += s->despawns, sum->hp_hooks += s->hp_hooks, sum->item_adds += s->item_adds;
    sum->item_removes += s->item_removes, sum->item_changes += s->item_changes;
    sum->hotbar_hooks += s->hotbar_hooks, sum->foreign_inventory_hooks += s->foreign_inventory_hooks;
    sum->inventory_mismatch += s->inventory_mismatch, sum->interpolated += s->interpolated;
    sum->held += s->held, sum->playback_backwards += s->playback_backwards;
    sum->inputs_pushed += s->inputs_pushed, sum->input_ack_errors += s->input_ack_errors;
    sum->use_items_sent += s->use_items_sent, sum->chats_sent += s->chats_sent;
    sum->chat_lines += s->chat_lines, sum->rpc_window_full += s->rpc_window_full;
    sum->uplink_bytes_rpc += s->uplink_bytes_rpc;
}

static totals gather(game *g)
{
    totals t;
    memset(&t, 0, sizeof t);
    uint32_t taken = g->o.ticks - input_delay(&g->o.impair);
    for (unsigned c = 0; c < g->o.clients; c++) {
        const client_stats *cs = client_get_stats(g->cl[c]);
        add_client(&t.c, cs);
        t.handshakes += cs->handshake_ok;
        t.inputs_applied += g->inputs[c].applied, t.inputs_wrong += g->inputs[c].wrong;
        t.inputs_twice += g->inputs[c].twice;
        add_link(&t.down, &g->down[c].stats), add_link(&t.up, &g->up[c].stats);
        t.inputs_due += client_inputs_upto(g->cl[c], taken);
        const rpc_log *logs[2] = {&g->log_up[c], &g->log_down[c]};
        for (int k = 0; k < 2; k++)
            t.rpcs_sent += logs[k]->count, t.rpcs_delivered += logs[k]->delivered, t.rpcs_wrong += logs[k]->wrong;
    }
    return t;
}

static void print_header(const game *g, double seconds)
{
    const impairment *im = &g->o.impair;
    printf("arena: %u clients, %u NPCs, %u ticks (%.1f s at %d Hz), budget %u bytes, seed %llu, packet format %u%s\n",
           g->o.clients, g->o.npcs, g->o.ticks, (double)g->o.ticks / GAME_RATE, GAME_RATE, g->o.budget,
           (unsigned long long)g->o.seed, g->o.format, g->o.calm ? ", calm (nobody fires, bites or uses items)" : "");
    printf("links, each way: %u%% loss, %u%% reordered, %u%% duplicated, latency %u + jitter 0..%u ticks;"
           " honest for the last %u ticks\n",
           im->loss, im->reorder, im->duplicate, im->latency, im->jitter, quiet_ticks(im));
    printf("simulated in one thread in %.2f s\n\n", seconds);
}

static void print_clients(game *g)
{
    printf("  %-9s %12s %10s %7s %9s %11s %10s\n", "", "down kbit/s", "up kbit/s", "spawns", "despawns", "chat lines",
           "rpcs sent");
    for (unsigned c = 0; c < g->o.clients; c++) {
        const client_stats *s = client_get_stats(g->cl[c]);
        printf("  client %-2u %12.1f %10.1f %7lu %9lu %11lu %10u\n", c, kbits(g, g->down[c].stats.bytes),
               kbits(g, g->up[c].stats.bytes), s->spawns, s->despawns, s->chat_lines, g->log_up[c].count);
    }
}

static void print_numbers(game *g, const totals *t)
{
    const server_stats *s = server_get_stats(g->srv);
    const client_stats *c = &t->c;
    double down_bits = (double)t->down.bytes * 8, component_bits = (double)(s->snapshot_bits - s->framing_bits);
    print_clients(g);
    printf("\n  datagrams      sent   lost  duplicated  avg bytes  largest\n");
    printf("  down       %7lu %6lu %11lu %10.1f %8lu\n", t->down.sent, t->down.lost, t->down.duplicated,
           ratio((double)t->down.bytes, (double)t->down.sent), t->down.max_bytes);
    printf("  up         %7lu %6lu %11lu %10.1f %8lu\n", t->up.sent, t->up.lost, t->up.duplicated,
           ratio((double)t->up.bytes, (double)t->up.sent), t->up.max_bytes);
    printf("\n  downlink bits: snapshots %.1f%% (of them framing %.1f%% in packet format %u: ns_repl_stats framing_bits / bits),"
           " reliable frames %.1f%%,\n", 100 * ratio((double)s->snapshot_bits, down_bits),
           100 * ratio((double)s->framing_bits, (double)s->snapshot_bits), g->o.format,
           100 * ratio((double)s->reliable_bytes * 8, down_bits));
    printf("    frame lengths %.1f%%, InputAck %.1f%%, padding %.1f%%;"
           " everything but component bits: %.1f%%\n", 100 * ratio((double)s->container_bytes * 8, down_bits),
           100 * ratio((double)s->input_ack_bits, down_bits), 100 * ratio((double)s->padding_bits, down_bits),
           100 * (1 - ratio(component_bits, down_bits)));
    printf("  snapshot records: %lu spawns, %lu despawns, %lu updates (%lu full states), %lu skipped unchanged,"
           " %lu deferred by the budget\n", s->spawn_records, s->despawn_records, s->update_records, s->full_states,
           s->skipped, s->deferred);
    printf("  projectiles: %lu fired, %lu hit, %lu expired\n", s->projectiles_fired, s->projectile_hits,
           s->projectiles_expired);
    printf("  rpcs: UseItem %lu sent, %lu applied, %lu too late; Chat %lu sent, relayed as %lu ChatLines;"
           " reliable frames up %.1f B, down %.1f B per datagram\n", c->use_items_sent, s->use_item_applied,
           s->use_item_gone, c->chats_sent, c->chat_lines, ratio((double)c->uplink_bytes_rpc, (double)t->up.sent),
           ratio((double)s->reliable_bytes, (double)t->down.sent));
    double streams = (double)s->input_streams;
    printf("  inputs: %lu taken of %lu due (%.2f%% in time), %lu ticks without one; uplink bit stream %.1f B:"
           " replica ack %.1f B, inputs and padding %.1f B\n", s->inputs_taken, t->inputs_due,
           100 * ratio((double)s->inputs_taken, (double)t->inputs_due), s->inputs_missing,
           ratio((double)s->input_bytes, streams), ratio((double)s->replica_ack_bits / 8, streams),
           ratio((double)s->input_bytes - (double)s->replica_ack_bits / 8, streams));
    printf("  clients: %lu snapshots applied, %lu stale; %lu entity frames interpolated, %lu waiting for playback;"
           " hooks: hp %lu, items +%lu -%lu ~%lu, hotbar %lu\n", c->datagrams, c->stale, c->interpolated, c->held,
           c->hp_hooks, c->item_adds, c->item_removes, c->item_changes, c->hotbar_hooks);
    const ns_timeline_stats *tl = &client_get_stats(g->cl[0])->timeline;
    printf("  client 0 net graph: %u states buffered, %.2f ticks ahead of playback at arrival (target %.1f),"
           " rate %.2f, %llu snaps\n\n", tl->entries, tl->drift, tl->delay, tl->rate, (unsigned long long)tl->snaps);
}

/* Per client, its own player's prediction: how often the server corrected it, and by how much
 * per field (ns_error_stats: mean and max over every server state compared with a prediction). */
static void print_prediction(game *g)
{
    printf("  prediction of each client's own player (inputs applied at once; rolled back and re-simulated"
           " when a server state differs):\n");
    for (unsigned c = 0; c < g->o.clients; c++) {
        const player_prediction *p = client_prediction(g->cl[c]);
        char title[200];
        snprintf(title, sizeof title, "  client %u: %lu server states compared, %lu rollbacks (%lu ticks re-simulated),"
                 " %lu taken before the first prediction, %lu older than the ring", c, p->compared, p->rollbacks,
                 p->resimulated, p->adopted, p->stale);
        ns_error_stats_print(&p->errors, title, stdout);
    }
    printf("\n");
}

/* Prints one check's line; returns 1 if it failed. */
static int verdict(bool ok, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    printf("  %-4s ", ok ? "ok" : "FAIL");
    vprintf(format, ap);
    printf("\n");
    va_end(ap);
    return ok ? 0 : 1;
}

/* The checks; returns how many failed. */
static int print_checks(game *g, const totals *t)
{
    const server_stats *s = server_get_stats(g->srv);
    const client_stats *c = &t->c;
    unsigned long refused = c->refused + c->bad_datagrams + s->bad_datagrams + s->bad_messages + s->bad_acks +
                            s->bad_inputs + c->input_ack_errors + s->write_errors + t->down.overflows + t->up.overflows;
    unsigned long window_full = s->rpc_window_full + c->rpc_window_full;
    if (refused)
        fprintf(stderr, "arena: refused: client snapshots %lu, datagrams %lu/%lu, rpcs %lu, acks %lu, inputs %lu,"
                        " input acks %lu, writes %lu, link overflows %lu\n", c->refused, c->bad_datagrams,
                s->bad_datagrams, s->bad_messages, s->bad_acks, s->bad_inputs, c->input_ack_errors, s->write_errors,
                t->down.overflows + t->up.overflows);
    int failed = 0;
    failed += verdict(t->handshakes == g->o.clients && g->refusal_status == NS_ERR_MISMATCH,
                      "handshake: %u of %u clients accepted it; a client of another schema refused it:\n"
                      "         \"%s\"", t->handshakes, g->o.clients, g->refusal);
    failed += verdict(c->mismatches == 0 && c->wrong_audience == 0 && c->checked > 0,
                      "every state a client holds equals the server's of that tick for its audience"
                      " (%lu compared, %lu differ, %lu audiences wrong)", c->checked, c->mismatches, c->wrong_audience);
    failed += verdict(c->leaks == 0 && c->foreign_inventory_hooks == 0,
                      "no client saw another player's inventory (%lu states, %lu hooks)", c->leaks,
                      c->foreign_inventory_hooks);
    failed += verdict(s->over_budget == 0 && t->down.max_bytes <= g->o.budget && t->up.max_bytes <= g->o.budget,
                      "every datagram within the %u-byte budget (largest down %lu, up %lu)", g->o.budget,
                      t->down.max_bytes, t->up.max_bytes);
    failed += verdict(t->rpcs_wrong == 0 && t->rpcs_delivered == t->rpcs_sent && window_full == 0,
                      "every reliable message delivered exactly once and in order (%lu of %lu, %lu out of place)",
                      t->rpcs_delivered, t->rpcs_sent, t->rpcs_wrong);
    failed += verdict(t->inputs_twice == 0 && t->inputs_wrong == 0 && t->inputs_applied == s->inputs_taken,
                      "every input applied is the client's of its tick, none twice (%lu applied, %lu twice, %lu wrong);"
                      " %.2f%% arrived in time", t->inputs_applied, t->inputs_twice, t->inputs_wrong,
                      100 * ratio((double)s->inputs_taken, (double)t->inputs_due));
    failed += verdict(c->playback_backwards == 0 && c->interpolated > 0,
                      "interpolation playback never went backwards (%lu frames)", c->interpolated);
    const char *why = "";
    for (unsigned k = 0; g->unsettled && k < g->o.clients; k++)
        if (g->settle_why[k][0]) fprintf(stderr, "arena: %s\n", why = g->settle_why[k]);
    failed += verdict(g->unsettled == 0,
                      "after %u honest ticks every client holds the server's newest state, every despawn acked%s%s",
                      quiet_ticks(&g->o.impair), g->unsettled ? ": " : "", why);
    unsigned long rollbacks = 0, compared = 0;
    for (unsigned k = 0; k < g->o.clients; k++)
        rollbacks += client_prediction(g->cl[k])->rollbacks, compared += client_prediction(g->cl[k])->compared;
    why = "";
    for (unsigned k = 0; g->mispredicted && k < g->o.clients; k++)
        if (g->predict_why[k][0]) fprintf(stderr, "arena: %s\n", why = g->predict_why[k]);
    failed += verdict(g->mispredicted == 0,
                      "every client's predicted player is exactly the server's at the end (%lu states compared,"
                      " %lu rollbacks)%s%s", compared, rollbacks, g->mispredicted ? ": " : "", why);
    failed += verdict(refused == 0, "no datagram or message refused (%lu), none lost but on purpose", refused);
    printf("%s\n", failed ? "SOME CHECKS FAILED" : "all checks passed");
    return failed;
}

int main(int argc, char **argv)
{
    static game g; /* big: keep it off the stack */
    if (!parse(argc, argv, &g.o)) {
        usage();
        return 2;
    }
    if (g.o.profile) {
        ns_writer probe;
        ns_writer_init(&probe, NULL, 0);
        if (!ns_writer_set_profile(&probe, g.o.profile)) {
            fprintf(stderr, "arena: --profile needs a build with NS_PROFILE: run arena_profile, or configure with "
                            "-DNETSCHEMA_PROFILE=ON\n");
            return 2;
        }
        ns_profile_init(g.o.profile);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!start(&g)) {
        fprintf(stderr, "arena: out of memory\n");
        return 1;
    }
    try_other_schema(&g);
    run(&g);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_header(&g, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    totals t = gather(&g);
    print_numbers(&g, &t);
    print_prediction(&g);
    int failed = print_checks(&g, &t);
    if (g.o.profile) {
        printf("\nper-field bandwidth of the records the server wrote into its datagrams (ns_profile_report):\n");
        ns_profile_report(g.o.profile, stdout);
        ns_profile_free(g.o.profile);
    }
    stop(&g);
    return failed ? 1 : 0;
}
