/* check_types.c — resolving field types, enums, records, struct containment and type ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"

static nsc_type *new_type(nsc_checker *c, nsc_type_kind kind)
{
    nsc_type *t = NSC_NEW(c->a, nsc_type);
    t->kind = kind;
    return t;
}

/* A capacity argument: an integer literal, a parenthesized expression or a constant's name. */
static bool capacity_arg(nsc_checker *c, nsc_unit *u, const nsc_typearg *arg, const char *generic,
                         uint32_t limit, uint32_t *out)
{
    nsc_int v;
    if (arg->expr) {
        if (!nsc_eval_int(c, u, arg->expr, "a capacity", &v)) return false;
    } else if (!arg->type->generic) {
        nsc_decl *d = nsc_lookup(c, u, &arg->type->name, false);
        if (!d || d->kind != NSC_D_CONST) {
            nsc_error(c->d, "E-type-args", arg->loc, "the capacity of %s<...> must be a number or a constant, not '%s'",
                      generic, arg->type->name.text);
            return false;
        }
        nsc_resolve_const(c, d);
        if (!d->const_ok) return false;
        v = nsc_int_from_i64(d->const_value);
    } else {
        nsc_error(c->d, "E-type-args", arg->loc, "the capacity of %s<...> must be a number", generic);
        return false;
    }
    if (v.neg || v.mag == 0 || v.mag > limit) {
        nsc_strbuf sb = NSC_STRBUF_INIT;
        nsc_int_spell(v, &sb);
        nsc_error(c->d, "E-limit-capacity", arg->loc, "capacity %s of %s<...> is out of range: it must be 1 to %u",
                  nsc_sb_str(&sb), generic, limit);
        nsc_sb_free(&sb);
        return false;
    }
    *out = (uint32_t)v.mag;
    return true;
}

static const nsc_type *resolve(nsc_checker *c, nsc_unit *u, const nsc_typeref *t);

static const nsc_type *type_arg(nsc_checker *c, nsc_unit *u, const nsc_typearg *arg, const char *generic)
{
    if (!arg->type) {
        nsc_error(c->d, "E-type-args", arg->loc, "expected a type as this argument of %s<...>, found a number", generic);
        return NULL;
    }
    return resolve(c, u, arg->type);
}

static const char *generic_usage(const char *name)
{
    return strcmp(name, "string") == 0 ? "string<N>" : strcmp(name, "bytes") == 0 ? "bytes<N>"
         : strcmp(name, "list") == 0 ? "list<T, N>" : strcmp(name, "map") == 0 ? "map<K, V, N>"
         : strcmp(name, "set") == 0 ? "set<T, N>" : "fastarray<Struct, N>";
}

static const nsc_type *resolve_generic(nsc_checker *c, nsc_unit *u, const nsc_typeref *t, const char *name)
{
    unsigned arity = nsc_generic_arity(name);
    if (!t->generic || t->argc != arity) {
        nsc_error(c->d, "E-type-args", t->loc, "'%s' takes %u argument%s: %s", name, arity, arity == 1 ? "" : "s",
                  generic_usage(name));
        return NULL;
    }
    nsc_type *r;
    const nsc_typearg *cap = &t->args[arity - 1];
    if (strcmp(name, "string") == 0 || strcmp(name, "bytes") == 0) {
        r = new_type(c, name[0] == 's' ? NSC_T_STRING : NSC_T_BYTES);
        return capacity_arg(c, u, cap, name, NSC_MAX_STRING, &r->capacity) ? r : NULL;
    }
    if (strcmp(name, "map") == 0) {
        r = new_type(c, NSC_T_MAP);
        r->key = type_arg(c, u, &t->args[0], name);
        r->elem = type_arg(c, u, &t->args[1], name);
        bool ok = capacity_arg(c, u, cap, name, NSC_MAX_MAP, &r->capacity);
        return ok && r->key && r->elem ? r : NULL;
    }
    nsc_type_kind kind = strcmp(name, "list") == 0 ? NSC_T_LIST : strcmp(name, "set") == 0 ? NSC_T_SET : NSC_T_FASTARRAY;
    r = new_type(c, kind);
    r->elem = type_arg(c, u, &t->args[0], name);
    uint32_t limit = kind == NSC_T_FASTARRAY ? NSC_MAX_FASTARRAY : kind == NSC_T_LIST ? NSC_MAX_LIST : NSC_MAX_MAP;
    bool ok = capacity_arg(c, u, cap, name, limit, &r->capacity);
    return ok && r->elem ? r : NULL;
}

