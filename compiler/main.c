/* main.c — netschemac, the command-line front of the compiler library (netschemac.h).
 *
 *   netschemac [options] FILE.netschema...
 *   netschemac --format [--write | --check] FILE.netschema...
 *   netschemac --compat OLD.netschema NEW.netschema
 *
 * Exit status: 0 ok, 1 schema errors (--format --check: unformatted files; --compat: a type
 * breaks), 2 usage or I/O error (--compat: also schema errors). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netschemac/netschemac.h"

#define EXIT_SCHEMA 1
#define EXIT_USAGE 2

typedef enum { EMIT_C, EMIT_JSON } emit_kind;

typedef struct cli {
    const char **imports;
    size_t       nimports;
    const char **files;
    size_t       nfiles;
    const char  *out_dir;
    const char  *depfile;
    bool         check_only, hash, with_imports;
    bool         format, write, compat;
    emit_kind    emit;
    bool         codec_table; /* --codec table */
    unsigned     split;       /* --split N */
    nsc_diag_format diag_format;
    unsigned     max_errors;
} cli;

static void usage(FILE *f)
{
    fputs("usage: netschemac [options] FILE.netschema...\n"
          "\n"
          "Compiles replication schemas into C (FILE.ns.h and FILE.ns.c) for libnetschema.\n"
          "\n"
          "options:\n"
          "  -I DIR                 add an import search directory (repeatable; searched in order\n"
          "                         after the importing file's own directory)\n"
          "  -o DIR                 output directory (default: .; '-' writes JSON to stdout)\n"
          "  --depfile FILE         write a make-style dependency file listing every schema read\n"
          "  --with-imports         also compile every schema the files import, as if named\n"
          "                         on the command line (same -o directory)\n"
          "  --check                parse and check only; write nothing\n"
          "  --emit c|json          emit generated C (default) or a JSON descriptor (FILE.json)\n"
          "  --codec inline|table   how the generated C codes records: straight-line code (inline,\n"
          "                         the default: fastest) or calls into descriptor-driven runtime\n"
          "                         functions (table: smaller, builds faster; same bytes on the wire)\n"
          "  --split N              spread the records over N sources that build in parallel:\n"
          "                         FILE.ns.c, then FILE.ns.2.c up to FILE.ns.N.c (N at most 64)\n"
          "  --hash                 print the schema hash and one hash per type\n"
          "  --format               print each file in the canonical style (idl/SPEC.md section 14);\n"
          "                         with --write rewrite the files, with --check list those that\n"
          "                         are not formatted (exit status 1 if any)\n"
          "  --compat OLD NEW       report, per type, what changed between two versions of a\n"
          "                         schema and whether it breaks the wire (exit status 1 if so)\n"
          "  --diagnostics text|json\n"
          "                         how errors are printed on stderr (json: one object per line)\n"
          "  --max-errors N         stop showing errors after N (default 50)\n"
          "  --version              print the version and exit\n"
          "  --help                 print this help and exit\n"
          "\n"
          "exit status: 0 ok, 1 schema errors, 2 usage or I/O error\n",
          f);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fputs("netschemac: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'netschemac --help'.\n", stderr);
    return EXIT_USAGE;
}

