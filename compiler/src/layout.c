/* layout.c — wire order, change-mask slots, encodings, snapshot types and worst-case sizes. */
#include "layout.h"

#include <math.h>
#include <string.h>

#include <netschema/packed.h>

#include "cnames.h"

unsigned nsc_packed_cost(uint64_t v)
{
    return v > 0xffffffffu ? 38u : ns_packed_u32_cost((uint32_t)v, NULL);
}

bool nsc_enc_is_numeric(nsc_enc e)
{
    return e >= NSC_ENC_INT && e <= NSC_ENC_QUAT_F;
}

const char *nsc_enc_name(nsc_enc e)
{
    static const char *const names[] = {
        "bool", "packed_delta", "packed_delta64", "raw", "quantized", "float32", "float64",
        "vec_quantized", "vec_float", "quat_quantized", "quat_smallest_three", "quat_float",
        "string", "bytes", "composite", "list", "map", "set", "fastarray", "array", "custom", "union",
    };
    return names[e];
}

const char *nsc_int_ctype(const nsc_type *t)
{
    if (t->kind == NSC_T_ENUM) t = t->decl->underlying_type;
    switch (t->kind) {
    case NSC_T_BOOL: return "bool";
    case NSC_T_I8: return "int8_t";
    case NSC_T_U8: return "uint8_t";
    case NSC_T_I16: return "int16_t";
    case NSC_T_U16: return "uint16_t";
    case NSC_T_I32: return "int32_t";
    case NSC_T_U32: case NSC_T_ENTITY: return "uint32_t";
    case NSC_T_I64: return "int64_t";
    case NSC_T_U64: return "uint64_t";
    default: return "int32_t";
    }
}

bool nsc_slot_sent(const nsc_slot *s, int aud, int kind)
{
    return nsc_sync_admits(s->sync, (unsigned)aud) && (!s->initial || kind == NSC_WRITE_FULL);
}

/* Bits needed for values 0..span. */
static unsigned bits_for(uint64_t span)
{
    unsigned b = 0;
    while (b < 64 && (span >> b) != 0) b++;
    return b;
}

/* Worst packed delta between two values of a range of this span (32-bit wrapping deltas). */
static uint32_t delta_cost(uint64_t span)
{
    return span >= 0x80000000u ? 38u : nsc_packed_cost(2 * span);
}

/* Integer range of a field: @range if given, else its type's. */
static void int_range(const nsc_field_sem *s, const nsc_type *t, nsc_slot *slot)
{
    nsc_int lo, hi;
    nsc_type_int_range(t, &lo, &hi);
    if (s->has_range) {
        lo = s->range_lo.is_unsigned_big ? nsc_int_from_u64(s->range_lo.u) : nsc_int_from_i64(s->range_lo.i);
        hi = s->range_hi.is_unsigned_big ? nsc_int_from_u64(s->range_hi.u) : nsc_int_from_i64(s->range_hi.i);
    }
    nsc_int span;
    nsc_int_sub(hi, lo, &span);
    slot->span = span.mag;
    int64_t l = 0, h = 0;
    slot->bounded = nsc_int_to_i64(lo, &l) && nsc_int_to_i64(hi, &h);
    slot->has_range = s->has_range && slot->bounded;
    slot->lo = l;
    slot->hi = h;
    if (t->kind == NSC_T_ENUM && t->decl->nvalues) {
        /* Enums are checked against their declared values on read, so their span is theirs. */
        int64_t mn = t->decl->values[0]->resolved, mx = mn;
        for (size_t i = 1; i < t->decl->nvalues; i++) {
            int64_t v = t->decl->values[i]->resolved;
            if (v < mn) mn = v;
            if (v > mx) mx = v;
        }
        slot->has_range = slot->bounded = true;
        slot->lo = mn;
        slot->hi = mx;
        slot->span = (uint64_t)mx - (uint64_t)mn;
    }
}

/* Quantized range of a float field: round(lo·Q)..round(hi·Q) if @range, else all of int32. */
static void quant_range(const nsc_field_sem *s, nsc_slot *slot)
{
    slot->bounded = true;
    if (s->has_range) {
        slot->has_range = true;
        slot->lo = (int64_t)llround(s->range_lo.f * s->quantize);
        slot->hi = (int64_t)llround(s->range_hi.f * s->quantize);
    } else {
        slot->lo = INT32_MIN;
        slot->hi = INT32_MAX;
    }
    slot->span = (uint64_t)(slot->hi - slot->lo);
}

