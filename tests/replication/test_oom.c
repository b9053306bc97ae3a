/* test_oom.c — the replication layer when memory runs out. The linker routes every malloc,
 * calloc and realloc of this program (the runtime's included) through the wrappers below, which
 * can make one chosen allocation fail. Each test runs a small game once per allocation it makes,
 * failing that one: the call that needed it must report NS_ERR_NOMEM (or NULL), leave nothing
 * half done, and work when called again; in the end every client holds the server's state.
 * Under ASan (make test) a leak on any of those paths fails the run too. */
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "repl.ns.h"
#include "repl_harness.h"

/* ---- the allocator ---- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long countdown = -1; /* allocations that succeed before the one that fails; -1: none fails */
static long failures;       /* allocations made to fail */

static int fails_now(void)
{
    if (countdown < 0) return 0;
    if (countdown-- > 0) return 0;
    failures++;
    return 1; /* countdown is now -1: only this one fails */
}

void *__wrap_malloc(size_t n)
{
    return fails_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fails_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fails_now() ? NULL : __real_realloc(p, n);
}

/* ---- a small game ---- */

static const uint32_t body_health[] = {RT_BODY_ID, RT_HEALTH_ID};

static ns_world *world_of(uint32_t max_entities, uint32_t format)
{
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = max_entities, .max_connections = 2,
                           .packet_format = format};
    ns_world *w = ns_world_create(&cfg, NULL);
    ck_assert_ptr_nonnull(w);
    return w;
}

static ns_replica *replica_of(ns_world *w, uint32_t conn)
{
    ns_handshake h = ns_world_handshake(w, conn);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&h, &rt_schema, &rc, NULL, 0), NS_OK);
    ns_replica *r = ns_replica_create(&rc, NULL);
    ck_assert_ptr_nonnull(r);
    return r;
}

/* Each entity's health: distinct, within Health.hp's @range(0, 100). */
static int32_t hp_of(ns_entity_id e)
{
    return (int32_t)(e * 7u % 100u);
}

/* (NS_CHECK, not ck_assert, while an allocation may be set to fail: it calls into Check only
 * when the condition fails.) */
static void set_health(ns_world *w, ns_entity_id e, int32_t hp)
{
    rt_Health h;
    rt_Health_init(&h);
    h.hp = hp;
    NS_CHECK(ns_world_set(w, e, RT_HEALTH_ID, &h) == NS_OK, "set %u", e);
}

/* Ticks, writes, reads and acks until the replica holds the world's entities (ids below 1,000),
 * each with the world's health. */
static void converge(ns_world *w, uint32_t conn, ns_replica *r, uint32_t *tick, uint32_t entities, const char *where)
{
    for (int i = 0; i < 40; i++) {
        uint8_t buf[1300];
        size_t len;
        ck_assert_int_eq(ns_world_tick(w, ++*tick), NS_OK);
        ck_assert_int_eq(ns_world_write_packet(w, conn, buf, sizeof buf, &len, NULL), NS_OK);
        ck_assert_int_eq(ns_replica_read_packet(r, buf, len), NS_OK);
        ck_assert_int_eq(rh_ack(w, conn, r), NS_OK);
    }
    ck_assert_uint_eq(ns_world_count(w), entities);
    ck_assert_uint_eq(ns_replica_count(r), entities);
    for (ns_entity_id e = 0; e < 1000; e++) {
        if (!ns_world_alive(w, e)) continue;
        const rt_Health *h = ns_replica_value(r, e, RT_HEALTH_ID);
        ck_assert_msg(h != NULL, "entity %u is not held (%s)", e, where);
        ck_assert_msg(h->hp == hp_of(e), "entity %u: hp %d, the server set %d (%s)", e, h->hp, hp_of(e), where);
    }
}

/* A replica that cannot allocate what a packet's spawns need refuses the packet: it applies
 * none of it and does not ack it, so the server sends the spawns again. (It used to apply the
 * packet without the entity it could not allocate and ack it: the server then took the spawn
 * as delivered and sent updates the client could never read.) */
