/* arena.c — bump allocator in chained blocks; big requests get a block of their own. */
#include "arena.h"
#include "textfmt.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE (64 * 1024)
#define ALIGN 16

struct nsc_arena_block {
    nsc_arena_block *next;
    size_t           size;
    _Alignas(16) unsigned char data[];
};

void nsc_out_of_memory(void)
{
    fputs("netschemac: out of memory\n", stderr);
    abort();
}

void *nsc_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) nsc_out_of_memory();
    return q;
}

void nsc_arena_init(nsc_arena *a)
{
    a->head = NULL;
    a->used = 0;
}

void nsc_arena_free(nsc_arena *a)
{
    nsc_arena_block *b = a->head;
    while (b) {
        nsc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = 0;
}

static nsc_arena_block *new_block(size_t size)
{
    nsc_arena_block *b = malloc(sizeof *b + size);
    if (!b) nsc_out_of_memory();
    b->size = size;
    b->next = NULL;
    return b;
}

nsc_arena_mark nsc_arena_get_mark(const nsc_arena *a)
{
    nsc_arena_mark m = {a->head, a->head ? a->head->next : NULL, a->used};
    return m;
}

void nsc_arena_release(nsc_arena *a, nsc_arena_mark m)
{
    /* Blocks added since the mark sit in front of the marked head; large blocks are linked right
     * behind whichever block was the head, so those made since sit between the marked head and
     * the block that followed it then. */
    nsc_arena_block *b = a->head;
    while (b && b != m.head) {
        nsc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    if (m.head) {
        b = m.head->next;
        while (b && b != m.next) {
            nsc_arena_block *next = b->next;
            free(b);
            b = next;
        }
        m.head->next = m.next;
    }
    a->head = m.head;
    a->used = m.used;
}

/* n bytes at the given alignment (ALIGN or 1); the block's rest stays available. */
static void *bump(nsc_arena *a, size_t n, size_t align)
{
    size_t at = a->head ? (a->used + align - 1) & ~(align - 1) : 0;
    if (n > BLOCK_SIZE / 4) {
        /* Large: its own block, linked behind the current one so the head keeps its space. */
        nsc_arena_block *b = new_block(n);
        if (a->head) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            a->head = b;
            a->used = n;
        }
        return b->data;
    }
    if (!a->head || at + n > a->head->size) {
        nsc_arena_block *b = new_block(BLOCK_SIZE);
        b->next = a->head;
        a->head = b;
        at = 0;
    }
    void *p = a->head->data + at;
    a->used = at + n;
    return p;
}

void *nsc_arena_alloc(nsc_arena *a, size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n == 0) n = ALIGN;
    void *p = bump(a, n, ALIGN);
    memset(p, 0, n);
    return p;
}

char *nsc_arena_strndup(nsc_arena *a, const char *s, size_t n)
{
    char *p = bump(a, n + 1, 1);
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *nsc_arena_concat(nsc_arena *a, const char *first, ...)
{
    va_list ap;
    size_t n = 0;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *)) n += strlen(s);
    va_end(ap);
    char *p = bump(a, n + 1, 1), *at = p;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *)) {
        size_t k = strlen(s);
        memcpy(at, s, k);
        at += k;
    }
    va_end(ap);
    *at = '\0';
    return p;
}

char *nsc_arena_strdup(nsc_arena *a, const char *s)
{
    return nsc_arena_strndup(a, s, strlen(s));
}

char *nsc_arena_printf(nsc_arena *a, const char *fmt, ...)
{
    /* Usually the text fits in what is left of the head block: format once, straight there. */
    size_t room = a->head && a->used < a->head->size ? a->head->size - a->used : 0;
    va_list ap;
    va_start(ap, fmt);
    size_t n = nsc_text_vformat(room ? (char *)a->head->data + a->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n < room) {
        char *p = (char *)a->head->data + a->used;
        a->used += n + 1;
        return p;
    }
    char *p = bump(a, n + 1, 1);
    va_start(ap, fmt);
    nsc_text_vformat(p, n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *nsc_arena_memdup(nsc_arena *a, const void *p, size_t n, size_t sz)
{
    if (n == 0) return NULL;
    void *q = nsc_arena_alloc(a, n * sz);
    memcpy(q, p, n * sz);
    return q;
}
