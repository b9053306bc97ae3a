/* bench_common.h — timing helpers shared by the benchmarks: a monotonic clock, best-of-N runs, a median
 * and a sink that keeps the optimizer from deleting measured work. */
#ifndef NS_BENCH_COMMON_H
#define NS_BENCH_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Anything passed here counts as used. */
static volatile uint64_t bench_sink;

/* Runs fn(arg) reps times and returns the fastest run in seconds. */
static inline double bench_best(void (*fn)(void *), void *arg, int reps)
{
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        double t0 = bench_now();
        fn(arg);
        double t = bench_now() - t0;
        if (t < best) best = t;
    }
    return best;
}

/* The median of n values (n <= 64); sorts a copy. */
static inline double bench_median(const double *v, int n)
{
    double s[64];
    if (n <= 0 || n > 64) return 0.0;
    memcpy(s, v, (size_t)n * sizeof *s);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && s[k - 1] > s[k]; k--) {
            double t = s[k];
            s[k] = s[k - 1], s[k - 1] = t;
        }
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

#endif
