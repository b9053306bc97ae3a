/* cnames.c — generated C names and the check that no two declarations generate the same one
 * (for example package a.b with type c against package a with type b_c, or a setter
 * arena_Health_set_hp against a struct named Health_set_hp). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "cnames.h"

const char *const nsc_record_suffixes[] = {
    "snap", "hooks", "init", "quantize", "dequantize", "snap_equal", "equal", "write", "read",
    "interpolate", "apply", "desc", "is_dirty", "clear_dirty", "snap_default", "send",
    "backup", "restore", "prediction_error", "prediction_error_names", /* emit_c_predict.c */
    "authority_read", "authority_write", "authority_send", "authority_decode", "validate_fn",
    "entropy_read", "entropy_write",
    /* file-local in the generated source */
    "reference", "reference_any", "check", "desc_fields", "pred", "decode", "values", "values_fields",
    "values_motion", "desc_elems", "unit_lo", "unit_hi", "unit_gather",
    "unit_scatter",
    /* file-local in every source whose dispatch tables list the record (emit_c_dispatch.c) */
    "dispatch_one", "erased_snap_default", "erased_init", "erased_quantize", "erased_dequantize",
    "erased_snap_equal", "erased_write", "erased_read", "erased_apply", "erased_interpolate",
    "erased_entities", "erased_authority_read",
};
const size_t nsc_record_suffix_count = sizeof nsc_record_suffixes / sizeof nsc_record_suffixes[0];

/* Per collection field <f>: "<prefix>_<Record>_<f>_<suffix>" ("" is "<prefix>_<Record>_<f>", the
 * value type). The first group is public (types and helpers), the rest file-local. */
static const char *const list_suffixes[] = {
    "", "snap", "add", "insert", "remove", "set", "find", "clear", "count", "at",
    "ops", "elem_write", "elem_read", "elem_equal", "equal", "differs", NULL,
};
static const char *const set_suffixes[] = {
    "", "snap", "add", "remove", "find", "clear", "count", "at", "ops", "elem_write", "elem_read", "elem_equal",
    "equal", "differs", NULL,
};
static const char *const map_suffixes[] = {
    "", "snap", "set", "remove", "find", "clear", "count", "at", "ops", "elem_write", "elem_read", "elem_equal",
    "equal", "differs", NULL,
};
static const char *const fastarray_suffixes[] = {
    "", "snap", "item", "item_snap", "add", "insert", "remove", "set", "find", "clear", "count", "at", "move",
    "ops", "elem_write", "elem_read", "elem_equal", "equal", "live", "item_dequantize", "item_equal", "removed",
    "added", "changed", NULL,
};

const char *const *nsc_collection_suffixes(const nsc_type *t)
{
    switch (t->kind) {
    case NSC_T_LIST: return list_suffixes;
    case NSC_T_SET: return set_suffixes;
    case NSC_T_MAP: return map_suffixes;
    default: return fastarray_suffixes;
    }
}

const char *nsc_coll_name(nsc_arena *a, const nsc_decl *d, const nsc_field *f, const char *suffix)
{
    if (!suffix || !*suffix) return nsc_arena_printf(a, "%s_%s_%s", d->unit->prefix, d->name.text, f->name.text);
    return nsc_arena_printf(a, "%s_%s_%s_%s", d->unit->prefix, d->name.text, f->name.text, suffix);
}

static const char *const record_macros[] = {"MAX_BITS", "MAX_BYTES", "ID", "HASH", "PREDICTION_ERRORS",
                                            "AUTHORITY_MAX_BYTES"};

char *nsc_upper(nsc_arena *a, const char *s)
{
    char *r = nsc_arena_strdup(a, s);
    for (char *p = r; *p; p++) *p = (char)toupper((unsigned char)*p);
    return r;
}

const char *nsc_cname(nsc_arena *a, const nsc_decl *d)
{
    if (d->c_name) return d->c_name; /* set with the package (nsc_check_package) */
    return nsc_arena_concat(a, d->unit->prefix, "_", d->name.text, (const char *)NULL);
}

const char *nsc_cname_suffix(nsc_arena *a, const nsc_decl *d, const char *suffix)
{
    return nsc_arena_concat(a, nsc_cname(a, d), "_", suffix, (const char *)NULL);
}

