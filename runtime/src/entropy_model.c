/* entropy_model.c — the entropy mode's component coder (netschema/entropy.h): walks a type's
 * descriptor, and codes each entity's change bits and deltas with context-modelled adaptive
 * binary models over the range coder of entropy_rc.c. Writer and reader share every decision
 * through one `coder` that either encodes or decodes, so they cannot drift apart. */
#include <math.h>
#include <string.h>

#include "netschema/entropy.h"
#include "netschema/platform.h"
#include "netschema/predict.h"

typedef struct chan_info {
    uint32_t slot;      /* field index in the descriptor */
    size_t   offset;    /* in the snapshot */
    unsigned width;     /* bytes: 1, 2, 4, 8 */
    bool     is_signed; /* for ranges and prediction */
    bool     ranged, predicted, is_bool;
    int64_t  lo, hi;
    const ns_enum_desc *enum_type; /* enum fields: a decoded value must be a declared one */
} chan_info;

typedef struct coder {
    ns_entropy_work *w;
    ns_rc_encoder   *enc; /* exactly one of enc, dec */
    ns_rc_decoder   *dec;
    double          *cost;
    double          *cost_slot;
    uint64_t       (*counts)[2]; /* training: bit counts per probability */
} coder;

static double info(const uint16_t *p, unsigned bit)
{
    double p0 = (double)*p / (double)(1u << NS_RC_PROB_BITS);
    return -log2(bit ? 1.0 - p0 : p0);
}

/* Codes one modelled bit (bit is ignored when decoding). enc is a constant at every call site
 * (see run()), so the encoder and the decoder each get their own inlined copy of the coder. */
NS__HOT unsigned bit_m(coder *c, bool enc, uint16_t *p, unsigned bit)
{
    if (enc) {
        if (c->cost_slot) *c->cost_slot += info(p, bit);
        if (c->counts) /* the probability's index: its offset in the models block */
            c->counts[(size_t)((const char *)p - (const char *)&c->w->m) / sizeof *p][bit & 1u]++;
        ns_rc_encode(c->enc, p, bit);
        return bit;
    }
    return ns_rc_decode(c->dec, p);
}

NS__HOT unsigned bit_d(coder *c, bool enc, unsigned bit)
{
    if (enc) {
        if (c->cost_slot) *c->cost_slot += 1.0;
        ns_rc_encode_direct(c->enc, bit);
        return bit;
    }
    return ns_rc_decode_direct(c->dec);
}

static uint64_t width_mask(unsigned width)
{
    return width >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (width * 8)) - 1;
}

NS__HOT int64_t load(const void *snap, const chan_info *ci)
{
    const uint8_t *p = (const uint8_t *)snap + ci->offset;
    uint64_t u = 0;
    switch (ci->width) {
    case 1: u = *p; break;
    case 2: { uint16_t v; memcpy(&v, p, 2); u = v; } break;
    case 4: { uint32_t v; memcpy(&v, p, 4); u = v; } break;
    default: memcpy(&u, p, 8); break;
    }
    if (ci->is_signed && ci->width < 8) {
        uint64_t sign = (uint64_t)1 << (ci->width * 8 - 1);
        u = (u ^ sign) - sign;
    }
    return (int64_t)u;
}

NS__HOT void store(void *snap, const chan_info *ci, uint64_t u)
{
    uint8_t *p = (uint8_t *)snap + ci->offset;
    switch (ci->width) {
    case 1: *p = (uint8_t)u; break;
    case 2: { uint16_t v = (uint16_t)u; memcpy(p, &v, 2); } break;
    case 4: { uint32_t v = (uint32_t)u; memcpy(p, &v, 4); } break;
    default: memcpy(p, &u, 8); break;
    }
}

/* True if v is one of the enum's declared values (a sparse enum has holes in its range). */
static bool declared(const ns_enum_desc *e, int64_t v)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (e->values[i].value == v) return true;
    return false;
}

