/* profile.c — the per-field bandwidth profile (netschema/profile.h): records counted slot by
 * slot with the dump walker (ns_walk_record), and the table and JSON reports. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/dump.h>
#include <netschema/profile.h>

void ns_profile_init(ns_profile *p)
{
    memset(p, 0, sizeof *p);
}

void ns_profile_free(ns_profile *p)
{
    for (uint32_t i = 0; i < p->count; i++) {
        free(p->types[i].slots);
        free(p->types[i].pending);
    }
    free(p->types);
    memset(p, 0, sizeof *p);
}

static ns_profile_type *type_of(ns_profile *p, const ns_type_desc *t)
{
    for (uint32_t i = 0; i < p->count; i++)
        if (p->types[i].desc == t) return &p->types[i];
    if (p->count == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 8;
        ns_profile_type *types = (ns_profile_type *)realloc(p->types, cap * sizeof *types);
        if (!types) return NULL;
        p->types = types;
        p->cap = cap;
    }
    ns_profile_type *pt = &p->types[p->count];
    memset(pt, 0, sizeof *pt);
    pt->desc = t;
    pt->slots = (ns_profile_slot *)calloc(t->field_count + 1u, sizeof *pt->slots);
    pt->pending = (ns_profile_slot *)calloc(t->field_count + 1u, sizeof *pt->pending);
    if (!pt->slots || !pt->pending) {
        free(pt->slots);
        free(pt->pending);
        return NULL;
    }
    p->count++;
    return pt;
}

/* Counts into pending[] (pending[field_count] holds the any bit) until the record proves whole. */
static void tally(void *ctx, const ns_type_desc *t, const ns_slot_info *s)
{
    ns_profile_slot *pending = (ns_profile_slot *)ctx;
    ns_profile_slot *c = &pending[s->slot == NS_SLOT_ANY ? t->field_count : s->slot];
    c->writes += s->sent;
    c->changed += s->changed;
    c->bits += s->bits;
}

ns_status ns_profile_add(ns_profile *p, const ns_type_desc *t, const void *buf, size_t from_bit, size_t to_bit,
                         const ns_baselines *base, ns_audience to)
{
    if (!p || !t || to_bit < from_bit) return NS_ERR_ARGUMENT;
    ns_profile_type *pt = type_of(p, t);
    if (!pt) {
        p->failed++;
        return NS_ERR_NOMEM;
    }
    memset(pt->pending, 0, (t->field_count + 1u) * sizeof *pt->pending);
    ns_reader r;
    size_t first = from_bit / 8;
    ns_reader_init(&r, (const uint8_t *)buf + first, (to_bit + 7) / 8 - first);
    if (from_bit % 8) ns_read_bits(&r, (unsigned)(from_bit % 8));
    ns_status st = ns_walk_record(&r, t, base, to, NULL, tally, pt->pending);
    uint64_t sum = 0;
    for (uint32_t i = 0; i <= t->field_count; i++) sum += pt->pending[i].bits;
    if (st == NS_OK && sum != to_bit - from_bit) st = NS_ERR_MALFORMED; /* bits nobody accounts for */
    if (st != NS_OK) {
        p->failed++;
        return st;
    }
    for (uint32_t i = 0; i < t->field_count; i++) {
        pt->slots[i].writes += pt->pending[i].writes;
        pt->slots[i].changed += pt->pending[i].changed;
        pt->slots[i].bits += pt->pending[i].bits;
    }
    pt->any_bits += pt->pending[t->field_count].bits;
    pt->writes++;
    pt->bits += sum;
    p->writes++;
    p->bits += sum;
    return NS_OK;
}

#ifdef NS_PROFILE
void ns_profile_write(ns_profile *p, const ns_type_desc *t, const ns_writer *before, const ns_writer *after,
                      const ns_baselines *base, ns_audience to, const void *ref)
{
    if (!p) return;
    if (after->status != NS_OK) {
        p->failed++;
        return;
    }
    /* The last bits are still in the accumulator: a copy's flush stores them past the bytes in
     * use, where the writer may scribble anyway (netschema/bits.h). */
    ns_writer w = *after;
    ns_writer_flush(&w);
    ns_baselines prev = {{ref, NULL, NULL}, {0, 0, 0}, ref ? 1u : 0u, 0};
    if (t->kind != NS_KIND_COMPONENT) base = &prev;
    ns_profile_add(p, t, after->buf, ns_writer_bits(before), ns_writer_bits(after), base, to);
}
#endif

