/* test_format2.c — the compact snapshot packets (formats 2 to 5, docs/replication.md section 2)
 * as a user sees them: chosen in the world's config and carried by the handshake, replicas that
 * match the server under loss, reordering and duplication, ticks read right when late or after a
 * long silence, hostile packets refused without a trace, exact bytes, and fewer framing bits
 * than format 1 (format 3: than format 2) in the same scene. Format 1's bytes do not depend on
 * any of it. Tests that loop take the format from _i: format 2 + (_i >> 1). */
#include <stdio.h>
#include <string.h>

#include <netschema/dump.h>

#include "ns_test.h"
#include "repl.ns.h"
#include "repl_harness.h"

#ifndef NS_HOSTILE_FLIPS
#define NS_HOSTILE_FLIPS 40 /* bit flips per packet in hostile_packets_change_nothing */
#endif

static const uint32_t body_health[] = {RT_BODY_ID, RT_HEALTH_ID};

static ns_entity_id spawn(rh_game *g, const uint32_t *types, uint32_t n)
{
    ns_entity_id id;
    ck_assert_int_eq(ns_world_spawn(g->world, types, n, &id), NS_OK);
    return id;
}

static void set_body(rh_game *g, ns_entity_id e, float x, float z)
{
    rt_Body b;
    rt_Body_init(&b);
    b.pos.x = x, b.pos.z = z;
    ck_assert_int_eq(ns_world_set(g->world, e, RT_BODY_ID, &b), NS_OK);
}

static void set_health(rh_game *g, ns_entity_id e, int32_t hp)
{
    rt_Health h;
    rt_Health_init(&h);
    h.hp = hp;
    ck_assert_int_eq(ns_world_set(g->world, e, RT_HEALTH_ID, &h), NS_OK);
}

/* One server tick whose packet for client 0 the test delivers itself (into pkt). */
static size_t tick_and_write(rh_game *g, uint8_t *pkt, size_t cap)
{
    size_t len = 0;
    g->tick++;
    ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], pkt, cap, &len, &g->last[0]), NS_OK);
    return len;
}

/* Whether a packet's tick is short: its first bit (formats 2 to 4); format 5's first bits '1',
 * '01' and '001' (docs/replication.md section 2, "Format 5"). */
static bool short_tick(const uint8_t *pkt, uint32_t format)
{
    if (format < NS_PACKET_FORMAT_5) return pkt[0] & 1u;
    return (pkt[0] & 7u) != 0;
}

static void ack(rh_game *g, uint32_t c)
{
    ck_assert_int_eq(rh_ack(g->world, g->conn[c], g->replica[c]), NS_OK);
}

/* One tick that arrives: the packet written, applied by client 0 and acked. Returns its length. */
static size_t deliver(rh_game *g, uint8_t *pkt, size_t cap)
{
    size_t len = tick_and_write(g, pkt, cap);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    ack(g, 0);
    return len;
}

/* ---- the handshake ---- */

START_TEST(handshake_carries_the_packet_format)
{
    uint8_t buf[32];
    ns_writer w;
    ns_reader r;
    ns_handshake back;
    for (uint32_t f = 0; f <= 5; f++) {
        rh_game *g = rh_new((ns_world_config){.packet_format = f, .entity_sizes = true}, 1, (rh_impair){0}, 1);
        ns_writer_init(&w, buf, sizeof buf);
        ns_handshake h = ns_world_handshake(g->world, g->conn[0]);
        ns_handshake_write(&w, &h);
        ck_assert_uint_eq(ns_writer_flush(&w), 24);
        /* Format 1 (0 or 1 in the config) is the handshake it always was: format byte 1, a zero. */
        ck_assert_uint_eq(buf[4], f >= 2 ? f : 1);
        ck_assert_uint_eq(buf[7], f >= 2 ? 1 : 0); /* formats 2-5: the entity-sizes flag */
        ns_reader_init(&r, buf, 24);
        ck_assert_int_eq(ns_handshake_read(&r, &back), NS_OK);
        ns_replica_config rc = {0};
        ck_assert_int_eq(ns_handshake_accept(&back, &rt_schema, &rc, NULL, 0), NS_OK);
        ck_assert_uint_eq(rc.packet_format, f >= 2 ? f : 1);
        ck_assert(rc.entity_sizes == (f >= 2));
        rh_free(g);
    }
    buf[4] = 6; /* a format this reader does not know */
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MISMATCH);
    buf[4] = 2, buf[7] = 0x81; /* an unknown flag */
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MALFORMED);
    buf[4] = 1, buf[7] = 1; /* format 1 has no flags */
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MALFORMED);
    ns_world_config bad = {.schema = &rt_schema, .max_entities = 4, .max_connections = 1, .packet_format = 6};
    ns_status st;
    ck_assert_ptr_null(ns_world_create(&bad, &st));
    ck_assert_int_eq(st, NS_ERR_ARGUMENT);
}
END_TEST

/* short_tick_bits travels in bits 1-5 of the flags byte (0, the derived width, writes the
 * handshake as before); a width below the derived one (6 for the default reorder window) or
 * above 16 is refused by the world, the replica and the handshake's reader. */
START_TEST(handshake_carries_the_short_tick_bits)
{
    uint8_t buf[32];
    ns_writer w;
    ns_reader r;
    ns_handshake back;
    rh_game *g =
        rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_3, .short_tick_bits = 12}, 1, (rh_impair){0}, 1);
    ns_writer_init(&w, buf, sizeof buf);
    ns_handshake h = ns_world_handshake(g->world, g->conn[0]);
    ns_handshake_write(&w, &h);
    ck_assert_uint_eq(ns_writer_flush(&w), 24);
    ck_assert_uint_eq(buf[7], 12u << 1);
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_OK);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&back, &rt_schema, &rc, NULL, 0), NS_OK);
    ck_assert_uint_eq(rc.short_tick_bits, 12);
    rh_free(g);
    const uint8_t refused[] = {5u << 1, 17u << 1, 31u << 1};
    for (size_t i = 0; i < sizeof refused; i++) {
        buf[7] = refused[i];
        ns_reader_init(&r, buf, 24);
        ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MALFORMED);
    }
    for (uint32_t bits = 5; bits <= 17; bits += 12) ck_assert(rh_config_refused(NS_PACKET_FORMAT_3, bits, false));
}
END_TEST