/* The value of an option given as "--opt VALUE", "--opt=VALUE" or (for -I/-o) "-IVALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n] != '\0') return name[1] != '-' ? a + n : NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

static int parse_args(int argc, char **argv, cli *c)
{
    c->imports = calloc((size_t)argc, sizeof *c->imports);
    c->files = calloc((size_t)argc, sizeof *c->files);
    if (!c->imports || !c->files) return EXIT_USAGE;
    c->out_dir = ".";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("netschemac %s\n", NSC_VERSION);
            exit(0);
        } else if (strcmp(a, "--check") == 0) {
            c->check_only = true;
        } else if (strcmp(a, "--hash") == 0) {
            c->hash = true;
        } else if (strcmp(a, "--format") == 0) {
            c->format = true;
        } else if (strcmp(a, "--write") == 0) {
            c->write = true;
        } else if (strcmp(a, "--compat") == 0) {
            c->compat = true;
        } else if (strcmp(a, "--with-imports") == 0) {
            c->with_imports = true;
        } else if ((v = option_value(argc, argv, &i, "-I"))) {
            if (!*v) return bad_usage("option -I needs a directory", "");
            c->imports[c->nimports++] = v;
        } else if ((v = option_value(argc, argv, &i, "-o"))) {
            if (!*v) return bad_usage("option -o needs a directory", "");
            c->out_dir = v;
        } else if ((v = option_value(argc, argv, &i, "--depfile"))) {
            if (!*v) return bad_usage("option --depfile needs a file name", "");
            c->depfile = v;
        } else if ((v = option_value(argc, argv, &i, "--emit"))) {
            if (strcmp(v, "c") == 0) c->emit = EMIT_C;
            else if (strcmp(v, "json") == 0) c->emit = EMIT_JSON;
            else return bad_usage("--emit takes 'c' or 'json', not '%s'", v);
        } else if ((v = option_value(argc, argv, &i, "--codec"))) {
            if (strcmp(v, "inline") == 0) c->codec_table = false;
            else if (strcmp(v, "table") == 0) c->codec_table = true;
            else return bad_usage("--codec takes 'inline' or 'table', not '%s'", v);
        } else if ((v = option_value(argc, argv, &i, "--diagnostics"))) {
            if (strcmp(v, "text") == 0) c->diag_format = NSC_DIAG_TEXT;
            else if (strcmp(v, "json") == 0) c->diag_format = NSC_DIAG_JSON;
            else return bad_usage("--diagnostics takes 'text' or 'json', not '%s'", v);
        } else if ((v = option_value(argc, argv, &i, "--split"))) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || n == 0 || n > NSC_MAX_SPLIT) return bad_usage("--split takes a number from 1 to 64, not '%s'", v);
            c->split = (unsigned)n;
        } else if ((v = option_value(argc, argv, &i, "--max-errors"))) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || n == 0 || n > 100000) return bad_usage("--max-errors takes a number from 1 to 100000, not '%s'", v);
            c->max_errors = (unsigned)n;
        } else if (a[0] == '-' && a[1] != '\0') {
            return bad_usage("unknown option '%s'", a);
        } else {
            c->files[c->nfiles++] = a;
        }
    }
    if (c->nfiles == 0) return bad_usage("no input schema%s", "");
    if (c->format && c->compat) return bad_usage("--format and --compat do not go together%s", "");
    if (c->write && !c->format) return bad_usage("--write goes with --format%s", "");
    if (c->write && c->check_only) return bad_usage("--format takes --write or --check, not both%s", "");
    if (c->compat && c->nfiles != 2) return bad_usage("--compat takes two schemas, OLD and NEW%s", "");
    if (c->format || c->compat) return 0;
    if (strcmp(c->out_dir, "-") == 0 && c->emit != EMIT_JSON && !c->check_only && !c->hash)
        return bad_usage("-o - (standard output) works with --emit json only%s", "");
    return 0;
}

/* Appends a path to a make rule, escaping what make would misread. */
static void dep_path(FILE *f, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#') fputc('\\', f);
        if (*p == '$') fputc('$', f);
        fputc(*p, f);
    }
}

/* 0 if dir is (or could be made) a directory; else prints why and returns -1. */
static int ensure_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        fprintf(stderr, "netschemac: cannot use output directory '%s': it is not a directory\n", dir);
        return -1;
    }
    if (mkdir(dir, 0777) == 0) return 0;
    fprintf(stderr, "netschemac: cannot create output directory '%s': %s\n", dir, strerror(errno));
    return -1;
}

/* ensure_dir for the directory part of path ("gen" of "gen/game.ns.d"), as -o makes its own. */
static int ensure_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path) return 0;
    size_t n = (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (!dir) return -1;
    memcpy(dir, path, n);
    dir[n] = '\0';
    int rc = ensure_dir(dir);
    free(dir);
    return rc;
}

