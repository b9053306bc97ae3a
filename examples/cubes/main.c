/* cubes — the bandwidth challenge (README.md beside this file): 901 cubes, each frame
 * sent against the frame six ticks older, as in Glenn Fiedler's 2015 compression challenge.
 *
 *   cubes                                  the demo: a 600-frame world, reported like `encode`
 *   cubes dump [--frames N] [--seed S] FILE   writes a world in the challenge's frame format
 *   cubes encode [--model M] FILE           encodes any such file every way we have and prints
 *                                           bytes per packet, each as a ratio to the in-project
 *                                           reference (bench/cubes_reference.c); with a model,
 *                                           the entropy mode with trained priors too
 *   cubes train --out M FILE...             trains the entropy mode's priors on frame files
 *
 * Every packet of every coder is decoded again and checked against its frame. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime: CPU time, steadier than wall time on a busy machine */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netschema/entropy.h"

#include "frames.h"
#include "realdemo.h"
#include "scene.h"

#define LAG 6          /* the challenge: packet i against frame i - 6 */
#define RATE 60
#define MAX_PACKET (FRAME_CUBES * CUBES_CUBE_MAX_BYTES + 64)

typedef struct world {
    const frame     *frames;
    cubes_Cube_snap (*snap)[FRAME_CUBES];
    size_t           n;
} world;

/* One way of coding a packet: encode frame i into buf, decode it into out. */
typedef struct coder {
    const char *name;
    size_t (*encode)(const world *w, size_t i, uint8_t *buf, size_t cap, void *ctx);
    int (*decode)(const world *w, size_t i, const uint8_t *buf, size_t len, cubes_Cube_snap *out, void *ctx);
    void *ctx;
} coder;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* ---- the reference ---- */

typedef struct ref_ctx {
    cref_stats stats;
    cref_cube  out[FRAME_CUBES];
} ref_ctx;

static size_t ref_encode(const world *w, size_t i, uint8_t *buf, size_t cap, void *ctx)
{
    ref_ctx *r = ctx;
    return cref_encode(w->frames[i].cube, w->frames[i - LAG].cube, buf, cap, &r->stats);
}

static int ref_decode(const world *w, size_t i, const uint8_t *buf, size_t len, cubes_Cube_snap *out, void *ctx)
{
    ref_ctx *r = ctx;
    if (cref_decode(buf, len, w->frames[i - LAG].cube, r->out) != 0) return -1;
    for (int c = 0; c < FRAME_CUBES; c++) frames_to_snap(&r->out[c], &out[c]);
    return 0;
}

/* ---- netschema's generated code, the packed (default) model ---- */

typedef struct ns_ctx {
    uint32_t baselines; /* 1 or 3 */
} ns_ctx;

static ns_baselines baselines_for(const world *w, size_t i, uint32_t want, int c)
{
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.tick_now = (uint32_t)i;
    uint32_t have = (uint32_t)(i - LAG + 1); /* frames i-6, i-7, ... that exist */
    b.count = want < have ? want : have;
    for (uint32_t k = 0; k < b.count; k++) {
        b.tick[k] = (uint32_t)(i - LAG - k);
        b.snap[k] = &w->snap[i - LAG - k][c];
    }
    return b;
}

static size_t ns_encode(const world *w, size_t i, uint8_t *buf, size_t cap, void *ctx)
{
    const ns_ctx *x = ctx;
    ns_writer wr;
    ns_writer_init(&wr, buf, cap);
    for (int c = 0; c < FRAME_CUBES; c++) {
        ns_baselines b = baselines_for(w, i, x->baselines, c);
        if (cubes_Cube_write(&wr, &w->snap[i][c], &b, NS_TO_OBSERVER) != NS_OK) return 0;
    }
    return ns_writer_flush(&wr);
}

static int ns_decode(const world *w, size_t i, const uint8_t *buf, size_t len, cubes_Cube_snap *out, void *ctx)
{
    const ns_ctx *x = ctx;
    ns_reader r;
    ns_reader_init(&r, buf, len);
    for (int c = 0; c < FRAME_CUBES; c++) {
        ns_baselines b = baselines_for(w, i, x->baselines, c);
        if (cubes_Cube_read(&r, &out[c], &b, NS_TO_OBSERVER) != NS_OK) return -1;
    }
    return 0;
}