static const nsc_type *resolve(nsc_checker *c, nsc_unit *u, const nsc_typeref *t)
{
    const char *name = t->name.text;
    if (t->name.count == 1) {
        const nsc_type *b = nsc_builtin_type(name);
        if (b) {
            if (t->generic) {
                nsc_error(c->d, "E-type-args", t->loc, "'%s' takes no type arguments", name);
                return NULL;
            }
            return b;
        }
        if (nsc_generic_arity(name)) return resolve_generic(c, u, t, name);
    }
    nsc_decl *d = nsc_lookup(c, u, &t->name, false);
    if (!d && t->name.count == 1) {
        /* Declared in a schema this one reaches only through another import? Say so. */
        for (size_t i = 0; i < c->ctx->nunits; i++) {
            nsc_decl *far = nsc_map_get(&c->ctx->units[i]->symbols, name);
            if (!far || c->ctx->units[i] == u) continue;
            nsc_diag_begin(c->d, NSC_ERROR, "E-type-unknown", t->name.loc,
                           "unknown type '%s': it is declared in '%s', which this schema does not import directly",
                           name, c->ctx->units[i]->src->path);
            nsc_diag_note(c->d, far->name.loc, "'%s' is declared here", name);
            nsc_diag_end(c->d);
            return NULL;
        }
    }
    if (!d) {
        static const char *const known[] = {"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32",
                                            "f64", "vec2", "vec3", "vec4", "quat", "entity", "string", "bytes",
                                            "list", "map", "set", "fastarray"};
        const char *hint = nsc_suggest(name, known, sizeof known / sizeof known[0]);
        if (!hint) {
            /* Then the schema's own enums and structs. */
            const char *mine[256];
            size_t n = 0;
            for (size_t i = 0; i < u->ndecls && n < 256; i++)
                if (u->decls[i]->kind == NSC_D_ENUM || u->decls[i]->kind == NSC_D_STRUCT || u->decls[i]->kind == NSC_D_EXTERN || u->decls[i]->kind == NSC_D_UNION) mine[n++] = u->decls[i]->name.text;
            hint = nsc_suggest(name, mine, n);
        }
        if (hint) nsc_error(c->d, "E-type-unknown", t->name.loc, "unknown type '%s'; did you mean '%s'?", name, hint);
        else nsc_error(c->d, "E-type-unknown", t->name.loc, "unknown type '%s'", name);
        return NULL;
    }
    if (t->generic) {
        nsc_error(c->d, "E-type-args", t->loc, "'%s' takes no type arguments", name);
        return NULL;
    }
    if (d->kind != NSC_D_ENUM && d->kind != NSC_D_STRUCT && d->kind != NSC_D_EXTERN && d->kind != NSC_D_UNION) {
        nsc_diag_begin(c->d, NSC_ERROR, "E-type-kind", t->name.loc,
                       "'%s' is %s %s; a field's type is a built-in type, an enum or a struct", name,
                       nsc_article(nsc_decl_kind_name(d->kind)), nsc_decl_kind_name(d->kind));
        nsc_diag_note(c->d, d->name.loc, "'%s' is declared here", name);
        nsc_diag_end(c->d);
        return NULL;
    }
    if (!d->type) {
        nsc_type *nt = new_type(c, d->kind == NSC_D_ENUM     ? NSC_T_ENUM
                                   : d->kind == NSC_D_STRUCT ? NSC_T_STRUCT
                                   : d->kind == NSC_D_UNION  ? NSC_T_UNION
                                                             : NSC_T_EXTERN);
        nt->decl = d;
        d->type = nt;
    }
    return d->type;
}

