/* fuzz_entropy.c — libFuzzer target: any bytes through the entropy mode's reader
 * (netschema/entropy.h, its range decoder and its context models), on a hand-built descriptor
 * that has every kind of slot the mode codes: ranged signed and unsigned integers, an unranged
 * u32, an i64, a bool, a quantized vec3 and a sparse enum; and an owner-only slot it must not
 * code (it keeps baseline 0's value).
 *
 * Input: byte 0 = baselines (1..3, bits 0-1) and entities (1..8, bits 2-4); then the baseline
 * snapshots' bytes (any values, in range or not); the rest is the packet. Invariants: a read
 * never touches memory outside the packet (ASan: the packet is a heap block of its exact
 * size); a refused packet leaves the output unchanged; a read that succeeds gives ranged values
 * inside their ranges and declared enum values, and those snapshots
 * encode and decode back to themselves. Replayed in every test run by fuzz_entropy_replay.
 *
 * With bit 7 of byte 0 set, the input is a prior file instead (ns_entropy_prior_load): the rest
 * XORed over a real one trained on a few snapshots, from the offset byte 1 says (byte 1 / 256 of
 * the file), its checksum made right again when bit 6 is
 * set (so the fuzz reaches the checks behind it). A refused file leaves the prior as it was; an
 * accepted one saves back to the same bytes and codes packets that decode back. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netschema/entropy.h"

typedef struct snap {
    int16_t  x, y;      /* -1000..1000 */
    uint16_t a;         /* 0..511 */
    uint8_t  k;         /* 0..3 */
    bool     on;
    uint32_t u;         /* unranged */
    int64_t  big;       /* unranged */
    int32_t  v[3];      /* quantized vec3 */
    uint8_t  secret;    /* @sync(owner): never coded, always baseline 0's */
    uint8_t  mode;      /* a sparse enum: 0, 2 or 5 */
} snap;

static const ns_enum_value mode_values[] = {{0, "idle"}, {2, "run"}, {5, "fly"}};
static const ns_enum_desc mode_enum = {"Mode", mode_values, 3};

/* Designated initializers: the descriptor may grow members this target does not need. */
#define F(p, enc, comps, fl, l, h)                                                                               \
    {.path = #p, .encoding = enc, .components = comps, .flags = fl, .snap_offset = offsetof(snap, p),             \
     .snap_size = sizeof(((snap *)0)->p), .lo = l, .hi = h}
#define ALL (NS_FIELD_TO_OWNER | NS_FIELD_TO_OTHERS) /* @sync(all): the only slots the mode codes */
static const ns_field_desc fields[] = {
    F(x, NS_ENC_INT, 1, ALL | NS_FIELD_RANGED | NS_FIELD_PREDICTED, -1000, 1000),
    F(y, NS_ENC_INT, 1, ALL | NS_FIELD_RANGED | NS_FIELD_PREDICTED, -1000, 1000),
    F(a, NS_ENC_INT, 1, ALL | NS_FIELD_RANGED, 0, 511),
    F(k, NS_ENC_INT, 1, ALL | NS_FIELD_RANGED, 0, 3),
    F(on, NS_ENC_BOOL, 1, ALL, 0, 0),
    F(u, NS_ENC_INT, 1, ALL | NS_FIELD_PREDICTED, 0, 0),
    F(big, NS_ENC_INT64, 1, ALL, 0, 0),
    F(v, NS_ENC_VEC_Q, 3, ALL | NS_FIELD_PREDICTED, 0, 0),
    F(secret, NS_ENC_INT, 1, NS_FIELD_TO_OWNER | NS_FIELD_RANGED, 0, 255),
    {.path = "mode", .encoding = NS_ENC_INT, .components = 1, .flags = ALL | NS_FIELD_RANGED,
     .snap_offset = offsetof(snap, mode), .snap_size = 1, .lo = 0, .hi = 5, .enum_type = &mode_enum},
};
static const ns_type_desc desc = {.name = "Fuzz", .c_name = "fuzz_Fuzz", .package = "fuzz", .kind = NS_KIND_COMPONENT,
                                  .value_size = sizeof(snap), .snap_size = sizeof(snap), .fields = fields,
                                  .field_count = sizeof fields / sizeof fields[0]};

