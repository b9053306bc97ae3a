/* ast.c — small helpers over the syntax tree. */
#include "ast.h"

const char *nsc_decl_kind_name(nsc_decl_kind k)
{
    switch (k) {
    case NSC_D_PACKAGE: return "package";
    case NSC_D_IMPORT: return "import";
    case NSC_D_CONST: return "constant";
    case NSC_D_ENUM: return "enum";
    case NSC_D_STRUCT: return "struct";
    case NSC_D_COMPONENT: return "component";
    case NSC_D_INPUT: return "input";
    case NSC_D_RPC: return "rpc";
    case NSC_D_EXTERN: return "extern struct";
    case NSC_D_UNION: return "union";
    }
    return "declaration";
}

bool nsc_decl_is_record(const nsc_decl *d)
{
    return d->kind == NSC_D_STRUCT || d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT || d->kind == NSC_D_RPC;
}
