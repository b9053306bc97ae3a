/* printer.c — indentation-aware output for the C emitter. */
#include "printer.h"

#include <string.h>

void nsc_p_init(nsc_printer *p)
{
    memset(p, 0, sizeof *p);
}

void nsc_p_free(nsc_printer *p)
{
    nsc_sb_free(&p->out);
}

static void vline(nsc_printer *p, const char *fmt, va_list ap)
{
    if (fmt[0] != '\0')
        for (int i = 0; i < p->indent; i++) nsc_sb_puts(&p->out, "    ");
    nsc_sb_vprintf(&p->out, fmt, ap);
    nsc_sb_putc(&p->out, '\n');
}

void nsc_p_line(nsc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(p, fmt, ap);
    va_end(ap);
}

void nsc_p_open(nsc_printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(p, fmt, ap);
    va_end(ap);
    p->indent++;
}

void nsc_p_close(nsc_printer *p, const char *fmt, ...)
{
    if (p->indent > 0) p->indent--;
    va_list ap;
    va_start(ap, fmt);
    vline(p, fmt, ap);
    va_end(ap);
}

void nsc_p_empty(nsc_printer *p)
{
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
    nsc_strbuf text = NSC_STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    nsc_sb_vprintf(&text, fmt, ap);
    va_end(ap);
    nsc_p_line(p, "/* %s */", nsc_sb_str(&text));
    nsc_sb_free(&text);
}
