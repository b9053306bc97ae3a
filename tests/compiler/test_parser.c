/* test_parser.c — the bison grammar through the library: the tree it builds, syntax error
 * messages in words, and recovery that reports several errors in one run. */
#include "context.h"
#include "types.h"

#include "nsc_test.h"

static nsc_decl *decl_named(const compiled *c, const char *name)
{
    for (size_t i = 0; i < c->unit->ndecls; i++)
        if (c->unit->decls[i]->name.text && strcmp(c->unit->decls[i]->name.text, name) == 0) return c->unit->decls[i];
    return NULL;
}

START_TEST(builds_the_tree)
{
    compiled c;
    test_compile(&c,
                 "/// the game\n"
                 "package game.core;\n"
                 "const N = 2 * (3 + 1);\n"
                 "enum Team : u16 { red, /// the blue ones\n blue = 5, }\n"
                 "struct P { i32 x; i32 y = -3; }\n"
                 "/// hp and more\n"
                 "component Health @sync(owner) @id(7) {\n"
                 "  /// current\n"
                 "  i32 hp = 100 @range(0, N * 100) @notify;\n"
                 "  list<P, N> ps;\n"
                 "  map<u16, string<8>, 4> names;\n"
                 "  vec3 v = {1, 2.5, -3} @quantize(10);\n"
                 "}\n");
    ck_assert_uint_eq(c.errors, 0);
    ck_assert_uint_eq(c.unit->ndecls, 5);
    ck_assert_int_eq(c.unit->decls[0]->kind, NSC_D_PACKAGE);
    ck_assert_str_eq(c.unit->decls[0]->package.text, "game.core");
    ck_assert_str_eq(c.unit->decls[0]->doc, "the game");
    ck_assert_str_eq(c.unit->prefix, "game_core");

    nsc_decl *n = decl_named(&c, "N");
    ck_assert_int_eq(n->kind, NSC_D_CONST);
    ck_assert_int_eq(n->const_value, 8);

    nsc_decl *team = decl_named(&c, "Team");
    ck_assert_uint_eq(team->nvalues, 2);
    ck_assert_int_eq(team->values[1]->resolved, 5);
    ck_assert_str_eq(team->values[1]->doc, "the blue ones");
    ck_assert_str_eq(team->underlying->name.text, "u16");

    nsc_decl *h = decl_named(&c, "Health");
    ck_assert_int_eq(h->kind, NSC_D_COMPONENT);
    ck_assert_str_eq(h->doc, "hp and more");
    ck_assert_uint_eq(h->nattrs, 2);
    ck_assert_uint_eq(h->id, 7);
    ck_assert_uint_eq(h->nfields, 4);
    nsc_field *hp = h->fields[0];
    ck_assert_str_eq(hp->name.text, "hp");
    ck_assert_str_eq(hp->doc, "current");
    ck_assert_uint_eq(hp->nattrs, 2);
    ck_assert_str_eq(hp->attrs[0]->name.text, "range");
    ck_assert_uint_eq(hp->attrs[0]->argc, 2);
    ck_assert(hp->sem.has_range && hp->sem.range_hi.i == 800);
    ck_assert(hp->sem.notify);
    ck_assert_int_eq(hp->sem.sync, NSC_SYNC_OWNER);
    nsc_field *ps = h->fields[1];
    ck_assert(ps->type->generic);
    ck_assert_uint_eq(ps->type->argc, 2);
    ck_assert_uint_eq(ps->sem.type->capacity, 8);
    nsc_field *names = h->fields[2];
    ck_assert_uint_eq(names->type->argc, 3);
    ck_assert_uint_eq(names->sem.type->elem->capacity, 8);
    nsc_field *v = h->fields[3];
    ck_assert_int_eq(v->init->kind, NSC_EX_LIST);
    ck_assert_uint_eq(v->sem.init->count, 3);
    ck_assert_double_eq(v->sem.init->items[2]->f, -3.0);
    test_free(&c);
}
END_TEST