void nsc_check_enum(nsc_checker *c, nsc_decl *d)
{
    static const nsc_type u8_type = {NSC_T_U8, 0, NULL, NULL, NULL};
    d->underlying_type = &u8_type;
    if (d->underlying) {
        const nsc_type *t = resolve(c, d->unit, d->underlying);
        if (t && (!nsc_type_is_integer(t) || nsc_type_int_bits(t) > 32)) {
            nsc_error(c->d, "E-enum-type", d->underlying->loc,
                      "an enum's underlying type is an integer type of at most 32 bits (i8 to u32)");
        } else if (t) {
            d->underlying_type = t;
        }
    }
    if (!d->type) {
        nsc_type *nt = new_type(c, NSC_T_ENUM);
        nt->decl = d;
        d->type = nt;
    }
    /* An enum whose values were lost to a syntax error is not "empty". */
    if (d->nvalues == 0 && !d->unit->parse_failed)
        nsc_error(c->d, "E-enum-empty", d->name.loc, "enum '%s' has no values", d->name.text);
    if (d->nvalues > NSC_MAX_ENUM_VALUES)
        nsc_error(c->d, "E-limit-enum", d->name.loc, "enum '%s' has %zu values; the limit is %u", d->name.text,
                  d->nvalues, NSC_MAX_ENUM_VALUES);
    nsc_int lo, hi, next = nsc_int_from_i64(0);
    nsc_type_int_range(d->underlying_type, &lo, &hi);
    nsc_map seen = {0}, values = {0};
    for (size_t i = 0; i < d->nvalues; i++) {
        nsc_enum_value *v = d->values[i];
        nsc_check_identifier(c, v->name, "enum value");
        nsc_int val = next;
        if (v->value && !nsc_eval_int(c, d->unit, v->value, "an enum value", &val)) val = next;
        nsc_loc at = v->value ? v->value->loc : v->name.loc;
        if (nsc_int_cmp(val, lo) < 0 || nsc_int_cmp(val, hi) > 0) {
            nsc_strbuf a = NSC_STRBUF_INIT, ut = NSC_STRBUF_INIT;
            nsc_int_spell(val, &a);
            nsc_type_spell(d->underlying_type, &ut);
            nsc_error(c->d, "E-enum-range", at, "enum value %s does not fit the underlying type '%s'%s", nsc_sb_str(&a),
                      nsc_sb_str(&ut), d->underlying ? "" : " (the default); declare a wider one, e.g. 'enum X : u16'");
            nsc_sb_free(&a);
            nsc_sb_free(&ut);
            v->bad = true;
        } else {
            nsc_int_to_i64(val, &v->resolved);
        }
        nsc_int one = nsc_int_from_i64(1);
        if (!nsc_int_add(val, one, &next)) next = val;
        nsc_enum_value *prev = nsc_map_put(&seen, v->name.text, v);
        if (prev != v) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-enum-dup", v->name.loc, "enum value '%s' is declared twice", v->name.text);
            nsc_diag_note(c->d, prev->name.loc, "first declared here");
            nsc_diag_end(c->d);
            continue;
        }
        if (!v->bad) {
            char key[24];
            snprintf(key, sizeof key, "%lld", (long long)v->resolved);
            nsc_enum_value *same = nsc_map_put(&values, nsc_arena_strdup(c->a, key), v);
            if (same != v) {
                nsc_diag_begin(c->d, NSC_ERROR, "E-enum-dup-value", at, "enum values '%s' and '%s' have the same value %lld",
                               same->name.text, v->name.text, (long long)v->resolved);
                nsc_diag_note(c->d, same->name.loc, "'%s' is declared here", same->name.text);
                nsc_diag_end(c->d);
            }
        }
        for (size_t k = 0; k < v->nattrs; k++)
            nsc_error(c->d, "E-attr-place", v->attrs[k]->loc, "no attribute applies to enum values");
    }
    nsc_map_free(&seen);
    nsc_map_free(&values);
    for (size_t k = 0; k < d->nattrs; k++)
        nsc_error(c->d, "E-attr-place", d->attrs[k]->loc, "no attribute applies to enums");
}

void nsc_resolve_record_types(nsc_checker *c, nsc_decl *d)
{
    for (size_t i = 0; i < d->nfields; i++) {
        nsc_field *f = d->fields[i];
        f->sem.type = resolve(c, d->unit, f->type);
    }
}

