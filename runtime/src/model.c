/* model.c — building packed-integer models: bucket ranges, canonical prefix codes and the
 * decoder's 6-bit peek table. The default model itself lives in default_model.c. */
#include "netschema/packed.h"

#include <string.h>

/* Reverses the low n bits of c: canonical codes are MSB-first, the stream is LSB-first. */
static uint16_t reverse_bits(uint16_t c, unsigned n)
{
    uint16_t r = 0;
    for (unsigned i = 0; i < n; i++) r = (uint16_t)((r << 1) | ((c >> i) & 1u));
    return r;
}

/* Offsets and limits from raw bits; fails unless the buckets reach 2^32 − 1. */
static ns_status init_ranges(ns_model *m, const uint8_t raw_bits[NS_MODEL_BUCKETS])
{
    uint64_t next = 0;
    for (unsigned b = 0; b < NS_MODEL_BUCKETS; b++) {
        if (raw_bits[b] > 32 || next > 0xffffffffu) return NS_ERR_ARGUMENT;
        m->offset[b] = (uint32_t)next;
        m->raw_bits[b] = raw_bits[b];
        next += (uint64_t)1 << raw_bits[b];
        m->limit[b] = next > 0x100000000u ? 0x100000000u : next;
    }
    return next >= 0x100000000u ? NS_OK : NS_ERR_ARGUMENT;
}

/* Canonical codes in (length, bucket) order; fails if the lengths do not form a prefix code. */
static ns_status init_codes(ns_model *m, const uint8_t code_len[NS_MODEL_BUCKETS])
{
    unsigned code = 0, prev_len = 0;
    uint32_t kraft = 0; /* in units of 2^-6 */
    for (unsigned len = 1; len <= NS_MODEL_MAX_CODE_LEN; len++) {
        for (unsigned b = 0; b < NS_MODEL_BUCKETS; b++) {
            if (code_len[b] != len) continue;
            if (prev_len) code = (code + 1) << (len - prev_len);
            prev_len = len;
            if (code >> len) return NS_ERR_ARGUMENT;
            m->code[b] = reverse_bits((uint16_t)code, len);
            m->code_len[b] = (uint8_t)len;
            kraft += 1u << (NS_MODEL_MAX_CODE_LEN - len);
        }
    }
    for (unsigned b = 0; b < NS_MODEL_BUCKETS; b++)
        if (code_len[b] < 1 || code_len[b] > NS_MODEL_MAX_CODE_LEN) return NS_ERR_ARGUMENT;
    return kraft <= 64 ? NS_OK : NS_ERR_ARGUMENT;
}

static void init_tables(ns_model *m)
{
    for (unsigned p = 0; p < 64; p++) {
        m->decode[p] = NS__DECODE_NONE;
        for (unsigned b = 0; b < NS_MODEL_BUCKETS; b++) {
            if ((p & ((1u << m->code_len[b]) - 1u)) == m->code[b]) {
                m->decode[p] = NS__DECODE(b, m->code_len[b], m->raw_bits[b]);
                break;
            }
        }
    }
    for (uint32_t v = 0; v < 256; v++) {
        unsigned b = ns__model_bucket(m, v);
        unsigned total = m->code_len[b] + m->raw_bits[b];
        m->encode_small[v] = (m->code[b] | ((v - m->offset[b]) << m->code_len[b])) | total << 16;
    }
}

static void init_first_bucket(ns_model *m)
{
    m->first_bucket[0] = 0;
    for (unsigned n = 1; n <= 32; n++) {
        uint64_t lowest = (uint64_t)1 << (n - 1);
        unsigned b = 0;
        while (lowest >= m->limit[b]) b++;
        m->first_bucket[n] = (uint8_t)b;
    }
}

ns_status ns_model_init(ns_model *m, const uint8_t raw_bits[NS_MODEL_BUCKETS],
                        const uint8_t code_len[NS_MODEL_BUCKETS])
{
    memset(m, 0, sizeof *m);
    ns_status s = init_ranges(m, raw_bits);
    if (s == NS_OK) s = init_codes(m, code_len);
    if (s != NS_OK) return s;
    init_first_bucket(m);
    init_tables(m);
    return NS_OK;
}

unsigned ns_packed_u32_cost(uint32_t v, const ns_model *m)
{
    if (!m) m = &ns_default_model;
    unsigned b = ns__model_bucket(m, v);
    return (unsigned)m->code_len[b] + m->raw_bits[b];
}
