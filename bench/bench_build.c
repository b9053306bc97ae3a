/* bench_build — what the generated C costs a user's build: a schema of N components x 10 fields
 * (the field mix of bench_compile), run through `netschemac -o`, then
 *   (a) bytes of generated .ns.c and .ns.h per component;
 *   (b) CPU time of `cc -O2 -c` and `cc -O0 -c` on the generated .ns.c, per component and scaled
 *       to 200 components (our target: under 10 s at -O2); (a) and (b) again for the table mode
 *       (`netschemac --codec table`), and for the table mode with one component in ten marked
 *       @codec(inline), the hot ones a game keeps straight-line ("1/10 inline");
 *   (c) the default mode's wall time split over one source per core (`netschemac --split`) and
 *       compiled at once, as a parallel build would, against the single source alone;
 *   (d) `netschemac -o` CPU time on 2,000 components, in both codec modes, and when `protoc-c` is
 *       on the PATH, its time on the equivalent .proto in the same run, as a ratio (target: at
 *       most 0.5). protoc-c stays optional: without it the comparison is skipped;
 *   (e) a yardstick for (b): `cc -O2 -c` of bench/hand_codec.c, the hand-written codec of
 *       bench/bench.netschema that writes the generated code's bytes (write, read and quantize of
 *       its two components), against the generated bench.ns.c in both codec modes, interleaved:
 *       what code as fast as an expert's costs to build, per component.
 *
 *     bench_build [--table-only | --yardstick | --compiler] [COMPONENTS]      default 200
 * --table-only measures the table mode's (a) and (b) alone, --yardstick (e) alone, --compiler (d)
 * alone: quicker while working on them. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIELDS 10
#define COMPILER_COMPONENTS 2000

extern char **environ;

static const char *const field_types[FIELDS] = {
    "i32 a%d @range(0, 1000)", "u16 b%d", "f32 c%d @quantize(100) @range(-500, 500)", "vec3 d%d @quantize(1000)",
    "quat e%d @smallest_three(11)", "bool f%d", "Mode g%d", "string<16> h%d", "Pair i%d @composite",
    "u8 j%d @raw",
};

/* The same messages for protoc-c: one proto3 field per netschema field. */
static const char *const proto_types[FIELDS] = {
    "int32 a%d", "uint32 b%d", "float c%d", "Vec3 d%d", "Quat e%d", "bool f%d", "Mode g%d", "string h%d",
    "Pair i%d", "uint32 j%d",
};

/* One line of (a): KB (1,024 bytes) of .c and .h per component, and both together against the
 * target of 8 KB. */
static void print_size(const char *what, long c_bytes, long h_bytes, int n)
{
    const double c = (double)c_bytes / n / 1024.0, h = (double)h_bytes / n / 1024.0;
    printf("  %-30s %8.1f KB .c + %.1f KB .h = %.2f KB  (target: under 8 KB)\n", what, c, h, c + h);
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(text, 1, len, f);
    return fclose(f) == 0 && n == len ? 0 : -1;
}

/* Writes the schema (proto = 0) or the equivalent .proto (proto = 1) of n components; with
 * hot_every > 0, every hot_every-th component of the schema is marked @codec(inline) (the
 * hot ones of a table-mode build, idl/SPEC.md "@codec"). */