/* String and bytes: packed common-prefix length, packed remaining length, remaining bytes
 * (runtime text.h). */
static uint32_t text_bits(uint32_t capacity)
{
    return 2u * nsc_packed_cost(capacity) + 8u * capacity;
}

/* Unquantized floats are XOR-coded against the reference (runtime floats.h): a changed f32
 * takes at most 42 bits, an f64 76; without a mask bit of its own (vector components, composite
 * members) a float spends one more bit saying whether it changed. */
#define F32_BITS 42u
#define F64_BITS 76u

/* Encoding, snapshot type and bounds of one slot. */
static void encode(nsc_slot *slot, const nsc_field_sem *s, const nsc_type *t)
{
    slot->arity = nsc_type_arity(t);
    slot->scale = s->quantize;
    switch (t->kind) {
    case NSC_T_BOOL:
        slot->enc = NSC_ENC_BOOL, slot->snap_ctype = "bool", slot->max_bits = 0, slot->full_bits = 1;
        return;
    case NSC_T_F32:
    case NSC_T_F64:
        if (s->has_quantize) {
            quant_range(s, slot);
            slot->enc = NSC_ENC_QUANT, slot->snap_ctype = "int32_t";
            slot->max_bits = slot->full_bits = delta_cost(slot->span);
        } else {
            bool f64 = t->kind == NSC_T_F64;
            slot->enc = f64 ? NSC_ENC_FLOAT64 : NSC_ENC_FLOAT32;
            slot->snap_ctype = f64 ? "uint64_t" : "uint32_t";
            slot->max_bits = f64 ? F64_BITS : F32_BITS;
            slot->full_bits = slot->max_bits + 1u;
        }
        return;
    case NSC_T_VEC2:
    case NSC_T_VEC3:
    case NSC_T_VEC4:
    case NSC_T_QUAT:
        if (t->kind == NSC_T_QUAT && s->smallest_three) {
            slot->enc = NSC_ENC_QUAT_S3, slot->snap_ctype = "uint64_t", slot->raw_bits = s->smallest_three;
            slot->max_bits = slot->full_bits = 2u + 3u * s->smallest_three;
            slot->arity = 1;
        } else if (s->has_quantize) {
            slot->enc = t->kind == NSC_T_QUAT ? NSC_ENC_QUAT_Q : NSC_ENC_VEC_Q;
            slot->snap_ctype = "int32_t";
            if (t->kind == NSC_T_QUAT) {
                nsc_field_sem unit = *s;
                unit.has_range = true;
                unit.range_lo.f = -1.0, unit.range_hi.f = 1.0;
                quant_range(&unit, slot);
            } else {
                quant_range(s, slot);
            }
            slot->max_bits = slot->full_bits = slot->arity * delta_cost(slot->span);
        } else {
            slot->enc = t->kind == NSC_T_QUAT ? NSC_ENC_QUAT_F : NSC_ENC_VEC_F;
            slot->snap_ctype = "uint32_t";
            slot->max_bits = slot->full_bits = slot->arity * (F32_BITS + 1u);
        }
        return;
    case NSC_T_STRING:
    case NSC_T_BYTES:
        slot->enc = t->kind == NSC_T_STRING ? NSC_ENC_STRING : NSC_ENC_BYTES;
        slot->snap_ctype = t->kind == NSC_T_STRING ? "char" : "uint8_t";
        slot->max_bits = text_bits(t->capacity);
        slot->full_bits = slot->max_bits + 1u; /* inside a composite: a "changed" bit first */
        return;
    case NSC_T_LIST:
    case NSC_T_MAP:
    case NSC_T_SET:
    case NSC_T_FASTARRAY:
        slot->enc = t->kind == NSC_T_LIST ? NSC_ENC_LIST : t->kind == NSC_T_MAP ? NSC_ENC_MAP
                  : t->kind == NSC_T_SET ? NSC_ENC_SET : NSC_ENC_FASTARRAY;
        slot->snap_ctype = "";
        return; /* the element slots and sizes come from collection() */
    case NSC_T_UNION: /* sized by add_field, from the union's layout */
        slot->enc = NSC_ENC_UNION;
        slot->snap_ctype = "";
        return;
    case NSC_T_EXTERN: /* the user's bits, at most @max_bits(N); the snapshot holds the user's type */
        slot->enc = NSC_ENC_CUSTOM;
        slot->max_bits = t->decl->max_bits;
        slot->full_bits = slot->max_bits + 1u;
        return;
    default: /* integers, enums, entity */
        slot->snap_ctype = nsc_int_ctype(t);
        int_range(s, t, slot);
        if (s->raw) {
            slot->enc = NSC_ENC_RAW;
            slot->raw_bits = bits_for(slot->span);
            slot->max_bits = slot->full_bits = slot->raw_bits;
        } else if (nsc_type_int_bits(t) == 64) {
            slot->enc = NSC_ENC_INT64;
            slot->max_bits = slot->full_bits = slot->span >= 0x80000000u ? 76u : delta_cost(slot->span) + 2u;
        } else {
            slot->enc = NSC_ENC_INT;
            slot->max_bits = slot->full_bits = delta_cost(slot->span);
        }
        return;
    }
}

