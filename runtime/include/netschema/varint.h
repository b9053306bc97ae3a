/* netschema/varint.h — byte-aligned LEB128 varints for headers and batching.
 *
 * Seven value bits per byte, least significant group first, high bit set on every byte but the
 * last. Decoding rejects truncated input, encodings longer than the type allows, and overlong
 * (non-minimal) encodings, so every value has exactly one encoding. */
#ifndef NETSCHEMA_VARINT_H
#define NETSCHEMA_VARINT_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NS_VARINT_MAX_BYTES   10   /* longest encoding of a uint64_t */
#define NS_VARINT32_MAX_BYTES 5    /* longest encoding of a uint32_t */

/* Bytes the encoding of v takes (1..10). */
size_t ns_varint_size(uint64_t v);

/* Encodes v into out (capacity cap); returns the bytes written, or 0 if it does not fit. */
size_t ns_varint_encode(uint8_t *out, size_t cap, uint64_t v);

/* Decodes one varint from in (len bytes) into *v and the bytes it took into *used. Returns
 * NS_ERR_TRUNCATED or NS_ERR_MALFORMED (overlong, over 64 bits) with *v = 0 and *used = 0. */
ns_status ns_varint_decode(const uint8_t *in, size_t len, uint64_t *v, size_t *used);

/* As ns_varint_decode, for values that must fit 32 bits (at most 5 bytes). */
ns_status ns_varint_decode_u32(const uint8_t *in, size_t len, uint32_t *v, size_t *used);

/* Aligns the writer to a byte and writes v as a varint. */
void ns_write_varint(ns_writer *w, uint64_t v);

/* Aligns the reader to a byte and reads a varint; on error fails the reader and returns 0. */
uint64_t ns_read_varint(ns_reader *r);

#ifdef __cplusplus
}
#endif
#endif
