/* netschema/table.h — the runtime of the table mode (`netschemac --codec table`, docs/generated-api.md
 * "Table mode"): generic functions driven by a type's descriptor (netschema/desc.h) that the
 * generated _write, _read and _snap_equal call instead of straight-line code. They put on the wire
 * exactly the bits the default mode's generated code puts there, and accept and reject exactly
 * what it does (tests/e2e test_table_*). Records holding extern structs (NS_ENC_CUSTOM) are not
 * table-driven: the generator keeps their straight-line code. */
#ifndef NETSCHEMA_TABLE_H
#define NETSCHEMA_TABLE_H

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

/* Writes cur (a snapshot of t) into w as t's generated _write does. Components code against
 * base (ref ignored); other kinds against ref (NULL: t's defaults). A bad snapshot, baseline set,
 * collection or union returns its error: the caller then keeps its own writer unmoved. NS_OK
 * otherwise; the writer's own status (overflow) is the caller's to return. */
ns_status ns_table_write(ns_writer *w, const ns_type_desc *t, const void *cur, const void *ref,
                         const ns_baselines *base, ns_audience to);

/* A table-driven record's whole _write: ns_table_write on a copy of *w, committed to *w only on
 * NS_OK, then counted by w's profile (a runtime built with NS_PROFILE; not structs, which their
 * collection counts). Returns the error, or the writer's status. */
ns_status ns_table_write_commit(ns_writer *w, const ns_type_desc *t, const void *cur, const void *ref,
                                const ns_baselines *base, ns_audience to);

/* Reads a record of t written by ns_table_write (or the generated _write) with the same ref,
 * base and to into out, as t's generated _read does: r advanced (or failed) as it advances it,
 * out written on NS_OK only. Records holding collections refuse out == the reference
 * (NS_ERR_ARGUMENT); snapshots over 512 bytes decode into heap scratch (NS_ERR_NOMEM without). */
ns_status ns_table_read(ns_reader *r, const ns_type_desc *t, void *out, const void *ref,
                        const ns_baselines *base, ns_audience to);

/* True if snapshots a and b of t hold the same values, as t's generated _snap_equal decides. */
bool ns_table_snap_equal(const ns_type_desc *t, const void *a, const void *b);

/* ---- values: _quantize and _dequantize (table_quant.c) ---------------------------------- */

/* What a value member holds and how it is quantized: the facts ns_field_desc leaves out (the
 * value's C type, float or double). */
typedef enum ns_value_kind {
    NS_VAL_COPY,    /* bool, and integers of the same C type on both sides without @range */
    NS_VAL_INT,     /* an integer: converted, and clamped into lo..hi when NS_VAL_RANGED */
    NS_VAL_ENUM,    /* an enum: valid(v) ? v : lo (the field's default) */
    NS_VAL_QUANT,   /* float (double when NS_VAL_DOUBLE) quantized by scale into an int32 */
    NS_VAL_F32,     /* float as its bit pattern */
    NS_VAL_F64,     /* double as its bit pattern */
    NS_VAL_VEC_Q,   /* arity floats, each quantized by scale */
    NS_VAL_VEC_F,   /* arity floats as bit patterns (vectors, unquantized quaternions) */
    NS_VAL_QUAT_Q,  /* a quaternion, normalized, then quantized by scale */
    NS_VAL_QUAT_S3, /* a quaternion as smallest-three with `arity` bits per component */
    NS_VAL_STRING,  /* char[cap + 1], sanitized */
    NS_VAL_BYTES,   /* { uint16_t len; uint8_t data[cap]; }, len clamped to cap */
    NS_VAL_STRUCT,  /* a nested struct: its own table, sub */
    NS_VAL_QUAT_F   /* a quaternion as 4 float bit patterns (coded as NS_VAL_VEC_F, blended by slerp) */
} ns_value_kind;