/* packet_format 0 and 1 write the same bytes: the default is format 1. */
START_TEST(format_0_and_1_write_the_same_bytes)
{
    rh_game *a = rh_new((ns_world_config){.packet_format = 0}, 1, (rh_impair){.loss = 0.2}, 9);
    rh_game *b = rh_new((ns_world_config){.packet_format = 1}, 1, (rh_impair){.loss = 0.2}, 9);
    for (int i = 0; i < 12; i++) spawn(a, body_health, 2), spawn(b, body_health, 2);
    static uint8_t pa[RH_MAX_PACKET], pb[RH_MAX_PACKET];
    for (int t = 0; t < 200; t++) {
        for (ns_entity_id e = 0; e < 12; e++) set_body(a, e, (float)(t * (int)e) * 0.01f, 0), set_body(b, e, (float)(t * (int)e) * 0.01f, 0);
        /* The same packet, byte for byte; both clients read it and ack (every third is lost). */
        size_t na = tick_and_write(a, pa, sizeof pa), nb = tick_and_write(b, pb, sizeof pb);
        ck_assert_uint_eq(na, nb);
        ck_assert_int_eq(memcmp(pa, pb, na), 0);
        if (t % 3 == 2) continue;
        ck_assert_int_eq(ns_replica_read_packet(a->replica[0], pa, na), NS_OK);
        ck_assert_int_eq(ns_replica_read_packet(b->replica[0], pb, nb), NS_OK);
        ack(a, 0), ack(b, 0);
    }
    rh_free(a), rh_free(b);
}
END_TEST

/* ---- round trips ---- */

typedef struct scene_result {
    uint64_t bits, framing;
} scene_result;

/* Movers, health changes now and then (which change the presence by type), spawns, despawns and
 * owner changes over impaired links, from tick `first` on; every client consistent with the
 * server every tick, and settled once the links are quiet. */
static scene_result run_scene_with(ns_world_config cfg, uint32_t first, rh_impair impair, uint64_t seed)
{
    const uint32_t format = cfg.packet_format;
    cfg.max_entities = 48;
    rh_game *g = rh_new(cfg, 4, impair, seed);
    g->tick = first;
    uint64_t rng = seed;
    char why[200];
    scene_result res = {0, 0};
    for (int i = 0; i < 20; i++) spawn(g, body_health, 2);
    for (int t = 0; t < 800; t++) {
        for (ns_entity_id e = 0; e < 48; e++)
            if (ns_world_alive(g->world, e) && e % 5 != 0) set_body(g, e, (float)t * 0.05f + (float)e, (float)(e % 7));
        ns_entity_id hurt = (ns_entity_id)(rh_next(&rng) % 48);
        if (rh_uniform(&rng) < 0.1 && ns_world_alive(g->world, hurt) && ns_world_snap(g->world, hurt, RT_HEALTH_ID))
            set_health(g, hurt, (int32_t)(rh_next(&rng) % 101));
        if (rh_uniform(&rng) < 0.05) ns_world_despawn(g->world, (ns_entity_id)(rh_next(&rng) % 48));
        ns_entity_id id;
        if (rh_uniform(&rng) < 0.06) ns_world_spawn(g->world, body_health, 1 + (uint32_t)(rh_next(&rng) % 2), &id); /* unless full */
        if (rh_uniform(&rng) < 0.02) {
            ns_entity_id e = (ns_entity_id)(rh_next(&rng) % 48);
            if (ns_world_alive(g->world, e)) ns_world_set_owner(g->world, e, (int32_t)(rh_next(&rng) % 4));
        }
        rh_step(g);
        for (uint32_t c = 0; c < g->nclients; c++) {
            res.bits += g->last[c].bits, res.framing += g->last[c].framing_bits;
            NS_CHECK(rh_consistent(g, c, why, sizeof why), "format %u tick %u: %s", format, g->tick, why);
        }
    }
    ck_assert_uint_eq(g->read_errors, 0);
    for (uint32_t c = 0; c < g->nclients; c++) g->down[c].impair = g->up[c].impair = (rh_impair){0};
    for (uint32_t t = 0; t < 3 * NS_REPL_DEFAULT_REORDER + 16; t++) rh_step(g);
    for (uint32_t c = 0; c < g->nclients; c++) NS_CHECK(rh_settled(g, c, why, sizeof why), "format %u: %s", format, why);
    ck_assert_uint_eq(g->read_errors, 0);
    rh_free(g);
    return res;
}

static scene_result run_scene(uint32_t format, rh_impair impair, uint64_t seed)
{
    return run_scene_with((ns_world_config){.packet_format = format}, 0, impair, seed);
}

static const rh_impair impairments[] = {
    {0, 0, 0, 0, 0},
    {.loss = 0.2},
    {.reorder = 0.3, .jitter = 3},
    {.duplicate = 0.2, .latency = 2},
    {.loss = 0.2, .reorder = 0.2, .duplicate = 0.1, .latency = 3, .jitter = 4},
};

