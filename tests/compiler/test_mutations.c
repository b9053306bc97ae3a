/* test_mutations.c — robustness: 10,000 random mutations (byte flips, token deletions,
 * duplications, swaps and insertions, truncations) of the valid example schemas go through the
 * compiler library. Nothing may crash or leak (the ASan/UBSan build checks), every error must
 * carry a location, and a mutant that still compiles must emit its JSON descriptor. */
#define _XOPEN_SOURCE 700
#include <dirent.h>

#include "nsc_test.h"

#define MUTATIONS 10000

typedef struct corpus {
    char  *name[32];
    char  *text[32];
    size_t len[32];
    size_t count;
} corpus;

static void load_corpus(corpus *c)
{
    memset(c, 0, sizeof *c);
    DIR *d = opendir(NS_EXAMPLES_DIR);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    char *names[32];
    size_t n = 0;
    while ((e = readdir(d)) && n < 32) {
        size_t l = strlen(e->d_name);
        if (l > 10 && strcmp(e->d_name + l - 10, ".netschema") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    /* Directory order is not stable: sort so the fixed seeds give the same mutants everywhere. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", NS_EXAMPLES_DIR, names[i]);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        rewind(f);
        c->text[i] = malloc((size_t)len + 1);
        ck_assert_uint_eq(fread(c->text[i], 1, (size_t)len, f), (size_t)len);
        fclose(f);
        c->len[i] = (size_t)len;
        /* Loaded under its real path so that imports (game → common) still resolve. */
        c->name[i] = strdup(path);
        free(names[i]);
    }
    c->count = n;
    ck_assert_uint_ge(n, 10);
}

/* Token boundaries: runs of identifier/number characters, or single other bytes. */
static size_t tokens(const char *s, size_t n, size_t *start, size_t *len, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < n && count < max;) {
        while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t')) i++;
        if (i >= n) break;
        size_t b = i;
        if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')
            while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
                i++;
        else
            i++;
        start[count] = b;
        len[count] = i - b;
        count++;
    }
    return count;
}

static const char *const inserts[] = {
    "{", "}", "(", ")", "<", ">", ";", ",", "@", "=", "-", ".", "\"", "/*", "///", "component", "struct",
    "enum", "import", "package", "const", "@quantize(", "@range(1,", "list<", "map<u8,", "fastarray<",
    "99999999999999999999999", "1e999", "string<0>", "\xff", "\xc3", "\t", "\n", "u16", "quat", "x",
    "@sync(owner)", "@composite", "{1,2}", "0x", "//", "import \"game.netschema\";",
};

/* Writes one mutant of text into out (capacity cap) and returns its length. */
static size_t mutate(ns_rng *rng, const char *text, size_t n, char *out, size_t cap)
{
    size_t start[4096], len[4096];
    size_t nt = tokens(text, n, start, len, 4096);
    unsigned kind = (unsigned)ns_rng_below(rng, 6);
    if (nt == 0 || kind == 0) { /* flip 1..4 bytes */
        size_t m = n < cap ? n : cap;
        memcpy(out, text, m);
        for (int k = 0, flips = 1 + (int)ns_rng_below(rng, 4); k < flips && m; k++)
            out[ns_rng_below(rng, m)] ^= (char)(1u << ns_rng_below(rng, 8));
        return m;
    }
    if (kind == 1) { /* truncate */
        size_t m = ns_rng_below(rng, n + 1);
        memcpy(out, text, m);
        return m;
    }
    size_t t = ns_rng_below(rng, nt), u = ns_rng_below(rng, nt);
    size_t o = 0;
    for (size_t i = 0; i < nt && o + 256 < cap; i++) {
        size_t gap_end = i + 1 < nt ? start[i + 1] : n;
        const char *tok = text + start[i];
        size_t tl = len[i];
        if (kind == 2 && i == t) tl = 0;                                              /* delete */
        if (kind == 4 && i == t) tok = text + start[u], tl = len[u];                  /* replace by another */
        if (kind == 5 && i == t) {                                                    /* insert */
            const char *ins = inserts[ns_rng_below(rng, sizeof inserts / sizeof inserts[0])];
            memcpy(out + o, ins, strlen(ins));
            o += strlen(ins);
            out[o++] = ' ';
        }
        memcpy(out + o, tok, tl);
        o += tl;
        if (kind == 3 && i == t) memcpy(out + o, tok, tl), o += tl;                  /* duplicate */
        memcpy(out + o, text + start[i] + len[i], gap_end - start[i] - len[i]);
        o += gap_end - start[i] - len[i];
    }
    return o;
}

typedef struct checked_sink {
    size_t diagnostics, unlocated;
} checked_sink;

static void located_sink(void *user, const nsc_diagnostic *d)
{
    checked_sink *s = user;
    s->diagnostics++;
    if (d->severity == NSC_ERROR && (!d->span.file || d->span.line == 0 || d->span.column == 0)) s->unlocated++;
    for (size_t i = 0; i < d->note_count; i++)
        if (!d->notes[i].span.file || d->notes[i].span.line == 0) s->unlocated++;
}

START_TEST(ten_thousand_mutants)
{
    corpus c;
    load_corpus(&c);
    size_t cap = 64 * 1024;
    char *buf = malloc(cap);
    ns_rng rng = {20261122};
    size_t rejected = 0, accepted = 0;
    for (int i = 0; i < MUTATIONS; i++) {
        size_t k = ns_rng_below(&rng, c.count);
        size_t n = mutate(&rng, c.text[k], c.len[k], buf, cap);
        checked_sink sink = {0, 0};
        nsc_options opt;
        nsc_options_init(&opt);
        opt.sink = located_sink;
        opt.sink_user = &sink;
        nsc_context *ctx = nsc_create(&opt);
        nsc_unit *u = nsc_load_buffer(ctx, c.name[k], buf, n);
        unsigned errors = nsc_check(ctx);
        nsc_finish_diagnostics(ctx);
        if (errors) {
            rejected++;
            ck_assert_msg(sink.diagnostics > 0, "mutant %d rejected without a diagnostic", i);
        } else {
            accepted++;
            FILE *f = tmpfile();
            ck_assert_int_eq(nsc_emit_json(ctx, u, f), 0);
            fclose(f);
        }
        ck_assert_msg(sink.unlocated == 0, "mutant %d of %s: a diagnostic without a location", i, c.name[k]);
        nsc_destroy(ctx);
    }
    /* Both outcomes must be well represented, or the mutator is not testing much. */
    ck_assert_uint_gt(rejected, MUTATIONS / 4);
    ck_assert_uint_gt(accepted, MUTATIONS / 50);
    free(buf);
    for (size_t i = 0; i < c.count; i++) free(c.text[i]), free(c.name[i]);
}
END_TEST

static Suite *mutation_suite(void)
{
    Suite *s = suite_create("mutations");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, ten_thousand_mutants);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(mutation_suite)
