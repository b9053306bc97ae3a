/* ast.h — the syntax tree the parser builds. It records what was written and where; the check
 * pass annotates it (the `sem` members) and the layout pass reads it. All nodes live in the
 * context's arena. */
#ifndef NSC_AST_H
#define NSC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"

struct nsc_type;
struct nsc_unit;
struct nsc_layout;

typedef struct nsc_name {
    const char *text;
    nsc_loc     loc;
} nsc_name;

/* A possibly qualified name: a, a.b, game.core.Team. Most names have one part, which is then the
 * whole name (text at loc): such names keep no parts array, saving an allocation per type
 * reference. Read the parts through nsc_qname_part(). */
typedef struct nsc_qname {
    const char *text;     /* the parts joined with '.' */
    nsc_name   *parts;    /* count parts; NULL when count is 1 */
    nsc_loc     loc;
    uint32_t    count;
} nsc_qname;

/* Part i of q (i < q->count). */
static inline nsc_name nsc_qname_part(const nsc_qname *q, size_t i)
{
    if (q->parts) return q->parts[i];
    nsc_name n = {q->text, q->loc};
    return n;
}

/* The last part's text: the declaration's own name in a.b.Name. */
static inline const char *nsc_qname_last(const nsc_qname *q)
{
    return q->parts ? q->parts[q->count - 1].text : q->text;
}

typedef enum nsc_expr_kind {
    NSC_EX_INT,     /* integer literal: magnitude in ival */
    NSC_EX_FLOAT,   /* floating-point literal */
    NSC_EX_STRING,  /* string literal: decoded bytes in str/str_len */
    NSC_EX_BOOL,
    NSC_EX_NAME,    /* a constant, an enum value, an identifier argument (clamp, owner, ...) */
    NSC_EX_NEG,     /* -lhs */
    NSC_EX_BINARY,  /* lhs op rhs, op one of + - * / % */
    NSC_EX_LIST     /* { items } for vectors, quaternions and structs */
} nsc_expr_kind;

typedef struct nsc_expr {
    nsc_expr_kind kind;
    nsc_loc       loc;
    nsc_name      key;        /* an attribute's named argument `key = value`; text NULL otherwise */
    uint64_t      ival;
    bool          bad;        /* a literal the scanner reported (too large, bad UTF-8): no more errors */
    double        fval;
    const char   *str;
    size_t        str_len;
    bool          bval;
    nsc_qname     name;
    char          op;
    struct nsc_expr *lhs, *rhs;
    struct nsc_expr **items;
    size_t        count;
} nsc_expr;

typedef struct nsc_attr {
    nsc_name    name;
    nsc_expr  **args;
    size_t      argc;
    bool        has_parens;
    nsc_loc     loc;          /* '@' through ')' */
} nsc_attr;

typedef struct nsc_typeref nsc_typeref;

/* One argument of a generic type: a type (or a bare name that may be a constant) or a number. */
typedef struct nsc_typearg {
    nsc_typeref *type;
    nsc_expr    *expr;
    nsc_loc      loc;
} nsc_typearg;

/* Members ordered by size (no padding): every field has one. */
struct nsc_typeref {
    nsc_qname    name;
    nsc_typearg *args;
    nsc_loc      loc;
    uint32_t     argc;
    bool         generic;     /* written with <...> */
};

/* What the check pass decided about a field's attributes. */
typedef enum nsc_smooth { NSC_SMOOTH_CLAMP, NSC_SMOOTH_INTERPOLATE, NSC_SMOOTH_EXTRAPOLATE } nsc_smooth;

/* Who receives a field: a set of audiences on the owner axis (NSC_TO_*), narrowed by conditions
 * on the receiver that must all hold (NSC_IF_*). The values of all, owner, others and none are
 * those the type hash has always printed; the conditions only add bits. */
