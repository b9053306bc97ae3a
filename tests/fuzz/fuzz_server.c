/* fuzz_server.c — libFuzzer target for what a server reads from its clients, and a client from
 * its server before anything else: acks (ns_world_read_ack), redundant inputs
 * (ns_input_receiver_read) and the handshake (ns_handshake_read). A client is whoever sends a
 * datagram, so these bytes are as hostile as a packet is to a replica (fuzz_replica.c).
 *
 * Input: byte 0, bits 0-1: the reader (0 or 3 acks, 1 inputs, 2 handshake); bit 7: the reader's
 * real next message with the rest of the input XORed over it (so the fuzz reaches past the first
 * fields even without coverage feedback), else the rest of the input as it is; bit 2: format 5
 * where byte 1 says format 4; bit 3: compact acks (ns_world_config.compact_acks), in every
 * format but 1, and short input ticks (ns_inputs_config.short_ticks: the real input packet is
 * then one written after an ack, in the short form). Byte 1: the world's packet format (bits 0-1: 0 for 4, 1, 2 or 3)
 * and entity sizes (bit 2), and which packets the honest client loses of the last five before the
 * fuzzed ack (bits 3-7).
 *
 * Invariants, besides ASan's (no read past the message):
 * - acks: two worlds run the same script; one also reads the fuzzed ack from connection 0. A
 *   refused ack leaves that world writing the same bytes as its twin, to every connection, for
 *   the ticks after; an accepted one (a client may lie about what it received) changes only what
 *   that world writes to connection 0: connection 1's packets stay its twin's, its replica reads
 *   every one, and the world keeps writing to connection 0 without error.
 * - inputs: two receivers take the same packets; one also reads the fuzzed one. A refused packet
 *   leaves the two taking the same inputs with the same results, stats and acks; every input an
 *   accepted packet gives is one the generated writer accepts (in range).
 * - handshake: a refused one leaves the destination as it was; an accepted one writes back to the
 *   same 24 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/inputs.h>

#include "inputs.ns.h"
#include "repl.ns.h"

#define ENTITIES 16
#define CONNS 2

static void check(bool ok, const char *what)
{
    if (ok) return;
    fprintf(stderr, "fuzz_server: %s\n", what);
    abort();
}

/* The fuzzed message: the input itself, or the real one with the input XORed over it. */
static size_t fuzzed(const uint8_t *data, size_t size, const uint8_t *real, size_t real_len, uint8_t *out, size_t cap)
{
    if (!(data[0] & 0x80)) {
        size_t n = size - 2 < cap ? size - 2 : cap;
        memcpy(out, data + 2, n);
        return n;
    }
    memcpy(out, real, real_len);
    for (size_t i = 2; i < size && i - 2 < real_len; i++) out[i - 2] ^= data[i];
    return real_len;
}

/* ---- acks ---------------------------------------------------------------------------------- */

static const uint32_t kinds[3][3] = {{RT_BODY_ID, RT_HEALTH_ID, 0}, {RT_HEALTH_ID, RT_SECRET_ID, 0}, {RT_BODY_ID, RT_SLOW_ID, RT_HEALTH_ID}};
static const uint32_t counts[3] = {2, 2, 3};

typedef struct server {
    ns_world *w[2]; /* [0] reads the fuzzed ack, [1] is its twin */
    ns_replica *r[CONNS];
} server;