/* The channels of t, or 0 when t has a slot this mode does not code. */
static uint32_t layout(const ns_type_desc *t, chan_info *ci)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < t->field_count; s++) {
        const ns_field_desc *f = &t->fields[s];
        /* An extern struct's bits are the user's: nothing here can model them. */
        if (f->encoding == NS_ENC_CUSTOM || f->encoding == NS_ENC_UNION) return 0;
        if (f->flags & NS_FIELD_INITIAL) continue;
        /* The mode has no audience: it codes only what every receiver may see, @sync(all) with no
         * condition (predicted, interpolated, custom).
         * Owner-only, others-only and unsent fields keep baseline 0's value, like @initial. */
        if ((f->flags & (NS_FIELD_TO_OWNER | NS_FIELD_TO_OTHERS | NS_FIELD_CONDITIONS)) !=
            (NS_FIELD_TO_OWNER | NS_FIELD_TO_OTHERS))
            continue;
        unsigned comps = 1, width = (unsigned)f->snap_size;
        switch (f->encoding) {
        case NS_ENC_BOOL:
        case NS_ENC_INT:
        case NS_ENC_INT64:
        case NS_ENC_RAW:
        case NS_ENC_QUANT: break;
        case NS_ENC_VEC_Q:
        case NS_ENC_QUAT_Q:
            comps = f->components;
            width = 4;
            if (f->snap_size != (size_t)comps * 4) return 0;
            break;
        default: return 0;
        }
        if (width != 1 && width != 2 && width != 4 && width != 8) return 0;
        for (unsigned k = 0; k < comps; k++) {
            if (n == NS_ENTROPY_MAX_CHANNELS) return 0;
            chan_info *c = &ci[n++];
            c->slot = s;
            c->offset = f->snap_offset + (size_t)k * width;
            c->width = width;
            c->ranged = (f->flags & NS_FIELD_RANGED) != 0;
            c->lo = f->lo, c->hi = f->hi;
            /* Quantized values are int32; integers are signed when their range says so (an
             * unranged integer's deltas are modulo its width, which needs no sign). */
            c->is_signed = f->encoding == NS_ENC_QUANT || f->encoding == NS_ENC_VEC_Q || f->encoding == NS_ENC_QUAT_Q ||
                           (c->ranged && f->lo < 0);
            c->predicted = (f->flags & NS_FIELD_PREDICTED) && (c->ranged || c->is_signed);
            c->is_bool = f->encoding == NS_ENC_BOOL;
            c->enum_type = f->enum_type;
        }
    }
    return n;
}

static size_t prob_count(uint32_t channels)
{
    return 4 + channels * NS_ENTROPY_PROBS_PER_CHANNEL;
}

/* The models at their starting probabilities: the prior's, or 1/2. Only the channels in use
 * are touched. */
static void reset(ns_entropy_work *w, const ns_type_desc *t, uint32_t channels, const ns_entropy_prior *prior)
{
    w->type = t;
    w->channels = channels;
    if (prior) {
        memcpy(&w->m, prior->prob, prob_count(channels) * sizeof(uint16_t));
        return;
    }
    const uint16_t half = NS_RC_PROB_INIT;
    w->m.any[0][0] = w->m.any[0][1] = w->m.any[1][0] = w->m.any[1][1] = half;
    uint16_t block[NS_ENTROPY_PROBS_PER_CHANNEL];
    for (size_t i = 0; i < NS_ENTROPY_PROBS_PER_CHANNEL; i++) block[i] = half;
    for (uint32_t k = 0; k < channels; k++) memcpy(&w->m.ch[k], block, sizeof block);
}

static unsigned bitlen(uint64_t v)
{
    unsigned n = 0;
    while (v) n++, v >>= 1;
    return n;
}

static unsigned nb_class(unsigned nb)
{
    return nb == 0 ? 0 : nb <= 2 ? 1 : nb <= 4 ? 2 : nb <= 6 ? 3 : nb <= 8 ? 4 : 5;
}

/* Codes a delta's magnitude-and-sign. mag = |d| (0 allowed when zero_ok). Returns |d| and
 * sets *neg. */