static int write_schema(const char *path, int n, int proto, int hot_every)
{
    size_t cap = (size_t)n * 600 + 4096, len = 0;
    char *s = malloc(cap);
    if (!s) return -1;
    if (!proto) {
        len += (size_t)snprintf(s + len, cap - len,
                                "package big;\nenum Mode { idle, walk, run }\nstruct Pair { i16 x; i16 y; }\n");
    } else {
        len += (size_t)snprintf(s + len, cap - len,
                                "syntax = \"proto3\";\npackage big;\nenum Mode { IDLE = 0; WALK = 1; RUN = 2; }\n"
                                "message Pair { sint32 x = 1; sint32 y = 2; }\n"
                                "message Vec3 { float x = 1; float y = 2; float z = 3; }\n"
                                "message Quat { float x = 1; float y = 2; float z = 3; float w = 4; }\n");
    }
    for (int c = 0; c < n; c++) {
        const char *hot = !proto && hot_every > 0 && c % hot_every == 0 ? " @codec(inline)" : "";
        if (proto) len += (size_t)snprintf(s + len, cap - len, "message C%d {\n", c);
        else len += (size_t)snprintf(s + len, cap - len, "/// Component %d.\ncomponent C%d%s {\n", c, c, hot);
        for (int f = 0; f < FIELDS; f++) {
            len += (size_t)snprintf(s + len, cap - len, "    ");
            len += (size_t)snprintf(s + len, cap - len, proto ? proto_types[f] : field_types[f], f);
            if (proto) len += (size_t)snprintf(s + len, cap - len, " = %d", f + 1);
            len += (size_t)snprintf(s + len, cap - len, ";\n");
        }
        len += (size_t)snprintf(s + len, cap - len, "}\n");
    }
    int rc = write_file(path, s, len);
    free(s);
    return rc;
}

/* User + system seconds of a finished child. */
static double cpu_seconds(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6 + (double)ru->ru_stime.tv_sec +
           (double)ru->ru_stime.tv_usec * 1e-6;
}

/* Runs argv (searched on the PATH) with its output discarded; returns the CPU seconds (user +
 * system) it used, which a machine busy with other work inflates less than wall time, or a
 * negative value when it cannot be run or exits non-zero. */
static double run(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int status = 1;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    wait4(pid, &status, 0, &ru);
    double t = cpu_seconds(&ru);
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Runs the n commands at once and waits for all: returns the wall time, or a negative value
 * when one cannot be run or exits non-zero; *cpu gets their CPU time together. */
static double run_parallel(char *const *const argvs[], int n, double *cpu)
{
    pid_t pid[64];
    int started = 0, ok = 1;
    *cpu = 0;
    double t0 = bench_now();
    for (; started < n && started < 64; started++)
        if (posix_spawnp(&pid[started], argvs[started][0], NULL, NULL, argvs[started], environ) != 0) break;
    ok = started == n;
    for (int i = 0; i < started; i++) {
        int status = 1;
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        wait4(pid[i], &status, 0, &ru);
        *cpu += cpu_seconds(&ru);
        ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    double wall = bench_now() - t0;
    return ok ? wall : -1;
}

/* Best of reps runs. */
static double best_run(char *const argv[], int reps)
{
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        double t = run(argv);
        if (t < 0) return t;
        if (t < best) best = t;
    }
    return best;
}

static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        if (snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name) < (int)sizeof buf && access(buf, X_OK) == 0)
            return 1;
        path = end ? end + 1 : NULL;
    }
    return 0;
}

/* (e): the hand codec of bench/bench.netschema and the generated code of the same schema, each
 * compiled at -O2 in interleaved rounds, the best of each. The hand codec has only what the
 * benchmark times (write, read, quantize); the generated file has every function of the API. */
