/* test_dispatch.c — the generated dispatch tables and message dispatch (dispatch_a, dispatch_b
 * and the dispatch_base they both import, linked into this one binary): the ops tables code
 * exactly what the typed functions code, _send and _dispatch round-trip every input and rpc,
 * an unknown id and a truncated message are errors that call no handler, and the tables are
 * sorted, complete and findable with ns_schema_*_index. */
#include <string.h>

#include "dispatch_a.ns.h"
#include "dispatch_b.ns.h"
#include "e2e.ns.h"
#include "ns_test.h"

/* ---- what the handlers saw ------------------------------------------------------------------ */

typedef struct seen {
    unsigned     chats, moves, keys, pings, others;
    disp_a_Chat  chat;
    disp_a_Move  move;
    disp_base_Keys key;
    disp_base_Ping ping;
    uint32_t     order[16];   /* ids in the order the handlers ran */
    unsigned     n;
} seen;

static void on_chat(void *ctx, const disp_a_Chat *m)
{
    seen *s = (seen *)ctx;
    s->chat = *m, s->chats++, s->order[s->n++ % 16] = DISP_A_CHAT_ID;
}

static void on_move(void *ctx, const disp_a_Move *m)
{
    seen *s = (seen *)ctx;
    s->move = *m, s->moves++, s->order[s->n++ % 16] = DISP_A_MOVE_ID;
}

static void on_keys(void *ctx, const disp_base_Keys *m)
{
    seen *s = (seen *)ctx;
    s->key = *m, s->keys++, s->order[s->n++ % 16] = DISP_BASE_KEYS_ID;
}

static void on_ping(void *ctx, const disp_base_Ping *m)
{
    seen *s = (seen *)ctx;
    s->ping = *m, s->pings++, s->order[s->n++ % 16] = DISP_BASE_PING_ID;
}

static void on_other(void *ctx, const disp_b_Other *m)
{
    seen *s = (seen *)ctx;
    (void)m;
    s->others++;
}

/* ---- messages ------------------------------------------------------------------------------- */

static disp_a_Chat chat_of(const char *text, uint8_t channel)
{
    disp_a_Chat c;
    disp_a_Chat_init(&c);
    strcpy(c.text, text);
    c.channel = channel;
    c.tag.v = 7;
    return c;
}

static disp_a_Move move_of(float x, float y, bool jump)
{
    disp_a_Move m;
    disp_a_Move_init(&m);
    m.stick.x = x, m.stick.y = y, m.jump = jump;
    return m;
}

static disp_base_Keys keys_of(uint16_t tick, unsigned n)
{
    disp_base_Keys k;
    disp_base_Keys_init(&k);
    k.tick = tick;
    for (unsigned i = 0; i < n; i++) disp_base_Keys_pressed_add(&k, (uint8_t)(10 + i));
    return k;
}

/* ---- the ops tables ------------------------------------------------------------------------- */

