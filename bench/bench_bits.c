/* bench_bits — write and read throughput of the runtime's bit streams:
 *   (a) raw fixed-width fields (ns_write_bits / ns_read_bits),
 *   (b) packed small deltas (ns_write_delta_i32 / ns_read_delta_i32),
 * in MB/s of input and values/s, each as a ratio to memcpy of the same input in the same run. */
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

static void write_raw(void *p)
{
    job *j = p;
    ns_writer w;
    ns_writer_init(&w, j->buf, j->cap);
    for (size_t i = 0; i < N; i++) ns_write_bits(&w, j->in[i], j->width[i]);
    j->used = ns_writer_flush(&w);
}

static void read_raw(void *p)
{
    job *j = p;
    ns_reader r;
    ns_reader_init(&r, j->buf, j->used);
    for (size_t i = 0; i < N; i++) j->out[i] = ns_read_bits(&r, j->width[i]);
    bench_sink += j->out[N / 3] + ns_reader_failed(&r);
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

    static const unsigned widths[] = {32, 16, 8, 1, 12, 24, 5, 10};
    for (size_t i = 0; i < N; i++) j.width[i] = widths[i % 8];
    t = bench_best(write_raw, &j, REPS);
    report("write raw mixed-width fields", t, t_memcpy, j.used);
    t = bench_best(read_raw, &j, REPS);
    report("read raw mixed-width fields", t, t_memcpy, j.used);
    if (check(&j, "raw mixed")) return 1;

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