static int yardstick(const char *dir, const char *inc)
{
    /* The default mode into yard/, the table mode into yard_table/: generated once each. */
    char gen_dir[2][560], gen_inc[2][1200], gen_c[2][1200], bench_inc[600], hand_c[600], schema[600], obj[600];
    for (int k = 0; k < 2; k++) {
        snprintf(gen_dir[k], sizeof gen_dir[k], "%s/yard%s", dir, k ? "_table" : "");
        snprintf(gen_inc[k], sizeof gen_inc[k], "-I%s", gen_dir[k]);
        snprintf(gen_c[k], sizeof gen_c[k], "%s/bench.ns.c", gen_dir[k]);
        if (mkdir(gen_dir[k], 0700) != 0) return 1;
    }
    snprintf(bench_inc, sizeof bench_inc, "-I%s", NS_BENCH_DIR);
    snprintf(hand_c, sizeof hand_c, "%s/hand_codec.c", NS_BENCH_DIR);
    snprintf(schema, sizeof schema, "%s/bench.netschema", NS_BENCH_DIR);
    snprintf(obj, sizeof obj, "%s/yard.o", dir);
    char *gen[] = {(char *)NS_NETSCHEMAC, (char *)"-o", gen_dir[0], schema, NULL};
    char *gen_table[] = {(char *)NS_NETSCHEMAC, (char *)"--codec", (char *)"table", (char *)"-o", gen_dir[1], schema, NULL};
    if (run(gen) < 0 || run(gen_table) < 0) return 1;
    /* The hand codec includes the default mode's bench.ns.h. */
    char *cc_hand[] = {(char *)NS_CC, (char *)"-O2", (char *)"-c", (char *)inc, gen_inc[0], bench_inc, hand_c,
                       (char *)"-o", obj, NULL};
    char *cc_gen[] = {(char *)NS_CC, (char *)"-O2", (char *)"-c", (char *)inc, gen_inc[0], gen_c[0], (char *)"-o", obj, NULL};
    char *cc_table[] = {(char *)NS_CC, (char *)"-O2", (char *)"-c", (char *)inc, gen_inc[1], gen_c[1], (char *)"-o", obj, NULL};
    char *const *cmds[3] = {cc_hand, cc_gen, cc_table};
    double best[3] = {1e30, 1e30, 1e30};
    for (int round = 0; round < 5; round++) {
        for (int k = 0; k < 3; k++) {
            double t = run(cmds[k]);
            if (t < 0) {
                fprintf(stderr, "bench_build: %s -O2 -c failed on %s\n", NS_CC, k == 0 ? hand_c : gen_c[k - 1]);
                return 1;
            }
            if (t < best[k]) best[k] = t;
        }
    }
    printf("  yardstick, bench/bench.netschema (2 components), cc -O2 -c, best of 5 interleaved:\n");
    printf("    hand codec (write, read, quantize)  %6.3f s CPU  %6.1f ms per component\n", best[0],
           best[0] / 2 * 1e3);
    printf("    generated bench.ns.c                %6.3f s CPU  %6.1f ms per component  (%.2f of the hand codec)\n",
           best[1], best[1] / 2 * 1e3, best[1] / best[0]);
    printf("    generated, table mode               %6.3f s CPU  %6.1f ms per component  (%.2f of the hand codec)\n",
           best[2], best[2] / 2 * 1e3, best[2] / best[0]);
    return 0;
}

/* (d): the compiler itself, on the 2,000-component schema, in both codec modes, and protoc-c on
 * the equivalent .proto when it is on the PATH: rounds interleaved, the best of each. Returns 0,
 * or -1 when netschemac fails. */
