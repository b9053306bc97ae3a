/* hash.h — the protocol hash (idl/SPEC.md section 13): FNV-1a 64 over a canonical text of everything that
 * affects the wire, per type and per schema. */
#ifndef NSC_HASH_H
#define NSC_HASH_H

#include "checker.h"

/* Wire format version: part of every hash, bumped when the generated wire format changes. */
#define NSC_WIRE_VERSION 1

/* Computes decl->hash for every enum and record of u, and u->hash. */
void nsc_hash_unit(nsc_checker *c, nsc_unit *u);

/* The canonical text of a declaration (what its hash is computed over). */
void nsc_canonical_decl(const nsc_decl *d, nsc_strbuf *sb);

#endif
