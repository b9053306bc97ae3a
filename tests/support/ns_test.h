/* ns_test.h — shared helpers for netschema's Check tests: a seeded PRNG and a main(). */
#ifndef NS_TEST_H
#define NS_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

/* splitmix64: tiny, seedable, the same sequence everywhere. */
typedef struct ns_rng { uint64_t s; } ns_rng;

static inline uint64_t ns_rng_next(ns_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n > 0 (tiny bias is irrelevant for tests). */
static inline uint64_t ns_rng_below(ns_rng *r, uint64_t n)
{
    return ns_rng_next(r) % n;
}

/* Uniform double in [0, 1). */
static inline double ns_rng_unit(ns_rng *r)
{
    return (double)(ns_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A value whose magnitude spans every bit length evenly: small values are as likely as large. */
static inline uint32_t ns_rng_u32_spread(ns_rng *r)
{
    unsigned bits = (unsigned)ns_rng_below(r, 33);
    return bits == 0 ? 0u : (uint32_t)(ns_rng_next(r) & ((bits == 32) ? 0xffffffffu : ((1u << bits) - 1u)));
}

/* An assertion for hot loops. Check records the location of every passing ck_assert (in fork
 * mode that is a write to a file), which costs more than the code under test in a loop of
 * millions; this only calls into Check when the condition fails. */
#define NS_CHECK(cond, ...)                          \
    do {                                             \
        if (!(cond)) ck_abort_msg(__VA_ARGS__);      \
    } while (0)

/* Runs the suite built by make_suite and exits non-zero if any test failed. */
#define NS_TEST_MAIN(make_suite)                                  \
    int main(void)                                                \
    {                                                             \
        SRunner *sr = srunner_create(make_suite());               \
        srunner_run_all(sr, CK_NORMAL);                           \
        int failed = srunner_ntests_failed(sr);                   \
        srunner_free(sr);                                         \
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;         \
    }

#endif