START_TEST(round_trips_under_loss_reorder_and_duplication)
{
    scene_result five = run_scene(NS_PACKET_FORMAT_5, impairments[_i], 100 + (uint64_t)_i);
    scene_result four = run_scene(NS_PACKET_FORMAT_4, impairments[_i], 100 + (uint64_t)_i);
    scene_result three = run_scene(NS_PACKET_FORMAT_3, impairments[_i], 100 + (uint64_t)_i);
    scene_result two = run_scene(NS_PACKET_FORMAT_2, impairments[_i], 100 + (uint64_t)_i);
    scene_result one = run_scene(NS_PACKET_FORMAT_1, impairments[_i], 100 + (uint64_t)_i);
    /* The same game in fewer framing bits (the components' bits are the same code). */
    NS_CHECK(two.framing < one.framing, "framing: format 2 %llu bits, format 1 %llu", (unsigned long long)two.framing,
             (unsigned long long)one.framing);
    NS_CHECK(three.framing < two.framing, "framing: format 3 %llu bits, format 2 %llu", (unsigned long long)three.framing,
             (unsigned long long)two.framing);
    /* Format 4: fewer where acks come back late or out of order (a round trip of ticks, late
     * datagrams); within 3% of format 3 where every ack is back by the next tick. */
    const rh_impair *im = &impairments[_i];
    if (im->latency || im->reorder)
        NS_CHECK(four.framing < three.framing, "framing: format 4 %llu bits, format 3 %llu",
                 (unsigned long long)four.framing, (unsigned long long)three.framing);
    else
        NS_CHECK(four.framing * 100 <= three.framing * 103, "framing: format 4 %llu bits, format 3 %llu",
                 (unsigned long long)four.framing, (unsigned long long)three.framing);
    /* Format 5: fewer than format 4 (a packet whose presence by type changed stays steady). */
    NS_CHECK(five.framing < four.framing, "framing: format 5 %llu bits, format 4 %llu", (unsigned long long)five.framing,
             (unsigned long long)four.framing);
}
END_TEST

/* Across the 32-bit tick's wrap with a history depth that is not a power of two (t % depth
 * jumps there), in every format (_i % 5): format 3's derived baselines stay exact, and no
 * format refuses a packet (the replica's ring is a power of two; the server only codes against
 * ticks its history still holds, and in format 3 a record whose server history lost a tick goes
 * without baselines). */
START_TEST(across_the_tick_wrap_with_an_odd_history_depth)
{
    ns_world_config cfg = {.packet_format = NS_PACKET_FORMAT_1 + (uint32_t)_i % 5,
                           .history_depth = 30 - 4 * (uint32_t)(_i / 5),
                           .reorder_window = 13 + (uint32_t)(_i / 5)};
    run_scene_with(cfg, 0xffffffffu - 400, impairments[4], 300 + (uint64_t)_i);
}
END_TEST

/* Every format across the 32-bit tick's wrap with the default depth and window (32 + 16 = 48
 * states a replica keeps): the replica's ring is rounded up to 64, since in a ring of 48 the
 * states of the ticks before the wrap were overwritten early and the packets coded against
 * them refused (formats 1 and 2: dozens of refusals over the first 20 ticks after the wrap). */
START_TEST(every_format_across_the_tick_wrap)
{
    run_scene_with((ns_world_config){.packet_format = NS_PACKET_FORMAT_1 + (uint32_t)_i}, 0xffffffffu - 400,
                   impairments[4], 500 + (uint64_t)_i);
}
END_TEST

/* ---- the short tick ---- */

/* A packet held back while reorder_window newer ones apply is still read as its own tick (and
 * applied); one held back longer is refused as stale, never misread as a newer tick. */
START_TEST(a_late_packet_reads_its_own_tick)
{
    const uint32_t late_by = (_i & 1) == 0 ? NS_REPL_DEFAULT_REORDER : 2 * NS_REPL_DEFAULT_REORDER;
    const uint32_t format = NS_PACKET_FORMAT_2 + (uint32_t)(_i >> 1);
    rh_game *g = rh_new((ns_world_config){.packet_format = format}, 1, (rh_impair){0}, 3);
    g->tick = 1000;
    ns_entity_id e = spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET], held[RH_MAX_PACKET];
    size_t held_len = 0;
    uint32_t held_tick = 0;
    for (int t = 0; t < 10; t++) {
        set_body(g, e, (float)t, 0);
        deliver(g, pkt, sizeof pkt);
    }
    set_body(g, e, 100, 0);
    held_len = tick_and_write(g, held, sizeof held);
    held_tick = g->tick;
    ck_assert(short_tick(held, format));
    for (uint32_t t = 0; t < late_by; t++) {
        set_body(g, e, 200 + (float)t, 0);
        deliver(g, pkt, sizeof pkt);
    }
    ck_assert_uint_eq(ns_replica_newest(g->replica[0]), held_tick + late_by);
    ns_status st = ns_replica_read_packet(g->replica[0], held, held_len);
    if (late_by <= NS_REPL_DEFAULT_REORDER) {
        ck_assert_int_eq(st, NS_OK);
        const rt_Body_snap *s = ns_replica_snap_at(g->replica[0], e, RT_BODY_ID, held_tick);
        ck_assert_ptr_nonnull(s); /* stored as the state of its own tick */
        const rt_Body_snap *want = ns_world_recorded(g->world, e, RT_BODY_ID, held_tick);
        ck_assert_mem_eq(s, want, sizeof *s);
    } else {
        ck_assert_int_eq(st, NS_ERR_STALE);
    }
    ck_assert_uint_eq(ns_replica_newest(g->replica[0]), held_tick + late_by);
    rh_free(g);
}
END_TEST

/* When the client has acked nothing for half the short tick's span (32 ticks with the default
 * reorder window), the tick goes out in full, and reads right; then short again. Across the
 * wrap of the 32-bit tick. */
