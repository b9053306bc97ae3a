/* test_check.c — the check, layout and hash passes through the library: imports (search order,
 * read-once, cycles), name resolution, hashes and layout decisions. */
#define _XOPEN_SOURCE 700
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "layout.h"

#include "nsc_test.h"

/* A scratch directory with schema files, removed at the end of each test. */
typedef struct scratch {
    char dir[64];
} scratch;

static void scratch_init(scratch *s)
{
    strcpy(s->dir, "/tmp/nsc_test_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(s->dir));
}

static void scratch_write(scratch *s, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    char *slash = strrchr(path, '/');
    *slash = 0;
    mkdir(path, 0777);
    *slash = '/';
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void scratch_free(scratch *s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Compiles the file at dir/name with the given -I directories (relative to dir). */
static void compile_file(compiled *c, scratch *s, const char *name, const char *inc1, const char *inc2)
{
    static char incs[2][128];
    static const char *dirs[2];
    size_t n = 0;
    if (inc1) snprintf(incs[n], sizeof incs[n], "%s/%s", s->dir, inc1), dirs[n] = incs[n], n++;
    if (inc2) snprintf(incs[n], sizeof incs[n], "%s/%s", s->dir, inc2), dirs[n] = incs[n], n++;
    memset(c, 0, sizeof *c);
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = capture_sink;
    opt.sink_user = &c->diags;
    opt.import_dirs = dirs;
    opt.import_dir_count = n;
    c->ctx = nsc_create(&opt);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    c->unit = nsc_load_file(c->ctx, path);
    c->errors = nsc_check(c->ctx);
    nsc_finish_diagnostics(c->ctx);
}

START_TEST(import_search_order)
{
    scratch s;
    scratch_init(&s);
    scratch_write(&s, "main.netschema", "package m;\nimport \"t.netschema\";\ncomponent C { T x; }\n");
    scratch_write(&s, "t.netschema", "package near;\nstruct T { u8 a; }\n");
    scratch_write(&s, "inc1/t.netschema", "package first;\nstruct T { u16 a; }\n");
    scratch_write(&s, "inc2/t.netschema", "package second;\nstruct T { u32 a; }\n");
    compiled c;
    compile_file(&c, &s, "main.netschema", "inc1", "inc2");
    ck_assert_uint_eq(c.errors, 0);
    ck_assert_str_eq(c.ctx->units[1]->package, "near"); /* the importing file's directory first */
    test_free(&c);

    scratch_write(&s, "main.netschema", "package m;\nimport \"u.netschema\";\ncomponent C { T x; }\n");
    scratch_write(&s, "inc1/u.netschema", "package first;\nstruct T { u16 a; }\n");
    scratch_write(&s, "inc2/u.netschema", "package second;\nstruct T { u32 a; }\n");
    compile_file(&c, &s, "main.netschema", "inc2", "inc1");
    ck_assert_uint_eq(c.errors, 0);
    ck_assert_str_eq(c.ctx->units[1]->package, "second"); /* then -I directories in order */
    test_free(&c);
    scratch_free(&s);
}
END_TEST

START_TEST(a_file_imported_twice_is_read_once)
{
    scratch s;
    scratch_init(&s);
    scratch_write(&s, "a.netschema", "package a;\nimport \"b.netschema\";\nimport \"c.netschema\";\n"
                                     "component A { B b; C c; D d; }\n");
    scratch_write(&s, "b.netschema", "package b;\nimport \"d.netschema\";\nstruct B { D d; }\n");
    scratch_write(&s, "c.netschema", "package c;\nimport \"./d.netschema\";\nstruct C { D d; }\n");
    scratch_write(&s, "d.netschema", "package d;\nstruct D { u8 x; }\n");
    compiled c;
    compile_file(&c, &s, "a.netschema", NULL, NULL);
    /* D is visible in a only through its own imports: it is not imported there directly. */
    ck_assert_uint_eq(c.errors, 1);
    char want[256];
    snprintf(want, sizeof want, "unknown type 'D': it is declared in '%s/d.netschema', which this schema does not import "
             "directly", s.dir);
    ck_assert_str_eq(c.diags.items[0].message, want);
    ck_assert_uint_eq(nsc_file_count(c.ctx), 4);
    test_free(&c);
    scratch_free(&s);
}
END_TEST

START_TEST(cycles_print_the_chain)
{
    scratch s;
    scratch_init(&s);
    scratch_write(&s, "x.netschema", "package x;\nimport \"y.netschema\";\n");
    scratch_write(&s, "y.netschema", "package y;\nimport \"z.netschema\";\n");
    scratch_write(&s, "z.netschema", "package z;\nimport \"x.netschema\";\n");
    compiled c;
    compile_file(&c, &s, "x.netschema", NULL, NULL);
    const captured *d = find_code(&c, "E-import-cycle");
    ck_assert_ptr_nonnull(d);
    char want[512];
    snprintf(want, sizeof want, "import cycle: %s/x.netschema -> %s/y.netschema -> %s/z.netschema -> %s/x.netschema",
             s.dir, s.dir, s.dir, s.dir);
    ck_assert_str_eq(d->message, want);
    ck_assert_uint_eq(d->notes, 2);
    test_free(&c);

    scratch_write(&s, "self.netschema", "package me;\nimport \"self.netschema\";\n");
    compile_file(&c, &s, "self.netschema", NULL, NULL);
    d = find_code(&c, "E-import-cycle");
    ck_assert_ptr_nonnull(d);
    ck_assert(strstr(d->message, "imports itself") != NULL);
    test_free(&c);
    scratch_free(&s);
}
END_TEST

START_TEST(qualified_names_ambiguity_and_unused_imports)
{
    scratch s;
    scratch_init(&s);
    scratch_write(&s, "p1.netschema", "package one;\nstruct V { u8 a; }\nconst K = 3;\n");
    scratch_write(&s, "p2.netschema", "package two;\nstruct V { u16 a; }\n");
    scratch_write(&s, "p3.netschema", "package three;\nstruct W { u16 a; }\n");
    scratch_write(&s, "m.netschema", "package m;\nimport \"p1.netschema\";\nimport \"p2.netschema\";\n"
                                     "import \"p3.netschema\";\n"
                                     "component A { V v; one.V v1; two.V v2; string<one.K> s; }\n");
    compiled c;
    compile_file(&c, &s, "m.netschema", NULL, NULL);
    ck_assert_uint_eq(c.errors, 1);
    const captured *d = find_code(&c, "E-name-ambiguous");
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->notes, 2);
    const captured *w = find_code(&c, "W-import-unused");
    ck_assert_ptr_nonnull(w);
    ck_assert_uint_eq(w->line, 4);
    test_free(&c);
    scratch_free(&s);
}
END_TEST

START_TEST(type_ids_are_unique_across_imports)
{
    scratch s;
    scratch_init(&s);
    scratch_write(&s, "base.netschema", "package base;\ncomponent A { u8 x; }\ncomponent B @id(2) { u8 x; }\n");
    scratch_write(&s, "top.netschema", "package top;\nimport \"base.netschema\";\n"
                                       "component C { A a; }\ncomponent D { u8 x; }\ninput E @id(7) { u8 x; }\n");
    scratch_write(&s, "bad.netschema", "package bad;\nimport \"base.netschema\";\ncomponent F @id(2) { u8 x; }\n");
    compiled c;
    compile_file(&c, &s, "top.netschema", NULL, NULL);
    /* A (0) and B (2) are base's; top numbers its own around them. */
    ck_assert_uint_eq(c.errors, 1); /* C holds a component: only the type error */
    test_free(&c);
    scratch_write(&s, "top.netschema", "package top;\nimport \"base.netschema\";\n"
                                       "component C { u8 y; }\ncomponent D { u8 x; }\ninput E @id(7) { u8 x; }\n"
                                       "component G { u8 z; A_ok q; }\nstruct A_ok { u8 w; }\n");
    compile_file(&c, &s, "top.netschema", NULL, NULL);
    ck_assert_uint_eq(c.errors, 0);
    uint32_t ids[8];
    for (size_t i = 0, k = 0; i < c.ctx->nunits; i++)
        for (size_t j = 0; j < c.ctx->units[i]->ndecls; j++) {
            const nsc_decl *d = c.ctx->units[i]->decls[j];
            if (d->kind == NSC_D_COMPONENT || d->kind == NSC_D_INPUT) ids[k++] = d->id;
        }
    /* top: C, D, E, G; then base: A, B */
    ck_assert_uint_eq(ids[0], 1);
    ck_assert_uint_eq(ids[1], 3);
    ck_assert_uint_eq(ids[2], 7);
    ck_assert_uint_eq(ids[3], 4);
    ck_assert_uint_eq(ids[4], 0);
    ck_assert_uint_eq(ids[5], 2);
    test_free(&c);
    compile_file(&c, &s, "bad.netschema", NULL, NULL);
    const captured *d = find_code(&c, "E-id-dup");
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->message, "type id 2 is used twice (once in an imported schema)");
    test_free(&c);
    scratch_free(&s);
}
END_TEST

static uint64_t type_hash(const char *src, const char *type)
{
    compiled c;
    test_compile(&c, src);
    ck_assert_uint_eq(c.errors, 0);
    uint64_t h = 0;
    for (size_t i = 0; i < c.unit->ndecls; i++)
        if (c.unit->decls[i]->name.text && strcmp(c.unit->decls[i]->name.text, type) == 0) h = c.unit->decls[i]->hash;
    test_free(&c);
    return h;
}

/* A fixed array's hash changes with its length, its element type and @composite (each changes
 * the wire), and not with what the wire does not carry; a plain field is not a one-element array. */
START_TEST(array_hashes_follow_the_wire)
{
    const char *base = "package p;\ncomponent C { u16 a[4] @range(0, 999); u8 y; }\n";
    uint64_t h = type_hash(base, "C");
    ck_assert(h != 0);
    ck_assert(h == type_hash("package p;\nconst N = 4;\ncomponent C {\n  u16 a[N] @range(0, 999) @notify; // hi\n  u8 y;\n}\n",
                             "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u16 a[5] @range(0, 999); u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u16 a[3] @range(0, 999); u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u32 a[4] @range(0, 999); u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u16 a[4] @range(0, 998); u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u16 a[4] @range(0, 999) @composite; u8 y; }\n", "C"));
    ck_assert(type_hash("package p;\ncomponent C { u8 a[1]; }\n", "C") != type_hash("package p;\ncomponent C { u8 a; }\n", "C"));
    /* Arrays inside a struct reach the hash of the component that holds it. */
    ck_assert(type_hash("package p;\nstruct S { u8 v[2]; }\ncomponent C { S s; }\n", "C") !=
              type_hash("package p;\nstruct S { u8 v[3]; }\ncomponent C { S s; }\n", "C"));
}
END_TEST

/* An extern struct's field hashes its name and @max_bits (the user's bits are all the wire
 * knows); renaming it or changing N changes the hash, its doc comment and a blank line do not. */
START_TEST(extern_hashes_follow_the_wire)
{
    const char *base = "package p;\nextern struct B @max_bits(24);\ncomponent C { B b; u8 y; }\n";
    uint64_t h = type_hash(base, "C");
    ck_assert(h != 0);
    ck_assert(h == type_hash("package p;\n\n/// doc\nextern struct B @max_bits(24);\ncomponent C { B b; u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\nextern struct B @max_bits(25);\ncomponent C { B b; u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\nextern struct D @max_bits(24);\ncomponent C { D b; u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\nstruct B { u8 v; }\ncomponent C { B b; u8 y; }\n", "C"));
    /* Through a struct too. */
    ck_assert(type_hash("package p;\nextern struct B @max_bits(8);\nstruct S { B b; }\ncomponent C { S s; }\n", "C") !=
              type_hash("package p;\nextern struct B @max_bits(9);\nstruct S { B b; }\ncomponent C { S s; }\n", "C"));
}
END_TEST

/* A union field hashes its members' names, order and structs (the tag and the member records
 * are the wire); a doc comment does not, and a union no record holds leaves the schema hash alone. */
START_TEST(union_hashes_follow_the_wire)
{
    const char *base = "package p;\nstruct A { u8 a; }\nstruct B { u16 b; }\nunion U { A a; B b; }\n"
                       "component C { U u; u8 y; }\n";
    uint64_t h = type_hash(base, "C");
    ck_assert(h != 0);
    ck_assert(h == type_hash("package p;\nstruct A { u8 a; }\nstruct B { u16 b; }\n/// doc\nunion U {\n  A a; // x\n  B b;\n}\n"
                             "component C { U u; u8 y; }\n", "C"));
    /* Member order is the tag; a member more widens it; a member's struct is its wire. */
    ck_assert(h != type_hash("package p;\nstruct A { u8 a; }\nstruct B { u16 b; }\nunion U { B b; A a; }\n"
                             "component C { U u; u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\nstruct A { u8 a; }\nstruct B { u16 b; }\nunion U { A a; B b; A c; }\n"
                             "component C { U u; u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\nstruct A { u8 a; }\nstruct B { u32 b; }\nunion U { A a; B b; }\n"
                             "component C { U u; u8 y; }\n", "C"));
    /* Not a struct of the same members: a union codes a tag. */
    ck_assert(h != type_hash("package p;\nstruct A { u8 a; }\nstruct B { u16 b; }\nstruct U { A a; B b; }\n"
                             "component C { U u; u8 y; }\n", "C"));
    /* A union nobody holds is not on the wire: the schema hash stays. */
    compiled x, y;
    test_compile(&x, "package p;\ncomponent C { u8 y; }\n");
    test_compile(&y, "package p;\nstruct A { u8 a; }\nunion U { A a; }\ncomponent C { u8 y; }\n");
    ck_assert_uint_eq(x.errors + y.errors, 0);
    uint64_t hx = x.unit->hash, hy = y.unit->hash;
    test_free(&x);
    test_free(&y);
    /* Struct A itself is a type of the schema (hashed into it); the unused union adds nothing. */
    compiled z;
    test_compile(&z, "package p;\nstruct A { u8 a; }\ncomponent C { u8 y; }\n");
    ck_assert_uint_eq(z.errors, 0);
    ck_assert_uint_eq(hy, z.unit->hash);
    ck_assert(hx != hy);
    test_free(&z);
}
END_TEST

START_TEST(hashes_follow_the_wire)
{
    const char *base = "package p;\ncomponent C { f32 x @quantize(100); u8 y; }\n";
    uint64_t h = type_hash(base, "C");
    ck_assert(h != 0);
    ck_assert(h == type_hash(base, "C"));
    /* Not on the wire: smoothing, hooks, doc comments, comments, layout of the text. */
    ck_assert(h == type_hash("package p;\n/// doc\ncomponent C {\n  f32 x @quantize(100) @smooth(interpolate) @notify;\n"
                             "  u8 y; // hi\n}\n", "C"));
    /* On the wire: scale, type, order, names, ids. */
    ck_assert(h != type_hash("package p;\ncomponent C { f32 x @quantize(1000); u8 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { f32 x @quantize(100); u16 y; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { u8 y; f32 x @quantize(100); }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C { f32 x @quantize(100); u8 z; }\n", "C"));
    ck_assert(h != type_hash("package p;\ncomponent C @id(9) { f32 x @quantize(100); u8 y; }\n", "C"));
    /* Defaults are on the wire (no-baseline writes are coded against them); restating the
     * component's own @sync on a field is not. */
    ck_assert(h != type_hash("package p;\ncomponent C { f32 x = 1 @quantize(100); u8 y; }\n", "C"));
    ck_assert(h == type_hash("package p;\ncomponent C { f32 x @quantize(100); u8 y @sync(all); }\n", "C"));
    /* A struct's change reaches every type that uses it. */
    ck_assert(type_hash("package p;\nstruct S { u8 a; }\ncomponent C { S s; }\n", "C") !=
              type_hash("package p;\nstruct S { u8 a @raw; }\ncomponent C { S s; }\n", "C"));
    /* @send_rate and @unreliable are spelled only when present: each changes the hash, and a
     * schema without them keeps the hash it had before they existed. */
    ck_assert(h != type_hash("package p;\ncomponent C @send_rate(20) { f32 x @quantize(100); u8 y; }\n", "C"));
    ck_assert(type_hash("package p;\ncomponent C @send_rate(20) { u8 y; }\n", "C") !=
              type_hash("package p;\ncomponent C @send_rate(30) { u8 y; }\n", "C"));
    uint64_t r = type_hash("package p;\nrpc R { u8 y; }\n", "R");
    ck_assert(r != type_hash("package p;\nrpc R @unreliable { u8 y; }\n", "R"));
    /* FNV-1a of "netschema-wire-1 model=default rpc R id=0{y:u8 sync=3;}", as before. */
    ck_assert(r == UINT64_C(0x2d9a427d27ad8bc9));
    /* @model(entropy) puts its model word in the canonical text; @model(packed) is the default. */
    uint64_t m = type_hash("package p;\ncomponent C { u8 y; }\n", "C");
    ck_assert(m == type_hash("package p;\ncomponent C @model(packed) { u8 y; }\n", "C"));
    /* FNV-1a of "netschema-wire-1 model=entropy component C id=0 sync=3{y:u8 sync=3;}". */
    ck_assert(type_hash("package p;\ncomponent C @model(entropy) { u8 y; }\n", "C") == UINT64_C(0xbbf5315f8fab6d63));
    /* @authority(owner) is spelled only when present: @authority(server), the default, keeps the
     * hash of "netschema-wire-1 model=default component C id=0 sync=3{y:u8 sync=3;}". */
    ck_assert(m == UINT64_C(0x8fc9ce771ecb6567));
    ck_assert(m == type_hash("package p;\ncomponent C { u8 y @authority(server); }\n", "C"));
    /* FNV-1a of "... component C id=0 sync=3{y:u8 sync=3 authority=owner;}"; clamp differs again. */
    ck_assert(type_hash("package p;\ncomponent C { u8 y @authority(owner); }\n", "C") == UINT64_C(0xfac0754c862601a0));
    ck_assert(type_hash("package p;\ncomponent C { u8 y @range(0, 9) @authority(owner); }\n", "C") !=
              type_hash("package p;\ncomponent C { u8 y @range(0, 9) @authority(owner, clamp); }\n", "C"));
    /* @codec chooses generated code, not bits: no hash sees it, a struct's nor its holder's. */
    ck_assert(m == type_hash("package p;\ncomponent C @codec(table) { u8 y; }\n", "C"));
    ck_assert(m == type_hash("package p;\ncomponent C @codec(inline) { u8 y; }\n", "C"));
    ck_assert(type_hash("package p;\nstruct S { u8 a; }\ncomponent C { S s; }\n", "C") ==
              type_hash("package p;\nstruct S @codec(table) { u8 a; }\ncomponent C @codec(inline) { S s; }\n", "C"));
}
END_TEST

static const nsc_layout *layout_of(const compiled *c, const char *type)
{
    for (size_t i = 0; i < c->unit->ndecls; i++)
        if (c->unit->decls[i]->name.text && strcmp(c->unit->decls[i]->name.text, type) == 0) return c->unit->decls[i]->layout;
    return NULL;
}

/* @sync(predicted | interpolated | custom): each spelled apart in the hash (the four older words
 * keep theirs: hashes_follow_the_wire pins them), combined with the component's owner axis, and
 * counted per receiver (the 8 ns_audience values) in the layout. */
START_TEST(sync_conditions)
{
    static const char *const words[] = {"all", "owner", "others", "none", "predicted", "interpolated", "custom"};
    uint64_t h[7];
    for (int i = 0; i < 7; i++) {
        char src[128];
        snprintf(src, sizeof src, "package p;\ncomponent C { u8 y @sync(%s); }\n", words[i]);
        h[i] = type_hash(src, "C");
        for (int j = 0; j < i; j++) ck_assert_msg(h[i] != h[j], "%s and %s hash alike", words[i], words[j]);
    }
    ck_assert(h[0] == UINT64_C(0x8fc9ce771ecb6567)); /* @sync(all) restated: the hash of a plain field */
    compiled c;
    test_compile(&c, "package p;\n"
                     "component A { u8 a @sync(predicted); u8 b @sync(interpolated); u8 c @sync(custom); u8 d;\n"
                     "  u8 e @initial @sync(predicted); }\n"
                     "component O @sync(owner) { u8 a @sync(predicted); u8 b; }\n"
                     "component P @sync(predicted) { u8 a @sync(others); u8 b @sync(custom); }\n");
    ck_assert_uint_eq(c.errors, 0);
    const nsc_layout *a = layout_of(&c, "A"), *o = layout_of(&c, "O"), *pr = layout_of(&c, "P");
    ck_assert_int_eq(a->slots[0].sync, NSC_SYNC_PREDICTED);
    ck_assert_int_eq(o->slots[0].sync, NSC_SYNC_OWNER | NSC_IF_PREDICTED);
    ck_assert_int_eq(pr->slots[0].sync, NSC_SYNC_OTHERS | NSC_IF_PREDICTED);
    ck_assert_int_eq(pr->slots[1].sync, NSC_SYNC_ALL | NSC_IF_PREDICTED | NSC_IF_CUSTOM);
    /* [audience][delta, full]: observer 0, owner 1, predicting 2, custom 4. */
    static const unsigned want_a[8][2] = {{2, 2}, {2, 2}, {2, 3}, {2, 3}, {3, 3}, {3, 3}, {3, 4}, {3, 4}};
    static const unsigned want_o[8] = {0, 1, 0, 2, 0, 1, 0, 2};
    static const unsigned want_p[8] = {0, 0, 1, 0, 0, 0, 2, 1};
    for (unsigned to = 0; to < 8; to++) {
        ck_assert_uint_eq(a->mask_slots[to][NSC_WRITE_DELTA], want_a[to][0]);
        ck_assert_uint_eq(a->mask_slots[to][NSC_WRITE_FULL], want_a[to][1]);
        ck_assert_uint_eq(o->mask_slots[to][NSC_WRITE_DELTA], want_o[to]);
        ck_assert_uint_eq(pr->mask_slots[to][NSC_WRITE_DELTA], want_p[to]);
    }
    ck_assert_str_eq(nsc_sync_name(o->slots[0].sync), "owner predicted");
    ck_assert_str_eq(nsc_sync_name(NSC_SYNC_INTERPOLATED), "interpolated");
    test_free(&c);
}
END_TEST

START_TEST(layout_decisions)
{
    compiled c;
    test_compile(&c, "package p;\n"
                     "struct Pair { i16 a; u16 b; }\n"
                     "component H @sync(all) {\n"
                     "  i32 hp = 100 @range(0, 1000);\n"
                     "  bool alive;\n"
                     "  u16 ammo @sync(owner);\n"
                     "  vec3 pos @quantize(1000);\n"
                     "  Pair flat;\n"
                     "  Pair whole @composite;\n"
                     "  u8 code @range(0, 15) @raw;\n"
                     "  string<8> name @initial;\n"
                     "}\n");
    ck_assert_uint_eq(c.errors, 0);
    const nsc_layout *l = layout_of(&c, "H");
    ck_assert_uint_eq(l->nslots, 9); /* flat expands to flat.a and flat.b */
    ck_assert_str_eq(l->slots[4].path, "flat.a");
    ck_assert_str_eq(l->slots[5].path, "flat.b");
    ck_assert_int_eq(l->slots[0].enc, NSC_ENC_INT);
    ck_assert_uint_eq(l->slots[0].max_bits, 17);        /* |Δ| <= 1000 → zigzag <= 2000 → 17 bits */
    ck_assert(l->slots[0].predicted);
    ck_assert_int_eq(l->slots[1].enc, NSC_ENC_BOOL);
    ck_assert_uint_eq(l->slots[1].max_bits, 0);         /* a changed bool is known from its mask bit */
    ck_assert_int_eq(l->slots[3].enc, NSC_ENC_VEC_Q);
    ck_assert_uint_eq(l->slots[3].max_bits, 3 * 38);
    ck_assert_int_eq(l->slots[6].enc, NSC_ENC_STRUCT);
    ck_assert_uint_eq(l->slots[6].max_bits, 24 + 24);
    ck_assert_int_eq(l->slots[7].enc, NSC_ENC_RAW);
    ck_assert_uint_eq(l->slots[7].raw_bits, 4);
    /* The observer never receives ammo; only a first (full) state carries name. */
    ck_assert_uint_eq(l->mask_slots[NSC_AUD_OBSERVER][NSC_WRITE_DELTA], 7);
    ck_assert_uint_eq(l->mask_slots[NSC_AUD_OWNER][NSC_WRITE_DELTA], 8);
    ck_assert_uint_eq(l->mask_slots[NSC_AUD_OWNER][NSC_WRITE_FULL], 9);
    ck_assert_uint_eq(l->max_bits[NSC_AUD_OWNER][NSC_WRITE_FULL],
                      10 + 17 + 0 + 24 + 114 + 24 + 24 + 48 + 4 + l->slots[8].max_bits);
    test_free(&c);
}
END_TEST

START_TEST(json_is_deterministic)
{
    const char *src = "package p;\nenum E { a, b }\ncomponent C { E e = b; vec2 v = {1, 2} @quantize(10); }\n";
    char *out[2];
    for (int k = 0; k < 2; k++) {
        compiled c;
        test_compile(&c, src);
        FILE *f = tmpfile();
        ck_assert_int_eq(nsc_emit_json(c.ctx, c.unit, f), 0);
        long n = ftell(f);
        rewind(f);
        out[k] = calloc(1, (size_t)n + 1);
        ck_assert_uint_eq(fread(out[k], 1, (size_t)n, f), (size_t)n);
        fclose(f);
        test_free(&c);
    }
    ck_assert_str_eq(out[0], out[1]);
    ck_assert_ptr_nonnull(strstr(out[0], "\"default\": [1.0, 2.0]"));
    ck_assert_ptr_nonnull(strstr(out[0], "\"default\": \"b\""));
    free(out[0]);
    free(out[1]);
}
END_TEST

START_TEST(c_name_collisions)
{
    ck_assert_diag("package p;\ncomponent Health { i32 hp; }\nstruct Health_set_hp { u8 x; }\n", "E-name-collision", 3, 8);
    ck_assert_diag("package p;\nstruct Foo { u8 x; }\nstruct FOO { u8 x; }\n", "E-name-collision", 3, 8);
    ck_assert_diag("package p;\nenum A { b }\nstruct A_b { u8 x; }\n", "E-name-collision", 3, 8);
}
END_TEST

static Suite *check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("semantics");
    tcase_add_test(tc, import_search_order);
    tcase_add_test(tc, a_file_imported_twice_is_read_once);
    tcase_add_test(tc, cycles_print_the_chain);
    tcase_add_test(tc, qualified_names_ambiguity_and_unused_imports);
    tcase_add_test(tc, hashes_follow_the_wire);
    tcase_add_test(tc, array_hashes_follow_the_wire);
    tcase_add_test(tc, extern_hashes_follow_the_wire);
    tcase_add_test(tc, union_hashes_follow_the_wire);
    tcase_add_test(tc, sync_conditions);
    tcase_add_test(tc, type_ids_are_unique_across_imports);
    tcase_add_test(tc, layout_decisions);
    tcase_add_test(tc, json_is_deterministic);
    tcase_add_test(tc, c_name_collisions);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(check_suite)
