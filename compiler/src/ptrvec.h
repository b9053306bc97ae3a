/* ptrvec.h — a growable array of pointers on the heap. The parser collects lists in these while
 * it runs (bison's %destructor frees them when it discards a half-built list during error
 * recovery); finished lists are copied into the arena. */
#ifndef NSC_PTRVEC_H
#define NSC_PTRVEC_H

#include <stddef.h>

#include "arena.h"

typedef struct nsc_ptrvec {
    void  **items;
    size_t  count, cap;
} nsc_ptrvec;

nsc_ptrvec *nsc_ptrvec_new(void);
void        nsc_ptrvec_push(nsc_ptrvec *v, void *item);
void        nsc_ptrvec_free(nsc_ptrvec *v);

/* Copies the items into the arena, frees v and returns the array (count in *n). */
void      **nsc_ptrvec_finish(nsc_ptrvec *v, nsc_arena *a, size_t *n);

#endif
