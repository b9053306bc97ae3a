/* netschema/desc.h — type descriptors: what a generated type looks like, for generic tools
 * (dumps, inspectors, bandwidth profiles). Never on the hot path. Every generated type has a
 * `<pkg>_<Type>_desc`; each slot (one change-mask bit) has a field descriptor. A descriptor
 * says enough to decode a record slot by slot exactly as the generated _read does (netschema/
 * dump.h): encodings, C widths and signedness, ranges, quantization, enum values, composite
 * members, collection codecs and the default snapshot. */
#ifndef NETSCHEMA_DESC_H
#define NETSCHEMA_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "baselines.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ns_type_kind {
    NS_KIND_STRUCT, NS_KIND_COMPONENT, NS_KIND_INPUT, NS_KIND_RPC, NS_KIND_ENUM,
    NS_KIND_UNION  /* fields: one per member in tag order, each a struct (type) coded by its own mask */
} ns_type_kind;

/* How a slot is coded (mirrors the compiler's layout; see idl/SPEC.md "Wire format"). */
typedef enum ns_encoding {
    NS_ENC_BOOL, NS_ENC_INT, NS_ENC_INT64, NS_ENC_RAW, NS_ENC_QUANT, NS_ENC_FLOAT32, NS_ENC_FLOAT64,
    NS_ENC_VEC_Q, NS_ENC_VEC_F, NS_ENC_QUAT_Q, NS_ENC_QUAT_S3, NS_ENC_QUAT_F, NS_ENC_STRING,
    NS_ENC_BYTES, NS_ENC_COMPOSITE, NS_ENC_LIST, NS_ENC_MAP, NS_ENC_SET, NS_ENC_FASTARRAY,
    NS_ENC_ARRAY,  /* a @composite fixed array: capacity elements, each as elem, without change bits */
    NS_ENC_CUSTOM, /* an extern struct: the user's codec, at most max_bits bits; descriptors cannot decode it */
    NS_ENC_UNION   /* a union (type, NS_KIND_UNION): `bits` of tag below capacity, then that member's
                      record against the reference's member when its tag is the same, else against
                      the member's defaults (docs/wire.md section 12.9) */
} ns_encoding;

/* The zero initializer of an extern struct in generated default snapshots: its members are the
 * user's, so C spells the universal {0} and C++ empty braces (no missing-initializer warning). */
#ifdef __cplusplus
#define NS_ZERO_INIT {}
#else
#define NS_ZERO_INIT {0}
#endif

/* Field flags. */
#define NS_FIELD_TO_OWNER  0x01u  /* sent to the owning connection */
#define NS_FIELD_TO_OTHERS 0x02u  /* sent to other observers */
#define NS_FIELD_INITIAL   0x04u  /* only in full states */
#define NS_FIELD_PREDICTED 0x08u  /* coded against the three-baseline prediction */
#define NS_FIELD_RANGED    0x10u  /* lo..hi bound the (quantized) value */
#define NS_FIELD_NOTIFY    0x20u
#define NS_FIELD_UNSIGNED  0x40u  /* the snapshot holds an unsigned integer (u8..u64, entity, unsigned enums) */
#define NS_FIELD_BOUNDED   0x80u  /* lo..hi hold the effective bounds: the @range, else the C type's */
/* Conditions on the receiver, on top of NS_FIELD_TO_OWNER / NS_FIELD_TO_OTHERS: all must hold. */
#define NS_FIELD_IF_PREDICTED    0x100u /* @sync(predicted): only to receivers with NS_TO_PREDICTED */
#define NS_FIELD_IF_INTERPOLATED 0x200u /* @sync(interpolated): only to receivers without it */
#define NS_FIELD_IF_CUSTOM       0x400u /* @sync(custom): only to receivers with NS_TO_CUSTOM */
#define NS_FIELD_CONDITIONS (NS_FIELD_IF_PREDICTED | NS_FIELD_IF_INTERPOLATED | NS_FIELD_IF_CUSTOM)

/* True if a component field with these flags reaches a receiver with the ns_audience bits `to`
 * (@initial aside). */
static inline bool ns_field_reaches(uint32_t flags, unsigned to)
{
    if (!(flags & ((to & NS_TO_OWNER) ? NS_FIELD_TO_OWNER : NS_FIELD_TO_OTHERS))) return false;
    if ((flags & NS_FIELD_IF_PREDICTED) && !(to & NS_TO_PREDICTED)) return false;
    if ((flags & NS_FIELD_IF_INTERPOLATED) && (to & NS_TO_PREDICTED)) return false;
    return !(flags & NS_FIELD_IF_CUSTOM) || (to & NS_TO_CUSTOM) != 0;
}

struct ns_type_desc;
struct ns_coll_ops;

/* One declared value of an enum. */
typedef struct ns_enum_value {
    int64_t     value;
    const char *name;        /* "north" */
} ns_enum_value;

/* An enum's declared values, in declaration order (aliases after the first name left out). */
typedef struct ns_enum_desc {
    const char          *name;   /* "Direction" */
    const ns_enum_value *values;
    uint32_t             count;
} ns_enum_desc;

/* The two offsets of member m of record type T (in T and in T_snap) and the size of its snapshot
 * member: value_offset, snap_offset and snap_size as generated tables spell them. */
#define NS_FIELD_AT(T, m) offsetof(T, m), offsetof(T##_snap, m), sizeof(((T##_snap *)0)->m)

typedef struct ns_field_desc {
    const char *path;         /* "hp", "stats.hp" */
    ns_encoding encoding;
    uint16_t    components;   /* vector arity, else 1 */
    uint16_t    bits;         /* raw width (raw fields, smallest-three per component) */
    uint32_t    flags;
    size_t      value_offset; /* offsetof in the value struct */
    size_t      snap_offset;  /* offsetof in the snapshot struct */
    size_t      snap_size;    /* sizeof the snapshot member */
    int64_t     lo, hi;       /* when NS_FIELD_RANGED */
    double      scale;        /* @quantize, else 0 */
    uint32_t    max_bits;     /* worst payload when changed */
    uint32_t    capacity;     /* string, bytes, collections and @composite arrays: N */
    const struct ns_type_desc *type; /* composite struct members, else NULL */
    const ns_enum_desc *enum_type;   /* enum fields: the declared values, else NULL */
    const struct ns_coll_ops *coll;  /* collections: the generated <pkg>_<T>_<field>_ops, else NULL */
    const struct ns_field_desc *elem; /* lists and maps of non-struct elements: one element (list)
                                         or value (map) as a slot at offset 0; @composite arrays:
                                         one element (any kind) at offset 0; else NULL */
} ns_field_desc;

typedef struct ns_type_desc {
    const char   *name;        /* "Health" */
    const char   *c_name;      /* "arena_Health" */
    const char   *package;     /* "arena" */
    ns_type_kind  kind;
    uint32_t      id;          /* wire type id (components, inputs, rpcs) */
    uint64_t      hash;        /* protocol hash of the type */
    size_t        value_size, snap_size;
    uint32_t      max_bits;    /* worst-case size of one write */
    const ns_field_desc *fields;
    uint32_t      field_count;
    const void   *snap_default; /* the snapshot of the schema defaults (<pkg>_<T>_snap_default) */
} ns_type_desc;

#ifdef __cplusplus
}
#endif
#endif
