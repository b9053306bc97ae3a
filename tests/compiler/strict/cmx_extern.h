/* cmx_extern.h — the user's type of codec_mixed.netschema (run_strict.sh only compiles the
 * generated code). */
#ifndef CMX_EXTERN_H
#define CMX_EXTERN_H
#include <stdint.h>
typedef struct cmx_Blob {
    uint8_t b[3];
} cmx_Blob;
#endif