static bool predictable(nsc_enc e)
{
    return e == NSC_ENC_INT || e == NSC_ENC_INT64 || e == NSC_ENC_RAW || e == NSC_ENC_QUANT ||
           e == NSC_ENC_VEC_Q || e == NSC_ENC_QUAT_Q;
}

/* A packed 64-bit value (two halves) that may reach v. */
static uint32_t packed64_cost(uint64_t v)
{
    return v > 0xffffffffu ? 76u : 2u + nsc_packed_cost(v);
}

/* Worst bits of the first key of a map or set delta (zigzagged distance from the reference's
 * first key) and of every further one (its gap minus one). */
static uint32_t first_key_bits(const nsc_slot *k)
{
    return k->span < 0x80000000u ? packed64_cost(2 * k->span + 1) : 76u;
}

static uint32_t gap_key_bits(const nsc_slot *k)
{
    if (nsc_type_int_bits(k->type->kind == NSC_T_ENUM ? k->type->decl->underlying_type : k->type) <= 32)
        return nsc_packed_cost(k->span);
    return packed64_cost(k->span);
}

/* Worst bits of the at most 2n keys of a set or map delta: integer keys as the first key and
 * gaps; string keys each coded against the previous key, at most a whole string each (runtime
 * coll_keyed.c, docs/wire.md section 12.6). */
static uint64_t keys_bits(const nsc_slot *k, uint64_t n)
{
    if (k->enc == NSC_ENC_STRING) return 2 * n * k->max_bits;
    return first_key_bits(k) + (2 * n - 1) * gap_key_bits(k);
}

/* Worst bits of one element: a struct codes itself (its own mask); anything else has a change
 * bit and, when set, its payload. */
static uint32_t elem_bits(const nsc_slot *e)
{
    return e->record ? e->max_bits : 1u + e->max_bits;
}

/* Adds with saturation: a schema may declare collections whose worst case passes 2^32 bits. */
static uint32_t add_sat(uint64_t a, uint64_t b)
{
    return a + b > UINT32_MAX ? UINT32_MAX : (uint32_t)(a + b);
}

typedef struct builder {
    nsc_checker *c;
    nsc_slot    *slots;
    size_t       count, cap;
} builder;

static nsc_layout *layout_of(nsc_checker *c, const nsc_decl *d);

/* A slot for a collection's element, key or value type, with the field's attributes. */
static nsc_slot *element(nsc_checker *c, const nsc_field_sem *sem, const nsc_type *t)
{
    nsc_slot *e = NSC_NEW(c->a, nsc_slot);
    e->type = t;
    e->sync = NSC_SYNC_ALL;
    e->path = "";
    e->flat = "";
    if (t->kind == NSC_T_STRUCT) {
        const nsc_layout *inner = layout_of(c, t->decl);
        e->enc = NSC_ENC_STRUCT;
        e->record = true;
        e->arity = 1;
        e->composite = inner;
        e->snap_ctype = "";
        e->max_bits = e->full_bits = inner->max_bits_all;
    } else {
        encode(e, sem, t);
    }
    return e;
}