/* Bits of one cube write of the packed model with one baseline. */
static size_t ns_cube_bits(const cubes_Cube_snap *cur, const cubes_Cube_snap *base)
{
    uint8_t buf[CUBES_CUBE_MAX_BYTES + 8];
    ns_writer wr;
    ns_writer_init(&wr, buf, sizeof buf);
    ns_baselines b = {{base, NULL, NULL}, {0, 0, 0}, 1, LAG};
    cubes_Cube_write(&wr, cur, &b, NS_TO_OBSERVER);
    return ns_writer_bits(&wr);
}

/* Where the packed model's bits go (one baseline): the payload of a group is what a write
 * with only that group changed costs beyond the change bits. */
static void ns_split(const world *w, double bits[4])
{
    for (size_t i = LAG; i < w->n; i++)
        for (int c = 0; c < FRAME_CUBES; c++) {
            const cubes_Cube_snap *cur = &w->snap[i][c], *base = &w->snap[i - LAG][c];
            size_t total = ns_cube_bits(cur, base), payload = 0;
            cubes_Cube_snap only = *base;
            only.orientation = cur->orientation;
            size_t o = memcmp(&only.orientation, &base->orientation, sizeof only.orientation) ? ns_cube_bits(&only, base) - 9 : 0;
            only = *base;
            only.position = cur->position;
            size_t p = memcmp(&only.position, &base->position, sizeof only.position) ? ns_cube_bits(&only, base) - 9 : 0;
            payload = o + p;
            bits[0] += (double)(total - payload);
            bits[1] += (double)o;
            bits[2] += (double)p;
        }
}

/* ---- the entropy mode (netschema/entropy.h), driven by the generated descriptor ---- */

typedef struct ent_ctx {
    uint32_t                baselines;
    const ns_entropy_prior *prior; /* NULL: untrained */
    ns_baselines    base[FRAME_CUBES];
    ns_entropy_work work;
} ent_ctx;

static void ent_bases(const world *w, size_t i, ent_ctx *x)
{
    for (int c = 0; c < FRAME_CUBES; c++) x->base[c] = baselines_for(w, i, x->baselines, c);
}

static size_t ent_encode(const world *w, size_t i, uint8_t *buf, size_t cap, void *ctx)
{
    ent_ctx *x = ctx;
    ent_bases(w, i, x);
    size_t len = 0;
    if (cubes_Cube_entropy_write(w->snap[i], x->base, FRAME_CUBES, &x->work, x->prior, buf, cap, &len) != NS_OK) return 0;
    return len;
}

static int ent_decode(const world *w, size_t i, const uint8_t *buf, size_t len, cubes_Cube_snap *out, void *ctx)
{
    ent_ctx *x = ctx;
    ent_bases(w, i, x);
    return cubes_Cube_entropy_read(out, x->base, FRAME_CUBES, &x->work, x->prior, buf, len) == NS_OK ? 0 : -1;
}

/* Where the entropy mode's bits go (one baseline): [0] change bits, [1] orientation,
 * [2] position, [3] interacting. */
static void ent_split(const world *w, ent_ctx *x, double bits[4])
{
    static uint8_t buf[MAX_PACKET];
    double cost[9];
    for (size_t i = LAG; i < w->n; i++) {
        size_t len;
        ent_bases(w, i, x);
        if (ns_entropy_write(&cubes_Cube_desc, w->snap[i], x->base, FRAME_CUBES, &x->work, x->prior, buf, sizeof buf, &len, cost) != NS_OK)
            return;
        bits[0] += cost[8];
        bits[1] += cost[0] + cost[1] + cost[2] + cost[3];
        bits[2] += cost[4] + cost[5] + cost[6];
        bits[3] += cost[7];
    }
}

/* ---- the report ---- */

