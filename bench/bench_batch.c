/* bench_batch — throughput of timestamp batching (batch.h): ns_batcher_add + ns_batcher_take and
 * ns_unbatcher over 2^18 rpc-sized messages (8..64 bytes, 16 per timestamp), in messages/s and
 * as a ratio to copying the same messages with memcpy (one call per message, and one bulk call
 * for the whole payload), all measured in the same run. Runs are interleaved (memcpy, batch,
 * unbatch, ...) and the median of each is reported, so a noisy neighbour slows all of them.
 * The batch run copies each batch it takes into an output buffer, as a send would. */
#include "bench_common.h"

#include <stdlib.h>

#include <netschema/netschema.h>

#define N (1u << 18)
#define REPS 21

typedef struct job {
    uint8_t  *payload;   /* every message back to back */
    uint32_t *offset;    /* N + 1 offsets into payload */
    uint8_t  *copy;      /* memcpy destination */
    uint8_t  *storage;   /* batcher storage */
    size_t    storage_bytes;
    uint8_t  *batches;   /* every batch back to back, for the unbatcher */
    uint32_t *batch_offset;
    uint32_t  batch_count;
    size_t    total;
} job;

static void run_memcpy_each(void *p)
{
    job *j = p;
    for (uint32_t i = 0; i < N; i++)
        memcpy(j->copy + j->offset[i], j->payload + j->offset[i], j->offset[i + 1] - j->offset[i]);
    bench_sink += j->copy[j->total / 2];
}

static void run_memcpy_bulk(void *p)
{
    job *j = p;
    memcpy(j->copy, j->payload, j->total);
    bench_sink += j->copy[j->total / 3];
}

/* Adds every message, taking batches as the storage fills, the way a sender drains per datagram. */
static void run_batch(void *p)
{
    job *j = p;
    ns_batcher b;
    ns_batcher_init(&b, j->storage, j->storage_bytes, 0);
    size_t out = 0;
    uint32_t count = 0;
    for (uint32_t i = 0; i < N; i++) {
        const uint8_t *msg = j->payload + j->offset[i];
        size_t len = j->offset[i + 1] - j->offset[i];
        while (ns_batcher_add(&b, msg, len, i / 16) == NS_ERR_FULL) {
            const uint8_t *batch;
            size_t blen;
            while (ns_batcher_take(&b, &batch, &blen)) {
                j->batch_offset[count++] = (uint32_t)out;
                memcpy(j->batches + out, batch, blen);
                out += blen;
            }
        }
    }
    const uint8_t *batch;
    size_t blen;
    while (ns_batcher_take(&b, &batch, &blen)) {
        j->batch_offset[count++] = (uint32_t)out;
        memcpy(j->batches + out, batch, blen);
        out += blen;
    }
    j->batch_offset[count] = (uint32_t)out;
    j->batch_count = count;
}

static void run_unbatch(void *p)
{
    job *j = p;
    uint64_t sum = 0;
    for (uint32_t k = 0; k < j->batch_count; k++) {
        ns_unbatcher u;
        if (ns_unbatcher_init(&u, j->batches + j->batch_offset[k], j->batch_offset[k + 1] - j->batch_offset[k]) != NS_OK)
            continue;
        const uint8_t *m;
        size_t len;
        while (ns_unbatcher_next(&u, &m, &len, NULL)) sum += len + m[0];
    }
    bench_sink += sum;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], compare);
    return v[n / 2];
}

int main(void)
{
    job j = {0};
    j.offset = malloc((N + 1) * sizeof(uint32_t));
    uint64_t rng = 1;
    for (uint32_t i = 0; i < N; i++) {
        j.offset[i] = (uint32_t)j.total;
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        j.total += 8 + (size_t)((rng >> 33) % 57);
    }
    j.offset[N] = (uint32_t)j.total;
    j.payload = malloc(j.total);
    j.copy = malloc(j.total);
    for (size_t i = 0; i < j.total; i++) j.payload[i] = (uint8_t)(i * 131u);
    j.storage_bytes = 64 * 1024; /* a sender's queue: about 50 datagrams */
    j.storage = malloc(j.storage_bytes);
    j.batches = malloc(j.total * 2);
    j.batch_offset = malloc((N + 1) * sizeof(uint32_t));

    /* Check once that the batches give the messages back. */
    run_batch(&j);
    size_t got = 0;
    uint32_t msgs = 0;
    for (uint32_t k = 0; k < j.batch_count; k++) {
        ns_unbatcher u;
        if (ns_unbatcher_init(&u, j.batches + j.batch_offset[k], j.batch_offset[k + 1] - j.batch_offset[k]) != NS_OK) {
            fprintf(stderr, "batch %u rejected\n", k);
            return 1;
        }
        const uint8_t *m;
        size_t len;
        while (ns_unbatcher_next(&u, &m, &len, NULL)) {
            if (len != j.offset[msgs + 1] - j.offset[msgs] || memcmp(m, j.payload + j.offset[msgs], len) != 0) {
                fprintf(stderr, "message %u differs\n", msgs);
                return 1;
            }
            got += len;
            msgs++;
        }
    }
    if (msgs != N || got != j.total) {
        fprintf(stderr, "lost messages\n");
        return 1;
    }

    double t_each[REPS], t_bulk[REPS], t_batch[REPS], t_unbatch[REPS];
    for (int r = 0; r < REPS; r++) {
        t_each[r] = bench_best(run_memcpy_each, &j, 1);
        t_bulk[r] = bench_best(run_memcpy_bulk, &j, 1);
        t_batch[r] = bench_best(run_batch, &j, 1);
        t_unbatch[r] = bench_best(run_unbatch, &j, 1);
    }
    double each = median(t_each, REPS), bulk = median(t_bulk, REPS);
    double batch = median(t_batch, REPS), unbatch = median(t_unbatch, REPS);
    size_t wire = j.batch_offset[j.batch_count];
    printf("bench_batch: %u messages of 8..64 bytes (%.1f MB), %u batches, %.2f bytes of overhead per message\n",
           N, (double)j.total / 1e6, j.batch_count, (double)(wire - j.total) / N);
    printf("  memcpy per message  %8.1f M msg/s\n", N / each / 1e6);
    printf("  memcpy bulk         %8.1f M msg/s\n", N / bulk / 1e6);
    printf("  batch (add + take)  %8.1f M msg/s   %.2fx the time of memcpy per message, %.2fx bulk\n",
           N / batch / 1e6, batch / each, batch / bulk);
    printf("  unbatch             %8.1f M msg/s   %.2fx the time of memcpy per message, %.2fx bulk\n",
           N / unbatch / 1e6, unbatch / each, unbatch / bulk);
    free(j.offset);
    free(j.payload);
    free(j.copy);
    free(j.storage);
    free(j.batches);
    free(j.batch_offset);
    return 0;
}
