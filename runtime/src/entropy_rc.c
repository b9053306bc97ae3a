/* entropy_rc.c — the adaptive binary range coder of the entropy mode (netschema/entropy.h):
 * LZMA's coder with 12-bit probabilities and a 1/16 adaptation step (fast enough to learn
 * within one packet, since the models reset per packet). The encoder drops the always-zero
 * first byte and ends on the value of its final interval with the most trailing zero bytes,
 * which it then drops too; the decoder reads zeros past the end, at most 4 bytes. */
#include "netschema/entropy.h"

void ns_rc_encoder_init(ns_rc_encoder *e, void *buf, size_t cap)
{
    e->buf = buf;
    e->cap = cap;
    e->pos = 0;
    e->low = 0;
    e->range = 0xffffffffu;
    e->cache = 0;
    e->pending = 1;
    e->first = 1;
    e->status = NS_OK;
}

static void out_byte(ns_rc_encoder *e, unsigned b)
{
    if (e->first) { /* always 0: the decoder starts as if it had read it */
        e->first = 0;
        return;
    }
    if (e->pos < e->cap) e->buf[e->pos] = (uint8_t)b;
    else e->status = NS_ERR_OVERFLOW;
    e->pos++;
}

void ns__rc_shift_low(ns_rc_encoder *e)
{
    if ((uint32_t)e->low < 0xff000000u || (e->low >> 32) != 0) {
        unsigned carry = (unsigned)(e->low >> 32);
        unsigned b = e->cache;
        do {
            out_byte(e, (b + carry) & 0xffu);
            b = 0xff;
        } while (--e->pending != 0);
        e->cache = (uint8_t)(e->low >> 24);
    }
    e->pending++;
    e->low = (e->low & 0x00ffffffu) << 8;
}

size_t ns_rc_encoder_finish(ns_rc_encoder *e)
{
    /* Any value in [low, low + range) decodes the same; take the one with the most trailing
     * zero bits, so that its last bytes are zeros to drop. */
    uint64_t hi = e->low + e->range;
    for (unsigned k = 32; k > 0; k--) {
        uint64_t m = ((uint64_t)1 << k) - 1, v = (e->low + m) & ~m;
        if (v < hi) {
            e->low = v;
            break;
        }
    }
    for (int i = 0; i < 5; i++) ns__rc_shift_low(e);
    if (e->status != NS_OK) return 0;
    size_t n = e->pos;
    for (int i = 0; i < 4 && n > 0 && e->buf[n - 1] == 0; i++) n--;
    return n;
}

void ns_rc_decoder_init(ns_rc_decoder *d, const void *buf, size_t len)
{
    d->buf = buf;
    d->len = len;
    d->pos = 0;
    d->overrun = 0;
    d->range = 0xffffffffu;
    d->code = 0;
    for (int i = 0; i < 4; i++) d->code = (d->code << 8) | ns__rc_in_byte(d);
}

ns_status ns_rc_decoder_status(const ns_rc_decoder *d)
{
    return d->overrun > 4 ? NS_ERR_TRUNCATED : NS_OK;
}