START_TEST(a_replica_out_of_memory_refuses_the_packet)
{
    ns_world *w = world_of(64, NS_PACKET_FORMAT_3);
    uint32_t conn, tick = 1;
    ck_assert_int_eq(ns_world_connect(w, &conn), NS_OK);
    for (int i = 0; i < 5; i++) {
        ns_entity_id e;
        ck_assert_int_eq(ns_world_spawn(w, body_health, 2, &e), NS_OK);
        set_health(w, e, hp_of(e));
    }
    uint8_t pkt[1300];
    size_t len;
    ck_assert_int_eq(ns_world_tick(w, tick), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(w, conn, pkt, sizeof pkt, &len, NULL), NS_OK);
    long k = 0;
    for (;; k++) {
        ns_replica *r = replica_of(w, conn);
        const size_t empty = ns_replica_memory(r);
        countdown = k, failures = 0;
        ns_status st = ns_replica_read_packet(r, pkt, len);
        countdown = -1;
        if (!failures) { /* the read made fewer than k + 1 allocations: every one was tried */
            ck_assert_int_eq(st, NS_OK);
            ck_assert_uint_eq(ns_replica_count(r), 5);
            ns_replica_destroy(r);
            break;
        }
        ck_assert_msg(st == NS_ERR_NOMEM, "allocation %ld failed: %s", k, ns_status_str(st));
        ck_assert_uint_eq(ns_replica_count(r), 0);
        ck_assert_uint_eq(ns_replica_newest(r), 0); /* nothing applied, so nothing to ack */
        ck_assert_uint_le(ns_replica_memory(r), empty + 8192); /* at most a grown scratch is kept */
        ck_assert_int_eq(ns_replica_read_packet(r, pkt, len), NS_OK); /* memory is back */
        ck_assert_uint_eq(ns_replica_count(r), 5);
        for (ns_entity_id e = 0; e < 5; e++) ck_assert_int_eq(((const rt_Health *)ns_replica_value(r, e, RT_HEALTH_ID))->hp, hp_of(e));
        ns_replica_destroy(r);
    }
    ck_assert_int_ge(k, 5); /* one allocation per spawn at least */
    ns_world_destroy(w);
}
END_TEST

/* Setting up: each create, connect and spawn that cannot allocate reports NS_ERR_NOMEM (or NULL)
 * and changes nothing (the world keeps its count; a retry works); the game then converges. 100
 * entities grow the links and the write's scratch past their first 64 ids. */
START_TEST(a_world_out_of_memory_reports_it_and_goes_on)
{
    long k = 0;
    for (;; k++) {
        countdown = k, failures = 0;
        ns_world_config cfg = {.schema = &rt_schema, .max_entities = 1000, .max_connections = 2,
                               .packet_format = NS_PACKET_FORMAT_3};
        ns_status st;
        ns_world *w = ns_world_create(&cfg, &st);
        if (!w) {
            countdown = -1;
            ck_assert_int_eq(st, NS_ERR_NOMEM);
            ck_assert_int_eq(failures, 1);
            continue;
        }
        uint32_t conn;
        st = ns_world_connect(w, &conn);
        if (st == NS_ERR_NOMEM) st = ns_world_connect(w, &conn);
        NS_CHECK(st == NS_OK, "connect: %s", ns_status_str(st));
        for (uint32_t i = 0; i < 100; i++) {
            ns_entity_id e = UINT32_MAX;
            st = ns_world_spawn(w, body_health, 2, &e);
            if (st == NS_ERR_NOMEM) {
                NS_CHECK(ns_world_count(w) == i, "a spawn that failed left %u entities", ns_world_count(w));
                st = ns_world_spawn(w, body_health, 2, &e);
            }
            NS_CHECK(st == NS_OK && e == i, "spawn %u: %s, id %u", i, ns_status_str(st), e);
            set_health(w, e, hp_of(e));
        }
        ns_handshake h = ns_world_handshake(w, conn);
        ns_replica_config rc = {0};
        NS_CHECK(ns_handshake_accept(&h, &rt_schema, &rc, NULL, 0) == NS_OK, "handshake");
        ns_replica *r = ns_replica_create(&rc, &st);
        if (!r) {
            NS_CHECK(st == NS_ERR_NOMEM, "replica: %s", ns_status_str(st));
            r = ns_replica_create(&rc, &st);
        }
        NS_CHECK(r != NULL, "replica after a retry: %s", ns_status_str(st));
        const long tried = failures;
        countdown = -1;
        uint32_t tick = 0;
        char where[64];
        snprintf(where, sizeof where, "allocation %ld failed", k);
        converge(w, conn, r, &tick, 100, where);
        ns_replica_destroy(r);
        ns_world_destroy(w);
        if (!tried) break; /* the script made fewer than k + 1 allocations: every one was tried */
    }
    ck_assert_int_ge(k, 100);
}
END_TEST

