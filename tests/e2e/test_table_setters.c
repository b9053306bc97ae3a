/* test_table_setters.c — the setter macros of table-driven records (netschema/table.h
 * NS_TABLE_SET; docs/generated-api.md "Table mode"): mixed.netschema's Body and Move are coded
 * by the table in any mode, arrays.netschema's Loadout in its table-mode build. A setter stores
 * and marks only a change (bitwise for floats), evaluates each argument once, takes a compound
 * literal unparenthesized, ignores an array index past the end; strings are sanitized (the member
 * itself as the source included), bytes cut, structs compared; _is_dirty and _clear_dirty see
 * and clear every word. test_table_stream compares the macros' results with the default mode's
 * functions on random values; table_setter_types checks that a wrong pointer does not compile. */
#include <math.h>
#include <string.h>

#include "arrays.ns.h"
#include "mixed.ns.h"
#include "ns_test.h"

START_TEST(store_and_mark_only_a_change)
{
    mixed_Body b;
    mixed_Body_init(&b);
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_hp(&b, 100); /* the default: no change */
    ck_assert(!mixed_Body_is_dirty(&b));
    mixed_Body_set_hp(&b, 7);
    ck_assert_int_eq(b.hp, 7);
    ck_assert(mixed_Body_is_dirty(&b));
    ck_assert_uint_eq(b.ns_dirty[0], UINT32_C(1) << 2);
    mixed_Body_clear_dirty(&b);
    ck_assert(!mixed_Body_is_dirty(&b));
    mixed_Body_set_pos(&b, (ns_vec3){1.0f, 2.0f, 3.0f}); /* commas inside braces: one value */
    ck_assert(b.pos.x == 1.0f && b.pos.y == 2.0f && b.pos.z == 3.0f);
    ck_assert_uint_eq(b.ns_dirty[0], UINT32_C(1) << 0);
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_pos(&b, (ns_vec3){1.0f, 2.0f, 3.0f});
    ck_assert(!mixed_Body_is_dirty(&b));
    mixed_Body_set_pos(&b, (ns_vec3){1.0f, -0.0f, 3.0f}); /* bitwise: -0 differs from 2 and from 0 */
    ck_assert(signbit(b.pos.y));
    ck_assert_uint_eq(b.ns_dirty[0], UINT32_C(1) << 0);
    mixed_Body_set_on(&b, true);
    ck_assert_uint_eq(b.ns_dirty[0], (UINT32_C(1) << 0) | (UINT32_C(1) << 5));

    mixed_Move m; /* an input's setters are macros too */
    mixed_Move_init(&m);
    mixed_Move_set_dx(&m, -3);
    ck_assert_int_eq(m.dx, -3);
    ck_assert(mixed_Move_is_dirty(&m));
    mixed_Move_clear_dirty(&m);
    ck_assert(!mixed_Move_is_dirty(&m));
}
END_TEST

START_TEST(each_argument_once)
{
    mixed_Body bodies[2];
    mixed_Body_init(&bodies[0]);
    mixed_Body_init(&bodies[1]);
    mixed_Body *p = bodies;
    int32_t hp = 5;
    mixed_Body_set_hp(p++, hp++);
    ck_assert_ptr_eq(p, &bodies[1]);
    ck_assert_int_eq(hp, 6);
    ck_assert_int_eq(bodies[0].hp, 5);
    ck_assert_int_eq(bodies[1].hp, 100);
    arr_Loadout l;
    arr_Loadout_init(&l);
    uint32_t i = 1;
    arr_Loadout_set_ammo(&l, i++, 9);
    ck_assert_uint_eq(i, 2);
    ck_assert_uint_eq(l.ammo[1], 9);
}
END_TEST

