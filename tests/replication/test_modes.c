/* test_modes.c — entity modes and the custom condition over impaired links (netschema/
 * replication.h, ns_world_set_predicted and ns_world_set_condition; docs/replication.md
 * section 9). Three clients: the owner predicts its entity and receives @sync(predicted) fields
 * and not @sync(interpolated) ones, observers the reverse; modes switched at run time take
 * effect with no field of the old audience left in any state a client holds; the custom flag
 * gates @sync(custom) fields. Every field the server writes is non-zero, so a state's non-zero
 * fields say which audience it was coded for: each held state is checked against the audience
 * its connection had when the server wrote that tick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/dump.h>

#include "modes.ns.h"
#include "ns_test.h"
#include "repl_harness.h"

#define CLIENTS 3
#define ENTITIES 3
#define LOG 256u /* ticks of audience log kept per client and entity (more than any history) */

static rh_game game; /* large: the links' queues */

/* The audience each client had for each entity when the server wrote each tick. */
static uint8_t audience_log[CLIENTS][ENTITIES][LOG];
static int mode[CLIENTS][ENTITIES];
static bool flag[CLIENTS];

static uint32_t expected_audience(uint32_t c, ns_entity_id e)
{
    bool owner = ns_world_owner(game.world, e) == (int32_t)game.conn[c];
    bool predicted = mode[c][e] == NS_MODE_DEFAULT ? owner : mode[c][e] == NS_MODE_PREDICTED;
    return (owner ? NS_TO_OWNER : 0u) | (predicted ? NS_TO_PREDICTED : 0u) | (flag[c] ? NS_TO_CUSTOM : 0u);
}

/* Server values for tick t: every field non-zero and different each tick. */
static void set_values(ns_entity_id e, uint32_t t)
{
    rm_Body v;
    rm_Body_init(&v);
    v.pos = (int32_t)(t * 10 + e + 1);
    v.ammo = (uint16_t)(t % 1000 + 1);
    v.aim = (int32_t)(t * 10 + e + 2);
    v.glide = (int32_t)(t * 10 + e + 3);
    v.debug = (uint8_t)(t % 200 + 1);
    ck_assert_int_eq(ns_world_set(game.world, e, RM_BODY_ID, &v), NS_OK);
}

/* One tick: new values, the packets, and the audiences they were written for. */
static void step(void)
{
    for (ns_entity_id e = 0; e < ENTITIES; e++) set_values(e, game.tick + 1);
    uint8_t now[CLIENTS][ENTITIES];
    for (uint32_t c = 0; c < CLIENTS; c++)
        for (ns_entity_id e = 0; e < ENTITIES; e++) now[c][e] = (uint8_t)expected_audience(c, e);
    rh_step(&game);
    for (uint32_t c = 0; c < CLIENTS; c++)
        for (ns_entity_id e = 0; e < ENTITIES; e++) audience_log[c][e][game.tick % LOG] = now[c][e];
}

/* The audience a held state was coded for, read off which fields are non-zero; checks that
 * every field present equals the server's recorded value of that tick. */
static uint32_t audience_of(const rm_Body_snap *s, const rm_Body_snap *server, uint32_t c, ns_entity_id e, uint32_t t)
{
    ck_assert_msg(s->pos == server->pos, "client %u entity %u tick %u: pos", c, e, t);
    ck_assert_msg(!s->ammo || s->ammo == server->ammo, "client %u entity %u tick %u: ammo", c, e, t);
    ck_assert_msg(!s->aim || s->aim == server->aim, "client %u entity %u tick %u: aim", c, e, t);
    ck_assert_msg(!s->glide || s->glide == server->glide, "client %u entity %u tick %u: glide", c, e, t);
    ck_assert_msg(!s->debug || s->debug == server->debug, "client %u entity %u tick %u: debug", c, e, t);
    /* One of aim and glide, never both: a receiver predicts or interpolates. */
    ck_assert_msg((s->aim != 0) != (s->glide != 0), "client %u entity %u tick %u: aim %d glide %d", c, e, t,
                  s->aim, s->glide);
    return (s->ammo ? NS_TO_OWNER : 0u) | (s->aim ? NS_TO_PREDICTED : 0u) | (s->debug ? NS_TO_CUSTOM : 0u);
}

/* Every state every client holds of every entity was coded for the audience its connection had
 * at that tick: no field of another audience, none stale from an earlier one. Returns how many
 * states were checked. */