#define NS_VAL_RANGED 0x01u      /* lo..hi bound the (quantized) value */
#define NS_VAL_SIGNED 0x02u      /* the value's integer C type is signed */
#define NS_VAL_SNAP_SIGNED 0x04u /* the snapshot's integer C type is signed */
#define NS_VAL_DOUBLE 0x08u      /* NS_VAL_QUANT: the value is a double */
/* What _interpolate, _prediction_error, _backup and _restore do with a member (table_motion.c): */
#define NS_VAL_INTERPOLATE 0x10u /* blended with t clamped to [0, 1] (@smooth(interpolate)) */
#define NS_VAL_EXTRAPOLATE 0x20u /* blended with t up to 1 + NS_EXTRAPOLATE_LIMIT (@smooth(extrapolate)) */
#define NS_VAL_PREDICTED 0x40u   /* a component's member its owner receives: _backup copies it */
#define NS_VAL_ERROR 0x80u       /* has an entry in _prediction_error (structs: their members' entries) */

/* The rarer facts of a smoothed member, NULL in ns_value_field when it has none. */
typedef struct ns_value_motion {
    bool   wrap;              /* @smooth(..., wrap): the @range [wrap_lo, wrap_hi) is one turn */
    double wrap_lo, wrap_hi;  /* the @range as written (integers blend in lo..hi) */
    double max_distance;      /* @smooth(..., max_distance): a longer move jumps; 0: none */
} ns_value_motion;

struct ns_value_table;

/* One member of a record's value and snapshot, in declaration order. */
typedef struct ns_value_field {
    uint32_t      value_offset, snap_offset;
    uint32_t      snap_bytes;  /* sizeof the snapshot member */
    uint8_t       kind;        /* ns_value_kind */
    uint8_t       flags;       /* NS_VAL_* */
    uint8_t       value_size;  /* integers: bytes of the value's C type */
    uint8_t       snap_size;   /* integers, quantized components: bytes of one snapshot component */
    uint32_t      arity;       /* vectors: components; smallest-three: bits; string, bytes: capacity */
    int64_t       lo, hi;      /* NS_VAL_RANGED and blended integers' bounds (u64: their bits); enums: lo is the default */
    double        scale, inverse; /* quantized: Q and 1/Q */
    bool        (*valid)(int64_t v);          /* enums: <pkg>_<E>_is_valid */
    const struct ns_value_table *sub;         /* NS_VAL_STRUCT */
    const ns_value_motion *motion;            /* wrap, max_distance; NULL: neither */
} ns_value_field;

/* A record's value table, <pkg>_<T>_values in its generated .c. */
typedef struct ns_value_table {
    const ns_value_field *fields;
    uint32_t              count;
    uint32_t              snap_size; /* sizeof the record's snapshot */
    uint32_t              dirty_offset; /* components and inputs: offsetof the value's ns_dirty */
} ns_value_table;

/* Fills snap from value as the record's generated _quantize does (snap zeroed first). */
void ns_table_quantize(const ns_value_table *t, const void *value, void *snap);

/* Fills value's members from snap as the record's generated _dequantize does. */
void ns_table_dequantize(const ns_value_table *t, const void *snap, void *value);

/* True if values a and b are equal as the record's generated _equal decides (floats bitwise,
 * strings up to their NUL, bytes up to their length). */
bool ns_table_equal(const ns_value_table *t, const void *a, const void *b);

/* ---- motion: _interpolate, _prediction_error, _backup, _restore (table_motion.c) ---------- */

/* Fills out between snapshots from and to as the record's generated _interpolate does at t;
 * te is ns_t_extrapolate(t), passed by the generated caller so that its NS_EXTRAPOLATE_LIMIT
 * counts, not the runtime's. */
void ns_table_interpolate(const ns_value_table *t, const void *from, const void *to, float at, float te,
                          void *out);

/* Writes the component's prediction errors into out, as its generated _prediction_error does:
 * one entry per NS_VAL_ERROR member, in order, structs flattened. */
void ns_table_prediction_error(const ns_value_table *t, const void *predicted, const void *authoritative,
                               float *out);

/* Copies the NS_VAL_PREDICTED members of snapshot from into snapshot into, each run of adjacent
 * ones (and the padding between them) in one copy, as the generated _backup and _restore do;
 * the rest of into is left as it was. */
void ns_table_copy_predicted(const ns_value_table *t, const void *from, void *into);

/* ---- setters (table_motion.c) ---------------------------------------------------------------- */

/* Sets member i (a number, bool, enum, entity, vector or quaternion) of value v to *src as the
 * generated _set_<field> does: nothing if they are bitwise equal, else the copy and dirty bit i. */