START_TEST(messages_name_what_was_expected)
{
    compiled c;
    test_compile(&c, "package p;\ncomponent A { u8 x @ ; }\n");
    ck_assert_uint_eq(c.errors, 1);
    ck_assert_str_eq(c.diags.items[0].message, "expected identifier, found ';'");
    test_free(&c);

    test_compile(&c, "package p;\nstruct {");
    ck_assert_str_eq(c.diags.items[0].message, "expected identifier, found '{'");
    test_free(&c);

    test_compile(&c, "package p;\n} struct A {}");
    ck_assert_str_eq(c.diags.items[0].message, "expected a declaration or end of file, found '}'");
    test_free(&c);

    test_compile(&c, "package p;\ncomponent A { u8 x }");
    ck_assert_str_eq(c.diags.items[0].message, "expected ';', '=' or an attribute, found '}'");
    test_free(&c);

    test_compile(&c, "package p;\ncomponent A { list<u8 4> x; }");
    ck_assert_str_eq(c.diags.items[0].message, "expected '<', '>', ',' or '.', found number 4");
    test_free(&c);

    test_compile(&c, "package p;\ncomponent A {\n  u8 x");
    ck_assert_str_eq(c.diags.items[0].message, "expected ';', '=' or an attribute, found end of file");
    test_free(&c);
}
END_TEST

START_TEST(missing_semicolon_points_after_the_previous_token)
{
    compiled c;
    test_compile(&c, "package p;\ncomponent A {\n  u8 x\n  u8 y;\n}\n");
    ck_assert_uint_eq(c.errors, 1);
    ck_assert_str_eq(c.diags.items[0].message,
                     "expected ';', '=' or an attribute after this, found identifier 'u8' on the next line");
    ck_assert_uint_eq(c.diags.items[0].line, 3);
    ck_assert_uint_eq(c.diags.items[0].column, 7);
    test_free(&c);
}
END_TEST

START_TEST(recovery_reports_each_error_and_keeps_the_rest)
{
    compiled c;
    test_compile(&c,
                 "package p;\n"
                 "component A { u8 ; u16 ok; }\n"       /* field-level error */
                 "component 5 { }\n"                    /* declaration-level error */
                 "struct B { u8 x @range(1,); }\n"      /* attribute-level error */
                 "component C { list<> l; u8 fine; }\n" /* type-level error */
                 "component D { u32 good; }\n");
    ck_assert_uint_eq(c.errors, 4);
    ck_assert_uint_eq(c.diags.items[0].line, 2);
    ck_assert_uint_eq(c.diags.items[1].line, 3);
    ck_assert_uint_eq(c.diags.items[2].line, 4);
    ck_assert_uint_eq(c.diags.items[3].line, 5);
    /* Declarations and fields around the errors were still built. */
    nsc_decl *a = decl_named(&c, "A"), *d = decl_named(&c, "D"), *cc = decl_named(&c, "C");
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(a->nfields, 1);
    ck_assert_str_eq(a->fields[0]->name.text, "ok");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(cc);
    ck_assert_uint_eq(cc->nfields, 1);
    test_free(&c);
}
END_TEST

START_TEST(deep_nesting_is_an_error_not_a_crash)
{
    size_t depth = 20000;
    char *src = malloc(depth * 2 + 64);
    size_t n = (size_t)sprintf(src, "package p;\nconst X = ");
    for (size_t i = 0; i < depth; i++) src[n++] = '(';
    src[n++] = '1';
    for (size_t i = 0; i < depth; i++) src[n++] = ')';
    strcpy(src + n, ";\n");
    compiled c;
    test_compile(&c, src);
    ck_assert_ptr_nonnull(find_code(&c, "E-syntax-depth"));
    test_free(&c);
    free(src);
}
END_TEST

START_TEST(empty_and_whitespace_only_input)
{
    compiled c;
    test_compile(&c, "");
    ck_assert_uint_eq(c.errors, 1);
    ck_assert_str_eq(c.diags.items[0].code, "E-package-missing");
    ck_assert_uint_eq(c.diags.items[0].line, 1);
    test_free(&c);
    test_compile(&c, "  \n\n // nothing\n");
    ck_assert_str_eq(c.diags.items[0].code, "E-package-missing");
    test_free(&c);
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("grammar");
    tcase_add_test(tc, builds_the_tree);
    tcase_add_test(tc, messages_name_what_was_expected);
    tcase_add_test(tc, missing_semicolon_points_after_the_previous_token);
    tcase_add_test(tc, recovery_reports_each_error_and_keeps_the_rest);
    tcase_add_test(tc, deep_nesting_is_an_error_not_a_crash);
    tcase_add_test(tc, empty_and_whitespace_only_input);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(parser_suite)
