/* claims_probe.c — the in-process half of run_claims.sh: each probe is a schema with one more
 * declaration, checked by the compiler library in this process instead of by one netschemac run
 * per probe (thousands of them, most of that test's time, and far more under ASan).
 *
 *   claims_probe SCHEMA < PROBES
 *
 * Each line of PROBES is a declaration ("struct X { u8 a; }" or "const X = 1;"). It is appended to
 * SCHEMA's text, as `{ cat SCHEMA; echo LINE; }` would, and the copy, named probe.netschema, is
 * checked: it must fail with an error that some C name "would be generated twice". A probe whose
 * name is a C keyword is skipped (that is another error, and no generated name). Prints a FAIL
 * line per probe that is not refused so, then "claims_probe: N checked, M not claimed"; the exit
 * status is 1 when M > 0 and 2 when SCHEMA cannot be read. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netschemac/netschemac.h>

/* What the diagnostics of one probe said. */
typedef struct verdict {
    bool        collision; /* an error that a C name would be generated twice */
    bool        keyword;   /* the probe's name is a C keyword */
    char        first[512]; /* the first error's message, for a failure report */
} verdict;

static void note_message(verdict *v, const char *msg)
{
    if (strstr(msg, "would be generated twice")) v->collision = true;
    if (strstr(msg, "is a keyword and cannot be a name")) v->keyword = true;
}

static void sink(void *user, const nsc_diagnostic *d)
{
    verdict *v = (verdict *)user;
    if (d->severity == NSC_ERROR && !v->first[0]) snprintf(v->first, sizeof v->first, "%s", d->message);
    note_message(v, d->message);
    for (size_t i = 0; i < d->note_count; i++) note_message(v, d->notes[i].message);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) free(buf);
            buf = grown;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Checks schema text + line + "\n" in a fresh context. */
static verdict probe(const char *schema, size_t len, const char *line, unsigned *errors)
{
    verdict v = {false, false, ""};
    size_t n = strlen(line), total = len + n + 1;
    char *text = malloc(total);
    if (!text) {
        fputs("claims_probe: out of memory\n", stderr);
        exit(2);
    }
    memcpy(text, schema, len);
    memcpy(text + len, line, n);
    text[total - 1] = '\n';
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = sink;
    opt.sink_user = &v;
    opt.max_errors = 1000;
    nsc_context *ctx = nsc_create(&opt);
    nsc_load_buffer(ctx, "probe.netschema", text, total);
    *errors = nsc_check(ctx);
    nsc_destroy(ctx);
    free(text);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: claims_probe SCHEMA < PROBES\n", stderr);
        return 2;
    }
    size_t len;
    char *schema = read_file(argv[1], &len);
    if (!schema) {
        fprintf(stderr, "claims_probe: cannot read %s\n", argv[1]);
        return 2;
    }
    unsigned checked = 0, failures = 0;
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0]) continue;
        unsigned errors;
        const verdict v = probe(schema, len, line, &errors);
        if (v.keyword) continue;
        checked++;
        if (errors == 0 || !v.collision) {
            printf("FAIL: %s: '%s' is not refused as a collision with a generated name:\n    %s\n", argv[1], line,
                   errors ? v.first : "(no error)");
            failures++;
        }
    }
    free(schema);
    printf("claims_probe: %u checked, %u not claimed\n", checked, failures);
    return failures ? 1 : 0;
}
