/* netschema/entropy.h — the entropy coding mode (@model(entropy)): an adaptive binary range coder and a
 * descriptor-driven coder that writes many entities of one type into one packet with per-slot
 * context models. The packed model (codec.h, wire format 1) stays the default and is untouched;
 * this mode is a separate packet format chosen by the application.
 *
 * A packet is range-coded bits only: the models start from their priors at the start of every
 * packet, so each packet decodes on its own given its baselines. Per entity: one "any slot
 * changed" bit; per slot a change bit whose context is the same slot of the previous entity,
 * whether an earlier slot of this entity changed, and (with two or more baselines) whether the
 * slot moved between baselines 0 and 1; per changed value the bit length of the delta (a
 * 16-leaf bit tree, escape above 14) in a context of the largest bit length of the entity's
 * deltas so far, its top mantissa bit modelled per length, its other mantissa bits at p = 1/2, and a
 * sign modelled on the previous delta's sign and the baseline motion. With three baselines,
 * slots marked NS_FIELD_PREDICTED are coded against the linear prediction (predict.h).
 *
 * Slots it codes: bool, integers (NS_ENC_INT, NS_ENC_INT64, NS_ENC_RAW) and quantized floats,
 * vectors and quaternions (NS_ENC_QUANT, NS_ENC_VEC_Q, NS_ENC_QUAT_Q). A type with any other
 * slot (strings, collections, unquantized floats, smallest-three, composite structs) is
 * refused with NS_ERR_ARGUMENT; @initial slots are not sent (as in a delta of wire format 1).
 * The mode has no audience: it codes only @sync(all) slots, and the others (owner-only,
 * others-only, none) keep baseline 0's value, so nothing private reaches every receiver.
 * Every entity needs at least one baseline. A decoded enum must be a declared value.
 *
 * The packet carries no redundancy: its exact length is part of it. A packet cut short or
 * with bytes appended may decode to other values without an error, so carry it whole (a
 * datagram, or a frame with its length and an integrity check). docs/wire.md section 14 has
 * the format. */
#ifndef NETSCHEMA_ENTROPY_H
#define NETSCHEMA_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

#include "baselines.h"
#include "desc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the binary range coder (LZMA style: 12-bit probabilities, carry propagation) ---- */

#define NS_RC_PROB_BITS 12
#define NS_RC_PROB_INIT (1u << (NS_RC_PROB_BITS - 1))

typedef struct ns_rc_encoder {
    uint8_t  *buf;
    size_t    cap, pos;
    uint64_t  low;
    uint32_t  range;
    uint8_t   cache;
    uint64_t  pending;   /* bytes held back for a carry (0xff runs), plus the cache byte */
    int       first;     /* the first output byte is always 0: it is not written */
    ns_status status;
} ns_rc_encoder;

typedef struct ns_rc_decoder {
    const uint8_t *buf;
    size_t         len, pos;
    uint32_t       range, code;
    size_t         overrun; /* bytes read past the end (read as 0) */
} ns_rc_decoder;

#define NS_RC_TOP (1u << 24)
#define NS_RC_ADAPT 4 /* probabilities move 1/16 of the way per bit */

void   ns_rc_encoder_init(ns_rc_encoder *e, void *buf, size_t cap);
/* Moves the top byte out of low (the carry-propagating step). */
void   ns__rc_shift_low(ns_rc_encoder *e);
/* Flushes; returns the packet length in bytes (trailing zero bytes dropped: the decoder reads
 * zeros past the end), or 0 with status NS_ERR_OVERFLOW if it did not fit. */
size_t ns_rc_encoder_finish(ns_rc_encoder *e);

/* Codes bit with probability *p (of a 0, in 1/4096) and adapts *p. Inline: called per bit. */
static inline void ns_rc_encode(ns_rc_encoder *e, uint16_t *p, unsigned bit)
{
    uint32_t bound = (e->range >> NS_RC_PROB_BITS) * *p;
    if (!bit) {
        e->range = bound;
        *p = (uint16_t)(*p + (((1u << NS_RC_PROB_BITS) - *p) >> NS_RC_ADAPT));
    } else {
        e->low += bound;
        e->range -= bound;
        *p = (uint16_t)(*p - (*p >> NS_RC_ADAPT));
    }
    while (e->range < NS_RC_TOP) {
        e->range <<= 8;
        ns__rc_shift_low(e);
    }
}

