/* hand_codec.h — a hand-written codec for bench.netschema's Transform and Health: the yardstick
 * bench_components times the generated serializers against.
 *
 * It writes exactly the bytes bench_Transform_write / bench_Health_write write (docs/wire.md:
 * change bits, the three-baseline prediction clamped into each slot's range, the default packed
 * model) and reads them back as the generated _read functions do, with the same error statuses.
 * It is written the way a programmer who knew this one schema would write it for speed: one
 * 64-bit accumulator per writer, the predictor inlined, one room check per record instead of one
 * per bit. bench/hand_codec_test.c holds it byte-for-byte to the generated code.
 *
 * The audience is ignored: neither component has @sync fields, so both audiences get every
 * slot. Baselines are the generated code's ns_baselines. */
#ifndef NS_BENCH_HAND_CODEC_H
#define NS_BENCH_HAND_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bench.ns.h"

/* A bit writer: the bytes are those ns_writer would produce for the same records. */
typedef struct hand_writer {
    uint8_t  *p, *start, *end; /* next whole byte, buffer start, one past the buffer */
    uint64_t  acc;             /* pending bits (0..7 of them), least significant first */
    unsigned  nacc;
    ns_status status;          /* NS_OK or NS_ERR_OVERFLOW, sticky */
} hand_writer;

/* A bit reader over len bytes. */
typedef struct hand_reader {
    const uint8_t *buf;
    size_t    len;
    size_t    bit;             /* bits consumed */
    ns_status status;          /* NS_OK or the first error, sticky */
} hand_reader;

void hand_writer_init(hand_writer *w, void *buf, size_t cap);
/* Pads to a byte; returns the bytes used (never more than the capacity). */
size_t hand_writer_flush(hand_writer *w);
void hand_reader_init(hand_reader *r, const void *buf, size_t len);

/* As bench_Transform_write / bench_Health_write (and the same status on error). */
ns_status hand_Transform_write(hand_writer *w, const bench_Transform_snap *cur, const ns_baselines *base);
ns_status hand_Health_write(hand_writer *w, const bench_Health_snap *cur, const ns_baselines *base);

/* As bench_Transform_read / bench_Health_read: on error *out is left alone and the reader stays
 * failed with the status the generated reader would report. */
ns_status hand_Transform_read(hand_reader *r, bench_Transform_snap *out, const ns_baselines *base);
ns_status hand_Health_read(hand_reader *r, bench_Health_snap *out, const ns_baselines *base);

/* As bench_Transform_quantize / bench_Health_quantize: the same snapshot for every input, NaN
 * and infinities included. */
void hand_Transform_quantize(const bench_Transform *v, bench_Transform_snap *s);
void hand_Health_quantize(const bench_Health *v, bench_Health_snap *s);

#endif
