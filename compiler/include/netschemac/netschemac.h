/* netschemac.h — the schema compiler as a library: load schemas, check them, emit outputs.
 *
 * The command-line tool (compiler/main.c), the tests and the fuzzers all drive this API:
 *
 *     nsc_options opt;
 *     nsc_options_init(&opt);
 *     nsc_context *ctx = nsc_create(&opt);
 *     nsc_unit *u = nsc_load_file(ctx, "game.netschema");   // parses it and its imports
 *     if (nsc_check(ctx) == 0) nsc_emit_json(ctx, u, stdout);
 *     nsc_destroy(ctx);
 *
 * A context owns everything it creates (AST, types, diagnostics) and frees it in nsc_destroy().
 * There is no global state; contexts are independent. */
#ifndef NETSCHEMAC_H
#define NETSCHEMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NSC_VERSION "0.1.0"

typedef struct nsc_context nsc_context;
typedef struct nsc_unit nsc_unit; /* one loaded schema file */

typedef enum nsc_severity { NSC_NOTE, NSC_WARNING, NSC_ERROR } nsc_severity;

/* A source range, resolved for reporting. line and column are 1-based; column counts Unicode
 * code points (a tab counts one). offset/end_offset are byte offsets into the file. A range
 * with no file (file == NULL) is not tied to a source position. */
typedef struct nsc_span {
    const char *file;
    uint32_t    line, column;
    uint32_t    end_line, end_column;  /* last position inside the range */
    uint32_t    offset, end_offset;    /* byte offsets: [offset, end_offset) */
} nsc_span;

/* One diagnostic: an error or warning with its notes (each note has its own span). */
typedef struct nsc_diagnostic {
    nsc_severity severity;
    const char  *code;     /* stable identifier, e.g. "E-attr-type" */
    const char  *message;
    nsc_span     span;
    const struct nsc_diagnostic *notes;
    size_t       note_count;
} nsc_diagnostic;

/* Receives each diagnostic as it is reported (notes included). */
typedef void (*nsc_diag_sink)(void *user, const nsc_diagnostic *d);

typedef enum nsc_diag_format { NSC_DIAG_TEXT, NSC_DIAG_JSON } nsc_diag_format;

/* How nsc_emit_c codes records (docs/generated-api.md, "Table mode"): straight-line code per
 * record (the default, fastest), or calls into the runtime's descriptor-driven functions
 * (netschema/table.h: smaller code that builds faster; the same bytes on the wire). */
typedef enum nsc_codec { NSC_CODEC_INLINE, NSC_CODEC_TABLE } nsc_codec;

typedef struct nsc_options {
    const char *const *import_dirs;  /* -I directories, searched in order after the importer's own */
    size_t       import_dir_count;
    unsigned     max_errors;         /* stop reporting after this many errors (0: 50) */
    nsc_diag_sink sink;              /* NULL: render to diag_stream in diag_format */
    void        *sink_user;
    FILE        *diag_stream;        /* NULL: stderr */
    nsc_diag_format diag_format;
    bool         color;              /* ANSI colours in text diagnostics */
    nsc_codec    codec;              /* what nsc_emit_c generates (default NSC_CODEC_INLINE) */
    unsigned     split;              /* nsc_emit_c spreads the records over this many sources, which
                                        build in parallel: <stem>.ns.c, then <stem>.ns.2.c up to
                                        <stem>.ns.<split>.c (0 or 1: one source; at most
                                        NSC_MAX_SPLIT) */
} nsc_options;

/* The most sources nsc_options.split asks for. */
#define NSC_MAX_SPLIT 64u

/* Fills opt with the defaults (no import dirs, 50 errors, text to stderr). */
void nsc_options_init(nsc_options *opt);

/* Creates a compiler context; the options (and the strings they point to) must outlive it. */
nsc_context *nsc_create(const nsc_options *opt);

/* Frees the context and everything it owns. */
void nsc_destroy(nsc_context *ctx);

/* Loads and parses a schema file and, transitively, everything it imports. Returns the unit, or
 * NULL if the file could not be read (an error diagnostic has been reported). */
nsc_unit *nsc_load_file(nsc_context *ctx, const char *path);

/* As nsc_load_file, from memory; name is used in diagnostics and to resolve relative imports. */
nsc_unit *nsc_load_buffer(nsc_context *ctx, const char *name, const char *data, size_t len);

/* Runs name resolution, type, attribute and limit checks and the layout pass over every loaded
 * unit. Returns the number of errors (0: the schemas are valid and outputs may be emitted). */
unsigned nsc_check(nsc_context *ctx);

/* Errors and warnings reported so far (including those beyond max_errors). */
unsigned nsc_error_count(const nsc_context *ctx);
unsigned nsc_warning_count(const nsc_context *ctx);

/* Prints the closing summary line ("2 errors generated.") to the diagnostic stream when the
 * context renders diagnostics itself. */
void nsc_finish_diagnostics(nsc_context *ctx);

/* Writes the checked unit as a JSON descriptor (format: idl/SPEC.md, "JSON descriptor"). */
int nsc_emit_json(nsc_context *ctx, const nsc_unit *u, FILE *out);

/* Prints the schema hash and one hash per type, one per line. */
int nsc_emit_hash(nsc_context *ctx, const nsc_unit *u, FILE *out);

/* The unit's source in the canonical style (idl/SPEC.md section 14): a malloc'ed string of *len
 * bytes plus a NUL, or NULL when the loaded schemas have errors (nothing is formatted then). */
char *nsc_format(nsc_context *ctx, const nsc_unit *u, size_t *len);

/* Compares the types of two checked units, each in its own context (idl/SPEC.md section 15),
 * and prints the report to out as text or JSON lines. Returns 0 when no type breaks, 1 when one
 * does, -1 when either context has errors. */
int nsc_compat(nsc_context *old_ctx, const nsc_unit *old_unit, nsc_context *new_ctx, const nsc_unit *new_unit,
               nsc_diag_format format, FILE *out);

/* Writes <stem>.ns.h and <stem>.ns.c for the unit into out_dir (with nsc_options.split = n > 1,
 * also <stem>.ns.2.c to <stem>.ns.<n>.c). Returns 0 on success. */
int nsc_emit_c(nsc_context *ctx, const nsc_unit *u, const char *out_dir);

/* The output stem of a unit ("game" for ".../game.netschema"). */
const char *nsc_unit_stem(const nsc_unit *u);

/* The path a unit was loaded from, as given or resolved. */
const char *nsc_unit_path(const nsc_unit *u);

/* Every file read so far (the root and its imports), for dependency files. */
size_t nsc_file_count(const nsc_context *ctx);
const char *nsc_file_path(const nsc_context *ctx, size_t i);

#ifdef __cplusplus
}
#endif
#endif
