/* text.c — string and bytes fields: prefix-sharing deltas, UTF-8 checks, safe copies. */
#include "netschema/text.h"

#include <string.h>

#include "netschema/packed.h"

size_t ns_strnlen(const char *s, size_t cap)
{
    const char *nul = memchr(s, '\0', cap);
    return nul ? (size_t)(nul - s) : cap;
}

size_t ns_utf8_decode(const char *str, size_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0) return 0;
    unsigned char c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) len = 1, v = c, min = 0;
    else if (c >= 0xc2 && c <= 0xdf) len = 2, v = c & 0x1fu, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) len = 3, v = c & 0x0fu, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, v = c & 0x07u, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return len;
}

/* Length of the valid UTF-8 character at s (n bytes available), or 0 (also for NUL, which
 * ends a string field). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    uint32_t cp;
    return s[0] ? ns_utf8_decode((const char *)s, n, &cp) : 0;
}

bool ns_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (p[i] >= 0x01 && p[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = utf8_len(p + i, n - i);
        if (!len) return false;
        i += len;
    }
    return true;
}

/* ns_string_sanitize's walk over src: each whole, valid character that fits in cap bytes is
 * copied to dst (may be src, or before it: out <= i) or, with dst NULL, compared with have.
 * Returns the sanitized length, or SIZE_MAX at the first byte that differs from have. */
static size_t sanitize_walk(char *dst, const char *have, size_t cap, const char *src, size_t src_cap)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = ns_strnlen(src, src_cap), out = 0;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_len(s + i, n - i);
        if (!len) {
            i++; /* drop a stray byte */
            continue;
        }
        if (out + len > cap) break;
        if (dst) memmove(dst + out, s + i, len);
        else if (memcmp(have + out, s + i, len) != 0) return SIZE_MAX;
        out += len;
        i += len;
    }
    return out;
}

size_t ns_string_sanitize(char *dst, size_t cap, const char *src, size_t src_cap)
{
    const size_t out = sanitize_walk(dst, NULL, cap, src, src_cap);
    dst[out] = '\0';
    return out;
}

bool ns_string_sanitize_equal(const char *have, size_t cap, const char *src, size_t src_cap)
{
    const size_t out = sanitize_walk(NULL, have, cap, src, src_cap);
    return out != SIZE_MAX && have[out] == '\0';
}

void ns_write_text(ns_writer *w, const uint8_t *cur, size_t cur_len, const uint8_t *ref, size_t ref_len)
{
    size_t prefix = 0, limit = cur_len < ref_len ? cur_len : ref_len;
    while (prefix < limit && cur[prefix] == ref[prefix]) prefix++;
    ns_write_packed_u32(w, (uint32_t)prefix, NULL);
    ns_write_packed_u32(w, (uint32_t)(cur_len - prefix), NULL);
    for (size_t i = prefix; i < cur_len; i++) ns__writer_put(w, cur[i], 8);
}

size_t ns_read_text(ns_reader *r, uint8_t *out, size_t cap, const uint8_t *ref, size_t ref_len)
{
    uint32_t prefix = ns_read_packed_u32(r, NULL);
    uint32_t rest = ns_read_packed_u32(r, NULL);
    if (ns_reader_failed(r)) return 0;
    if (prefix > ref_len || prefix > cap || rest > cap - prefix) {
        ns_reader_fail(r, NS_ERR_RANGE);
        return 0;
    }
    if ((size_t)rest * 8 > ns_reader_remaining_bits(r)) {
        ns_reader_fail(r, NS_ERR_TRUNCATED);
        return 0;
    }
    if (prefix) memmove(out, ref, prefix);
    for (uint32_t i = 0; i < rest; i++) out[prefix + i] = (uint8_t)ns_read_bits(r, 8);
    return prefix + rest;
}

void ns_write_string(ns_writer *w, const char *cur, const char *ref, size_t cap)
{
    ns_write_text(w, (const uint8_t *)cur, ns_strnlen(cur, cap), (const uint8_t *)ref, ns_strnlen(ref, cap));
}

void ns_read_string(ns_reader *r, char *out, const char *ref, size_t cap)
{
    size_t ref_len = ns_strnlen(ref, cap);
    size_t n = ns_read_text(r, (uint8_t *)out, cap, (const uint8_t *)ref, ref_len);
    if (!ns_reader_failed(r) && !ns_utf8_valid(out, n)) ns_reader_fail(r, NS_ERR_MALFORMED);
    if (ns_reader_failed(r)) {
        if (out != ref) memmove(out, ref, ref_len);
        n = ref_len;
    }
    out[n] = '\0';
}
