/* bench_bits — write and read throughput of the runtime's bit streams:
 *   (a) raw fixed-width fields (ns_write_bits / ns_read_bits),
 *   (b) packed small deltas (ns_write_delta_i32 / ns_read_delta_i32),
 * in MB/s of input and values/s, each as a ratio to memcpy of the same input in the same run;
 * and the raw fields against a tight hand-written packer (the same bytes), as a time ratio. */
#include "bench_common.h"

#include <stdlib.h>

#include <netschema/netschema.h>

#define N (1u << 20)
#define REPS 15

typedef struct job {
    uint32_t *in;       /* N input values */
    uint32_t *out;      /* N decoded values */
    int32_t  *ref;      /* N references for deltas */
    unsigned *width;    /* N field widths for raw fields */
    uint8_t  *buf;      /* encoded stream */
    size_t    cap, used;
} job;

static void run_memcpy(void *p)
{
    job *j = p;
    memcpy(j->out, j->in, N * sizeof(uint32_t));
    bench_sink += j->out[N / 2];
}

/* Every loop here reads its input through local restrict pointers, as a codec reads a snapshot
 * it was handed: stores into the output bytes cannot then force the job's fields to be reloaded
 * (a byte store may alias anything), for netschema and the hand packer alike. */
static void write_raw(void *p)
{
    job *j = p;
    const uint32_t *restrict in = j->in;
    const unsigned *restrict width = j->width;
    ns_writer w;
    ns_writer_init(&w, j->buf, j->cap);
    for (size_t i = 0; i < N; i++) ns_write_bits(&w, in[i], width[i]);
    j->used = ns_writer_flush(&w);
}

static void read_raw(void *p)
{
    job *j = p;
    const unsigned *restrict width = j->width;
    uint32_t *restrict out = j->out;
    ns_reader r;
    ns_reader_init(&r, j->buf, j->used);
    for (size_t i = 0; i < N; i++) out[i] = ns_read_bits(&r, width[i]);
    bench_sink += j->out[N / 3] + ns_reader_failed(&r);
}

/* The yardstick: a tight hand-written packer of the usual kind (a 64-bit scratch word, flushed
 * 32 bits at a time into a word array; one room check per flushed word), writing the same bits
 * in the same order as ns_write_bits. Its reader mirrors it. */
static void hand_write_raw(void *p)
{
    job *j = p;
    const uint32_t *restrict in = j->in;
    const unsigned *restrict width = j->width;
    uint32_t *restrict words = (uint32_t *)(void *)j->buf;
    size_t nwords = j->cap / 4, wi = 0;
    uint64_t scratch = 0;
    unsigned bits = 0;
    bool overflow = false;
    for (size_t i = 0; i < N; i++) {
        unsigned n = width[i];
        scratch |= (uint64_t)(in[i] & (uint32_t)ns__mask64(n)) << bits;
        bits += n;
        if (bits >= 32) {
            if (wi < nwords) words[wi++] = (uint32_t)scratch;
            else overflow = true;
            scratch >>= 32;
            bits -= 32;
        }
    }
    if (bits && wi < nwords) words[wi++] = (uint32_t)scratch;
    j->used = overflow ? 0 : wi * 4;
}

static void hand_read_raw(void *p)
{
    job *j = p;
    const uint32_t *restrict words = (const uint32_t *)(const void *)j->buf;
    const unsigned *restrict width = j->width;
    uint32_t *restrict out = j->out;
    size_t nwords = j->used / 4, wi = 0;
    uint64_t scratch = 0;
    unsigned bits = 0;
    bool failed = false;
    for (size_t i = 0; i < N; i++) {
        unsigned n = width[i];
        if (bits < n) {
            if (wi < nwords) scratch |= (uint64_t)words[wi++] << bits;
            else failed = true;
            bits += 32;
        }
        out[i] = (uint32_t)(scratch & ns__mask64(n));
        scratch >>= n;
        bits -= n;
    }
    bench_sink += j->out[N / 3] + failed;
}

static void write_delta(void *p)
{
    job *j = p;
    ns_writer w;
    ns_writer_init(&w, j->buf, j->cap);
    for (size_t i = 0; i < N; i++) ns_write_delta_i32(&w, (int32_t)j->in[i], j->ref[i], NULL);
    j->used = ns_writer_flush(&w);
}

static void read_delta(void *p)
{
    job *j = p;
    ns_reader r;
    ns_reader_init(&r, j->buf, j->used);
    for (size_t i = 0; i < N; i++) j->out[i] = (uint32_t)ns_read_delta_i32(&r, j->ref[i], NULL);
    bench_sink += j->out[N / 3] + ns_reader_failed(&r);
}

