/* varint.c — LEB128 varints with strict decoding (no truncation, no overlong forms). */
#include "netschema/varint.h"

size_t ns_varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80u) {
        v >>= 7;
        n++;
    }
    return n;
}

size_t ns_varint_encode(uint8_t *out, size_t cap, uint64_t v)
{
    size_t n = ns_varint_size(v);
    if (n > cap) return 0;
    for (size_t i = 0; i + 1 < n; i++) {
        out[i] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    out[n - 1] = (uint8_t)v;
    return n;
}

static ns_status decode(const uint8_t *in, size_t len, size_t max_bytes, uint64_t *v, size_t *used)
{
    uint64_t value = 0;
    *v = 0;
    *used = 0;
    for (size_t i = 0; i < max_bytes; i++) {
        if (i >= len) return NS_ERR_TRUNCATED;
        uint8_t byte = in[i];
        unsigned shift = (unsigned)(7 * i);
        uint64_t group = byte & 0x7fu;
        /* The last group may only hold the bits that are left of a 64-bit value. */
        if (shift > 57 && (group >> (64 - shift)) != 0) return NS_ERR_MALFORMED;
        value |= group << shift;
        if (!(byte & 0x80u)) {
            /* A zero last byte after others means the value had a shorter encoding. */
            if (byte == 0 && i > 0) return NS_ERR_MALFORMED;
            *v = value;
            *used = i + 1;
            return NS_OK;
        }
    }
    return NS_ERR_MALFORMED;
}

ns_status ns_varint_decode(const uint8_t *in, size_t len, uint64_t *v, size_t *used)
{
    return decode(in, len, NS_VARINT_MAX_BYTES, v, used);
}

ns_status ns_varint_decode_u32(const uint8_t *in, size_t len, uint32_t *v, size_t *used)
{
    uint64_t wide;
    ns_status s = decode(in, len, NS_VARINT32_MAX_BYTES, &wide, used);
    if (s == NS_OK && wide > 0xffffffffu) {
        s = NS_ERR_MALFORMED;
        *used = 0;
    }
    *v = s == NS_OK ? (uint32_t)wide : 0;
    return s;
}

void ns_write_varint(ns_writer *w, uint64_t v)
{
    uint8_t tmp[NS_VARINT_MAX_BYTES];
    size_t n = ns_varint_encode(tmp, sizeof tmp, v);
    ns_write_bytes(w, tmp, n);
}

uint64_t ns_read_varint(ns_reader *r)
{
    ns_reader_align(r);
    if (r->pos >= r->len) return ns_reader_fail(r, NS_ERR_TRUNCATED);
    uint64_t v;
    size_t used;
    ns_status s = ns_varint_decode(r->buf + r->pos, r->len - r->pos, &v, &used);
    if (s != NS_OK) return ns_reader_fail(r, s);
    r->pos += used;
    return v;
}