static const nsc_type *holds_in(const nsc_decl *d, bool (*match)(const nsc_type *t), int depth)
{
    if (depth > 64 || d->cyclic) return NULL; /* nesting and cycles are reported on their own */
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_type *t = d->fields[i]->sem.type;
        if (!t) continue;
        if (match(t)) return t;
        const nsc_type *in = t->kind == NSC_T_STRUCT ? holds_in(t->decl, match, depth + 1) : NULL;
        if (in) return in;
    }
    return NULL;
}

const nsc_type *nsc_struct_holds(const nsc_decl *d, bool (*match)(const nsc_type *t))
{
    return holds_in(d, match, 0);
}

static bool is_collection(const nsc_type *t)
{
    return nsc_type_is_collection(t);
}

static bool holds_collection(const nsc_decl *d)
{
    return nsc_struct_holds(d, is_collection) != NULL;
}

static bool is_extern(const nsc_type *t)
{
    return t->kind == NSC_T_EXTERN;
}

static bool is_union(const nsc_type *t)
{
    return t->kind == NSC_T_UNION;
}

/* Extern structs and unions are one slot of a record each (idl/SPEC.md, "Custom types" and
 * "Unions"): not an element of a collection or array, not inside a @composite struct, not in a
 * @model(entropy) component (@authority(owner) refuses their types in check_attrs.c). `noun`
 * names the kind in messages: "an extern struct", "a union". */
static void check_slot_place(nsc_checker *c, const nsc_decl *owner, const nsc_field *f, bool (*is)(const nsc_type *t),
                             const char *noun)
{
    const nsc_type *t = f->sem.type;
    const nsc_type *e = nsc_type_is_collection(t) ? t->elem : t;
    const nsc_type *k = t->kind == NSC_T_MAP ? t->key : NULL;
    bool direct = is(t);
    bool inner = (e && is(e)) || (k && is(k)) || (e && e->kind == NSC_T_STRUCT && nsc_struct_holds(e->decl, is));
    if (!direct && !inner) return;
    nsc_loc at = f->type->loc;
    if (nsc_type_is_collection(t) || f->array_len) {
        const char *where = f->array_len ? "an array's" : "a collection's";
        if (is(e) || (k && is(k)))
            nsc_error(c->d, "E-type-element", at, "%s cannot be %s element: it is coded as one field of a record", noun,
                      where);
        else
            nsc_error(c->d, "E-type-element", at, "struct '%s' holds %s, so it cannot be %s element", e->decl->name.text,
                      noun, where);
    } else if (f->sem.composite) {
        nsc_error(c->d, "E-attr-conflict", at, "a @composite struct cannot hold %s: its members are coded without "
                  "change bits", noun);
    } else if (owner->kind == NSC_D_COMPONENT && owner->entropy) {
        nsc_error(c->d, "E-type-place", at, "a @model(entropy) component cannot hold %s: the entropy mode models only "
                  "the built-in encodings", noun);
    }
}

/* The struct a field holds, directly or as a collection's elements, or NULL. */
static nsc_decl *held_struct(const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    while (t && nsc_type_is_collection(t)) t = t->elem;
    return t && t->kind == NSC_T_STRUCT ? t->decl : NULL;
}

typedef struct frame {
    nsc_decl *d;
    size_t    next;   /* next field to look at */
    int       depth;  /* deepest nesting found below so far */
} frame;

/* A finished struct d (nesting sub) was reached from the field before `next` of frame f. */
static void nested(nsc_checker *c, frame *f, const nsc_decl *d, int sub)
{
    if (d->cyclic) {
        f->d->cyclic = true;
        return;
    }
    if (sub + 1 > f->depth) f->depth = sub + 1;
    /* Reported once, where the limit is first crossed (every struct above is deeper still). */
    if (sub == (int)NSC_MAX_NESTING)
        nsc_error(c->d, "E-limit-nesting", f->d->fields[f->next - 1]->type->loc,
                  "structs are nested more than %u deep here", NSC_MAX_NESTING);
}

/* Depth-first over struct-typed fields (through collections too), with an explicit stack so a
 * chain of thousands of structs costs no recursion: finds structs that contain themselves (they
 * would need infinite storage) and computes how deep structs nest. */
