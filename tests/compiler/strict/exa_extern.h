/* exa_extern.h — the user's types of extern_array_first.netschema: the first starts with an
 * array, the second with a struct (run_strict.sh only compiles the generated code). */
#ifndef EXA_EXTERN_H
#define EXA_EXTERN_H
#include <stdint.h>
typedef struct exa_Heights {
    uint8_t h[16];
} exa_Heights;
typedef struct exa_Pair {
    struct { uint8_t a, b; } inner;
} exa_Pair;
#endif
