/* bench_compile — compiler speed on a large generated schema: 2,000 components of 10 fields each.
 *   (a) `netschemac --check big.netschema` as a process, wall time (what a build pays);
 *   (b) the library's load + check in this process, as a ratio to a baseline that only reads
 *       every byte of the same text once (an FNV-1a pass), measured in the same run. */
#define _DEFAULT_SOURCE /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"

#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netschemac/netschemac.h"

#define COMPONENTS 2000
#define FIELDS 10

extern char **environ;

static const char *const field_types[FIELDS] = {
    "i32 a%d @range(0, 1000)", "u16 b%d", "f32 c%d @quantize(100) @range(-500, 500)", "vec3 d%d @quantize(1000)",
    "quat e%d @smallest_three(11)", "bool f%d", "Mode g%d", "string<16> h%d", "Pair i%d @composite",
    "u8 j%d @raw",
};

static char *generate(size_t *len)
{
    size_t cap = 4 << 20, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, "package big;\nenum Mode { idle, walk, run }\nstruct Pair { i16 x; i16 y; }\n");
    for (int c = 0; c < COMPONENTS; c++) {
        n += (size_t)snprintf(s + n, cap - n, "/// Component %d.\ncomponent C%d {\n", c, c);
        for (int f = 0; f < FIELDS; f++) {
            n += (size_t)snprintf(s + n, cap - n, "    ");
            n += (size_t)snprintf(s + n, cap - n, field_types[f], f);
            n += (size_t)snprintf(s + n, cap - n, ";\n");
        }
        n += (size_t)snprintf(s + n, cap - n, "}\n");
    }
    *len = n;
    return s;
}

typedef struct job {
    const char *text;
    size_t      len;
    const char *path;
    unsigned    errors;
} job;

static void library_check(void *p)
{
    job *j = p;
    nsc_options opt;
    nsc_options_init(&opt);
    nsc_context *ctx = nsc_create(&opt);
    nsc_load_buffer(ctx, "big.netschema", j->text, j->len);
    j->errors = nsc_check(ctx);
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
}

static void read_every_byte(void *p)
{
    job *j = p;
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < j->len; i++) h = (h ^ (unsigned char)j->text[i]) * 0x100000001b3u;
    bench_sink += h;
}

static void run_cli(void *p)
{
    job *j = p;
    char *argv[] = {(char *)NS_NETSCHEMAC, (char *)"--check", (char *)j->path, NULL};
    pid_t pid;
    int status = 1;
    if (posix_spawn(&pid, NS_NETSCHEMAC, NULL, NULL, argv, environ) == 0) waitpid(pid, &status, 0);
    j->errors = (unsigned)status;
}

int main(void)
{
    job j;
    j.text = generate(&j.len);
    char path[] = "/tmp/bench_compile_XXXXXX.netschema";
    int fd = mkstemps(path, 10);
    if (fd < 0 || write(fd, j.text, j.len) != (ssize_t)j.len) return 1;
    close(fd);
    j.path = path;

    printf("bench_compile: %d components x %d fields, %.1f KB of schema\n", COMPONENTS, FIELDS, j.len / 1024.0);
    double cli = bench_best(run_cli, &j, 5);
    if (j.errors) {
        fprintf(stderr, "netschemac --check failed on the generated schema\n");
        return 1;
    }
    double lib = bench_best(library_check, &j, 5);
    if (j.errors) return 1;
    double base = bench_best(read_every_byte, &j, 20);
    printf("  netschemac --check (process)   %8.1f ms wall\n", cli * 1e3);
    printf("  library load + check           %8.1f ms   %.1f MB/s\n", lib * 1e3, j.len / lib / 1e6);
    printf("  baseline: read every byte once %8.3f ms   ratio check/baseline %.0fx\n", base * 1e3, lib / base);
    unlink(path);
    free((char *)j.text);
    return 0;
}