START_TEST(test_tables_sorted_and_complete)
{
    const ns_schema *s = &disp_a_schema;
    ck_assert_str_eq(s->package, "disp.a");
    ck_assert(s->hash == DISP_A_SCHEMA_HASH);
    /* Its own components and its import's: Pos 0, Look 3, Health 60. */
    ck_assert_uint_eq(s->component_count, 3);
    ck_assert_ptr_eq(s->components[0].desc, &disp_base_Pos_desc);
    ck_assert_ptr_eq(s->components[1].desc, &disp_a_Look_desc);
    ck_assert_ptr_eq(s->components[2].desc, &disp_a_Health_desc);
    ck_assert_uint_eq(s->components[0].send_rate_hz, 30);
    ck_assert_uint_eq(s->components[2].send_rate_hz, 0);
    /* Ping 1, Keys 2, Move 50, Chat 100. */
    ck_assert_uint_eq(s->message_count, 4);
    const uint32_t ids[] = {DISP_BASE_PING_ID, DISP_BASE_KEYS_ID, DISP_A_MOVE_ID, DISP_A_CHAT_ID};
    const ns_message_kind kinds[] = {NS_MSG_RPC_UNRELIABLE, NS_MSG_INPUT, NS_MSG_INPUT, NS_MSG_RPC};
    for (uint32_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(s->messages[i].desc->id, ids[i]);
        ck_assert_int_eq(s->messages[i].kind, kinds[i]);
        ck_assert_int_eq(ns_schema_message_index(s, ids[i]), (int32_t)i);
    }
    for (uint32_t i = 0; i < s->component_count; i++)
        ck_assert_int_eq(ns_schema_component_index(s, s->components[i].desc->id), (int32_t)i);
    ck_assert_int_eq(ns_schema_component_index(s, 1), -1);
    ck_assert_int_eq(ns_schema_component_index(s, 61), -1);
    ck_assert_int_eq(ns_schema_component_index(s, 0xffffffffu), -1);
    ck_assert_int_eq(ns_schema_message_index(s, 0), -1);
    ck_assert_int_eq(ns_schema_message_index(s, 101), -1);
    ck_assert_int_eq(ns_schema_message_index(NULL, 1), -1);

    /* dispatch_b sees the same imported Pos (one descriptor, no duplicate symbol) and no Health. */
    const ns_schema *b = &disp_b_schema;
    ck_assert_uint_eq(b->component_count, 1);
    ck_assert_ptr_eq(b->components[0].desc, &disp_base_Pos_desc);
    ck_assert_uint_eq(b->message_count, 3);
    ck_assert_int_eq(ns_schema_component_index(b, DISP_A_HEALTH_ID), -1);
    /* The base alone: messages but also its own component. */
    ck_assert_uint_eq(disp_base_schema.component_count, 1);
    ck_assert_uint_eq(disp_base_schema.message_count, 2);
}
END_TEST

/* A component written through the ops table is byte for byte the typed write, against no
 * baseline and against one, and reads back through the table. */
START_TEST(test_component_ops_match_direct_calls)
{
    const ns_component_ops *ops = &disp_a_schema.components[ns_schema_component_index(&disp_a_schema, DISP_A_HEALTH_ID)];
    ck_assert_uint_eq(ops->desc->snap_size, sizeof(disp_a_Health_snap));

    disp_a_Health v, direct_v;
    ops->init(&v);
    disp_a_Health_init(&direct_v);
    ck_assert(disp_a_Health_equal(&v, &direct_v));
    ck_assert_int_eq(v.hp, 100);
    v.hp = 42;
    strcpy(v.name, "Ada");

    disp_a_Health_snap def, cur, direct_cur, got;
    ops->snap_default(&def);
    disp_a_Health_quantize(&direct_v, &direct_cur);
    ck_assert(disp_a_Health_snap_equal(&def, &direct_cur)); /* the defaults' snapshot */
    ops->quantize(&v, &cur);
    disp_a_Health_quantize(&v, &direct_cur);
    ck_assert(ops->snap_equal(&cur, &direct_cur));
    ck_assert(!ops->snap_equal(&cur, &def));

    for (uint32_t nbase = 0; nbase <= 1; nbase++) {
        ns_baselines b = {{&def, NULL, NULL}, {1, 0, 0}, nbase, 2};
        uint8_t a[64], d[64];
        ns_writer wa, wd;
        ns_writer_init(&wa, a, sizeof a);
        ns_writer_init(&wd, d, sizeof d);
        ck_assert_int_eq(ops->write(&wa, &cur, &b, NS_TO_OWNER), NS_OK);
        ck_assert_int_eq(disp_a_Health_write(&wd, &direct_cur, &b, NS_TO_OWNER), NS_OK);
        size_t na = ns_writer_flush(&wa), nd = ns_writer_flush(&wd);
        ck_assert_uint_eq(na, nd);
        ck_assert_mem_eq(a, d, na);

        /* Against a baseline the @initial name is not sent: compare with the typed read. */
        disp_a_Health_snap direct_got;
        ns_reader r, rd;
        ns_reader_init(&r, a, na);
        ns_reader_init(&rd, d, nd);
        ck_assert_int_eq(ops->read(&r, &got, &b, NS_TO_OWNER), NS_OK);
        ck_assert_int_eq(disp_a_Health_read(&rd, &direct_got, &b, NS_TO_OWNER), NS_OK);
        ck_assert(disp_a_Health_snap_equal(&got, &direct_got));
        ck_assert_int_eq(got.hp, 42);
        ck_assert_str_eq(got.name, nbase ? "" : "Ada");
    }

    /* apply and dequantize through the table equal the typed calls. */
    disp_a_Health live, direct_live, out;
    disp_a_Health_init(&live);
    disp_a_Health_init(&direct_live);
    ops->apply(&live, &cur, NULL, NULL);
    disp_a_Health_apply(&direct_live, &cur, NULL, NULL);
    ck_assert(disp_a_Health_equal(&live, &direct_live));
    ck_assert_int_eq(live.hp, 42);
    ops->dequantize(&cur, &out);
    out.ns_dirty[0] = live.ns_dirty[0];
    ck_assert(disp_a_Health_equal(&out, &live));
}
END_TEST

