/* test_dump.c — the packet dump (netschema/dump.h) on the worked examples of docs/wire.md
 * (tests/dump/wire.netschema): the text a user sees for snapshots and records, the bits per
 * field against the ones that page gives, malformed records rejected with the status the
 * generated _read gives, and the walker agreeing with the generated readers on garbage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_test.h"
#include "wire.ns.h"

static uint8_t buf[4096];

/* ---- capturing what a dump prints ------------------------------------------------------------ */

static FILE *capture(void)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    return f;
}

/* Everything printed into f, as a string (the caller frees it); closes f. */
static char *captured(FILE *f)
{
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void assert_text(char *got, const char *want)
{
    if (strcmp(got, want) != 0) fprintf(stderr, "--- got:\n%s\n--- want:\n%s\n", got, want);
    ck_assert_str_eq(got, want);
    free(got);
}

static void assert_snapshot(const ns_type_desc *t, const void *snap, const char *want)
{
    FILE *f = capture();
    ns_dump_snapshot(f, t, snap);
    assert_text(captured(f), want);
}

/* Writes a record with `write`'s bits already in w, then dumps those bits against the same
 * baselines and checks the text and the status. */
static void assert_record(const ns_type_desc *t, const ns_writer *w, const ns_baselines *b, ns_audience to,
                          ns_status want_status, const char *want)
{
    ns_writer copy = *w;
    size_t bits = ns_writer_bits(w), n = ns_writer_flush(&copy);
    FILE *f = capture();
    ck_assert_int_eq(ns_dump_packet(f, t, buf, n, bits, b, to), want_status);
    assert_text(captured(f), want);
}

/* ---- snapshots -------------------------------------------------------------------------------- */

START_TEST(snapshot_text)
{
    wire_Health h;
    wire_Health_snap hs;
    wire_Health_init(&h);
    wire_Health_quantize(&h, &hs);
    assert_snapshot(&wire_Health_desc, &hs, "Health { hp: 100, alive: true, team: 0 }");

    wire_Mover m;
    wire_Mover_snap ms;
    wire_Mover_init(&m);
    m.pos = (ns_vec3){1.75f, 2.0f, -3.0f};
    wire_Mover_quantize(&m, &ms);
    assert_snapshot(&wire_Mover_desc, &ms, "Mover { pos: (1.75, 2, -3) }");

    wire_Shapes sh;
    wire_Shapes_snap shs;
    wire_Shapes_init(&sh);
    sh.p.a = 1;
    sh.q.a = -7;
    wire_Shapes_quantize(&sh, &shs);
    assert_snapshot(&wire_Shapes_desc, &shs, "Shapes { p: { a: 1, b: 0 }, q: Pair { a: -7, b: 0 } }");

    wire_Stance st;
    wire_Stance_snap sts;
    wire_Stance_init(&st);
    st.mode = wire_Mode_run;
    wire_Stance_quantize(&st, &sts);
    assert_snapshot(&wire_Stance_desc, &sts, "Stance { mode: run }");
    sts.mode = 3; /* made by hand: no such value */
    assert_snapshot(&wire_Stance_desc, &sts, "Stance { mode: 3 }");

    wire_Tagged tg;
    wire_Tagged_snap tgs;
    wire_Tagged_init(&tg);
    tg.tag.on = true;
    tg.tag.weight = 2.5f;
    strcpy(tg.tag.label, "a\"b\n");
    wire_Tagged_quantize(&tg, &tgs);
    assert_snapshot(&wire_Tagged_desc, &tgs, "Tagged { tag: Tag { on: true, weight: 2.5, label: \"a\\\"b\\n\" } }");
}
END_TEST

START_TEST(snapshot_collections)
{
    wire_Flags fl;
    wire_Flags_snap fls;
    wire_Flags_init(&fl);
    wire_Flags_on_add(&fl, 11);
    wire_Flags_on_add(&fl, 3);
    wire_Flags_on_add(&fl, 10);
    wire_Flags_quantize(&fl, &fls);
    assert_snapshot(&wire_Flags_desc, &fls, "Flags { on: {3, 10, 11} }");

    wire_Ammo am;
    wire_Ammo_snap ams;
    wire_Ammo_init(&am);
    wire_Ammo_rounds_set(&am, 4, 12);
    wire_Ammo_rounds_set(&am, 1, -30);
    wire_Ammo_quantize(&am, &ams);
    assert_snapshot(&wire_Ammo_desc, &ams, "Ammo { rounds: {1: -30, 4: 12} }");

    wire_Queue q;
    wire_Queue_snap qs;
    wire_Queue_init(&q);
    wire_Queue_ids_add(&q, 9);
    wire_Queue_ids_add(&q, 2);
    wire_Queue_quantize(&q, &qs);
    assert_snapshot(&wire_Queue_desc, &qs, "Queue { ids: [9, 2] }");

    wire_Hand hd;
    wire_Hand_snap hds;
    wire_Hand_init(&hd);
    wire_Item card = {3, 1};
    uint32_t id;
    ck_assert_int_eq(wire_Hand_cards_add(&hd, &card, &id), NS_OK);
    card.kind = 8;
    ck_assert_int_eq(wire_Hand_cards_insert(&hd, 0, &card, &id), NS_OK);
    wire_Hand_quantize(&hd, &hds);
    assert_snapshot(&wire_Hand_desc, &hds, "Hand { cards: [#2 Item { kind: 8, count: 1 }, #1 Item { kind: 3, count: 1 }] }");
}
END_TEST

/* ---- records, bits per field (the numbers of docs/wire.md) ------------------------------------- */

START_TEST(record_against_defaults)
{
    wire_Health h;
    wire_Health_snap s;
    wire_Health_init(&h);
    h.hp = 99;
    wire_Health_quantize(&h, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OBSERVER), NS_OK);
    assert_record(&wire_Health_desc, &w, NULL, NS_TO_OBSERVER, NS_OK,
                  "Health: 7 bits against the defaults, for an observer\n"
                  "      1  (any: something changed)\n"
                  "      4  hp = 99  (changed)\n"
                  "      1  alive = true\n"
                  "      1  team = 0\n");

    /* Nothing changed: the any bit is the whole record. */
    wire_Health_init(&h);
    wire_Health_quantize(&h, &s);
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Health_write(&w, &s, NULL, NS_TO_OBSERVER), NS_OK);
    assert_record(&wire_Health_desc, &w, NULL, NS_TO_OBSERVER, NS_OK,
                  "Health: 1 bit against the defaults, for an observer\n"
                  "      1  (any: nothing changed)\n"
                  "      -  hp = 100\n"
                  "      -  alive = true\n"
                  "      -  team = 0\n");
}
END_TEST

