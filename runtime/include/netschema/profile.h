/* netschema/profile.h — the per-field bandwidth profile (docs/dump.md "Bandwidth profile"):
 * per type and per slot, how many writes carried the slot, how often it changed and the bits it
 * spent, as a table sorted by bits or as JSON.
 *
 * Counting is compiled in with -DNS_PROFILE (CMake: -DNETSCHEMA_PROFILE=ON, which builds the
 * runtime and every generated library with it): ns_writer then carries a profile pointer, and
 * every generated component, input and rpc _write ends with NS_PROFILE_WRITE, which walks the
 * bits it just wrote (netschema/dump.h) and adds them to the writer's profile. Without
 * NS_PROFILE the macro is empty and ns_writer has no extra member: zero cost. There is no global
 * state: the application owns each ns_profile and installs it on the writers it wants counted
 * (ns_writer_set_profile); writers made by the replication layer inherit the profile of the
 * writer passed to ns_world_write. Struct writes (collection elements) are counted inside their
 * collection's slot, not as records of their own. Not thread-safe: one profile per thread. */
#ifndef NETSCHEMA_PROFILE_H
#define NETSCHEMA_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "baselines.h"
#include "bits.h"
#include "desc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One slot's counters. */
typedef struct ns_profile_slot {
    uint64_t writes;   /* records in which the slot had a change bit */
    uint64_t changed;  /* ... set to 1 */
    uint64_t bits;     /* its change bits and payloads */
} ns_profile_slot;

/* One type's counters. */
typedef struct ns_profile_type {
    const ns_type_desc *desc;
    uint64_t         writes;   /* records counted */
    uint64_t         bits;     /* all their bits: any bits plus every slot's */
    uint64_t         any_bits; /* the records' leading "any" bits */
    ns_profile_slot *slots;    /* desc->field_count */
    ns_profile_slot *pending;  /* scratch for the record being counted */
} ns_profile_type;

/* A profile: zero it with ns_profile_init, free it with ns_profile_free. Read the members. */
typedef struct ns_profile {
    ns_profile_type *types;    /* in order of first write */
    uint32_t         count, cap;
    uint64_t         writes;   /* records counted */
    uint64_t         bits;     /* their bits */
    uint64_t         failed;   /* records not counted: overflowed writer, no memory, or bits the
                                  walker could not attribute (a bug: please report it) */
} ns_profile;

/* Starts an empty profile. */
void ns_profile_init(ns_profile *p);

/* Frees what the profile allocated; it is then empty. */
void ns_profile_free(ns_profile *p);

/* Counts one record of type t, bits [from_bit, to_bit) of buf written against base and to; any
 * build. NS_OK, or the walker's error (then only p->failed counts it). */
ns_status ns_profile_add(ns_profile *p, const ns_type_desc *t, const void *buf, size_t from_bit, size_t to_bit,
                         const ns_baselines *base, ns_audience to);

/* Prints a table, one row per slot (and per type for its "any" bits), sorted by bits, with shares. */
void ns_profile_report(const ns_profile *p, FILE *out);

/* Writes the same rows as one JSON object: {"bits": N, "writes": N, "failed": N, "rows": [...]}. */
void ns_profile_json(const ns_profile *p, FILE *out);

/* Installs profile p (NULL: none) on writer w; false, doing nothing, without NS_PROFILE. */
static inline bool ns_writer_set_profile(ns_writer *w, struct ns_profile *p)
{
#ifdef NS_PROFILE
    w->profile = p;
    return true;
#else
    (void)w;
    (void)p;
    return false;
#endif
}

#ifdef NS_PROFILE
/* NS_PROFILE_WRITE's hook: counts a _write's bits between `before` and `after` (ref: an input's
 * prev). Only in a runtime built with NS_PROFILE, so mixed builds fail to link. */
void ns_profile_write(struct ns_profile *p, const ns_type_desc *t, const ns_writer *before, const ns_writer *after,
                      const ns_baselines *base, ns_audience to, const void *ref);
#define NS_PROFILE_WRITE(desc, before, after, base, to, ref)                                  \
    do {                                                                                     \
        if ((before)->profile) ns_profile_write((before)->profile, desc, before, after, base, to, ref); \
    } while (0)
/* NS_PROFILE_BEFORE(name, w): a copy of writer w, named name, for a _write that writes through
 * its caller's writer in place (a record, netschema/bits.h) to hand NS_PROFILE_WRITE as before. */
#define NS_PROFILE_BEFORE(name, w) const ns_writer name = *(w)
#else
#define NS_PROFILE_WRITE(desc, before, after, base, to, ref) ((void)0)
#define NS_PROFILE_BEFORE(name, w) ((void)0)
#endif

#ifdef __cplusplus
}
#endif
#endif