static uint32_t check_all(void)
{
    uint32_t checked = 0;
    for (uint32_t c = 0; c < CLIENTS; c++) {
        for (ns_entity_id e = 0; e < ENTITIES; e++) {
            for (uint32_t back = 0; back < 64 && back < game.tick; back++) {
                uint32_t t = game.tick - back;
                const rm_Body_snap *s = ns_replica_snap_at(game.replica[c], e, RM_BODY_ID, t);
                if (!s) continue;
                const rm_Body_snap *server = ns_world_recorded(game.world, e, RM_BODY_ID, t);
                if (!server) continue;
                uint32_t got = audience_of(s, server, c, e, t), want = audience_log[c][e][t % LOG];
                ck_assert_msg(got == want, "client %u entity %u tick %u: coded for audience %u, expected %u", c, e,
                              t, got, want);
                checked++;
            }
            uint32_t tick;
            if (ns_replica_snap(game.replica[c], e, RM_BODY_ID, &tick))
                ck_assert_uint_eq(ns_replica_audience(game.replica[c], e), audience_log[c][e][tick % LOG]);
        }
    }
    return checked;
}

static void run(uint32_t ticks, uint32_t *checked)
{
    for (uint32_t i = 0; i < ticks; i++) {
        step();
        *checked += check_all();
    }
}

/* Entities 0, 1 and 2: 0 owned by client 0, 1 by client 1, 2 by nobody (client 2 owns none). */
static void start(rh_impair impair, uint64_t seed)
{
    ns_world_config cfg = {.schema = &rm_schema, .max_entities = 16, .max_connections = CLIENTS};
    rh_start(&game, cfg, CLIENTS, impair, seed);
    memset(audience_log, 0, sizeof audience_log);
    memset(mode, 0, sizeof mode);
    memset(flag, 0, sizeof flag);
    uint32_t type = RM_BODY_ID;
    for (ns_entity_id i = 0; i < ENTITIES; i++) {
        ns_entity_id e;
        ck_assert_int_eq(ns_world_spawn(game.world, &type, 1, &e), NS_OK);
        ck_assert_uint_eq(e, i);
    }
    ck_assert_int_eq(ns_world_set_owner(game.world, 0, (int32_t)game.conn[0]), NS_OK);
    ck_assert_int_eq(ns_world_set_owner(game.world, 1, (int32_t)game.conn[1]), NS_OK);
}

static void set_mode(uint32_t c, ns_entity_id e, int m)
{
    ck_assert_int_eq(ns_world_set_predicted(game.world, game.conn[c], e, m), NS_OK);
    mode[c][e] = m;
}

static void set_flag(uint32_t c, bool on)
{
    ck_assert_int_eq(ns_world_set_condition(game.world, game.conn[c], on), NS_OK);
    flag[c] = on;
}

/* The newest state client c holds of e, once links are clean and settled. */
static rm_Body_snap newest(uint32_t c, ns_entity_id e)
{
    uint32_t tick;
    const rm_Body_snap *s = ns_replica_snap(game.replica[c], e, RM_BODY_ID, &tick);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(tick, game.tick);
    return *s;
}

START_TEST(modes_switch_under_loss_with_no_leak)
{
    rh_impair bad = {.loss = 0.2, .reorder = 0.1, .duplicate = 0.05, .latency = 2, .jitter = 3};
    start(bad, 11 + (uint64_t)_i);
    uint32_t checked = 0;
    run(80, &checked);
    /* Client 2 predicts entity 0 (owned by client 0), which client 0 now interpolates; client 1
     * gets the custom flag. */
    set_mode(2, 0, NS_MODE_PREDICTED);
    set_mode(0, 0, NS_MODE_INTERPOLATED);
    set_flag(1, true);
    run(80, &checked);
    /* Back to the defaults, and switches every few ticks. */
    set_mode(2, 0, NS_MODE_DEFAULT);
    set_mode(0, 0, NS_MODE_DEFAULT);
    set_flag(1, false);
    for (uint32_t round = 0; round < 12; round++) {
        run(7, &checked);
        set_mode(round % CLIENTS, round % ENTITIES, (int)(round % 3));
        set_flag((round + 1) % CLIENTS, round % 2 == 0);
    }
    run(40, &checked);
    ck_assert_uint_gt(checked, 1000); /* the loss still lets most states through */
    ck_assert_uint_eq(game.read_errors, 0);
    rh_stop(&game);
}
END_TEST

