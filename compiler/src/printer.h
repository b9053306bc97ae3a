/* printer.h — the emitters' output helper: indentation-aware lines, blocks and comments, so an
 * emitter says what to print and not how to lay it out. */
#ifndef NSC_PRINTER_H
#define NSC_PRINTER_H

#include <stdarg.h>
#include <stdio.h>

#include "strbuf.h"

typedef struct nsc_printer {
    nsc_strbuf out;      /* what is not written to sink yet (its last two bytes stay, for nsc_p_blank) */
    int        indent;   /* levels of 4 spaces */
    FILE      *sink;     /* NULL: everything stays in out */
    size_t     flushed;  /* bytes already written to sink */
    int        error;    /* errno of the first failed write, 0 if none */
} nsc_printer;

void nsc_p_init(nsc_printer *p);
void nsc_p_free(nsc_printer *p);
/* Writes to f from now on, a buffer at a time, so a large output never sits in memory whole. */
void nsc_p_stream(nsc_printer *p, FILE *f);
/* Writes what is buffered; 0, or -1 with errno set if a write failed. */
int nsc_p_finish(nsc_printer *p);
/* Bytes printed so far, written or not. */
size_t nsc_p_size(const nsc_printer *p);

/* One line at the current indentation ("" prints an empty line). */
void nsc_p_line(nsc_printer *p, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A line that opens a block ("... {"), then one level deeper. */
void nsc_p_open(nsc_printer *p, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* One level shallower, then a closing line ("}", "} x;", "};"). */
void nsc_p_close(nsc_printer *p, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "} else {" between the two blocks of an if. */
void nsc_p_else(nsc_printer *p);
/* An empty line. */
void nsc_p_empty(nsc_printer *p);
/* An empty line, unless the previous line is already empty or opens a block. */
void nsc_p_blank(nsc_printer *p);
/* A schema doc comment as a C comment block ("/" "** ... *" "/"); nothing for NULL. */
void nsc_p_doc(nsc_printer *p, const char *doc);
/* n lines printed as they are (a block comment written once, like the header's legends). */
void nsc_p_lines(nsc_printer *p, const char *const *lines, size_t n);
/* A one-line comment. */
void nsc_p_comment(nsc_printer *p, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
