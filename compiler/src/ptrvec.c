/* ptrvec.c — growable pointer arrays for the parser. */
#include "ptrvec.h"

#include <stdlib.h>

nsc_ptrvec *nsc_ptrvec_new(void)
{
    nsc_ptrvec *v = nsc_xrealloc(NULL, sizeof *v);
    v->items = NULL;
    v->count = v->cap = 0;
    return v;
}

void nsc_ptrvec_push(nsc_ptrvec *v, void *item)
{
    if (v->count == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 4;
        v->items = nsc_xrealloc(v->items, v->cap * sizeof *v->items);
    }
    v->items[v->count++] = item;
}

void nsc_ptrvec_free(nsc_ptrvec *v)
{
    if (!v) return;
    free(v->items);
    free(v);
}

void **nsc_ptrvec_finish(nsc_ptrvec *v, nsc_arena *a, size_t *n)
{
    *n = v ? v->count : 0;
    void **out = v ? nsc_arena_memdup(a, v->items, v->count, sizeof *v->items) : NULL;
    nsc_ptrvec_free(v);
    return out;
}
