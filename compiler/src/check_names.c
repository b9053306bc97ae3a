/* check_names.c — packages, top-level symbols, name lookup across imports, identifier rules. */
#include <string.h>

#include "checker.h"
#include "cnames.h"

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

/* C library names that generated code would collide with: those of the headers it includes
 * (<stddef.h>, <stdint.h>, <stdbool.h>, <string.h>, <math.h>) and of <limits.h> and <float.h>,
 * which the files that include a generated header usually include too. Typedefs and object-like
 * macros only: a struct member named like a function or a function-like macro compiles. */
typedef struct libc_name {
    const char *name;
    const char *header;
} libc_name;

static const libc_name libc_names[] = {
    {"NULL", "stddef.h"}, {"offsetof", "stddef.h"}, {"size_t", "stddef.h"}, {"ptrdiff_t", "stddef.h"},
    {"max_align_t", "stddef.h"},
    {"SIZE_MAX", "stdint.h"}, {"PTRDIFF_MIN", "stdint.h"}, {"PTRDIFF_MAX", "stdint.h"},
    {"SIG_ATOMIC_MIN", "stdint.h"}, {"SIG_ATOMIC_MAX", "stdint.h"}, {"WCHAR_MIN", "stdint.h"},
    {"WCHAR_MAX", "stdint.h"}, {"WINT_MIN", "stdint.h"}, {"WINT_MAX", "stdint.h"},
    {"NAN", "math.h"}, {"INFINITY", "math.h"}, {"HUGE_VAL", "math.h"}, {"HUGE_VALF", "math.h"},
    {"HUGE_VALL", "math.h"}, {"float_t", "math.h"}, {"double_t", "math.h"}, {"FP_NAN", "math.h"},
    {"FP_INFINITE", "math.h"}, {"FP_ZERO", "math.h"}, {"FP_SUBNORMAL", "math.h"}, {"FP_NORMAL", "math.h"},
    {"FP_FAST_FMA", "math.h"}, {"FP_FAST_FMAF", "math.h"}, {"FP_FAST_FMAL", "math.h"}, {"FP_ILOGB0", "math.h"},
    {"FP_ILOGBNAN", "math.h"}, {"MATH_ERRNO", "math.h"}, {"MATH_ERREXCEPT", "math.h"},
    {"math_errhandling", "math.h"}, {"M_E", "math.h"}, {"M_LOG2E", "math.h"}, {"M_LOG10E", "math.h"},
    {"M_LN2", "math.h"}, {"M_LN10", "math.h"}, {"M_PI", "math.h"}, {"M_PI_2", "math.h"}, {"M_PI_4", "math.h"},
    {"M_1_PI", "math.h"}, {"M_2_PI", "math.h"}, {"M_2_SQRTPI", "math.h"}, {"M_SQRT2", "math.h"},
    {"M_SQRT1_2", "math.h"}, {"MAXFLOAT", "math.h"}, {"HUGE", "math.h"},
    {"CHAR_BIT", "limits.h"}, {"SCHAR_MIN", "limits.h"}, {"SCHAR_MAX", "limits.h"}, {"UCHAR_MAX", "limits.h"},
    {"CHAR_MIN", "limits.h"}, {"CHAR_MAX", "limits.h"}, {"MB_LEN_MAX", "limits.h"}, {"SHRT_MIN", "limits.h"},
    {"SHRT_MAX", "limits.h"}, {"USHRT_MAX", "limits.h"}, {"INT_MIN", "limits.h"}, {"INT_MAX", "limits.h"},
    {"UINT_MAX", "limits.h"}, {"LONG_MIN", "limits.h"}, {"LONG_MAX", "limits.h"}, {"ULONG_MAX", "limits.h"},
    {"LLONG_MIN", "limits.h"}, {"LLONG_MAX", "limits.h"}, {"ULLONG_MAX", "limits.h"},
    {"FLT_MAX", "float.h"}, {"FLT_MIN", "float.h"}, {"FLT_EPSILON", "float.h"}, {"FLT_DIG", "float.h"},
    {"DBL_MAX", "float.h"}, {"DBL_MIN", "float.h"}, {"DBL_EPSILON", "float.h"}, {"DBL_DIG", "float.h"},
};