START_TEST(record_predicted)
{
    /* docs/wire.md section 3: x = 100, 125, 150 at ticks 10, 11, 12; 176 at tick 13. */
    wire_Mover_snap b[3] = {{{150, 200, -300}}, {{125, 200, -300}}, {{100, 200, -300}}}, cur = {{176, 200, -300}};
    ns_baselines base = {{&b[0], &b[1], &b[2]}, {12, 11, 10}, 3, 13};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Mover_write(&w, &cur, &base, NS_TO_OBSERVER), NS_OK);
    assert_record(&wire_Mover_desc, &w, &base, NS_TO_OBSERVER, NS_OK,
                  "Mover: 9 bits against baselines tick 12, tick 11, tick 10 (predicting tick 13), for an observer\n"
                  "      9  pos = (1.76, 2, -3)  (changed)\n");
    base.count = 1;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Mover_write(&w, &cur, &base, NS_TO_OBSERVER), NS_OK);
    assert_record(&wire_Mover_desc, &w, &base, NS_TO_OBSERVER, NS_OK,
                  "Mover: 15 bits against baseline tick 12, for an observer\n"
                  "     15  pos = (1.76, 2, -3)  (changed)\n");
}
END_TEST

START_TEST(record_audiences)
{
    /* docs/wire.md section 6: Gear full for the owner 52 bits; a delta for an observer 1 bit. */
    wire_Gear g;
    wire_Gear_snap s;
    wire_Gear_init(&g);
    g.ammo = 30;
    g.emote = 2;
    strcpy(g.title, "Hero");
    wire_Gear_quantize(&g, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Gear_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    assert_record(&wire_Gear_desc, &w, NULL, NS_TO_OWNER, NS_OK,
                  "Gear: 52 bits against the defaults, for the owner\n"
                  "      1  (any: something changed)\n"
                  "     11  ammo = 30  (changed)\n"
                  "      -  emote = 0\n"
                  "     40  title = \"Hero\"  (changed)\n");
    wire_Gear_snap next = s;
    next.ammo = 29;
    strcpy(next.title, "Villain");
    ns_baselines base = {{&s, NULL, NULL}, {5, 0, 0}, 1, 6};
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Gear_write(&w, &next, &base, NS_TO_OBSERVER), NS_OK);
    assert_record(&wire_Gear_desc, &w, &base, NS_TO_OBSERVER, NS_OK,
                  "Gear: 1 bit against baseline tick 5, for an observer\n"
                  "      -  ammo = 30\n"
                  "      1  emote = 2\n"
                  "      -  title = \"Hero\"\n");
}
END_TEST