/* Codes bit at probability 1/2, no model. */
static inline void ns_rc_encode_direct(ns_rc_encoder *e, unsigned bit)
{
    e->range >>= 1;
    if (bit) e->low += e->range;
    while (e->range < NS_RC_TOP) {
        e->range <<= 8;
        ns__rc_shift_low(e);
    }
}

/* Starts decoding the len bytes at buf. Bytes past the end read as 0 and are counted in
 * d->overrun; ns_rc_decoder_status tells whether more were read than an encoder drops. */
void ns_rc_decoder_init(ns_rc_decoder *d, const void *buf, size_t len);

static inline uint32_t ns__rc_in_byte(ns_rc_decoder *d)
{
    if (d->pos < d->len) return d->buf[d->pos++];
    d->overrun++;
    return 0;
}

static inline unsigned ns_rc_decode(ns_rc_decoder *d, uint16_t *p)
{
    uint32_t bound = (d->range >> NS_RC_PROB_BITS) * *p;
    unsigned bit;
    if (d->code < bound) {
        d->range = bound;
        *p = (uint16_t)(*p + (((1u << NS_RC_PROB_BITS) - *p) >> NS_RC_ADAPT));
        bit = 0;
    } else {
        d->code -= bound;
        d->range -= bound;
        *p = (uint16_t)(*p - (*p >> NS_RC_ADAPT));
        bit = 1;
    }
    while (d->range < NS_RC_TOP) {
        d->range <<= 8;
        d->code = (d->code << 8) | ns__rc_in_byte(d);
    }
    return bit;
}

static inline unsigned ns_rc_decode_direct(ns_rc_decoder *d)
{
    d->range >>= 1;
    unsigned bit = d->code >= d->range;
    if (bit) d->code -= d->range;
    while (d->range < NS_RC_TOP) {
        d->range <<= 8;
        d->code = (d->code << 8) | ns__rc_in_byte(d);
    }
    return bit;
}

/* NS_OK, or NS_ERR_TRUNCATED if the decoder read further past the end than a finished
 * encoder's dropped zeros can explain. */
ns_status ns_rc_decoder_status(const ns_rc_decoder *d);

/* ---- the component coder ---- */

#define NS_ENTROPY_MAX_CHANNELS 32 /* values per entity: a vec3 is three */
#define NS_ENTROPY_NB_CTX 6         /* contexts of a bit length: the entity's largest delta so far */
#define NS_ENTROPY_NB_LEAVES 16

/* The adaptive models of one value channel. */
typedef struct ns_entropy_channel_model {
    uint16_t change[2][2][2];                                    /* prev entity, earlier slot, moved */
    uint16_t nbits[NS_ENTROPY_NB_CTX][2][NS_ENTROPY_NB_LEAVES]; /* context, moved, tree node */
    uint16_t escape[6];                                          /* bit lengths 15..64 */
    uint16_t top[65];                                            /* first mantissa bit per length */
    uint16_t sign[3][3];                                         /* previous sign, motion sign */
} ns_entropy_channel_model;

/* Every probability of a type's models, in one block: the unit a prior holds. */
typedef struct ns_entropy_models {
    uint16_t                 any[2][2];                          /* prev entity any, moved */
    ns_entropy_channel_model ch[NS_ENTROPY_MAX_CHANNELS];
} ns_entropy_models;

#define NS_ENTROPY_PROBS_PER_CHANNEL (sizeof(ns_entropy_channel_model) / sizeof(uint16_t))
#define NS_ENTROPY_MAX_PROBS (4 + NS_ENTROPY_MAX_CHANNELS * NS_ENTROPY_PROBS_PER_CHANNEL)

/* The largest snapshot the entropy mode codes (t->snap_size): ns_entropy_read checks a whole
 * packet in a scratch snapshot of this size before it writes any of its output. */
#define NS_ENTROPY_MAX_SNAP 1024

/* The models and per-type layout; caller-owned scratch (no allocation, no global state). Treat
 * the members as private. */
typedef struct ns_entropy_work {
    const ns_type_desc *type;
    uint32_t            channels;
    ns_entropy_models   m;
    uint64_t            snap[NS_ENTROPY_MAX_SNAP / 8]; /* ns_entropy_read's checking pass */
} ns_entropy_work;

