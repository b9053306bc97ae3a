/* e2e_support.h — schema-independent helpers for the end-to-end tests, driven by the generated
 * type descriptors: random snapshots and trajectories, and per-slot comparison. */
#ifndef E2E_SUPPORT_H
#define E2E_SUPPORT_H

#include <netschema/netschema.h>

#include "ns_test.h"

/* Type-erased access to one generated type. */
typedef struct codec {
    const ns_type_desc *desc;
    /* base may be NULL; for inputs and structs only base->snap[0] is used, rpcs use none */
    ns_status (*write)(ns_writer *w, const void *cur, const ns_baselines *base, ns_audience to);
    ns_status (*read)(ns_reader *r, void *out, const ns_baselines *base, ns_audience to);
    void (*init)(void *value);
    void (*quantize)(const void *value, void *snap);
    void (*dequantize)(const void *snap, void *value);
    bool (*snap_equal)(const void *a, const void *b);
    unsigned max_baselines; /* 3 for components, 1 for inputs and structs, 0 for rpcs */
} codec;

/* Fills snap with random values for every slot (within declared ranges), then makes it valid by
 * passing it through dequantize and quantize. */
void e2e_random_snap(const codec *c, ns_rng *rng, void *snap);

/* Four snapshots of one entity over time: b2, b1, b0 (oldest first) and cur. Each slot is
 * constant, moves linearly, jitters, or jumps at random, so writes see every kind of delta. */
void e2e_trajectory(const codec *c, ns_rng *rng, void *b2, void *b1, void *b0, void *cur);

/* True if slot i of desc is written for this audience and baseline count. */
bool e2e_slot_sent(const ns_type_desc *desc, uint32_t i, ns_audience to, uint32_t nbase);

/* True if slot i holds the same value in a and b (strings and bytes compared by content). */
bool e2e_slot_equal(const ns_type_desc *desc, uint32_t i, const void *a, const void *b);

#endif