START_TEST(a_long_silence_sends_the_full_tick)
{
    const uint32_t format = NS_PACKET_FORMAT_2 + (uint32_t)_i;
    rh_game *g = rh_new((ns_world_config){.packet_format = format}, 1, (rh_impair){0}, 4);
    g->tick = 0xffffffffu - 50;
    ns_entity_id e = spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET];
    size_t len;
    for (int t = 0; t < 5; t++) {
        len = deliver(g, pkt, sizeof pkt);
    }
    const uint32_t acked = g->tick;
    for (uint32_t t = 0; t < 100; t++) { /* the packets arrive, the acks do not */
        set_body(g, e, (float)t, 0);
        len = tick_and_write(g, pkt, sizeof pkt);
        ck_assert(short_tick(pkt, format) == (g->tick - acked < 32));
        if (t % 40 == 39) continue; /* and now and then a packet is lost too */
        ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
        ck_assert_uint_eq(ns_replica_newest(g->replica[0]), g->tick);
    }
    g->tick += 5000; /* the server idled: a jump far beyond the short span */
    len = tick_and_write(g, pkt, sizeof pkt);
    ck_assert(!short_tick(pkt, format));
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    ck_assert_uint_eq(ns_replica_newest(g->replica[0]), g->tick);
    ack(g, 0);
    set_body(g, e, -5, 0);
    len = tick_and_write(g, pkt, sizeof pkt);
    ck_assert(short_tick(pkt, format));
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    ck_assert_float_eq_tol(((const rt_Body *)ns_replica_value(g->replica[0], e, RT_BODY_ID))->pos.x, -5.0f, 0.006f);
    rh_free(g);
}
END_TEST

/* A packet held back until its own tick's successor 64 ticks later is due, and that packet
 * lost: the short tick's 6 low bits then name the missing tick, and the replica reads the old
 * packet as it, decoding its records against the wrong baselines (docs/replication.md section 2,
 * "Very late datagrams": the limit this test pins). With short_tick_bits 12 the same packet is
 * refused as stale and the client keeps the server's state; one held back 40 ticks too. */
START_TEST(a_datagram_later_than_half_the_short_span)
{
    const bool wide = _i >= 1;
    const uint32_t late_by = _i == 2 ? 40u : 64u;
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_3, .short_tick_bits = wide ? 12u : 0u},
                       1, (rh_impair){0}, 3);
    g->tick = 1000;
    ns_entity_id e = spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET], held[RH_MAX_PACKET];
    for (int t = 0; t < 10; t++) {
        set_body(g, e, (float)t, 0);
        deliver(g, pkt, sizeof pkt);
    }
    set_body(g, e, 300, 0);
    const size_t held_len = tick_and_write(g, held, sizeof held);
    const uint32_t held_tick = g->tick;
    ck_assert_uint_eq(held[0] & 1u, 1); /* short */
    for (uint32_t t = 0; t < late_by - 1; t++) {
        set_body(g, e, 10 + (float)t, 0);
        deliver(g, pkt, sizeof pkt);
    }
    set_body(g, e, 80, 0);
    (void)tick_and_write(g, pkt, sizeof pkt); /* lost */
    const uint32_t newest = ns_replica_newest(g->replica[0]);
    ns_status st = ns_replica_read_packet(g->replica[0], held, held_len);
    if (!wide) { /* the limit: read as the lost tick, its state not the server's, acked and kept */
        ck_assert_int_eq(st, NS_OK);
        ck_assert_uint_eq(ns_replica_newest(g->replica[0]), held_tick + 64);
        ack(g, 0);
        for (int t = 0; t < 3; t++) deliver(g, pkt, sizeof pkt);
        const rt_Body *b = ns_replica_value(g->replica[0], e, RT_BODY_ID);
        ck_assert(b->pos.x > 80.5f || b->pos.x < 79.5f);
        rh_free(g);
        return;
    }
    ck_assert_int_eq(st, NS_ERR_STALE);
    ck_assert_uint_eq(ns_replica_newest(g->replica[0]), newest);
    ack(g, 0);
    for (int t = 0; t < 3; t++) deliver(g, pkt, sizeof pkt);
    const rt_Body *b = ns_replica_value(g->replica[0], e, RT_BODY_ID);
    ck_assert_float_eq_tol(b->pos.x, 80.0f, 0.006f);
    rh_free(g);
}
END_TEST

/* Wider short ticks round-trip the impaired scene: format 2 with 9 bits, format 3 with 16
 * across the 32-bit wrap, formats 4 and 5 with 12 across it. */
START_TEST(round_trips_with_wider_short_ticks)
{
    ns_world_config cfg = {.packet_format = NS_PACKET_FORMAT_2 + (uint32_t)_i,
                           .short_tick_bits = _i == 0 ? 9u : _i == 1 ? 16u : 12u};
    run_scene_with(cfg, _i ? 0xffffffffu - 400 : 0, impairments[4], 400 + (uint64_t)_i);
}
END_TEST

/* ---- exact bytes ---- */

/* What ns_dump_repl_packet prints of a packet for replica r, into out; its status. */
static ns_status dump_to(const ns_replica *r, const uint8_t *pkt, size_t len, char *out, size_t cap)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ns_reader rd;
    ns_reader_init(&rd, pkt, len);
    ns_status st = ns_dump_repl_packet(f, &rt_schema, r, &rd);
    rewind(f);
    out[fread(out, 1, cap - 1, f)] = '\0';
    fclose(f);
    return st;
}

/* The first packet of a world with nothing in it: 0 (long tick), tick 1 in 32 bits, 0 (not
 * steady), 00 (no dense ids, no events), 0 (not one group), group count 0 packed (00). */
START_TEST(an_empty_first_packet_has_these_bytes)
{
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_2}, 1, (rh_impair){0}, 5);
    uint8_t pkt[64];
    size_t len = tick_and_write(g, pkt, sizeof pkt);
    static const uint8_t want[] = {0x02, 0x00, 0x00, 0x00, 0x00};
    ck_assert_uint_eq(len, sizeof want);
    ck_assert_mem_eq(pkt, want, sizeof want);
    ck_assert_uint_eq(g->last[0].bits, 39);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    rh_free(g);
}
END_TEST

/* A steady packet: 1 (short tick), the tick's low 6 bits, 1 (steady), the newest baseline's gap
 * 0 in the dense model (1 bit, 0), then per entity its presence bits (Body 1, Health 0: two
 * records of two bits are shorter than a mask of five types) and its Body written against its
 * three baselines; no ids: the packet repeats the one of its newest baseline. Format 3's steady
 * packet is the same bytes: its section continues the packet of the ladder's newest tick. */
