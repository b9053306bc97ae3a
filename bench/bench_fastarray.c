/* bench_fastarray.c — fast-array deltas: 1, 10 and 100 changed items out of 256 and 4,096,
 * against resending the whole array, measured in the same run. For each case: bytes per write,
 * and encode and decode time per write (decode includes the reader's check pass). Changed items
 * have one field changed, as a game's inventory mostly sees. */
#include "bench_common.h"

#include <stdlib.h>

#include "bench_fastarray.ns.h"

#define REPS 7

typedef struct io {
    const void  *cur, *ref;   /* ref NULL: a full state */
    void        *out;
    uint8_t     *buf;
    size_t       cap, len;
    int          large;
    int          loops;
} io;

static ns_status write_one(io *x, ns_writer *w)
{
    ns_baselines b = {{x->ref, NULL, NULL}, {1, 0, 0}, x->ref ? 1u : 0u, 2};
    return x->large ? fab_Large_write(w, (const fab_Large_snap *)x->cur, &b, NS_TO_OBSERVER)
                    : fab_Small_write(w, (const fab_Small_snap *)x->cur, &b, NS_TO_OBSERVER);
}

static void encode(void *arg)
{
    io *x = (io *)arg;
    for (int i = 0; i < x->loops; i++) {
        ns_writer w;
        ns_writer_init(&w, x->buf, x->cap);
        if (write_one(x, &w) != NS_OK) abort();
        x->len = ns_writer_flush(&w);
        bench_sink += x->len;
    }
}

static void decode(void *arg)
{
    io *x = (io *)arg;
    ns_baselines b = {{x->ref, NULL, NULL}, {1, 0, 0}, x->ref ? 1u : 0u, 2};
    for (int i = 0; i < x->loops; i++) {
        ns_reader r;
        ns_reader_init(&r, x->buf, x->len);
        ns_status st = x->large ? fab_Large_read(&r, (fab_Large_snap *)x->out, &b, NS_TO_OBSERVER)
                                : fab_Small_read(&r, (fab_Small_snap *)x->out, &b, NS_TO_OBSERVER);
        if (st != NS_OK) abort();
        bench_sink += ns_reader_bits(&r);
    }
}

static fab_Item item(uint32_t i)
{
    fab_Item it;
    fab_Item_init(&it);
    it.kind = (uint16_t)(i % 500);
    it.count = (uint8_t)(i % 99);
    it.durability = (float)(i % 100) / 100.0f;
    it.owner = (int32_t)(i * 2654435761u >> 8);
    return it;
}

typedef struct result {
    double bytes, enc, dec;
} result;

static result measure(io *x)
{
    x->loops = 1;
    encode(x);
    int loops = 1;
    double t = 0;
    while ((t = bench_best(encode, x, 1)) < 2e-3 && loops < (1 << 20)) x->loops = (loops *= 2); /* ~2 ms per run */
    result r;
    r.bytes = (double)x->len;
    r.enc = bench_best(encode, x, REPS) / loops;
    r.dec = bench_best(decode, x, REPS) / loops;
    return r;
}

static void run(int large)
{
    uint32_t n = large ? 4096u : 256u;
    size_t snap = large ? sizeof(fab_Large_snap) : sizeof(fab_Small_snap);
    size_t value = large ? sizeof(fab_Large) : sizeof(fab_Small);
    void *v = calloc(1, value), *ref = calloc(1, snap), *cur = calloc(1, snap), *out = calloc(1, snap);
    size_t cap = (large ? FAB_LARGE_MAX_BYTES : FAB_SMALL_MAX_BYTES) + 16;
    uint8_t *buf = malloc(cap);
    io x = {cur, ref, out, buf, cap, 0, large, 1};
    printf("\n%u items        changed   bytes   full bytes  size ratio   encode us  full us  ratio   decode us  full us  ratio\n", n);
    static const uint32_t changes[] = {1, 10, 100};
    for (int c = 0; c < 3; c++) {
        if (large) fab_Large_init((fab_Large *)v);
        else fab_Small_init((fab_Small *)v);
        for (uint32_t i = 0; i < n; i++) {
            fab_Item it = item(i);
            if (large) fab_Large_items_add((fab_Large *)v, &it, NULL);
            else fab_Small_items_add((fab_Small *)v, &it, NULL);
        }
        if (large) fab_Large_quantize((const fab_Large *)v, (fab_Large_snap *)ref);
        else fab_Small_quantize((const fab_Small *)v, (fab_Small_snap *)ref);
        for (uint32_t k = 0; k < changes[c]; k++) {
            uint32_t at = (uint32_t)(((uint64_t)k * 2654435761u) % n);
            if (large) {
                fab_Large *l = (fab_Large *)v;
                fab_Item it = l->items.items[at].value;
                it.count = (uint8_t)((it.count + 1) % 99);
                fab_Large_items_set(l, l->items.items[at].id, &it);
            } else {
                fab_Small *s = (fab_Small *)v;
                fab_Item it = s->items.items[at].value;
                it.count = (uint8_t)((it.count + 1) % 99);
                fab_Small_items_set(s, s->items.items[at].id, &it);
            }
        }
        if (large) fab_Large_quantize((const fab_Large *)v, (fab_Large_snap *)cur);
        else fab_Small_quantize((const fab_Small *)v, (fab_Small_snap *)cur);
        x.ref = ref;
        result d = measure(&x);
        x.ref = NULL;
        result f = measure(&x);
        printf("%14s %8u %7.0f %12.0f %10.4f %11.2f %8.2f %7.3f %11.2f %8.2f %7.3f\n", "", changes[c], d.bytes, f.bytes,
               d.bytes / f.bytes, d.enc * 1e6, f.enc * 1e6, d.enc / f.enc, d.dec * 1e6, f.dec * 1e6, d.dec / f.dec);
    }
    free(v), free(ref), free(cur), free(out), free(buf);
}

int main(void)
{
    printf("bench_fastarray: fast-array deltas against a full resend in the same run (best of %d)\n", REPS);
    run(0);
    run(1);
    return 0;
}
