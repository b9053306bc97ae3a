/* utf8.c — a small East Asian width table, and finding invalid UTF-8 (with the runtime's decoder). */
#include "utf8.h"

unsigned nsc_codepoint_width(uint32_t cp)
{
    /* The wide ranges of Unicode's EastAsianWidth (W and F), coarsely. */
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) ||
        (cp >= 0x3041 && cp <= 0x33ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
        (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
        (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
        return 2;
    return 1;
}

size_t nsc_utf8_first_invalid(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = ns_utf8_decode(s + i, n - i, &cp);
        if (len == 0) return i;
        i += len;
    }
    return n;
}
