/* loader.c — reading schema files and following their imports.
 *
 * An import is looked up relative to the importing file, then in each -I directory in order.
 * Files are identified by their canonical path, so a file imported twice (or under two
 * spellings) is read once. A unit is on the loading stack while its imports are followed; an
 * import of a unit on the stack is a cycle, reported with the whole chain. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "context.h"

#define MAX_FILE_SIZE (64u * 1024u * 1024u)

typedef enum { PATH_MISSING, PATH_FILE, PATH_DIR, PATH_OTHER } path_kind;

static path_kind classify(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return PATH_MISSING;
    if (S_ISDIR(st.st_mode)) return PATH_DIR;
    if (S_ISREG(st.st_mode)) return PATH_FILE;
    return PATH_OTHER;
}

/* Reads a whole file with two NUL bytes after it. Returns NULL and sets *err on failure. */
static char *read_file(const char *path, size_t *len, const char **err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = strerror(errno);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = nsc_xrealloc(NULL, cap);
    for (;;) {
        if (n + 2 >= cap) {
            if (cap >= MAX_FILE_SIZE) {
                free(buf);
                fclose(f);
                *err = "file is larger than 64 MiB";
                return NULL;
            }
            cap *= 2;
            buf = nsc_xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 2, f);
        n += got;
        if (got == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(buf);
        *err = "read error";
        return NULL;
    }
    buf[n] = buf[n + 1] = '\0';
    *len = n;
    return buf;
}

static const char *stem_of(nsc_arena *a, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strstr(base, ".netschema");
    size_t n = dot && dot[10] == '\0' ? (size_t)(dot - base) : strcspn(base, ".");
    if (n == 0) n = strlen(base);
    return nsc_arena_strndup(a, base, n);
}

static nsc_unit *find_loaded(nsc_context *ctx, const char *real)
{
    for (size_t i = 0; i < ctx->nunits; i++) {
        const nsc_source *src = ctx->units[i]->src;
        if (src->real && strcmp(src->real, real) == 0) return ctx->units[i];
    }
    return NULL;
}

static void push(nsc_context *ctx, nsc_unit *u, nsc_decl *via)
{
    if (ctx->depth == ctx->stack_cap) {
        ctx->stack_cap = ctx->stack_cap ? ctx->stack_cap * 2 : 16;
        ctx->stack = nsc_xrealloc(ctx->stack, ctx->stack_cap * sizeof *ctx->stack);
        ctx->stack_import = nsc_xrealloc(ctx->stack_import, ctx->stack_cap * sizeof *ctx->stack_import);
    }
    ctx->stack[ctx->depth] = u;
    ctx->stack_import[ctx->depth] = via;
    ctx->depth++;
    u->loading = true;
}

static void pop(nsc_context *ctx)
{
    ctx->stack[--ctx->depth]->loading = false;
}

static void resolve_imports(nsc_context *ctx, nsc_unit *u);

/* Makes a unit from source text (owned) and loads what it imports. */
static nsc_unit *load_unit(nsc_context *ctx, const char *path, const char *real, char *text, size_t len,
                           nsc_decl *via)
{
    nsc_unit *u = NSC_NEW(&ctx->arena, nsc_unit);
    u->src = nsc_sources_add(&ctx->sources, path, real, text, len);
    u->stem = stem_of(&ctx->arena, path);
    if (ctx->nunits == ctx->units_cap) {
        ctx->units_cap = ctx->units_cap ? ctx->units_cap * 2 : 8;
        ctx->units = nsc_xrealloc(ctx->units, ctx->units_cap * sizeof *ctx->units);
    }
    ctx->units[ctx->nunits++] = u;
    nsc_parse_unit(ctx, u);
    push(ctx, u, via);
    resolve_imports(ctx, u);
    pop(ctx);
    return u;
}

/* "a.netschema -> b.netschema -> a.netschema" for a cycle that re-enters stack[from]. */
static void report_cycle(nsc_context *ctx, nsc_decl *imp, size_t from)
{
    nsc_strbuf chain = NSC_STRBUF_INIT;
    for (size_t i = from; i < ctx->depth; i++) {
        nsc_sb_puts(&chain, ctx->stack[i]->src->path);
        nsc_sb_puts(&chain, " -> ");
    }
    nsc_sb_puts(&chain, ctx->stack[from]->src->path);
    if (from + 1 == ctx->depth)
        nsc_diag_begin(&ctx->diags, NSC_ERROR, "E-import-cycle", imp->path_loc,
                       "schema '%s' imports itself", ctx->stack[from]->src->path);
    else
        nsc_diag_begin(&ctx->diags, NSC_ERROR, "E-import-cycle", imp->path_loc, "import cycle: %s",
                       nsc_sb_str(&chain));
    for (size_t i = from + 1; i < ctx->depth; i++)
        nsc_diag_note(&ctx->diags, ctx->stack_import[i]->path_loc, "'%s' is imported here",
                      ctx->stack[i]->src->path);
    nsc_diag_end(&ctx->diags);
    nsc_sb_free(&chain);
}

/* dir (its first dir_len bytes) + "/" + path, on the heap. */
static char *join(const char *dir, size_t dir_len, const char *path)
{
    size_t b = strlen(path);
    char *p = nsc_xrealloc(NULL, dir_len + b + 2);
    memcpy(p, dir, dir_len);
    p[dir_len] = '/';
    memcpy(p + dir_len + 1, path, b + 1);
    return p;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = nsc_xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

/* The first candidate path that exists (file or not), or NULL. Candidates are the importing
 * file's directory, then each -I directory; an absolute path is only itself. */
static char *find_import(nsc_context *ctx, const nsc_unit *u, const char *path, path_kind *kind)
{
    if (path[0] == '/') {
        *kind = classify(path);
        return *kind == PATH_MISSING ? NULL : dup_str(path);
    }
    const char *slash = strrchr(u->src->path, '/');
    char *cand = slash ? join(u->src->path, (size_t)(slash - u->src->path), path) : dup_str(path);
    if ((*kind = classify(cand)) != PATH_MISSING) return cand;
    free(cand);
    for (size_t i = 0; i < ctx->opt.import_dir_count; i++) {
        const char *dir = ctx->opt.import_dirs[i];
        cand = join(dir, strlen(dir), path);
        if ((*kind = classify(cand)) != PATH_MISSING) return cand;
        free(cand);
    }
    return NULL;
}

static void import_not_found(nsc_context *ctx, const nsc_unit *u, const nsc_decl *imp)
{
    nsc_strbuf where = NSC_STRBUF_INIT;
    const char *slash = strrchr(u->src->path, '/');
    if (slash) nsc_sb_printf(&where, "'%.*s'", (int)(slash - u->src->path), u->src->path);
    else nsc_sb_puts(&where, "'.'");
    for (size_t i = 0; i < ctx->opt.import_dir_count; i++) nsc_sb_printf(&where, ", '%s'", ctx->opt.import_dirs[i]);
    nsc_strbuf path = NSC_STRBUF_INIT;
    nsc_sb_printable(&path, imp->path, imp->path_len);
    nsc_error(&ctx->diags, "E-import-missing", imp->path_loc, "cannot find imported schema '%s' (searched %s)",
              nsc_sb_str(&path), nsc_sb_str(&where));
    nsc_sb_free(&path);
    nsc_sb_free(&where);
}

static void resolve_import(nsc_context *ctx, nsc_unit *u, nsc_decl *imp)
{
    if (imp->path_len == 0 || memchr(imp->path, '\0', imp->path_len)) {
        nsc_error(&ctx->diags, "E-import-path", imp->path_loc, "an import path must be a non-empty file name");
        return;
    }
    path_kind kind;
    char *found = find_import(ctx, u, imp->path, &kind);
    if (!found) {
        import_not_found(ctx, u, imp);
        return;
    }
    if (kind != PATH_FILE) {
        nsc_strbuf shown = NSC_STRBUF_INIT;
        nsc_sb_printable(&shown, found, strlen(found));
        nsc_error(&ctx->diags, "E-import-path", imp->path_loc, "cannot import '%s': %s", nsc_sb_str(&shown),
                  kind == PATH_DIR ? "it is a directory, not a schema file" : "it is not a regular file");
        nsc_sb_free(&shown);
        free(found);
        return;
    }
    char *real = realpath(found, NULL);
    nsc_unit *t = real ? find_loaded(ctx, real) : NULL;
    if (t && t->loading) {
        for (size_t i = 0; i < ctx->depth; i++)
            if (ctx->stack[i] == t) report_cycle(ctx, imp, i);
    } else if (t) {
        imp->target = t;
    } else {
        size_t len;
        const char *err = NULL;
        char *text = read_file(found, &len, &err);
        if (!text) {
            nsc_strbuf shown = NSC_STRBUF_INIT;
            nsc_sb_printable(&shown, found, strlen(found));
            nsc_error(&ctx->diags, "E-import-read", imp->path_loc, "cannot read imported schema '%s': %s",
                      nsc_sb_str(&shown), err);
            nsc_sb_free(&shown);
        } else {
            imp->target = load_unit(ctx, found, real, text, len, imp);
        }
    }
    free(real);
    free(found);
}

static void resolve_imports(nsc_context *ctx, nsc_unit *u)
{
    for (size_t i = 0; i < u->ndecls; i++)
        if (u->decls[i]->kind == NSC_D_IMPORT) resolve_import(ctx, u, u->decls[i]);
}

nsc_unit *nsc_load_file(nsc_context *ctx, const char *path)
{
    nsc_loc none = {0, 0, 0};
    path_kind kind = classify(path);
    if (kind == PATH_DIR || kind == PATH_OTHER) {
        nsc_error(&ctx->diags, "E-io", none, "cannot read '%s': %s", path,
                  kind == PATH_DIR ? "it is a directory" : "it is not a regular file");
        return NULL;
    }
    char *real = realpath(path, NULL);
    nsc_unit *u = real ? find_loaded(ctx, real) : NULL;
    if (u) {
        free(real);
        return u;
    }
    size_t len;
    const char *err = NULL;
    char *text = read_file(path, &len, &err);
    if (!text) {
        nsc_error(&ctx->diags, "E-io", none, "cannot read '%s': %s", path, err);
        free(real);
        return NULL;
    }
    u = load_unit(ctx, path, real, text, len, NULL);
    free(real);
    return u;
}

nsc_unit *nsc_load_buffer(nsc_context *ctx, const char *name, const char *data, size_t len)
{
    char *text = nsc_xrealloc(NULL, len + 2);
    if (len) memcpy(text, data, len);
    text[len] = text[len + 1] = '\0';
    return load_unit(ctx, name, NULL, text, len, NULL);
}
