/* coll_link.h — a sender and a receiver of one component over a simulated unreliable link, for
 * the collection model tests: packets are dropped, delayed (so reordered) and duplicated, acks
 * flow back over the same kind of link, and the sender codes against up to three acked
 * snapshots it still holds (netschema/history.h). Type-erased over the generated component. */
#ifndef COLL_LINK_H
#define COLL_LINK_H

#include <netschema/netschema.h>

#include "ns_test.h"

typedef struct coll_model {
    const char *name;
    size_t      value_size, snap_size;
    size_t      max_bytes;
    void      (*init)(void *value);
    /* Applies random operations to the sender's value; returns how many. */
    unsigned  (*mutate)(void *value, ns_rng *rng);
    void      (*quantize)(const void *value, void *snap);
    ns_status (*write)(ns_writer *w, const void *cur, const ns_baselines *b, ns_audience to);
    ns_status (*read)(ns_reader *r, void *out, const ns_baselines *b, ns_audience to);
    bool      (*snap_equal)(const void *a, const void *b);
    /* The receiver brings its live value to snap and checks the events it sees. */
    void      (*apply)(void *live, const void *snap, void *checker);
    void       *checker;
} coll_model;

typedef struct coll_stats {
    unsigned long ticks, ops, sent, delivered, decoded, applied, undecodable;
    unsigned long bytes;
    unsigned long baselines[4]; /* writes by number of baselines used */
} coll_stats;

/* Runs `ticks` ticks of the model with fixed seed; every decoded snapshot must equal what the
 * sender had at that tick. Fails the current Check test on any mismatch. */
coll_stats coll_run(const coll_model *m, uint64_t seed, unsigned ticks, unsigned loss_percent);

#endif