const char *nsc_macro_name(nsc_arena *a, const nsc_decl *d, const char *suffix)
{
    const char *n = suffix ? nsc_arena_printf(a, "%s_%s_%s", d->unit->prefix, d->name.text, suffix)
                           : nsc_arena_printf(a, "%s_%s", d->unit->prefix, d->name.text);
    return nsc_upper(a, n);
}

const char *nsc_unit_macro(nsc_arena *a, const nsc_unit *u, const char *suffix)
{
    return nsc_upper(a, nsc_arena_printf(a, "%s_%s", u->prefix, suffix));
}

const char *nsc_enum_value_cname(nsc_arena *a, const nsc_decl *e, const nsc_enum_value *v)
{
    return nsc_arena_printf(a, "%s_%s_%s", e->unit->prefix, e->name.text, v->name.text);
}

/* A description for a message, formatted only when a message needs it: a declaration claims
 * dozens of names, and almost none of them is ever reported. fmt takes up to two %s. */
typedef struct what {
    const char *fmt; /* "%s '%s'", "the helpers of field '%s' of '%s'" */
    const char *x, *y;
} what;

static what describe(const char *fmt, const char *x, const char *y)
{
    return (what){fmt, x, y};
}

static const char *what_text(nsc_checker *c, what w)
{
    return nsc_arena_printf(c->a, w.fmt, w.x, w.y);
}

/* Who generates a name, for the message. */
typedef struct owner {
    const nsc_decl  *decl;
    what             what;   /* "struct 'Health'", "the helpers of field 'hp' of 'Health'" */
    what             place;  /* for the note: "field 'hp' of 'Health'" */
    nsc_loc          loc;
} owner;

/* A generated name that the C library or a compiler already defines ("package int32; struct t"
 * makes int32_t). The runtime's prefixes are reported once, on the package (nsc_check_package). */
static void reject_reserved(nsc_checker *c, const char *name, what w, nsc_loc loc)
{
    if (!strncmp(name, "ns_", 3) || !strncmp(name, "NS_", 3) || !strncmp(name, "NETSCHEMA_", 10)) return;
    size_t n = c->unreserved.len;
    if (n && (!strncmp(name, c->unreserved.lower, n) || !strncmp(name, c->unreserved.upper, n))) return;
    const char *why = nsc_reserved_c_name(c->a, name);
    if (why)
        nsc_error(c->d, "E-name-reserved", loc, "%s would generate the C name '%s', which is reserved: %s",
                  what_text(c, w), name, why);
}

/* Every generated name is made twice. The first pass only records a 32-bit fingerprint of each;
 * sorted, they show which names may repeat (a few: equal names, and fingerprints equal by
 * chance). The second pass reports: a name whose fingerprint is unique cannot collide, so only
 * the few others go into the exact map with their owners. Storing every name with its owner
 * cost about 5 KB per one-field struct (idl/SPEC.md section 8.1). */
static uint32_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return (uint32_t)(h >> 32);
}

static uint32_t fingerprint(const char *name)
{
    return mix(nsc_fnv1a(name, strlen(name), NSC_FNV_OFFSET));
}

static void record_fingerprint(nsc_checker *c, uint32_t fp)
{
    if (c->cname_fps.count == c->cname_fps.cap) {
        c->cname_fps.cap = c->cname_fps.cap ? c->cname_fps.cap * 2 : 1024;
        c->cname_fps.items = nsc_xrealloc(c->cname_fps.items, c->cname_fps.cap * sizeof *c->cname_fps.items);
    }
    c->cname_fps.items[c->cname_fps.count++] = fp;
}

static int compare_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* Sorts in place, without a second array: one American-flag pass on the high 16 bits puts
 * every value in its bucket (linear), then each bucket, a few hundred values at most for tens
 * of millions of names, is sorted on its own. */