void nsc_check_containment(nsc_checker *c, nsc_decl *root)
{
    if (root->state != 0) return;
    size_t cap = 16, n = 0;
    frame *stack = nsc_xrealloc(NULL, cap * sizeof *stack);
    stack[n++] = (frame){root, 0, 0};
    root->state = 1;
    while (n) {
        frame *f = &stack[n - 1];
        if (f->next < f->d->nfields) {
            nsc_field *via = f->d->fields[f->next++];
            nsc_decl *child = held_struct(via);
            if (!child) continue;
            if (child->state == 1) {
                nsc_diag_begin(c->d, NSC_ERROR, "E-struct-cycle", via->type->loc, "struct '%s' contains itself",
                               child->name.text);
                nsc_diag_note(c->d, child->name.loc, "'%s' is declared here", child->name.text);
                nsc_diag_end(c->d);
                child->cyclic = f->d->cyclic = true;
            } else if (child->state == 2) {
                nested(c, f, child, child->nesting);
            } else {
                if (n == cap) stack = nsc_xrealloc(stack, (cap *= 2) * sizeof *stack);
                child->state = 1;
                stack[n++] = (frame){child, 0, 0};
            }
            continue;
        }
        nsc_decl *done = f->d;
        done->state = 2;
        done->nesting = f->depth;
        if (--n) nested(c, &stack[n - 1], done, done->nesting);
    }
    free(stack);
}

/* Element rules for collections. */
static void check_collection(nsc_checker *c, const nsc_decl *owner, const nsc_field *f)
{
    const nsc_type *t = f->sem.type;
    const nsc_type *e = t->elem;
    nsc_loc at = f->type->loc;
    if (t->kind == NSC_T_FASTARRAY) {
        if (owner->kind != NSC_D_COMPONENT)
            nsc_error(c->d, "E-type-place", at, "fastarray fields belong to components (they keep per-connection "
                      "state), not to %ss", nsc_decl_kind_name(owner->kind));
        if (e && e->kind != NSC_T_STRUCT)
            nsc_error(c->d, "E-type-element", at, "a fastarray holds structs: fastarray<Struct, N>");
    }
    if (t->kind == NSC_T_SET || t->kind == NSC_T_MAP) {
        const nsc_type *k = t->kind == NSC_T_SET ? e : t->key;
        if (k && !nsc_type_is_integer(k) && k->kind != NSC_T_ENUM && k->kind != NSC_T_ENTITY && k->kind != NSC_T_STRING)
            nsc_error(c->d, "E-type-element", at, "%s keys are integers, enums, entities or strings",
                      t->kind == NSC_T_SET ? "set" : "map");
    }
    const nsc_type *v = t->kind == NSC_T_SET ? NULL : e;
    if (v && (nsc_type_is_collection(v) || v->kind == NSC_T_BYTES))
        nsc_error(c->d, "E-type-element", at, "a collection's elements are scalars, vectors, enums, strings or structs, "
                  "not %s", v->kind == NSC_T_BYTES ? "bytes" : "collections");
    if (v && v->kind == NSC_T_STRUCT && holds_collection(v->decl))
        nsc_error(c->d, "E-type-element", at, "struct '%s' holds a collection, so it cannot be an element of one",
                  v->decl->name.text);
}

/* A fixed array `T name[N]`: N is 1 to NSC_MAX_ARRAY, and every element is coded as a field of
 * type T would be, so T is anything a field may be but a collection, or a struct holding one
 * (idl/SPEC.md, "Fixed arrays"). */
static void check_array(nsc_checker *c, nsc_decl *d, nsc_field *f)
{
    nsc_int v;
    if (!nsc_eval_int(c, d->unit, f->array_len, "an array length", &v)) return;
    if (v.neg || v.mag == 0 || v.mag > NSC_MAX_ARRAY) {
        nsc_strbuf sb = NSC_STRBUF_INIT;
        nsc_int_spell(v, &sb);
        nsc_error(c->d, "E-limit-array", f->array_len->loc, "array length %s is out of range: it must be 1 to %u",
                  nsc_sb_str(&sb), NSC_MAX_ARRAY);
        nsc_sb_free(&sb);
        return;
    }
    const nsc_type *t = f->sem.type;
    if (!t) return;
    if (nsc_type_is_collection(t)) {
        nsc_error(c->d, "E-type-element", f->type->loc, "an array's elements are scalars, vectors, quaternions, enums, "
                  "entities, strings, bytes or structs, not collections");
        return;
    }
    if (t->kind == NSC_T_STRUCT && holds_collection(t->decl)) {
        nsc_error(c->d, "E-type-element", f->type->loc, "struct '%s' holds a collection, so it cannot be an array's "
                  "element", t->decl->name.text);
        return;
    }
    f->sem.array_n = (uint32_t)v.mag;
}