NS__HOT uint64_t code_delta(coder *c, bool enc, ns_entropy_channel_model *m, unsigned ctx, unsigned moved, unsigned prev_sign,
                           unsigned motion_sign, uint64_t mag, unsigned neg, unsigned *neg_out)
{
    unsigned nb = bitlen(mag);
    /* Bit length 0..14 by a 4-level tree; 15 escapes to 15..64 in 6 more levels. */
    unsigned sym = nb < 15 ? nb : 15, node = 1;
    uint16_t *tree = m->nbits[ctx][moved];
    unsigned got = 0;
    for (int b = 3; b >= 0; b--) {
        unsigned bit = bit_m(c, enc, &tree[node], (sym >> b) & 1u);
        node = node * 2 + bit;
        got = got * 2 + bit;
    }
    if (got == 15) {
        unsigned ext = nb - 15, e = 0;
        for (int b = 5; b >= 0; b--) e = e * 2 + bit_m(c, enc, &m->escape[b], (ext >> b) & 1u);
        got = 15 + e;
        if (got > 64) got = 64; /* a malformed packet: keep the decoder in bounds */
    }
    nb = got;
    if (nb == 0) {
        *neg_out = 0;
        return 0;
    }
    uint64_t v = 1;
    if (nb >= 2) v = v * 2 + bit_m(c, enc, &m->top[nb], (unsigned)(mag >> (nb - 2)) & 1u);
    for (int b = (int)nb - 3; b >= 0; b--) v = v * 2 + bit_d(c, enc, (unsigned)(mag >> b) & 1u);
    *neg_out = bit_m(c, enc, &m->sign[prev_sign][motion_sign], neg);
    return v;
}

/* Writes or reads (c decides) one entity. cur is read when encoding; out written when decoding. */
/* The predictor of the last ticks seen: entities of one packet usually share their ticks. */
typedef struct pred_cache {
    uint32_t     t0, t1, t2, now;
    bool         set;
    ns_predictor pr;
} pred_cache;

static const ns_predictor *predictor(pred_cache *pc, const ns_baselines *b)
{
    if (!pc->set || pc->t0 != b->tick[0] || pc->t1 != b->tick[1] || pc->t2 != b->tick[2] || pc->now != b->tick_now) {
        ns_predictor_init(&pc->pr, b->tick[0], b->tick[1], b->tick[2], b->tick_now);
        pc->t0 = b->tick[0], pc->t1 = b->tick[1], pc->t2 = b->tick[2], pc->now = b->tick_now, pc->set = true;
    }
    return &pc->pr;
}

