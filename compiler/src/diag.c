/* diag.c — collecting, capping and rendering diagnostics. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "utf8.h"

#define DEFAULT_MAX_ERRORS 50
#define EXCERPT_WIDTH 150   /* longest source excerpt shown; longer lines are windowed */

void nsc_diags_init(nsc_diags *d, const nsc_options *opt, const nsc_sources *sources)
{
    memset(d, 0, sizeof *d);
    d->opt = opt;
    d->sources = sources;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = nsc_xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

static void free_stored(nsc_stored_diag *sd)
{
    free(sd->message);
    for (unsigned i = 0; i < sd->note_count; i++) free(sd->note_msg[i]);
}

void nsc_diags_free(nsc_diags *d)
{
    for (size_t i = 0; i < d->nstored; i++) free_stored(&d->stored[i]);
    free(d->stored);
    d->stored = NULL;
    d->nstored = d->stored_cap = 0;
    nsc_sb_free(&d->message);
    for (unsigned i = 0; i < NSC_MAX_NOTES; i++) nsc_sb_free(&d->note_msg[i]);
}

static unsigned max_errors(const nsc_diags *d)
{
    return d->opt->max_errors ? d->opt->max_errors : DEFAULT_MAX_ERRORS;
}

static void vbegin(nsc_diags *d, nsc_severity sev, const char *code, nsc_loc loc, const char *fmt, va_list ap)
{
    if (d->open) nsc_diag_end(d);
    d->open = true;
    d->severity = sev;
    d->code = code;
    d->loc = loc;
    d->note_count = 0;
    if (sev == NSC_ERROR) d->errors++;
    if (sev == NSC_WARNING) d->warnings++;
    nsc_sb_reset(&d->message);
    nsc_sb_vprintf(&d->message, fmt, ap);
}

void nsc_diag_begin(nsc_diags *d, nsc_severity sev, const char *code, nsc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vbegin(d, sev, code, loc, fmt, ap);
    va_end(ap);
}

void nsc_diag_note(nsc_diags *d, nsc_loc loc, const char *fmt, ...)
{
    if (!d->open || d->note_count == NSC_MAX_NOTES) return;
    unsigned i = d->note_count++;
    d->note_loc[i] = loc;
    nsc_sb_reset(&d->note_msg[i]);
    va_list ap;
    va_start(ap, fmt);
    nsc_sb_vprintf(&d->note_msg[i], fmt, ap);
    va_end(ap);
}

void nsc_diag_end(nsc_diags *d)
{
    if (!d->open) return;
    d->open = false;
    if (d->nstored == d->stored_cap) {
        d->stored_cap = d->stored_cap ? d->stored_cap * 2 : 16;
        d->stored = nsc_xrealloc(d->stored, d->stored_cap * sizeof *d->stored);
    }
    nsc_stored_diag *sd = &d->stored[d->nstored++];
    memset(sd, 0, sizeof *sd);
    sd->severity = d->severity;
    sd->code = d->code;
    sd->message = dup_str(nsc_sb_str(&d->message));
    sd->loc = d->loc;
    sd->seq = d->seq++;
    sd->note_count = d->note_count;
    for (unsigned i = 0; i < d->note_count; i++) {
        sd->note_loc[i] = d->note_loc[i];
        sd->note_msg[i] = dup_str(nsc_sb_str(&d->note_msg[i]));
    }
}

static void deliver(nsc_diags *d, const nsc_stored_diag *sd)
{
    nsc_diagnostic notes[NSC_MAX_NOTES];
    nsc_loc locs[NSC_MAX_NOTES + 1];
    for (unsigned i = 0; i < sd->note_count; i++) {
        memset(&notes[i], 0, sizeof notes[i]);
        notes[i].severity = NSC_NOTE;
        notes[i].code = "";
        notes[i].message = sd->note_msg[i];
        notes[i].span = nsc_sources_span(d->sources, sd->note_loc[i]);
        locs[i + 1] = sd->note_loc[i];
    }
    nsc_diagnostic dg;
    memset(&dg, 0, sizeof dg);
    dg.severity = sd->severity;
    dg.code = sd->code;
    dg.message = sd->message;
    dg.span = nsc_sources_span(d->sources, sd->loc);
    dg.notes = notes;
    dg.note_count = sd->note_count;
    locs[0] = sd->loc;
    if (d->opt->sink) {
        d->opt->sink(d->opt->sink_user, &dg);
        return;
    }
    FILE *out = d->opt->diag_stream ? d->opt->diag_stream : stderr;
    if (d->opt->diag_format == NSC_DIAG_JSON) nsc_render_json(out, &dg);
    else nsc_render_text(out, d->sources, &dg, locs, d->opt->color);
}

/* Source order: by file, then position, then report order. Unlocated ones come first. */
static int by_position(const void *pa, const void *pb)
{
    const nsc_stored_diag *a = pa, *b = pb;
    if (a->loc.file != b->loc.file) return a->loc.file < b->loc.file ? -1 : 1;
    if (a->loc.start != b->loc.start) return a->loc.start < b->loc.start ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void nsc_diags_flush(nsc_diags *d)
{
    if (d->open) nsc_diag_end(d);
    if (d->nstored > 1) qsort(d->stored, d->nstored, sizeof *d->stored, by_position);
    for (size_t i = 0; i < d->nstored; i++) {
        nsc_stored_diag *sd = &d->stored[i];
        /* Past the error limit nothing more is shown, warnings included. */
        if (d->shown_errors < max_errors(d)) {
            if (sd->severity == NSC_ERROR) d->shown_errors++;
            deliver(d, sd);
        }
        free_stored(sd);
    }
    d->nstored = 0;
}

void nsc_error(nsc_diags *d, const char *code, nsc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vbegin(d, NSC_ERROR, code, loc, fmt, ap);
    va_end(ap);
    nsc_diag_end(d);
}

void nsc_warning(nsc_diags *d, const char *code, nsc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vbegin(d, NSC_WARNING, code, loc, fmt, ap);
    va_end(ap);
    nsc_diag_end(d);
}

static void plural(FILE *out, unsigned n, const char *what)
{
    fprintf(out, "%u %s%s", n, what, n == 1 ? "" : "s");
}

void nsc_diags_finish(nsc_diags *d)
{
    nsc_diags_flush(d);
    if (d->opt->sink) return;
    if (d->opt->diag_format == NSC_DIAG_JSON) {
        /* Even JSON says that errors were left out, as one more object on the stream. */
        if (d->errors > d->shown_errors) {
            FILE *out = d->opt->diag_stream ? d->opt->diag_stream : stderr;
            fprintf(out, "{\"severity\":\"note\",\"code\":\"N-error-limit\",\"message\":\"too many errors: "
                         "showing the first %u of %u\",\"notes\":[]}\n", d->shown_errors, d->errors);
        }
        return;
    }
    FILE *out = d->opt->diag_stream ? d->opt->diag_stream : stderr;
    if (d->errors > d->shown_errors)
        fprintf(out, "netschemac: too many errors: showing the first %u of %u\n", d->shown_errors, d->errors);
    if (d->errors == 0 && d->warnings == 0) return;
    if (d->errors) plural(out, d->errors, "error");
    if (d->errors && d->warnings) fputs(" and ", out);
    if (d->warnings) plural(out, d->warnings, "warning");
    fputs(" generated.\n", out);
}

/* ---- text rendering ------------------------------------------------------------------- */

void nsc_sb_printable(nsc_strbuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = ns_utf8_decode(s + i, n - i, &cp);
        if (len && cp >= 0x20 && cp != 0x7f) {
            nsc_sb_append(sb, s + i, len);
            i += len;
        } else {
            nsc_sb_printf(sb, "\\x%02x", (unsigned char)s[i]);
            i++;
        }
    }
}

/* One step of the excerpt: how the code point at `at` is shown and how wide it is. */
typedef struct glyph {
    size_t   bytes;   /* source bytes it covers */
    unsigned width;   /* display columns */
    char     text[9]; /* what is printed, NUL-terminated: a tab becomes up to 8 spaces */
} glyph;

static glyph next_glyph(const char *line, size_t len, size_t at, unsigned col)
{
    glyph g;
    memset(&g, 0, sizeof g);
    uint32_t cp;
    size_t n = ns_utf8_decode(line + at, len - at, &cp);
    if (n == 1 && cp == '\t') {
        g.bytes = 1;
        g.width = 8 - col % 8;
        memset(g.text, ' ', g.width);
    } else if (n == 0 || cp < 0x20 || cp == 0x7f) {
        g.bytes = 1;
        g.width = 4;
        snprintf(g.text, sizeof g.text, "<%02x>", (unsigned char)line[at]);
    } else {
        g.bytes = n;
        g.width = nsc_codepoint_width(cp);
        memcpy(g.text, line + at, n);
    }
    return g;
}

static const char *sev_name(nsc_severity s)
{
    return s == NSC_ERROR ? "error" : s == NSC_WARNING ? "warning" : "note";
}

static const char *sev_color(nsc_severity s)
{
    return s == NSC_ERROR ? "\033[1;31m" : s == NSC_WARNING ? "\033[1;35m" : "\033[1;36m";
}

/* Prints the line holding loc and a caret range under [loc.start, loc.end). */
static void render_excerpt(FILE *out, const nsc_source *src, nsc_loc loc, bool color)
{
    uint32_t line_no, col;
    nsc_source_position(src, loc.start, &line_no, &col);
    size_t len;
    const char *line = nsc_source_line(src, line_no, &len);
    size_t line_start = (size_t)(line - src->text);
    size_t start = loc.start - line_start;
    size_t end = loc.end > loc.start ? loc.end - line_start : start;
    if (end > len) end = len;

    /* Pass 1: display columns of the range and of the whole line. */
    const unsigned unset = ~0u;
    unsigned c = 0, caret_from = unset, caret_to = unset, total;
    for (size_t at = 0; at < len;) {
        if (caret_from == unset && at >= start) caret_from = c;
        if (caret_to == unset && at >= end) caret_to = c;
        glyph g = next_glyph(line, len, at, c);
        at += g.bytes;
        c += g.width;
    }
    total = c;
    if (caret_from == unset) caret_from = total;
    if (caret_to == unset) caret_to = total;
    if (caret_to <= caret_from) caret_to = caret_from + 1;

    /* A window of the line when it is too long to show. */
    unsigned lo = 0, hi = total;
    if (total > EXCERPT_WIDTH) {
        lo = caret_from > EXCERPT_WIDTH / 3 ? caret_from - EXCERPT_WIDTH / 3 : 0;
        hi = lo + EXCERPT_WIDTH;
        if (caret_to > hi) caret_to = hi;
    }
    nsc_strbuf text = NSC_STRBUF_INIT;
    nsc_sb_puts(&text, "    ");
    if (lo > 0) nsc_sb_puts(&text, "...");
    c = 0;
    for (size_t at = 0; at < len && c < hi;) {
        glyph g = next_glyph(line, len, at, c);
        if (c >= lo) nsc_sb_puts(&text, g.text);
        at += g.bytes;
        c += g.width;
    }
    if (hi < total) nsc_sb_puts(&text, "...");
    fprintf(out, "%s\n", nsc_sb_str(&text));

    nsc_sb_reset(&text);
    nsc_sb_puts(&text, "    ");
    if (lo > 0) nsc_sb_puts(&text, "   ");
    for (unsigned i = lo; i < caret_from; i++) nsc_sb_putc(&text, ' ');
    if (color) nsc_sb_puts(&text, "\033[1;32m");
    nsc_sb_putc(&text, '^');
    for (unsigned i = caret_from + 1; i < caret_to; i++) nsc_sb_putc(&text, '~');
    if (color) nsc_sb_puts(&text, "\033[0m");
    fprintf(out, "%s\n", nsc_sb_str(&text));
    nsc_sb_free(&text);
}

static void render_one(FILE *out, const nsc_sources *sources, nsc_severity sev, const char *msg,
                       const nsc_span *sp, nsc_loc loc, bool color)
{
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    if (sp->file) fprintf(out, "%s%s:%u:%u:%s ", bold, sp->file, sp->line, sp->column, reset);
    else fprintf(out, "%snetschemac:%s ", bold, reset);
    fprintf(out, "%s%s:%s %s\n", color ? sev_color(sev) : "", sev_name(sev), reset, msg);
    const nsc_source *src = nsc_sources_get(sources, loc.file);
    if (src) render_excerpt(out, src, loc, color);
}

void nsc_render_text(FILE *out, const nsc_sources *sources, const nsc_diagnostic *dg,
                     const nsc_loc *locs, bool color)
{
    render_one(out, sources, dg->severity, dg->message, &dg->span, locs[0], color);
    for (size_t i = 0; i < dg->note_count; i++)
        render_one(out, sources, NSC_NOTE, dg->notes[i].message, &dg->notes[i].span, locs[i + 1], color);
}

/* ---- JSON rendering ------------------------------------------------------------------- */

static void json_fields(nsc_strbuf *sb, nsc_severity sev, const char *code, const char *msg, const nsc_span *sp)
{
    nsc_sb_printf(sb, "\"severity\":\"%s\"", sev_name(sev));
    if (code && *code) {
        nsc_sb_puts(sb, ",\"code\":");
        nsc_sb_json_string(sb, code, strlen(code));
    }
    nsc_sb_puts(sb, ",\"message\":");
    nsc_sb_json_string(sb, msg, strlen(msg));
    if (sp->file) {
        nsc_sb_puts(sb, ",\"file\":");
        nsc_sb_json_string(sb, sp->file, strlen(sp->file));
        nsc_sb_printf(sb, ",\"line\":%u,\"column\":%u,\"end_line\":%u,\"end_column\":%u"
                          ",\"offset\":%u,\"end_offset\":%u",
                      sp->line, sp->column, sp->end_line, sp->end_column, sp->offset, sp->end_offset);
    }
}

void nsc_render_json(FILE *out, const nsc_diagnostic *dg)
{
    nsc_strbuf sb = NSC_STRBUF_INIT;
    nsc_sb_putc(&sb, '{');
    json_fields(&sb, dg->severity, dg->code, dg->message, &dg->span);
    nsc_sb_puts(&sb, ",\"notes\":[");
    for (size_t i = 0; i < dg->note_count; i++) {
        nsc_sb_puts(&sb, i ? ",{" : "{");
        json_fields(&sb, NSC_NOTE, NULL, dg->notes[i].message, &dg->notes[i].span);
        nsc_sb_putc(&sb, '}');
    }
    nsc_sb_puts(&sb, "]}\n");
    fputs(nsc_sb_str(&sb), out);
    nsc_sb_free(&sb);
}
