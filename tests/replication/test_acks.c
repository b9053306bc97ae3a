/* test_acks.c — the compact ack (ns_world_config.compact_acks, docs/replication.md section 3) as
 * a user sees it: carried by the handshake, refused with format 1, its exact bits while acks
 * flow and after they stop, the server learning from it what it learns from the full ack under
 * loss, reordering, duplication and latency (the same downlink in a quarter of the uplink or
 * less), a late ack read as its own tick, and hostile acks refused without a trace. */
#include <stdio.h>
#include <string.h>

#include <netschema/packed.h>

#include "ns_test.h"
#include "repl.ns.h"
#include "repl_harness.h"

static const uint32_t body_health[] = {RT_BODY_ID, RT_HEALTH_ID};

static ns_entity_id spawn(rh_game *g)
{
    ns_entity_id id;
    ck_assert_int_eq(ns_world_spawn(g->world, body_health, 2, &id), NS_OK);
    return id;
}

/* Moves every live entity of the first 64 ids, so that each packet carries updates. */
static void move_all(rh_game *g, uint32_t t)
{
    for (ns_entity_id e = 0; e < 64; e++) {
        if (!ns_world_alive(g->world, e)) continue;
        rt_Body b;
        rt_Body_init(&b);
        b.pos.x = (float)((t * (e + 3)) % 500) * 0.25f;
        b.pos.z = (float)e;
        ck_assert_int_eq(ns_world_set(g->world, e, RT_BODY_ID, &b), NS_OK);
    }
}

/* One tick whose packet for client 0 is applied (when `apply`) and acked (when `acked`). */
static void tick(rh_game *g, bool apply, bool acked)
{
    uint8_t pkt[RH_MAX_PACKET];
    size_t len = 0;
    g->tick++;
    move_all(g, g->tick);
    ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], pkt, sizeof pkt, &len, &g->last[0]), NS_OK);
    if (apply) ck_assert_int_eq(ns_replica_read_packet(g->replica[0], pkt, len), NS_OK);
    if (acked) ck_assert_int_eq(rh_ack(g->world, g->conn[0], g->replica[0]), NS_OK);
}

/* Client 0's ack as it would send it now; *bits gets its length in bits. */
static size_t ack_now(const rh_game *g, uint8_t *buf, size_t cap, size_t *bits)
{
    ns_writer w;
    memset(buf, 0, cap);
    ns_writer_init(&w, buf, cap);
    ns_replica_write_ack(g->replica[0], &w);
    if (bits) *bits = ns_writer_bits(&w);
    return ns_writer_flush(&w);
}

static ns_status read_ack(rh_game *g, const uint8_t *buf, size_t len)
{
    ns_reader r;
    ns_reader_init(&r, buf, len);
    return ns_world_read_ack(g->world, g->conn[0], &r);
}

static const ns_world_config compact5 = {.packet_format = NS_PACKET_FORMAT_5, .compact_acks = true};

/* ---- the handshake ---- */

/* compact_acks travels in bit 6 of the flags byte, from format 2 on; format 1 has no flags, so a
 * world, a replica or a handshake of format 1 with it is refused. */
START_TEST(handshake_carries_compact_acks)
{
    uint8_t buf[32];
    ns_writer w;
    ns_reader r;
    ns_handshake back;
    for (uint32_t f = NS_PACKET_FORMAT_2; f <= NS_PACKET_FORMAT_5; f++) {
        rh_game *g = rh_new((ns_world_config){.packet_format = f, .compact_acks = true}, 1, (rh_impair){0}, 1);
        ns_writer_init(&w, buf, sizeof buf);
        ns_handshake h = ns_world_handshake(g->world, g->conn[0]);
        ns_handshake_write(&w, &h);
        ck_assert_uint_eq(ns_writer_flush(&w), 24);
        ck_assert_uint_eq(buf[7], 0x40);
        ns_reader_init(&r, buf, 24);
        ck_assert_int_eq(ns_handshake_read(&r, &back), NS_OK);
        ns_replica_config rc = {0};
        ck_assert_int_eq(ns_handshake_accept(&back, &rt_schema, &rc, NULL, 0), NS_OK);
        ck_assert(rc.compact_acks);
        rh_free(g);
    }
    buf[4] = 1; /* format 1 with the flag */
    ns_reader_init(&r, buf, 24);
    ck_assert_int_eq(ns_handshake_read(&r, &back), NS_ERR_MALFORMED);
    for (uint32_t f = 0; f <= 1; f++) ck_assert(rh_config_refused(f, 0, true));
    ck_assert(!rh_config_refused(NS_PACKET_FORMAT_2, 0, true)); /* the helper can say no */
}
END_TEST

/* ---- the bits ---- */

/* Before any packet coded against a baseline the ack is long: 1 + 1 + 32 + 31 bits. While acks
 * flow each packet is coded against the tick before it, so the ack names its tick in 7 bits and
 * has no mask: 1 + 1 + 7 + packed(0). With acks held back 40 ticks the mask covers the 8 ticks
 * before the newest (NS__ACK_SPAN); 80 ticks, and the replica has heard nothing recent: long
 * again. */