/* While the game runs: a write whose list of ids cannot grow still writes its packet (later
 * packets do not refer to it; in format 4 none is named by the round trip past it), and a read
 * that cannot allocate refuses its packet and leaves the replica as it was, which the server
 * handles like a lost packet. Entities despawn and spawn meanwhile, so reads need storage for
 * spawns. Format 3 (_i 0) acks every packet at once; format 4 (_i 1) one tick in three late. */
START_TEST(packets_out_of_memory_are_lost_not_wrong)
{
    long k = 0, refusals = 0;
    for (;; k++) {
        ns_world *w = world_of(1000, _i ? NS_PACKET_FORMAT_4 : NS_PACKET_FORMAT_3);
        uint32_t conn, tick = 0;
        ck_assert_int_eq(ns_world_connect(w, &conn), NS_OK);
        ns_replica *r = replica_of(w, conn);
        for (uint32_t i = 0; i < 100; i++) {
            ns_entity_id e;
            ck_assert_int_eq(ns_world_spawn(w, body_health, 2, &e), NS_OK);
            set_health(w, e, hp_of(e));
        }
        countdown = k, failures = 0;
        long refused = 0;
        for (int i = 0; i < 30; i++) {
            if (i == 10) { /* ten entities leave, ten new ones (the lowest free ids) arrive */
                for (ns_entity_id e = 20; e < 30; e++) NS_CHECK(ns_world_despawn(w, e) == NS_OK, "despawn %u", e);
                for (int j = 0; j < 10; j++) {
                    ns_entity_id e;
                    ns_status st = ns_world_spawn(w, body_health, 2, &e);
                    if (st == NS_ERR_NOMEM) st = ns_world_spawn(w, body_health, 2, &e);
                    NS_CHECK(st == NS_OK, "spawn: %s", ns_status_str(st));
                    set_health(w, e, hp_of(e));
                }
            }
            uint8_t buf[1300];
            size_t len;
            NS_CHECK(ns_world_tick(w, ++tick) == NS_OK, "tick %u", tick);
            ns_status st = ns_world_write_packet(w, conn, buf, sizeof buf, &len, NULL);
            NS_CHECK(st == NS_OK, "write: %s", ns_status_str(st));
            const uint32_t held = ns_replica_count(r), newest = ns_replica_newest(r);
            st = ns_replica_read_packet(r, buf, len);
            if (st == NS_ERR_NOMEM) {
                NS_CHECK(ns_replica_count(r) == held && ns_replica_newest(r) == newest, "a refused read changed the replica");
                refused++;
            } else {
                NS_CHECK(st == NS_OK, "read: %s", ns_status_str(st));
            }
            if (!_i || i % 3 != 1) NS_CHECK(rh_ack(w, conn, r) == NS_OK, "ack");
        }
        const long tried = failures;
        countdown = -1;
        ck_assert_int_le(refused, tried);
        refusals += refused;
        char where[64];
        snprintf(where, sizeof where, "allocation %ld of the game failed", k);
        converge(w, conn, r, &tick, 100, where);
        ns_replica_destroy(r);
        ns_world_destroy(w);
        if (!tried) break;
    }
    ck_assert_int_ge(k, 100); /* the spawns' storage at least */
    ck_assert_int_ge(refusals, 100); /* most of them failed a read */
}
END_TEST

