/* bench_floats — which wire scheme for unquantized floats? Measures bits per changed value on
 * realistic series, for three schemes of coding a float against its reference (the previous
 * value):
 *   raw     32 raw bits;
 *   xor     Gorilla-style: x = cur ^ ref; 5 bits of leading zeros, 5 bits of (length − 1),
 *           then the `length` meaningful bits of x;
 *   hybrid  1 selector bit, then the cheaper of the two.
 * (The change-mask bit is the same for all three and is not counted.) */
#include "bench_common.h"

#include <math.h>
#include <stdlib.h>

#define N 100000

static unsigned clz32(uint32_t x) { return x ? (unsigned)__builtin_clz(x) : 32u; }
static unsigned ctz32(uint32_t x) { return x ? (unsigned)__builtin_ctz(x) : 32u; }

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static unsigned xor_cost(uint32_t cur, uint32_t ref)
{
    uint32_t x = cur ^ ref;
    return 10u + (32u - clz32(x) - ctz32(x));
}

typedef struct tally {
    const char *name;
    double raw, xr, hybrid;
    size_t changed;
} tally;

static void add(tally *t, float cur, float ref)
{
    uint32_t a = bits_of(cur), b = bits_of(ref);
    if (a == b) return;
    unsigned x = xor_cost(a, b);
    t->raw += 32;
    t->xr += x;
    t->hybrid += 1 + (x < 32 ? x : 32);
    t->changed++;
}

static uint64_t rng = 88172645463325252u;
static double unit(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

int main(void)
{
    tally t[5] = {{"positions, 60 Hz physics", 0, 0, 0, 0}, {"velocities, 60 Hz physics", 0, 0, 0, 0},
                  {"gameplay values (hp, armor, ammo as floats)", 0, 0, 0, 0},
                  {"timers (+1/60 per tick)", 0, 0, 0, 0}, {"unit direction components", 0, 0, 0, 0}};
    /* Objects moving under gravity and drag, bouncing on the ground, in a 500 m world. */
    for (int o = 0; o < 100; o++) {
        float p[3] = {(float)(unit() * 500 - 250), (float)(unit() * 20), (float)(unit() * 500 - 250)};
        float v[3] = {(float)(unit() * 20 - 10), (float)(unit() * 10), (float)(unit() * 20 - 10)};
        for (int i = 0; i < N / 100; i++) {
            float np[3], nv[3];
            for (int k = 0; k < 3; k++) {
                nv[k] = v[k] * 0.995f + (k == 1 ? -9.81f / 60 : 0);
                np[k] = p[k] + nv[k] / 60;
            }
            if (np[1] < 0) np[1] = 0, nv[1] = -nv[1] * 0.6f;
            for (int k = 0; k < 3; k++) add(&t[0], np[k], p[k]), add(&t[1], nv[k], v[k]), p[k] = np[k], v[k] = nv[k];
        }
    }
    /* Values that change in steps a designer would pick. */
    float hp = 100, armor = 50, ammo = 30;
    for (int i = 0; i < N; i++) {
        float nhp = hp, narmor = armor, nammo = ammo;
        double r = unit();
        if (r < 0.3) nhp = hp - (float)(int)(unit() * 20) * 0.5f;
        else if (r < 0.5) narmor = armor - 2.5f;
        else if (r < 0.8) nammo = ammo - 1;
        if (nhp <= 0) nhp = 100;
        if (narmor <= 0) narmor = 50;
        if (nammo <= 0) nammo = 30;
        add(&t[2], nhp, hp), add(&t[2], narmor, armor), add(&t[2], nammo, ammo);
        hp = nhp, armor = narmor, ammo = nammo;
    }
    float timer = 0;
    for (int i = 0; i < N; i++) {
        float nt = timer + 1.0f / 60;
        add(&t[3], nt, timer);
        timer = nt > 600 ? 0 : nt;
    }
    double d[3] = {1, 0, 0};
    for (int i = 0; i < N; i++) {
        double nd[3], len = 0;
        for (int k = 0; k < 3; k++) nd[k] = d[k] + (unit() - 0.5) * 0.02, len += nd[k] * nd[k];
        for (int k = 0; k < 3; k++) nd[k] /= sqrt(len), add(&t[4], (float)nd[k], (float)d[k]), d[k] = nd[k];
    }
    printf("bench_floats: bits per changed f32 value against the previous value\n");
    printf("  %-46s %8s %8s %8s\n", "series", "raw", "xor", "hybrid");
    double sum[3] = {0, 0, 0};
    size_t n = 0;
    for (int i = 0; i < 5; i++) {
        printf("  %-46s %8.2f %8.2f %8.2f\n", t[i].name, t[i].raw / t[i].changed, t[i].xr / t[i].changed,
               t[i].hybrid / t[i].changed);
        sum[0] += t[i].raw, sum[1] += t[i].xr, sum[2] += t[i].hybrid, n += t[i].changed;
    }
    printf("  %-46s %8.2f %8.2f %8.2f   (xor/raw %.3f, hybrid/raw %.3f)\n", "all", sum[0] / n, sum[1] / n,
           sum[2] / n, sum[1] / sum[0], sum[2] / sum[0]);
    return 0;
}