START_TEST(a_steady_packet_has_these_bytes)
{
    const uint32_t format = NS_PACKET_FORMAT_2 + (uint32_t)_i;
    rh_game *g = rh_new((ns_world_config){.packet_format = format}, 1, (rh_impair){0}, 6);
    ns_entity_id a = spawn(g, body_health, 2), b = spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET];
    size_t len = 0;
    for (int t = 0; t < 6; t++) {
        set_body(g, a, (float)t, 1), set_body(g, b, 2, (float)t * 2);
        len = deliver(g, pkt, sizeof pkt);
    }
    const uint32_t now = g->tick;
    ck_assert_uint_eq(now, 6);
    uint8_t want[64];
    ns_writer w;
    ns_writer_init(&w, want, sizeof want);
    ns_write_bits(&w, 1, 1); /* short tick; format 5: short tick, steady, ref's presence */
    ns_write_bits(&w, now & 63u, 6);
    if (format < NS_PACKET_FORMAT_5) ns_write_bits(&w, 1, 1); /* steady */
    /* Formats 2 and 3: the newest baseline's gap, 0 (dense); formats 4 and 5: '1', the round trip
     * kept (packet 5's own newest baseline was tick 4). */
    ns_write_bits(&w, format >= NS_PACKET_FORMAT_4, 1);
    for (ns_entity_id e = a; e <= b; e++) {
        ns_write_bits(&w, 1, 1), ns_write_bits(&w, 0, 1);
        ns_baselines base = {{NULL, NULL, NULL}, {now - 1, now - 2, now - 3}, 3, now};
        for (uint32_t k = 0; k < 3; k++) base.snap[k] = ns_world_recorded(g->world, e, RT_BODY_ID, base.tick[k]);
        rt_Body_write(&w, ns_world_recorded(g->world, e, RT_BODY_ID, now), &base, NS_TO_OBSERVER);
    }
    size_t want_len = ns_writer_flush(&w);
    ck_assert_uint_eq(len, want_len);
    ck_assert_mem_eq(pkt, want, want_len);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    /* ns_dump prints it, with the replica that will read it. */
    char out[4096];
    set_body(g, a, 9, 1), set_body(g, b, 2, 20);
    ack(g, 0);
    len = tick_and_write(g, pkt, sizeof pkt);
    ck_assert_int_eq(dump_to(g->replica[0], pkt, len, out, sizeof out), NS_OK);
    if (format == NS_PACKET_FORMAT_2) {
        NS_CHECK(strstr(out, "packet (format 2, steady) tick 7 (short)") != NULL, "%s", out);
        NS_CHECK(strstr(out, "repeating packet 6's group, ids all those of packet 6") != NULL, "%s", out);
    } else if (format == NS_PACKET_FORMAT_3) {
        NS_CHECK(strstr(out, "packet (format 3, steady) tick 7 (short)") != NULL, "%s", out);
        NS_CHECK(strstr(out, "updates: 2 records over the ladder 6 5 4 (packet 6's, 1 dropped), ids all those of packet 6") != NULL,
                 "%s", out);
        NS_CHECK(strstr(out, "Body: 1") != NULL || strstr(out, "against baselines tick 6, tick 5, tick 4") != NULL, "%s", out);
    } else {
        NS_CHECK(strstr(out, format == NS_PACKET_FORMAT_4 ? "packet (format 4, steady) tick 7 (short)"
                                                          : "packet (format 5, steady) tick 7 (short)") != NULL,
                 "%s", out);
        NS_CHECK(strstr(out, "updates: 2 records over the ladder 6 5 4 (packet 6's, 1 dropped), packet 6 by the round trip, "
                             "ids all those of packet 6") != NULL, "%s", out);
        NS_CHECK(strstr(out, "Body: 1") != NULL || strstr(out, "against baselines tick 6, tick 5, tick 4") != NULL, "%s", out);
    }
    NS_CHECK(strstr(out, "update #1") != NULL, "%s", out);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    rh_free(g);
}
END_TEST

/* The schema index of component type `id` (what a presence mask's bits count). */
static uint32_t type_index(uint32_t id)
{
    for (uint32_t k = 0; k < rt_schema.component_count; k++)
        if (rt_schema.components[k].desc->id == id) return k;
    ck_abort_msg("no component %u", id);
    return 0;
}

/* Writes e's `type` state at `now` against its three states before, as a steady packet does. */
static void write_against_three(rh_game *g, ns_writer *w, ns_entity_id e, uint32_t type, uint32_t now)
{
    const ns_component_ops *ops = &rt_schema.components[type_index(type)];
    ns_baselines base = {{NULL, NULL, NULL}, {now - 1, now - 2, now - 3}, 3, now};
    for (uint32_t k = 0; k < 3; k++) base.snap[k] = ns_world_recorded(g->world, e, type, base.tick[k]);
    ck_assert_int_eq(ops->write(w, ns_world_recorded(g->world, e, type, now), &base, NS_TO_OBSERVER), NS_OK);
}

/* Format 5 (docs/replication.md section 2, "Format 5"): six movers whose records agree on
 * "Body present" (by type: no presence bits); then every Health changes too. Format 4 would leave
 * the steady packet (its presence differs from packet 6's); format 5's stays steady: '001' (short
 * tick, steady, new presence), the tick's low 6 bits, '1' (the round trip kept), '1' (packet 6's
 * presence with one type toggled), Health's index in 3 bits (5 types), then each record's Body and
 * Health against its three baselines. The next packet toggles Health off again; the dump says
 * both; a toggled index past the schema's types is refused and changes nothing. */