static int check(const job *j, const char *what)
{
    for (size_t i = 0; i < N; i++) {
        uint32_t want = j->width[i] == 32 ? j->in[i] : j->in[i] & (uint32_t)ns__mask64(j->width[i]);
        if (j->out[i] != want) {
            fprintf(stderr, "%s: mismatch at %zu\n", what, i);
            return 1;
        }
    }
    return 0;
}

static void report(const char *name, double secs, double memcpy_secs, size_t bytes_out)
{
    double in_mb = N * 4.0 / 1e6;
    printf("  %-28s %9.1f MB/s %8.1f Mvalues/s  %5.1f bits/value  ratio to memcpy %.3f\n", name,
           in_mb / secs, N / secs / 1e6, bytes_out * 8.0 / N, memcpy_secs / secs);
}

/* ns_write_bits / ns_read_bits against the hand packer on the same values: the same bytes (on a
 * little-endian machine, where the hand packer's words are the stream's bytes), then the median
 * of interleaved rounds as hand time / netschema time (above 1: netschema is faster). */
static int versus_hand(job *j, const char *what)
{
    write_raw(j);
    size_t n = j->used;
    uint8_t *mine = malloc(n ? n : 1);
    if (!mine) return 1;
    memcpy(mine, j->buf, n);
    hand_write_raw(j);
    uint16_t probe = 1;
    bool little = *(uint8_t *)&probe == 1;
    int differ = little && (j->used < n || memcmp(mine, j->buf, n) != 0);
    free(mine);
    if (differ) {
        fprintf(stderr, "%s: the hand packer wrote other bytes\n", what);
        return 1;
    }
    enum { ROUNDS = 15 };
    double w[ROUNDS], r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        double t0 = bench_best(write_raw, j, 1), t1 = bench_best(hand_write_raw, j, 1);
        w[k] = t1 / t0;
        double t2 = bench_best(read_raw, j, 1), t3 = bench_best(hand_read_raw, j, 1);
        r[k] = t3 / t2;
    }
    hand_read_raw(j);
    if (check(j, what)) return 1;
    printf("  %-28s hand packer time / netschema time: write %.2f, read %.2f (median of %d interleaved rounds)\n",
           what, bench_median(w, ROUNDS), bench_median(r, ROUNDS), ROUNDS);
    return 0;
}

int main(void)
{
    job j = {0};
    j.in = malloc(N * sizeof *j.in);
    j.out = malloc(N * sizeof *j.out);
    j.ref = malloc(N * sizeof *j.ref);
    j.width = malloc(N * sizeof *j.width);
    j.cap = N * 8;
    j.buf = malloc(j.cap);
    if (!j.in || !j.out || !j.ref || !j.width || !j.buf) return 1;

    uint64_t s = 12345;
    for (size_t i = 0; i < N; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        j.in[i] = (uint32_t)(s >> 32);
        j.width[i] = 32;
    }
    double t_memcpy = bench_best(run_memcpy, &j, REPS);
    printf("bench_bits: %u values (%.1f MB of uint32 input), best of %d runs\n", N, N * 4.0 / 1e6, REPS);
    printf("  %-28s %9.1f MB/s %8.1f Mvalues/s\n", "memcpy (baseline)", N * 4.0 / 1e6 / t_memcpy,
           N / t_memcpy / 1e6);

    double t = bench_best(write_raw, &j, REPS);
    report("write raw 32-bit fields", t, t_memcpy, j.used);
    t = bench_best(read_raw, &j, REPS);
    report("read raw 32-bit fields", t, t_memcpy, j.used);
    if (check(&j, "raw32")) return 1;
    if (versus_hand(&j, "raw 32-bit fields")) return 1;

    static const unsigned widths[] = {32, 16, 8, 1, 12, 24, 5, 10};
    for (size_t i = 0; i < N; i++) j.width[i] = widths[i % 8];
    t = bench_best(write_raw, &j, REPS);
    report("write raw mixed-width fields", t, t_memcpy, j.used);
    t = bench_best(read_raw, &j, REPS);
    report("read raw mixed-width fields", t, t_memcpy, j.used);
    if (check(&j, "raw mixed")) return 1;
    if (versus_hand(&j, "raw mixed-width fields")) return 1;

    /* Small deltas: a coordinate moving by −20..+20 units against its reference. */
    for (size_t i = 0; i < N; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        j.ref[i] = (int32_t)(s >> 40);
        j.in[i] = (uint32_t)(j.ref[i] + (int32_t)((s >> 20) % 41) - 20);
        j.width[i] = 32;
    }
    t = bench_best(write_delta, &j, REPS);
    report("write packed small deltas", t, t_memcpy, j.used);
    t = bench_best(read_delta, &j, REPS);
    report("read packed small deltas", t, t_memcpy, j.used);
    if (check(&j, "deltas")) return 1;

    free(j.in);
    free(j.out);
    free(j.ref);
    free(j.width);
    free(j.buf);
    return 0;
}
