/* fuzz_compiler.c — libFuzzer target: any bytes through the compiler library (parse, check,
 * layout, JSON). Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined. */
#include <stdint.h>
#include <stdio.h>

#include "netschemac/netschemac.h"

static void quiet(void *user, const nsc_diagnostic *d)
{
    (void)user;
    (void)d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = quiet;
    nsc_context *ctx = nsc_create(&opt);
    nsc_unit *u = nsc_load_buffer(ctx, "fuzz.netschema", (const char *)data, size);
    if (nsc_check(ctx) == 0) {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            nsc_emit_json(ctx, u, f);
            fclose(f);
        }
    }
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
    return 0;
}