/* Element slots and worst-case sizes of a collection (wire format: docs/wire.md and the
 * runtime's coll_*.c). Operations of keyed kinds: at most the reference's N plus N new ones. */
static void collection(nsc_checker *c, nsc_slot *s, const nsc_field_sem *sem, const nsc_type *t)
{
    nsc_field_sem none;
    memset(&none, 0, sizeof none);
    uint64_t n = t->capacity, bits = 0;
    switch (t->kind) {
    case NSC_T_LIST:
        s->elem = element(c, sem, t->elem);
        bits = 4u * nsc_packed_cost(n) + n * elem_bits(s->elem);
        break;
    case NSC_T_SET:
        s->elem = element(c, sem, t->elem); /* a @range bounds the keys */
        bits = nsc_packed_cost(2 * n) + keys_bits(s->elem, n) + 2 * n;
        break;
    case NSC_T_MAP:
        s->key = element(c, &none, t->key);
        s->elem = element(c, sem, t->elem);
        bits = nsc_packed_cost(2 * n) + keys_bits(s->key, n) + 2 * n * 2 +
               n * elem_bits(s->elem);
        break;
    default: /* fastarray: IDs are 32-bit, the first one zigzagged against the reference's first */
        s->elem = element(c, &none, t->elem);
        bits = nsc_packed_cost(2 * n) + 41u + (2 * n - 1) * 38u + 2 * n * 2 + n * s->elem->max_bits;
        if (sem->ordered) bits += 1u + n * nsc_packed_cost(2 * n + 1);
        break;
    }
    s->max_bits = bits > UINT32_MAX ? UINT32_MAX : (uint32_t)bits;
    /* Inside a composite struct a collection has no change bit of its own: it spends one. */
    s->full_bits = add_sat(s->max_bits, 1);
}

/* A union's layout: its tag's width, and per member a slot coded by the member struct's own
 * _write (docs/wire.md section 12.9). Built once per union, by the first record that holds it or
 * by nsc_layout_unit. */
static nsc_layout *union_layout(nsc_checker *c, const nsc_decl *d)
{
    if (d->layout) return d->layout;
    nsc_layout *l = NSC_NEW(c->a, nsc_layout);
    l->decl = d;
    l->nslots = d->nfields;
    l->slots = NSC_NEW_ARRAY(c->a, nsc_slot, d->nfields);
    unsigned tag = bits_for(d->nfields ? d->nfields - 1u : 0u);
    uint32_t worst = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        nsc_slot *s = &l->slots[i];
        *s = *element(c, &d->fields[i]->sem, d->fields[i]->sem.type);
        s->field = s->top = d->fields[i];
        s->decl = d;
        s->path = s->flat = d->fields[i]->name.text;
        s->index = (unsigned)i;
        s->raw_bits = tag;
        if (s->max_bits > worst) worst = s->max_bits;
    }
    l->max_bits_all = add_sat(tag, worst);
    ((nsc_decl *)d)->layout = l;
    return l;
}

const nsc_layout *nsc_union_layout(const nsc_decl *d)
{
    return d->layout;
}

static nsc_slot *push(builder *b)
{
    if (b->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 8;
        nsc_slot *n = NSC_NEW_ARRAY(b->c->a, nsc_slot, cap);
        if (b->count) memcpy(n, b->slots, b->count * sizeof *n);
        b->slots = n;
        b->cap = cap;
    }
    nsc_slot *s = &b->slots[b->count++];
    memset(s, 0, sizeof *s);
    return s;
}

/* A slot's flat name: the path with '_' for '.', and "name_3" for the element "name[3]". */
static const char *flat_name(nsc_checker *c, const char *prefix, const nsc_field *f)
{
    const char *own = f->array_of ? nsc_arena_printf(c->a, "%s_%u", f->array_of->name.text, f->array_index) : f->name.text;
    return prefix ? nsc_arena_printf(c->a, "%s_%s", prefix, own) : own;
}

static void add_field(builder *b, const nsc_decl *owner, const nsc_decl *decl, const nsc_field *top,
                      const nsc_field *f, const char *path, const char *flat);

/* True for the element fields of a @composite array: one slot codes them all. */
static bool in_composite_array(const nsc_field *f)
{
    return f->array_of && f->array_of->sem.composite;
}

