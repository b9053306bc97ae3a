/* cubes — the bandwidth demo: a server simulates 901 cubes at 60 Hz and sends every cube in every
 * snapshot to a client whose acks arrive 6 ticks late. The same snapshots are encoded three ways:
 *   no baseline   every cube against the schema defaults (a full state);
 *   1 baseline    against the last acked snapshot (tick − 6);
 *   3 baselines   against the three newest acked snapshots, with linear prediction.
 * Every packet is decoded again and checked against the server's state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

#define SECONDS 10
#define RATE 60
#define LATENCY 6   /* ticks before the client's ack reaches the server */
#define HISTORY 16  /* snapshots the server keeps */

typedef struct snapshot {
    cubes_Cube_snap cube[SCENE_CUBES];
    unsigned        tick;
} snapshot;

/* Encodes every cube of `cur` against up to n baselines, decodes it again and checks it. */
static size_t packet(const snapshot *cur, const snapshot *const *base, uint32_t n, uint8_t *buf, size_t cap)
{
    ns_writer w;
    ns_writer_init(&w, buf, cap);
    ns_baselines b;
    memset(&b, 0, sizeof b);
    b.count = n;
    b.tick_now = cur->tick;
    for (uint32_t k = 0; k < n; k++) b.tick[k] = base[k]->tick;
    for (int i = 0; i < SCENE_CUBES; i++) {
        for (uint32_t k = 0; k < n; k++) b.snap[k] = &base[k]->cube[i];
        if (cubes_Cube_write(&w, &cur->cube[i], &b, NS_TO_OBSERVER) != NS_OK) {
            fprintf(stderr, "cubes: a snapshot did not fit\n");
            exit(1);
        }
    }
    size_t bytes = ns_writer_flush(&w);
    ns_reader r;
    ns_reader_init(&r, buf, bytes);
    for (int i = 0; i < SCENE_CUBES; i++) {
        cubes_Cube_snap got;
        for (uint32_t k = 0; k < n; k++) b.snap[k] = &base[k]->cube[i];
        if (cubes_Cube_read(&r, &got, &b, NS_TO_OBSERVER) != NS_OK || !cubes_Cube_snap_equal(&got, &cur->cube[i])) {
            fprintf(stderr, "cubes: cube %d of tick %u did not decode to the server's state\n", i, cur->tick);
            exit(1);
        }
    }
    return bytes;
}

int main(void)
{
    static scene s;
    static snapshot history[HISTORY];
    static uint8_t buf[SCENE_CUBES * CUBES_CUBE_MAX_BYTES + 16];
    scene_init(&s);

    printf("netschema demo: %d cubes, %d snapshots per second, acks %d ticks late\n", SCENE_CUBES, RATE, LATENCY);
    printf("bytes per snapshot (every cube in every snapshot), averaged over each second:\n\n");
    printf("  %6s  %6s  %12s  %12s  %22s\n", "second", "moving", "no baseline", "1 baseline", "3 baselines (predict)");
    double total[3] = {0, 0, 0};
    unsigned packets = 0;
    for (int sec = 1; sec <= SECONDS; sec++) {
        double sum[3] = {0, 0, 0};
        unsigned moving = 0;
        for (int t = 0; t < RATE; t++) {
            scene_step(&s);
            snapshot *cur = &history[s.tick % HISTORY];
            cur->tick = s.tick;
            for (int i = 0; i < SCENE_CUBES; i++) cubes_Cube_quantize(&s.cube[i], &cur->cube[i]);
            moving += scene_moving(&s);
            const snapshot *base[3];
            uint32_t acked = s.tick > LATENCY + 2 ? 3 : 0;
            for (uint32_t k = 0; k < acked; k++) base[k] = &history[(s.tick - LATENCY - k) % HISTORY];
            sum[0] += (double)packet(cur, base, 0, buf, sizeof buf);
            sum[1] += (double)packet(cur, base, acked ? 1 : 0, buf, sizeof buf);
            sum[2] += (double)packet(cur, base, acked, buf, sizeof buf);
        }
        printf("  %6d  %6u  %12.0f  %12.0f  %22.0f\n", sec, moving / RATE, sum[0] / RATE, sum[1] / RATE, sum[2] / RATE);
        for (int k = 0; k < 3; k++) total[k] += sum[k];
        packets += RATE;
    }
    printf("\n  average:        %12.0f  %12.0f  %22.0f  bytes per snapshot\n", total[0] / packets, total[1] / packets,
           total[2] / packets);
    printf("  at %d Hz:        %12.0f  %12.0f  %22.0f  kbit/s\n", RATE, total[0] / packets * 8 * RATE / 1000,
           total[1] / packets * 8 * RATE / 1000, total[2] / packets * 8 * RATE / 1000);
    printf("\nEvery packet was decoded again and matched the server's snapshot exactly.\n");
    printf("Schema: examples/cubes/cubes.netschema; generated code: build/examples/cubes/cubes_schema_gen/.\n");
    return 0;
}