static int write_depfile(const cli *c, nsc_context *ctx, nsc_unit *const *units, size_t nunits)
{
    if (ensure_parent_dir(c->depfile) != 0) return EXIT_USAGE;
    FILE *f = fopen(c->depfile, "w");
    if (!f) {
        fprintf(stderr, "netschemac: cannot write '%s': %s\n", c->depfile, strerror(errno));
        return EXIT_USAGE;
    }
    /* Targets: what this run produces (with --check, the depfile itself stands in). */
    bool first = true;
    for (size_t i = 0; i < nunits; i++) {
        if (!units[i]) continue;
        const char *stem = nsc_unit_stem(units[i]);
        /* .ns.h, .ns.c, then .ns.2.c ... with --split */
        size_t n = c->emit == EMIT_JSON ? 1 : 1 + (c->split > 1 ? c->split : 1);
        for (size_t k = 0; k < n && !c->check_only; k++) {
            char part[32];
            snprintf(part, sizeof part, ".ns.%zu.c", k);
            const char *ext = c->emit == EMIT_JSON ? ".json" : k == 0 ? ".ns.h" : k == 1 ? ".ns.c" : part;
            if (!first) fputc(' ', f);
            first = false;
            dep_path(f, c->out_dir);
            fputc('/', f);
            dep_path(f, stem);
            dep_path(f, ext);
        }
    }
    if (c->check_only) dep_path(f, c->depfile);
    fputs(":", f);
    for (size_t i = 0; i < nsc_file_count(ctx); i++) {
        fputs(" \\\n  ", f);
        dep_path(f, nsc_file_path(ctx, i));
    }
    fputc('\n', f);
    /* A phony rule per imported schema, so deleting one does not break the build (gcc -MP). */
    for (size_t i = 0; i < nsc_file_count(ctx); i++) {
        fputc('\n', f);
        dep_path(f, nsc_file_path(ctx, i));
        fputs(":\n", f);
    }
    return fclose(f) == 0 ? 0 : EXIT_USAGE;
}

static int emit(const cli *c, nsc_context *ctx, nsc_unit *u)
{
    if (c->emit == EMIT_JSON && strcmp(c->out_dir, "-") == 0) return nsc_emit_json(ctx, u, stdout) ? EXIT_USAGE : 0;
    if (ensure_dir(c->out_dir) != 0) return EXIT_USAGE;
    if (c->emit == EMIT_C) return nsc_emit_c(ctx, u, c->out_dir) ? EXIT_USAGE : 0;
    size_t n = strlen(c->out_dir) + strlen(nsc_unit_stem(u)) + 8;
    char *path = malloc(n);
    if (!path) return EXIT_USAGE;
    snprintf(path, n, "%s/%s.json", c->out_dir, nsc_unit_stem(u));
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f || nsc_emit_json(ctx, u, f) != 0) {
        fprintf(stderr, "netschemac: cannot write '%s': %s\n", path, strerror(errno));
        rc = EXIT_USAGE;
    }
    if (f && fclose(f) != 0) rc = EXIT_USAGE;
    free(path);
    return rc;
}

/* A schema that a command-line file imports but the command line does not name. The importer's
 * generated code #includes its header, so the user's build needs its generated files too. */
typedef struct import_use {
    nsc_unit   *unit;
    const char *importer;  /* the command-line file that imports it, directly or through others */
} import_use;

static bool is_listed(const nsc_unit *u, nsc_unit *const *units, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (units[i] == u) return true;
    return false;
}

/* Run `netschemac -o out game.netschema` by hand and the build later fails with "common.ns.h: No
 * such file or directory", far from the cause: say here which generated files are missing. Not
 * with --depfile: build systems (netschema_generate, the README's Makefile rule) run netschemac
 * once per schema and generate the imports by their own rules, maybe later in the same build.
 * Not when the import's header is already in the output directory. Text diagnostics only, so
 * that --diagnostics json keeps stderr one JSON object per line. */
