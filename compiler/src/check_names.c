/* check_names.c — packages, top-level symbols, name lookup across imports, identifier rules. */
#include <string.h>

#include "checker.h"

static const char *const c_keywords[] = {
    /* C11 */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
    "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
    /* C++ (generated headers compile as C++ too) */
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t",
    "char16_t", "char32_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
    "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
    "explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept", "not",
    "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast",
    "requires", "static_assert", "static_cast", "template", "this", "thread_local", "throw", "true",
    "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
};

void nsc_check_identifier(nsc_checker *c, nsc_name n, const char *what)
{
    if (n.text[0] == '_' || strstr(n.text, "__"))
        nsc_error(c->d, "E-name-reserved", n.loc,
                  "%s '%s' is reserved: names may not start with '_' or contain '__' (reserved in C and C++)",
                  what, n.text);
}

void nsc_check_field_name(nsc_checker *c, nsc_name n)
{
    nsc_check_identifier(c, n, "field name");
    for (size_t i = 0; i < sizeof c_keywords / sizeof c_keywords[0]; i++) {
        if (strcmp(c_keywords[i], n.text) == 0) {
            nsc_error(c->d, "E-name-keyword", n.loc,
                      "field name '%s' is a C or C++ keyword and cannot be a struct member", n.text);
            return;
        }
    }
    if (strncmp(n.text, "ns_", 3) == 0)
        nsc_error(c->d, "E-name-reserved", n.loc, "field name '%s' is reserved: names starting with 'ns_' "
                  "belong to the netschema runtime", n.text);
}

void nsc_check_package(nsc_checker *c, nsc_unit *u)
{
    nsc_decl *first = NULL;
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        d->unit = u;
        if (d->kind != NSC_D_PACKAGE) continue;
        if (first) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-package-dup", d->loc, "a schema has exactly one package declaration");
            nsc_diag_note(c->d, first->loc, "the package is declared here");
            nsc_diag_end(c->d);
            continue;
        }
        first = d;
        if (i != 0)
            nsc_error(c->d, "E-package-order", d->loc,
                      "the package declaration must come first, before any other declaration");
        for (size_t p = 0; p < d->package.count; p++) nsc_check_identifier(c, d->package.parts[p], "package name");
    }
    if (!first) {
        u->package = "";
        u->prefix = "";
        /* A package line broken by a syntax error was reported already. */
        if (u->parse_failed) return;
        nsc_loc at = {u->src->id, 0, 0};
        if (u->ndecls) at = u->decls[0]->kw_loc;
        nsc_error(c->d, "E-package-missing", at, "missing package declaration: a schema starts with 'package <name>;'");
        return;
    }
    u->package_decl = first;
    u->package = first->package.text;
    char *prefix = nsc_arena_strdup(c->a, first->package.text);
    for (char *p = prefix; *p; p++)
        if (*p == '.') *p = '_';
    u->prefix = prefix;
    /* "a_.b" is fine part by part but makes the prefix "a__b". */
    if (strstr(prefix, "__") && !strstr(first->package.text, "__"))
        nsc_error(c->d, "E-name-reserved", first->package.loc,
                  "package '%s' gives the C prefix '%s', which contains '__' (reserved in C and C++)",
                  first->package.text, prefix);
}

void nsc_collect_symbols(nsc_checker *c, nsc_unit *u)
{
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *d = u->decls[i];
        if (d->kind == NSC_D_PACKAGE || d->kind == NSC_D_IMPORT) continue;
        const char *what = nsc_decl_kind_name(d->kind);
        if (nsc_is_builtin_name(d->name.text)) {
            nsc_error(c->d, "E-name-builtin", d->name.loc, "'%s' is a built-in type and cannot name %s %s",
                      d->name.text, nsc_article(what), what);
            continue;
        }
        nsc_check_identifier(c, d->name, "name");
        nsc_decl *prev = nsc_map_put(&u->symbols, d->name.text, d);
        if (prev != d) {
            nsc_diag_begin(c->d, NSC_ERROR, "E-name-dup", d->name.loc, "'%s' is already declared in this schema",
                           d->name.text);
            nsc_diag_note(c->d, prev->name.loc, "first declared here");
            nsc_diag_end(c->d);
        }
    }
}

