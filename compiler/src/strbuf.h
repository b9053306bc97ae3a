/* strbuf.h — a growable string for building messages, canonical forms and output files. */
#ifndef NSC_STRBUF_H
#define NSC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct nsc_strbuf {
    char  *data;  /* always NUL-terminated once anything was appended */
    size_t len, cap;
} nsc_strbuf;

#define NSC_STRBUF_INIT {NULL, 0, 0}

void nsc_sb_free(nsc_strbuf *sb);
void nsc_sb_reset(nsc_strbuf *sb);
void nsc_sb_append(nsc_strbuf *sb, const char *s, size_t n);
void nsc_sb_puts(nsc_strbuf *sb, const char *s);
void nsc_sb_putc(nsc_strbuf *sb, char c);
void nsc_sb_printf(nsc_strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void nsc_sb_vprintf(nsc_strbuf *sb, const char *fmt, va_list ap);

/* Appends s as a JSON string literal, quotes included. */
void nsc_sb_json_string(nsc_strbuf *sb, const char *s, size_t n);

/* The contents ("" when empty); valid until the next append. */
const char *nsc_sb_str(const nsc_strbuf *sb);

#endif