START_TEST(the_compact_ack_has_these_bits)
{
    const uint32_t format = NS_PACKET_FORMAT_2 + (uint32_t)_i;
    rh_game *g = rh_new((ns_world_config){.packet_format = format, .compact_acks = true}, 1, (rh_impair){0}, 1);
    spawn(g), spawn(g);
    uint8_t buf[16];
    size_t bits;
    tick(g, true, false);
    ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_eq(bits, 1 + 1 + 32 + 31);
    ns_reader r;
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_read_bits(&r, 2), 1); /* applied something; the long form */
    ck_assert_uint_eq(ns_read_bits(&r, 32), g->tick);
    ck_assert_int_eq(read_ack(g, buf, sizeof buf), NS_OK);

    for (int i = 0; i < 5; i++) tick(g, true, true);
    ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_eq(bits, 1 + 1 + 7 + ns_packed_u32_cost(0, NULL));
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_read_bits(&r, 2), 3); /* the short form */
    ck_assert_uint_eq(ns_read_bits(&r, 7), g->tick & 127u);
    ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), 0);

    for (int i = 0; i < 40; i++) tick(g, true, false);
    ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_eq(bits, 1 + 1 + 7 + ns_packed_u32_cost(8, NULL) + 8);
    ns_reader_init(&r, buf, sizeof buf);
    ck_assert_uint_eq(ns_read_bits(&r, 2), 3);
    ck_assert_uint_eq(ns_read_bits(&r, 7), g->tick & 127u);
    ck_assert_uint_eq(ns_read_packed_u32(&r, NULL), 8);
    ck_assert_uint_eq(ns_read_bits(&r, 8), 0xffu); /* all 8 applied */
    ck_assert_int_eq(read_ack(g, buf, sizeof buf), NS_OK);

    for (int i = 0; i < 80; i++) tick(g, true, false);
    ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_eq(bits, 1 + 1 + 32 + 31);
    ck_assert_int_eq(read_ack(g, buf, sizeof buf), NS_OK);
    for (int i = 0; i < 3; i++) tick(g, true, true); /* and back to short acks */
    ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_eq(bits, 1 + 1 + 7 + ns_packed_u32_cost(0, NULL));
    char why[200];
    ck_assert_msg(rh_consistent(g, 0, why, sizeof why), "%s", why);
    rh_free(g);
}
END_TEST

/* ---- what the server learns ---- */

static const rh_impair impairments[] = {
    {.loss = 0.1},
    {.loss = 0.2, .reorder = 0.1, .duplicate = 0.05, .latency = 3, .jitter = 2},
    {.loss = 0.3, .reorder = 0.3, .duplicate = 0.1, .jitter = 4},
    {.reorder = 0.2, .latency = 12, .jitter = 6},
};

/* A game of four clients over the impaired links of `imp`, 1,500 ticks of entities moving,
 * spawning and despawning; every client consistent throughout. */
static rh_game *play(bool compact, const rh_impair *imp)
{
    rh_game *g = rh_new((ns_world_config){.packet_format = NS_PACKET_FORMAT_5, .compact_acks = compact,
                                         .history_depth = 40, .reorder_window = 16},
                       4, *imp, 99);
    uint64_t rng = 5;
    for (int i = 0; i < 12; i++) spawn(g);
    char why[200];
    for (uint32_t t = 0; t < 1500; t++) {
        uint64_t roll = rh_next(&rng) % 64;
        if (roll < 4 && ns_world_count(g->world) < 40) spawn(g);
        if (roll >= 60) {
            ns_entity_id e = (ns_entity_id)(rh_next(&rng) % 40);
            if (ns_world_alive(g->world, e)) ck_assert_int_eq(ns_world_despawn(g->world, e), NS_OK);
        }
        move_all(g, g->tick + 1);
        rh_step(g);
        if (t % 11 == 0)
            for (uint32_t c = 0; c < g->nclients; c++) ck_assert_msg(rh_consistent(g, c, why, sizeof why), "%s", why);
    }
    ck_assert_uint_eq(g->read_errors, 0);
    return g;
}

/* The compact ack leaves out only what the server already knows (or a late packet, or a tick
 * whose 9 acks were all lost): the downlink stays within 1% of the full ack's, with acks a
 * fraction of the full ones' bits: a third or less, a half on a round trip of about 24 ticks,
 * where the mask holds its 8 ticks. */
START_TEST(compact_acks_teach_the_server_what_full_acks_do)
{
    rh_game *full = play(false, &impairments[_i]), *compact = play(true, &impairments[_i]);
    uint64_t down[2] = {0, 0}, up[2] = {0, 0};
    for (uint32_t c = 0; c < 4; c++) {
        down[0] += full->bits_down[c], down[1] += compact->bits_down[c];
        up[0] += full->bits_up[c], up[1] += compact->bits_up[c];
    }
    fprintf(stderr, "impairment %d: downlink %llu bits with full acks, %llu compact; acks %llu and %llu bits\n", _i,
            (unsigned long long)down[0], (unsigned long long)down[1], (unsigned long long)up[0],
            (unsigned long long)up[1]);
    ck_assert_uint_le(down[1] * 100, down[0] * 101);
    ck_assert_uint_le(up[1] * (_i == 3 ? 2 : 3), up[0]);
    rh_free(full);
    rh_free(compact);
}
END_TEST