enum { NSC_TO_OWNER = 1, NSC_TO_OTHERS = 2 };
enum { NSC_IF_PREDICTED = 4, NSC_IF_INTERPOLATED = 8, NSC_IF_CUSTOM = 16 };
#define NSC_SYNC_AXIS 3u        /* the NSC_TO_* bits of a sync */
#define NSC_SYNC_CONDITIONS 28u /* the NSC_IF_* bits */
typedef enum nsc_sync {
    NSC_SYNC_NONE = 0,
    NSC_SYNC_OWNER = NSC_TO_OWNER,
    NSC_SYNC_OTHERS = NSC_TO_OTHERS,
    NSC_SYNC_ALL = NSC_TO_OWNER | NSC_TO_OTHERS,
    NSC_SYNC_PREDICTED = NSC_SYNC_ALL | NSC_IF_PREDICTED,       /* Unreal's AutonomousOnly */
    NSC_SYNC_INTERPOLATED = NSC_SYNC_ALL | NSC_IF_INTERPOLATED, /* Unreal's SimulatedOnly */
    NSC_SYNC_CUSTOM = NSC_SYNC_ALL | NSC_IF_CUSTOM              /* the application's per-connection flag */
} nsc_sync;

/* The receiver bits of the runtime's ns_audience (netschema/baselines.h): a receiver is one of 8. */
enum { NSC_RECV_OWNER = 1, NSC_RECV_PREDICTED = 2, NSC_RECV_CUSTOM = 4, NSC_RECEIVERS = 8 };

/* True if a field of sync s reaches a receiver with the NSC_RECV_* bits `to`. */
static inline bool nsc_sync_admits(unsigned s, unsigned to)
{
    if (!(s & ((to & NSC_RECV_OWNER) ? NSC_TO_OWNER : NSC_TO_OTHERS))) return false;
    if ((s & NSC_IF_PREDICTED) && !(to & NSC_RECV_PREDICTED)) return false;
    if ((s & NSC_IF_INTERPOLATED) && (to & NSC_RECV_PREDICTED)) return false;
    return !(s & NSC_IF_CUSTOM) || (to & NSC_RECV_CUSTOM) != 0;
}

/* A sync as the schema spells it: one word, or a component's word and a field's ("owner predicted"). */
static inline const char *nsc_sync_name(unsigned s)
{
    static const char *const names[3][8] = {
        {"owner", "owner predicted", "owner interpolated", "owner predicted interpolated", "owner custom",
         "owner predicted custom", "owner interpolated custom", "owner predicted interpolated custom"},
        {"others", "others predicted", "others interpolated", "others predicted interpolated", "others custom",
         "others predicted custom", "others interpolated custom", "others predicted interpolated custom"},
        {"all", "predicted", "interpolated", "predicted interpolated", "custom", "predicted custom",
         "interpolated custom", "predicted interpolated custom"},
    };
    return (s & NSC_SYNC_AXIS) == 0 ? "none" : names[(s & NSC_SYNC_AXIS) - 1][(s & NSC_SYNC_CONDITIONS) >> 2];
}

/* A number that is exact for integers and approximate for floats. */
typedef struct nsc_number {
    int64_t i;        /* when !is_float (i64 range; u64 values above use u) */
    uint64_t u;
    double  f;
    bool    is_float;
    bool    is_unsigned_big; /* integer above INT64_MAX, value in u */
} nsc_number;

/* An evaluated default value, as the emitters print it. */
typedef struct nsc_literal {
    enum { NSC_LIT_INT, NSC_LIT_FLOAT, NSC_LIT_BOOL, NSC_LIT_STRING, NSC_LIT_ENUM, NSC_LIT_LIST } kind;
    bool        neg;          /* NSC_LIT_INT: sign and magnitude */
    uint64_t    mag;
    double      f;
    bool        b;
    const char *s;            /* NSC_LIT_STRING: bytes (may hold escapes' raw bytes) */
    size_t      n;
    const struct nsc_enum_value *ev;
    struct nsc_literal **items;
    size_t      count;
} nsc_literal;

/* Members ordered by size: one of these sits in every field of every schema. */
typedef struct nsc_field_sem {
    const struct nsc_type *type;
    double     quantize;
    double     max_distance;     /* @smooth(..., max_distance = D): a longer jump snaps; 0 = none */
    nsc_number range_lo, range_hi;
    const nsc_literal *init;     /* the checked default, or NULL for the type's zero value */
    unsigned   smallest_three;   /* bits per component, 0 = not used */
    nsc_smooth smooth;
    nsc_sync   sync;             /* effective audience */
    int        depth;            /* struct nesting depth of the owner, for limits */
    uint32_t   array_n;          /* `T name[N]`: the checked N; 0 for a field that is no array */
    bool       has_quantize;
    bool       has_range;
    bool       explicit_sync;
    bool       notify, initial, composite, nopredict, raw, ordered;
    bool       wrap;             /* @smooth(..., wrap): @range is one turn */
    bool       authority_owner;  /* @authority(owner): the owning client writes it, the server checks */
    bool       authority_clamp;  /* @authority(owner, clamp): out of @range is clamped, not refused */
} nsc_field_sem;