/* The imported component's interpolate wrapper halves a move exactly as the typed call does. */
START_TEST(test_imported_component_ops)
{
    const ns_component_ops *ops = &disp_b_schema.components[0];
    disp_base_Pos a, b, mid, direct;
    ops->init(&a);
    ops->init(&b);
    b.p.x = 10.0f;
    disp_base_Pos_snap sa, sb;
    ops->quantize(&a, &sa);
    ops->quantize(&b, &sb);
    ops->interpolate(&sa, &sb, 0.5f, &mid);
    disp_base_Pos_interpolate(&sa, &sb, 0.5f, &direct);
    ck_assert(mid.p.x == direct.p.x && mid.p.x == 5.0f);
}
END_TEST

/* Message ops: an input coded against prev through the table is the typed write. */
START_TEST(test_message_ops_match_direct_calls)
{
    const ns_message_ops *ops = &disp_a_schema.messages[ns_schema_message_index(&disp_a_schema, DISP_A_MOVE_ID)];
    disp_a_Move m0 = move_of(0.5f, 0, false), m1 = move_of(0.5f, 0, true);
    disp_a_Move_snap s0, s1, got;
    ops->quantize(&m0, &s0);
    ops->quantize(&m1, &s1);
    uint8_t a[32], d[32];
    ns_writer wa, wd;
    ns_writer_init(&wa, a, sizeof a);
    ns_writer_init(&wd, d, sizeof d);
    ck_assert_int_eq(ops->write(&wa, &s1, &s0), NS_OK);
    ck_assert_int_eq(disp_a_Move_write(&wd, &s1, &s0), NS_OK);
    size_t na = ns_writer_flush(&wa);
    ck_assert_uint_eq(na, ns_writer_flush(&wd));
    ck_assert_mem_eq(a, d, na);
    ns_reader r;
    ns_reader_init(&r, a, na);
    ck_assert_int_eq(ops->read(&r, &got, &s0), NS_OK);
    ck_assert(disp_a_Move_snap_equal(&got, &s1));

    const ns_message_ops *rpc = &disp_a_schema.messages[ns_schema_message_index(&disp_a_schema, DISP_A_CHAT_ID)];
    disp_a_Chat c = chat_of("gg", 5);
    disp_a_Chat_snap cs, cd, cgot;
    rpc->quantize(&c, &cs);
    rpc->snap_default(&cd);
    ck_assert(!disp_a_Chat_snap_equal(&cs, &cd));
    ns_writer_init(&wa, a, sizeof a);
    ns_writer_init(&wd, d, sizeof d);
    ck_assert_int_eq(rpc->write(&wa, &cs, NULL), NS_OK);
    ck_assert_int_eq(disp_a_Chat_write(&wd, &cs), NS_OK);
    na = ns_writer_flush(&wa);
    ck_assert_uint_eq(na, ns_writer_flush(&wd));
    ck_assert_mem_eq(a, d, na);
    ns_reader_init(&r, a, na);
    ck_assert_int_eq(rpc->read(&r, &cgot, NULL), NS_OK);
    ck_assert(disp_a_Chat_snap_equal(&cgot, &cs));
}
END_TEST

