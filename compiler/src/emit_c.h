/* emit_c.h — the C emitter's shared state and helpers. emit_c.c drives it and writes the files;
 * emit_c_types.c prints types and declarations; emit_c_values.c defaults, quantize/dequantize,
 * equality; emit_c_setters.c setters and dirty bits; emit_c_codec.c the serializers; emit_c_smooth.c
 * interpolation and hooks; emit_c_coll.c collection fields; emit_c_desc.c descriptors;
 * emit_c_dispatch.c the dispatch tables, handlers and _send; emit_c_predict.c prediction errors;
 * emit_c_entropy.c the entropy mode's
 * entry points (@model(entropy)). Everything printed follows the layout
 * (layout.h): the emitter makes no wire decision of its own. */
#ifndef NSC_EMIT_C_H
#define NSC_EMIT_C_H

#include "checker.h"
#include "cnames.h"
#include "layout.h"
#include "printer.h"

typedef struct nsc_cgen {
    nsc_context    *ctx;
    nsc_arena      *a;
    const nsc_unit *u;
    nsc_printer    *h;   /* the header */
    nsc_printer    *c;   /* the source */
    const nsc_decl **order;  /* the records and unions, each struct or union before its users
                                (nsc_cg_record_order) */
    size_t          norder;
    unsigned        part;                /* the source being printed: 1 is <stem>.ns.c (--split) */
    size_t          part_from, part_to;  /* its records: order[part_from..part_to) */
} nsc_cgen;

/* ---- names and C types (emit_c_types.c) ---- */
const char *nsc_cg_name(nsc_cgen *g, const nsc_decl *d);                      /* arena_Health */
const char *nsc_cg_fn(nsc_cgen *g, const nsc_decl *d, const char *suffix);    /* arena_Health_write */
const char *nsc_cg_macro(nsc_cgen *g, const nsc_decl *d, const char *suffix); /* ARENA_HEALTH_ID */
/* The C type of a field's value ("int32_t", "float", "ns_vec3", "arena_Team", "arena_Item"). */
const char *nsc_cg_value_type(nsc_cgen *g, const nsc_type *t);
/* The slot of a record's own non-struct field (its only slot). */
const nsc_slot *nsc_cg_field_slot(const nsc_layout *l, const nsc_field *f);
/* True if records of this kind get setters and dirty bits (components and inputs). */
bool nsc_cg_has_dirty(const nsc_decl *d);
/* Sets g->order to the record declarations in an order where every struct comes before its
 * users (a heap array: free it). Computed once per emit, since several parts walk it. */
void nsc_cg_record_order(nsc_cgen *g);

void nsc_cg_header_types(nsc_cgen *g);      /* enums, structs, snapshots, hooks, macros */
void nsc_cg_header_functions(nsc_cgen *g);  /* prototypes */
void nsc_cg_enum_functions(nsc_cgen *g);    /* _name() */

/* ---- collections (emit_c_coll.c) ---- */
/* "<pkg>_<Record>_<field>_<suffix>" for the collection slot s (suffix "" for the value type). */
const char *nsc_cg_coll(nsc_cgen *g, const nsc_slot *s, const char *suffix);
/* C declarators of a (non-collection) slot's snapshot and of a value of type t: "int32_t x[3]". */
const char *nsc_cg_snap_decl(nsc_cgen *g, const nsc_slot *e, const char *name);
const char *nsc_cg_value_decl(nsc_cgen *g, const nsc_type *t, const char *name);
/* The initializer of an empty collection (every aggregate opened to its first scalar). */
const char *nsc_cg_coll_zero(nsc_cgen *g, const nsc_slot *s);
void nsc_cg_coll_types(nsc_cgen *g, const nsc_decl *d);       /* header: the collection types of d */
void nsc_cg_coll_prototypes(nsc_cgen *g, const nsc_decl *d);  /* header: helpers and ops */
void nsc_cg_coll_support(nsc_cgen *g, const nsc_decl *d);     /* source: element functions, ops */
void nsc_cg_coll_helpers(nsc_cgen *g, const nsc_decl *d);     /* source: helpers */
void nsc_cg_coll_quantize(nsc_cgen *g, const nsc_slot *s, const char *v, const char *q);
void nsc_cg_coll_dequantize(nsc_cgen *g, const nsc_slot *s, const char *from, const char *to);
/* _apply's statements for collection f: bring live to s with its per-item (fast array) or
 * per-element (list, set, map) hooks. */