/* Macros gcc and clang predefine in their default (GNU) modes on common targets. */
static const char *const predefined_macros[] = {"unix", "linux", "i386", "sun", "sparc", "mips"};

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* <stdint.h>'s names and the ones C11 7.31.10 reserves for it: int<N>_t, int_least<N>_t,
 * intptr_t, intmax_t (and uint...), INT<N>_MAX, INT_FAST<N>_MIN, UINT<N>_C, INTMAX_C, ... Only
 * where "int" is followed by a width or one of stdint's words: "internal_t" stays usable. */
static bool is_stdint_name(const char *s)
{
    bool upper = s[0] == 'I' || s[0] == 'U';
    const char *rest = s + (s[0] == 'u' || s[0] == 'U');
    if (!starts_with(rest, upper ? "INT" : "int")) return false;
    rest += 3;
    bool stdint_word = (*rest >= '0' && *rest <= '9') ||
                       starts_with(rest, upper ? "_LEAST" : "_least") || starts_with(rest, upper ? "_FAST" : "_fast") ||
                       starts_with(rest, upper ? "PTR" : "ptr") || starts_with(rest, upper ? "MAX" : "max");
    if (!stdint_word) return false;
    return upper ? ends_with(s, "_MAX") || ends_with(s, "_MIN") || ends_with(s, "_C") : ends_with(s, "_t");
}

const char *nsc_reserved_c_name(nsc_arena *a, const char *name)
{
    if (starts_with(name, "ns_") || starts_with(name, "NS_") || starts_with(name, "NETSCHEMA_"))
        return "names starting with 'ns_', 'NS_' or 'NETSCHEMA_' belong to the netschema runtime (its functions, "
               "types, macros and include guards)";
    if (is_stdint_name(name))
        return "the C library's <stdint.h> defines it or C11 reserves it for that header (7.31.10), and generated "
               "code includes that header";
    for (size_t i = 0; i < sizeof libc_names / sizeof libc_names[0]; i++)
        if (libc_names[i].name[0] == name[0] && strcmp(libc_names[i].name, name) == 0) /* hot: every C name */
            return nsc_arena_printf(a, "the C library's <%s> defines it, and %s", libc_names[i].header,
                                    strcmp(libc_names[i].header, "limits.h") && strcmp(libc_names[i].header, "float.h")
                                        ? "generated code includes that header"
                                        : "code that includes a generated header often includes that header too");
    for (size_t i = 0; i < sizeof predefined_macros / sizeof predefined_macros[0]; i++)
        if (strcmp(predefined_macros[i], name) == 0)
            return "gcc and clang predefine it as a macro in their default GNU modes (-std=gnu11 and later)";
    return NULL;
}

/* True if one of a and b starts with the other. */
static bool overlap(const char *a, const char *b)
{
    size_t n = strlen(a), k = strlen(b);
    return strncmp(a, b, n < k ? n : k) == 0;
}