/* ---- reports -------------------------------------------------------------------------------- */

/* One row of the report: a slot, or a type's any bits (slot NS_SLOT_ANY). */
typedef struct row {
    const ns_profile_type *type;
    uint32_t slot;
    uint64_t writes, changed, bits;
} row;

static int row_order(const void *a, const void *b)
{
    const row *x = (const row *)a, *y = (const row *)b;
    if (x->bits != y->bits) return x->bits < y->bits ? 1 : -1;
    int c = strcmp(x->type->desc->c_name, y->type->desc->c_name);
    if (c) return c;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Every row, sorted by bits (then type and slot, so the order is stable); *n gets their number. */
static row *rows(const ns_profile *p, size_t *n)
{
    size_t total = 0;
    for (uint32_t i = 0; i < p->count; i++) total += p->types[i].desc->field_count + 1u;
    row *out = (row *)calloc(total ? total : 1, sizeof *out);
    *n = 0;
    if (!out) return NULL;
    for (uint32_t i = 0; i < p->count; i++) {
        const ns_profile_type *pt = &p->types[i];
        if (pt->any_bits) out[(*n)++] = (row){pt, NS_SLOT_ANY, pt->writes, 0, pt->any_bits};
        for (uint32_t s = 0; s < pt->desc->field_count; s++) {
            const ns_profile_slot *c = &pt->slots[s];
            out[(*n)++] = (row){pt, s, c->writes, c->changed, c->bits};
        }
    }
    qsort(out, *n, sizeof *out, row_order);
    return out;
}

static const char *slot_name(const row *r)
{
    return r->slot == NS_SLOT_ANY ? "(any)" : r->type->desc->fields[r->slot].path;
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void ns_profile_report(const ns_profile *p, FILE *out)
{
    size_t n;
    row *r = rows(p, &n);
    fprintf(out, "%12s %7s %10s %10s  %s\n", "bits", "share", "writes", "changed", "field");
    for (size_t i = 0; r && i < n; i++)
        fprintf(out, "%12" PRIu64 " %6.2f%% %10" PRIu64 " %10" PRIu64 "  %s.%s\n", r[i].bits, share(r[i].bits, p->bits),
                r[i].writes, r[i].changed, r[i].type->desc->name, slot_name(&r[i]));
    fprintf(out, "%12" PRIu64 " %6.2f%% %10" PRIu64 " %10s  total (%" PRIu64 " bytes)\n", p->bits, p->bits ? 100.0 : 0.0,
            p->writes, "", (p->bits + 7) / 8);
    if (p->failed) fprintf(out, "%" PRIu64 " writes not counted (overflowed writer or no memory)\n", p->failed);
    free(r);
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

void ns_profile_json(const ns_profile *p, FILE *out)
{
    size_t n;
    row *r = rows(p, &n);
    fprintf(out, "{\"bits\": %" PRIu64 ", \"writes\": %" PRIu64 ", \"failed\": %" PRIu64 ", \"rows\": [", p->bits,
            p->writes, p->failed);
    for (size_t i = 0; r && i < n; i++) {
        fputs(i ? ",\n  {\"package\": " : "\n  {\"package\": ", out);
        json_string(out, r[i].type->desc->package);
        fputs(", \"type\": ", out);
        json_string(out, r[i].type->desc->name);
        fputs(", \"field\": ", out);
        json_string(out, slot_name(&r[i]));
        fprintf(out, ", \"writes\": %" PRIu64 ", \"changed\": %" PRIu64 ", \"bits\": %" PRIu64 ", \"share\": %.4f}",
                r[i].writes, r[i].changed, r[i].bits, p->bits ? (double)r[i].bits / (double)p->bits : 0.0);
    }
    fputs(n ? "\n]}\n" : "]}\n", out);
    free(r);
}