#define MAX_ENTITIES 8

/* FNV-1a 64, the prior file's checksum (netschema/entropy.h). */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static snap sample(unsigned i)
{
    snap s;
    memset(&s, 0, sizeof s);
    s.x = (int16_t)(i * 37 % 2001) - 1000;
    s.y = (int16_t)(i * 11 % 2001) - 1000;
    s.a = (uint16_t)(i * 5 % 512);
    s.k = (uint8_t)(i % 4);
    s.on = i % 3 == 0;
    s.u = i * 2654435761u;
    s.big = (int64_t)i * -977;
    s.v[0] = (int32_t)i, s.v[1] = (int32_t)(i * 3), s.v[2] = -(int32_t)i;
    s.mode = (uint8_t)mode_values[i % 3].value;
    return s;
}

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_entropy: %s\n", what);
    abort();
}

/* The real prior file the fuzzed ones start from, trained once: the same for every input. */
static size_t real_prior_file(uint8_t *file, size_t cap, const ns_baselines *base)
{
    static uint8_t saved[NS_ENTROPY_PRIOR_FILE_MAX];
    static size_t saved_len;
    if (!saved_len) {
        static ns_entropy_trainer tr;
        static ns_entropy_prior real;
        static snap snaps[MAX_ENTITIES];
        if (ns_entropy_train_init(&tr, &desc) != NS_OK) fail("train_init");
        for (unsigned round = 0; round < 4; round++) {
            for (unsigned e = 0; e < MAX_ENTITIES; e++) snaps[e] = sample(e + round * 7);
            if (ns_entropy_train(&tr, snaps, base, MAX_ENTITIES) != NS_OK) fail("train");
        }
        if (ns_entropy_prior_make(&tr, &real) != NS_OK) fail("prior_make");
        saved_len = ns_entropy_prior_save(&real, saved, sizeof saved);
        if (saved_len < 8 || saved_len > cap) fail("prior_save");
    }
    memcpy(file, saved, saved_len);
    return saved_len;
}

