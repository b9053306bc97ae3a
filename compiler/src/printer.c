/* printer.c — indentation-aware output for the C emitter. */
#include "printer.h"

#include <errno.h>
#include <string.h>

#define FLUSH_AT (64u * 1024u)

void nsc_p_init(nsc_printer *p)
{
    memset(p, 0, sizeof *p);
}

void nsc_p_free(nsc_printer *p)
{
    nsc_sb_free(&p->out);
}

void nsc_p_stream(nsc_printer *p, FILE *f)
{
    p->sink = f;
}

size_t nsc_p_size(const nsc_printer *p)
{
    return p->flushed + p->out.len;
}

/* Writes all but the last keep bytes. */
static void flush(nsc_printer *p, size_t keep)
{
    if (!p->sink || p->out.len <= keep) return;
    size_t n = p->out.len - keep;
    if (!p->error && fwrite(p->out.data, 1, n, p->sink) != n) p->error = errno ? errno : EIO;
    memmove(p->out.data, p->out.data + n, keep + 1); /* the kept bytes and the NUL */
    p->out.len = keep;
    p->flushed += n;
}

int nsc_p_finish(nsc_printer *p)
{
    flush(p, 0);
    if (p->error) errno = p->error;
    return p->error ? -1 : 0;
}

/* The indentation of a line: four spaces a level, in one append (lines are most of the output). */
static void indent(nsc_printer *p)
{
    static const char spaces[] = "                                                                ";
    size_t n = (size_t)p->indent * 4;
    for (; n > sizeof spaces - 1; n -= sizeof spaces - 1) nsc_sb_append(&p->out, spaces, sizeof spaces - 1);
    nsc_sb_append(&p->out, spaces, n);
}

/* A string literal and its length: a line's prefix and suffix are known when it is printed, and
 * measuring them again for each of a large schema's million lines showed in profiles. */
#define LITERAL(s) s, sizeof s - 1

static void vline(nsc_printer *p, const char *prefix, size_t prefix_len, const char *fmt, va_list ap,
                  const char *suffix, size_t suffix_len)
{
    if (p->out.len >= FLUSH_AT) flush(p, 2);
    if (fmt[0] != '\0' || prefix_len) indent(p);
    if (prefix_len) nsc_sb_append(&p->out, prefix, prefix_len);
    nsc_sb_vprintf(&p->out, fmt, ap);
    nsc_sb_append(&p->out, suffix, suffix_len);
}

void nsc_p_line(nsc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(p, LITERAL(""), fmt, ap, LITERAL("\n"));
    va_end(ap);
}

void nsc_p_open(nsc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(p, LITERAL(""), fmt, ap, LITERAL("\n"));
    va_end(ap);
    p->indent++;
}

void nsc_p_close(nsc_printer *p, const char *fmt, ...)
{
    if (p->indent > 0) p->indent--;
    va_list ap;
    va_start(ap, fmt);
    vline(p, LITERAL(""), fmt, ap, LITERAL("\n"));
    va_end(ap);
}

void nsc_p_else(nsc_printer *p)
{
    nsc_p_close(p, "} else {");
    p->indent++;
}

void nsc_p_empty(nsc_printer *p)
{
    if (p->out.len >= FLUSH_AT) flush(p, 2);
    nsc_sb_putc(&p->out, '\n');
}

void nsc_p_blank(nsc_printer *p)
{
    size_t n = p->out.len;
    if (n == 0) return;
    if (n >= 2 && p->out.data[n - 2] == '\n') return; /* already blank */
    if (n >= 2 && p->out.data[n - 2] == '{') return;  /* just opened a block */
    nsc_sb_putc(&p->out, '\n');
}

void nsc_p_lines(nsc_printer *p, const char *const *lines, size_t n)
{
    for (size_t i = 0; i < n; i++) nsc_p_line(p, "%s", lines[i]);
}

void nsc_p_doc(nsc_printer *p, const char *doc)
{
    if (!doc) return;
    nsc_p_line(p, "/**");
    const char *s = doc;
    for (;;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        /* A doc comment must not end the C comment early. */
        nsc_strbuf line = NSC_STRBUF_INIT;
        for (size_t i = 0; i < n; i++) {
            nsc_sb_putc(&line, s[i]);
            /* Keep "*" "/" from ending the comment and "/" "*" from nesting one. */
            if ((s[i] == '*' || s[i] == '/') && i + 1 < n && s[i + 1] == (s[i] == '*' ? '/' : '*'))
                nsc_sb_putc(&line, ' ');
            /* "??/" is a trigraph for '\' in C11: at a line's end it would splice the next line
             * in (-Wtrigraphs). "? ?" starts no trigraph. */
            if (s[i] == '?' && i + 1 < n && s[i + 1] == '?') nsc_sb_putc(&line, ' ');
        }
        if (line.len) nsc_p_line(p, " * %s", nsc_sb_str(&line));
        else nsc_p_line(p, " *");
        nsc_sb_free(&line);
        if (!nl) break;
        s = nl + 1;
    }
    nsc_p_line(p, " */");
}

void nsc_p_comment(nsc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(p, LITERAL("/* "), fmt, ap, LITERAL(" */\n"));
    va_end(ap);
}