void nsc_cg_coll_apply(nsc_cgen *g, const nsc_field *f, const nsc_slot *s);

/* ---- values (emit_c_values.c) ---- */
/* Statements quantizing value expression v into snapshot expression q (init: the enum default). */
void nsc_cg_quantize_value(nsc_cgen *g, const nsc_slot *s, const nsc_type *t, const nsc_literal *init, const char *v,
                           const char *q);
/* Statements dequantizing snapshot expression from into value expression to. */
void nsc_cg_dequantize_value(nsc_cgen *g, const nsc_slot *s, const nsc_type *t, const char *from, const char *to);
/* A C condition: values a and b of type t differ (floats bitwise). */
const char *nsc_cg_value_differs(nsc_cgen *g, const nsc_type *t, const char *a, const char *b);
void nsc_cg_defaults(nsc_cgen *g, const nsc_decl *d);    /* snap default, _init */
/* The C initializer of the default snapshot of struct type t. */
void nsc_cg_snap_initializer(nsc_cgen *g, const nsc_type *t, nsc_strbuf *sb);
void nsc_cg_quantize(nsc_cgen *g, const nsc_decl *d);    /* _quantize, _dequantize */
/* Statements that dequantize field f from the snapshot at prefix src ("s->") into dst ("v->"). */
void nsc_cg_dequantize_field(nsc_cgen *g, const nsc_layout *l, const nsc_field *f, const char *src, const char *dst);
void nsc_cg_equality(nsc_cgen *g, const nsc_decl *d);    /* _snap_equal, _equal */
void nsc_cg_value_equality(nsc_cgen *g, const nsc_decl *d); /* _equal alone (field by field, on values) */
/* An int64_t constant that compiles warning-free, INT64_MIN included ("INT64_C(-5)"). */
const char *nsc_cg_i64(nsc_cgen *g, int64_t v);
/* v as a float (f32) or double literal that reads back exactly and compiles warning-free. */
const char *nsc_cg_float(nsc_cgen *g, double v, bool f32);
/* 1/Q as the float or double literal _dequantize multiplies by. */
const char *nsc_cg_inverse(nsc_cgen *g, double scale, bool f32);
/* A C expression for a default literal of type t ("100", "1.5f", "arena_Team_blue"). */
void nsc_cg_literal(nsc_cgen *g, const nsc_type *t, const nsc_literal *l, nsc_strbuf *sb);

/* ---- setters and dirty bits of components and inputs (emit_c_setters.c) ---- */
/* True if d's setters, _is_dirty and _clear_dirty are header macros over its value table (a
 * table-driven record: nsc_cg_table_values) rather than functions. */
bool nsc_cg_setter_macros(nsc_cgen *g, const nsc_decl *d);
void nsc_cg_setter_prototypes(nsc_cgen *g, const nsc_decl *d); /* header: prototypes and macros */
void nsc_cg_setters(nsc_cgen *g, const nsc_decl *d);           /* source: the functions */

/* ---- serializers (emit_c_codec.c) ---- */
void nsc_cg_codec(nsc_cgen *g, const nsc_decl *d);
/* Pieces the collection element functions reuse: a slot's validity check (statements that
 * return a status), the "differs" condition, and payload write/read (maskless: no change bit). */
void nsc_cg_check_slot(nsc_cgen *g, const nsc_slot *s, const char *base);
/* True if a slot's snapshot is an array (vectors, quaternions, strings, bytes): copied with memcpy. */
bool nsc_cg_snap_is_array(const nsc_slot *s);
const char *nsc_cg_differs(nsc_cgen *g, const nsc_slot *s, const char *cur, const char *ref);
void nsc_cg_write_payload(nsc_cgen *g, const nsc_slot *s, const char *cur, const char *ref, bool maskless);
void nsc_cg_read_payload(nsc_cgen *g, const nsc_slot *s, const char *dst, const char *ref, bool maskless);

/* ---- smoothing and hooks (emit_c_smooth.c) ---- */
void nsc_cg_interpolate(nsc_cgen *g, const nsc_decl *d);
void nsc_cg_apply(nsc_cgen *g, const nsc_decl *d);

/* ---- descriptors (emit_c_desc.c) ---- */
void nsc_cg_descriptor(nsc_cgen *g, const nsc_decl *d);
void nsc_cg_enum_descriptors(nsc_cgen *g); /* one ns_enum_desc per enum, which records share */

