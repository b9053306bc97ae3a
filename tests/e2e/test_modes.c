/* test_modes.c — receiver conditions in the generated codec (idl/SPEC.md "@sync"): for every
 * ns_audience (owner, predicted and custom bits: 8 receivers) and both write kinds (full state,
 * delta), a field reaches the reader exactly when its @sync admits the receiver; every other
 * field keeps its reference. No @sync(predicted) field ever reaches an interpolating receiver
 * and no @sync(interpolated) field a predicting one. The descriptors' flags say the same. */
#include <string.h>

#include "ns_test.h"
#include "modes.ns.h"

/* What each @sync word admits, written out independently of the compiler. */
static bool is_owner(unsigned to) { return (to & NS_TO_OWNER) != 0; }
static bool predicts(unsigned to) { return (to & NS_TO_PREDICTED) != 0; }
static bool custom(unsigned to) { return (to & NS_TO_CUSTOM) != 0; }

static modes_Avatar_snap avatar(int k)
{
    modes_Avatar v;
    modes_Avatar_init(&v);
    v.pos = 10 * k, v.ammo = (uint16_t)(20 + k), v.emote = (uint8_t)(30 + k), v.aim = 40 + k, v.glide = -50 - k;
    v.debug = (uint8_t)(60 + k), v.kind = (uint8_t)(70 + k), v.secret = (uint32_t)(80 + k);
    modes_Avatar_snap s;
    modes_Avatar_quantize(&v, &s);
    return s;
}

/* Writes cur for `to` against base (NULL: a full state), reads it back with the same, returns it. */
static modes_Avatar_snap avatar_trip(const modes_Avatar_snap *cur, const modes_Avatar_snap *base, unsigned to)
{
    uint8_t buf[64];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_baselines b = {{base, NULL, NULL}, {7u, 0, 0}, base ? 1u : 0u, 8u};
    ck_assert_int_eq(modes_Avatar_write(&w, cur, &b, (ns_audience)to), NS_OK);
    const size_t bits = ns_writer_bits(&w);
    ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, sizeof buf);
    modes_Avatar_snap out;
    ck_assert_int_eq(modes_Avatar_read(&r, &out, &b, (ns_audience)to), NS_OK);
    ck_assert_uint_eq(ns_reader_bits(&r), bits); /* reader and writer agree on the layout */
    return out;
}

START_TEST(avatar_fields_reach_exactly_their_receivers)
{
    const modes_Avatar_snap cur = avatar(1), old = avatar(2);
    const modes_Avatar_snap zero = modes_Avatar_snap_default;
    for (unsigned to = 0; to < 8; to++) {
        for (int full = 0; full < 2; full++) {
            const modes_Avatar_snap *ref = full ? &zero : &old;
            modes_Avatar_snap got = avatar_trip(&cur, full ? NULL : &old, to);
            ck_assert_int_eq(got.pos, cur.pos);
            ck_assert_uint_eq(got.ammo, is_owner(to) ? cur.ammo : ref->ammo);
            ck_assert_uint_eq(got.emote, !is_owner(to) ? cur.emote : ref->emote);
            ck_assert_int_eq(got.aim, predicts(to) ? cur.aim : ref->aim);
            ck_assert_int_eq(got.glide, !predicts(to) ? cur.glide : ref->glide);
            ck_assert_uint_eq(got.debug, custom(to) ? cur.debug : ref->debug);
            ck_assert_uint_eq(got.kind, predicts(to) && full ? cur.kind : ref->kind);
            ck_assert_uint_eq(got.secret, ref->secret);
        }
    }
}
END_TEST

START_TEST(component_conditions_narrow_with_the_owner_axis)
{
    modes_Stance v;
    modes_Stance_init(&v);
    v.lean = 12, v.crouch = 1, v.peek = 2;
    modes_Stance_snap cur;
    const modes_Stance_snap zero = modes_Stance_snap_default;
    modes_Stance_quantize(&v, &cur);
    for (unsigned to = 0; to < 8; to++) {
        uint8_t buf[32];
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(modes_Stance_write(&w, &cur, NULL, (ns_audience)to), NS_OK);
        /* @sync(predicted) on the component: an interpolating receiver gets not one bit. */
        ck_assert_uint_eq(ns_writer_bits(&w) == 0, !predicts(to));
        ns_writer_flush(&w);
        ns_reader r;
        ns_reader_init(&r, buf, sizeof buf);
        modes_Stance_snap got;
        ck_assert_int_eq(modes_Stance_read(&r, &got, NULL, (ns_audience)to), NS_OK);
        ck_assert_int_eq(got.lean, predicts(to) ? 12 : zero.lean);
        ck_assert_uint_eq(got.crouch, predicts(to) && is_owner(to) ? 1 : zero.crouch);
        ck_assert_uint_eq(got.peek, predicts(to) && !is_owner(to) ? 2 : zero.peek);
    }
}
END_TEST

