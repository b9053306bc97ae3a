/* emit_c.c — placeholder until the C emitter lands: reports that C output is not available. */
#include <stdio.h>

#include "context.h"

int nsc_emit_c(nsc_context *ctx, const nsc_unit *u, const char *out_dir)
{
    (void)ctx;
    (void)out_dir;
    fprintf(stderr, "netschemac: %s: the C emitter is not available in this build; use --check or --emit json\n",
            nsc_unit_path(u));
    return -1;
}