START_TEST(each_client_sees_its_audience)
{
    rh_impair clean = {0};
    start(clean, 5);
    uint32_t checked = 0;
    run(10, &checked);
    /* Defaults: the owner predicts, observers interpolate, nobody has the custom flag. */
    rm_Body_snap own = newest(0, 0), other = newest(2, 0);
    ck_assert_int_ne(own.aim, 0); ck_assert_int_eq(own.glide, 0); ck_assert_uint_ne(own.ammo, 0);
    ck_assert_int_eq(other.aim, 0); ck_assert_int_ne(other.glide, 0); ck_assert_uint_eq(other.ammo, 0);
    ck_assert_uint_eq(own.debug, 0); ck_assert_uint_eq(other.debug, 0);
    ck_assert_uint_eq(ns_replica_audience(game.replica[0], 0), NS_TO_OWNER | NS_TO_PREDICTED);
    ck_assert(ns_replica_is_owner(game.replica[0], 0));
    ck_assert(!ns_replica_is_owner(game.replica[2], 0));
    /* Switched: the owner interpolates, an observer predicts, client 2 has the flag. */
    set_mode(0, 0, NS_MODE_INTERPOLATED);
    set_mode(2, 0, NS_MODE_PREDICTED);
    set_flag(2, true);
    run(10, &checked);
    own = newest(0, 0), other = newest(2, 0);
    ck_assert_int_eq(own.aim, 0); ck_assert_int_ne(own.glide, 0); ck_assert_uint_ne(own.ammo, 0);
    ck_assert_int_ne(other.aim, 0); ck_assert_int_eq(other.glide, 0); ck_assert_uint_eq(other.ammo, 0);
    ck_assert_uint_ne(other.debug, 0); ck_assert_uint_ne(newest(2, 1).debug, 0); /* the flag: every entity */
    ck_assert_uint_eq(newest(1, 0).debug, 0);
    ck_assert(ns_replica_is_owner(game.replica[0], 0)); /* still the owner */
    ck_assert_uint_eq(ns_replica_audience(game.replica[2], 0), NS_TO_PREDICTED | NS_TO_CUSTOM);
    /* Bad arguments change nothing. */
    ck_assert_int_eq(ns_world_set_predicted(game.world, game.conn[0], 0, 3), NS_ERR_ARGUMENT);
    ck_assert_int_eq(ns_world_set_predicted(game.world, game.conn[0], 9, NS_MODE_PREDICTED), NS_ERR_UNKNOWN_ID);
    ck_assert_int_eq(ns_world_set_condition(game.world, 7, true), NS_ERR_ARGUMENT);
    rh_stop(&game);
}
END_TEST

/* ns_dump_repl_packet reads the audience bits of a schema with conditions (docs/replication.md
 * section 2: owner, predicting, custom) and names the audience. */
static char *dump(const uint8_t *buf, size_t len, const ns_replica *replica)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(ns_dump_repl_packet(f, &rm_schema, replica, &r), NS_OK);
    long n = ftell(f);
    rewind(f);
    char *text = calloc((size_t)n + 1, 1);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return text;
}

START_TEST(dump_names_the_audience)
{
    rh_impair clean = {0};
    start(clean, 3);
    set_flag(1, true);
    set_values(0, 1);
    set_values(1, 1);
    set_values(2, 1);
    ck_assert_int_eq(ns_world_tick(game.world, 1), NS_OK);
    uint8_t buf[RH_MAX_PACKET];
    size_t len = 0;
    ck_assert_int_eq(ns_world_write_packet(game.world, game.conn[0], buf, sizeof buf, &len, NULL), NS_OK);
    char *text = dump(buf, len, NULL);
    ck_assert_ptr_nonnull(strstr(text, "spawn #0 for the owner (predicting)"));
    ck_assert_ptr_nonnull(strstr(text, "spawn #1 for an observer (id "));
    ck_assert_ptr_nonnull(strstr(text, "aim"));
    free(text);
    ck_assert_int_eq(ns_replica_read_packet(game.replica[0], buf, len), NS_OK);
    ck_assert_int_eq(ns_world_write_packet(game.world, game.conn[1], buf, sizeof buf, &len, NULL), NS_OK);
    text = dump(buf, len, NULL);
    ck_assert_ptr_nonnull(strstr(text, "spawn #0 for an observer (custom)"));
    ck_assert_ptr_nonnull(strstr(text, "spawn #1 for the owner (predicting, custom)"));
    free(text);
    ck_assert_int_eq(ns_replica_read_packet(game.replica[1], buf, len), NS_OK);
    ck_assert_uint_eq(ns_replica_audience(game.replica[1], 0), NS_TO_CUSTOM);
    rh_stop(&game);
}
END_TEST