/* ---- late and hostile acks ---- */

/* An ack held back while `late` more ticks are applied and acked: read as its own tick up to 64
 * ticks late (the 7-bit tick's half span); later, its low bits name a tick the server never
 * wrote, and it is refused (NS_ERR_RANGE) as long as the round trip is short. */
START_TEST(a_late_compact_ack_reads_its_own_tick)
{
    static const uint32_t lates[] = {1, 20, 64, 65, 100};
    const uint32_t late = lates[_i];
    rh_game *g = rh_new(compact5, 1, (rh_impair){0}, 1);
    spawn(g);
    for (int i = 0; i < 10; i++) tick(g, true, true);
    uint8_t held[16];
    size_t len = ack_now(g, held, sizeof held, NULL);
    for (uint32_t i = 0; i < late; i++) tick(g, true, true);
    ck_assert_int_eq(read_ack(g, held, len), late <= 64 ? NS_OK : NS_ERR_RANGE);
    rh_free(g);
}
END_TEST

/* The packets a world writes to client 0 over the next ticks, applied and acked. */
static void next_packets(rh_game *g, uint8_t out[6][RH_MAX_PACKET], size_t len[6])
{
    for (int i = 0; i < 6; i++) {
        g->tick++;
        move_all(g, g->tick);
        ck_assert_int_eq(ns_world_tick(g->world, g->tick), NS_OK);
        ck_assert_int_eq(ns_world_write_packet(g->world, g->conn[0], out[i], RH_MAX_PACKET, &len[i], NULL), NS_OK);
        ck_assert_int_eq(ns_replica_read_packet(g->replica[0], out[i], len[i]), NS_OK);
        ck_assert_int_eq(rh_ack(g->world, g->conn[0], g->replica[0]), NS_OK);
    }
}

/* A short ack to a world that holds no ack yet, a mask longer than history_depth - 1, a tick
 * newer than any packet, and every truncation of a real ack are refused, and the world then
 * writes the same bytes as its twin that never saw them. */
START_TEST(hostile_compact_acks_change_nothing)
{
    rh_game *g = rh_new(compact5, 1, (rh_impair){0}, 1), *twin = rh_new(compact5, 1, (rh_impair){0}, 1);
    uint8_t buf[16];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 3, 2); /* applied, short: but the world has no ack to resolve it against */
    ns_write_bits(&w, 0, 7);
    ns_write_packed_u32(&w, 0, NULL);
    size_t len = ns_writer_flush(&w);
    ck_assert_int_eq(read_ack(g, buf, len), NS_ERR_MALFORMED);

    for (rh_game *x = g; x; x = x == g ? twin : NULL) {
        spawn(x), spawn(x);
        for (int i = 0; i < 8; i++) tick(x, true, true);
    }
    /* A held-back real ack with acks missing, so that its mask has bits, cut at every byte. */
    for (rh_game *x = g; x; x = x == g ? twin : NULL)
        for (int i = 0; i < 5; i++) tick(x, true, false);
    size_t bits;
    len = ack_now(g, buf, sizeof buf, &bits);
    ck_assert_uint_gt(bits, 1 + 1 + 7 + 4);
    for (size_t cut = 0; cut < len; cut++) ck_assert_int_eq(read_ack(g, buf, cut), NS_ERR_TRUNCATED);
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 3, 2);
    ns_write_bits(&w, g->tick & 127u, 7);
    ns_write_packed_u32(&w, NS_REPL_DEFAULT_DEPTH, NULL); /* one more than history_depth - 1 */
    ns_write_bits(&w, 0, 32);
    len = ns_writer_flush(&w);
    ck_assert_int_eq(read_ack(g, buf, len), NS_ERR_MALFORMED);
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_bits(&w, 3, 2);
    ns_write_bits(&w, (g->tick + 1) & 127u, 7); /* a tick the world has not written */
    ns_write_packed_u32(&w, 0, NULL);
    len = ns_writer_flush(&w);
    ck_assert_int_eq(read_ack(g, buf, len), NS_ERR_RANGE);

    static uint8_t a[6][RH_MAX_PACKET], b[6][RH_MAX_PACKET];
    size_t alen[6], blen[6];
    next_packets(g, a, alen);
    next_packets(twin, b, blen);
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(alen[i], blen[i]);
        ck_assert_mem_eq(a[i], b[i], alen[i]);
    }
    rh_free(g);
    rh_free(twin);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("acks");
    TCase *tc = tcase_create("acks");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, handshake_carries_compact_acks);
    tcase_add_loop_test(tc, the_compact_ack_has_these_bits, 0, 4);
    tcase_add_loop_test(tc, compact_acks_teach_the_server_what_full_acks_do, 0,
                        (int)(sizeof impairments / sizeof impairments[0]));
    tcase_add_loop_test(tc, a_late_compact_ack_reads_its_own_tick, 0, 5);
    tcase_add_test(tc, hostile_compact_acks_change_nothing);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
