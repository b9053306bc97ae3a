/* test_authority.c — client-authoritative fields (@authority(owner), netschema/replication.h):
 * the owning client's writes reach the server through the generated _authority_send and
 * ns_world_read_authority, and from there every other client through the ordinary snapshot
 * packets; a hostile client's out-of-range, non-finite or invalid values, writes to entities it
 * does not own, writes the application's hook refuses, and truncated or garbage messages are
 * refused and reported, and never change the world. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "auth.ns.h"
#include "ns_test.h"
#include "repl_harness.h"

#define CLIENTS 3

static rh_game game; /* large: the links' queues */

typedef struct fixture {
    ns_entity_id pawn, marker, unowned;
} fixture;

/* A world with a pawn and a marker owned by client 0, a pawn owned by nobody, spawned everywhere. */
static fixture start(void)
{
    ns_world_config cfg = {.schema = &au_schema, .max_entities = 16, .max_connections = CLIENTS};
    rh_impair clean = {0};
    rh_start(&game, cfg, CLIENTS, clean, 7);
    fixture f;
    uint32_t both[2] = {AU_PAWN_ID, AU_MARKER_ID}, one[1] = {AU_PAWN_ID};
    ck_assert_int_eq(ns_world_spawn(game.world, both, 2, &f.pawn), NS_OK);
    ck_assert_int_eq(ns_world_spawn(game.world, one, 1, &f.unowned), NS_OK);
    f.marker = f.pawn;
    ck_assert_int_eq(ns_world_set_owner(game.world, f.pawn, (int32_t)game.conn[0]), NS_OK);
    for (int i = 0; i < 4; i++) rh_step(&game);
    for (uint32_t c = 0; c < CLIENTS; c++) ck_assert(ns_replica_has(game.replica[c], f.pawn));
    return f;
}

static au_Pawn honest_value(void)
{
    au_Pawn v;
    au_Pawn_init(&v);
    v.pos = (ns_vec3){1.5f, 2.25f, -3.0f};
    v.yaw = 90.0f;
    v.speed = 12;
    v.stance = au_Stance_crouch;
    v.firing = true;
    v.aim = 0.25f;
    return v;
}

/* The server's state of e's pawn for the next tick. */
static au_Pawn_snap server_pawn(ns_entity_id e)
{
    const au_Pawn_snap *s = ns_world_snap(game.world, e, AU_PAWN_ID);
    ck_assert_ptr_nonnull(s);
    return *s;
}

/* Reads one message of len bytes from client c; the report goes to *rep. */
static ns_status server_reads(uint32_t c, const uint8_t *buf, size_t len, ns_authority_validate_fn fn, void *ctx,
                              ns_authority_report *rep)
{
    ns_reader r;
    ns_reader_init(&r, buf, len);
    return ns_world_read_authority(game.world, game.conn[c], &r, fn, ctx, rep);
}

/* An authority message for the pawn of entity e with the owner-written fields of snap, which
 * may hold what no honest client would quantize (the generated writer sends it as it is). */
static size_t message(uint8_t *buf, size_t cap, ns_entity_id e, uint32_t type, const au_Pawn_snap *snap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ns_authority_write_header(&w, e, type);
    ck_assert_int_eq(au_Pawn_authority_write(&w, snap), NS_OK);
    return ns_writer_flush(&w);
}

static size_t honest_message(uint8_t *buf, size_t cap, ns_entity_id e)
{
    au_Pawn v = honest_value();
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ck_assert_int_eq(au_Pawn_authority_send(&w, e, &v), NS_OK);
    return ns_writer_flush(&w);
}

