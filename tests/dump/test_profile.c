/* test_profile.c — the per-field bandwidth profile (netschema/profile.h), built with NS_PROFILE
 * (the generated code of wire.netschema and the runtime): the profile's bits add up to the bits
 * the generated writes put in the writer, record for record and type for type, and the table
 * and JSON show what a user reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "wire.ns.h"

#ifndef NS_PROFILE
#error "test_profile is built with NS_PROFILE"
#endif

static uint8_t buf[1 << 16];

static char *report_text(const ns_profile *p, bool json)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    if (json) ns_profile_json(p, f);
    else ns_profile_report(p, f);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

START_TEST(report_shows_bits_per_field)
{
    ns_profile p;
    ns_profile_init(&p);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert(ns_writer_set_profile(&w, &p));
    wire_Health h;
    wire_Health_snap s;
    wire_Health_init(&h);
    h.hp = 99; /* docs/wire.md section 2: 7 bits */
    wire_Health_quantize(&h, &s);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OBSERVER), NS_OK);
    wire_Health_init(&h);
    h.alive = false; /* 4 bits */
    wire_Health_quantize(&h, &s);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OBSERVER), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), 11);
    ck_assert_uint_eq(p.bits, 11);
    ck_assert_uint_eq(p.writes, 2);
    char *text = report_text(&p, false);
    const char *want = "        bits   share     writes    changed  field\n"
                       "           5  45.45%          2          1  Health.hp\n"
                       "           2  18.18%          2          1  Health.alive\n"
                       "           2  18.18%          2          0  Health.team\n"
                       "           2  18.18%          2          0  Health.(any)\n"
                       "          11 100.00%          2             total (2 bytes)\n";
    if (strcmp(text, want)) fprintf(stderr, "%s", text);
    ck_assert_str_eq(text, want);
    free(text);
    text = report_text(&p, true);
    ck_assert_ptr_nonnull(strstr(text, "{\"bits\": 11, \"writes\": 2, \"failed\": 0, \"rows\": ["));
    ck_assert_ptr_nonnull(strstr(text, "{\"package\": \"wire\", \"type\": \"Health\", \"field\": \"hp\", \"writes\": 2, "
                                       "\"changed\": 1, \"bits\": 5, \"share\": 0.4545}"));
    free(text);
    ns_profile_free(&p);
}
END_TEST

/* ---- the sum ----------------------------------------------------------------------------------- */

static uint32_t seed = 7;

static uint32_t rnd(uint32_t n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
}

/* A value of each component, message and collection kind, changed a little every call. */
typedef struct world {
    wire_Health health;
    wire_Mover  mover;
    wire_Gear   gear;
    wire_Misc   misc;
    wire_Tagged tagged;
    wire_Flags  flags;
    wire_Ammo   ammo;
    wire_Pack   pack;
    wire_Hand   hand;
    wire_Queue  queue;
    wire_Move   move;
    wire_Say    say;
} world;

static void step(world *v)
{
    v->health.hp = (int32_t)rnd(1001);
    v->health.alive = rnd(2);
    v->mover.pos.x += (float)rnd(50) / 100.0f;
    v->mover.pos.z = (float)rnd(1000) / 10.0f;
    v->gear.ammo = (uint16_t)rnd(300);
    v->gear.emote = (uint8_t)rnd(4);
    snprintf(v->gear.title, sizeof v->gear.title, "t%u", rnd(1000));
    v->misc.speed = (float)rnd(100) / 7.0f;
    v->misc.level = (uint8_t)(1 + rnd(60));
    v->tagged.tag.on = rnd(2);
    v->tagged.tag.weight = (float)rnd(10);
    wire_Flags_on_add(&v->flags, (uint16_t)rnd(500));
    if (v->flags.on.count > 20) wire_Flags_on_clear(&v->flags);
    wire_Ammo_rounds_set(&v->ammo, (uint16_t)rnd(8), (int32_t)rnd(100) - 50);
    wire_Item it = {(uint16_t)rnd(10), (uint8_t)rnd(100)};
    uint32_t id;
    if (v->pack.items.count < 60) wire_Pack_items_add(&v->pack, &it, &id);
    if (v->hand.cards.count < 8) wire_Hand_cards_add(&v->hand, &it, &id);
    if (v->queue.ids.count < 16) wire_Queue_ids_add(&v->queue, (uint8_t)rnd(256));
    v->move.stick.x = (float)rnd(200) / 100.0f - 1.0f;
    v->move.jump = rnd(2);
    snprintf(v->say.text, sizeof v->say.text, "hello %u", rnd(100));
}