/* Every component and message of e2e.netschema (every field type) through its table entry
 * alone: the defaults' snapshot is what init and quantize give, and a full write reads back to
 * the snapshot written. */
START_TEST(test_every_e2e_type_through_the_tables)
{
    const ns_schema *s = &e2e_schema;
    ck_assert_uint_eq(s->component_count, 8);
    ck_assert_uint_eq(s->message_count, 2);
    static uint8_t value[1 << 16], snap[1 << 16], def[1 << 16], got[1 << 16], buf[1 << 16];
    for (uint32_t i = 0; i < s->component_count; i++) {
        const ns_component_ops *ops = &s->components[i];
        size_t n = ops->desc->snap_size;
        ck_assert_uint_le(n, sizeof snap);
        ck_assert_uint_eq(ops->desc->kind, NS_KIND_COMPONENT);
        if (i) ck_assert_uint_lt(s->components[i - 1].desc->id, ops->desc->id);
        ops->init(value);
        ops->quantize(value, snap);
        ops->snap_default(def);
        ck_assert_msg(ops->snap_equal(snap, def), "%s: snap_default is not quantize(init)", ops->desc->name);
        for (int to = 0; to < 2; to++) {
            ns_audience aud = to ? NS_TO_OWNER : NS_TO_OBSERVER;
            ns_writer w;
            ns_writer_init(&w, buf, sizeof buf);
            ck_assert_int_eq(ops->write(&w, snap, NULL, aud), NS_OK);
            ns_reader r;
            ns_reader_init(&r, buf, ns_writer_flush(&w));
            memset(got, 0xa5, n);
            ck_assert_int_eq(ops->read(&r, got, NULL, aud), NS_OK);
            /* A full write to an audience drops the fields it does not receive: compare what
             * dequantize and quantize make of it, which is the defaults here. */
            ops->dequantize(got, value);
            ops->quantize(value, got);
            ck_assert_msg(ops->snap_equal(got, def), "%s: full write did not read back", ops->desc->name);
        }
    }
    for (uint32_t i = 0; i < s->message_count; i++) {
        const ns_message_ops *ops = &s->messages[i];
        ck_assert_int_eq(ops->kind, ops->desc->kind == NS_KIND_INPUT ? NS_MSG_INPUT : NS_MSG_RPC);
        ops->snap_default(def);
        ops->dequantize(def, value);
        ops->quantize(value, snap);
        ck_assert_mem_eq(snap, def, ops->desc->snap_size);
        ns_writer w;
        ns_writer_init(&w, buf, sizeof buf);
        ck_assert_int_eq(ops->write(&w, snap, NULL), NS_OK);
        ck_assert_uint_eq(ns_writer_bits(&w) > 0, 1);
        ns_reader r;
        ns_reader_init(&r, buf, ns_writer_flush(&w));
        ck_assert_int_eq(ops->read(&r, got, NULL), NS_OK);
        ck_assert_mem_eq(got, def, ops->desc->snap_size);
    }
}
END_TEST

/* ---- _send and _dispatch -------------------------------------------------------------------- */

/* _send is the packed id followed by the typed write. */
START_TEST(test_send_bytes_are_id_then_body)
{
    disp_a_Chat c = chat_of("hello", 3);
    disp_a_Chat_snap cs;
    disp_a_Chat_quantize(&c, &cs);
    uint8_t a[64], d[64];
    ns_writer wa, wd;
    ns_writer_init(&wa, a, sizeof a);
    ns_writer_init(&wd, d, sizeof d);
    ck_assert_int_eq(disp_a_Chat_send(&wa, &c), NS_OK);
    ns_write_packed_u32(&wd, DISP_A_CHAT_ID, NULL);
    ck_assert_int_eq(disp_a_Chat_write(&wd, &cs), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&wa), ns_writer_bits(&wd));
    size_t na = ns_writer_flush(&wa);
    ck_assert_uint_eq(na, ns_writer_flush(&wd));
    ck_assert_mem_eq(a, d, na);
    /* Id 0 costs 2 bits: Pos has id 0 but is a component; Ping (id 1) costs 3. */
    disp_base_Ping p;
    disp_base_Ping_init(&p);
    ns_writer_init(&wa, a, sizeof a);
    ck_assert_int_eq(disp_base_Ping_send(&wa, &p), NS_OK);
    ck_assert_uint_eq(ns_writer_bits(&wa), 3 + 1); /* id 1 is `010`; n unchanged is one bit */
}
END_TEST