START_TEST(honest_owner_reaches_everyone)
{
    fixture f = start();
    uint8_t buf[AU_PAWN_AUTHORITY_MAX_BYTES];
    size_t len = honest_message(buf, sizeof buf, f.pawn);
    ck_assert_uint_le(len, AU_PAWN_AUTHORITY_MAX_BYTES);
    ns_authority_report rep;
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_OK);
    ck_assert_int_eq(rep.status, NS_OK);
    ck_assert_ptr_null(rep.field);
    ck_assert_uint_eq(rep.clamped, 0);
    ck_assert_uint_eq(rep.entity, f.pawn);
    ck_assert_uint_eq(rep.type, AU_PAWN_ID);
    au_Pawn_snap s = server_pawn(f.pawn);
    ck_assert_int_eq(s.pos[0], 150);
    ck_assert_int_eq(s.pos[1], 225);
    ck_assert_int_eq(s.pos[2], -300);
    ck_assert_int_eq(s.yaw, 9000);
    ck_assert_int_eq(s.speed, 12);
    ck_assert_int_eq(s.hp, 100); /* a server field: not in the message */
    for (int i = 0; i < 4; i++) rh_step(&game);
    ck_assert_uint_eq(game.read_errors, 0);
    /* Every client, the owner included, now holds the owner's values. */
    for (uint32_t c = 0; c < CLIENTS; c++) {
        const au_Pawn *v = ns_replica_value(game.replica[c], f.pawn, AU_PAWN_ID);
        ck_assert_ptr_nonnull(v);
        ck_assert_float_eq(v->pos.x, 1.5f);
        ck_assert_float_eq(v->pos.y, 2.25f);
        ck_assert_float_eq(v->pos.z, -3.0f);
        ck_assert_float_eq(v->yaw, 90.0f);
        ck_assert_int_eq(v->speed, 12);
        ck_assert_int_eq(v->stance, au_Stance_crouch);
        ck_assert(v->firing);
        ck_assert_float_eq(v->aim, 0.25f);
        ck_assert_int_eq(v->hp, 100);
    }
    rh_stop(&game);
}
END_TEST

/* Each hostile value is refused with NS_ERR_RANGE naming its field, and changes nothing. */
START_TEST(hostile_values_refused)
{
    fixture f = start();
    au_Pawn_snap before = server_pawn(f.pawn), evil;
    au_Pawn v = honest_value();
    struct {
        const char *field;
        int         which;
    } cases[] = {{"yaw", 0}, {"yaw", 1}, {"speed", 2}, {"speed", 3}, {"stance", 4}, {"aim", 5}, {"aim", 6}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        au_Pawn_quantize(&v, &evil);
        switch (cases[i].which) {
        case 0: evil.yaw = 18001; break;              /* 180.01 degrees */
        case 1: evil.yaw = INT32_MIN; break;
        case 2: evil.speed = -1; break;
        case 3: evil.speed = 51; break;
        case 4: evil.stance = 3; break;               /* no such stance */
        case 5: evil.aim = ns_f32_bits(NAN); break;
        default: evil.aim = ns_f32_bits(-INFINITY); break;
        }
        uint8_t buf[64];
        size_t len = message(buf, sizeof buf, f.pawn, AU_PAWN_ID, &evil);
        ns_authority_report rep;
        ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_RANGE);
        ck_assert_int_eq(rep.status, NS_ERR_RANGE);
        ck_assert_ptr_nonnull(rep.field);
        ck_assert_str_eq(rep.field, cases[i].field);
        au_Pawn_snap after = server_pawn(f.pawn);
        ck_assert_mem_eq(&after, &before, sizeof before);
    }
    rh_step(&game);
    rh_step(&game);
    for (uint32_t c = 0; c < CLIENTS; c++) {
        const au_Pawn *seen = ns_replica_value(game.replica[c], f.pawn, AU_PAWN_ID);
        ck_assert_float_eq(seen->yaw, 0.0f);
        ck_assert_int_eq(seen->speed, 0);
    }
    rh_stop(&game);
}
END_TEST

/* pos is @authority(owner, clamp): out of @range it is clamped, reported, and applied. */
START_TEST(clamped_field_applied_and_reported)
{
    fixture f = start();
    au_Pawn_snap evil;
    au_Pawn v = honest_value();
    au_Pawn_quantize(&v, &evil);
    evil.pos[0] = 25000;     /* 250 m: the range ends at 100 */
    evil.pos[2] = INT32_MIN;
    uint8_t buf[64];
    size_t len = message(buf, sizeof buf, f.pawn, AU_PAWN_ID, &evil);
    ns_authority_report rep;
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_OK);
    ck_assert_uint_eq(rep.clamped, 1);
    ck_assert_str_eq(rep.clamped_field, "pos");
    ck_assert_ptr_null(rep.field);
    au_Pawn_snap s = server_pawn(f.pawn);
    ck_assert_int_eq(s.pos[0], 10000);
    ck_assert_int_eq(s.pos[1], 225);
    ck_assert_int_eq(s.pos[2], -10000);
    for (int i = 0; i < 3; i++) rh_step(&game);
    const au_Pawn *seen = ns_replica_value(game.replica[2], f.pawn, AU_PAWN_ID);
    ck_assert_float_eq(seen->pos.x, 100.0f);
    ck_assert_float_eq(seen->pos.z, -100.0f);
    /* A clamp does not excuse another field's refusal: the whole write is refused. */
    evil.speed = 99;
    len = message(buf, sizeof buf, f.pawn, AU_PAWN_ID, &evil);
    au_Pawn_snap before = server_pawn(f.pawn);
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_RANGE);
    ck_assert_str_eq(rep.field, "speed");
    au_Pawn_snap after = server_pawn(f.pawn);
    ck_assert_mem_eq(&after, &before, sizeof before);
    rh_stop(&game);
}
END_TEST

