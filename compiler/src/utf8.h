/* utf8.h — strict UTF-8 decoding and display widths for diagnostics. */
#ifndef NSC_UTF8_H
#define NSC_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one code point from s (n bytes available). Returns its length in bytes (1..4) and the
 * code point in *cp, or 0 if the bytes there are not valid UTF-8 (overlong forms, surrogates and
 * values above U+10FFFF are invalid). */
size_t nsc_utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Terminal columns a code point takes: 2 for East Asian wide and fullwidth forms, else 1. */
unsigned nsc_codepoint_width(uint32_t cp);

/* Offset of the first invalid UTF-8 sequence in s, or n if all of it is valid. */
size_t nsc_utf8_first_invalid(const char *s, size_t n);

#endif
