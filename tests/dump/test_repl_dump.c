/* test_repl_dump.c — the replication packet dump (ns_dump_repl_packet) on packets of a world of
 * tests/replication/repl.netschema: a spawn, an update and a despawn printed as a user reads them, the bits
 * it reports adding up to the packet's, and malformed packets refused like the replica does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "repl.ns.h"

static char *dump_text(const ns_replica *replica, const uint8_t *buf, size_t len, ns_status *st)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    *st = ns_dump_repl_packet(f, &rt_schema, replica, &r);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void expect(const char *text, const char *line)
{
    if (!strstr(text, line)) fprintf(stderr, "--- missing:\n%s\n--- in:\n%s\n", line, text);
    ck_assert_ptr_nonnull(strstr(text, line));
}

START_TEST(spawn_then_update)
{
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = 8, .max_connections = 1};
    ns_world *w = ns_world_create(&cfg, NULL);
    ck_assert_ptr_nonnull(w);
    uint32_t conn;
    ck_assert_int_eq(ns_world_connect(w, &conn), NS_OK);
    ns_replica_config rc = {.on_spawn = NULL};
    ns_handshake hs = ns_world_handshake(w, conn);
    ck_assert_int_eq(ns_handshake_accept(&hs, &rt_schema, &rc, NULL, 0), NS_OK);
    ns_replica *rep = ns_replica_create(&rc, NULL);
    ck_assert_ptr_nonnull(rep);
    static const uint32_t types[] = {RT_BODY_ID, RT_HEALTH_ID};
    ns_entity_id id;
    ck_assert_int_eq(ns_world_spawn(w, types, 2, &id), NS_OK);
    ck_assert_int_eq(ns_world_set_owner(w, id, (int32_t)conn), NS_OK);
    rt_Body body;
    rt_Body_init(&body);
    body.pos = (ns_vec3){1.5f, 0, -2};
    ck_assert_int_eq(ns_world_set(w, id, RT_BODY_ID, &body), NS_OK);
    ck_assert_int_eq(ns_world_tick(w, 1), NS_OK);

    uint8_t buf[1500];
    size_t len;
    ns_repl_stats stats;
    ck_assert_int_eq(ns_world_write_packet(w, conn, buf, sizeof buf, &len, &stats), NS_OK);
    ns_status st;
    char *text = dump_text(rep, buf, len, &st);
    ck_assert_int_eq(st, NS_OK);
    ck_assert_str_eq(text, "packet tick 1: 0 despawns, 1 spawns, 0 groups, dense ids (header 43 bits)\n"
                           "  spawn #0 for the owner (id 1 bits, header 8 bits)\n"
                           "    presence (2 bits): Body Health (same)\n"
                           "    Body: 33 bits against the defaults, for the owner\n"
                           "          1  (any: something changed)\n"
                           "         31  pos = (1.5, 0, -2)  (changed)\n"
                           "          1  heading = 0\n"
                           "end: 87 bits\n");
    char want[64];
    snprintf(want, sizeof want, "end: %u bits\n", stats.bits); /* every bit of the packet accounted for */
    expect(text, want);
    free(text);
    ck_assert_int_eq(ns_replica_read_packet(rep, buf, len), NS_OK);
    uint8_t ack[64];
    ns_writer aw;
    ns_writer_init(&aw, ack, sizeof ack);
    ns_replica_write_ack(rep, &aw);
    ns_reader ar;
    ns_reader_init(&ar, ack, ns_writer_flush(&aw));
    ck_assert_int_eq(ns_world_read_ack(w, conn, &ar), NS_OK);

    /* Tick 2: only the heading changes; coded against tick 1, which the client acked. */
    body.heading = -90;
    ck_assert_int_eq(ns_world_set(w, id, RT_BODY_ID, &body), NS_OK);
    ck_assert_int_eq(ns_world_tick(w, 2), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(w, conn, buf, sizeof buf, &len, &stats), NS_OK);
    text = dump_text(rep, buf, len, &st);
    ck_assert_int_eq(st, NS_OK);
    expect(text, "group 1: 1 record against ticks 1");
    expect(text, "  update #0 for the owner (id ");
    expect(text, "    Body: ");
    expect(text, " bits against baseline tick 1, for the owner\n");
    expect(text, "  pos = (1.5, 0, -2)\n");
    expect(text, "  heading = -90  (changed)\n");
    snprintf(want, sizeof want, "end: %u bits\n", stats.bits);
    expect(text, want);
    free(text);

    /* The same packet cut short anywhere: the dump refuses it, as the replica does. */
    for (size_t cut = 1; cut < len; cut++) {
        text = dump_text(rep, buf, cut, &st);
        ck_assert_int_ne(st, NS_OK);
        ck_assert_int_ne(ns_replica_read_packet(rep, buf, cut), NS_OK);
        expect(text, "  error: ");
        free(text);
    }
    ck_assert_int_eq(ns_replica_read_packet(rep, buf, len), NS_OK);

    /* Tick 3: the entity is destroyed; the despawn record says so in its one bit. */
    ck_assert_int_eq(ns_world_despawn(w, id), NS_OK);
    ck_assert_int_eq(ns_world_tick(w, 3), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(w, conn, buf, sizeof buf, &len, &stats), NS_OK);
    text = dump_text(rep, buf, len, &st);
    ck_assert_int_eq(st, NS_OK);
    expect(text, ": 1 despawns, 0 spawns, 0 groups");
    expect(text, "  despawn #0 destroyed (");
    snprintf(want, sizeof want, "end: %u bits\n", stats.bits);
    expect(text, want);
    free(text);
    ns_replica_destroy(rep);
    ns_world_destroy(w);
}
END_TEST

