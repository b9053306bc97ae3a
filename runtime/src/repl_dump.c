/* repl_dump.c — ns_dump_repl_packet: a read-only walk over one replication snapshot packet
 * (docs/replication.md section 2) that prints its header, despawns, spawns and update groups,
 * each component field by field with its bits (dump.c). It reads the packet the way
 * repl_replica.c does, with the same checks, but changes nothing: the baselines of updates are
 * looked up through the replica's public accessors. A replica configured for format 2 (or none:
 * format 1) says which packet format the bytes are in; format 2's groups that name their ids
 * by reference find them in the replica's lists of the ids of the packets it applied. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/dump.h>
#include <netschema/replication.h>

#include "dump_internal.h"
#include "repl_replica_internal.h"

typedef struct walk {
    FILE                *out;
    const ns_schema     *schema;
    const ns_replica    *replica;
    ns_reader           *in;
    const ns__defaults  *defaults;
    const ns_model      *gaps;      /* the packet's id-gap model */
    bool                 sizes;
    uint32_t             tick;
    uint32_t             format;    /* the packet format (NS_PACKET_FORMAT_1 without a replica);
                                       from 3 on: updates without baselines, then one section */
    bool                 told;      /* ... format 3: it said its id gaps' model already */
    uint32_t            *named;     /* ... the ids it named before its section, which the
                                       section's ids by reference leave out */
    size_t               nnamed, named_cap;
    uint8_t              steady;    /* a steady packet (NS__STEADY_*): format 2's one group, said
                                       by the header; from format 3 on, the crowd's section */
    uint32_t             gap0;      /* ... and its newest baseline's gap */
} walk;

static ns_status failed(walk *k, ns_status st)
{
    if (!ns_reader_failed(k->in)) ns_reader_fail(k->in, st);
    fprintf(k->out, "  error: %s\n", ns_status_str(st));
    return st;
}

/* Bit j of a format-2 group's id mask, which starts at bit `at` of in's buffer (already read). */
static bool mask_bit(const ns_reader *in, size_t at, uint32_t j)
{
    const size_t b = at + j;
    return (in->buf[b / 8] >> (b % 8) & 1u) != 0;
}

/* The next id of a run (ids ascend: the first as it is, each next as its gap − 1). */
static ns_status read_id(walk *k, uint32_t *next, uint32_t *id, size_t *bits)
{
    size_t at = ns_reader_bits(k->in);
    uint32_t gap = ns_read_packed_u32(k->in, k->gaps);
    if (ns_reader_failed(k->in)) return ns_reader_status(k->in);
    if (gap > UINT32_MAX - *next || *next + gap > (1u << 24)) return NS_ERR_RANGE;
    *id = *next + gap;
    *next = *id + 1;
    *bits = ns_reader_bits(k->in) - at;
    return NS_OK;
}