START_TEST(array_elements)
{
    arr_Loadout l, before;
    arr_Loadout_init(&l);
    arr_Loadout_clear_dirty(&l);
    arr_Loadout_set_ammo(&l, 2, 9);
    ck_assert_uint_eq(l.ammo[2], 9);
    ck_assert_uint_eq(l.ns_dirty[0], UINT32_C(1) << 2); /* ammo's elements are fields 0-3 */
    arr_Loadout_set_points(&l, 1, (ns_vec3){1.0f, 2.0f, 3.0f});
    ck_assert(l.points[1].z == 3.0f);
    memcpy(&before, &l, sizeof l);
    arr_Loadout_set_ammo(&l, 4, 9); /* past the end: nothing */
    arr_Loadout_set_points(&l, 2, (ns_vec3){4.0f, 5.0f, 6.0f});
    ck_assert(memcmp(&before, &l, sizeof l) == 0);
    /* score is field 32: the second dirty word, which _is_dirty and _clear_dirty must see */
    arr_Loadout_clear_dirty(&l);
    arr_Loadout_set_score(&l, 77);
    ck_assert_uint_eq(l.ns_dirty[0], 0);
    ck_assert_uint_eq(l.ns_dirty[1], UINT32_C(1) << 0);
    ck_assert(arr_Loadout_is_dirty(&l));
    arr_Loadout_clear_dirty(&l);
    ck_assert(!arr_Loadout_is_dirty(&l));
    ck_assert_uint_eq(l.ns_dirty[1], 0);
}
END_TEST

START_TEST(strings_bytes_structs)
{
    mixed_Body b;
    mixed_Body_init(&b);
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_tag(&b, "h\xc3\xa9llo w\xc3\xb6rld"); /* string<8>: cut before the 9th byte */
    ck_assert_str_eq(b.tag, "h\xc3\xa9llo w");
    ck_assert_uint_eq(b.ns_dirty[0], UINT32_C(1) << 4);
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_tag(&b, "h\xc3\xa9llo w\xc3\xb6rld"); /* the same after sanitizing: no change */
    mixed_Body_set_tag(&b, b.tag);                      /* the member itself */
    ck_assert(!mixed_Body_is_dirty(&b));
    mixed_Body_set_tag(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"); /* 10 bytes: 4 whole characters fit */
    ck_assert_str_eq(b.tag, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    mixed_Body_clear_dirty(&b);
    memcpy(b.tag, "a\xff" "b", 4); /* written directly: invalid UTF-8, then set to itself */
    mixed_Body_set_tag(&b, b.tag);
    ck_assert_str_eq(b.tag, "ab");
    ck_assert(b.tag[2] == 0 && b.tag[3] == 0 && b.tag[8] == 0); /* the rest zeroed */
    ck_assert(mixed_Body_is_dirty(&b));

    mixed_Pair p = {3, -4};
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_p(&b, &p);
    ck_assert(b.p.x == 3 && b.p.y == -4);
    ck_assert_uint_eq(b.ns_dirty[0], UINT32_C(1) << 3);
    mixed_Body_clear_dirty(&b);
    mixed_Body_set_p(&b, &p);
    mixed_Body_set_p(&b, &b.p);
    ck_assert(!mixed_Body_is_dirty(&b));

    arr_Loadout l;
    arr_Loadout_init(&l);
    arr_Loadout_clear_dirty(&l);
    arr_Loadout_set_blobs(&l, 1, "abcdef", 6); /* bytes<4>: the first 4 */
    ck_assert_uint_eq(l.blobs[1].len, 4);
    ck_assert(memcmp(l.blobs[1].data, "abcd", 4) == 0);
    ck_assert_uint_eq(l.ns_dirty[0], UINT32_C(1) << 31); /* blobs are fields 30-31 */
    arr_Loadout_clear_dirty(&l);
    arr_Loadout_set_blobs(&l, 1, "abcd", 4);
    arr_Loadout_set_tags(&l, 1, "x"); /* tags default to "x" */
    ck_assert(!arr_Loadout_is_dirty(&l));
    arr_Loadout_set_tags(&l, 2, "past the end");
    arr_Loadout_set_blobs(&l, 2, "zz", 2);
    ck_assert(!arr_Loadout_is_dirty(&l));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("table_setters");
    TCase *tc = tcase_create("table_setters");
    tcase_add_test(tc, store_and_mark_only_a_change);
    tcase_add_test(tc, each_argument_once);
    tcase_add_test(tc, array_elements);
    tcase_add_test(tc, strings_bytes_structs);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
