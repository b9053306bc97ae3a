/* diag.h — the diagnostics engine: structured records (severity, code, range, notes), counted,
 * capped and delivered to a sink, or rendered GCC-style with the source line and a caret range,
 * or as one JSON object per line. */
#ifndef NSC_DIAG_H
#define NSC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

#include "source.h"
#include "strbuf.h"

#define NSC_MAX_NOTES 8

/* A finished diagnostic, kept until the diagnostics are flushed in source order. */
typedef struct nsc_stored_diag {
    nsc_severity severity;
    const char  *code;
    char        *message;
    nsc_loc      loc;
    unsigned     note_count;
    nsc_loc      note_loc[NSC_MAX_NOTES];
    char        *note_msg[NSC_MAX_NOTES];
    size_t       seq;
} nsc_stored_diag;

typedef struct nsc_diags {
    const nsc_options *opt;
    const nsc_sources *sources;
    unsigned errors, warnings;   /* all reported */
    unsigned shown_errors;       /* rendered or delivered (at most max_errors) */
    nsc_stored_diag *stored;     /* reported but not yet flushed */
    size_t       nstored, stored_cap, seq;
    /* the diagnostic being built between begin and end */
    bool         open;
    nsc_severity severity;
    const char  *code;
    nsc_loc      loc;
    nsc_strbuf   message;
    nsc_loc      note_loc[NSC_MAX_NOTES];
    nsc_strbuf   note_msg[NSC_MAX_NOTES];
    unsigned     note_count;
} nsc_diags;

void nsc_diags_init(nsc_diags *d, const nsc_options *opt, const nsc_sources *sources);
void nsc_diags_free(nsc_diags *d);

/* Starts a diagnostic; add notes with nsc_diag_note(), deliver it with nsc_diag_end(). */
void nsc_diag_begin(nsc_diags *d, nsc_severity sev, const char *code, nsc_loc loc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void nsc_diag_note(nsc_diags *d, nsc_loc loc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void nsc_diag_end(nsc_diags *d);

/* One-call forms without notes. */
void nsc_error(nsc_diags *d, const char *code, nsc_loc loc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void nsc_warning(nsc_diags *d, const char *code, nsc_loc loc, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Delivers every stored diagnostic, sorted by file and position (report order among equals),
 * to the sink or the stream; at most max_errors errors are shown. */
void nsc_diags_flush(nsc_diags *d);

/* Flushes, then prints the closing lines (error limit, "N errors generated.") in text mode. */
void nsc_diags_finish(nsc_diags *d);

/* Renders one diagnostic as GCC-style text with source excerpts. */
void nsc_render_text(FILE *out, const nsc_sources *sources, const nsc_diagnostic *dg,
                     const nsc_loc *locs, bool color);

/* Renders one diagnostic as a single-line JSON object. */
void nsc_render_json(FILE *out, const nsc_diagnostic *dg);

/* Appends a printable form of bytes (quoted identifiers in messages): stray bytes as \xNN. */
void nsc_sb_printable(nsc_strbuf *sb, const char *s, size_t n);

#endif