/* Looks up name in the units directly imported by u (not u itself). */
static nsc_decl *lookup_imported(nsc_checker *c, nsc_unit *u, const char *package, const char *name,
                                 const nsc_qname *q)
{
    nsc_decl *found = NULL, *found_import = NULL;
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *imp = u->decls[i];
        if (imp->kind != NSC_D_IMPORT || !imp->target || imp->target == u) continue;
        if (package && (!imp->target->package || strcmp(imp->target->package, package) != 0)) continue;
        nsc_decl *d = nsc_map_get(&imp->target->symbols, name);
        if (!d || d == found) continue;
        if (found) {
            {
                nsc_diag_begin(c->d, NSC_ERROR, "E-name-ambiguous", q->loc,
                               "'%s' is ambiguous: two imported schemas declare it; qualify it with its package",
                               q->text);
                nsc_diag_note(c->d, found->name.loc, "one is declared here, in package '%s'", found->unit->package);
                nsc_diag_note(c->d, d->name.loc, "another is declared here, in package '%s'", d->unit->package);
                nsc_diag_end(c->d);
            }
            found_import->import_used = true;
            imp->import_used = true;
            return found;
        }
        found = d;
        found_import = imp;
    }
    if (found_import) found_import->import_used = true;
    return found;
}

nsc_decl *nsc_lookup(nsc_checker *c, nsc_unit *u, const nsc_qname *q, bool report)
{
    const char *name = q->parts[q->count - 1].text;
    nsc_decl *d = NULL;
    if (q->count == 1) {
        d = nsc_map_get(&u->symbols, name);
        if (!d) d = lookup_imported(c, u, NULL, name, q);
    } else {
        /* a.b.Name: the package is everything before the last part. */
        size_t plen = strlen(q->text) - strlen(name) - 1;
        char *package = nsc_arena_strndup(c->a, q->text, plen);
        if (u->package && strcmp(u->package, package) == 0) d = nsc_map_get(&u->symbols, name);
        if (!d) d = lookup_imported(c, u, package, name, q);
    }
    if (!d && report) nsc_error(c->d, "E-name-unknown", q->loc, "unknown name '%s'", q->text);
    return d;
}

const nsc_enum_value *nsc_lookup_enum_value(nsc_checker *c, nsc_unit *u, const nsc_qname *q, nsc_decl **owner)
{
    if (q->count < 2) return NULL;
    nsc_qname head = *q;
    head.count--;
    size_t len = strlen(q->text) - strlen(q->parts[q->count - 1].text) - 1;
    head.text = nsc_arena_strndup(c->a, q->text, len);
    nsc_decl *e = nsc_lookup(c, u, &head, false);
    if (!e || e->kind != NSC_D_ENUM) return NULL;
    *owner = e;
    const char *vname = q->parts[q->count - 1].text;
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->values[i]->name.text, vname) == 0) return e->values[i];
    return NULL;
}

void nsc_check_unused_imports(nsc_checker *c, nsc_unit *u)
{
    for (size_t i = 0; i < u->ndecls; i++) {
        nsc_decl *imp = u->decls[i];
        if (imp->kind == NSC_D_IMPORT && imp->target && !imp->import_used)
            nsc_warning(c->d, "W-import-unused", imp->loc, "unused import '%s': nothing from it is used",
                        imp->path);
    }
}

const char *nsc_article(const char *word)
{
    char c = word[0] == '\'' ? word[1] : word[0];
    char next = word[0] == '\'' ? word[2] : word[1];
    if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'A' || c == 'E' || c == 'I' || c == 'O') return "an";
    /* Letters read as a vowel sound before a digit: an f32, an i8. */
    if ((c == 'f' || c == 'F') && next >= '0' && next <= '9') return "an";
    return "a";
}

const char *nsc_number_text(nsc_checker *c, double v)
{
    if (v > -1e18 && v < 1e18 && v == (double)(long long)v) return nsc_arena_printf(c->a, "%lld", (long long)v);
    return nsc_arena_printf(c->a, "%.15g", v);
}

/* Optimal string alignment distance (Levenshtein plus transpositions), capped. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32) return 99;
    size_t d[33][33];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            size_t best = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *nsc_suggest(const char *word, const char *const *candidates, size_t n)
{
    /* Close enough to be a typo: at most 2 edits, and fewer for short words ('D' is not 'i8'). */
    const char *best = NULL;
    size_t best_d = 3, len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        /* "predict" is not a typo of "nopredict": it means the opposite. */
        size_t cl = strlen(candidates[i]);
        if (cl > len && strncmp(candidates[i], "no", 2) == 0 && strcmp(candidates[i] + 2, word) == 0) continue;
        size_t dd = distance(word, candidates[i]);
        if (dd < best_d && dd * 3 <= len + 1) best_d = dd, best = candidates[i];
    }
    return best;
}