static void make_server(server *s, uint8_t flags, bool format5, bool compact_acks)
{
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = ENTITIES, .max_connections = CONNS,
                           .entity_sizes = (flags & 4) != 0,
                           .packet_format = (flags & 3) != 0 ? flags & 3u : format5 ? NS_PACKET_FORMAT_5 : NS_PACKET_FORMAT_4,
                           .compact_acks = compact_acks && (flags & 3) != 1};
    for (int k = 0; k < 2; k++) {
        s->w[k] = ns_world_create(&cfg, NULL);
        check(s->w[k] != NULL, "world");
        for (uint32_t c = 0; c < CONNS; c++) {
            uint32_t conn;
            check(ns_world_connect(s->w[k], &conn) == NS_OK && conn == c, "connect");
        }
        for (uint32_t i = 0; i < 9; i++) {
            ns_entity_id id;
            check(ns_world_spawn(s->w[k], kinds[i % 3], counts[i % 3], &id) == NS_OK, "spawn");
        }
        ns_world_set_owner(s->w[k], 1, 0);
        ns_world_set_owner(s->w[k], 5, 1);
    }
    for (uint32_t c = 0; c < CONNS; c++) {
        ns_handshake hs = ns_world_handshake(s->w[0], c);
        ns_replica_config rc = {0};
        check(ns_handshake_accept(&hs, &rt_schema, &rc, NULL, 0) == NS_OK, "accept");
        s->r[c] = ns_replica_create(&rc, NULL);
        check(s->r[c] != NULL, "replica");
    }
}

static void move(server *s, uint32_t tick)
{
    for (int k = 0; k < 2; k++) {
        for (ns_entity_id e = 0; e < 9; e++) {
            if (!ns_world_alive(s->w[k], e)) continue;
            rt_Body b;
            rt_Body_init(&b);
            b.pos.x = (float)(tick * (e + 1) % 1000) * 0.5f;
            b.heading = (int16_t)((int)(tick * 7u % 361u) - 180);
            ns_world_set(s->w[k], e, RT_BODY_ID, &b);
        }
        if (tick == 103) ns_world_despawn(s->w[k], 4);
        ns_world_tick(s->w[k], tick);
    }
}

/* The ack replica c writes now. */
static size_t ack_bytes(server *s, uint32_t c, uint8_t *buf, size_t cap)
{
    ns_writer wr;
    ns_writer_init(&wr, buf, cap);
    ns_replica_write_ack(s->r[c], &wr);
    return ns_writer_flush(&wr);
}

static ns_status give_ack(ns_world *w, uint32_t c, const uint8_t *buf, size_t len)
{
    ns_reader rd;
    ns_reader_init(&rd, buf, len);
    return ns_world_read_ack(w, c, &rd);
}

/* One tick: both worlds write to both connections; `same[c]` says whether the twins must write
 * the same bytes to c. The replicas read world 0's packets unless `lost` drops them; acks go to
 * the worlds named in `to[c]` (bit k: world k). */
static void round_trip(server *s, uint32_t tick, const bool same[CONNS], bool lost, const unsigned to[CONNS])
{
    static uint8_t pkt[2][4096];
    move(s, tick);
    for (uint32_t c = 0; c < CONNS; c++) {
        size_t len[2];
        for (int k = 0; k < 2; k++)
            check(ns_world_write_packet(s->w[k], c, pkt[k], sizeof pkt[k], &len[k], NULL) == NS_OK, "write");
        if (same[c]) check(len[0] == len[1] && memcmp(pkt[0], pkt[1], len[0]) == 0, "the twins wrote different packets");
        ns_status st = lost && c == 0 ? NS_OK : ns_replica_read_packet(s->r[c], pkt[0], len[0]);
        if (same[c]) check(st == NS_OK, "an honest replica refused its packet");
        uint8_t ack[64];
        size_t n = ack_bytes(s, c, ack, sizeof ack);
        for (int k = 0; k < 2; k++)
            if (to[c] >> k & 1u) check(give_ack(s->w[k], c, ack, n) == NS_OK, "an honest ack was refused");
    }
}