static void fuzz_prior(const uint8_t *data, size_t size)
{
    static snap snaps[MAX_ENTITIES], base_snap[MAX_ENTITIES], out[MAX_ENTITIES];
    ns_baselines base[MAX_ENTITIES];
    for (unsigned e = 0; e < MAX_ENTITIES; e++) {
        base_snap[e] = sample(e);
        memset(&base[e], 0, sizeof base[e]);
        base[e].count = 1, base[e].tick_now = 100, base[e].tick[0] = 99, base[e].snap[0] = &base_snap[e];
    }
    static ns_entropy_prior p, before;
    static uint8_t file[NS_ENTROPY_PRIOR_FILE_MAX], back[NS_ENTROPY_PRIOR_FILE_MAX];
    size_t n = real_prior_file(file, sizeof file, base);
    size_t at = size > 1 ? (size_t)data[1] * n / 256u : 0; /* where the XOR starts */
    for (size_t i = 2; i < size && at + i - 2 < n; i++) file[at + i - 2] ^= data[i];
    if (data[0] & 0x40) {
        uint64_t h = fnv1a(file, n - 8);
        for (unsigned b = 0; b < 8; b++) file[n - 8 + b] = (uint8_t)(h >> (8 * b));
    }
    uint8_t *exact = malloc(n); /* a heap block of its size: ASan sees a read past it */
    if (!exact) return;
    memcpy(exact, file, n);
    memset(&p, 0xa5, sizeof p);
    before = p;
    ns_status st = ns_entropy_prior_load(&p, &desc, exact, n);
    free(exact);
    if (st != NS_OK) {
        if (memcmp(&p, &before, sizeof p) != 0) fail("a refused prior file changed the prior");
        return;
    }
    if (ns_entropy_prior_save(&p, back, sizeof back) != n || memcmp(back, file, n) != 0)
        fail("an accepted prior file does not save back to its bytes");
    static ns_entropy_work work;
    static uint8_t pkt[4096];
    size_t len = 0;
    for (unsigned e = 0; e < MAX_ENTITIES; e++) snaps[e] = sample(e * 13 + 5);
    if (ns_entropy_write(&desc, snaps, base, MAX_ENTITIES, &work, &p, pkt, sizeof pkt, &len, NULL) != NS_OK)
        fail("an accepted prior does not write");
    if (ns_entropy_read(&desc, out, base, MAX_ENTITIES, &work, &p, pkt, len) != NS_OK) fail("an accepted prior does not read");
    for (unsigned e = 0; e < MAX_ENTITIES; e++)
        if (out[e].x != snaps[e].x || out[e].u != snaps[e].u || out[e].big != snaps[e].big ||
            memcmp(out[e].v, snaps[e].v, sizeof out[e].v) != 0 || out[e].mode != snaps[e].mode)
            fail("a packet coded with an accepted prior decodes to other values");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 0x80) {
        fuzz_prior(data, size);
        return 0;
    }
    unsigned nb = (data[0] & 3u) ? (data[0] & 3u) : 1u, ne = ((data[0] >> 2) & 7u) + 1u;
    data++, size--;
    static snap hist[3][MAX_ENTITIES];
    memset(hist, 0, sizeof hist);
    size_t need = (size_t)nb * ne * sizeof(snap);
    size_t take = need < size ? need : size;
    memcpy(hist, data, take); /* hist[k] holds baseline k of every entity; any bytes at all */
    for (unsigned k = 0; k < 3; k++)
        for (unsigned e = 0; e < MAX_ENTITIES; e++) {
            hist[k][e].on = ((const uint8_t *)&hist[k][e].on)[0] & 1u;
            hist[k][e].mode = (uint8_t)mode_values[hist[k][e].mode % 3u].value; /* baselines were decoded */
        }
    data += take, size -= take;
    ns_baselines base[MAX_ENTITIES];
    for (unsigned e = 0; e < ne; e++) {
        memset(&base[e], 0, sizeof base[e]);
        base[e].count = nb;
        base[e].tick_now = 100;
        for (unsigned k = 0; k < nb; k++) base[e].snap[k] = &hist[k][e], base[e].tick[k] = 90u - k;
    }
    uint8_t *packet = malloc(size ? size : 1);
    if (!packet) return 0;
    memcpy(packet, data, size);
    static ns_entropy_work work;
    static snap out[MAX_ENTITIES], again[MAX_ENTITIES], before[MAX_ENTITIES];
    memset(out, 0xa5, sizeof out); /* a refused packet must leave every byte of this as it is */
    memcpy(before, out, sizeof out);
    ns_status st = ns_entropy_read(&desc, out, base, ne, &work, NULL, packet, size);
    free(packet);
    if (st != NS_OK) {
        if (memcmp(out, before, sizeof out) != 0) abort();
        return 0;
    }
    for (unsigned e = 0; e < ne; e++)
        if (out[e].x < -1000 || out[e].x > 1000 || out[e].y < -1000 || out[e].y > 1000 || out[e].a > 511 ||
            out[e].k > 3 || (out[e].mode != 0 && out[e].mode != 2 && out[e].mode != 5) ||
            out[e].secret != ((const snap *)base[e].snap[0])->secret)
            abort();
    static uint8_t buf[4096];
    size_t len = 0;
    if (ns_entropy_write(&desc, out, base, ne, &work, NULL, buf, sizeof buf, &len, NULL) != NS_OK) abort();
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) return 0;
    memcpy(exact, buf, len);
    st = ns_entropy_read(&desc, again, base, ne, &work, NULL, exact, len);
    free(exact);
    if (st != NS_OK) abort();
    for (unsigned e = 0; e < ne; e++) {
        snap a = out[e], b = again[e];
        if (a.x != b.x || a.y != b.y || a.a != b.a || a.k != b.k || a.on != b.on || a.u != b.u || a.big != b.big ||
            memcmp(a.v, b.v, sizeof a.v) != 0)
            abort();
    }
    return 0;
}