START_TEST(a_steady_packet_with_new_presence_has_these_bytes)
{
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_5}, 1, (rh_impair){0}, 6);
    ns_entity_id e0 = spawn(g, body_health, 2);
    for (int i = 1; i < 6; i++) spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET];
    size_t len = 0;
    for (int t = 0; t < 6; t++) {
        for (ns_entity_id e = e0; e < e0 + 6; e++) set_body(g, e, (float)t + (float)e, (float)(t * t));
        len = deliver(g, pkt, sizeof pkt);
    }
    const uint32_t now = g->tick + 1;
    for (ns_entity_id e = e0; e < e0 + 6; e++) set_body(g, e, (float)now + (float)e, (float)(now * now)), set_health(g, e, 50);
    len = tick_and_write(g, pkt, sizeof pkt);
    uint8_t want[RH_MAX_PACKET];
    ns_writer w;
    ns_writer_init(&w, want, sizeof want);
    ns_write_bits(&w, 0, 1), ns_write_bits(&w, 0, 1), ns_write_bits(&w, 1, 1);
    ns_write_bits(&w, now & 63u, 6);
    ns_write_bits(&w, 1, 1);
    ns_write_bits(&w, 1, 1);
    ns_write_bits(&w, type_index(RT_HEALTH_ID), 3);
    for (ns_entity_id e = e0; e < e0 + 6; e++) {
        write_against_three(g, &w, e, RT_BODY_ID, now);
        write_against_three(g, &w, e, RT_HEALTH_ID, now);
    }
    size_t want_len = ns_writer_flush(&w);
    ck_assert_uint_eq(len, want_len);
    ck_assert_mem_eq(pkt, want, want_len);
    /* A toggled index past the schema's 5 types: refused, the replica as it was. */
    uint8_t bad[RH_MAX_PACKET];
    memcpy(bad, pkt, len);
    bad[1] = (uint8_t)(bad[1] | 0x07u << 3); /* bits 11-13: the index, 7 */
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], bad, len), NS_ERR_MALFORMED);
    ck_assert_uint_eq(ns_replica_newest(g->replica[0]), now - 1);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    ck_assert_int_eq(((const rt_Health *)ns_replica_value(g->replica[0], e0 + 5, RT_HEALTH_ID))->hp, 50);
    ack(g, 0);
    /* Health rests again: the next packet toggles it off, and ns_dump says so. */
    for (ns_entity_id e = e0; e < e0 + 6; e++) set_body(g, e, (float)now + 1 + (float)e, 0);
    len = tick_and_write(g, pkt, sizeof pkt);
    char out[8192];
    ck_assert_int_eq(dump_to(g->replica[0], pkt, len, out, sizeof out), NS_OK);
    NS_CHECK(strstr(out, "packet (format 5, steady, new presence) tick 8 (short)") != NULL, "%s", out);
    NS_CHECK(strstr(out, "packet 7 by the round trip, present by type (one toggled): Body, ids all those of packet 7") != NULL,
             "%s", out);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    char why[200];
    NS_CHECK(rh_consistent(g, 0, why, sizeof why), "%s", why);
    rh_free(g);
}
END_TEST

/* A format-2 steady packet whose newest baseline's gap no tick can have (2^31): the replica
 * refuses it as NS_ERR_BASELINE, and the dump with it says the same. */
START_TEST(a_steady_gap_out_of_range_is_refused_by_both)
{
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_2}, 1, (rh_impair){0}, 6);
    ns_entity_id a = spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET];
    size_t len = 0;
    for (int t = 0; t < 6; t++) {
        set_body(g, a, (float)t, 1);
        len = deliver(g, pkt, sizeof pkt);
    }
    set_body(g, a, 9, 1);
    len = tick_and_write(g, pkt, sizeof pkt);
    ck_assert_uint_eq(pkt[0] & 0x81u, 0x81u); /* short tick, steady */
    ck_assert_uint_ge(len, 2);
    /* The dense model of docs/replication.md, section 2: 0 costs 1 bit, 1 costs 3. */
    static const uint8_t raw[NS_MODEL_BUCKETS] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 32};
    static const uint8_t lens[NS_MODEL_BUCKETS] = {1, 3, 4, 4, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
    ns_model dense;
    ck_assert_int_eq(ns_model_init(&dense, raw, lens), NS_OK);
    uint8_t bad[32] = {0};
    ns_writer w;
    ns_writer_init(&w, bad, sizeof bad);
    ns_write_bits(&w, pkt[0], 8);
    ns_write_packed_u32(&w, 0x80000000u, &dense);
    ns_write_bits(&w, 0, 32);
    size_t bad_len = ns_writer_flush(&w);
    char out[4096];
    ck_assert_int_eq(dump_to(g->replica[0], bad, bad_len, out, sizeof out), NS_ERR_BASELINE);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], bad, bad_len), NS_ERR_BASELINE);
    ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK); /* nothing changed */
    rh_free(g);
}
END_TEST

/* The bytes of formats 2 to 5 are a contract, as format 1's: a fixed scene (movers, entities
 * that rest and are skipped, spawns, despawns, an owner change, packets lost now and then) writes
 * packets whose FNV-1a hash is pinned. A change here is a new format, not an edit. The acks of
 * formats 4 and 5 arrive 2 ticks late (3 from tick 80), so their sections name their packets by
 * the round trip and their ladders as runs. In format 5's scene every Health changes now and then
 * too, so that steady packets change their presence by type. */