START_TEST(record_composite_and_floats)
{
    /* docs/wire.md section 5: Tagged.tag on, weight 2.0, label "ab": 37 bits. */
    wire_Tagged_snap ref, cur;
    wire_Tagged t;
    wire_Tagged_init(&t);
    wire_Tagged_quantize(&t, &ref);
    t.tag.on = true;
    t.tag.weight = 2.0f;
    strcpy(t.tag.label, "ab");
    wire_Tagged_quantize(&t, &cur);
    ns_baselines base = {{&ref, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Tagged_write(&w, &cur, &base, NS_TO_OWNER), NS_OK);
    assert_record(&wire_Tagged_desc, &w, &base, NS_TO_OWNER, NS_OK,
                  "Tagged: 37 bits against baseline tick 1, for the owner\n"
                  "     37  tag = Tag { on: true, weight: 2, label: \"ab\" }  (changed)\n");

    /* Misc.speed from 1.0 to 1.5: 16 bits. */
    wire_Misc m;
    wire_Misc_snap mref, mcur;
    wire_Misc_init(&m);
    m.speed = 1.0f;
    wire_Misc_quantize(&m, &mref);
    m.speed = 1.5f;
    wire_Misc_quantize(&m, &mcur);
    base.snap[0] = &mref;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Misc_write(&w, &mcur, &base, NS_TO_OWNER), NS_OK);
    assert_record(&wire_Misc_desc, &w, &base, NS_TO_OWNER, NS_OK,
                  "Misc: 16 bits against baseline tick 1, for the owner\n"
                  "      1  (any: something changed)\n"
                  "     12  speed = 1.5  (changed)\n"
                  "      1  name = \"\"\n"
                  "      1  rot = (0, 0, 0, 1)\n"
                  "      1  level = 1\n");
}
END_TEST

START_TEST(record_collections)
{
    /* docs/wire.md section 12.2: {3 10 11} against {} is 22 bits. */
    wire_Flags f;
    wire_Flags_snap s;
    wire_Flags_init(&f);
    wire_Flags_on_add(&f, 3);
    wire_Flags_on_add(&f, 10);
    wire_Flags_on_add(&f, 11);
    wire_Flags_quantize(&f, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Flags_write(&w, &s, NULL, NS_TO_OWNER), NS_OK);
    assert_record(&wire_Flags_desc, &w, NULL, NS_TO_OWNER, NS_OK,
                  "Flags: 22 bits against the defaults, for the owner\n"
                  "     22  on = {3, 10, 11}  (changed)\n");
}
END_TEST

START_TEST(record_messages)
{
    wire_Say say;
    wire_Say_snap s;
    memset(&say, 0, sizeof say);
    strcpy(say.text, "gg");
    say.channel = 5;
    wire_Say_quantize(&say, &s);
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Say_write(&w, &s), NS_OK);
    assert_record(&wire_Say_desc, &w, NULL, NS_TO_OWNER, NS_OK,
                  "Say: 28 bits against the defaults\n"
                  "      1  (any: something changed)\n"
                  "     23  text = \"gg\"  (changed)\n"
                  "      4  channel = 5  (changed)\n");
}
END_TEST

/* ---- malformed records ------------------------------------------------------------------------- */

/* Appends bits given in wire order ("1010 00"; spaces ignored). */
static void put(ns_writer *w, const char *bits)
{
    for (; *bits; bits++)
        if (*bits != ' ') ns_write_bool(w, *bits == '1');
}

/* The walker and the generated reader give the same status on the same bits. */
static ns_status both(const ns_component_ops *ops, const ns_writer *w, const ns_baselines *b, ns_audience to)
{
    ns_writer copy = *w;
    size_t n = ns_writer_flush(&copy);
    ns_reader r1, r2;
    ns_reader_init(&r1, buf, n);
    ns_reader_init(&r2, buf, n);
    uint8_t snap[1 << 14];
    ns_status a = ns_walk_record(&r1, ops->desc, b, to, NULL, NULL, NULL);
    ns_status g = ops->read(&r2, snap, b, to);
    ck_assert_int_eq(a, g);
    return a;
}