NS__HOT ns_status entity(coder *c, bool enc, const chan_info *ci, uint32_t nslots, const void *cur, void *out,
                        const ns_baselines *b, pred_cache *pc, unsigned *prev_any, uint8_t *prev_change)
{
    ns_entropy_work *w = c->w;
    const void *b0 = b->snap[0];
    int64_t ref[NS_ENTROPY_MAX_CHANNELS];
    uint8_t motion[NS_ENTROPY_MAX_CHANNELS]; /* baseline 0 against 1: 0 still, 1 up, 2 down */
    int64_t cv[NS_ENTROPY_MAX_CHANNELS];
    unsigned moved_any = 0, any = 0;
    if (b->count == 1) {
        for (uint32_t k = 0; k < w->channels; k++) {
            ref[k] = load(b0, &ci[k]);
            motion[k] = 0;
            if (ci[k].ranged) ref[k] = ref[k] < ci[k].lo ? ci[k].lo : ref[k] > ci[k].hi ? ci[k].hi : ref[k];
        }
    } else {
        const ns_predictor *pr = b->count >= 3 ? predictor(pc, b) : NULL;
        for (uint32_t k = 0; k < w->channels; k++) {
            int64_t v0 = load(b0, &ci[k]), v1 = load(b->snap[1], &ci[k]);
            motion[k] = (uint8_t)(v0 > v1 ? 1 : v0 < v1 ? 2 : 0);
            ref[k] = v0;
            if (pr && ci[k].predicted) {
                int64_t v2 = load(b->snap[2], &ci[k]);
                /* The inline form only for values of 32 bits or less (predict.h). */
                ref[k] = pr->small && ci[k].width <= 4 ? ns__predict_small(pr, v0, v1, v2) : ns_predict_i64(pr, v0, v1, v2);
            }
            if (ci[k].ranged) ref[k] = ref[k] < ci[k].lo ? ci[k].lo : ref[k] > ci[k].hi ? ci[k].hi : ref[k];
            moved_any |= motion[k] != 0;
        }
    }
    if (enc)
        for (uint32_t k = 0; k < w->channels; k++) {
            cv[k] = load(cur, &ci[k]);
            /* As the generated _write: a value outside its range is refused, not sent. */
            if ((ci[k].ranged && (cv[k] < ci[k].lo || cv[k] > ci[k].hi)) || (ci[k].is_bool && (uint64_t)cv[k] > 1))
                return NS_ERR_RANGE;
            any |= (uint64_t)cv[k] != (uint64_t)ref[k];
        }
    c->cost_slot = c->cost ? &c->cost[w->type->field_count] : NULL;
    any = bit_m(c, enc, &w->m.any[*prev_any][moved_any], any);
    *prev_any = any;
    if (!enc)
        for (uint32_t k = 0; k < w->channels; k++) store(out, &ci[k], (uint64_t)ref[k]);
    if (!any) {
        memset(prev_change, 0, w->channels);
        return NS_OK;
    }
    unsigned earlier = 0, prev_nb = 0, prev_sign = 0;
    uint32_t slot_index = 0;
    for (uint32_t k = 0; k < w->channels;) {
        /* One change bit per slot, over all of its channels. */
        uint32_t end = k + 1;
        while (end < w->channels && ci[end].slot == ci[k].slot) end++;
        unsigned moved = 0, changed = 0;
        for (uint32_t j = k; j < end; j++) {
            moved |= motion[j] != 0;
            if (enc) changed |= (uint64_t)cv[j] != (uint64_t)ref[j];
        }
        slot_index++;
        ns_entropy_channel_model *m = &w->m.ch[k];
        c->cost_slot = c->cost ? &c->cost[w->type->field_count] : NULL;
        /* The last slot of an entity with a change and no earlier change must be it. */
        if (slot_index == nslots && !earlier) changed = 1;
        else changed = bit_m(c, enc, &m->change[prev_change[k]][earlier != 0][moved], changed);
        for (uint32_t j = k; j < end; j++) prev_change[j] = (uint8_t)changed;
        earlier += changed;
        if (!changed) {
            k = end;
            continue;
        }
        c->cost_slot = c->cost ? &c->cost[ci[k].slot] : NULL;
        if (ci[k].is_bool) {
            /* A changed bool is the other value: nothing more to code. */
            if (!enc) {
                if (ref[k] != 0 && ref[k] != 1) return NS_ERR_RANGE;
                store(out, &ci[k], (uint64_t)(ref[k] ^ 1));
            }
            k = end;
            continue;
        }
        for (uint32_t j = k; j < end; j++) {
            ns_entropy_channel_model *mj = &w->m.ch[j];
            uint64_t mask = width_mask(ci[j].width);
            uint64_t d = enc ? ((uint64_t)cv[j] - (uint64_t)ref[j]) & mask : 0;
            /* The delta as a signed number of the field's width. */
            unsigned neg = 0;
            uint64_t mag = d;
            if (ci[j].width < 8 ? (d >> (ci[j].width * 8 - 1)) & 1u : d >> 63) neg = 1, mag = (~d + 1) & mask;
            unsigned motion_sign = motion[j];
            unsigned got_neg;
            unsigned ctx = nb_class(prev_nb);
            uint64_t got = code_delta(c, enc, mj, ctx, motion[j] != 0, prev_sign, motion_sign, mag, neg, &got_neg);
            /* A single-channel slot that changed has a delta; only vectors may hold zeros, and
             * the encoder never codes 0 there, which the model learns to price. */
            if (bitlen(got) > prev_nb) prev_nb = bitlen(got);
            prev_sign = got == 0 ? 0 : got_neg ? 2 : 1;
            if (!enc) {
                uint64_t v = ((uint64_t)ref[j] + (got_neg ? ~got + 1 : got)) & mask;
                store(out, &ci[j], v);
                if (ci[j].ranged) {
                    int64_t back = load(out, &ci[j]);
                    if (back < ci[j].lo || back > ci[j].hi) return NS_ERR_RANGE;
                }
                if (ci[j].enum_type && !declared(ci[j].enum_type, load(out, &ci[j]))) return NS_ERR_RANGE;
            }
        }
        k = end;
    }
    return NS_OK;
}