bool nsc_reserved_c_prefix(const char *prefix)
{
    /* The runtime's prefixes and the roots of every <stdint.h> name (is_stdint_name). */
    static const char *const roots[] = {"ns_", "NS_", "NETSCHEMA_", "int", "uint", "INT", "UINT"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
        if (overlap(prefix, roots[i])) return true;
    for (size_t i = 0; i < sizeof libc_names / sizeof libc_names[0]; i++)
        if (starts_with(libc_names[i].name, prefix)) return true;
    for (size_t i = 0; i < sizeof predefined_macros / sizeof predefined_macros[0]; i++)
        if (starts_with(predefined_macros[i], prefix)) return true;
    return false;
}

void nsc_check_identifier(nsc_checker *c, nsc_name n, const char *what)
{
    /* Generated code spells names in string literals (descriptors, enum _name) and joins them
     * into longer C names: a bound keeps both far below C's 4095-character string literal. */
    size_t len = strlen(n.text);
    if (len > NSC_MAX_NAME_LENGTH) {
        nsc_error(c->d, "E-limit-name", n.loc, "%s '%.32s...' is %zu characters long; names have at most %d",
                  what, n.text, len, NSC_MAX_NAME_LENGTH);
        return;
    }
    if (n.text[0] == '_' || strstr(n.text, "__"))
        nsc_error(c->d, "E-name-reserved", n.loc,
                  "%s '%s' is reserved: names may not start with '_' or contain '__' (reserved in C and C++)",
                  what, n.text);
}

void nsc_check_field_name(nsc_checker *c, nsc_name n)
{
    nsc_check_identifier(c, n, "field name");
    for (size_t i = 0; i < sizeof c_keywords / sizeof c_keywords[0]; i++) {
        if (c_keywords[i][0] == n.text[0] && strcmp(c_keywords[i], n.text) == 0) { /* hot: every field */
            nsc_error(c->d, "E-name-keyword", n.loc,
                      "field name '%s' is a C or C++ keyword and cannot be a struct member", n.text);
            return;
        }
    }
    /* A field is a struct member spelled as is: a macro of that name would replace it. */
    const char *why = nsc_reserved_c_name(c->a, n.text);
    if (why) nsc_error(c->d, "E-name-reserved", n.loc, "field name '%s' is reserved: %s", n.text, why);
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
        /* Descriptors spell the whole dotted package and "<prefix>_<Name>" as string literals. */
        size_t len = strlen(d->package.text);
        if (len > NSC_MAX_NAME_LENGTH)
            nsc_error(c->d, "E-limit-name", d->package.loc, "package name '%.32s...' is %zu characters long; "
                      "names have at most %d", d->package.text, len, NSC_MAX_NAME_LENGTH);
        else
            for (size_t p = 0; p < d->package.count; p++)
                nsc_check_identifier(c, nsc_qname_part(&d->package, p), "package name");
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
    /* "<prefix>_<Name>", which every name generated for a declaration starts with (cnames.h). */
    for (size_t i = 0; i < u->ndecls; i++)
        if (u->decls[i]->name.text)
            u->decls[i]->c_name = nsc_arena_concat(c->a, prefix, "_", u->decls[i]->name.text, (const char *)NULL);
    /* Every generated name starts "<prefix>_", macros in upper case: "package ns" would define
     * ns_reader or NS_TO_OWNER over the runtime's own. */
    const char *upper = nsc_upper(c->a, nsc_arena_printf(c->a, "%s_", prefix));
    if (starts_with(upper, "NS_") || starts_with(upper, "NETSCHEMA_"))
        nsc_error(c->d, "E-name-reserved", first->package.loc,
                  "package '%s' is reserved: its generated C names would start with '%s_' (macros with '%s'), and "
                  "names starting with 'ns_', 'NS_' or 'NETSCHEMA_' belong to the netschema runtime",
                  first->package.text, prefix, upper);
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
    const char *name = nsc_qname_last(q);
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
    size_t len = strlen(q->text) - strlen(nsc_qname_last(q)) - 1;
    head.text = nsc_arena_strndup(c->a, q->text, len);
    nsc_decl *e = nsc_lookup(c, u, &head, false);
    if (!e || e->kind != NSC_D_ENUM) return NULL;
    *owner = e;
    const char *vname = nsc_qname_last(q);
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->values[i]->name.text, vname) == 0) return e->values[i];
    return NULL;
}

const char *nsc_enum_value_list(nsc_checker *c, const nsc_decl *e)
{
    enum { LISTED = 12 };
    nsc_strbuf sb = NSC_STRBUF_INIT;
    for (size_t i = 0; i < e->nvalues && i < LISTED; i++)
        nsc_sb_printf(&sb, "%s%s", i ? ", " : "", e->values[i]->name.text);
    if (e->nvalues > LISTED) nsc_sb_printf(&sb, ", ... (%zu in all)", e->nvalues);
    const char *r = nsc_arena_strdup(c->a, e->nvalues ? nsc_sb_str(&sb) : "(none)");
    nsc_sb_free(&sb);
    return r;
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