/* Writes every component against `base` (their own snapshot history), and the messages. */
#define WRITE_COMPONENT(T, field)                                                                  \
    do {                                                                                           \
        wire_##T##_quantize(&v->field, &snaps[k].field);                                           \
        ns_baselines b = {{&hist[0].field, &hist[1].field, &hist[2].field}, {tick - 1, tick - 2, tick - 3}, \
                          nbase, tick};                                                            \
        ck_assert_int_eq(wire_##T##_write(w, &snaps[k].field, &b, to), NS_OK);                     \
        (*writes)++;                                                                               \
    } while (0)

typedef struct snaps {
    wire_Health_snap health;
    wire_Mover_snap  mover;
    wire_Gear_snap   gear;
    wire_Misc_snap   misc;
    wire_Tagged_snap tagged;
    wire_Flags_snap  flags;
    wire_Ammo_snap   ammo;
    wire_Pack_snap   pack;
    wire_Hand_snap   hand;
    wire_Queue_snap  queue;
} snaps_t;

static void write_all(ns_writer *w, world *v, snaps_t *snaps, snaps_t *hist, uint32_t tick, uint32_t nbase,
                      ns_audience to, wire_Move_snap *prev, uint64_t *writes)
{
    const uint32_t k = 0;
    WRITE_COMPONENT(Health, health);
    WRITE_COMPONENT(Mover, mover);
    WRITE_COMPONENT(Gear, gear);
    WRITE_COMPONENT(Misc, misc);
    WRITE_COMPONENT(Tagged, tagged);
    WRITE_COMPONENT(Flags, flags);
    WRITE_COMPONENT(Ammo, ammo);
    WRITE_COMPONENT(Pack, pack);
    WRITE_COMPONENT(Hand, hand);
    WRITE_COMPONENT(Queue, queue);
    wire_Move_snap m;
    wire_Move_quantize(&v->move, &m);
    ck_assert_int_eq(wire_Move_write(w, &m, tick & 1 ? prev : NULL), NS_OK);
    *prev = m;
    wire_Say_snap s;
    wire_Say_quantize(&v->say, &s);
    ck_assert_int_eq(wire_Say_write(w, &s), NS_OK);
    *writes += 2;
}

START_TEST(profile_bits_add_up_to_the_bits_written)
{
    static world v;
    static snaps_t cur, hist[3];
    wire_Health_init(&v.health);
    wire_Mover_init(&v.mover);
    wire_Gear_init(&v.gear);
    wire_Misc_init(&v.misc);
    wire_Tagged_init(&v.tagged);
    wire_Flags_init(&v.flags);
    wire_Ammo_init(&v.ammo);
    wire_Pack_init(&v.pack);
    wire_Hand_init(&v.hand);
    wire_Queue_init(&v.queue);
    wire_Move_init(&v.move);
    memset(&v.say, 0, sizeof v.say);
    step(&v);
    /* The three baselines start as states the first writes would reach. */
    for (int i = 0; i < 3; i++) {
        wire_Health_quantize(&v.health, &hist[i].health), wire_Mover_quantize(&v.mover, &hist[i].mover);
        wire_Gear_quantize(&v.gear, &hist[i].gear), wire_Misc_quantize(&v.misc, &hist[i].misc);
        wire_Tagged_quantize(&v.tagged, &hist[i].tagged), wire_Flags_quantize(&v.flags, &hist[i].flags);
        wire_Ammo_quantize(&v.ammo, &hist[i].ammo), wire_Pack_quantize(&v.pack, &hist[i].pack);
        wire_Hand_quantize(&v.hand, &hist[i].hand), wire_Queue_quantize(&v.queue, &hist[i].queue);
    }
    ns_profile p;
    ns_profile_init(&p);
    uint64_t written = 0, writes = 0;
    wire_Move_snap prev;
    prev = wire_Move_snap_default;
    for (uint32_t tick = 10; tick < 210; tick++) {
        step(&v);
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ns_writer_set_profile(&w, &p);
        write_all(&w, &v, &cur, hist, tick, tick % 4, tick & 2 ? NS_TO_OWNER : NS_TO_OBSERVER, &prev, &writes);
        ck_assert(!ns_writer_overflowed(&w));
        written += ns_writer_bits(&w);
        hist[2] = hist[1], hist[1] = hist[0], hist[0] = cur;
    }
    ck_assert_uint_eq(p.failed, 0);
    ck_assert_uint_eq(p.writes, writes);
    ck_assert_uint_eq(p.bits, written);
    /* Type by type: the slots and any bits make up the type's bits; struct writes (collection
     * elements) are not records of their own. */
    uint64_t types = 0;
    for (uint32_t i = 0; i < p.count; i++) {
        const ns_profile_type *t = &p.types[i];
        uint64_t sum = t->any_bits;
        for (uint32_t s = 0; s < t->desc->field_count; s++) {
            sum += t->slots[s].bits;
            ck_assert_uint_le(t->slots[s].changed, t->slots[s].writes);
        }
        ck_assert_uint_eq(sum, t->bits);
        ck_assert_int_ne(t->desc->kind, NS_KIND_STRUCT);
        types += t->bits;
    }
    ck_assert_uint_eq(p.count, 12);
    ck_assert_uint_eq(types, written);
    ns_profile_free(&p);
}
END_TEST

START_TEST(writers_without_a_profile_count_nothing)
{
    ns_profile p;
    ns_profile_init(&p);
    wire_Health h;
    wire_Health_snap s;
    wire_Health_init(&h);
    h.hp = 5;
    wire_Health_quantize(&h, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    ck_assert_uint_eq(p.writes, 0);
    /* An overflowed write cannot be attributed: counted as failed, not as bits. */
    uint8_t small[1];
    ns_writer_init(&w, small, sizeof small);
    ns_writer_set_profile(&w, &p);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OWNER), NS_ERR_OVERFLOW);
    ck_assert_uint_eq(p.writes, 0);
    ck_assert_uint_eq(p.bits, 0);
    ck_assert_uint_eq(p.failed, 1);
    ns_profile_free(&p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("profile");
    tcase_add_test(tc, report_shows_bits_per_field);
    tcase_add_test(tc, profile_bits_add_up_to_the_bits_written);
    tcase_add_test(tc, writers_without_a_profile_count_nothing);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