START_TEST(malformed_records)
{
    ns_writer w;
    /* Health hp 1001 against a baseline of 250 (range 0..1000). */
    wire_Health_snap hb = {250, true, 0};
    ns_baselines base = {{&hb, NULL, NULL}, {1, 0, 0}, 1, 2};
    ns_writer_init(&w, buf, sizeof buf);
    put(&w, "1 1");
    ns_write_delta_i32(&w, 1001, 250, NULL);
    put(&w, "0 0");
    ck_assert_int_eq(both(&wire_schema.components[0], &w, &base, NS_TO_OBSERVER), NS_ERR_RANGE);
    assert_record(&wire_Health_desc, &w, &base, NS_TO_OBSERVER, NS_ERR_RANGE,
                  "Health: against baseline tick 1, for an observer\n"
                  "      1  (any: something changed)\n"
                  "      ?  hp = ?  (changed)\n"
                  "  error: value out of range\n");

    /* Stance.mode 3: in the enum's span 0..5 but not declared. */
    ns_writer_init(&w, buf, sizeof buf);
    put(&w, "1");
    ns_write_delta_i32(&w, 3, 0, NULL);
    FILE *f = capture();
    ns_reader r;
    ns_writer copy = w;
    ns_reader_init(&r, buf, ns_writer_flush(&copy));
    ck_assert_int_eq(ns_dump_record(f, &wire_Stance_desc, &r, NULL, NS_TO_OWNER), NS_ERR_RANGE);
    char *text = captured(f);
    ck_assert_ptr_nonnull(strstr(text, "Stance: against the defaults, for the owner\n"));
    ck_assert_ptr_nonnull(strstr(text, "error: value out of range"));
    free(text);

    /* Mover's 44-bit full write cut one byte short. */
    wire_Mover_snap m = {{175, 200, -300}};
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(wire_Mover_write(&w, &m, NULL, NS_TO_OBSERVER), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&w), 44);
    f = capture();
    ck_assert_int_eq(ns_dump_packet(f, &wire_Mover_desc, buf, 5, 0, NULL, NS_TO_OBSERVER), NS_ERR_TRUNCATED);
    assert_text(captured(f), "Mover: against the defaults, for an observer\n"
                             "      ?  pos = ?  (changed)\n"
                             "  error: input truncated\n");

    /* Flags: a delta adding key 3 to a reference holding {3 11 40} (docs/wire.md section 12.4). */
    wire_Flags fl;
    wire_Flags_snap fref;
    wire_Flags_init(&fl);
    wire_Flags_on_add(&fl, 3);
    wire_Flags_on_add(&fl, 11);
    wire_Flags_on_add(&fl, 40);
    wire_Flags_quantize(&fl, &fref);
    base.snap[0] = &fref;
    ns_writer_init(&w, buf, sizeof buf);
    put(&w, "1 010 00 00 0");
    int flags_index = ns_schema_component_index(&wire_schema, WIRE_FLAGS_ID);
    ck_assert_int_ge(flags_index, 0);
    ck_assert_int_eq(both(&wire_schema.components[flags_index], &w, &base, NS_TO_OWNER), NS_ERR_DUPLICATE);
}
END_TEST

/* Every component against garbage: the walker agrees with the generated reader, byte for byte
 * of the decoded snapshot on success. */
START_TEST(walker_agrees_with_generated_readers)
{
    uint32_t seed = 12345;
    for (uint32_t c = 0; c < wire_schema.component_count; c++) {
        const ns_component_ops *ops = &wire_schema.components[c];
        uint8_t *ref = calloc(1, ops->desc->snap_size), *a = calloc(1, ops->desc->snap_size),
                *g = calloc(1, ops->desc->snap_size);
        ck_assert(ref && a && g);
        ops->snap_default(ref);
        for (int round = 0; round < 2000; round++) {
            for (size_t i = 0; i < 64; i++) seed = seed * 1103515245u + 12345u, buf[i] = (uint8_t)(seed >> 16);
            size_t len = 1 + (seed >> 8) % 64;
            ns_baselines base = {{ref, ref, ref}, {9, 8, 7}, (uint32_t)(round % 4), 10};
            ns_audience to = round & 4 ? NS_TO_OWNER : NS_TO_OBSERVER;
            ns_reader r1, r2;
            ns_reader_init(&r1, buf, len);
            ns_reader_init(&r2, buf, len);
            ops->snap_default(a);
            ops->snap_default(g);
            ns_status sa = ns_walk_record(&r1, ops->desc, &base, to, a, NULL, NULL);
            ns_status sg = ops->read(&r2, g, &base, to);
            ck_assert_int_eq(sa, sg);
            ck_assert_uint_eq(ns_reader_bits(&r1), ns_reader_bits(&r2));
            if (sa == NS_OK) ck_assert(ops->snap_equal(a, g));
        }
        free(ref);
        free(a);
        free(g);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("dump");
    TCase *tc = tcase_create("dump");
    tcase_add_test(tc, snapshot_text);
    tcase_add_test(tc, snapshot_collections);
    tcase_add_test(tc, record_against_defaults);
    tcase_add_test(tc, record_predicted);
    tcase_add_test(tc, record_audiences);
    tcase_add_test(tc, record_composite_and_floats);
    tcase_add_test(tc, record_collections);
    tcase_add_test(tc, record_messages);
    tcase_add_test(tc, malformed_records);
    tcase_add_test(tc, walker_agrees_with_generated_readers);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(make_suite)
