/* context.h — the compiler context and loaded units: the state one compilation shares. */
#ifndef NSC_CONTEXT_H
#define NSC_CONTEXT_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "map.h"
#include "source.h"

struct nsc_unit {
    nsc_source  *src;
    nsc_decl   **decls;
    size_t       ndecls;
    nsc_decl    *package_decl;
    const char  *package;     /* "game.core"; NULL when missing */
    const char  *prefix;      /* C prefix: "game_core" */
    const char  *stem;        /* output file stem: "game" for game.netschema */
    nsc_map      symbols;     /* top-level name → nsc_decl */
    bool         loading;     /* on the import stack (cycle detection) */
    bool         parse_failed;
    int          ids_state;   /* type ids: 0 not yet, 1 assigning, 2 done */
    uint64_t     hash;
};

struct nsc_context {
    nsc_options  opt;
    nsc_arena    arena;
    nsc_sources  sources;
    nsc_diags    diags;
    nsc_unit   **units;
    size_t       nunits, units_cap;
    nsc_unit   **stack;       /* units being loaded, innermost last */
    nsc_decl   **stack_import;/* the import declaration that led to each of them */
    size_t       depth, stack_cap;
    bool         checked;
    unsigned     check_errors;
};

/* Parses a loaded unit's source into its declarations (parse.c). */
void nsc_parse_unit(nsc_context *ctx, nsc_unit *u);

#endif