/* Trained starting probabilities for one type (instead of 1/2 everywhere): made by
 * ns_entropy_train / ns_entropy_prior_make, stored by ns_entropy_prior_save, checked and read
 * back by ns_entropy_prior_load. */
typedef struct ns_entropy_prior {
    uint64_t type_hash; /* the protocol hash of the type it was trained for */
    uint64_t hash;      /* FNV-1a 64 of its file: ns_entropy_protocol_hash folds it in */
    uint32_t channels;
    uint32_t count;     /* probabilities: 4 + channels * NS_ENTROPY_PROBS_PER_CHANNEL */
    uint16_t prob[NS_ENTROPY_MAX_PROBS];
} ns_entropy_prior;

/* Bit counts per probability, summed over the packets a trainer has seen. */
typedef struct ns_entropy_trainer {
    const ns_type_desc *type;
    uint32_t            channels;
    uint64_t            n[NS_ENTROPY_MAX_PROBS][2];
    ns_entropy_work     work;
} ns_entropy_trainer;

/* Codes count entities of type t: snapshots snaps[0..count) (t->snap_size apart, at most
 * NS_ENTROPY_MAX_SNAP bytes, else NS_ERR_ARGUMENT), entity k against base[k] (1 to 3 baselines). prior: trained starting probabilities, or NULL for 1/2.
 * A value outside its slot's @range (or a bool other than 0/1) is NS_ERR_RANGE.
 * *len receives the packet length. cost_bits, when not NULL, receives the information content
 * of the coded bits per slot (t->field_count entries) plus one more for the change bits: it
 * costs a log2 per bit, so measure time without it. */
ns_status ns_entropy_write(const ns_type_desc *t, const void *snaps, const ns_baselines *base, size_t count,
                           ns_entropy_work *work, const ns_entropy_prior *prior, void *buf, size_t cap, size_t *len,
                           double *cost_bits);

/* Decodes a packet of ns_entropy_write into out[0..count) with the same baselines and prior.
 * A packet that is truncated, or decodes a value outside a slot's @range, or a bool other
 * than 0/1, fails (NS_ERR_TRUNCATED, NS_ERR_RANGE) and leaves out unchanged: the packet is
 * decoded once into scratch to check it, then again into out (twice the decoding time). A
 * prior made for another type is NS_ERR_MISMATCH. */
ns_status ns_entropy_read(const ns_type_desc *t, void *out, const ns_baselines *base, size_t count,
                          ns_entropy_work *work, const ns_entropy_prior *prior, const void *buf, size_t len);

/* Training: ns_entropy_train_init, then ns_entropy_train once per recorded packet (the same
 * arguments as ns_entropy_write), then ns_entropy_prior_make. Integer arithmetic only: the
 * same packets in the same order give the same prior, byte for byte. */
ns_status ns_entropy_train_init(ns_entropy_trainer *tr, const ns_type_desc *t);
ns_status ns_entropy_train(ns_entropy_trainer *tr, const void *snaps, const ns_baselines *base, size_t count);
ns_status ns_entropy_prior_make(const ns_entropy_trainer *tr, ns_entropy_prior *out);

/* The file of a prior: "NSEP", version 1, the type hash, channels, count, the probabilities
 * (u16), then FNV-1a 64 of everything before; all little-endian. Returns its size, or 0 if
 * cap is too small (NS_ENTROPY_PRIOR_FILE_MAX always suffices). */
#define NS_ENTROPY_PRIOR_FILE_MAX (4 + 4 + 8 + 4 + 4 + 2 * NS_ENTROPY_MAX_PROBS + 8)
size_t ns_entropy_prior_save(const ns_entropy_prior *p, void *buf, size_t cap);

/* Reads a prior file for type t. NS_ERR_MALFORMED: not a prior file, or a damaged one (bad
 * magic, version, size, checksum or probability); NS_ERR_MISMATCH: a sound file made for
 * another type or schema. On any error *p is left as it was. */
ns_status ns_entropy_prior_load(ns_entropy_prior *p, const ns_type_desc *t, const void *buf, size_t len);

/* The hash to compare at the handshake when packets use a prior: the schema hash with the
 * prior's hash folded in (FNV-1a over its 8 little-endian bytes); the schema hash itself for
 * NULL. Two builds with different models get different hashes. */
uint64_t ns_entropy_protocol_hash(uint64_t schema_hash, const ns_entropy_prior *p);

#ifdef __cplusplus
}
#endif
#endif