/* Prints a body: presence bits (or the group's mask), then each present component. */
static ns_status body(walk *k, const ns__layout *l, const ns_baselines *b, ns_audience to, const uint64_t *types,
                      ns_entity_id id)
{
    uint32_t present = 0;
    size_t at = ns_reader_bits(k->in);
    for (uint32_t i = 0; i < l->ncomp; i++) {
        if (!ns__carries(k->defaults, l->comp[i], to, b->count != 0)) continue;
        uint32_t bit = types ? (uint32_t)(*types >> l->comp[i] & 1u) : ns_read_bits(k->in, 1);
        present |= bit << i;
    }
    if (ns_reader_failed(k->in)) return ns_reader_status(k->in);
    fprintf(k->out, "    presence (%zu bits):", ns_reader_bits(k->in) - at);
    for (uint32_t i = 0; i < l->ncomp; i++)
        fprintf(k->out, " %s%s", k->schema->components[l->comp[i]].desc->name, present >> i & 1u ? "" : " (same)");
    fputc('\n', k->out);
    for (uint32_t i = 0; i < l->ncomp; i++) {
        if (!(present >> i & 1u)) continue;
        const ns_component_ops *ops = &k->schema->components[l->comp[i]];
        ns_baselines part = *b;
        for (uint32_t j = 0; j < b->count; j++) {
            part.snap[j] = k->replica ? ns_replica_snap_at(k->replica, id, ops->desc->id, b->tick[j]) : NULL;
            if (!part.snap[j]) return NS_ERR_BASELINE;
        }
        ns_status st = ns__dump_record(k->out, 4, ops->desc, k->in, &part, to);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* Skips a record the dump cannot decode, by its size; without sizes the walk cannot go on. */
static ns_status skip(walk *k, uint32_t size, const char *why)
{
    if (!k->sizes) {
        fprintf(k->out, "    cannot decode: %s\n", why);
        return NS_ERR_BASELINE;
    }
    if (ns_reader_remaining_bits(k->in) < size) return NS_ERR_TRUNCATED;
    ns__skip_bits(k->in, size);
    fprintf(k->out, "    skipped (%" PRIu32 " bits): %s\n", size, why);
    return NS_OK;
}

/* Checks that a body read exactly `size` bits when sizes are on. */
static ns_status check_size(walk *k, size_t start, uint32_t size)
{
    if (ns_reader_failed(k->in)) return ns_reader_status(k->in);
    return !k->sizes || ns_reader_bits(k->in) - start == size ? NS_OK : NS_ERR_MALFORMED;
}

/* Who a record was coded for: its ns_audience bits in words. */
static const char *who(ns_audience to)
{
    static const char *const names[NS__AUDIENCES] = {
        "an observer", "the owner", "an observer (predicting)", "the owner (predicting)",
        "an observer (custom)", "the owner (custom)", "an observer (predicting, custom)", "the owner (predicting, custom)"};
    return names[(unsigned)to % NS__AUDIENCES];
}

static ns_status spawn(walk *k, uint32_t id, size_t id_bits)
{
    ns_reader *in = k->in;
    size_t at = ns_reader_bits(in);
    ns_audience to = (ns_audience)ns__read_audience(in, k->defaults);
    uint32_t n = ns_read_packed_u32(in, NULL) + 1u, types[NS_REPL_MAX_COMPONENTS], prev = 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    if (n > NS_REPL_MAX_COMPONENTS) return NS_ERR_CAPACITY;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = ns_read_packed_u32(in, NULL);
        if (i && v > UINT32_MAX - prev - 1u) return NS_ERR_RANGE;
        types[i] = i == 0 ? v : prev + v + 1u;
        prev = types[i];
    }
    uint32_t size = k->sizes ? ns_read_packed_u32(in, NULL) : 0;
    if (ns_reader_failed(in)) return ns_reader_status(in);
    fprintf(k->out, "  spawn #%" PRIu32 " for %s (id %zu bits, header %zu bits", id,
            who(to), id_bits, ns_reader_bits(in) - at);
    if (k->sizes) fprintf(k->out, ", body %" PRIu32 " bits", size);
    fputs(")\n", k->out);
    ns__layout l;
    ns_status st = ns__layout_init(&l, k->schema, types, n);
    if (st == NS_ERR_UNKNOWN_ID) return skip(k, size, "a component type this schema does not have");
    if (st != NS_OK) return NS_ERR_MALFORMED;
    ns_baselines none = {{NULL, NULL, NULL}, {0, 0, 0}, 0, k->tick};
    size_t start = ns_reader_bits(in);
    st = body(k, &l, &none, to, NULL, id);
    return st != NS_OK ? st : check_size(k, start, size);
}

/* The layout of an entity the replica holds: every schema component it has a state of. */
static bool held_layout(const walk *k, ns_entity_id id, ns__layout *l)
{
    if (!k->replica || !ns_replica_has(k->replica, id)) return false;
    uint32_t types[NS_REPL_MAX_COMPONENTS], n = 0;
    for (uint32_t c = 0; c < k->schema->component_count && n < NS_REPL_MAX_COMPONENTS; c++) {
        uint32_t type = k->schema->components[c].desc->id;
        if (ns_replica_snap(k->replica, id, type, NULL)) types[n++] = type;
    }
    return n && ns__layout_init(l, k->schema, types, n) == NS_OK;
}

/* An update against b, or with a ladder (format 3's section) against the baselines the
 * replica's ring of the entity derives from it. */
static ns_status update(walk *k, uint32_t id, size_t id_bits, const ns_baselines *b, uint64_t ladder, const uint64_t *types)
{
    ns_reader *in = k->in;
    uint32_t size = k->sizes ? ns_read_packed_u32(in, NULL) : 0;
    ns_audience to = NS_TO_OBSERVER;
    ns_baselines derived = {{NULL, NULL, NULL}, {0, 0, 0}, 0, k->tick};
    if (ladder) {
        const ns__rent *e = k->replica ? ns__held(k->replica, id) : NULL;
        const void *snaps[3]; /* the body takes each component's baselines by tick */
        if (e) derived.count = ns__derive_baselines(ladder, k->tick, e, derived.tick, snaps);
        b = &derived;
    }
    if (b->count == 0 && !ladder) to = (ns_audience)ns__read_audience(in, k->defaults);
    else if (k->replica) to = ns_replica_audience(k->replica, id); /* the audience it holds */
    if (ns_reader_failed(in)) return ns_reader_status(in);
    fprintf(k->out, "  update #%" PRIu32 " for %s (id %zu bits", id, who(to), id_bits);
    if (k->sizes) fprintf(k->out, ", body %" PRIu32 " bits", size);
    fputs(")\n", k->out);
    ns__layout l;
    if (!held_layout(k, id, &l)) return skip(k, size, "the entity is not held");
    if (ladder && b->count == 0) return skip(k, size, "no baseline of the ladder is held");
    for (uint32_t i = 0; i < l.ncomp; i++)
        for (uint32_t j = 0; j < b->count; j++)
            if (!ns_replica_snap_at(k->replica, id, k->schema->components[l.comp[i]].desc->id, b->tick[j]))
                return skip(k, size, "a baseline is not held");
    size_t start = ns_reader_bits(in);
    ns_status st = body(k, &l, b, to, types, id);
    return st != NS_OK ? st : check_size(k, start, size);
}

/* Format 3: notes an id the packet names before its section; false when out of memory. */
static bool note_named(walk *k, uint32_t id)
{
    if (k->format < NS_PACKET_FORMAT_3) return true;
    if (k->nnamed == k->named_cap) {
        size_t cap = k->named_cap ? 2 * k->named_cap : 16;
        uint32_t *grown = realloc(k->named, cap * sizeof *grown);
        if (!grown) return false;
        k->named = grown, k->named_cap = cap;
    }
    k->named[k->nnamed++] = id;
    return true;
}

/* Whether ref's id stands in the section's ids by reference (format 3: unless named before). */
static bool eligible(const walk *k, uint32_t id)
{
    for (size_t i = 0; i < k->nnamed; i++)
        if (k->named[i] == id) return false;
    return true;
}

/* Reads ids of a group or section picked from ref (ids "all" or "mask"), up to the records;
 * *n becomes their count - 1, *mask_at where the mask starts. */
static ns_status ref_ids(walk *k, uint8_t ids, const ns__idlist *ref, uint32_t *n, size_t *mask_at)
{
    *mask_at = ns_reader_bits(k->in);
    if (ids == NS__IDS_GAPS) return *n >= (1u << 24) ? NS_ERR_CAPACITY : NS_OK;
    uint32_t picked = 0;
    for (uint32_t j = 0; j < ref->count; j++)
        if (eligible(k, ref->id[j])) picked += ids == NS__IDS_ALL || ns_read_bits(k->in, 1);
    if (ns_reader_failed(k->in)) return ns_reader_status(k->in);
    if (!picked) return NS_ERR_MALFORMED;
    *n = picked - 1;
    return NS_OK;
}

/* The n + 1 updates of a group or section: ids by gaps, or the ref's ids that `ids` picks. */
static ns_status run(walk *k, uint8_t ids, const ns__idlist *ref, size_t mask_at, uint32_t n, const ns_baselines *b,
                     uint64_t ladder, const uint64_t *types)
{
    uint32_t next = 0, j = 0, e = 0, id; /* by reference: j is the next id of ref, e its mask bit */
    size_t id_bits;
    for (uint32_t i = 0; i <= n; i++) {
        ns_status st = NS_OK;
        if (ids != NS__IDS_GAPS) { /* the i-th eligible id whose bit is set */
            for (;; j++) {
                if (!eligible(k, ref->id[j])) continue;
                if (ids == NS__IDS_ALL || mask_bit(k->in, mask_at, e++)) break;
            }
            id = ref->id[j++], id_bits = 0;
        } else {
            st = read_id(k, &next, &id, &id_bits);
        }
        /* format 3 on: later ids by reference skip it */
        if (st == NS_OK && k->format >= NS_PACKET_FORMAT_3 && !note_named(k, id)) st = NS_ERR_NOMEM;
        if (st == NS_OK) st = update(k, id, id_bits, b, ladder, types);
        if (st != NS_OK) return st;
    }
    return NS_OK;
}

/* Format 3's update section: its ladder, ids and presence, then its records. */
static ns_status section3(walk *k, const ns_model *dense, bool crowd)
{
    const ns_replica *r = k->replica;
    size_t at = ns_reader_bits(k->in);
    ns__section3_header h;
    ns_status st = ns__read_section3(k->in, k->schema, dense, r->lists,
                                     ns__idlist_slots(r->cfg.history_depth + r->cfg.reorder_window), k->tick,
                                     r->cfg.history_depth, crowd ? k->steady : NS__STEADY_NO, !k->told, r->format,
                                     crowd, &h);
    if (st == NS_OK && !k->told && h.ids == NS__IDS_GAPS) k->gaps = h.dense ? dense : NULL, k->told = true;
    if (st == NS_ERR_BASELINE && !h.ref)
        fprintf(k->out, "updates: refer to a packet the replica does not hold or to ticks out of history\n");
    size_t mask_at;
    if (st == NS_OK) st = ref_ids(k, h.ids, h.ref, &h.n, &mask_at);
    if (st != NS_OK) return st;
    fprintf(k->out, "%s: %" PRIu32 " record%s over the ladder", crowd ? "updates" : "other updates", h.n + 1, h.n ? "s" : "");
    for (uint64_t m = h.ladder; m; m &= m - 1u) fprintf(k->out, " %" PRIu32, k->tick - 1u - ns__lowest_bit(m));
    if (h.from_ref && !h.run) fprintf(k->out, " (packet %" PRIu32 "'s, %" PRIu32 " dropped)", h.ref->tick, h.drop);
    if (h.run) fprintf(k->out, " (a run from packet %" PRIu32 ")", h.ref->tick);
    if (h.by_rtt) fprintf(k->out, ", packet %" PRIu32 " by the round trip%s", h.ref->tick,
                          h.rtt_change > 0 ? " + 1" : h.rtt_change < 0 ? " - 1" : "");
    if (h.by_type) {
        fputs(h.toggled ? ", present by type (one toggled):" : ", present by type:", k->out);
        for (uint32_t c = 0; c < k->schema->component_count; c++)
            if (h.types >> c & 1u) fprintf(k->out, " %s", k->schema->components[c].desc->name);
    }
    if (h.ids != NS__IDS_GAPS) fprintf(k->out, ", ids %s of packet %" PRIu32, h.ids == NS__IDS_ALL ? "all those" : "some", h.ref->tick);
    fprintf(k->out, " (%zu bits)\n", ns_reader_bits(k->in) - at);
    ns_baselines none = {{NULL, NULL, NULL}, {0, 0, 0}, 0, k->tick};
    return run(k, h.ids, h.ref, mask_at, h.n, &none, h.ladder, h.by_type ? &h.types : NULL);
}

static ns_status records(walk *k, const uint32_t counts[3])
{
    ns_reader *in = k->in;
    uint32_t next = 0, id;
    size_t id_bits;
    for (uint32_t i = 0; i < counts[0]; i++) {
        ns_status st = read_id(k, &next, &id, &id_bits);
        if (st == NS_OK && !note_named(k, id)) st = NS_ERR_NOMEM;
        if (st != NS_OK) return st;
        bool destroyed = ns_read_bits(in, 1) != 0; /* 0: it only left this client's relevancy */
        if (ns_reader_failed(in)) return ns_reader_status(in);
        fprintf(k->out, "  despawn #%" PRIu32 " %s (%zu bits)\n", id, destroyed ? "destroyed" : "left",
                id_bits + 1);
    }
    next = 0;
    for (uint32_t i = 0; i < counts[1]; i++) {
        ns_status st = read_id(k, &next, &id, &id_bits);
        if (st == NS_OK && !note_named(k, id)) st = NS_ERR_NOMEM;
        if (st == NS_OK) st = spawn(k, id, id_bits);
        if (st != NS_OK) return st;
    }
    ns_model dense;
    if (ns__dense_model_init(&dense) != NS_OK) return NS_ERR_ARGUMENT;
    if (k->format >= NS_PACKET_FORMAT_3) {
        ns_baselines none = {{NULL, NULL, NULL}, {0, 0, 0}, 0, k->tick};
        if (counts[2]) fprintf(k->out, "updates without baselines: %" PRIu32 "\n", counts[2]);
        ns_status st = counts[2] ? run(k, NS__IDS_GAPS, NULL, 0, counts[2] - 1u, &none, 0, NULL) : NS_OK;
        for (int crowd = 1; st == NS_OK && crowd >= 0 && !(k->steady && !crowd); crowd--)
            if ((crowd && k->steady) || ns_read_bits(in, 1)) st = section3(k, &dense, crowd != 0);
        return st != NS_OK ? st : ns_reader_status(in);
    }
    for (uint32_t g = 0; g < counts[2]; g++) {
        size_t at = ns_reader_bits(in);
        ns_baselines b = {{NULL, NULL, NULL}, {0, 0, 0}, 0, k->tick};
        ns__group2_header h = {.ids = NS__IDS_GAPS};
        if (k->format >= NS_PACKET_FORMAT_2) {
            const ns_replica *r = k->replica;
            const uint32_t slots = ns__idlist_slots(r->cfg.history_depth + r->cfg.reorder_window);
            ns_status st = ns__read_group2(in, k->schema, &dense, r->lists, slots, k->tick, g == 0 && k->steady, k->gap0, &h);
            if (st == NS_ERR_BASELINE && (h.repeat || h.ids != NS__IDS_GAPS))
                fprintf(k->out, "group %" PRIu32 ": refers to packet %" PRIu32 ", which the replica does not hold\n", g + 1,
                        h.ticks[0]);
            if (st != NS_OK) return st;
            b.count = h.count;
            memcpy(b.tick, h.ticks, sizeof b.tick);
        } else {
            ns__read_ticks(in, k->tick, b.tick, &b.count, &dense);
            h.n = ns_read_packed_u32(in, NULL);
            h.by_type = ns_read_bits(in, 1) != 0;
            if (h.by_type) {
                if (k->schema->component_count > NS__MASK_TYPES) return NS_ERR_MALFORMED;
                h.types = ns__read_types(in, k->schema->component_count);
            }
            if (ns_reader_failed(in)) return ns_reader_status(in);
        }
        size_t mask_at; /* NS__IDS_MASK: the group's id mask */
        ns_status st = ref_ids(k, h.ids, h.ref, &h.n, &mask_at);
        if (st != NS_OK) return st;
        fprintf(k->out, "group %" PRIu32 ": %" PRIu32 " record%s against ", g + 1, h.n + 1, h.n ? "s" : "");
        if (b.count == 0) fputs("no baselines", k->out);
        for (uint32_t i = 0; i < b.count; i++) fprintf(k->out, "%s%" PRIu32, i ? ", " : "ticks ", b.tick[i]);
        if (h.by_type) {
            fputs(", present by type:", k->out);
            for (uint32_t c = 0; c < k->schema->component_count; c++)
                if (h.types >> c & 1u) fprintf(k->out, " %s", k->schema->components[c].desc->name);
        }
        if (h.repeat) fprintf(k->out, ", repeating packet %" PRIu32 "'s group", b.tick[0]);
        if (h.ids != NS__IDS_GAPS)
            fprintf(k->out, ", ids %s of packet %" PRIu32, h.ids == NS__IDS_ALL ? "all those" : "some", b.tick[0]);
        fprintf(k->out, " (%zu bits)\n", ns_reader_bits(in) - at);
        st = run(k, h.ids, h.ref, mask_at, h.n, &b, 0, h.by_type ? &h.types : NULL);
        if (st != NS_OK) return st;
    }
    return ns_reader_status(in);
}

ns_status ns_dump_repl_packet(FILE *out, const ns_schema *schema, const ns_replica *replica, ns_reader *in)
{
    if (!out || !schema || !in) return NS_ERR_ARGUMENT;
    ns__defaults defaults;
    if (ns__defaults_init(&defaults, schema) != NS_OK) return NS_ERR_NOMEM;
    ns_model dense;
    ns__dense_model_init(&dense);
    size_t start = ns_reader_bits(in);
    const uint32_t format = replica ? replica->format : NS_PACKET_FORMAT_1;
    const bool format2 = format >= NS_PACKET_FORMAT_2, format3 = format >= NS_PACKET_FORMAT_3;
    const unsigned tick_bits =
        format2 ? ns__short_tick_bits(replica->cfg.reorder_window, replica->cfg.short_tick_bits) : 16u;
    bool short_tick;
    uint32_t tick;
    const unsigned steady = ns__read_start(in, format, tick_bits, &short_tick, &tick);
    walk k = {.out = out, .schema = schema, .replica = replica, .in = in, .defaults = &defaults, .tick = tick,
              .format = format, .steady = (uint8_t)steady};
    uint32_t counts[3] = {0, 0, format3 ? 0u : 1u};
    if (format3) {
        const bool events = !k.steady && ns_read_bits(in, 1);
        k.told = events;
        k.gaps = events && ns_read_bits(in, 1) ? &dense : NULL;
        k.sizes = replica->cfg.entity_sizes;
        if (events) ns__read_counts3(in, &dense, format >= NS_PACKET_FORMAT_4, counts);
    } else if (k.steady) {
        k.gap0 = ns_read_packed_u32(in, &dense);
        k.sizes = replica->cfg.entity_sizes;
    } else {
        uint32_t flags = ns_read_bits(in, format2 ? NS__HDR2_BITS : NS__HDR_BITS);
        bool events = flags & (format2 ? NS__HDR2_EVENTS : NS__HDR_EVENTS);
        k.gaps = flags & (format2 ? NS__HDR2_DENSE : NS__HDR_DENSE) ? &dense : NULL;
        k.sizes = format2 ? replica->cfg.entity_sizes : (flags & NS__HDR_SIZES) != 0;
        if (events) counts[0] = ns_read_packed_u32(in, NULL), counts[1] = ns_read_packed_u32(in, NULL);
        counts[2] = format2 && ns_read_bits(in, 1) ? 1u : ns_read_packed_u32(in, NULL);
    }
    ns_status st = ns_reader_status(in);
    if (st == NS_OK && short_tick) /* extended from the newest tick the replica applied, as it does */
        k.tick = ns__resolve_tick(tick, tick_bits, replica ? ns_replica_newest(replica) : 0);
    if (st == NS_OK) {
        char label[16] = "";
        if (format2) snprintf(label, sizeof label, " (format %" PRIu32, format);
        fprintf(out, "packet%s%s tick %" PRIu32 "%s: %" PRIu32 " despawns, %" PRIu32 " spawns, %" PRIu32 "%s%s%s (header %zu bits)\n",
                label,
                !format2 ? "" : k.steady == NS__STEADY_NEW ? ", steady, new presence)" : k.steady ? ", steady)" : ")", k.tick,
                !short_tick ? "" : format2 ? " (short)" : " (16 bits)", counts[0], counts[1], counts[2],
                format3 ? " without baselines" : " groups", k.sizes ? ", sizes" : "", k.gaps ? ", dense ids" : "",
                ns_reader_bits(in) - start);
        st = records(&k, counts);
    }
    if (st != NS_OK) st = failed(&k, st);
    else fprintf(out, "end: %zu bits\n", ns_reader_bits(in) - start);
    ns__defaults_free(&defaults);
    free(k.named);
    return st;
}