static void sort_fingerprints(uint32_t *a, size_t n)
{
    if (n < 65536) { /* the buckets' two 512 KB tables would cost more than they save */
        qsort(a, n, sizeof *a, compare_u32);
        return;
    }
    size_t *next = nsc_xrealloc(NULL, 65536 * sizeof *next), *end = nsc_xrealloc(NULL, 65536 * sizeof *end);
    memset(end, 0, 65536 * sizeof *end);
    for (size_t i = 0; i < n; i++) end[a[i] >> 16]++;
    for (size_t b = 0, at = 0; b < 65536; b++) {
        next[b] = at;
        at += end[b];
        end[b] = at;
    }
    for (size_t b = 0; b < 65536; b++) {
        while (next[b] < end[b]) {
            uint32_t v = a[next[b]];
            size_t d = v >> 16;
            while (d != b) { /* carry v to its bucket, picking up what was there */
                uint32_t t = a[next[d]];
                a[next[d]++] = v;
                v = t;
                d = v >> 16;
            }
            a[next[b]++] = v;
        }
    }
    for (size_t b = 0, start = 0; b < 65536; start = end[b], b++)
        if (end[b] - start > 1) qsort(a + start, end[b] - start, sizeof *a, compare_u32);
    free(next);
    free(end);
}

/* Keeps the fingerprints that occur more than once, in a small open-addressing set (a slot is
 * empty when its "used" bit is clear), and frees the full list: the second pass then looks up
 * a table that stays in cache instead of one entry per generated name. */
static void find_repeats(nsc_checker *c)
{
    size_t n = c->cname_fps.count, repeats = 0;
    /* Give back what doubling left unused before the sort: the list is the check's largest array. */
    uint32_t *a = c->cname_fps.items = nsc_xrealloc(c->cname_fps.items, (n ? n : 1) * sizeof *a);
    sort_fingerprints(a, n);
    for (size_t i = 0; i + 1 < n; i++)
        if (a[i] == a[i + 1] && (i == 0 || a[i - 1] != a[i])) repeats++;
    size_t cap = 16;
    while (cap < 2 * repeats) cap *= 2;
    c->cname_fps.set = nsc_xrealloc(NULL, cap * sizeof *c->cname_fps.set);
    c->cname_fps.used = nsc_xrealloc(NULL, (cap + 7) / 8);
    memset(c->cname_fps.used, 0, (cap + 7) / 8);
    c->cname_fps.set_mask = cap - 1;
    for (size_t i = 0; i + 1 < n; i++) {
        if (a[i] != a[i + 1] || (i > 0 && a[i - 1] == a[i])) continue;
        size_t k = a[i] & c->cname_fps.set_mask;
        while (c->cname_fps.used[k / 8] & (1u << (k % 8))) k = (k + 1) & c->cname_fps.set_mask;
        c->cname_fps.set[k] = a[i];
        c->cname_fps.used[k / 8] |= (unsigned char)(1u << (k % 8));
    }
    free(a);
    c->cname_fps.items = NULL;
    c->cname_fps.count = c->cname_fps.cap = 0;
    c->cname_fps.sorted = true;
}

/* True if more than one generated name has this fingerprint. */
static bool fingerprint_repeats(const nsc_checker *c, uint32_t fp)
{
    size_t k = fp & c->cname_fps.set_mask;
    while (c->cname_fps.used[k / 8] & (1u << (k % 8))) {
        if (c->cname_fps.set[k] == fp) return true;
        k = (k + 1) & c->cname_fps.set_mask;
    }
    return false;
}

