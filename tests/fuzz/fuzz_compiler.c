/* fuzz_compiler.c — libFuzzer target: any bytes through the compiler library: parse, check,
 * layout, and for every schema it accepts the JSON descriptor, the hashes and the C emitter
 * (written into a fresh temporary directory, then removed; in either codec mode, split over one
 * to three sources, as the input's length picks). Built by `make fuzz` with clang
 * -fsanitize=fuzzer,address,undefined; replayed in every test run by fuzz_compiler_replay
 * (tests/fuzz/fuzz_replay.c) over the example and edge-case schemas and mutations of them, so the
 * sanitizers watch the emitter too. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netschemac/netschemac.h"

static void quiet(void *user, const nsc_diagnostic *d)
{
    (void)user;
    (void)d;
}

/* Runs the C emitter into a temporary directory and removes what it wrote. The emitter must
 * succeed on every schema the checker accepted. */
static void emit_c(nsc_context *ctx, const nsc_unit *u)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fuzz_compilerXXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return; /* no temporary directory: nothing to test the emitter with */
    if (nsc_emit_c(ctx, u, dir) != 0) {
        fprintf(stderr, "fuzz_compiler: the C emitter failed on a schema the checker accepted\n");
        abort();
    }
    static const char *const suffixes[] = {".ns.h", ".ns.c", ".ns.2.c", ".ns.3.c"};
    for (size_t i = 0; i < 4; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s%s", dir, nsc_unit_stem(u), suffixes[i]);
        remove(path);
    }
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = quiet;
    /* The input's length picks the emitter's mode: both codecs, one to three sources (--split). */
    opt.codec = size / 3 % 2 ? NSC_CODEC_TABLE : NSC_CODEC_INLINE;
    opt.split = (unsigned)(size % 3) + 1;
    nsc_context *ctx = nsc_create(&opt);
    nsc_unit *u = nsc_load_buffer(ctx, "fuzz.netschema", (const char *)data, size);
    if (u && nsc_check(ctx) == 0) {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            nsc_emit_json(ctx, u, f);
            nsc_emit_hash(ctx, u, f);
            fclose(f);
        }
        emit_c(ctx, u);
    }
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
    return 0;
}
