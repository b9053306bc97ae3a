/* realdemo.c — the delta distribution of the real demo and of our frames (see realdemo.h). */
#include "realdemo.h"

#include <stdlib.h>
#include <string.h>

/* data/delta_stats.txt, "delta position" and "delta smallest three", copied by hand. */
const delta_dist realdemo_dist = {
    {{9.6, 9.1, 9.0},
     {17.7, 17.4, 17.5},
     {26.3, 26.1, 27.6},
     {36.0, 36.3, 40.0},
     {47.1, 48.0, 54.2},
     {58.0, 59.3, 68.4},
     {70.0, 70.8, 82.3},
     {84.5, 85.8, 94.8},
     {97.6, 98.0, 99.7},
     {100.0, 100.0, 100.0},
     {100.0, 100.0, 100.0}},
    {{8.9, 8.0, 13.6},
     {19.2, 18.4, 23.7},
     {29.8, 28.7, 32.9},
     {43.1, 41.5, 43.8},
     {59.6, 57.2, 57.4},
     {77.0, 74.5, 73.1},
     {90.3, 89.4, 87.5},
     {95.1, 94.9, 93.8},
     {97.6, 97.8, 97.3},
     {100.0, 100.0, 100.0},
     {100.0, 100.0, 100.0}},
    0,
    0,
};

static int bucket(long d)
{
    if (d < 0) d = -d;
    int b = 0;
    while (b < DELTA_BUCKETS - 1 && d > (1L << b) - 1) b++;
    return b;
}

void delta_dist_measure(const frame *frames, size_t n, size_t lag, delta_dist *out)
{
    memset(out, 0, sizeof *out);
    size_t pos[DELTA_BUCKETS][3], s3[DELTA_BUCKETS][3];
    memset(pos, 0, sizeof pos), memset(s3, 0, sizeof s3);
    for (size_t i = lag; i < n; i++)
        for (int c = 0; c < FRAME_CUBES; c++) {
            const cref_cube *a = &frames[i].cube[c], *b = &frames[i - lag].cube[c];
            if (a->x != b->x || a->y != b->y || a->z != b->z) {
                pos[bucket((long)a->x - b->x)][0]++;
                pos[bucket((long)a->y - b->y)][1]++;
                pos[bucket((long)a->z - b->z)][2]++;
                out->pos_samples++;
            }
            if (a->largest == b->largest && (a->a != b->a || a->b != b->b || a->c != b->c)) {
                s3[bucket((long)a->a - b->a)][0]++;
                s3[bucket((long)a->b - b->b)][1]++;
                s3[bucket((long)a->c - b->c)][2]++;
                out->s3_samples++;
            }
        }
    for (int k = 0; k < 3; k++) {
        size_t cp = 0, cs = 0;
        for (int b = 0; b < DELTA_BUCKETS; b++) {
            cp += pos[b][k], cs += s3[b][k];
            out->pos[b][k] = out->pos_samples ? 100.0 * (double)cp / (double)out->pos_samples : 0;
            out->s3[b][k] = out->s3_samples ? 100.0 * (double)cs / (double)out->s3_samples : 0;
        }
    }
}

void delta_dist_print(FILE *f, const delta_dist *mine, const delta_dist *real)
{
    fprintf(f, "How this world moves beside Glenn Fiedler's demo (examples/cubes/data/delta_stats.txt):\n");
    fprintf(f, "cumulative %% of |frame i - frame i-6| <= bound, per component; this file | the demo\n");
    fprintf(f, "(%zu changed positions, %zu changed smallest-three with the same largest index)\n\n",
            mine->pos_samples, mine->s3_samples);
    fprintf(f, "  %5s  %-35s  %-35s\n", "<=", "position x y z", "smallest-three a b c");
    for (int b = 0; b < DELTA_BUCKETS; b++) {
        fprintf(f, "  %5ld ", (1L << b) - 1);
        for (int k = 0; k < 3; k++) fprintf(f, " %5.1f", mine->pos[b][k]);
        fprintf(f, " |");
        for (int k = 0; k < 3; k++) fprintf(f, " %5.1f", real->pos[b][k]);
        fprintf(f, "   ");
        for (int k = 0; k < 3; k++) fprintf(f, " %5.1f", mine->s3[b][k]);
        fprintf(f, " |");
        for (int k = 0; k < 3; k++) fprintf(f, " %5.1f", real->s3[b][k]);
        fprintf(f, "\n");
    }
}