static void claim_as(nsc_checker *c, const char *name, const nsc_decl *d, what w, what place, nsc_loc loc)
{
    if (!c->cname_fps.sorted) {
        record_fingerprint(c, fingerprint(name));
        return;
    }
    if (!fingerprint_repeats(c, fingerprint(name))) {
        reject_reserved(c, name, w, loc);
        return;
    }
    c->cname_fps.kept = true; /* the map now points into this declaration's strings */
    owner *o = NSC_NEW(c->a, owner);
    o->decl = d;
    o->what = w;
    o->place = place;
    o->loc = loc;
    owner *prev = nsc_map_put(&c->cnames, name, o);
    if (prev == o) {
        reject_reserved(c, name, w, loc);
        return;
    }
    /* Already an error of its own: two declarations of one name in one schema (E-name-dup), or
     * one declaration repeating a member name (E-enum-dup, E-field-dup). */
    if (d && prev->decl && d != prev->decl && d->unit == prev->decl->unit &&
        strcmp(d->name.text, prev->decl->name.text) == 0)
        return;
    const char *here = what_text(c, w), *there = what_text(c, prev->what);
    if (d && d == prev->decl && strcmp(here, there) == 0) return;
    /* The same description from two files: say which file each comes from. */
    const char *what_here = here, *what_there = there;
    if (strcmp(here, there) == 0 && d && prev->decl) {
        what_here = nsc_arena_printf(c->a, "%s in %s", here, d->unit->src->path);
        what_there = nsc_arena_printf(c->a, "%s in %s", there, prev->decl->unit->src->path);
    }
    /* One report per pair of owners is enough; pair keys contain '|', which no C name does. */
    const char *pair = nsc_arena_printf(c->a, "%p|%p", (const void *)prev->decl, (const void *)d);
    if (nsc_map_get(&c->cnames, pair)) return;
    nsc_map_put(&c->cnames, pair, o);
    nsc_diag_begin(c->d, NSC_ERROR, "E-name-collision", loc,
                   "the C name '%s' would be generated twice: by %s and by %s", name, what_here, what_there);
    nsc_diag_note(c->d, prev->loc, "%s is declared here", what_text(c, prev->place));
    nsc_diag_end(c->d);
}

static void claim(nsc_checker *c, const char *name, const nsc_decl *d, what w, nsc_loc loc)
{
    claim_as(c, name, d, w, w, loc);
}

/* Members of a component's hooks struct: one per @notify field, three per fast array. */
typedef struct hook_owner {
    const nsc_field *field;
    const char      *by;   /* "the @notify field 'hp'", "the fast array 'items'" */
} hook_owner;

static void hook(nsc_checker *c, nsc_map *seen, const nsc_decl *d, const nsc_field *f, const char *name, const char *by)
{
    const hook_owner *prev = nsc_map_get(seen, name);
    if (!prev) {
        hook_owner *o = NSC_NEW(c->a, hook_owner);
        o->field = f;
        o->by = by;
        nsc_map_put(seen, name, o);
        return;
    }
    nsc_diag_begin(c->d, NSC_ERROR, "E-name-collision", f->name.loc,
                   "the hook '%s' of component '%s' would be generated twice: by %s and by %s", name, d->name.text, by,
                   prev->by);
    nsc_diag_note(c->d, prev->field->name.loc, "field '%s' is declared here", prev->field->name.text);
    nsc_diag_end(c->d);
}

static void check_hooks(nsc_checker *c, const nsc_decl *d)
{
    nsc_map seen = {0};
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        if (f->sem.notify)
            hook(c, &seen, d, f, f->name.text, nsc_arena_printf(c->a, "the @notify field '%s'", f->name.text));
        if (!f->sem.type) continue;
        /* Per-element event hooks (emit_c_coll.c): the members a collection adds to the struct. */
        static const char *const fast[] = {"add", "remove", "change", NULL};
        static const char *const list[] = {"insert", "set", "remove", "clear", NULL};
        static const char *const map[] = {"add", "set", "remove", NULL};
        static const char *const set[] = {"add", "remove", NULL};
        const char *const *events = NULL, *kind = NULL;
        switch (f->sem.type->kind) {
        case NSC_T_FASTARRAY: events = fast, kind = "fast array"; break;
        case NSC_T_LIST: events = list, kind = "list"; break;
        case NSC_T_MAP: events = map, kind = "map"; break;
        case NSC_T_SET: events = set, kind = "set"; break;
        default: continue;
        }
        for (; *events; events++)
            hook(c, &seen, d, f, nsc_arena_printf(c->a, "%s_%s", f->name.text, *events),
                 nsc_arena_printf(c->a, "the %s '%s'", kind, f->name.text));
    }
    nsc_map_free(&seen);
}

/* stem + suffix: most names a declaration claims share "<prefix>_<Name>_". */
static const char *joined(nsc_checker *c, const char *stem, const char *suffix)
{
    return nsc_arena_concat(c->a, stem, suffix, (const char *)NULL);
}