typedef struct nsc_field {
    nsc_name     name;
    nsc_typeref *type;
    nsc_expr    *init;
    nsc_attr   **attrs;
    size_t       nattrs;
    const char  *doc;
    nsc_loc      loc;
    nsc_expr    *array_len;      /* `[N]` as written, or NULL */
    /* An element of an array field: the layout replaces `T name[N]` in its record's fields by N
     * element fields named "name[0]".."name[N-1]", each coded as a field of type T would be. */
    const struct nsc_field *array_of;
    uint32_t     array_index;
    nsc_field_sem sem;
} nsc_field;

/* The array field name of an element field: its name without "[i]"; a plain field's own name. */
static inline const char *nsc_field_base_name(const nsc_field *f)
{
    return f->array_of ? f->array_of->name.text : f->name.text;
}

typedef struct nsc_enum_value {
    nsc_name    name;
    nsc_expr   *value;
    nsc_attr  **attrs;
    size_t      nattrs;
    const char *doc;
    int64_t     resolved;
    bool        bad;          /* its value was rejected: leave it out of further checks */
} nsc_enum_value;

typedef enum nsc_decl_kind {
    NSC_D_PACKAGE, NSC_D_IMPORT, NSC_D_CONST, NSC_D_ENUM,
    NSC_D_STRUCT, NSC_D_COMPONENT, NSC_D_INPUT, NSC_D_RPC,
    NSC_D_EXTERN,  /* extern struct: a custom type whose codec the user writes */
    NSC_D_UNION    /* union: one of its member structs, chosen by a tag */
} nsc_decl_kind;

typedef struct nsc_decl {
    /* Members ordered by size (no padding between them): one per declaration adds up. */
    nsc_decl_kind kind;
    nsc_loc      loc;          /* the whole declaration */
    nsc_name     name;         /* empty for package and import */
    nsc_loc      kw_loc;       /* its keyword */
    nsc_loc      path_loc;     /* import: the path's location */
    const char  *doc;
    nsc_attr   **attrs;
    size_t       nattrs;
    /* package */
    nsc_qname    package;
    /* import */
    const char  *path;
    size_t       path_len;
    struct nsc_unit *target;
    /* const */
    nsc_expr    *value;
    /* enum */
    nsc_typeref *underlying;
    const struct nsc_type *underlying_type; /* resolved (default u8) */
    nsc_enum_value **values;
    size_t       nvalues;
    /* struct, component, input, rpc; union: its members */
    nsc_field  **fields;
    size_t       nfields;
    /* filled by check */
    struct nsc_unit *unit;
    int64_t      const_value;
    struct nsc_type *type;     /* enums and records */
    const char  *c_name;       /* <prefix>_<Name> */
    struct nsc_layout *layout;
    uint64_t     hash;
    int          state;        /* resolution state (cycle detection) */
    nsc_sync     sync;         /* component-level @sync (default all) */
    int          nesting;      /* structs: how deep structs nest inside it */
    uint32_t     id;           /* wire type id: components, inputs, rpcs */
    uint32_t     send_rate_hz; /* components: @send_rate(hz), 0 without */
    uint32_t     max_bits;     /* extern structs: @max_bits(N), 0 until checked */
    uint32_t     index;        /* position in its unit's decls: lets passes flag decls in an array */
    bool         import_used;  /* import */
    bool         const_ok;
    bool         cyclic;       /* structs: contains itself (reported) */
    bool         has_id;
    bool         unreliable;   /* rpcs: @unreliable */
    bool         entropy;      /* components: @model(entropy), the entropy coding mode */
    uint8_t      codec;        /* records: @codec(inline | table), NSC_DECL_CODEC_*: overrides --codec */
} nsc_decl;

/* nsc_decl.codec: no @codec (the run's --codec decides), @codec(inline), @codec(table). */
enum { NSC_DECL_CODEC_RUN, NSC_DECL_CODEC_INLINE, NSC_DECL_CODEC_TABLE };

/* Kind names as written in schemas ("component"). */
const char *nsc_decl_kind_name(nsc_decl_kind k);

/* True for struct, component, input and rpc. */
bool nsc_decl_is_record(const nsc_decl *d);

#endif