typedef struct result {
    double mean, p95, max, enc_us, dec_us;
} result;

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Encodes and decodes every packet; returns -1 (after a message) if one does not round-trip. */
static int run(const world *w, const coder *cd, result *res)
{
    static uint8_t buf[MAX_PACKET];
    static cubes_Cube_snap out[FRAME_CUBES];
    size_t packets = w->n - LAG;
    size_t *sizes = malloc(packets * sizeof *sizes);
    if (!sizes) return -1;
    double enc = 0, dec = 0, sum = 0;
    for (size_t i = LAG; i < w->n; i++) {
        double t0 = now_us();
        size_t len = cd->encode(w, i, buf, sizeof buf, cd->ctx);
        double t1 = now_us();
        int bad = len == 0 || cd->decode(w, i, buf, len, out, cd->ctx) != 0;
        double t2 = now_us();
        for (int c = 0; c < FRAME_CUBES && !bad; c++)
            if (!cubes_Cube_snap_equal(&out[c], &w->snap[i][c])) {
                fprintf(stderr, "cubes: %s: cube %d of packet %zu did not decode to its frame\n", cd->name, c, i);
                bad = 1;
            }
        if (bad) {
            fprintf(stderr, "cubes: %s: packet %zu (frame %zu against frame %zu) failed to round-trip\n", cd->name, i, i,
                    i - LAG);
            free(sizes);
            return -1;
        }
        enc += t1 - t0, dec += t2 - t1;
        sizes[i - LAG] = len;
        sum += (double)len;
    }
    /* Timing: the fastest of three passes (the first also checked every packet above), so that
     * other work on the machine disturbs the figures less. */
    for (int pass = 1; pass < 3; pass++) {
        double e2 = 0, d2 = 0;
        for (size_t i = LAG; i < w->n; i++) {
            double t0 = now_us();
            size_t len = cd->encode(w, i, buf, sizeof buf, cd->ctx);
            double t1 = now_us();
            cd->decode(w, i, buf, len, out, cd->ctx);
            double t2 = now_us();
            e2 += t1 - t0, d2 += t2 - t1;
        }
        if (e2 + d2 < enc + dec) enc = e2, dec = d2;
    }
    qsort(sizes, packets, sizeof *sizes, cmp_size);
    res->mean = sum / (double)packets;
    res->p95 = (double)sizes[(packets * 95 + 99) / 100 - 1];
    res->max = (double)sizes[packets - 1];
    res->enc_us = enc / (double)packets;
    res->dec_us = dec / (double)packets;
    free(sizes);
    return 0;
}

static void print_row(const char *name, const result *r, double ref_mean, int timed)
{
    printf("  %-40s %8.2f B/packet %7.0f %7.0f  %5.3f  %7.1f", name, r->mean, r->p95, r->max, r->mean / ref_mean,
           r->mean * 8 * RATE / 1000);
    if (timed) printf("  %7.1f  %7.1f\n", r->enc_us, r->dec_us);
    else printf("  %7s  %7s\n", "-", "-");
}