/* Every input and rpc of dispatch_a, sent into one buffer and dispatched back in order; the
 * inputs are coded against the previous one of their type on both sides. */
START_TEST(test_send_dispatch_round_trip)
{
    uint8_t buf[256];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    disp_a_Move_snap move_prev = disp_a_Move_snap_default;
    disp_base_Keys_snap keys_prev = disp_base_Keys_snap_default;
    disp_a_Chat chat = chat_of("hi there", 9);
    disp_a_Move m1 = move_of(0.25f, -0.5f, false), m2 = move_of(0.25f, -0.5f, true);
    disp_base_Keys k1 = keys_of(100, 2), k2 = keys_of(101, 3);
    disp_base_Ping ping;
    disp_base_Ping_init(&ping);
    ping.n = 123456;

    ck_assert_int_eq(disp_a_Chat_send(&w, &chat), NS_OK);
    ck_assert_int_eq(disp_a_Move_send(&w, &m1, &move_prev), NS_OK);
    size_t before = ns_writer_bits(&w);
    ck_assert_int_eq(disp_a_Move_send(&w, &m2, &move_prev), NS_OK);
    /* Against the previous move only the jump changed: id 50 (10 bits) + 3 bits. */
    ck_assert_uint_eq(ns_writer_bits(&w) - before, 10 + 3);
    ck_assert_int_eq(disp_base_Keys_send(&w, &k1, &keys_prev), NS_OK);
    ck_assert_int_eq(disp_base_Keys_send(&w, &k2, &keys_prev), NS_OK);
    ck_assert_int_eq(disp_base_Ping_send(&w, &ping), NS_OK);
    size_t n = ns_writer_flush(&w);

    disp_a_Move_snap move_got = disp_a_Move_snap_default;
    disp_base_Keys_snap keys_got = disp_base_Keys_snap_default;
    disp_a_handlers h = {0};
    h.on_disp_a_Chat = on_chat;
    h.on_disp_a_Move = on_move;
    h.prev_disp_a_Move = &move_got;
    h.on_disp_base_Keys = on_keys;
    h.prev_disp_base_Keys = &keys_got;
    h.on_disp_base_Ping = on_ping;
    seen s;
    memset(&s, 0, sizeof s);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    const uint32_t expect[] = {DISP_A_CHAT_ID, DISP_A_MOVE_ID, DISP_A_MOVE_ID, DISP_BASE_KEYS_ID, DISP_BASE_KEYS_ID,
                               DISP_BASE_PING_ID};
    for (unsigned i = 0; i < 6; i++) {
        uint32_t id = 0xdead;
        ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, &id), NS_OK);
        ck_assert_uint_eq(id, expect[i]);
        ck_assert_uint_eq(s.order[i], expect[i]);
    }
    ck_assert_uint_eq(ns_reader_remaining_bits(&r), n * 8 - ns_reader_bits(&r));
    ck_assert_uint_lt(ns_reader_remaining_bits(&r), 8);
    ck_assert_uint_eq(s.chats, 1);
    ck_assert_str_eq(s.chat.text, "hi there");
    ck_assert_uint_eq(s.chat.channel, 9);
    ck_assert_uint_eq(s.chat.tag.v, 7);
    ck_assert_uint_eq(s.moves, 2);
    ck_assert(s.move.jump && s.move.stick.x == 0.25f && s.move.stick.y == -0.5f);
    ck_assert(disp_a_Move_snap_equal(&move_got, &move_prev));
    ck_assert_uint_eq(s.keys, 2);
    ck_assert_uint_eq(s.key.tick, 101);
    ck_assert_uint_eq(disp_base_Keys_pressed_count(&s.key), 3);
    ck_assert_uint_eq(s.key.pressed.items[2], 12);
    ck_assert(disp_base_Keys_snap_equal(&keys_got, &keys_prev));
    ck_assert_uint_eq(s.pings, 1);
    ck_assert_uint_eq(s.ping.n, 123456);
}
END_TEST