static void fuzz_ack(const uint8_t *data, size_t size)
{
    server s;
    make_server(&s, data[1], (data[0] & 4) != 0, (data[0] & 8) != 0);
    const bool both[CONNS] = {true, true};
    const unsigned twins[CONNS] = {3u, 3u};
    uint32_t tick = 100;
    for (unsigned i = 0; tick < 108; tick++, i++)
        round_trip(&s, tick, both, i >= 3 && (data[1] >> i & 1u), twins);

    uint8_t real[64], in[256];
    size_t real_len = ack_bytes(&s, 0, real, sizeof real);
    size_t n = fuzzed(data, size, real, real_len, in, sizeof in);
    ns_status st = give_ack(s.w[0], 0, in, n);

    const bool after[CONNS] = {st != NS_OK, true};
    const unsigned acks_to[CONNS] = {st != NS_OK ? 3u : 1u, 3u};
    for (uint32_t end = tick + 6; tick < end; tick++) round_trip(&s, tick, after, false, acks_to);
    for (int k = 0; k < 2; k++) ns_world_destroy(s.w[k]);
    for (uint32_t c = 0; c < CONNS; c++) ns_replica_destroy(s.r[c]);
}

/* ---- inputs -------------------------------------------------------------------------------- */

static const ns_message_ops *move_ops(void)
{
    int32_t i = ns_schema_message_index(&ctl_schema, CTL_MOVE_ID);
    check(i >= 0, "no Move input");
    return &ctl_schema.messages[i];
}

static ctl_Move_snap input_for(uint32_t tick)
{
    ctl_Move_snap s;
    memset(&s, 0, sizeof s);
    s.stick[0] = (int32_t)(tick % 255) - 127;
    s.stick[1] = (int32_t)((tick * 7) % 255) - 127;
    s.jump = tick % 5 == 0;
    s.buttons = (uint8_t)(tick * 13);
    s.tick = tick;
    return s;
}

static ns_status read_inputs(ns_input_receiver *r, const uint8_t *buf, size_t len)
{
    ns_reader rd;
    ns_reader_init(&rd, buf, len);
    return ns_input_receiver_read(r, &rd);
}

static void fuzz_inputs(const uint8_t *data, size_t size)
{
    const ns_message_ops *ops = move_ops();
    ns_input_sender *snd = NULL;
    ns_input_receiver *rcv[2] = {NULL, NULL};
    const ns_inputs_config cfg = {.short_ticks = (data[0] & 8) != 0};
    check(ns_input_sender_create(ops, &cfg, &snd) == NS_OK, "sender");
    for (int k = 0; k < 2; k++) check(ns_input_receiver_create(ops, &cfg, &rcv[k]) == NS_OK, "receiver");
    uint8_t pkt[1024], in[1024];
    size_t len = 0;
    for (uint32_t t = 1000; t < 1008; t++) {
        ctl_Move_snap m = input_for(t);
        check(ns_input_sender_push(snd, t, &m) == NS_OK, "push");
        ns_writer w;
        ns_writer_init(&w, pkt, sizeof pkt);
        check(ns_input_sender_write(snd, &w) == NS_OK, "write inputs");
        len = ns_writer_flush(&w);
        if (t % 3 == 1) continue; /* lost */
        for (int k = 0; k < 2; k++) check(read_inputs(rcv[k], pkt, len) == NS_OK, "an honest input packet was refused");
    }
    for (uint32_t t = 1000; t < 1003; t++)
        for (int k = 0; k < 2; k++) {
            ctl_Move_snap out;
            ns_input_receiver_take(rcv[k], t, &out);
        }
    uint32_t acked;
    if (cfg.short_ticks && ns_input_receiver_ack(rcv[1], &acked)) { /* the next packet is short */
        check(ns_input_sender_ack(snd, acked) == NS_OK, "ack inputs");
        ctl_Move_snap m = input_for(1008);
        check(ns_input_sender_push(snd, 1008, &m) == NS_OK, "push");
        ns_writer w;
        ns_writer_init(&w, pkt, sizeof pkt);
        check(ns_input_sender_write(snd, &w) == NS_OK, "write inputs");
        len = ns_writer_flush(&w);
    }
    size_t n = fuzzed(data, size, pkt, len, in, sizeof in);
    ns_status st = read_inputs(rcv[0], in, n);
    for (uint32_t t = 1003; t < 1040; t++) {
        ctl_Move_snap out[2];
        memset(out, 0x5a, sizeof out);
        ns_status got[2];
        for (int k = 0; k < 2; k++) got[k] = ns_input_receiver_take(rcv[k], t, &out[k]);
        if (st != NS_OK) {
            check(got[0] == got[1], "a refused input packet changed what is taken");
            check(memcmp(&out[0], &out[1], sizeof out[0]) == 0, "a refused input packet changed an input");
        } else if (got[0] == NS_OK) {
            uint8_t buf[256];
            ns_writer w;
            ns_writer_init(&w, buf, sizeof buf);
            check(ops->write(&w, &out[0], NULL) == NS_OK, "an accepted input is out of range");
        }
    }
    if (st != NS_OK) {
        ns_inputs_stats a = ns_input_receiver_stats(rcv[0]), b = ns_input_receiver_stats(rcv[1]);
        check(memcmp(&a, &b, sizeof a) == 0, "a refused input packet changed the stats");
        uint32_t ta = 0, tb = 0;
        bool ha = ns_input_receiver_ack(rcv[0], &ta), hb = ns_input_receiver_ack(rcv[1], &tb);
        check(ha == hb && ta == tb, "a refused input packet changed the ack");
    }
    ns_input_sender_destroy(snd);
    for (int k = 0; k < 2; k++) ns_input_receiver_destroy(rcv[k]);
}