static int compiler_speed(const char *dir, const char *schema, const char *out_c, const char *out_h)
{
    if (write_schema(schema, COMPILER_COMPONENTS, 0, 0) != 0) return -1;
    char *gen[] = {(char *)NS_NETSCHEMAC, (char *)"-o", (char *)dir, (char *)schema, NULL};
    char *gen_table[] = {(char *)NS_NETSCHEMAC, (char *)"--codec", (char *)"table", (char *)"-o", (char *)dir,
                         (char *)schema, NULL};
    char proto[512], out_arg[600], path_arg[600];
    snprintf(proto, sizeof proto, "%s/big.proto", dir);
    snprintf(out_arg, sizeof out_arg, "--c_out=%s", dir);
    snprintf(path_arg, sizeof path_arg, "--proto_path=%s", dir);
    char *pc[] = {(char *)"protoc-c", path_arg, out_arg, proto, NULL};
    int with_protoc = on_path("protoc-c") && write_schema(proto, COMPILER_COMPONENTS, 1, 0) == 0;
    char *const *cmds[3] = {gen, gen_table, pc};
    double best[3] = {1e30, 1e30, 1e30};
    long bytes[2] = {0, 0};
    for (int round = 0; round < 5; round++) {
        for (int k = 0; k < (with_protoc ? 3 : 2); k++) {
            double t = run(cmds[k]);
            if (t < 0 && k < 2) return -1;
            if (t < 0) with_protoc = 0; /* protoc-c refused the .proto: no comparison */
            if (t >= 0 && t < best[k]) best[k] = t;
            if (k < 2) bytes[k] = file_size(out_c) + file_size(out_h);
        }
    }
    for (int k = 0; k < 2; k++) {
        printf("  netschemac -o %-9s %d comp. %6.3f s CPU  %5.1f MB of C", k ? "(table)" : "", COMPILER_COMPONENTS,
               best[k], (double)bytes[k] / 1e6);
        if (with_protoc) printf("  ratio to protoc-c %.2f (target: <= 0.5)", best[k] / best[2]);
        printf("\n");
    }
    if (with_protoc) printf("  protoc-c, same messages         %6.3f s CPU  (best of 5, interleaved)\n", best[2]);
    else printf("  protoc-c not on the PATH (or it failed): comparison skipped\n");
    remove(proto);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each row as it is measured: a run takes minutes */
    int table_only = argc > 1 && !strcmp(argv[1], "--table-only");
    int yard_only = argc > 1 && !strcmp(argv[1], "--yardstick");
    int compiler_only = argc > 1 && !strcmp(argv[1], "--compiler");
    if (table_only || yard_only || compiler_only) argc--, argv++;
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 1) {
        fprintf(stderr, "usage: bench_build [--table-only | --yardstick | --compiler] [COMPONENTS]\n");
        return 2;
    }
    char dir[] = "/tmp/bench_build_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char schema[512], out_c[512], out_h[512], obj[512], inc[600];
    snprintf(schema, sizeof schema, "%s/big.netschema", dir);
    snprintf(out_c, sizeof out_c, "%s/big.ns.c", dir);
    snprintf(out_h, sizeof out_h, "%s/big.ns.h", dir);
    snprintf(obj, sizeof obj, "%s/big.o", dir);
    snprintf(inc, sizeof inc, "-I%s", NS_RUNTIME_INCLUDE);
    int failed = 0;
    if (yard_only || compiler_only) {
        failed = yard_only ? yardstick(dir, inc) != 0 : compiler_speed(dir, schema, out_c, out_h) != 0;
        char *rm[] = {(char *)"rm", (char *)"-rf", dir, NULL};
        run(rm);
        return failed;
    }

    if (write_schema(schema, n, 0, 0) != 0) return 1;
    char *gen[] = {(char *)NS_NETSCHEMAC, (char *)"-o", dir, schema, NULL};
    char *gen_table[] = {(char *)NS_NETSCHEMAC, (char *)"--codec", (char *)"table", (char *)"-o", dir, schema, NULL};
    if (run(gen) < 0) {
        fprintf(stderr, "bench_build: netschemac -o failed on the generated schema\n");
        return 1;
    }
    long c_bytes = file_size(out_c), h_bytes = file_size(out_h);
    printf("bench_build: %d components x %d fields, compiled with %s\n", n, FIELDS, NS_CC);
    print_size("generated C per component", c_bytes, h_bytes, n);
    /* Each level twice: as built by default (codec primitives forced inline at -O2; at -O0
     * they are called, netschema/platform.h), then with
     * NS_CODEC_AUTO_INLINE, which leaves inlining to the compiler (netschema/bits.h). The first
     * define is a placeholder that no header reads, so both command lines have the same shape.
     * Then the table mode (--codec table, docs/generated-api.md "Table mode"): the same schema
     * regenerated, its size and both levels; then the table mode with one component in ten
     * marked @codec(inline), as a game would keep its few hot components straight-line. */
    const char *levels[2] = {"-O2", "-O0"};
    const char *modes[4] = {"-DNS_CODEC_DEFAULT_INLINE", "-DNS_CODEC_AUTO_INLINE", "-DNS_CODEC_DEFAULT_INLINE",
                            "-DNS_CODEC_DEFAULT_INLINE"};
    const char *names[4] = {"", "(auto inline)", "(table mode)", "(1/10 inline)"};
    for (int m = table_only ? 2 : 0; m < 4; m++) {
        if (m >= 2) {
            if (write_schema(schema, n, 0, m == 3 ? 10 : 0) != 0 || run(gen_table) < 0) {
                fprintf(stderr, "bench_build: netschemac --codec table -o failed on the generated schema\n");
                return 1;
            }
            c_bytes = file_size(out_c), h_bytes = file_size(out_h);
            print_size(m == 2 ? "table mode: C per component" : "1/10 inline: C per component", c_bytes, h_bytes, n);
        }
        for (int i = 0; i < 2; i++) {
            char *cc[] = {(char *)NS_CC, (char *)levels[i], (char *)modes[m], (char *)"-c", inc, out_c, (char *)"-o",
                          obj, NULL};
            double t = best_run(cc, 1);
            if (t < 0) {
                fprintf(stderr, "bench_build: %s %s %s -c failed on the generated code\n", NS_CC, levels[i], modes[m]);
                failed = 1;
                continue;
            }
            printf("  cc %s -c big.ns.c %-13s %7.2f s CPU  %6.1f ms per component  %6.1f s per 200%s\n", levels[i],
                   names[m], t, t / n * 1e3, t / n * 200, i == 0 && (m == 0 || m == 2) ? "  (target: under 10 s)" : "");
        }
    }

    if (table_only) {
        char *rm[] = {(char *)"rm", (char *)"-rf", dir, NULL};
        run(rm);
        return failed;
    }
    if (write_schema(schema, n, 0, 0) != 0) return 1; /* the plain schema again, for the split build */

    /* The default mode split over one source per core (netschemac --split), the sources compiled
     * at once as a parallel build would, against the single source compiled alone: wall time. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int parts = cores < 2 ? 2 : cores > 16 ? 16 : (int)cores;
    char split_arg[16];
    snprintf(split_arg, sizeof split_arg, "%d", parts);
    char *gen_split[] = {(char *)NS_NETSCHEMAC, (char *)"--split", split_arg, (char *)"-o", dir, schema, NULL};
    char srcs[16][560], objs[16][560];
    char *cc_split[16][9];
    char *const *cmds_split[16];
    for (int k = 0; k < parts; k++) {
        if (k == 0) snprintf(srcs[k], sizeof srcs[k], "%s", out_c);
        else snprintf(srcs[k], sizeof srcs[k], "%s/big.ns.%d.c", dir, k + 1);
        snprintf(objs[k], sizeof objs[k], "%s/big.%d.o", dir, k + 1);
        char *argv_k[9] = {(char *)NS_CC, (char *)"-O2", (char *)"-c", inc, srcs[k], (char *)"-o", objs[k], NULL, NULL};
        memcpy(cc_split[k], argv_k, sizeof argv_k);
        cmds_split[k] = cc_split[k];
    }
    char *cc_one[] = {(char *)NS_CC, (char *)"-O2", (char *)"-c", inc, out_c, (char *)"-o", obj, NULL};
    double cpu_one = 0, cpu_split = 0;
    double wall_one = run(gen) < 0 ? -1 : run_parallel((char *const *const[]){cc_one}, 1, &cpu_one);
    double wall_split = run(gen_split) < 0 ? -1 : run_parallel(cmds_split, parts, &cpu_split);
    if (wall_one < 0 || wall_split < 0) {
        fprintf(stderr, "bench_build: the split build failed\n");
        failed = 1;
    } else {
        printf("  cc -O2, one big.ns.c            %7.2f s wall  %6.2f s CPU\n", wall_one, cpu_one);
        printf("  cc -O2, --split %-2d at once       %7.2f s wall  %6.2f s CPU  (%.2f of one source's wall time)\n",
               parts, wall_split, cpu_split, wall_split / wall_one);
    }

    if (compiler_speed(dir, schema, out_c, out_h) != 0) return 1;

    if (yardstick(dir, inc) != 0) failed = 1;

    /* Leave nothing behind. */
    char *rm[] = {(char *)"rm", (char *)"-rf", dir, NULL};
    run(rm);
    return failed;
}