/* A stem the names of one declaration share, with its FNV-1a state: a name's fingerprint
 * continues the stem's hash over the suffix, so a name is only spelled out when it may collide
 * (its fingerprint repeats) or be reserved (the stem does not start with a safe prefix). Tens
 * of names per declaration, most of a large schema's check time when each was built. */
typedef struct name_stem {
    const char *text;
    uint64_t    hash;
    bool        safe; /* starts with the unit's unreserved prefix: no name under it is reserved */
} name_stem;

static name_stem make_stem(const nsc_checker *c, const char *text)
{
    size_t n = c->unreserved.len;
    bool safe = n && (!strncmp(text, c->unreserved.lower, n) || !strncmp(text, c->unreserved.upper, n));
    return (name_stem){text, nsc_fnv1a(text, strlen(text), NSC_FNV_OFFSET), safe};
}

static void claim_joined(nsc_checker *c, const name_stem *st, const char *suffix, const nsc_decl *d, what w,
                         what place, nsc_loc loc)
{
    uint32_t fp = mix(nsc_fnv1a(suffix, strlen(suffix), st->hash));
    if (!c->cname_fps.sorted) {
        record_fingerprint(c, fp);
        return;
    }
    if (st->safe && !fingerprint_repeats(c, fp)) return;
    claim_as(c, joined(c, st->text, suffix), d, w, place, loc);
}

static void claim_record(nsc_checker *c, const nsc_decl *d)
{
    what w = describe("%s '%s'", nsc_decl_kind_name(d->kind), d->name.text);
    claim(c, nsc_cname(c->a, d), d, w, d->name.loc);
    const char *lower = nsc_arena_concat(c->a, nsc_cname(c->a, d), "_", (const char *)NULL);
    const name_stem st = make_stem(c, lower), upper = make_stem(c, nsc_upper(c->a, lower)),
                    setter = make_stem(c, joined(c, lower, "set_"));
    for (size_t i = 0; i < nsc_record_suffix_count; i++)
        claim_joined(c, &st, nsc_record_suffixes[i], d, w, w, d->name.loc);
    for (size_t i = 0; i < sizeof record_macros / sizeof record_macros[0]; i++)
        claim_joined(c, &upper, record_macros[i], d, w, w, d->name.loc);
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        what fw = describe("the helpers of field '%s' of '%s'", f->name.text, d->name.text);
        what fp = describe("field '%s' of '%s'", f->name.text, d->name.text);
        claim_joined(c, &setter, f->name.text, d, fw, fp, f->name.loc);
        if (!f->sem.type || !nsc_type_is_collection(f->sem.type)) continue;
        for (const char *const *sfx = nsc_collection_suffixes(f->sem.type); *sfx; sfx++)
            claim_as(c, nsc_coll_name(c->a, d, f, *sfx), d, fw, fp, f->name.loc);
    }
    if (d->kind == NSC_D_COMPONENT && c->cname_fps.sorted) check_hooks(c, d);
}

static void claim_enum(nsc_checker *c, const nsc_decl *d)
{
    what w = describe("enum '%s'", d->name.text, NULL);
    claim(c, nsc_cname(c->a, d), d, w, d->name.loc);
    static const char *const suffixes[] = {"is_valid", "name", "desc", "desc_values"};
    for (size_t i = 0; i < 4; i++) claim(c, nsc_cname_suffix(c->a, d, suffixes[i]), d, w, d->name.loc);
    claim(c, nsc_macro_name(c->a, d, "COUNT"), d, w, d->name.loc);
    for (size_t i = 0; i < d->nvalues; i++) {
        const nsc_enum_value *v = d->values[i];
        claim(c, nsc_enum_value_cname(c->a, d, v), d, describe("value '%s' of enum '%s'", v->name.text, d->name.text),
              v->name.loc);
    }
}

/* An extern struct: the type the user defines and the three functions the user writes. */
static void claim_extern(nsc_checker *c, const nsc_decl *d)
{
    what w = describe("extern struct '%s'", d->name.text, NULL);
    claim(c, nsc_cname(c->a, d), d, w, d->name.loc);
    static const char *const suffixes[] = {"write", "read", "equal", "desc"};
    for (size_t i = 0; i < 4; i++) claim(c, nsc_cname_suffix(c->a, d, suffixes[i]), d, w, d->name.loc);
}