/* Everything a replica holds of the entities, as bytes: presence, audience, newest tick and state. */
static size_t digest(const ns_replica *r, uint8_t *out)
{
    size_t n = 0;
    for (ns_entity_id e = 0; e < ENTITIES; e++) {
        uint32_t tick = 0;
        const rm_Body_snap *s = ns_replica_snap(r, e, RM_BODY_ID, &tick);
        out[n++] = (uint8_t)(ns_replica_has(r, e) * 16u + (unsigned)ns_replica_audience(r, e));
        memcpy(out + n, &tick, 4), n += 4;
        if (s) memcpy(out + n, s, sizeof *s), n += sizeof *s;
    }
    return n;
}

/* The replica's reader on packets of a schema with three audience bits, bits flipped and cut
 * short at random (a small deterministic fuzz; under the sanitizers, no read goes past a packet):
 * a refused packet leaves the replica exactly as it was, and the real packet still reads after
 * it. The world gets no acks, so every packet is self-contained (full states, 32-bit ticks). */
START_TEST(mutated_packets_leave_the_replica_usable)
{
    rh_impair clean = {0};
    start(clean, 21);
    set_mode(2, 0, NS_MODE_PREDICTED);
    set_flag(2, true);
    ns_handshake h = ns_world_handshake(game.world, game.conn[2]);
    ns_replica_config rc = {0};
    ck_assert_int_eq(ns_handshake_accept(&h, &rm_schema, &rc, NULL, 0), NS_OK);
    ns_replica *x = ns_replica_create(&rc, NULL);
    ck_assert_ptr_nonnull(x);
    uint64_t rng = 77;
    uint32_t refused = 0;
    static uint8_t before[1024], after[1024];
    for (uint32_t t = 1; t <= 400; t++) {
        for (ns_entity_id e = 0; e < ENTITIES; e++) set_values(e, t);
        ck_assert_int_eq(ns_world_tick(game.world, t), NS_OK);
        uint8_t buf[RH_MAX_PACKET], bad[RH_MAX_PACKET];
        size_t len = 0;
        ck_assert_int_eq(ns_world_write_packet(game.world, game.conn[2], buf, sizeof buf, &len, NULL), NS_OK);
        memcpy(bad, buf, len);
        size_t n = len;
        for (uint64_t k = rh_next(&rng) % 4; k < 4; k++) {
            size_t bit = (size_t)(rh_next(&rng) % (len * 8));
            bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        if (rh_next(&rng) % 4 == 0) n = (size_t)(rh_next(&rng) % (len + 1));
        size_t nb = digest(x, before);
        if (ns_replica_read_packet(x, bad, n) != NS_OK) {
            refused++;
            ck_assert_uint_eq(digest(x, after), nb);
            ck_assert_mem_eq(before, after, nb);
        } else { /* accepted garbage (no checksum: the transport's job): start over */
            ns_replica_destroy(x);
            x = ns_replica_create(&rc, NULL);
            ck_assert_ptr_nonnull(x);
        }
        ck_assert_int_eq(ns_replica_read_packet(x, buf, len), NS_OK);
        for (ns_entity_id e = 0; e < ENTITIES; e++) {
            uint32_t tick;
            const rm_Body_snap *s = ns_replica_snap(x, e, RM_BODY_ID, &tick);
            ck_assert_ptr_nonnull(s);
            ck_assert_uint_eq(tick, t);
            const rm_Body_snap *server = ns_world_recorded(game.world, e, RM_BODY_ID, t);
            ck_assert_uint_eq(audience_of(s, server, 2, e, t), (e == 0 ? NS_TO_PREDICTED : 0u) | NS_TO_CUSTOM);
        }
    }
    ck_assert_uint_gt(refused, 100);
    ns_replica_destroy(x);
    rh_stop(&game);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("repl_modes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, each_client_sees_its_audience);
    tcase_add_test(tc, dump_names_the_audience);
    tcase_add_test(tc, mutated_packets_leave_the_replica_usable);
    tcase_add_loop_test(tc, modes_switch_under_loss_with_no_leak, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
