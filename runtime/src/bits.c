/* bits.c — the out-of-line slow paths of the bit writer and reader (netschema/bits.h): what
 * runs near a buffer's end. Kept out of the inlined fast paths so that every generated write
 * and read does not carry its own copy of the loops. */
#include "netschema/bits.h"

void ns__writer_drain_slow(ns_writer *w)
{
    while (w->nacc >= 8) {
        if (w->pos < w->cap) w->buf[w->pos] = (uint8_t)w->acc;
        else w->status = NS_ERR_OVERFLOW;
        w->pos++;
        w->acc >>= 8;
        w->nacc -= 8;
    }
}

void ns__reader_refill_tail(ns_reader *r)
{
    /* Bits above nacc may hold a copy of the next bytes from an earlier 8-byte load; clear
     * them so that OR-ing the same bytes in again stays exact. */
    r->acc &= ns__mask64(r->nacc);
    while (r->nacc <= 56 && r->pos < r->len) {
        r->acc |= (uint64_t)r->buf[r->pos++] << r->nacc;
        r->nacc += 8;
    }
}