/* A condition word in an @sync(owner) component keeps the owner axis: owner and predicting. */
START_TEST(conditions_keep_the_components_owner_axis)
{
    modes_Owned v;
    modes_Owned_init(&v);
    v.near = 1, v.far = 2, v.always = 3;
    modes_Owned_snap cur;
    modes_Owned_quantize(&v, &cur);
    for (unsigned to = 0; to < 8; to++) {
        uint8_t buf[16];
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(modes_Owned_write(&w, &cur, NULL, (ns_audience)to), NS_OK);
        ns_writer_flush(&w);
        ns_reader r;
        ns_reader_init(&r, buf, sizeof buf);
        modes_Owned_snap got;
        ck_assert_int_eq(modes_Owned_read(&r, &got, NULL, (ns_audience)to), NS_OK);
        ck_assert_uint_eq(got.near, is_owner(to) && predicts(to) ? 1 : 0);
        ck_assert_uint_eq(got.far, is_owner(to) && !predicts(to) ? 2 : 0);
        ck_assert_uint_eq(got.always, is_owner(to) ? 3 : 0);
    }
}
END_TEST

/* A component with only the owner axis reads the owner bit and nothing else: an owner that also
 * predicts, or has the custom flag, is still the owner (the wire of such components is that of
 * NS_TO_OWNER / NS_TO_OBSERVER). */
START_TEST(owner_axis_ignores_the_other_bits)
{
    modes_Plain v;
    modes_Plain_init(&v);
    v.hp = 99, v.clip = 7;
    modes_Plain_snap cur;
    modes_Plain_quantize(&v, &cur);
    for (unsigned to = 0; to < 8; to++) {
        uint8_t buf[32], plain[32];
        ns_writer w, p;
        ns_writer_init(&w, buf, sizeof buf);
        ns_writer_init(&p, plain, sizeof plain);
        ck_assert_int_eq(modes_Plain_write(&w, &cur, NULL, (ns_audience)to), NS_OK);
        ck_assert_int_eq(modes_Plain_write(&p, &cur, NULL, is_owner(to) ? NS_TO_OWNER : NS_TO_OBSERVER), NS_OK);
        ck_assert_uint_eq(ns_writer_bits(&w), ns_writer_bits(&p));
        ns_writer_flush(&w);
        ns_writer_flush(&p);
        ck_assert_mem_eq(buf, plain, (ns_writer_bits(&w) + 7) / 8);
        ns_reader r;
        ns_reader_init(&r, buf, sizeof buf);
        modes_Plain_snap got;
        ck_assert_int_eq(modes_Plain_read(&r, &got, NULL, (ns_audience)to), NS_OK);
        ck_assert_uint_eq(got.clip, is_owner(to) ? 7 : 0);
    }
}
END_TEST

/* The descriptors (dumps, profiles, the replication layer) agree with the codec. */
START_TEST(descriptor_flags_agree)
{
    const ns_type_desc *t = &modes_Avatar_desc;
    static const char *const names[] = {"pos", "ammo", "emote", "aim", "glide", "debug", "kind", "secret"};
    ck_assert_uint_eq(t->field_count, 8);
    for (unsigned i = 0; i < 8; i++) {
        ck_assert_str_eq(t->fields[i].path, names[i]);
        for (unsigned to = 0; to < 8; to++) {
            bool want = i == 0 ? true : i == 1 ? is_owner(to) : i == 2 ? !is_owner(to) : i == 3 ? predicts(to)
                      : i == 4 ? !predicts(to) : i == 5 ? custom(to) : i == 6 ? predicts(to) : false;
            ck_assert_msg(ns_field_reaches(t->fields[i].flags, to) == want, "%s to %u", names[i], to);
        }
    }
    ck_assert_uint_eq(modes_Avatar_desc.fields[3].flags & NS_FIELD_CONDITIONS, NS_FIELD_IF_PREDICTED);
    ck_assert_uint_eq(modes_Plain_desc.fields[1].flags & NS_FIELD_CONDITIONS, 0);
}
END_TEST

/* _backup keeps what reaches a predicting owner: @sync(predicted) yes, @sync(interpolated) no. */
START_TEST(backup_takes_what_a_predicting_owner_receives)
{
    modes_Avatar_snap live = avatar(1), backup;
    memset(&backup, 0xAB, sizeof backup);
    modes_Avatar_backup(&live, &backup);
    ck_assert_int_eq(backup.aim, live.aim);
    ck_assert_uint_eq(backup.ammo, live.ammo);
    ck_assert_uint_eq(backup.debug, live.debug);
    ck_assert_int_eq(backup.glide, (int32_t)0xABABABABu);
    ck_assert_uint_eq(backup.emote, 0xAB);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("modes");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, avatar_fields_reach_exactly_their_receivers);
    tcase_add_test(tc, component_conditions_narrow_with_the_owner_axis);
    tcase_add_test(tc, conditions_keep_the_components_owner_axis);
    tcase_add_test(tc, owner_axis_ignores_the_other_bits);
    tcase_add_test(tc, descriptor_flags_agree);
    tcase_add_test(tc, backup_takes_what_a_predicting_owner_receives);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(suite)
