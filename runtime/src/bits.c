/* bits.c — the out-of-line slow path of the bit writer (netschema/bits.h): what runs near a
 * buffer's end. Kept out of the inlined fast path so that every generated write does not carry
 * its own copy of the loop. */
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
