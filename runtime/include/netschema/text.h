/* netschema/text.h — string<N> and bytes<N> fields on the wire.
 *
 * A changed value is coded against its reference as: packed(common prefix length),
 * packed(length − prefix), then the remaining bytes, 8 bits each. Editing the end of a name
 * ("Player1" → "Player2") costs a few bits plus the changed tail; an unrelated value costs 2
 * bits more than a plain length prefix. Readers check every length against the capacity and the
 * reference; strings must be valid UTF-8 without NUL bytes. */
#ifndef NETSCHEMA_TEXT_H
#define NETSCHEMA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Length of s, at most cap bytes (s need not be NUL-terminated within cap). */
size_t ns_strnlen(const char *s, size_t cap);

/* Copies src (up to src_cap bytes or its NUL) into dst, which holds cap bytes plus a NUL:
 * stops at cap bytes, never splits a UTF-8 sequence, and replaces invalid UTF-8 by nothing
 * (drops it). Returns the length copied. dst may be src, or lie before it: sanitizes in place. */
size_t ns_string_sanitize(char *dst, size_t cap, const char *src, size_t src_cap);

/* True if the string ns_string_sanitize(dst, cap, src, src_cap) would write equals the string
 * have (cap bytes plus a NUL), as strncmp over cap + 1 bytes decides: a setter's change test
 * without a scratch copy. */
bool ns_string_sanitize_equal(const char *have, size_t cap, const char *src, size_t src_cap);

/* True if s[0..n) is valid UTF-8 without NUL bytes. */
bool ns_utf8_valid(const char *s, size_t n);

/* Decodes one code point from s (n bytes available): its length in bytes (1..4) and the code
 * point in *cp, or 0 if the bytes there are not valid UTF-8 (strict RFC 3629: no overlong forms,
 * surrogates or values above U+10FFFF). A NUL byte decodes as U+0000. */
size_t ns_utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Writes cur (length cur_len) against ref (length ref_len). */
void ns_write_text(ns_writer *w, const uint8_t *cur, size_t cur_len, const uint8_t *ref, size_t ref_len);

/* Reads a value written by ns_write_text into out (room for cap bytes) and returns its length.
 * Rejects lengths over cap or a prefix longer than the reference. */
size_t ns_read_text(ns_reader *r, uint8_t *out, size_t cap, const uint8_t *ref, size_t ref_len);

/* Writes/reads a NUL-terminated string<cap> field (out holds cap + 1 bytes). The reader fails
 * with NS_ERR_MALFORMED on NUL bytes or invalid UTF-8 and then leaves out = ref. */
void ns_write_string(ns_writer *w, const char *cur, const char *ref, size_t cap);
void ns_read_string(ns_reader *r, char *out, const char *ref, size_t cap);

/* Bits ns_write_text needs at most for a capacity. */
#define NS_TEXT_MAX_BITS(cap, cost_of_cap) (2u * (cost_of_cap) + 8u * (cap))

#ifdef __cplusplus
}
#endif
#endif