/* A buffer of a chat, two moves (the second against the first) and a ping. */
static size_t mixed_buffer(uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    disp_a_Move_snap prev = disp_a_Move_snap_default;
    disp_a_Chat chat = chat_of("skipped", 1);
    disp_a_Move m1 = move_of(1, 1, false), m2 = move_of(-1, 1, true);
    disp_base_Ping ping;
    disp_base_Ping_init(&ping);
    ping.n = 77;
    ck_assert_int_eq(disp_a_Chat_send(&w, &chat), NS_OK);
    ck_assert_int_eq(disp_a_Move_send(&w, &m1, &prev), NS_OK);
    ck_assert_int_eq(disp_a_Move_send(&w, &m2, &prev), NS_OK);
    ck_assert_int_eq(disp_base_Ping_send(&w, &ping), NS_OK);
    return ns_writer_flush(&w);
}

/* A NULL handler still reads its message (and keeps an input's prev chain), so the next
 * message is found. */
START_TEST(test_null_handler_skips)
{
    uint8_t buf[128];
    size_t n = mixed_buffer(buf, sizeof buf);
    disp_a_Move_snap prev = disp_a_Move_snap_default;
    disp_a_handlers h = {0};
    h.prev_disp_a_Move = &prev;   /* no move handler, but the chain is kept */
    h.on_disp_base_Ping = on_ping;
    seen s;
    memset(&s, 0, sizeof s);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    for (unsigned i = 0; i < 4; i++) ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, NULL), NS_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_uint_eq(s.ping.n, 77);
    disp_a_Move m2 = move_of(-1, 1, true);
    disp_a_Move_snap want;
    disp_a_Move_quantize(&m2, &want);
    ck_assert(disp_a_Move_snap_equal(&prev, &want));
}
END_TEST

/* An id no input or rpc has: NS_ERR_UNKNOWN_TYPE naming it, the reader failed, nothing called. */
START_TEST(test_unknown_id)
{
    uint8_t buf[32];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_packed_u32(&w, 777, NULL);
    ns_write_bits(&w, 0, 16);
    size_t n = ns_writer_flush(&w);
    disp_a_handlers h = {0};
    h.on_disp_a_Chat = on_chat;
    seen s;
    memset(&s, 0, sizeof s);
    ns_reader r;
    ns_reader_init(&r, buf, n);
    uint32_t id = 0;
    ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, &id), NS_ERR_UNKNOWN_TYPE);
    ck_assert_uint_eq(id, 777);
    ck_assert(ns_reader_failed(&r));
    ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, &id), NS_ERR_UNKNOWN_TYPE); /* stays failed */
    ck_assert_uint_eq(s.n, 0);

    /* A component's id is no message; a message of dispatch_a is unknown to dispatch_b. */
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_packed_u32(&w, DISP_A_HEALTH_ID, NULL);
    n = ns_writer_flush(&w);
    ns_reader_init(&r, buf, n);
    ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, &id), NS_ERR_UNKNOWN_TYPE);
    ck_assert_uint_eq(id, DISP_A_HEALTH_ID);
    disp_a_Chat chat = chat_of("x", 1);
    ns_writer_init(&w, buf, sizeof buf);
    ck_assert_int_eq(disp_a_Chat_send(&w, &chat), NS_OK);
    n = ns_writer_flush(&w);
    disp_b_handlers hb = {0};
    hb.on_disp_b_Other = on_other;
    ns_reader_init(&r, buf, n);
    ck_assert_int_eq(disp_b_dispatch(&r, &hb, &s, &id), NS_ERR_UNKNOWN_TYPE);
    ck_assert_uint_eq(id, DISP_A_CHAT_ID);
    ck_assert_uint_eq(s.others, 0);
    /* An empty buffer has no id: truncated, and *id_out is left alone. */
    id = 5;
    ns_reader_init(&r, buf, 0);
    ck_assert_int_eq(disp_a_dispatch(&r, &h, &s, &id), NS_ERR_TRUNCATED);
    ck_assert_uint_eq(id, 5);
    ck_assert_int_eq(disp_a_dispatch(&r, NULL, &s, &id), NS_ERR_ARGUMENT);
}
END_TEST

