/* cust_extern.h — the C types of custom.netschema's extern structs, which test_custom.c codes
 * by hand: the generated custom.ns.h includes "<prefix>_extern.h" (idl/SPEC.md, "Custom types"). */
#ifndef CUST_EXTERN_H
#define CUST_EXTERN_H

#include <stdint.h>

/* A color and flags 0..2 (3 is written by a buggy sender and refused by the reader). */
typedef struct cust_Tint {
    uint8_t r, g, b;
    uint8_t flags;
} cust_Tint;

/* A number below 2^24. */
typedef struct cust_Tag {
    uint32_t n;
} cust_Tag;

#endif