START_TEST(without_a_replica)
{
    /* Updates are coded against states only the replica holds: without it, a packet with sizes
     * has its updates skipped by their size, and the rest still prints. */
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = 8, .max_connections = 1, .entity_sizes = true};
    ns_world *w = ns_world_create(&cfg, NULL);
    uint32_t conn;
    ck_assert_int_eq(ns_world_connect(w, &conn), NS_OK);
    ns_replica_config rc = {.on_spawn = NULL};
    ns_handshake hs = ns_world_handshake(w, conn);
    ck_assert_int_eq(ns_handshake_accept(&hs, &rt_schema, &rc, NULL, 0), NS_OK);
    ns_replica *rep = ns_replica_create(&rc, NULL);
    static const uint32_t types[] = {RT_BODY_ID};
    ns_entity_id id;
    ck_assert_int_eq(ns_world_spawn(w, types, 1, &id), NS_OK);
    rt_Body body;
    rt_Body_init(&body);
    uint8_t buf[1500], ack[64];
    size_t len;
    ns_repl_stats stats;
    for (uint32_t tick = 1; tick <= 2; tick++) {
        body.heading = (int16_t)(10 * tick);
        ck_assert_int_eq(ns_world_set(w, id, RT_BODY_ID, &body), NS_OK);
        ck_assert_int_eq(ns_world_tick(w, tick), NS_OK);
        ck_assert_int_eq(ns_world_write_packet(w, conn, buf, sizeof buf, &len, &stats), NS_OK);
        if (tick == 2) break;
        ck_assert_int_eq(ns_replica_read_packet(rep, buf, len), NS_OK);
        ns_writer aw;
        ns_writer_init(&aw, ack, sizeof ack);
        ns_replica_write_ack(rep, &aw);
        ns_reader ar;
        ns_reader_init(&ar, ack, ns_writer_flush(&aw));
        ck_assert_int_eq(ns_world_read_ack(w, conn, &ar), NS_OK);
    }
    ns_status st;
    char *text = dump_text(NULL, buf, len, &st);
    ck_assert_int_eq(st, NS_OK);
    expect(text, "packet tick 2 (16 bits): 0 despawns, 0 spawns, 1 groups, sizes");
    expect(text, "  update #0 for an observer (id ");
    expect(text, "    skipped (");
    expect(text, " bits): the entity is not held\n");
    char want[64];
    snprintf(want, sizeof want, "end: %u bits\n", stats.bits);
    expect(text, want);
    free(text);
    /* With the replica, the same packet decodes. */
    text = dump_text(rep, buf, len, &st);
    ck_assert_int_eq(st, NS_OK);
    expect(text, "  heading = 20  (changed)\n");
    free(text);
    ns_replica_destroy(rep);
    ns_world_destroy(w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("replication dump");
    TCase *tc = tcase_create("replication dump");
    tcase_add_test(tc, spawn_then_update);
    tcase_add_test(tc, without_a_replica);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