/* ---- handshake ----------------------------------------------------------------------------- */

static void fuzz_handshake(const uint8_t *data, size_t size)
{
    ns_world_config cfg = {.schema = &rt_schema, .max_entities = ENTITIES, .max_connections = CONNS,
                           .entity_sizes = (data[1] & 4) != 0,
                           .packet_format = (data[1] & 3) != 0 ? (uint32_t)(data[1] & 3)
                                            : data[0] & 4      ? NS_PACKET_FORMAT_5 : NS_PACKET_FORMAT_4};
    ns_world *w = ns_world_create(&cfg, NULL);
    check(w != NULL, "world");
    uint32_t conn;
    check(ns_world_connect(w, &conn) == NS_OK, "connect");
    ns_handshake real = ns_world_handshake(w, conn);
    ns_world_destroy(w);
    uint8_t real_bytes[64], in[256];
    ns_writer wr;
    ns_writer_init(&wr, real_bytes, sizeof real_bytes);
    ns_handshake_write(&wr, &real);
    size_t n = fuzzed(data, size, real_bytes, ns_writer_flush(&wr), in, sizeof in);

    ns_handshake h, before;
    memset(&h, 0xa5, sizeof h);
    before = h;
    ns_reader rd;
    ns_reader_init(&rd, in, n);
    if (ns_handshake_read(&rd, &h) != NS_OK) {
        check(memcmp(&h, &before, sizeof h) == 0, "a refused handshake changed its destination");
        return;
    }
    uint8_t back[64];
    ns_writer_init(&wr, back, sizeof back);
    ns_handshake_write(&wr, &h);
    size_t m = ns_writer_flush(&wr);
    check(m == 24 && n >= m && memcmp(back, in, m) == 0, "an accepted handshake does not write back to its bytes");
    ns_replica_config rc = {0};
    /* Up to 2^24 entities is a valid handshake, but a replica that large costs a gigabyte: the
     * fuzz makes one only for the sizes a test can afford. */
    if (ns_handshake_accept(&h, &rt_schema, &rc, NULL, 0) == NS_OK && h.max_entities <= 4096) {
        ns_replica *r = ns_replica_create(&rc, NULL);
        check(r != NULL, "an accepted handshake made no replica");
        ns_replica_destroy(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    switch (data[0] & 3u) {
    case 1: fuzz_inputs(data, size); break;
    case 2: fuzz_handshake(data, size); break;
    default: fuzz_ack(data, size); break;
    }
    return 0;
}
