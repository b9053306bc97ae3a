/* check_unions.c — the rules of tagged unions (idl/SPEC.md, "Unions"): a union's members are
 * structs coded by their own _write (so none may hold a collection, an extern struct or another
 * union). Where a union may stand (one slot of a record, like an extern struct) is checked with
 * the extern structs' rule in check_types.c. */
#include <string.h>

#include "checker.h"
#include "map.h"
#include "types.h"

/* What a union member cannot hold: it is coded by its own change mask, as a collection element is. */
static bool unfit_in_member(const nsc_type *t)
{
    return nsc_type_is_collection(t) || t->kind == NSC_T_EXTERN || t->kind == NSC_T_UNION;
}

static const char *kind_words(const nsc_type *t)
{
    return t->kind == NSC_T_EXTERN ? "an extern struct" : t->kind == NSC_T_UNION ? "a union" : "a collection";
}

static void check_member(nsc_checker *c, nsc_decl *d, nsc_field *f, nsc_map *seen)
{
    nsc_check_field_name(c, f->name);
    nsc_field *prev = nsc_map_put(seen, f->name.text, f);
    if (prev != f) {
        nsc_diag_begin(c->d, NSC_ERROR, "E-field-dup", f->name.loc, "member '%s' is declared twice in union '%s'",
                       f->name.text, d->name.text);
        nsc_diag_note(c->d, prev->name.loc, "first declared here");
        nsc_diag_end(c->d);
    }
    if (strcmp(f->name.text, "tag") == 0)
        nsc_error(c->d, "E-union-member", f->name.loc, "a union member cannot be named 'tag': the generated C "
                  "names the member that holds the value so");
    for (size_t i = 0; i < f->nattrs; i++)
        nsc_error(c->d, "E-attr-place", f->attrs[i]->loc, "a union member takes no attributes: put them on the "
                  "fields of its struct");
    if (f->init)
        nsc_error(c->d, "E-union-member", f->init->loc, "a union member has no default: a union starts as its "
                  "first member, with that struct's defaults");
    if (f->array_len)
        nsc_error(c->d, "E-union-member", f->array_len->loc, "a union member is one struct, not an array");
    const nsc_type *t = f->sem.type;
    if (!t) return;
    if (t->kind != NSC_T_STRUCT) {
        nsc_strbuf sb = NSC_STRBUF_INIT;
        nsc_type_spell(t, &sb);
        nsc_error(c->d, "E-union-member", f->type->loc, "a union's members are structs, not %s; wrap it in a struct",
                  nsc_sb_str(&sb));
        nsc_sb_free(&sb);
        return;
    }
    const nsc_type *in = nsc_struct_holds(t->decl, unfit_in_member);
    if (in)
        nsc_error(c->d, "E-union-member", f->type->loc, "struct '%s' holds %s, so it cannot be a union member: "
                  "members are coded by their own change masks", t->decl->name.text, kind_words(in));
}

void nsc_check_union(nsc_checker *c, nsc_decl *d)
{
    for (size_t i = 0; i < d->nattrs; i++)
        nsc_error(c->d, "E-attr-place", d->attrs[i]->loc, "a union takes no attributes");
    if (d->nfields == 0)
        nsc_error(c->d, "E-union-member", d->name.loc, "union '%s' has no members", d->name.text);
    if (d->nfields > NSC_MAX_UNION_MEMBERS)
        nsc_error(c->d, "E-limit-fields", d->name.loc, "union '%s' has %zu members; the limit is %u", d->name.text,
                  d->nfields, NSC_MAX_UNION_MEMBERS);
    nsc_map seen = {0};
    for (size_t i = 0; i < d->nfields; i++) check_member(c, d, d->fields[i], &seen);
    nsc_map_free(&seen);
}
