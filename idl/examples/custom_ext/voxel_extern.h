/* voxel_extern.h — the C types of custom.netschema's extern structs, written by the user: the
 * generated custom.ns.h includes "<prefix>_extern.h" (idl/SPEC.md, "Custom types"), and
 * voxel_codec.c codes them. All-zero bytes are a valid value of each, as the default snapshot
 * needs. */
#ifndef VOXEL_EXTERN_H
#define VOXEL_EXTERN_H

#include <stdint.h>

/* Voxel (x, y, z), each 0..3, is solid when bit x + 4y + 16z is set. */
typedef struct voxel_Brick {
    uint64_t solid;
} voxel_Brick;

/* Recipe i is unlocked when bit i is set. */
typedef struct voxel_Recipes {
    uint64_t bits;
} voxel_Recipes;

#endif
