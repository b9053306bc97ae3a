/* netschema/schema.h — the dispatch tables netschemac generates per schema, so the replication
 * and message layers can handle any component, input or rpc without reflection on the hot path.
 *
 * Every generated schema defines
 *     extern const ns_schema <pkg>_schema;
 * whose components[] lists every component the schema can see (its own and its imports'),
 * sorted by type id, each with type-erased wrappers around the generated functions. The
 * wrappers only cast their pointers: calling one costs an indirect call, nothing more.
 * messages[] does the same for inputs and rpcs. */
#ifndef NETSCHEMA_SCHEMA_H
#define NETSCHEMA_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "baselines.h"
#include "bits.h"
#include "desc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ns_authority_report; /* netschema/replication.h */

/* Where the `entity` references of a component sit, in its snapshot and in its value: a field
 * (a struct's members, fixed arrays' elements and union members' fields included) or, with capacity > 0, the elements
 * of a list, a map's values or a fast array's items (their structs' members included): up to
 * capacity references, the first `count` of them present. Set elements and map keys are not
 * listed: they stay network references. The replica resolves the listed references through its
 * entity map (netschema/replication.h, ns_replica_bind). */
typedef struct ns_entity_field {
    uint32_t snap_offset;   /* the reference (of element 0) */
    uint32_t value_offset;
    uint32_t capacity;      /* 0: one plain reference; else a collection's capacity */
    uint32_t count_offset;  /* collections: the snapshot's uint16_t count */
    uint32_t snap_stride;   /* collections: bytes from one element to the next */
    uint32_t value_stride;
    uint32_t order_offset;  /* @ordered fast array: the snapshot's uint16_t order[] (position ->
                               snapshot index; element p of the value is element order[p] of the
                               snapshot); 0 otherwise (element p is element p) */
    uint32_t tag_offset;    /* a union member's reference: 1 + the offset of the union's uint8_t
                               tag in the snapshot; the reference exists while the tag is `tag`
                               (the other members' bytes are not references). 0: always */
    uint32_t tag;
} ns_entity_field;

/* One component type, as the replication layer sees it. Snapshots are plain data of
 * desc->snap_size bytes (memcpy-able, no pointers); values are desc->value_size bytes. */
typedef struct ns_component_ops {
    const ns_type_desc *desc;        /* name, id, hash, sizes, max_bits, fields */
    uint32_t            send_rate_hz; /* @send_rate(hz), 0 when the component has none */
    /* Sets *snap to the snapshot of a default-initialised value: what a reader decodes a
     * component to when it is coded against no baselines and nothing changed. */
    void      (*snap_default)(void *snap);
    /* <pkg>_<T>_init: sets every field of a value to its schema default. */
    void      (*init)(void *value);
    void      (*quantize)(const void *value, void *snap);
    void      (*dequantize)(const void *snap, void *value);
    bool      (*snap_equal)(const void *a, const void *b);
    ns_status (*write)(ns_writer *w, const void *cur, const ns_baselines *base, ns_audience to);
    ns_status (*read)(ns_reader *r, void *out, const ns_baselines *base, ns_audience to);
    /* <pkg>_<T>_apply: brings a live value to a snapshot, calling hooks (a const <pkg>_<T>_hooks *,
     * or NULL) with ctx. */
    void      (*apply)(void *live, const void *snap, const void *hooks, void *ctx);
    /* <pkg>_<T>_interpolate: fills *out between two snapshots (t = 0 at from, 1 at to). */
    void      (*interpolate)(const void *from, const void *to, float t, void *out);
    const ns_entity_field *entity_fields;   /* its entity references, or NULL */
    uint32_t               entity_field_count;
    /* Its @authority(owner) fields, or NULL when it has none: decodes one authority payload
     * (netschema/replication.h) into a copy of *snap, checks it, calls validate (a
     * ns_authority_validate_fn, or NULL) and only then stores it in *snap. With snap NULL it
     * reads and checks the payload but stores nothing and calls no hook. */
    ns_status (*authority_read)(ns_reader *r, void *snap,
                                ns_status (*validate)(const void *proposed, const void *current, void *ctx,
                                                      struct ns_authority_report *report),
                                void *ctx, struct ns_authority_report *report);
} ns_component_ops;

/* Whether a message type is an input or an rpc, and how an rpc travels. */
typedef enum ns_message_kind {
    NS_MSG_INPUT,           /* coded against the previous input of the same type */
    NS_MSG_RPC,             /* reliable and ordered (the default for an rpc) */
    NS_MSG_RPC_UNRELIABLE   /* rpc with @unreliable: sent once, may be lost */
} ns_message_kind;

/* One input or rpc type. An rpc's prev is always NULL. */
typedef struct ns_message_ops {
    const ns_type_desc *desc;
    ns_message_kind     kind;
    void      (*snap_default)(void *snap);
    void      (*quantize)(const void *value, void *snap);
    void      (*dequantize)(const void *snap, void *value);
    ns_status (*write)(ns_writer *w, const void *cur, const void *prev);
    ns_status (*read)(ns_reader *r, void *out, const void *prev);
} ns_message_ops;

