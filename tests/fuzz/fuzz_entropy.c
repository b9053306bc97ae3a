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
 * encode and decode back to themselves. Replayed in every test run by fuzz_entropy_replay. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
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