/* Writes by a client that does not own the entity are refused, never applied, never seen. */
START_TEST(non_owner_refused)
{
    fixture f = start();
    uint8_t buf[64];
    au_Pawn_snap before = server_pawn(f.pawn), before_unowned = server_pawn(f.unowned);
    ns_authority_report rep;
    size_t len = honest_message(buf, sizeof buf, f.pawn);
    ck_assert_int_eq(server_reads(1, buf, len, NULL, NULL, &rep), NS_ERR_DENIED);
    ck_assert_int_eq(rep.status, NS_ERR_DENIED);
    ck_assert_uint_eq(rep.conn, game.conn[1]);
    ck_assert_uint_eq(rep.entity, f.pawn);
    ck_assert_str_eq(ns_status_str(rep.status), "write denied: not the owner");
    len = honest_message(buf, sizeof buf, f.unowned);
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_DENIED);
    /* Out-of-range values from a non-owner: refused as a non-owner's, whatever they hold. */
    au_Pawn_snap evil = before;
    evil.speed = 4000;
    len = message(buf, sizeof buf, f.pawn, AU_PAWN_ID, &evil);
    ck_assert_int_eq(server_reads(2, buf, len, NULL, NULL, &rep), NS_ERR_DENIED);
    ck_assert_ptr_null(rep.field);
    au_Pawn_snap a = server_pawn(f.pawn), b = server_pawn(f.unowned);
    ck_assert_mem_eq(&a, &before, sizeof a);
    ck_assert_mem_eq(&b, &before_unowned, sizeof b);
    /* A component without owner-written fields, an unknown type, an entity that is not there. */
    len = message(buf, sizeof buf, f.marker, AU_MARKER_ID, &evil);
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_DENIED);
    len = message(buf, sizeof buf, f.pawn, 999, &evil);
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_UNKNOWN_TYPE);
    len = message(buf, sizeof buf, 12, AU_PAWN_ID, &evil);
    ck_assert_int_eq(server_reads(0, buf, len, NULL, NULL, &rep), NS_ERR_UNKNOWN_ID);
    ck_assert_uint_eq(rep.entity, 12);
    for (int i = 0; i < 3; i++) rh_step(&game);
    for (uint32_t c = 0; c < CLIENTS; c++) {
        const au_Pawn *seen = ns_replica_value(game.replica[c], f.pawn, AU_PAWN_ID);
        ck_assert_int_eq(seen->speed, 0);
        ck_assert(!seen->firing);
    }
    rh_stop(&game);
}
END_TEST

/* A refused message is still read to its end: the owner's next message in the stream applies. */
START_TEST(refused_message_keeps_stream)
{
    fixture f = start();
    uint8_t buf[128];
    au_Pawn v = honest_value();
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(au_Pawn_authority_send(&w, f.unowned, &v), NS_OK);  /* not client 0's */
    v.speed = 33;
    ck_assert_int_eq(au_Pawn_authority_send(&w, f.pawn, &v), NS_OK);
    size_t len = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, len);
    ns_authority_report rep;
    ck_assert_int_eq(ns_world_read_authority(game.world, game.conn[0], &r, NULL, NULL, &rep), NS_ERR_DENIED);
    ck_assert_int_eq(ns_world_read_authority(game.world, game.conn[0], &r, NULL, NULL, &rep), NS_OK);
    ck_assert_int_eq(server_pawn(f.pawn).speed, 33);
    ck_assert_int_eq(server_pawn(f.unowned).speed, 0);
    rh_stop(&game);
}
END_TEST