void ns_table_set(const ns_value_table *t, uint32_t i, void *v, const void *src);

/* The same for a string member: value sanitized as ns_string_sanitize does (cut at the capacity
 * on a UTF-8 boundary, invalid UTF-8 dropped), the rest of the member zeroed. value may be the
 * member itself, and must not otherwise overlap it. */
void ns_table_set_string(const ns_value_table *t, uint32_t i, void *v, const char *value);

/* The same for a bytes member: at most its capacity of data's len bytes. */
void ns_table_set_bytes(const ns_value_table *t, uint32_t i, void *v, const void *data, size_t len);

/* The same for a struct member of `size` bytes, compared with its own table (ns_table_equal). */
void ns_table_set_struct(const ns_value_table *t, uint32_t i, void *v, const void *value, size_t size);

/* A table-driven component's or input's setters, _is_dirty and _clear_dirty are macros in the
 * generated header that expand to these, not functions: gcc -O2 spends about 2.5 ms building
 * each small function, a macro nothing until it is used (docs/generated-api.md "Setters and dirty
 * bits"). T is the record's C type (its value table is T_values), i the member's index (an
 * array's first element's), n the array's length (1 for a single field, whose index is 0), type
 * the member's C type, S a struct member's. Each argument is evaluated once, in the order written;
 * the value is converted to `type` as a parameter would be, and is the last argument, so
 * `v, (ns_vec3){1, 2, 3}` needs no parentheses; v must point to a non-const T, as a parameter
 * would check. An index of n or more changes nothing. Setters are statements: they have no value. */
#define NS_TABLE_SET(T, i, n, type, v, index, ...)                                                  \
    do {                                                                                            \
        T *const ns_self_ = (v);                                                                    \
        const uint32_t ns_index_ = (index);                                                         \
        const type ns_value_ = (__VA_ARGS__);                                                       \
        if (ns_index_ < (n)) ns_table_set(&T##_values, (i) + ns_index_, ns_self_, &ns_value_);      \
    } while (0)
#define NS_TABLE_SET_STRING(T, i, n, v, index, value)                                               \
    do {                                                                                            \
        T *const ns_self_ = (v);                                                                    \
        const uint32_t ns_index_ = (index);                                                         \
        const char *const ns_text_ = (value);                                                       \
        if (ns_index_ < (n)) ns_table_set_string(&T##_values, (i) + ns_index_, ns_self_, ns_text_); \
    } while (0)
#define NS_TABLE_SET_BYTES(T, i, n, v, index, data, len)                                            \
    do {                                                                                            \
        T *const ns_self_ = (v);                                                                    \
        const uint32_t ns_index_ = (index);                                                         \
        const void *const ns_data_ = (data);                                                        \
        const size_t ns_len_ = (len);                                                               \
        if (ns_index_ < (n)) ns_table_set_bytes(&T##_values, (i) + ns_index_, ns_self_, ns_data_, ns_len_); \
    } while (0)
#define NS_TABLE_SET_STRUCT(T, i, n, S, v, index, value)                                            \
    do {                                                                                            \
        T *const ns_self_ = (v);                                                                    \
        const uint32_t ns_index_ = (index);                                                         \
        const S *const ns_ref_ = (value);                                                           \
        if (ns_index_ < (n)) ns_table_set_struct(&T##_values, (i) + ns_index_, ns_self_, ns_ref_, sizeof(S)); \
    } while (0)
#define NS_TABLE_IS_DIRTY(T, v) ns_dirty_any((1 ? (v) : (const T *)0)->ns_dirty, NS__DIRTY_WORDS(T))
#define NS_TABLE_CLEAR_DIRTY(T, v) ns_dirty_clear((1 ? (v) : (T *)0)->ns_dirty, NS__DIRTY_WORDS(T))
#define NS__DIRTY_WORDS(T) (sizeof ((T *)0)->ns_dirty / sizeof(uint32_t))

/* True if any of the n words of a dirty mask is non-zero. */
static inline bool ns_dirty_any(const uint32_t *words, size_t n)
{
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++) any |= words[i];
    return any != 0;
}

/* Zeroes the n words of a dirty mask. */
static inline void ns_dirty_clear(uint32_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++) words[i] = 0;
}

#ifdef __cplusplus
}
#endif
#endif