static int report(const frame *frames, size_t n, const ns_entropy_prior *prior)
{
    if (n < LAG + 1) {
        fprintf(stderr, "cubes: %zu frames: at least %d are needed (packet i is coded against frame i-%d)\n", n, LAG + 1,
                LAG);
        return 1;
    }
    world w = {frames, malloc(n * sizeof *w.snap), n};
    if (!w.snap) return 1;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < FRAME_CUBES; c++) frames_to_snap(&frames[i].cube[c], &w.snap[i][c]);

    size_t changed = 0;
    for (size_t i = LAG; i < n; i++)
        for (int c = 0; c < FRAME_CUBES; c++) changed += memcmp(&frames[i].cube[c], &frames[i - LAG].cube[c], sizeof(cref_cube)) != 0;
    size_t packets = n - LAG;
    printf("%zu frames of %d cubes: %zu packets, packet i coded against frame i-%d (three baselines: i-6, i-7, i-8)\n", n,
           FRAME_CUBES, packets, LAG);
    printf("%.1f cubes changed per packet on average\n", (double)changed / (double)packets);
    printf("protocol hash: 0x%016" PRIx64 " (schema)", (uint64_t)CUBES_SCHEMA_HASH);
    if (prior) printf(", 0x%016" PRIx64 " with the trained model", ns_entropy_protocol_hash(CUBES_SCHEMA_HASH, prior));
    printf("\n\n");

    static ref_ctx ref;
    memset(&ref, 0, sizeof ref);
    ns_ctx one = {1}, three = {3};
    static ent_ctx ent1, ent3, ent1t, ent3t;
    ent1.baselines = 1, ent3.baselines = 3, ent1t.baselines = 1, ent3t.baselines = 3;
    ent1t.prior = ent3t.prior = prior;
    const coder coders[] = {
        {"reference (bench/cubes_reference.c)", ref_encode, ref_decode, &ref},
        {"netschema packed model, 1 baseline", ns_encode, ns_decode, &one},
        {"netschema packed model, 3 baselines", ns_encode, ns_decode, &three},
        {"netschema entropy mode, 1 baseline", ent_encode, ent_decode, &ent1},
        {"netschema entropy mode, 3 baselines", ent_encode, ent_decode, &ent3},
        {"netschema entropy, trained, 1 baseline", ent_encode, ent_decode, &ent1t},
        {"netschema entropy, trained, 3 baselines", ent_encode, ent_decode, &ent3t},
    };
    const size_t NCODERS = prior ? 7 : 5;
    result res[7];
    for (size_t k = 0; k < NCODERS; k++)
        if (run(&w, &coders[k], &res[k]) != 0) {
            free(w.snap);
            return 1;
        }
    double ref_mean = res[0].mean;
    printf("  %-40s %8s %8s %7s %7s  %5s  %7s  %7s  %7s\n", "coder", "mean", "", "p95", "max", "ratio", "kbit/s", "enc us",
           "dec us");
    result raw = {FRAME_CUBES * 80 / 8.0, FRAME_CUBES * 80 / 8.0, FRAME_CUBES * 80 / 8.0, 0, 0};
    print_row("raw 80-bit cubes", &raw, ref_mean, 0);
    for (size_t k = 0; k < NCODERS; k++) print_row(coders[k].name, &res[k], ref_mean, 1);
    printf("  (ratio: mean bytes over the reference's on these frames; kbit/s at %d Hz; CPU us per 901-cube packet)\n\n", RATE);

    /* The reference's bits by field, counted once (the timing passes above ran it thrice). */
    memset(&ref.stats, 0, sizeof ref.stats);
    static uint8_t pkt[CREF_MAX_BYTES];
    for (size_t i = LAG; i < n; i++) cref_encode(frames[i].cube, frames[i - LAG].cube, pkt, sizeof pkt, &ref.stats);
    double cubes = (double)packets * FRAME_CUBES;
    double nsb[4] = {0, 0, 0, 0};
    ns_split(&w, nsb);
    printf("bits per cube, by field:\n");
    printf("  %-40s %8s %12s %9s %12s %7s\n", "", "total", "change/index", "flags", "orientation", "position");
    printf("  %-40s %8.2f %12.2f %9.2f %12.2f %7.2f\n", coders[0].name,
           (double)(ref.stats.index_bits + ref.stats.flag_bits + ref.stats.orientation_bits + ref.stats.position_bits) / cubes,
           (double)ref.stats.index_bits / cubes, (double)ref.stats.flag_bits / cubes,
           (double)ref.stats.orientation_bits / cubes, (double)ref.stats.position_bits / cubes);
    printf("  %-40s %8.2f %12.2f %9s %12.2f %7.2f\n", coders[1].name, (nsb[0] + nsb[1] + nsb[2]) / cubes, nsb[0] / cubes,
           "-", nsb[1] / cubes, nsb[2] / cubes);
    double eb[4] = {0, 0, 0, 0};
    ent_split(&w, &ent1, eb);
    printf("  %-40s %8.2f %12.2f %9s %12.2f %7.2f\n", coders[3].name, (eb[0] + eb[1] + eb[2] + eb[3]) / cubes,
           eb[0] / cubes, "-", eb[1] / cubes, eb[2] / cubes);
    printf("  (netschema's change bits carry interacting: a bool is its own change bit; entropy-mode bits are\n"
           "   the information content -log2 p of each coded bit, within a few bytes per packet of the output)\n\n");

    delta_dist mine;
    delta_dist_measure(frames, n, LAG, &mine);
    delta_dist_print(stdout, &mine, &realdemo_dist);
    printf("\nEvery packet of every coder was decoded again and matched its frame exactly.\n");
    free(w.snap);
    return 0;
}

static frame *make_world(size_t n, uint64_t seed)
{
    frame *f = malloc(n * sizeof *f);
    scene *s = malloc(sizeof *s);
    if (!f || !s) {
        free(f), free(s);
        return NULL;
    }
    scene_init(s, seed);
    for (size_t i = 0; i < n; i++) {
        scene_step(s);
        scene_frame(s, &f[i]);
    }
    free(s);
    return f;
}

/* Reads a model file made by `cubes train`, refusing a damaged one or one for another schema. */
static int load_model(const char *path, ns_entropy_prior *prior)
{
    static uint8_t buf[NS_ENTROPY_PRIOR_FILE_MAX + 1];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cubes: %s: cannot open\n", path);
        return -1;
    }
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ns_status st = ns_entropy_prior_load(prior, &cubes_Cube_desc, buf, len);
    if (st == NS_ERR_MISMATCH) {
        fprintf(stderr, "cubes: %s: a model made for another schema (not for cubes.Cube, hash 0x%016" PRIx64 ")\n", path,
                (uint64_t)cubes_Cube_desc.hash);
        return -1;
    }
    if (st != NS_OK) {
        fprintf(stderr, "cubes: %s: not a model file, or a damaged one (%s)\n", path, ns_status_str(st));
        return -1;
    }
    return 0;
}