typedef struct hook_ctx {
    uint32_t     calls;
    ns_entity_id entity;
    int32_t      max_speed;
} hook_ctx;

/* The application's rule: no faster than max_speed, and only the pawn's current state as the base. */
static ns_status speed_limit(const void *proposed, const void *current, void *ctx, ns_authority_report *report)
{
    hook_ctx *h = ctx;
    const au_Pawn_snap *p = proposed, *cur = current;
    h->calls++;
    ck_assert_uint_eq(report->entity, h->entity);
    ck_assert_uint_eq(report->type, AU_PAWN_ID);
    ck_assert_int_eq(cur->speed, server_pawn(h->entity).speed);
    if (p->speed > h->max_speed) {
        report->field = "speed";
        return NS_ERR_DENIED;
    }
    return NS_OK;
}

START_TEST(validation_hook_can_refuse)
{
    fixture f = start();
    hook_ctx h = {0, f.pawn, 10};
    uint8_t buf[64];
    au_Pawn_snap before = server_pawn(f.pawn);
    size_t len = honest_message(buf, sizeof buf, f.pawn); /* speed 12 */
    ns_authority_report rep;
    ck_assert_int_eq(server_reads(0, buf, len, speed_limit, &h, &rep), NS_ERR_DENIED);
    ck_assert_uint_eq(h.calls, 1);
    ck_assert_str_eq(rep.field, "speed");
    au_Pawn_snap after = server_pawn(f.pawn);
    ck_assert_mem_eq(&after, &before, sizeof before);
    h.max_speed = 20;
    ck_assert_int_eq(server_reads(0, buf, len, speed_limit, &h, &rep), NS_OK);
    ck_assert_uint_eq(h.calls, 2);
    ck_assert_int_eq(server_pawn(f.pawn).speed, 12);
    /* A value the generated checks refuse never reaches the hook; nor does a non-owner's write. */
    au_Pawn_snap evil = server_pawn(f.pawn);
    evil.yaw = 99999;
    len = message(buf, sizeof buf, f.pawn, AU_PAWN_ID, &evil);
    ck_assert_int_eq(server_reads(0, buf, len, speed_limit, &h, &rep), NS_ERR_RANGE);
    len = honest_message(buf, sizeof buf, f.pawn);
    ck_assert_int_eq(server_reads(1, buf, len, speed_limit, &h, &rep), NS_ERR_DENIED);
    ck_assert_uint_eq(h.calls, 2);
    rh_stop(&game);
}
END_TEST

static ns_status typed_refuse_firing(const au_Pawn_snap *proposed, const au_Pawn_snap *current, void *ctx,
                                     ns_authority_report *report)
{
    (void)current, (void)ctx;
    if (proposed->firing) return report->field = "firing", NS_ERR_DENIED;
    return NS_OK;
}

/* The generated functions alone, without a world: the payload round-trips, a typed hook refuses. */
START_TEST(generated_read_typed_hook)
{
    au_Pawn v = honest_value();
    au_Pawn_snap sent, into = au_Pawn_snap_default, before;
    au_Pawn_quantize(&v, &sent);
    uint8_t buf[AU_PAWN_AUTHORITY_MAX_BYTES];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(au_Pawn_authority_write(&w, &sent), NS_OK);
    size_t len = ns_writer_flush(&w);
    ck_assert_uint_eq(len, (32u * 4 + 16 + 8 + 1 + 32 + 7) / 8); /* 185 bits */
    ns_reader r;
    ns_authority_report rep;
    ns_reader_init(&r, buf, len);
    before = into;
    ck_assert_int_eq(au_Pawn_authority_read(&r, &into, typed_refuse_firing, NULL, &rep), NS_ERR_DENIED);
    ck_assert_str_eq(rep.field, "firing");
    ck_assert_mem_eq(&into, &before, sizeof into);
    ns_reader_init(&r, buf, len);
    ck_assert_int_eq(au_Pawn_authority_read(&r, &into, NULL, NULL, &rep), NS_OK);
    ck_assert_int_eq(into.yaw, sent.yaw);
    ck_assert_int_eq(into.stance, sent.stance);
    ck_assert_uint_eq(into.aim, sent.aim);
    ck_assert_int_eq(into.hp, 100); /* not owner-written: left as it was */
    ck_assert_mem_eq(into.pos, sent.pos, sizeof into.pos);
}
END_TEST

