/* netschema/types.h — the C types generated structs use for vector, quaternion and entity fields. */
#ifndef NETSCHEMA_TYPES_H
#define NETSCHEMA_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ns_vec2 { float x, y; } ns_vec2;
typedef struct ns_vec3 { float x, y, z; } ns_vec3;
typedef struct ns_vec4 { float x, y, z, w; } ns_vec4;

/* A rotation quaternion; q and −q are the same rotation. Identity is {0, 0, 0, 1}. */
typedef struct ns_quat { float x, y, z, w; } ns_quat;

/* A replicated entity handle (0 = none). */
typedef uint32_t ns_entity;

#ifdef __cplusplus
}
#endif
#endif