/* Every prefix of a message that is shorter than it: an error, no handler called, the input's
 * prev untouched. */
START_TEST(test_truncated_message)
{
    uint8_t buf[128];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    disp_base_Keys_snap sent_prev = disp_base_Keys_snap_default;
    disp_base_Keys k1 = keys_of(9, 1), k2 = keys_of(4000, 4);
    ck_assert_int_eq(disp_base_Keys_send(&w, &k1, &sent_prev), NS_OK);
    disp_base_Keys_snap first = sent_prev;
    size_t start = ns_writer_flush(&w);   /* the second message starts on a byte boundary */
    ns_writer_init(&w, buf + start, sizeof buf - start);
    ck_assert_int_eq(disp_base_Keys_send(&w, &k2, &sent_prev), NS_OK);
    size_t n = ns_writer_flush(&w);
    ck_assert_uint_gt(n, 2);
    for (size_t cut = 0; cut < n; cut++) {
        disp_base_Keys_snap prev = first;
        disp_a_handlers h = {0};
        h.on_disp_base_Keys = on_keys;
        h.prev_disp_base_Keys = &prev;
        seen s;
        memset(&s, 0, sizeof s);
        ns_reader r;
        ns_reader_init(&r, buf + start, cut);
        ns_status st = disp_a_dispatch(&r, &h, &s, NULL);
        ck_assert_msg(st != NS_OK, "a %zu-byte prefix of %zu bytes was accepted", cut, n);
        ck_assert_uint_eq(s.keys, 0);
        ck_assert(disp_base_Keys_snap_equal(&prev, &first));
    }
    /* The whole message reads. */
    disp_base_Keys_snap prev = first;
    disp_a_handlers h = {0};
    h.prev_disp_base_Keys = &prev;
    ns_reader r;
    ns_reader_init(&r, buf + start, n);
    ck_assert_int_eq(disp_a_dispatch(&r, &h, NULL, NULL), NS_OK);
    ck_assert(disp_base_Keys_snap_equal(&prev, &sent_prev));
}
END_TEST

/* A message that does not fit leaves the writer failed with NS_ERR_OVERFLOW and the input's
 * prev unchanged; one the writer refuses takes its id back. */
START_TEST(test_send_overflow)
{
    uint8_t buf[2];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    disp_a_Move_snap prev = disp_a_Move_snap_default;
    disp_a_Move m = move_of(0.75f, -0.75f, true);
    ck_assert_int_eq(disp_a_Move_send(&w, &m, &prev), NS_ERR_OVERFLOW);
    ck_assert(disp_a_Move_snap_equal(&prev, &disp_a_Move_snap_default));
    ck_assert(ns_writer_overflowed(&w));

    /* A set with a key twice (filled by hand) is refused by _write: the id is taken back. */
    uint8_t big[64];
    ns_writer_init(&w, big, sizeof big);
    disp_base_Ping ping;
    disp_base_Ping_init(&ping);
    ck_assert_int_eq(disp_base_Ping_send(&w, &ping), NS_OK);
    size_t bits = ns_writer_bits(&w);
    disp_base_Keys k = keys_of(3, 1);
    k.held.count = 2, k.held.items[0] = 4, k.held.items[1] = 4;
    disp_base_Keys_snap kprev = disp_base_Keys_snap_default;
    ck_assert_int_eq(disp_base_Keys_send(&w, &k, &kprev), NS_ERR_DUPLICATE);
    ck_assert_uint_eq(ns_writer_bits(&w), bits);
    ck_assert(!ns_writer_overflowed(&w));
    ck_assert(disp_base_Keys_snap_equal(&kprev, &disp_base_Keys_snap_default));
    ck_assert_int_eq(disp_base_Ping_send(&w, &ping), NS_OK); /* the writer goes on */
    ns_reader r;
    ns_reader_init(&r, big, ns_writer_flush(&w));
    disp_a_handlers h = {0};
    for (int i = 0; i < 2; i++) ck_assert_int_eq(disp_a_dispatch(&r, &h, NULL, NULL), NS_OK);
}
END_TEST

