/* realdemo.h — how the cubes of Glenn Fiedler's demo moved (data/delta_stats.txt), and the same
 * statistics of any frames, so that `cubes encode` can show a world beside the real one. */
#ifndef CUBES_REALDEMO_H
#define CUBES_REALDEMO_H

#include <stddef.h>
#include <stdio.h>

#include "frames.h"

#define DELTA_BUCKETS 11 /* |delta| <= 0, 1, 3, 7, ..., 1023 */

typedef struct delta_dist {
    double pos[DELTA_BUCKETS][3]; /* cumulative % of position deltas, x y z */
    double s3[DELTA_BUCKETS][3];  /* cumulative % of smallest-three deltas, a b c */
    size_t pos_samples, s3_samples;
} delta_dist;

/* The demo's numbers, from data/delta_stats.txt. */
extern const delta_dist realdemo_dist;

/* The distribution of frame i against frame i - lag over frames[lag..n-1]: position deltas of
 * cubes whose position changed, smallest-three deltas of cubes whose orientation changed but
 * kept its largest index. */
void delta_dist_measure(const frame *frames, size_t n, size_t lag, delta_dist *out);

/* Prints both side by side. */
void delta_dist_print(FILE *f, const delta_dist *mine, const delta_dist *real);

#endif
