/* test_frames.c — the challenge's frame files: a malformed file (a size that is not whole
 * frames, any value out of range) is refused with a message naming what is wrong; a good one
 * reads back exactly what was written; the reference decoder refuses truncated packets. */
#include <stdlib.h>
#include <string.h>

#include "netschema/entropy.h"

#include "frames.h"
#include "scene.h"

static int failures;

#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                          \
            fprintf(stderr, __VA_ARGS__);                                                                            \
            fprintf(stderr, "\n");                                                                                   \
            failures++;                                                                                              \
        }                                                                                                            \
    } while (0)

static void put32(uint8_t *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    p[0] = (uint8_t)u, p[1] = (uint8_t)(u >> 8), p[2] = (uint8_t)(u >> 16), p[3] = (uint8_t)(u >> 24);
}

/* Parses bytes and checks it is refused with a message containing want. */
static void refused(const uint8_t *bytes, size_t len, const char *want)
{
    frame *f = NULL;
    size_t n = 99;
    char err[300] = "";
    int rc = frames_parse(bytes, len, &f, &n, err, sizeof err);
    CHECK(rc == -1 && f == NULL && n == 0, "%zu bytes (%s) accepted", len, want);
    CHECK(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
    free(f);
}

int main(void)
{
    /* Two frames of a world, written and parsed back. */
    static scene s;
    static frame world[2];
    scene_init(&s, 3);
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 30; k++) scene_step(&s);
        scene_frame(&s, &world[i]);
    }
    FILE *tmp = tmpfile();
    CHECK(tmp && frames_write(tmp, world, 2) == 0, "cannot write frames");
    long len = tmp ? ftell(tmp) : 0;
    CHECK(len == 2 * FRAME_BYTES, "2 frames are %ld bytes, not %d", len, 2 * FRAME_BYTES);
    uint8_t *bytes = calloc(1, (size_t)2 * FRAME_BYTES + 1);
    if (tmp) {
        rewind(tmp);
        CHECK(fread(bytes, 1, (size_t)2 * FRAME_BYTES, tmp) == (size_t)2 * FRAME_BYTES, "short read");
        fclose(tmp);
    }
    frame *back = NULL;
    size_t n = 0;
    char err[300] = "";
    CHECK(frames_parse(bytes, (size_t)2 * FRAME_BYTES, &back, &n, err, sizeof err) == 0, "good frames refused: %s", err);
    CHECK(n == 2 && back && memcmp(back, world, sizeof world) == 0, "frames did not read back exactly");
    /* Cube 0 of frame 0 is the first 8 int32, little-endian. */
    CHECK(bytes[16] == (uint8_t)world[0].cube[0].x, "position_x is not little-endian at byte 16");
    free(back);

    /* Sizes. */
    refused(bytes, 0, "0 bytes is not a whole number of frames");
    refused(bytes, (size_t)FRAME_BYTES + 1, "28833 bytes is not a whole number of frames");
    refused(bytes, (size_t)FRAME_BYTES - 32, "28800 bytes is not a whole number of frames");

    /* Every field, one past each end, in the second frame's last cube. */
    static const struct {
        int         field;
        int32_t     value;
        const char *want;
    } bad[] = {
        {0, -1, "frame 1, cube 900: orientation_largest = -1 is outside 0..3"},
        {0, 4, "orientation_largest = 4 is outside 0..3"},
        {1, 512, "orientation_a = 512 is outside 0..511"},
        {2, -1, "orientation_b = -1 is outside 0..511"},
        {3, 512, "orientation_c = 512 is outside 0..511"},
        {4, 16384, "position_x = 16384 is outside -16383..16383"},
        {5, -16384, "position_y = -16384 is outside -16383..16383"},
        {6, -1, "position_z = -1 is outside 0..8191"},
        {6, 8192, "position_z = 8192 is outside 0..8191"},
        {7, 2, "interacting = 2 is outside 0..1"},
        {7, INT32_MIN, "interacting = -2147483648 is outside 0..1"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint8_t *p = bytes + FRAME_BYTES + 900 * 32 + 4 * bad[k].field;
        uint8_t keep[4];
        memcpy(keep, p, 4);
        put32(p, bad[k].value);
        refused(bytes, (size_t)2 * FRAME_BYTES, bad[k].want);
        memcpy(p, keep, 4);
    }

    /* The reference: a packet decodes back; every truncation of it is refused or decodes to
     * something (never reads past the end: ASan would say), and the empty packet is refused. */
    uint8_t pkt[CREF_MAX_BYTES];
    size_t plen = cref_encode(world[1].cube, world[0].cube, pkt, sizeof pkt, NULL);
    static cref_cube out[CREF_CUBES];
    CHECK(plen > 0 && cref_decode(pkt, plen, world[0].cube, out) == 0 && memcmp(out, world[1].cube, sizeof out) == 0,
          "reference packet did not round-trip");
    CHECK(cref_decode(pkt, 0, world[0].cube, out) == -1, "empty reference packet accepted");
    int refused_cuts = 0;
    for (size_t cut = 1; cut < plen; cut++) refused_cuts += cref_decode(pkt, cut, world[0].cube, out) == -1;
    CHECK(refused_cuts > 0, "no truncation of a reference packet was refused");

    /* The entropy mode on the same two frames: exact round trip, and a packet cut short (here to
     * half) is refused rather than decoded into something else. */
    static cubes_Cube_snap cur[CREF_CUBES], prev[CREF_CUBES], got[CREF_CUBES];
    static ns_baselines eb[CREF_CUBES];
    static ns_entropy_work work;
    for (int c = 0; c < CREF_CUBES; c++) {
        frames_to_snap(&world[1].cube[c], &cur[c]);
        frames_to_snap(&world[0].cube[c], &prev[c]);
        eb[c] = (ns_baselines){{&prev[c], NULL, NULL}, {0, 0, 0}, 1, 30};
    }
    size_t elen = 0;
    CHECK(ns_entropy_write(&cubes_Cube_desc, cur, eb, CREF_CUBES, &work, NULL, pkt, sizeof pkt, &elen, NULL) == NS_OK && elen > 8,
          "entropy write failed");
    CHECK(ns_entropy_read(&cubes_Cube_desc, got, eb, CREF_CUBES, &work, NULL, pkt, elen) == NS_OK &&
              memcmp(got, cur, sizeof got) == 0,
          "entropy packet did not round-trip");
    CHECK(ns_entropy_read(&cubes_Cube_desc, got, eb, CREF_CUBES, &work, NULL, pkt, elen / 2) == NS_ERR_TRUNCATED,
          "an entropy packet cut to half was not refused as truncated");

    /* Trained priors: training is deterministic; the file reads back; a damaged file and a file
     * made for another type are refused, each with its own status; a packet coded with a prior
     * decodes only with it. */
    static ns_entropy_trainer tr1, tr2;
    static ns_entropy_prior pa, pb, back_prior;
    static uint8_t fa[NS_ENTROPY_PRIOR_FILE_MAX], fb[NS_ENTROPY_PRIOR_FILE_MAX];
    CHECK(ns_entropy_train_init(&tr1, &cubes_Cube_desc) == NS_OK && ns_entropy_train_init(&tr2, &cubes_Cube_desc) == NS_OK,
          "trainer init failed");
    for (int k = 0; k < 3; k++) {
        ns_entropy_train(&tr1, cur, eb, CREF_CUBES);
        ns_entropy_train(&tr2, cur, eb, CREF_CUBES);
    }
    ns_entropy_prior_make(&tr1, &pa);
    ns_entropy_prior_make(&tr2, &pb);
    size_t la = ns_entropy_prior_save(&pa, fa, sizeof fa), lb = ns_entropy_prior_save(&pb, fb, sizeof fb);
    CHECK(la > 0 && la == lb && memcmp(fa, fb, la) == 0, "the same training gave different model files");
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Cube_desc, fa, la) == NS_OK && back_prior.hash == pa.hash,
          "a model file did not read back");
    CHECK(ns_entropy_protocol_hash(CUBES_SCHEMA_HASH, &pa) != CUBES_SCHEMA_HASH, "the model is not in the protocol hash");
    fa[la / 2] ^= 1;
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Cube_desc, fa, la) == NS_ERR_MALFORMED, "a damaged model file was accepted");
    fa[la / 2] ^= 1;
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Cube_desc, fa, la - 1) == NS_ERR_MALFORMED, "a short model file was accepted");
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Position_desc, fa, la) == NS_ERR_MISMATCH,
          "a model for cubes.Cube was accepted for cubes.Position");
    /* A refused file leaves the prior as it was: a zero probability under a good checksum (found
     * by fuzz_entropy) used to clear it and fill it halfway first, and so did another type's. */
    static ns_entropy_prior kept;
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Cube_desc, fa, la) == NS_OK, "a model file did not read back");
    kept = back_prior;
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Position_desc, fa, la) == NS_ERR_MISMATCH &&
              memcmp(&kept, &back_prior, sizeof kept) == 0,
          "a model file for another type changed the prior it was read into");
    fa[24 + 2 * 3] = fa[24 + 2 * 3 + 1] = 0; /* the fourth probability (after a 24-byte head) */
    uint64_t sum = 0xcbf29ce484222325u;
    for (size_t i = 0; i + 8 < la; i++) sum = (sum ^ fa[i]) * 0x100000001b3u;
    for (int i = 0; i < 8; i++) fa[la - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
    CHECK(ns_entropy_prior_load(&back_prior, &cubes_Cube_desc, fa, la) == NS_ERR_MALFORMED &&
              memcmp(&kept, &back_prior, sizeof kept) == 0,
          "a model file with a zero probability was accepted or changed the prior");
    size_t tlen = 0;
    CHECK(ns_entropy_write(&cubes_Cube_desc, cur, eb, CREF_CUBES, &work, &pa, pkt, sizeof pkt, &tlen, NULL) == NS_OK &&
              ns_entropy_read(&cubes_Cube_desc, got, eb, CREF_CUBES, &work, &pa, pkt, tlen) == NS_OK &&
              memcmp(got, cur, sizeof got) == 0,
          "a packet with a prior did not round-trip");
    CHECK(tlen < elen, "training on the packet itself did not make it smaller (%zu vs %zu B)", tlen, elen);
    CHECK(ns_entropy_write(&cubes_Position_desc, cur, eb, 1, &work, &pa, pkt, sizeof pkt, &tlen, NULL) == NS_ERR_MISMATCH,
          "a prior for another type was used");

    free(bytes);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("frame files: sizes, ranges and round trip ok\n");
    return failures != 0;
}
