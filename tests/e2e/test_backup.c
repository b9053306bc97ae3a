/* test_backup.c — the generated _backup and _restore (docs/generated-api.md, "_backup and
 * _restore"): a backup holds the predicted fields of a snapshot (those the owner receives:
 * @sync all and owner, @initial included, structs, strings and lists whole); restoring it puts
 * exactly those back and leaves the observer-only and local fields as they are. */
#include <string.h>

#include "ns_test.h"
#include "backup.ns.h"

/* An Avatar snapshot whose every field depends on k. */
static bk_Avatar_snap avatar(int k)
{
    bk_Avatar a;
    bk_Avatar_init(&a);
    a.position = (ns_vec3){(float)k, 2.0f * (float)k, -3.0f};
    a.facing = ns_quat_normalize((ns_quat){0, (float)k / 10.0f, 0, 1});
    a.stats.hp = 10 + k;
    a.stats.level = (uint8_t)(k + 1);
    memset(a.name, 0, sizeof a.name);
    memcpy(a.name, k == 1 ? "first" : "second one", k == 1 ? 5 : 10);
    bk_Avatar_hotbar_clear(&a);
    for (int i = 0; i < k + 1 && i < 4; i++) bk_Avatar_hotbar_add(&a, (uint16_t)(100 * k + i));
    a.ammo = (uint16_t)(30 + k);
    a.emote = (uint8_t)(5 + k);
    a.local = (uint32_t)(1000 + k);
    bk_Avatar_snap s;
    bk_Avatar_quantize(&a, &s);
    return s;
}

START_TEST(restore_puts_back_the_predicted_fields_only)
{
    bk_Avatar_snap live = avatar(1), first = avatar(1), second = avatar(2);
    bk_Avatar_snap backup;
    memset(&backup, 0xAB, sizeof backup); /* the fields a backup does not take keep these bytes */
    bk_Avatar_backup(&live, &backup);
    ck_assert_mem_eq(backup.position, first.position, sizeof backup.position);
    ck_assert_uint_eq(backup.facing, first.facing);
    ck_assert_int_eq(backup.stats.hp, 11);
    ck_assert_uint_eq(backup.stats.level, 2);
    ck_assert_str_eq(backup.name, "first");
    ck_assert_uint_eq(backup.hotbar.count, 2);
    ck_assert_uint_eq(backup.hotbar.items[1], 101);
    ck_assert_uint_eq(backup.ammo, 31);
    ck_assert_uint_eq(backup.emote, 0xAB);        /* @sync(others): not the owner's */
    ck_assert_uint_eq(backup.local, 0xABABABABu); /* @sync(none): not sent at all */

    /* The simulation runs on: every field changes. */
    live = second;
    ck_assert(!bk_Avatar_snap_equal(&live, &first));
    bk_Avatar_restore(&live, &backup);
    /* The predicted fields are the backed-up ones... */
    ck_assert_mem_eq(live.position, first.position, sizeof live.position);
    ck_assert_uint_eq(live.facing, first.facing);
    ck_assert_int_eq(live.stats.hp, 11);
    ck_assert_str_eq(live.name, "first");
    ck_assert_uint_eq(live.hotbar.count, 2);
    ck_assert_uint_eq(live.ammo, 31);
    /* ...and the others are still the live ones. */
    ck_assert_uint_eq(live.emote, 7);
    ck_assert_uint_eq(live.local, 1002);
    /* So the restored snapshot is `first` with `second`'s observer-only and local fields. */
    bk_Avatar_snap expect = first;
    expect.emote = second.emote, expect.local = second.local;
    ck_assert(bk_Avatar_snap_equal(&live, &expect));
}
END_TEST

/* A restore of a backup taken from the same snapshot changes nothing, and a list that shrank
 * comes back whole (count and items). */
START_TEST(round_trip_is_the_identity_on_predicted_fields)
{
    bk_Avatar_snap a = avatar(3), b = avatar(1), backup = avatar(2);
    bk_Avatar_backup(&a, &backup);
    bk_Avatar_snap copy = a;
    bk_Avatar_restore(&a, &backup);
    ck_assert(bk_Avatar_snap_equal(&a, &copy));
    bk_Avatar_restore(&b, &backup);
    ck_assert_uint_eq(b.hotbar.count, 4);
    ck_assert_uint_eq(b.hotbar.items[3], 303);
    ck_assert_str_eq(b.name, "second one");
    ck_assert_uint_eq(b.emote, avatar(1).emote);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("backup");
    TCase *tc = tcase_create("backup");
    tcase_add_test(tc, restore_puts_back_the_predicted_fields_only);
    tcase_add_test(tc, round_trip_is_the_identity_on_predicted_fields);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
