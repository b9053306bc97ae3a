/* fuzz_authority.c — libFuzzer target for the server's reader of client-authoritative writes
 * (ns_world_read_authority and the generated _authority_decode of
 * tests/replication/auth.netschema).
 *
 * The world holds a pawn (with a marker) owned by connection 0 and a pawn owned by nobody. The
 * first input byte picks the sending connection (bit 0) and whether a header naming the owned
 * pawn goes first (bit 1), so that random payloads reach the checks; the rest is a stream of
 * authority messages, read until one fails to parse. With bit 2 a valid message of the owner
 * goes first with 0 to 3 bits flipped (bits 3-4 say how many; two input bytes name each bit)
 * and the rest follows it, so that writes which pass every check, or fail only one, are common
 * even without coverage feedback. Invariants: the reader never reads past the input (ASan); a
 * refused message leaves every entity's state exactly as it was; an accepted one came from the
 * owner and stores only values the schema's checks allow (in @range, valid enum, finite float),
 * never touching the server-written field. */
#include <stdlib.h>
#include <string.h>

#include "auth.ns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void state(ns_world *w, au_Pawn_snap out[2])
{
    for (ns_entity_id e = 0; e < 2; e++) memcpy(&out[e], ns_world_snap(w, e, AU_PAWN_ID), sizeof out[e]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    ns_world_config cfg = {.schema = &au_schema, .max_entities = 4, .max_connections = 2};
    ns_world *w = ns_world_create(&cfg, NULL);
    if (!w) abort();
    uint32_t conn[2], both[2] = {AU_PAWN_ID, AU_MARKER_ID};
    ns_entity_id pawn, unowned;
    if (ns_world_connect(w, &conn[0]) != NS_OK || ns_world_connect(w, &conn[1]) != NS_OK) abort();
    if (ns_world_spawn(w, both, 2, &pawn) != NS_OK || ns_world_spawn(w, both, 1, &unowned) != NS_OK) abort();
    if (pawn != 0 || unowned != 1 || ns_world_set_owner(w, pawn, (int32_t)conn[0]) != NS_OK) abort();
    uint32_t from = conn[data[0] & 1];
    static uint8_t buf[AU_PAWN_AUTHORITY_MAX_BYTES + 4096];
    if (size - 1 > 4096) size = 4097;
    size_t n = size - 1;
    ns_writer hw;
    if (data[0] & 4) {
        au_Pawn v;
        au_Pawn_init(&v);
        ns_writer_init(&hw, buf, sizeof buf);
        if (au_Pawn_authority_send(&hw, pawn, &v) != NS_OK) abort();
        size_t valid = ns_writer_flush(&hw), used = 0;
        for (unsigned k = (data[0] >> 3) & 3u; k > 0 && used + 2 <= n; k--, used += 2) {
            size_t bit = (size_t)(data[1 + used] | data[2 + used] << 8) % (valid * 8);
            buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        memcpy(buf + valid, data + 1 + used, n - used);
        n = valid + n - used;
    } else {
        ns_writer_init(&hw, buf, 8);
        if (data[0] & 2) ns_authority_write_header(&hw, pawn, AU_PAWN_ID);
        size_t head = ns_writer_flush(&hw);
        memcpy(buf + head, data + 1, n);
        n += head;
    }
    ns_reader r;
    ns_reader_init(&r, buf, n);
    for (int i = 0; i < 64 && !ns_reader_failed(&r) && ns_reader_remaining_bits(&r) > 0; i++) {
        au_Pawn_snap before[2], after[2];
        state(w, before);
        ns_authority_report rep;
        ns_status st = ns_world_read_authority(w, from, &r, NULL, NULL, &rep);
        state(w, after);
        if (rep.status != st) abort();
        if (st != NS_OK) {
            if (memcmp(before, after, sizeof before) != 0) abort();
            continue;
        }
        if (from != conn[0] || rep.entity != pawn || memcmp(&after[1], &before[1], sizeof after[1]) != 0) abort();
        const au_Pawn_snap *p = &after[0];
        for (int k = 0; k < 3; k++)
            if (p->pos[k] < -10000 || p->pos[k] > 10000) abort();
        if (p->yaw < -18000 || p->yaw > 18000 || p->speed < 0 || p->speed > 50) abort();
        if (!au_Stance_is_valid(p->stance) || (p->aim & 0x7f800000u) == 0x7f800000u) abort();
        if (p->hp != before[0].hp) abort();
    }
    ns_world_destroy(w);
    return 0;
}