/* A union: its value and snapshot types, functions, member setters and tag macros. */
static void claim_union(nsc_checker *c, const nsc_decl *d)
{
    what w = describe("union '%s'", d->name.text, NULL);
    claim(c, nsc_cname(c->a, d), d, w, d->name.loc);
    static const char *const suffixes[] = {"snap", "snap_default", "init", "quantize", "dequantize", "snap_equal",
                                           "equal", "write", "read", "interpolate", "desc", "desc_fields"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        claim(c, nsc_cname_suffix(c->a, d, suffixes[i]), d, w, d->name.loc);
    claim(c, nsc_macro_name(c->a, d, "COUNT"), d, w, d->name.loc);
    for (size_t i = 0; i < d->nfields; i++) {
        const nsc_field *f = d->fields[i];
        what member = describe("member '%s' of union '%s'", f->name.text, d->name.text);
        claim(c, nsc_macro_name(c->a, d, f->name.text), d, member, f->name.loc);
        claim(c, nsc_cname_suffix(c->a, d, nsc_arena_printf(c->a, "set_%s", f->name.text)), d, member, f->name.loc);
    }
}

static void claim_unit(nsc_checker *c, nsc_unit *u)
{
    if (!u->package_decl) return;
    /* Every name claimed below starts with the prefix, in lower or upper case (cnames.h). */
    const char *lower = nsc_arena_printf(c->a, "%s_", u->prefix), *upper = nsc_upper(c->a, lower);
    bool safe = !nsc_reserved_c_prefix(lower) && !nsc_reserved_c_prefix(upper);
    c->unreserved.lower = safe ? lower : NULL;
    c->unreserved.upper = safe ? upper : NULL;
    c->unreserved.len = safe ? strlen(lower) : 0;
    nsc_arena_mark mark = nsc_arena_get_mark(c->a);
    what w = describe("the schema-wide names of package '%s' (%s)", u->package, u->src->path);
    claim(c, nsc_unit_macro(c->a, u, "SCHEMA_HASH"), NULL, w, u->package_decl->loc);
    claim(c, nsc_unit_macro(c->a, u, "TYPE_COUNT"), NULL, w, u->package_decl->loc);
    claim(c, nsc_arena_printf(c->a, "%s_types", u->prefix), NULL, w, u->package_decl->loc);
    static const char *const dispatch_names[] = {"components", "messages", "schema", "handlers", "dispatch"};
    for (size_t i = 0; i < sizeof dispatch_names / sizeof dispatch_names[0]; i++)
        claim(c, nsc_arena_printf(c->a, "%s_%s", u->prefix, dispatch_names[i]), NULL, w, u->package_decl->loc);
    for (size_t i = 0; i < u->ndecls; i++) {
        /* The names and messages of one declaration are dropped once it is done, unless the map
         * of repeated names kept some of them. */
        if (!c->cname_fps.kept) nsc_arena_release(c->a, mark);
        else c->cname_fps.kept = false;
        mark = nsc_arena_get_mark(c->a);
        const nsc_decl *d = u->decls[i];
        if (d->kind == NSC_D_ENUM) claim_enum(c, d);
        else if (nsc_decl_is_record(d)) claim_record(c, d);
        else if (d->kind == NSC_D_EXTERN) claim_extern(c, d);
        else if (d->kind == NSC_D_UNION) claim_union(c, d);
        else if (d->kind == NSC_D_CONST)
            claim(c, nsc_macro_name(c->a, d, NULL), d, describe("constant '%s'", d->name.text, NULL), d->name.loc);
    }
    if (!c->cname_fps.kept) nsc_arena_release(c->a, mark);
    c->cname_fps.kept = false;
    c->unreserved.lower = c->unreserved.upper = NULL;
    c->unreserved.len = 0;
}

void nsc_fingerprint_c_names(nsc_checker *c, nsc_unit *u)
{
    claim_unit(c, u);
}

void nsc_check_c_names(nsc_checker *c, nsc_unit *u)
{
    if (!c->cname_fps.sorted) find_repeats(c);
    claim_unit(c, u);
}
