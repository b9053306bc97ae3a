/* fuzz_replay.c — runs a libFuzzer target without libFuzzer, so the test suite exercises it
 * under ASan + UBSan on every `make test`: each file named on the command line is one input;
 * with no arguments, a fixed set of pseudo-random inputs (the same on every run; -runs=N sets
 * how many, default 20000) is used. With
 * -mutations=N first, each file is also run N times mutated (bits flipped, bytes replaced,
 * ranges cut, repeated or spliced in from another file; the same mutations on every run), which
 * reaches further than random bytes for inputs with a syntax, such as schemas. A target
 * reports a broken invariant by aborting. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* splitmix64: the same sequence everywhere. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

enum { MAX_FILE = 1 << 20 };

/* Reads a whole file (up to MAX_FILE bytes) into a new heap block; NULL if it cannot be read. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    uint8_t *buf = (uint8_t *)malloc(MAX_FILE);
    *len = buf ? fread(buf, 1, MAX_FILE, f) : 0;
    fclose(f);
    return buf;
}

/* Writes into out (room for 2 * len + 64 bytes) one mutation of in, spliced with other, and
 * returns its length. */
static size_t mutate(uint64_t *seed, const uint8_t *in, size_t len, const uint8_t *other, size_t olen,
                     uint8_t *out)
{
    static const char interesting[] = "{}()<>;,=@.\"-+*/%0123456789\n \x00\xff";
    memcpy(out, in, len);
    size_t n = len;
    unsigned count = 1 + (unsigned)(next(seed) % 4);
    for (unsigned k = 0; k < count; k++) {
        size_t at = n ? (size_t)(next(seed) % n) : 0, span = 1 + (size_t)(next(seed) % 16);
        if (span > n - at) span = n - at;
        switch (next(seed) % 6) {
        case 0: /* flip one bit */
            if (n) out[at] ^= (uint8_t)(1u << (next(seed) % 8));
            break;
        case 1: /* replace a byte with one that matters to a parser */
            if (n) out[at] = (uint8_t)interesting[next(seed) % (sizeof interesting - 1)];
            break;
        case 2: /* cut a range */
            memmove(out + at, out + at + span, n - at - span);
            n -= span;
            break;
        case 3: /* repeat a range */
            if (n + span <= 2 * len + 64) {
                memmove(out + at + span, out + at, n - at);
                n += span;
            }
            break;
        case 4: /* splice in a range of the other input */
            if (olen && n + span <= 2 * len + 64) {
                size_t from = (size_t)(next(seed) % olen);
                if (span > olen - from) span = olen - from;
                memmove(out + at + span, out + at, n - at);
                memcpy(out + at, other + from, span);
                n += span;
            }
            break;
        default: /* truncate */
            n = at;
        }
    }
    return n;
}

/* Runs every file as it is, then `mutations` mutations of each. */
static int run_files(int count, char **paths, unsigned long mutations)
{
    uint8_t **data = (uint8_t **)calloc((size_t)count, sizeof *data);
    size_t *len = (size_t *)calloc((size_t)count, sizeof *len);
    int rc = 0;
    for (int i = 0; i < count; i++) {
        data[i] = read_file(paths[i], &len[i]);
        if (!data[i]) {
            rc = 1;
            continue;
        }
        LLVMFuzzerTestOneInput(data[i], len[i]);
    }
    uint64_t seed = 54321;
    unsigned long runs = 0;
    for (unsigned long m = 0; m < mutations && rc == 0; m++) {
        for (int i = 0; i < count; i++) {
            int j = (int)(next(&seed) % (uint64_t)count);
            uint8_t *out = (uint8_t *)malloc(2 * len[i] + 64);
            size_t n = mutate(&seed, data[i], len[i], data[j], len[j], out);
            /* A copy of exactly the mutation's length, so ASan sees any read past its end. */
            uint8_t *exact = (uint8_t *)malloc(n ? n : 1);
            memcpy(exact, out, n);
            LLVMFuzzerTestOneInput(exact, n);
            free(exact);
            free(out);
            runs++;
        }
    }
    for (int i = 0; i < count; i++) free(data[i]);
    free(data);
    free(len);
    if (rc == 0) printf("%d files and %lu mutations of them passed\n", count, runs);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long runs = 20000;
    if (argc > 1 && strncmp(argv[1], "-runs=", 6) == 0) { /* how many generated inputs */
        runs = strtoul(argv[1] + 6, NULL, 10);
        argc--, argv++;
    }
    if (argc > 1) {
        unsigned long mutations = 0;
        if (strncmp(argv[1], "-mutations=", 11) == 0) {
            mutations = strtoul(argv[1] + 11, NULL, 10);
            argc--, argv++;
        }
        return run_files(argc - 1, argv + 1, mutations);
    }
    uint64_t seed = 12345;
    static uint8_t buf[512];
    for (unsigned long i = 0; i < runs; i++) {
        size_t n = (size_t)(next(&seed) % sizeof buf);
        /* Small byte values half the time: they make short packed codes, so ids and fields
         * decode further before something fails. */
        uint64_t mask = (next(&seed) & 1) ? 0xffu : 0x0fu;
        for (size_t k = 0; k < n; k++) buf[k] = (uint8_t)(next(&seed) & mask);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("%lu generated inputs passed\n", runs);
    return 0;
}
