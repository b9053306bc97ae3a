/* strbuf.c — growable strings. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "textfmt.h"
#include "utf8.h"

void nsc_sb_free(nsc_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void nsc_sb_reset(nsc_strbuf *sb)
{
    sb->len = 0;
    if (sb->data) sb->data[0] = '\0';
}

static void reserve(nsc_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1) cap *= 2;
    sb->data = nsc_xrealloc(sb->data, cap);
    sb->cap = cap;
}

void nsc_sb_append(nsc_strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    if (n) memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void nsc_sb_puts(nsc_strbuf *sb, const char *s)
{
    nsc_sb_append(sb, s, strlen(s));
}

void nsc_sb_putc(nsc_strbuf *sb, char c)
{
    nsc_sb_append(sb, &c, 1);
}

void nsc_sb_vprintf(nsc_strbuf *sb, const char *fmt, va_list ap)
{
    /* Usually the text fits in the room left: format once, straight there. */
    va_list again;
    va_copy(again, ap);
    size_t room = sb->cap - sb->len;
    size_t n = nsc_text_vformat(sb->cap ? sb->data + sb->len : NULL, room, fmt, ap);
    if (n >= room) {
        reserve(sb, n);
        nsc_text_vformat(sb->data + sb->len, n + 1, fmt, again);
    }
    va_end(again);
    sb->len += n; /* nsc_text_vformat wrote the NUL after it */
}

void nsc_sb_printf(nsc_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nsc_sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void nsc_sb_json_string(nsc_strbuf *sb, const char *s, size_t n)
{
    nsc_sb_putc(sb, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            /* Valid UTF-8 passes through; a stray byte becomes U+FFFD so the output stays
             * valid JSON (callers that must keep bytes exact escape them first). */
            uint32_t cp;
            size_t len = ns_utf8_decode(s + i, n - i, &cp);
            if (len) nsc_sb_append(sb, s + i, len), i += len - 1;
            else nsc_sb_puts(sb, "\\ufffd");
            continue;
        }
        switch (c) {
        case '"':  nsc_sb_puts(sb, "\\\""); break;
        case '\\': nsc_sb_puts(sb, "\\\\"); break;
        case '\n': nsc_sb_puts(sb, "\\n"); break;
        case '\t': nsc_sb_puts(sb, "\\t"); break;
        case '\r': nsc_sb_puts(sb, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f) nsc_sb_printf(sb, "\\u%04x", c);
            else nsc_sb_putc(sb, (char)c);
        }
    }
    nsc_sb_putc(sb, '"');
}

const char *nsc_sb_str(const nsc_strbuf *sb)
{
    return sb->data ? sb->data : "";
}
