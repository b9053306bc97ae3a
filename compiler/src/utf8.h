/* utf8.h — display widths and validity scans of UTF-8 for diagnostics (decoding: ns_utf8_decode). */
#ifndef NSC_UTF8_H
#define NSC_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include <netschema/text.h> /* ns_utf8_decode: the runtime's strict decoder, shared */

/* Terminal columns a code point takes: 2 for East Asian wide and fullwidth forms, else 1. */
unsigned nsc_codepoint_width(uint32_t cp);

/* Offset of the first invalid UTF-8 sequence in s, or n if all of it is valid. */
size_t nsc_utf8_first_invalid(const char *s, size_t n);

#endif