static void on_notice(void *ctx, const e2e_Notice *m)
{
    *(e2e_Notice *)ctx = *m;
}

static void on_controls(void *ctx, const e2e_Controls *m)
{
    ((e2e_Controls *)ctx)[0] = *m;
}

/* The input and the rpc of e2e.netschema through _send and _dispatch, against a second handler
 * table for each so that each handler's ctx is its own. */
START_TEST(test_e2e_messages_round_trip)
{
    e2e_Notice notice, got_notice;
    e2e_Notice_init(&notice);
    strcpy(notice.text, "round trip");
    notice.level = e2e_Mode_fly;
    notice.where.a = -1234, notice.where.b = 8999;
    e2e_Controls c[3], got_controls;
    for (int i = 0; i < 3; i++) {
        e2e_Controls_init(&c[i]);
        c[i].stick.x = 0.25f * (float)i, c[i].fire = i == 1, c[i].weapon = (uint8_t)(3 * i), c[i].tick = 1000u + (uint32_t)i;
    }
    uint8_t buf[512];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    e2e_Controls_snap sent = e2e_Controls_snap_default, got = e2e_Controls_snap_default;
    ck_assert_int_eq(e2e_Notice_send(&w, &notice), NS_OK);
    for (int i = 0; i < 3; i++) ck_assert_int_eq(e2e_Controls_send(&w, &c[i], &sent), NS_OK);
    size_t n = ns_writer_flush(&w);

    e2e_handlers hn = {0}, hc = {0};
    hn.on_e2e_Notice = on_notice;
    hn.prev_e2e_Controls = &got;
    hc.on_e2e_Controls = on_controls;
    hc.prev_e2e_Controls = &got;
    ns_reader r;
    ns_reader_init(&r, buf, n);
    uint32_t id;
    ck_assert_int_eq(e2e_dispatch(&r, &hn, &got_notice, &id), NS_OK);
    ck_assert_uint_eq(id, E2E_NOTICE_ID);
    ck_assert(e2e_Notice_equal(&got_notice, &notice));
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(e2e_dispatch(&r, &hc, &got_controls, &id), NS_OK);
        ck_assert_uint_eq(id, E2E_CONTROLS_ID);
        ck_assert(e2e_Controls_equal(&got_controls, &c[i]));
    }
    ck_assert(e2e_Controls_snap_equal(&got, &sent));
}
END_TEST

Suite *dispatch_suite(void);

Suite *dispatch_suite(void)
{
    Suite *s = suite_create("dispatch");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_tables_sorted_and_complete);
    tcase_add_test(tc, test_component_ops_match_direct_calls);
    tcase_add_test(tc, test_imported_component_ops);
    tcase_add_test(tc, test_message_ops_match_direct_calls);
    tcase_add_test(tc, test_every_e2e_type_through_the_tables);
    suite_add_tcase(s, tc);
    tc = tcase_create("dispatch");
    tcase_add_test(tc, test_send_bytes_are_id_then_body);
    tcase_add_test(tc, test_send_dispatch_round_trip);
    tcase_add_test(tc, test_null_handler_skips);
    tcase_add_test(tc, test_unknown_id);
    tcase_add_test(tc, test_truncated_message);
    tcase_add_test(tc, test_send_overflow);
    tcase_add_test(tc, test_e2e_messages_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(dispatch_suite)