START_TEST(the_packets_of_a_fixed_scene_are_pinned)
{
    static const uint64_t pinned[4] = {UINT64_C(0xa30c11cb102745c7), UINT64_C(0x3ffe2c8054e5deb4),
                                       UINT64_C(0x0e631386554dc1b4), UINT64_C(0x4093a67a52b926f4)};
    const uint32_t format = NS_PACKET_FORMAT_2 + (uint32_t)_i;
    rh_game *g = rh_new((ns_world_config){.packet_format = format, .max_entities = 32}, 2, (rh_impair){0}, 8);
    for (int i = 0; i < 10; i++) spawn(g, body_health, 2);
    uint8_t pkt[RH_MAX_PACKET], acks[2][4][32];
    size_t ack_len[2][4] = {{0}};
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    uint32_t packets = 0, new_presence = 0;
    for (int t = 0; t < 120; t++) {
        for (ns_entity_id e = 0; e < 32; e++)
            if (ns_world_alive(g->world, e) && (e % 3 != 0 || t % 17 == 0)) set_body(g, e, (float)t * 0.1f + (float)e, (float)(t % 5));
        ns_entity_id id;
        if (t % 23 == 5) ns_world_despawn(g->world, (ns_entity_id)(t % 10));
        if (t % 23 == 12) ns_world_spawn(g->world, body_health, 1 + (uint32_t)(t % 2), &id);
        if (t == 60) ns_world_set_owner(g->world, 4, (int32_t)g->conn[1]);
        for (ns_entity_id e = 0; format >= NS_PACKET_FORMAT_5 && t % 13 == 7 && e < 32; e++)
            if (ns_world_alive(g->world, e) && ns_world_snap(g->world, e, RT_HEALTH_ID)) set_health(g, e, t);
        g->tick++;
        ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_OK);
        for (uint32_t c = 0; c < 2; c++) {
            size_t len;
            ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[c], pkt, sizeof pkt, &len, NULL), NS_OK);
            for (size_t i = 0; i < len; i++) h = (h ^ pkt[i]) * UINT64_C(0x100000001b3);
            h = (h ^ len) * UINT64_C(0x100000001b3);
            packets++;
            new_presence += format >= NS_PACKET_FORMAT_5 && (pkt[0] & 7u) == 4u; /* '001' */
            const int late = t < 80 ? 2 : 3;
            if (format >= NS_PACKET_FORMAT_4 && ack_len[c][(t + 4 - late) % 4]) { /* the ack sent `late` ticks ago */
                ns_reader ar;
                ns_reader_init(&ar, acks[c][(t + 4 - late) % 4], ack_len[c][(t + 4 - late) % 4]);
                ck_assert_int_eq(ns_world_read_ack(g->world, g->conn[c], &ar), NS_OK);
            }
            ack_len[c][t % 4] = 0;
            if ((t + (int)c) % 7 == 3) continue; /* lost */
            ck_assert_int_eq(ns_replica_read_packet(g->replica[c], pkt, len), NS_OK);
            if ((t + (int)c) % 5 == 1) continue; /* and some acks */
            if (format < NS_PACKET_FORMAT_4) {
                ack(g, c);
                continue;
            }
            ns_writer aw;
            ns_writer_init(&aw, acks[c][t % 4], sizeof acks[c][t % 4]);
            ns_replica_write_ack(g->replica[c], &aw);
            ack_len[c][t % 4] = ns_writer_flush(&aw);
        }
    }
    ck_assert_uint_eq(packets, 240);
    if (format >= NS_PACKET_FORMAT_5) NS_CHECK(new_presence >= 4, "%u steady packets with new presence", new_presence);
    NS_CHECK(h == pinned[_i], "format %u: the scene's packets hash to 0x%016llx, pinned 0x%016llx", format,
             (unsigned long long)h, (unsigned long long)pinned[_i]);
    rh_free(g);
}
END_TEST

/* The writer sorts a packet's records by 64-bit keys whose low 15 bits are the record's index;
 * a packet of more than 2^15 records is sorted by qsort instead, in the same order. Packets that
 * large need a budget far over the default: spawns, then an update of every entity, then the
 * next tick's, each read by the replica, which must end up holding every state. */
START_TEST(a_packet_of_over_32768_records_is_in_order)
{
    enum { N = 33000 };
    const uint32_t format = NS_PACKET_FORMAT_1 + (uint32_t)_i;
    rh_game *g = rh_new((ns_world_config){.packet_format = format, .max_entities = N + 8, .budget = 1u << 20}, 1,
                       (rh_impair){0}, 3);
    static const uint32_t body[] = {RT_BODY_ID};
    for (uint32_t i = 0; i < N; i++) spawn(g, body, 1);
    size_t cap = (size_t)1 << 20, len;
    uint8_t *pkt = malloc(cap);
    ck_assert_ptr_nonnull(pkt);
    uint32_t records[3];
    for (int t = 0; t < 3; t++) {
        for (ns_entity_id e = 0; e < N; e++) set_body(g, e, (float)(e % 1000) + (float)t * 0.5f, (float)(e / 1000));
        len = deliver(g, pkt, cap);
        records[t] = g->last[0].spawns + g->last[0].updates;
        char why[256];
        NS_CHECK(rh_consistent(g, 0, why, sizeof why), "format %u, packet %d of %zu bytes: %s", format, t + 1, len, why);
    }
    NS_CHECK(records[0] == N && records[1] == N && records[2] == N,
             "format %u: the packets carried %u, %u and %u records, not %u each", format, records[0], records[1],
             records[2], (unsigned)N);
    free(pkt);
    rh_free(g);
}
END_TEST

/* ---- hostile packets ---- */

static size_t digest(const ns_replica *r, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (ns_entity_id e = 0; e < 64; e++) {
        if (!ns_replica_has(r, e)) continue;
        for (uint32_t k = 0; k < rt_schema.component_count; k++) {
            const ns_component_ops *ops = &rt_schema.components[k];
            uint32_t tick;
            const void *s = ns_replica_snap(r, e, ops->desc->id, &tick);
            const void *v = ns_replica_value(r, e, ops->desc->id);
            if (!s) continue;
            if (n + 8 + ops->desc->snap_size + ops->desc->value_size > cap) abort();
            memcpy(out + n, &e, 4), memcpy(out + n + 4, &tick, 4), n += 8;
            memcpy(out + n, s, ops->desc->snap_size), n += ops->desc->snap_size;
            memcpy(out + n, v, ops->desc->value_size), n += ops->desc->value_size;
        }
    }
    uint32_t count = ns_replica_count(r), newest = ns_replica_newest(r);
    memcpy(out + n, &count, 4), memcpy(out + n + 4, &newest, 4);
    return n + 8;
}

