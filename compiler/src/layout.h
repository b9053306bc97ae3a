/* layout.h — the IR between checking and emitting: for every record type, the flattened list of
 * change-mask slots in wire order, each with its encoding, snapshot type, ranges and worst-case
 * bits, plus the per-audience mask and size bounds. Every wire decision is made here; emitters
 * only print what the layout says (docs/wire.md section 4). */
#ifndef NSC_LAYOUT_H
#define NSC_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "checker.h"

typedef enum nsc_enc {
    NSC_ENC_BOOL,      /* the mask bit alone: a changed bool is the reference's negation */
    /* numbers, vectors and quaternions (nsc_enc_is_numeric), kept together: */
    NSC_ENC_INT,       /* zigzag(value − reference) in the packed model, 32-bit wrapping */
    NSC_ENC_INT64,     /* zigzag64(value − reference) as two packed halves */
    NSC_ENC_RAW,       /* (value − lo) in raw_bits fixed bits */
    NSC_ENC_QUANT,     /* a quantized float: int32 snapshot, coded like NSC_ENC_INT */
    NSC_ENC_FLOAT32,   /* unquantized f32: bit pattern coded against the reference's (float scheme) */
    NSC_ENC_FLOAT64,
    NSC_ENC_VEC_Q,     /* arity quantized components, one packed delta each */
    NSC_ENC_VEC_F,     /* arity unquantized components */
    NSC_ENC_QUAT_Q,    /* 4 quantized components (normalized on dequantize) */
    NSC_ENC_QUAT_S3,   /* smallest-three: 2 + 3·raw_bits raw bits */
    NSC_ENC_QUAT_F,    /* 4 unquantized components */
    NSC_ENC_STRING,    /* string<N> */
    NSC_ENC_BYTES,     /* bytes<N> */
    NSC_ENC_STRUCT,    /* a @composite struct: every member coded against the reference, no mask */
    NSC_ENC_LIST, NSC_ENC_MAP, NSC_ENC_SET, NSC_ENC_FASTARRAY,
    NSC_ENC_ARRAY,     /* a @composite fixed array: its elements (composite's slots) coded maskless */
    NSC_ENC_CUSTOM,    /* an extern struct: the user's _write/_read/_equal, at most max_bits bits */
    NSC_ENC_UNION      /* a union: raw_bits of tag, then the member's own _write (composite: the
                          union's layout, one record slot per member) */
} nsc_enc;

struct nsc_layout;

typedef struct nsc_slot {
    /* Members ordered by size (no padding): every field of every record has one. */
    const nsc_field *field;      /* the (leaf) field this slot codes */
    const nsc_field *top;        /* the record's own field it belongs to (== field unless flattened) */
    const nsc_decl  *decl;       /* the record that declares `field` (a struct when flattened) */
    const char      *path;       /* C member path from the record: "pos", "stats.hp" */
    const char      *flat;       /* the path with '_' for '.': "stats_hp" */
    const nsc_type  *type;
    int64_t          lo, hi;     /* valid when bounded (not for a u64 without @range) */
    uint64_t         span;       /* hi − lo when has_range */
    double           scale;      /* @quantize */
    const char      *snap_ctype; /* C type of one snapshot component */
    const struct nsc_layout *composite; /* NSC_ENC_STRUCT: the struct's layout; NSC_ENC_ARRAY: the
                                           elements' slots, paths "[0]".."[N-1]"; NSC_ENC_UNION:
                                           the union's (nsc_union_layout) */
    struct nsc_slot *elem;       /* collections: the element (list, set, fastarray) or value (map) */
    struct nsc_slot *key;        /* map: the key */
    nsc_enc          enc;
    unsigned         arity;      /* components of vectors and quaternions, else 1 */
    unsigned         raw_bits;   /* NSC_ENC_RAW width; NSC_ENC_QUAT_S3 bits per component */
    uint32_t         max_bits;   /* worst payload when its mask bit is set */
    uint32_t         full_bits;  /* worst bits when coded without a mask bit (inside a composite) */
    nsc_sync         sync;
    unsigned         index;      /* wire order: position in the record's mask */
    bool             has_range;  /* a declared @range (or an enum's values, a quaternion's ±Q) */
    bool             bounded;    /* lo/hi hold the effective bounds: declared, else the type's */
    bool             initial;
    bool             predicted;  /* uses the three-baseline predictor */
    bool             record;     /* a struct coded by its own _write (collection elements) */
} nsc_slot;

/* Audience × write kind, for masks and bounds. An audience is a receiver's NSC_RECV_* bits
 * (ast.h), 0 to NSC_RECEIVERS - 1: observer 0, owner 1, a predicting owner 3. */
enum { NSC_AUD_OBSERVER = 0, NSC_AUD_OWNER = 1, NSC_AUD_PREDICTING_OWNER = 3 };
enum { NSC_WRITE_DELTA = 0, NSC_WRITE_FULL = 1 };

typedef struct nsc_layout {
    const nsc_decl *decl;
    nsc_slot       *slots;
    size_t          nslots;
    unsigned        mask_slots[NSC_RECEIVERS][2]; /* [audience][kind]: slots in the mask */
    uint32_t        max_bits[NSC_RECEIVERS][2];   /* worst size of one write (mask included) */
    uint32_t        max_bits_all;     /* the largest of max_bits */
} nsc_layout;

/* Builds the layout of every record in u (after a clean check). */
void nsc_layout_unit(nsc_checker *c, nsc_unit *u);

/* The layout of union d: one record slot per member, path the member's name, raw_bits the tag's
 * width (0 for one member), max_bits_all the worst tag plus member write. */
const nsc_layout *nsc_union_layout(const nsc_decl *d);

/* True if slot s is written for audience aud in a write of the given kind. */
bool nsc_slot_sent(const nsc_slot *s, int aud, int kind);

/* Snapshot C type of an integer-like field ("int32_t", "uint8_t", ...). */
const char *nsc_int_ctype(const nsc_type *t);

/* Worst-case bits of one packed value that may reach v. */
unsigned nsc_packed_cost(uint64_t v);

/* Name of an encoding, as the JSON descriptor spells it. */
const char *nsc_enc_name(nsc_enc e);
/* True for the encodings of numbers, vectors and quaternions: NSC_ENC_INT .. NSC_ENC_QUAT_F. */
bool nsc_enc_is_numeric(nsc_enc e);

#endif