/* ---- prediction errors of components (emit_c_predict.c) ---- */
void nsc_cg_prediction_header(nsc_cgen *g);                 /* counts, name tables, prototypes */
/* _backup, _restore, _prediction_error and its names; with values (a value table's name, --codec
 * table) their bodies call ns_table_copy_predicted and ns_table_prediction_error. */
void nsc_cg_prediction(nsc_cgen *g, const nsc_decl *d, const char *values);
/* Field f of d reaches a predicting owner (_backup copies it); reported: it also has a distance,
 * so an entry in _prediction_error. */
bool nsc_cg_predicted(const nsc_decl *d, const nsc_field *f);
bool nsc_cg_reported(const nsc_decl *d, const nsc_field *f);

/* ---- client-authoritative fields, @authority(owner) only (emit_c_authority.c) ---- */
void nsc_cg_authority_header(nsc_cgen *g);                /* hook types, MAX_BYTES, prototypes */
void nsc_cg_authority(nsc_cgen *g, const nsc_decl *d);    /* _authority_write/_send/_decode/_read */
bool nsc_cg_has_authority(const nsc_decl *d);             /* d is a component with owner-written fields */

/* ---- the entropy mode's entry points, @model(entropy) only (emit_c_entropy.c) ---- */
void nsc_cg_entropy_header(nsc_cgen *g);                  /* the include and prototypes */
void nsc_cg_entropy(nsc_cgen *g, const nsc_decl *d);      /* _entropy_write, _entropy_read */
void nsc_cg_type_table(nsc_cgen *g);
/* An extern struct's ns_type_desc: name and size, no fields (emit_c_desc.c). */
void nsc_cg_extern_descriptor(nsc_cgen *g, const nsc_decl *d);

/* ---- unions (emit_c_union.c): g->order holds them after their members, before their users ---- */
void nsc_cg_union_types(nsc_cgen *g, const nsc_decl *u);       /* header: value, snapshot, tags */
void nsc_cg_union_prototypes(nsc_cgen *g, const nsc_decl *u);  /* header: functions */
void nsc_cg_union_source(nsc_cgen *g, const nsc_decl *u);      /* source: functions, descriptor */

/* ---- the table mode, --codec table (emit_c_table.c): called from emit_c.c only ---- */
/* True if the table mode is on and d's _write and _read can be table-driven (a record with no
 * extern struct in its slots; unions keep their own code). */
bool nsc_cg_table_eligible(nsc_cgen *g, const nsc_decl *d);
void nsc_cg_table_codec(nsc_cgen *g, const nsc_decl *d);   /* _write, _read calling netschema/table.h */
void nsc_cg_table_equality(nsc_cgen *g, const nsc_decl *d); /* _snap_equal by the table, _equal */
/* _quantize and _dequantize by a value table (ns_table_quantize); false, printing nothing, if d
 * keeps the straight-line ones (nsc_cg_quantize). */
bool nsc_cg_table_quantize(nsc_cgen *g, const nsc_decl *d);
/* True if d gets a value table (<pkg>_<T>_values): its _quantize, _dequantize, _equal use it. */
bool nsc_cg_table_values(nsc_cgen *g, const nsc_decl *d);
/* emit_c_table_motion.c: _interpolate, and a component's _backup, _restore, _prediction_error
 * (with its names), by the value table; false, printing nothing, if d keeps the straight-line
 * ones (nsc_cg_interpolate, nsc_cg_prediction). */
bool nsc_cg_table_interpolate(nsc_cgen *g, const nsc_decl *d);
bool nsc_cg_table_prediction(nsc_cgen *g, const nsc_decl *d);
/* The NS_VAL_INTERPOLATE/EXTRAPOLATE/PREDICTED/ERROR bits of field f's value table entry. */
unsigned nsc_cg_table_motion_flags(const nsc_decl *d, const nsc_field *f);
/* Prints d's ns_value_motion entries (wrap, max_distance) as one static array and returns, per
 * field, what its value table entry points to ("&<record>_values_motion[k]" or "0"). */
const char **nsc_cg_table_motions(nsc_cgen *g, const nsc_decl *d);

/* ---- dispatch tables, handlers and _send (emit_c_dispatch.c) ---- */
void nsc_cg_dispatch_header(nsc_cgen *g);   /* the tables' and handlers' declarations */
void nsc_cg_dispatch_source(nsc_cgen *g);   /* wrappers, tables, _dispatch, _send */

/* Formats into the arena. */
#define NSC_FMT(g, ...) nsc_arena_printf((g)->a, __VA_ARGS__)

#endif