/* The one slot of a @composite array whose first element field is f (path "name[0]"): its
 * elements are slots of a layout of their own, coded without change bits, like a @composite
 * struct's members (docs/wire.md section 12.7). */
static void add_composite_array(builder *b, const nsc_decl *decl, const nsc_field *top, const nsc_field *f,
                                const char *path, const char *flat)
{
    const nsc_field *arr = f->array_of;
    uint32_t n = arr->sem.array_n;
    builder inner = {b->c, NSC_NEW_ARRAY(b->c->a, nsc_slot, n), 0, n};
    size_t first = 0; /* f's index in decl->fields: the other elements follow it */
    while (decl->fields[first] != f) first++;
    for (uint32_t i = 0; i < n; i++) {
        const nsc_field *el = decl->fields[first + i];
        add_field(&inner, decl, decl, el, el, nsc_arena_printf(b->c->a, "[%u]", i), nsc_arena_printf(b->c->a, "%u", i));
    }
    nsc_layout *l = NSC_NEW(b->c->a, nsc_layout);
    l->decl = decl;
    l->slots = inner.slots;
    l->nslots = inner.count;
    nsc_slot *s = push(b);
    s->field = arr;
    s->top = top == f ? arr : top;
    s->decl = decl;
    s->path = nsc_arena_strndup(b->c->a, path, strlen(path) - 3); /* "name[0]" less "[0]" */
    s->flat = nsc_arena_strndup(b->c->a, flat, strlen(flat) - 2); /* "name_0" less "_0" */
    s->type = arr->sem.type;
    s->sync = top->sem.sync;
    s->initial = top->sem.initial;
    s->enc = NSC_ENC_ARRAY;
    s->arity = 1;
    s->composite = l;
    s->snap_ctype = "";
    for (size_t i = 0; i < l->nslots; i++) {
        l->slots[i].index = (unsigned)i;
        l->slots[i].predicted = false;
        s->full_bits = add_sat(s->full_bits, l->slots[i].full_bits);
    }
    s->max_bits = s->full_bits;
}

/* Adds the slots of f: one, or (for a non-composite struct) one per member, recursively. */
static void add_field(builder *b, const nsc_decl *owner, const nsc_decl *decl, const nsc_field *top,
                      const nsc_field *f, const char *path, const char *flat)
{
    const nsc_type *t = f->sem.type;
    if (in_composite_array(f) && path[0] != '[') {
        if (f->array_index == 0) add_composite_array(b, decl, top, f, path, flat);
        return;
    }
    if (t->kind == NSC_T_STRUCT && !f->sem.composite) {
        for (size_t i = 0; i < t->decl->nfields; i++) {
            const nsc_field *sub = t->decl->fields[i];
            add_field(b, owner, t->decl, top, sub, nsc_arena_printf(b->c->a, "%s.%s", path, sub->name.text),
                      flat_name(b->c, flat, sub));
        }
        return;
    }
    nsc_slot *s = push(b);
    s->field = f;
    s->top = top;
    s->decl = decl;
    s->path = path;
    s->flat = flat;
    s->type = t;
    s->sync = top->sem.sync;
    s->initial = top->sem.initial;
    if (t->kind == NSC_T_STRUCT) {
        const nsc_layout *inner = layout_of(b->c, t->decl);
        s->enc = NSC_ENC_STRUCT;
        s->arity = 1;
        s->composite = inner;
        s->snap_ctype = "";
        for (size_t i = 0; i < inner->nslots; i++) s->full_bits = add_sat(s->full_bits, inner->slots[i].full_bits);
        s->max_bits = s->full_bits;
    } else {
        encode(s, &f->sem, t);
        if (nsc_type_is_collection(t)) collection(b->c, s, &f->sem, t);
        if (t->kind == NSC_T_EXTERN) s->snap_ctype = nsc_cname(b->c->a, t->decl);
        if (t->kind == NSC_T_UNION) {
            s->composite = union_layout(b->c, t->decl);
            s->raw_bits = s->composite->nslots ? s->composite->slots[0].raw_bits : 0;
            s->max_bits = s->composite->max_bits_all;
            s->full_bits = add_sat(s->max_bits, 1);
        }
    }
    /* Enums and entity handles are labels, not quantities: extrapolating them means nothing. */
    bool label = t->kind == NSC_T_ENUM || t->kind == NSC_T_ENTITY;
    s->predicted = owner->kind == NSC_D_COMPONENT && predictable(s->enc) && !label && !top->sem.nopredict &&
                   !f->sem.nopredict;
}