void nsc_check_record(nsc_checker *c, nsc_decl *d)
{
    if (d->nfields > NSC_MAX_FIELDS)
        nsc_error(c->d, "E-limit-fields", d->name.loc, "%s '%s' has %zu fields; the limit is %u",
                  nsc_decl_kind_name(d->kind), d->name.text, d->nfields, NSC_MAX_FIELDS);
    nsc_map seen = {0};
    for (size_t i = 0; i < d->nfields; i++) {
        nsc_field *f = d->fields[i];
        nsc_check_field_name(c, f->name);
        nsc_field *prev = nsc_map_put(&seen, f->name.text, f);
        if (prev != f) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-field-dup", f->name.loc, "field '%s' is declared twice in %s '%s'",
                           f->name.text, nsc_decl_kind_name(d->kind), d->name.text);
            nsc_diag_note(c->d, prev->name.loc, "first declared here");
            nsc_diag_end(c->d);
        }
        if (f->array_len) check_array(c, d, f);
        if (!f->sem.type) continue;
        if (nsc_type_is_collection(f->sem.type)) check_collection(c, d, f);
        nsc_check_field_attrs(c, d, f);
        check_slot_place(c, d, f, is_extern, "an extern struct");
        check_slot_place(c, d, f, is_union, "a union");
    }
    nsc_map_free(&seen);
}

static bool is_message(const nsc_decl *d)
{
    return d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC;
}

/* Adds the message ids of u and everything it imports to `taken` (id → declaration). */
static void collect_ids(nsc_unit *u, nsc_map *taken, nsc_map *visited, nsc_arena *a)
{
    if (nsc_map_get(visited, u->src->path)) return;
    nsc_map_put(visited, u->src->path, u);
    char key[16];
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        if (d->kind == NSC_D_IMPORT && d->target) collect_ids(d->target, taken, visited, a);
        if (!is_message(d)) continue;
        snprintf(key, sizeof key, "%u", d->id);
        nsc_map_put(taken, nsc_arena_strdup(a, key), d);
    }
}

/* Type ids are unique among a schema and everything it imports, so one program can dispatch
 * on them: explicit @id values first, then the lowest free id in declaration order. Imported
 * schemas get theirs first, so their ids never depend on who imports them. */
void nsc_assign_type_ids(nsc_checker *c, nsc_unit *u)
{
    if (u->ids_state) return;
    u->ids_state = 1;
    nsc_map taken = {0}, visited = {0};
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *imp = u->decls[i];
        if (imp->kind != NSC_D_IMPORT || !imp->target) continue;
        nsc_assign_type_ids(c, imp->target);
        collect_ids(imp->target, &taken, &visited, c->a);
    }
    char key[16];
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        if (!is_message(d) || !d->has_id) continue;
        snprintf(key, sizeof key, "%u", d->id);
        nsc_decl *prev = nsc_map_put(&taken, nsc_arena_strdup(c->a, key), d);
        if (prev != d) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-id-dup", d->name.loc, "type id %u is used twice%s", d->id,
                           prev->unit != u ? " (once in an imported schema)" : "");
            nsc_diag_note(c->d, prev->name.loc, "'%s' has id %u", prev->name.text, d->id);
            nsc_diag_end(c->d);
        }
    }
    uint32_t next = 0;
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        if (!is_message(d) || d->has_id) continue;
        for (;;) {
            snprintf(key, sizeof key, "%u", next);
            if (!nsc_map_get(&taken, key)) break;
            next++;
        }
        d->id = next++;
        if (d->id > NSC_MAX_TYPE_ID)
            nsc_error(c->d, "E-limit-ids", d->name.loc, "no type id left for '%s' (ids are 0 to %u)", d->name.text,
                      NSC_MAX_TYPE_ID);
    }
    nsc_map_free(&taken);
    nsc_map_free(&visited);
    u->ids_state = 2;
}