static ns_status run(coder *c, const ns_type_desc *t, const void *snaps, void *out, const ns_baselines *base,
                     size_t count, const ns_entropy_prior *prior)
{
    chan_info ci[NS_ENTROPY_MAX_CHANNELS];
    if (!t || !base || (!snaps && !out) || t->snap_size > NS_ENTROPY_MAX_SNAP) return NS_ERR_ARGUMENT;
    uint32_t n = layout(t, ci);
    if (n == 0) return NS_ERR_ARGUMENT;
    if (prior && (prior->type_hash != t->hash || prior->channels != n || prior->count != prob_count(n)))
        return NS_ERR_MISMATCH;
    reset(c->w, t, n, prior);
    uint32_t nslots = 0;
    for (uint32_t k = 0; k < n; k++) nslots += k == 0 || ci[k].slot != ci[k - 1].slot;
    pred_cache pc = {0, 0, 0, 0, false, {0, 0, false, false}};
    unsigned prev_any = 0;
    uint8_t prev_change[NS_ENTROPY_MAX_CHANNELS];
    memset(prev_change, 0, sizeof prev_change);
    for (size_t e = 0; e < count; e++) {
        const ns_baselines *b = &base[e];
        if (b->count < 1 || ns_baselines_check(b) != NS_OK) return NS_ERR_BASELINE;
        const void *cur = snaps ? (const uint8_t *)snaps + e * t->snap_size : NULL;
        /* out == the work's scratch: ns_entropy_read's checking pass, every entity into it. */
        void *o = out == (void *)c->w->snap ? out : out ? (uint8_t *)out + e * t->snap_size : NULL;
        if (o) memcpy(o, b->snap[0], t->snap_size); /* padding and uncoded slots */
        ns_status st = c->enc ? entity(c, true, ci, nslots, cur, o, b, &pc, &prev_any, prev_change)
                              : entity(c, false, ci, nslots, cur, o, b, &pc, &prev_any, prev_change);
        if (st != NS_OK) return st;
        if (c->dec && ns_rc_decoder_status(c->dec) != NS_OK) return NS_ERR_TRUNCATED;
    }
    return NS_OK;
}

ns_status ns_entropy_write(const ns_type_desc *t, const void *snaps, const ns_baselines *base, size_t count,
                           ns_entropy_work *work, const ns_entropy_prior *prior, void *buf, size_t cap, size_t *len,
                           double *cost_bits)
{
    if (!work || !buf || !len || !snaps) return NS_ERR_ARGUMENT;
    *len = 0;
    if (cost_bits && t) memset(cost_bits, 0, (t->field_count + 1) * sizeof *cost_bits);
    ns_rc_encoder e;
    ns_rc_encoder_init(&e, buf, cap);
    coder c = {work, &e, NULL, cost_bits, NULL, NULL};
    ns_status st = run(&c, t, snaps, NULL, base, count, prior);
    if (st != NS_OK) return st;
    size_t n = ns_rc_encoder_finish(&e);
    if (e.status != NS_OK) return e.status;
    *len = n;
    return NS_OK;
}