/* Mask bits of n slots: one per slot, plus a leading "anything changed" bit when n > 1, so an
 * unchanged record costs one bit. */
static uint32_t mask_bits(unsigned n)
{
    return n > 1 ? n + 1 : n;
}

/* Slots of field f: one, or those of its members for a non-composite struct. */
static size_t count_slots(nsc_checker *c, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    if (in_composite_array(f)) return f->array_index == 0;
    if (t->kind != NSC_T_STRUCT || f->sem.composite) return 1;
    layout_of(c, t->decl); /* its array fields expanded first */
    size_t n = 0;
    for (size_t i = 0; i < t->decl->nfields; i++) n += count_slots(c, t->decl->fields[i]);
    return n;
}

/* Replaces every array field `T name[N]` of d by N element fields "name[0]".."name[N-1]" that
 * share its checked semantics: from here on (slots, hash, emitters) an element is a field of
 * type T whose C path indexes the array (idl/SPEC.md, "Fixed arrays"). */
static void expand_arrays(nsc_checker *c, nsc_decl *d)
{
    size_t n = 0;
    bool any = false;
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        any |= f->sem.array_n != 0 && !f->array_of;
        n += f->sem.array_n && !f->array_of ? f->sem.array_n : 1;
    }
    if (!any) return;
    nsc_field **out = NSC_NEW_ARRAY(c->a, nsc_field *, n);
    size_t k = 0;
    for (size_t i = 0; i < d->nfields; i++) {
        nsc_field *f = d->fields[i];
        if (!f->sem.array_n || f->array_of) {
            out[k++] = f;
            continue;
        }
        for (uint32_t e = 0; e < f->sem.array_n; e++) {
            nsc_field *el = NSC_NEW(c->a, nsc_field);
            *el = *f;
            el->name.text = nsc_arena_printf(c->a, "%s[%u]", f->name.text, e);
            el->array_of = f;
            el->array_index = e;
            out[k++] = el;
        }
    }
    d->fields = out;
    d->nfields = n;
}

static nsc_layout *layout_of(nsc_checker *c, const nsc_decl *d)
{
    if (d->layout) return d->layout;
    expand_arrays(c, (nsc_decl *)d);
    /* Sized exactly up front: growing by doubling left the smaller arrays in the arena, and a
     * one-field struct paid for eight slots. */
    builder b = {c, NULL, 0, 0};
    for (size_t i = 0; i < d->nfields; i++) b.cap += count_slots(c, d->fields[i]);
    if (b.cap) b.slots = NSC_NEW_ARRAY(c->a, nsc_slot, b.cap);
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        add_field(&b, d, d, f, f, f->name.text, flat_name(c, NULL, f));
    }
    nsc_layout *l = NSC_NEW(c->a, nsc_layout);
    l->decl = d;
    l->slots = b.slots;
    l->nslots = b.count;
    for (size_t i = 0; i < l->nslots; i++) l->slots[i].index = (unsigned)i;
    for (int aud = 0; aud < NSC_RECEIVERS; aud++) {
        for (int kind = 0; kind < 2; kind++) {
            unsigned n = 0;
            uint32_t bits = 0;
            for (size_t i = 0; i < l->nslots; i++) {
                if (!nsc_slot_sent(&l->slots[i], aud, kind)) continue;
                n++;
                bits = add_sat(bits, l->slots[i].max_bits);
            }
            l->mask_slots[aud][kind] = n;
            l->max_bits[aud][kind] = add_sat(mask_bits(n), bits);
            if (l->max_bits[aud][kind] > l->max_bits_all) l->max_bits_all = l->max_bits[aud][kind];
        }
    }
    ((nsc_decl *)d)->layout = l;
    return l;
}

void nsc_layout_unit(nsc_checker *c, nsc_unit *u)
{
    for (size_t i = 0; i < u->ndecls; i++)
        if (nsc_decl_is_record(u->decls[i])) layout_of(c, u->decls[i]);
        else if (u->decls[i]->kind == NSC_D_UNION) union_layout(c, u->decls[i]);
}
