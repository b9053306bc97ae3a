/* arena.h — a bump allocator: the AST, types and strings of a context live here and are freed
 * together. Allocation never fails silently: out of memory aborts with a message. */
#ifndef NSC_ARENA_H
#define NSC_ARENA_H

#include <stddef.h>

typedef struct nsc_arena_block nsc_arena_block;

typedef struct nsc_arena {
    nsc_arena_block *head;
    size_t           used;   /* bytes used in head */
} nsc_arena;

void  nsc_arena_init(nsc_arena *a);
void  nsc_arena_free(nsc_arena *a);

/* A point in an arena's history: nsc_arena_release frees everything allocated after it. Passes
 * that make many short-lived strings (the C-name check, the emitter) release them per
 * declaration, so memory follows the largest declaration instead of the whole schema. */
typedef struct nsc_arena_mark {
    nsc_arena_block *head, *next;  /* the head block then, and the block after it */
    size_t           used;
} nsc_arena_mark;

nsc_arena_mark nsc_arena_get_mark(const nsc_arena *a);
/* Frees what was allocated since m. Nothing allocated since may still be referenced. */
void nsc_arena_release(nsc_arena *a, nsc_arena_mark m);

/* Zeroed memory for n bytes, aligned for any type. */
void *nsc_arena_alloc(nsc_arena *a, size_t n);

/* Copies n bytes of s into the arena and appends a NUL. Strings are not aligned: a short name
 * takes its length plus one, not a 16-byte slot. */
char *nsc_arena_strndup(nsc_arena *a, const char *s, size_t n);
char *nsc_arena_strdup(nsc_arena *a, const char *s);
/* The strings up to a NULL, one after another: names made of parts cost a fraction of a printf. */
char *nsc_arena_concat(nsc_arena *a, const char *first, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((sentinel))
#endif
    ;

/* printf into the arena. */
char *nsc_arena_printf(nsc_arena *a, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Copies an array of n elements of size sz (n may be 0: returns NULL). */
void *nsc_arena_memdup(nsc_arena *a, const void *p, size_t n, size_t sz);

/* Allocates a zeroed object or array of a type. */
#define NSC_NEW(a, T) ((T *)nsc_arena_alloc((a), sizeof(T)))
#define NSC_NEW_ARRAY(a, T, n) ((T *)nsc_arena_alloc((a), sizeof(T) * (n)))

/* Aborts with "netschemac: out of memory". */
void nsc_out_of_memory(void);

/* malloc/realloc that abort on failure, for the few heap buffers outside the arena. */
void *nsc_xrealloc(void *p, size_t n);

#endif
