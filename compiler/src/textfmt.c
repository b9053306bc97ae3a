/* textfmt.c — the emitters' printf. Generating C is mostly formatting (tens of megabytes for a
 * large schema), and libc's vsnprintf spends most of that time in its stream machinery. The
 * conversions the emitters use (convert() lists them) are formatted here in one pass; a format
 * with any other is handed to vsnprintf whole, so the result is always exactly vsnprintf's. */
#include "textfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
    char  *buf;
    size_t cap, len; /* len counts every byte, written or not */
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len < o->cap) memcpy(o->buf + o->len, s, n < o->cap - o->len ? n : o->cap - o->len);
    o->len += n;
}

/* Copies s up to its first `stop` (or its end) as far as there is room, counts all of it, and
 * returns its length. The pieces are names and runs of a format's text, a few dozen characters:
 * one pass here, where strchr or strlen and then memcpy would be two library calls. */
static size_t copy_until(out *o, const char *s, char stop)
{
    size_t room = o->len < o->cap ? o->cap - o->len : 0, n = 0;
    if (room)
        for (char *d = o->buf + o->len; n < room && s[n] && s[n] != stop; n++) d[n] = s[n];
    while (s[n] && s[n] != stop) n++; /* out of room: only counted */
    o->len += n;
    return n;
}

/* Digits of v in base 10 or 16, written backwards from end; returns the first. */
static char *digits(char *end, unsigned long long v, unsigned base)
{
    do {
        *--end = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    return end;
}

static void put_signed(out *o, long long v)
{
    /* The magnitude as unsigned, so LLONG_MIN has one too. */
    unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    char tmp[24], *end = tmp + sizeof tmp, *p = digits(end, m, 10);
    if (v < 0) *--p = '-';
    put(o, p, (size_t)(end - p));
}

/* A %g: integers (the usual scale, range or default in a schema) as their digits, which is
 * what %.Ng prints for them when N >= 16; anything else through snprintf. */
static void put_general(out *o, double v, int precision)
{
    if (precision >= 16 && v > -1e15 && v < 1e15 && v == (double)(long long)v && !(v == 0 && signbit(v))) {
        put_signed(o, (long long)v);
        return;
    }
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, "%.*g", precision, v);
    put(o, tmp, n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Formats one conversion at *fmt (just past the '%'): %% and %c; %s, with a precision too;
 * %d, %i, %u and %x with an l, ll or z size, the unsigned ones also zero-padded to a width;
 * %g with a precision; %f with a precision, for whole numbers. Returns false for anything else, which vsnprintf then formats. */
static bool convert(out *o, const char **fmt, va_list *ap)
{
    const char *f = *fmt;
    bool zero = *f == '0';
    if (zero) f++;
    size_t width = 0;
    while (*f >= '0' && *f <= '9') width = width * 10 + (size_t)(*f++ - '0');
    int precision = -1;
    if (*f == '.') {
        f++;
        if (*f == '*') {
            precision = va_arg(*ap, int);
            f++;
        } else {
            precision = 0;
            while (*f >= '0' && *f <= '9') precision = precision * 10 + (*f++ - '0');
        }
    }
    int size = 0; /* 0: int, 1: long, 2: long long, 3: size_t */
    if (f[0] == 'l' && f[1] == 'l') size = 2, f += 2;
    else if (f[0] == 'l') size = 1, f++;
    else if (f[0] == 'z') size = 3, f++;
    char c = *f++;
    bool plain = !zero && width == 0 && precision < 0;
    switch (c) {
    case '%':
        if (!plain || size) return false;
        put(o, "%", 1);
        break;
    case 's': {
        if (zero || width || size) return false;
        const char *s = va_arg(*ap, const char *);
        if (!s) s = "(null)";
        size_t n = 0;
        if (precision < 0) n = strlen(s);
        else while (n < (size_t)precision && s[n]) n++;
        put(o, s, n);
        break;
    }
    case 'c': {
        if (!plain || size) return false;
        char ch = (char)va_arg(*ap, int);
        put(o, &ch, 1);
        break;
    }
    case 'd':
    case 'i':
        if (!plain || size == 3) return false; /* %zd: the signed size_t has no portable name */
        put_signed(o, size == 0 ? va_arg(*ap, int) : size == 1 ? va_arg(*ap, long) : va_arg(*ap, long long));
        break;
    case 'u':
    case 'x': {
        if (precision >= 0 || (width && !zero) || width > 20) return false;
        unsigned long long v = size == 0 ? va_arg(*ap, unsigned)
                             : size == 1 ? va_arg(*ap, unsigned long)
                             : size == 2 ? va_arg(*ap, unsigned long long)
                                         : va_arg(*ap, size_t);
        char tmp[24], *end = tmp + sizeof tmp, *p = digits(end, v, c == 'u' ? 10u : 16u);
        while ((size_t)(end - p) < width) *--p = '0';
        put(o, p, (size_t)(end - p));
        break;
    }
    case 'f': {
        /* Only whole numbers (the usual default or bound): their digits, the point, p zeros. */
        if (zero || width || size || precision < 0 || precision > 17) return false;
        double v = va_arg(*ap, double);
        if (!(v > -1e15 && v < 1e15) || v != (double)(long long)v) return false;
        if (v == 0 && signbit(v)) put(o, "-", 1);
        put_signed(o, (long long)v);
        if (precision > 0) put(o, ".00000000000000000", (size_t)precision + 1);
        break;
    }
    case 'g':
        if (zero || width || size || precision < 0 || precision > 40) return false; /* 40: put_general's room */
        put_general(o, va_arg(*ap, double), precision);
        break;
    default:
        return false;
    }
    *fmt = f;
    return true;
}

size_t nsc_text_vformat(char *buf, size_t cap, const char *fmt, va_list ap)
{
    va_list args, again;
    va_copy(args, ap);
    va_copy(again, ap);
    out o = {buf, cap, 0};
    const char *f = fmt;
    bool ok = true;
    while (ok && *f) {
        if (*f != '%') { /* the format's own text, up to its next conversion */
            f += copy_until(&o, f, '%');
            continue;
        }
        if (f[1] == 's') { /* the emitters' most common conversion by far: no flags to parse */
            const char *arg = va_arg(args, const char *);
            copy_until(&o, arg ? arg : "(null)", '\0');
            f += 2;
            continue;
        }
        f++;
        ok = convert(&o, &f, &args);
    }
    va_end(args);
    if (!ok) {
        int n = vsnprintf(buf, cap, fmt, again);
        va_end(again);
        return n < 0 ? 0 : (size_t)n;
    }
    va_end(again);
    if (cap) buf[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}