/* `cubes train`: every packet of every file, with one baseline and with three. */
static int train(const char *out, char **files, int nfiles)
{
    ns_entropy_trainer *tr = malloc(sizeof *tr);
    static ent_ctx x;
    if (!tr || ns_entropy_train_init(tr, &cubes_Cube_desc) != NS_OK) {
        free(tr);
        return 1;
    }
    for (int k = 0; k < nfiles; k++) {
        frame *f;
        size_t n;
        char err[300];
        if (frames_load(files[k], &f, &n, err, sizeof err) != 0) {
            fprintf(stderr, "cubes: %s\n", err);
            free(tr);
            return 1;
        }
        world w = {f, malloc(n * sizeof *w.snap), n};
        if (!w.snap) {
            free(f), free(tr);
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < FRAME_CUBES; c++) frames_to_snap(&f[i].cube[c], &w.snap[i][c]);
        for (uint32_t nb = 1; nb <= 3; nb += 2)
            for (size_t i = LAG; i < n; i++) {
                x.baselines = nb;
                ent_bases(&w, i, &x);
                ns_entropy_train(tr, w.snap[i], x.base, FRAME_CUBES);
            }
        free(w.snap);
        free(f);
    }
    static ns_entropy_prior prior;
    static uint8_t buf[NS_ENTROPY_PRIOR_FILE_MAX];
    ns_entropy_prior_make(tr, &prior);
    free(tr);
    size_t len = ns_entropy_prior_save(&prior, buf, sizeof buf);
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cubes: %s: cannot write\n", out);
        return 1;
    }
    printf("%s: %zu bytes, model hash 0x%016" PRIx64 "\n", out, len, prior.hash);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: cubes                                  run the demo (a 600-frame world)\n"
                    "       cubes dump [--frames N] [--seed S] FILE  write a world in the challenge's frame format\n"
                    "                                              (default 2837 frames, seed 1)\n"
                    "       cubes encode [--model M] FILE          encode a frame file every way and compare\n"
                    "       cubes train --out M FILE...            train the entropy mode's model on frame files\n");
    return 2;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-') return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        printf("netschema cubes demo: a 600-frame world (10 s at 60 Hz), as `cubes encode` reports a frame file\n\n");
        frame *f = make_world(600, 1);
        if (!f) return 1;
        int rc = report(f, 600, NULL);
        free(f);
        return rc;
    }
    if (strcmp(argv[1], "dump") == 0) {
        uint64_t frames = 2837, seed = 1;
        const char *path = NULL;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
                if (parse_u64(argv[++i], &frames) || frames == 0 || frames > 1000000) {
                    fprintf(stderr, "cubes: --frames wants a number from 1 to 1000000\n");
                    return 2;
                }
            } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
                if (parse_u64(argv[++i], &seed)) {
                    fprintf(stderr, "cubes: --seed wants a number\n");
                    return 2;
                }
            } else if (!path && argv[i][0] != '-') {
                path = argv[i];
            } else {
                return usage();
            }
        }
        if (!path) return usage();
        frame *f = make_world((size_t)frames, seed);
        FILE *out = fopen(path, "wb");
        if (!f || !out) {
            fprintf(stderr, "cubes: %s: %s\n", path, f ? "cannot create" : "out of memory");
            free(f);
            if (out) fclose(out);
            return 1;
        }
        int bad = frames_write(out, f, (size_t)frames);
        bad |= fclose(out) != 0;
        free(f);
        if (bad) {
            fprintf(stderr, "cubes: %s: write error\n", path);
            return 1;
        }
        return 0;
    }
    if (strcmp(argv[1], "encode") == 0) {
        const char *model = NULL, *path = NULL;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) model = argv[++i];
            else if (!path && argv[i][0] != '-') path = argv[i];
            else return usage();
        }
        if (!path) return usage();
        static ns_entropy_prior prior;
        if (model && load_model(model, &prior) != 0) return 1;
        frame *f;
        size_t n;
        char err[300];
        if (frames_load(path, &f, &n, err, sizeof err) != 0) {
            fprintf(stderr, "cubes: %s\n", err);
            return 1;
        }
        int rc = report(f, n, model ? &prior : NULL);
        free(f);
        return rc;
    }
    if (strcmp(argv[1], "train") == 0) {
        const char *out = NULL;
        int first = 0;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
            else if (argv[i][0] != '-') {
                first = i;
                break;
            } else return usage();
        }
        if (!out || !first) return usage();
        return train(out, argv + first, argc - first);
    }
    return usage();
}