/* Every truncation of a valid message, and garbage, is refused with the world unchanged; garbage
 * the owner sends that happens to decode stores only values the checks allow. */
START_TEST(truncated_and_garbage_refused)
{
    fixture f = start();
    uint8_t buf[64];
    size_t len = honest_message(buf, sizeof buf, f.pawn);
    au_Pawn_snap before = server_pawn(f.pawn);
    ns_authority_report rep;
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t part[64];
        memcpy(part, buf, cut);
        ns_status st = server_reads(0, part, cut, NULL, NULL, &rep);
        NS_CHECK(st == NS_ERR_TRUNCATED, "cut %zu: %s", cut, ns_status_str(st));
        au_Pawn_snap after = server_pawn(f.pawn);
        NS_CHECK(memcmp(&after, &before, sizeof after) == 0, "cut %zu changed the world", cut);
    }
    ns_rng rng = {42};
    uint32_t applied = 0;
    for (int i = 0; i < 20000; i++) {
        uint8_t junk[40];
        size_t n;
        if (i % 3 == 0) {
            /* The honest message with a few bits flipped (header included), perhaps cut short. */
            n = len;
            memcpy(junk, buf, len);
            for (uint64_t k = 1 + ns_rng_below(&rng, 4); k > 0; k--) {
                size_t bit = (size_t)ns_rng_below(&rng, len * 8);
                junk[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            if (ns_rng_below(&rng, 4) == 0) n = (size_t)ns_rng_below(&rng, len);
        } else {
            n = (size_t)ns_rng_below(&rng, sizeof junk + 1);
            for (size_t k = 0; k < n; k++) junk[k] = (uint8_t)ns_rng_next(&rng);
            /* Aim the header at the owned pawn half the time, so the payload checks are reached. */
            if (n >= 5 && (i & 1)) {
                junk[0] = (uint8_t)f.pawn, junk[1] = 0, junk[2] = 0; /* the 24-bit id, low byte first */
                junk[3] = (uint8_t)(AU_PAWN_ID & 0xffu), junk[4] = (uint8_t)(AU_PAWN_ID >> 8);
            }
        }
        before = server_pawn(f.pawn);
        ns_status nonowner = server_reads(1, junk, n, NULL, NULL, &rep);
        NS_CHECK(nonowner != NS_OK, "garbage from a non-owner was applied");
        au_Pawn_snap after = server_pawn(f.pawn);
        NS_CHECK(memcmp(&after, &before, sizeof after) == 0, "a refused message changed the world");
        ns_status st = server_reads(0, junk, n, NULL, NULL, &rep);
        after = server_pawn(f.pawn);
        if (st != NS_OK) {
            NS_CHECK(memcmp(&after, &before, sizeof after) == 0, "a refused message changed the world");
            continue;
        }
        applied++;
        for (int k = 0; k < 3; k++) NS_CHECK(after.pos[k] >= -10000 && after.pos[k] <= 10000, "pos out of range");
        NS_CHECK(after.yaw >= -18000 && after.yaw <= 18000, "yaw out of range");
        NS_CHECK(after.speed >= 0 && after.speed <= 50, "speed out of range");
        NS_CHECK(au_Stance_is_valid(after.stance), "stance invalid");
        NS_CHECK((after.aim & 0x7f800000u) != 0x7f800000u, "aim not finite");
        NS_CHECK(after.hp == before.hp, "a server field changed");
    }
    ck_assert_uint_gt(applied, 0); /* the checks above were reached */
    for (int i = 0; i < 3; i++) rh_step(&game);
    ck_assert_uint_eq(game.read_errors, 0);
    rh_stop(&game);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("authority");
    TCase *tc = tcase_create("authority");
    tcase_add_test(tc, honest_owner_reaches_everyone);
    tcase_add_test(tc, hostile_values_refused);
    tcase_add_test(tc, clamped_field_applied_and_reported);
    tcase_add_test(tc, non_owner_refused);
    tcase_add_test(tc, refused_message_keeps_stream);
    tcase_add_test(tc, validation_hook_can_refuse);
    tcase_add_test(tc, generated_read_typed_hook);
    tcase_add_test(tc, truncated_and_garbage_refused);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