/* Everything a schema replicates. */
typedef struct ns_schema {
    const char             *package;        /* "arena" */
    uint64_t                hash;           /* <PKG>_SCHEMA_HASH: compare it in the handshake */
    const ns_component_ops *components;     /* sorted by desc->id */
    uint32_t                component_count;
    const ns_message_ops   *messages;       /* sorted by desc->id */
    uint32_t                message_count;
} ns_schema;

/* The index in s->components of the component with type id `id`, or -1 (binary search). */
int32_t ns_schema_component_index(const ns_schema *s, uint32_t id);

/* The index in s->messages of the input or rpc with type id `id`, or -1. */
int32_t ns_schema_message_index(const ns_schema *s, uint32_t id);

/* ---- what generated tables are made of ---------------------------------------------------------
 * A generated .c lists, in <pkg>_components[] and <pkg>_messages[], every component and message
 * its schema sees. Each row points at type-erased wrappers: static functions that cast their
 * void pointers and call the type's public functions (<pkg>_<T>_write, ...). T below is the
 * type's C name (<pkg>_<Name>); the wrappers are named T_erased_<function>. */

/* The wrappers every row has. */
#define NS__RECORD_WRAPPERS(T)                                                                         \
    static void T##_erased_snap_default(void *snap) { *(T##_snap *)snap = T##_snap_default; }          \
    static void T##_erased_quantize(const void *value, void *snap)                                     \
    {                                                                                                  \
        T##_quantize((const T *)value, (T##_snap *)snap);                                              \
    }                                                                                                  \
    static void T##_erased_dequantize(const void *snap, void *value)                                   \
    {                                                                                                  \
        T##_dequantize((const T##_snap *)snap, (T *)value);                                            \
    }

/* The nine wrappers of a component's row (write without a trailing semicolon). */
#define NS_COMPONENT_WRAPPERS(T)                                                                       \
    NS__RECORD_WRAPPERS(T)                                                                             \
    static void T##_erased_init(void *value) { T##_init((T *)value); }                                 \
    static bool T##_erased_snap_equal(const void *a, const void *b)                                    \
    {                                                                                                  \
        return T##_snap_equal((const T##_snap *)a, (const T##_snap *)b);                               \
    }                                                                                                  \
    static ns_status T##_erased_write(ns_writer *w, const void *cur, const ns_baselines *base,         \
                                      ns_audience to)                                                  \
    {                                                                                                  \
        return T##_write(w, (const T##_snap *)cur, base, to);                                          \
    }                                                                                                  \
    static ns_status T##_erased_read(ns_reader *r, void *out, const ns_baselines *base, ns_audience to)\
    {                                                                                                  \
        return T##_read(r, (T##_snap *)out, base, to);                                                 \
    }                                                                                                  \
    static void T##_erased_apply(void *live, const void *snap, const void *hooks, void *ctx)           \
    {                                                                                                  \
        T##_apply((T *)live, (const T##_snap *)snap, (const T##_hooks *)hooks, ctx);                   \
    }                                                                                                  \
    static void T##_erased_interpolate(const void *from, const void *to, float t, void *out)           \
    {                                                                                                  \
        T##_interpolate((const T##_snap *)from, (const T##_snap *)to, t, (T *)out);                    \
    }

/* A component's row: entities is its ns_entity_field table (or NULL) with `count` entries,
 * authority its authority_read wrapper (or NULL). */
#define NS_COMPONENT_ROW(T, send_rate_hz, entities, count, authority)                                  \
    {&T##_desc, send_rate_hz, T##_erased_snap_default, T##_erased_init, T##_erased_quantize,           \
     T##_erased_dequantize, T##_erased_snap_equal, T##_erased_write, T##_erased_read, T##_erased_apply,\
     T##_erased_interpolate, entities, count, authority}

/* The five wrappers of an input's row: coded against the previous input. */
#define NS_INPUT_WRAPPERS(T)                                                                           \
    NS__RECORD_WRAPPERS(T)                                                                             \
    static ns_status T##_erased_write(ns_writer *w, const void *cur, const void *prev)                 \
    {                                                                                                  \
        return T##_write(w, (const T##_snap *)cur, (const T##_snap *)prev);                            \
    }                                                                                                  \
    static ns_status T##_erased_read(ns_reader *r, void *out, const void *prev)                        \
    {                                                                                                  \
        return T##_read(r, (T##_snap *)out, (const T##_snap *)prev);                                   \
    }

/* The five wrappers of an rpc's row: coded against the defaults, so prev is always NULL. */
#define NS_RPC_WRAPPERS(T)                                                                             \
    NS__RECORD_WRAPPERS(T)                                                                             \
    static ns_status T##_erased_write(ns_writer *w, const void *cur, const void *prev)                 \
    {                                                                                                  \
        (void)prev;                                                                                    \
        return T##_write(w, (const T##_snap *)cur);                                                    \
    }                                                                                                  \
    static ns_status T##_erased_read(ns_reader *r, void *out, const void *prev)                        \
    {                                                                                                  \
        (void)prev;                                                                                    \
        return T##_read(r, (T##_snap *)out);                                                           \
    }

/* A message's row; kind is an ns_message_kind. */
#define NS_MESSAGE_ROW(T, kind)                                                                        \
    {&T##_desc, kind, T##_erased_snap_default, T##_erased_quantize, T##_erased_dequantize,             \
     T##_erased_write, T##_erased_read}

#ifdef __cplusplus
}
#endif
#endif