/* Format 4 names the packet P a section codes against by the change of the round trip since P's
 * own packet, when P is the newest packet that saw that change (docs/replication.md section 2,
 * "Format 4"). Here packet 19 codes against 17 (acks 1 tick old; 17's were 2 ticks old: the
 * round trip shrank by one), and 18 (acks 1 tick old) lies where a reader scanning down from 18
 * would take it for P. The server must see that and name 17 by its gap; but it ran out of memory
 * for 18's list of ids while writing it, so it no longer knows 18's acks, and must not take it
 * for a packet that was never written. The health values are not linear in the tick, so a state
 * decoded against the wrong baselines is wrong. */
START_TEST(a_packet_whose_list_was_lost_is_never_skipped)
{
    ns_world *w = ns_world_create(&(ns_world_config){.schema = &rt_schema, .max_entities = 64, .max_connections = 2,
                                                     .packet_format = NS_PACKET_FORMAT_4},
                                  NULL);
    ck_assert_ptr_nonnull(w);
    uint32_t conn;
    ck_assert_int_eq(ns_world_connect(w, &conn), NS_OK);
    ns_replica *r = replica_of(w, conn);
    for (int i = 0; i < 4; i++) {
        ns_entity_id e;
        ck_assert_int_eq(ns_world_spawn(w, body_health, 2, &e), NS_OK);
    }
    static uint8_t pkt[21][1300];
    size_t len[21];
    for (uint32_t t = 1; t <= 20; t++) {
        for (ns_entity_id e = 0; e < 4; e++) set_health(w, e, (int32_t)((t * t * 7 + e * 13) % 100)); /* not linear */
        ck_assert_int_eq(ns_world_tick(w, t), NS_OK);
        if (t == 18) countdown = 0, failures = 0; /* the write's only allocation: 18's list */
        ns_status st = ns_world_write_packet(w, conn, pkt[t], sizeof pkt[t], &len[t], NULL);
        const long failed = failures;
        countdown = -1;
        ck_assert_int_eq(st, NS_OK);
        if (t == 18) ck_assert_int_eq(failed, 1);
        /* The acks: every packet up to 14 at once, so 15, 16 and 17 go out with acks of 14 (17
         * codes against 14); then 16's ack, which 18 codes against, and 17's (19 and 20). */
        if (t == 17 || t == 18) ck_assert_int_eq(rh_ack(w, conn, r), NS_OK);
        ck_assert_int_eq(ns_replica_read_packet(r, pkt[t], len[t]), NS_OK);
        if (t <= 14) ck_assert_int_eq(rh_ack(w, conn, r), NS_OK);
        for (ns_entity_id e = 0; e < 4; e++) { /* each tick's state, as the server recorded it */
            uint32_t tick;
            const rt_Health_snap *s = ns_replica_snap(r, e, RT_HEALTH_ID, &tick);
            ck_assert_ptr_nonnull(s);
            ck_assert_uint_eq(tick, t);
            ck_assert_msg(memcmp(s, ns_world_recorded(w, e, RT_HEALTH_ID, t), sizeof *s) == 0,
                          "tick %u: entity %u's health is not the server's", t, e);
        }
    }
    ns_replica_destroy(r);
    ns_world_destroy(w);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("oom");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_replica_out_of_memory_refuses_the_packet);
    tcase_add_test(tc, a_world_out_of_memory_reports_it_and_goes_on);
    tcase_add_loop_test(tc, packets_out_of_memory_are_lost_not_wrong, 0, 2);
    tcase_add_test(tc, a_packet_whose_list_was_lost_is_never_skipped);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