ns_status ns_entropy_read(const ns_type_desc *t, void *out, const ns_baselines *base, size_t count,
                          ns_entropy_work *work, const ns_entropy_prior *prior, const void *buf, size_t len)
{
    if (!work || !out || (!buf && len)) return NS_ERR_ARGUMENT;
    /* Twice: first into scratch, so that a bad packet leaves out as it was; then into out. */
    for (int pass = 0; pass < 2; pass++) {
        ns_rc_decoder d;
        ns_rc_decoder_init(&d, buf, len);
        coder c = {work, NULL, &d, NULL, NULL, NULL};
        ns_status st = run(&c, t, NULL, pass == 0 ? (void *)work->snap : out, base, count, prior);
        if (st == NS_OK) st = ns_rc_decoder_status(&d);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* ---- training and prior files ---- */

ns_status ns_entropy_train_init(ns_entropy_trainer *tr, const ns_type_desc *t)
{
    chan_info ci[NS_ENTROPY_MAX_CHANNELS];
    if (!tr || !t) return NS_ERR_ARGUMENT;
    uint32_t n = layout(t, ci);
    if (n == 0) return NS_ERR_ARGUMENT;
    memset(tr, 0, sizeof *tr);
    tr->type = t;
    tr->channels = n;
    return NS_OK;
}

ns_status ns_entropy_train(ns_entropy_trainer *tr, const void *snaps, const ns_baselines *base, size_t count)
{
    if (!tr || !tr->type || !snaps) return NS_ERR_ARGUMENT;
    /* A write into a sink of no room that counts every modelled bit: the same decisions as a
     * real write, without keeping the bytes. */
    uint8_t sink[1];
    ns_rc_encoder e;
    ns_rc_encoder_init(&e, sink, 0);
    coder c = {&tr->work, &e, NULL, NULL, NULL, tr->n};
    return run(&c, tr->type, snaps, NULL, base, count, NULL);
}

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned k = 0; k < bytes; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

#define PRIOR_MAGIC 0x5045534eu /* "NSEP" little-endian */
#define PRIOR_HEAD (4 + 4 + 8 + 4 + 4)

ns_status ns_entropy_prior_make(const ns_entropy_trainer *tr, ns_entropy_prior *out)
{
    if (!tr || !tr->type || !out) return NS_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->type_hash = tr->type->hash;
    out->channels = tr->channels;
    out->count = (uint32_t)prob_count(tr->channels);
    for (uint32_t i = 0; i < out->count; i++) {
        /* p(0) = (n0 + 1/2) / (n + 1) in 1/4096, kept 32/4096 off the ends so that a bit the
         * training never saw costs at most 7 bits. */
        uint64_t n0 = tr->n[i][0], n = tr->n[i][0] + tr->n[i][1];
        uint64_t p = ((n0 * 2 + 1) << NS_RC_PROB_BITS) / (n * 2 + 2);
        if (p < 32) p = 32;
        if (p > (1u << NS_RC_PROB_BITS) - 32) p = (1u << NS_RC_PROB_BITS) - 32;
        out->prob[i] = (uint16_t)p;
    }
    uint8_t file[NS_ENTROPY_PRIOR_FILE_MAX];
    size_t len = ns_entropy_prior_save(out, file, sizeof file);
    out->hash = get_le(file + len - 8, 8);
    return NS_OK;
}

size_t ns_entropy_prior_save(const ns_entropy_prior *p, void *buf, size_t cap)
{
    if (!p || !buf || p->count > NS_ENTROPY_MAX_PROBS) return 0;
    size_t len = PRIOR_HEAD + 2 * (size_t)p->count + 8;
    if (cap < len) return 0;
    uint8_t *b = buf;
    put_le(b, PRIOR_MAGIC, 4);
    put_le(b + 4, 1, 4);
    put_le(b + 8, p->type_hash, 8);
    put_le(b + 16, p->channels, 4);
    put_le(b + 20, p->count, 4);
    for (uint32_t i = 0; i < p->count; i++) put_le(b + PRIOR_HEAD + 2 * (size_t)i, p->prob[i], 2);
    put_le(b + len - 8, fnv1a(0xcbf29ce484222325u, b, len - 8), 8);
    return len;
}

ns_status ns_entropy_prior_load(ns_entropy_prior *p, const ns_type_desc *t, const void *buf, size_t len)
{
    chan_info ci[NS_ENTROPY_MAX_CHANNELS];
    if (!p || !t || (!buf && len)) return NS_ERR_ARGUMENT;
    const uint8_t *b = buf;
    if (len < PRIOR_HEAD + 8 || get_le(b, 4) != PRIOR_MAGIC || get_le(b + 4, 4) != 1) return NS_ERR_MALFORMED;
    uint64_t count = get_le(b + 20, 4), channels = get_le(b + 16, 4);
    if (channels > NS_ENTROPY_MAX_CHANNELS || count != prob_count((uint32_t)channels) ||
        len != PRIOR_HEAD + 2 * count + 8)
        return NS_ERR_MALFORMED;
    if (get_le(b + len - 8, 8) != fnv1a(0xcbf29ce484222325u, b, len - 8)) return NS_ERR_MALFORMED;
    /* Every check before the first write: a refused file leaves *p as it was. */
    for (uint32_t i = 0; i < count; i++) {
        uint64_t v = get_le(b + PRIOR_HEAD + 2 * (size_t)i, 2);
        if (v == 0 || v >= (1u << NS_RC_PROB_BITS)) return NS_ERR_MALFORMED;
    }
    /* A sound file: is it this type's? */
    if (get_le(b + 8, 8) != t->hash || channels != layout(t, ci)) return NS_ERR_MISMATCH;
    memset(p, 0, sizeof *p);
    for (uint32_t i = 0; i < count; i++) p->prob[i] = (uint16_t)get_le(b + PRIOR_HEAD + 2 * (size_t)i, 2);
    p->type_hash = t->hash;
    p->channels = (uint32_t)channels;
    p->count = (uint32_t)count;
    p->hash = get_le(b + len - 8, 8);
    return NS_OK;
}

uint64_t ns_entropy_protocol_hash(uint64_t schema_hash, const ns_entropy_prior *p)
{
    if (!p) return schema_hash;
    uint8_t b[8];
    put_le(b, p->hash, 8);
    return fnv1a(schema_hash, b, 8);
}