static void note_imports(const cli *c, const import_use *imps, size_t n)
{
    if (c->with_imports || c->depfile || c->check_only || c->hash || c->emit != EMIT_C ||
        c->diag_format != NSC_DIAG_TEXT)
        return;
    for (size_t i = 0; i < n; i++) {
        const char *stem = nsc_unit_stem(imps[i].unit);
        size_t len = strlen(c->out_dir) + strlen(stem) + 8;
        char *header = malloc(len);
        if (!header) return;
        snprintf(header, len, "%s/%s.ns.h", c->out_dir, stem);
        if (access(header, F_OK) != 0)
            fprintf(stderr, "netschemac: note: %s imports %s; generate it too (%s.ns.h, %s.ns.c), or pass --with-imports\n",
                    imps[i].importer, nsc_unit_path(imps[i].unit), stem, stem);
        free(header);
    }
}

/* The whole file, NUL-terminated, or NULL (errno set). */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *bigger = realloc(buf, cap *= 2);
        if (!bigger) free(buf);
        buf = bigger;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Replaces path's contents through a temporary file renamed into place, with path's mode. */
static int write_all(const char *path, const char *text, size_t len)
{
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    if (!tmp) return EXIT_USAGE;
    snprintf(tmp, n, "%s.fmttmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    struct stat st;
    if (ok && stat(path, &st) == 0 && chmod(tmp, st.st_mode & 07777) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        fprintf(stderr, "netschemac: cannot write '%s': %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok ? 0 : EXIT_USAGE;
}

/* --format on one file, in a context of its own so that one file's errors leave the others
 * formatted. Prints, rewrites or (--check) lists the file. */
static int format_one(const cli *c, const nsc_options *opt, const char *path)
{
    nsc_context *ctx = nsc_create(opt);
    if (!ctx) return EXIT_USAGE;
    nsc_unit *u = nsc_load_file(ctx, path);
    int rc = !u ? EXIT_USAGE : nsc_check(ctx) ? EXIT_SCHEMA : 0;
    size_t len = 0, old_len = 0;
    char *text = rc ? NULL : nsc_format(ctx, u, &len);
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
    if (rc) return rc;
    if (!text) return EXIT_SCHEMA;
    char *old = c->write || c->check_only ? read_all(path, &old_len) : NULL;
    if ((c->write || c->check_only) && !old) {
        fprintf(stderr, "netschemac: cannot read '%s': %s\n", path, strerror(errno));
        rc = EXIT_USAGE;
    } else if (!c->write && !c->check_only) {
        fwrite(text, 1, len, stdout);
    } else if (old_len != len || memcmp(old, text, len) != 0) {
        if (c->check_only) {
            printf("%s\n", path);
            rc = EXIT_SCHEMA;
        } else {
            rc = write_all(path, text, len);
        }
    }
    free(old);
    free(text);
    return rc;
}

static int run_format(const cli *c, const nsc_options *opt)
{
    int rc = 0;
    for (size_t i = 0; i < c->nfiles; i++) {
        int r = format_one(c, opt, c->files[i]);
        if (r > rc) rc = r;
    }
    return rc;
}

/* --compat OLD NEW: each version in its own context (both may well declare the same package).
 * Schema errors in either are exit status 2: 1 means "a type breaks". */
static int run_compat(const cli *c, const nsc_options *opt)
{
    nsc_context *ctx[2] = {nsc_create(opt), nsc_create(opt)};
    nsc_unit *u[2] = {NULL, NULL};
    int rc = ctx[0] && ctx[1] ? 0 : EXIT_USAGE;
    for (int i = 0; i < 2 && !rc; i++) {
        u[i] = nsc_load_file(ctx[i], c->files[i]);
        if (!u[i] || nsc_check(ctx[i])) rc = EXIT_USAGE;
    }
    if (!rc) {
        int verdict = nsc_compat(ctx[0], u[0], ctx[1], u[1], c->diag_format, stdout);
        rc = verdict < 0 ? EXIT_USAGE : verdict ? EXIT_SCHEMA : 0;
    }
    for (int i = 0; i < 2; i++) {
        if (ctx[i]) nsc_finish_diagnostics(ctx[i]);
        nsc_destroy(ctx[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    int rc = parse_args(argc, argv, &c);
    if (rc) {
        free(c.imports);
        free(c.files);
        return rc;
    }

    nsc_options opt;
    nsc_options_init(&opt);
    opt.import_dirs = c.imports;
    opt.import_dir_count = c.nimports;
    opt.diag_format = c.diag_format;
    opt.codec = c.codec_table ? NSC_CODEC_TABLE : NSC_CODEC_INLINE;
    opt.split = c.split;
    if (c.max_errors) opt.max_errors = c.max_errors;
    /* Colour only for a terminal that can show it: not with NO_COLOR, nor TERM=dumb (which Emacs's
     * compilation buffers set, though they run us on a pseudo-terminal). */
    const char *term = getenv("TERM");
    opt.color = c.diag_format == NSC_DIAG_TEXT && isatty(STDERR_FILENO) && !getenv("NO_COLOR") &&
                !(term && strcmp(term, "dumb") == 0);
    if (c.format || c.compat) {
        rc = c.format ? run_format(&c, &opt) : run_compat(&c, &opt);
        free(c.imports);
        free(c.files);
        return rc;
    }
    nsc_context *ctx = nsc_create(&opt);
    if (!ctx) return EXIT_USAGE;

    /* units: the command-line files, then (with --with-imports) the imports they do not name.
     * first_file[i]: the files read before files[i]; files[i] read those up to first_file[i + 1]. */
    nsc_unit **units = calloc(c.nfiles, sizeof *units);
    size_t *first_file = calloc(c.nfiles + 1, sizeof *first_file);
    bool io_error = !units || !first_file;
    for (size_t i = 0; units && first_file && i < c.nfiles; i++) {
        first_file[i] = nsc_file_count(ctx);
        units[i] = nsc_load_file(ctx, c.files[i]);
        if (!units[i]) io_error = true;
    }
    size_t nread = nsc_file_count(ctx), nimps = 0, nunits = c.nfiles;
    import_use *imps = calloc(nread + 1, sizeof *imps);
    nsc_unit **all = calloc(c.nfiles + nread + 1, sizeof *all);
    if (!imps || !all) io_error = true;
    if (!io_error) {
        first_file[c.nfiles] = nread;
        memcpy(all, units, c.nfiles * sizeof *units);
        for (size_t i = 0; i < c.nfiles; i++)
            for (size_t k = first_file[i]; k < first_file[i + 1]; k++) {
                /* Already loaded: this finds the unit by its real path and reads nothing. */
                nsc_unit *u = nsc_load_file(ctx, nsc_file_path(ctx, k));
                if (!u || is_listed(u, units, c.nfiles)) continue;
                imps[nimps++] = (import_use){u, c.files[i]};
                if (c.with_imports) all[nunits++] = u;
            }
    }
    unsigned errors = nsc_check(ctx);
    if (c.depfile && !io_error && write_depfile(&c, ctx, all, nunits)) rc = EXIT_USAGE;
    if (!io_error && errors == 0) {
        for (size_t i = 0; i < nunits && !rc; i++) {
            if (c.hash) nsc_emit_hash(ctx, all[i], stdout);
            if (!c.check_only && !c.hash) rc = emit(&c, ctx, all[i]);
        }
        if (!rc) note_imports(&c, imps, nimps);
    }
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
    free(units);
    free(first_file);
    free(imps);
    free(all);
    free(c.imports);
    free(c.files);
    if (io_error) return EXIT_USAGE;
    if (errors) return EXIT_SCHEMA;
    return rc;
}