/* The packets client 0 applied, in order: a shadow replica fed with them equals its replica. */
typedef struct history_log {
    uint32_t n;
    size_t   len[100];
    uint8_t  pkt[100][RH_MAX_PACKET];
} history_log;

static ns_replica *shadow_of(rh_game *g, const history_log *h)
{
    ns_handshake hs = ns_world_handshake(g->world, g->conn[0]);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&hs, &rt_schema, &rc, NULL, 0), NS_OK);
    ns_replica *r = ns_replica_create(&rc, NULL);
    ck_assert_ptr_nonnull(r);
    for (uint32_t i = 0; i < h->n; i++) ck_assert_int_eq(ns_replica_read_packet(r, h->pkt[i], h->len[i]), NS_OK);
    return r;
}

/* Every truncation of real format-2 packets, and single-bit flips all over them, are refused
 * with the replica unchanged, or (a flip that still decodes: a value bit) applied. Each flip
 * goes to a shadow replica that read the same packets as the client's, rebuilt after a flip it
 * applied; the client's replica reads the real packets and stays consistent with the server. */
START_TEST(hostile_packets_change_nothing)
{
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_2 + (uint32_t)(_i >> 1), .entity_sizes = (_i & 1) != 0},
                       1, (rh_impair){0}, 7);
    for (int i = 0; i < 24; i++) spawn(g, body_health, 2);
    ns_world_set_owner(g->world, 3, (int32_t)g->conn[0]);
    static history_log log;
    static uint8_t before[1 << 16], after[1 << 16];
    log.n = 0;
    uint8_t bad[RH_MAX_PACKET];
    uint64_t rng = 11 + (uint64_t)_i;
    uint32_t refused = 0, applied = 0;
    char why[200];
    ns_replica *shadow = shadow_of(g, &log);
    for (int t = 0; t < 100; t++) {
        for (ns_entity_id e = 0; e < 24; e++)
            if (ns_world_alive(g->world, e) && (e + (uint32_t)t) % 3 != 0) set_body(g, e, (float)(rh_uniform(&rng) * 50), (float)t);
        if (t % 30 == 10) ns_world_despawn(g->world, (ns_entity_id)(rh_next(&rng) % 24));
        ns_entity_id id;
        if (t % 30 == 20) ns_world_spawn(g->world, body_health, 2, &id);
        uint8_t *pkt = log.pkt[log.n];
        size_t len = tick_and_write(g, pkt, RH_MAX_PACKET);
        size_t nb = digest(shadow, before, sizeof before);
        for (size_t cut = 0; cut < len; cut++) {
            ns_status st = ns_replica_read_packet(shadow, pkt, cut);
            NS_CHECK(st != NS_OK, "tick %u: a packet cut to %zu of %zu bytes was accepted", g->tick, cut, len);
            size_t na = digest(shadow, after, sizeof after);
            NS_CHECK(na == nb && memcmp(before, after, nb) == 0, "a truncated packet (%s) changed the replica",
                     ns_status_str(st));
        }
        for (int k = 0; k < NS_HOSTILE_FLIPS; k++) {
            size_t bit = (size_t)(rh_next(&rng) % (len * 8));
            memcpy(bad, pkt, len);
            bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            ns_status st = ns_replica_read_packet(shadow, bad, len);
            if (st == NS_OK) {
                applied++;
                ns_replica_destroy(shadow);
                shadow = shadow_of(g, &log);
                continue;
            }
            refused++;
            size_t na = digest(shadow, after, sizeof after);
            NS_CHECK(na == nb && memcmp(before, after, nb) == 0, "a flipped packet (bit %zu: %s) changed the replica", bit,
                     ns_status_str(st));
        }
        log.len[log.n++] = len;
        ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
        ck_assert_int_eq(ns_replica_read_packet(shadow, pkt, len), NS_OK);
        ack(g, 0);
        NS_CHECK(rh_consistent(g, 0, why, sizeof why), "%s", why);
    }
    /* Both outcomes of a flip happened: refusals (checked above) and flips that still decode
     * (value bits), each applied whole to a rebuilt shadow. */
    ck_assert_uint_gt(refused, NS_HOSTILE_FLIPS * 100 / 8);
    ck_assert_uint_gt(applied, 0);
    ns_replica_destroy(shadow);
    rh_free(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("format2");
    TCase *tc = tcase_create("format2");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, handshake_carries_the_packet_format);
    tcase_add_test(tc, format_0_and_1_write_the_same_bytes);
    tcase_add_loop_test(tc, round_trips_under_loss_reorder_and_duplication, 0,
                        (int)(sizeof impairments / sizeof impairments[0]));
    tcase_add_loop_test(tc, across_the_tick_wrap_with_an_odd_history_depth, 0, 10);
    tcase_add_loop_test(tc, every_format_across_the_tick_wrap, 0, 5);
    tcase_add_loop_test(tc, a_late_packet_reads_its_own_tick, 0, 8);
    tcase_add_loop_test(tc, a_long_silence_sends_the_full_tick, 0, 4);
    tcase_add_test(tc, handshake_carries_the_short_tick_bits);
    tcase_add_loop_test(tc, a_datagram_later_than_half_the_short_span, 0, 3);
    tcase_add_loop_test(tc, round_trips_with_wider_short_ticks, 0, 4);
    tcase_add_test(tc, an_empty_first_packet_has_these_bytes);
    tcase_add_loop_test(tc, a_steady_packet_has_these_bytes, 0, 4);
    tcase_add_test(tc, a_steady_gap_out_of_range_is_refused_by_both);
    tcase_add_test(tc, a_steady_packet_with_new_presence_has_these_bytes);
    tcase_add_loop_test(tc, the_packets_of_a_fixed_scene_are_pinned, 0, 4);
    tcase_add_loop_test(tc, a_packet_of_over_32768_records_is_in_order, 0, 5);
    tcase_add_loop_test(tc, hostile_packets_change_nothing, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
