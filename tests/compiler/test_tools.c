/* test_tools.c — the library entry points of the schema tools (netschemac.h): nsc_format and
 * nsc_compat, on schemas held in memory. The command line and the corpora are tested by
 * run_format.sh and run_compat.sh. */
#include "nsc_test.h"

/* nsc_format's text for src, or NULL. */
static char *format(const char *src)
{
    compiled c;
    test_compile(&c, src);
    size_t len = 0;
    char *text = nsc_format(c.ctx, c.unit, &len);
    if (text) ck_assert_uint_eq(strlen(text), len);
    test_free(&c);
    return text;
}

/* nsc_compat's report for two versions, and its result in *rc. */
static char *compat(const char *old_src, const char *new_src, nsc_diag_format fmt, int *rc)
{
    compiled o, n;
    test_compile(&o, old_src);
    test_compile(&n, new_src);
    FILE *f = tmpfile();
    *rc = nsc_compat(o.ctx, o.unit, n.ctx, n.unit, fmt, f);
    long size = ftell(f);
    rewind(f);
    char *out = calloc(1, (size_t)size + 1);
    ck_assert_uint_eq(fread(out, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    test_free(&o);
    test_free(&n);
    return out;
}

START_TEST(format_lays_out_and_keeps_comments)
{
    char *text = format("package p;   // the package\n"
                        "component C { // fields:\n"
                        "  vec3 pos @smooth(interpolate)@quantize(100);\n"
                        "  /// Documented.\n"
                        "  u8 n = 1 @range(0,9); }\n");
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "package p; // the package\n"
                           "\n"
                           "component C { // fields:\n"
                           "    vec3 pos @quantize(100) @smooth(interpolate);\n"
                           "    /// Documented.\n"
                           "    u8   n = 1 @range(0, 9);\n"
                           "}\n");
    char *again = format(text);
    ck_assert_str_eq(again, text);
    free(text);
    free(again);
}
END_TEST

START_TEST(format_refuses_a_schema_with_errors)
{
    ck_assert_ptr_null(format("package p;\ncomponent C { u8 a @quantize(10); }\n"));
    ck_assert_ptr_null(format("package p;\ncomponent C { u8 a }\n"));
}
END_TEST

START_TEST(compat_names_the_first_slot_that_breaks)
{
    int rc = -2;
    char *out = compat("package p;\ncomponent C { u8 a; u8 b @range(0, 9); u8 c @range(0, 9); }\n",
                       "package p;\ncomponent C { u8 a; u8 b @range(0, 5); u8 c @range(0, 5); }\n",
                       NSC_DIAG_TEXT, &rc);
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(out, "breaking        component C: b: @range 0..9 -> 0..5\n"));
    free(out);
}
END_TEST

START_TEST(compat_without_a_wire_change)
{
    int rc = -2;
    char *out = compat("package p;\n/// Old.\nstruct S { u8 a; }\ncomponent C { f32 x @smooth(interpolate); }\n",
                       "package p;\n/// New.\nstruct S { u8 a; }\ncomponent C { f32 x; }\nrpc R { u8 a; }\n",
                       NSC_DIAG_JSON, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"verdict\":\"no-wire-change\",\"kind\":\"struct\",\"name\":\"S\""));
    ck_assert_ptr_nonnull(strstr(out, "\"changes\":[\"doc comments\"]"));
    ck_assert_ptr_nonnull(strstr(out, "\"changes\":[\"@smooth\"]"));
    ck_assert_ptr_nonnull(strstr(out, "{\"verdict\":\"added\",\"kind\":\"rpc\",\"name\":\"R\""));
    free(out);
}
END_TEST

START_TEST(compat_refuses_schemas_with_errors)
{
    int rc = 0;
    char *out = compat("package p;\ncomponent C { u8 a; }\n", "package p;\ncomponent C { u8 a @quantize(1); }\n",
                       NSC_DIAG_TEXT, &rc);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

static Suite *tools_suite(void)
{
    Suite *s = suite_create("tools");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, format_lays_out_and_keeps_comments);
    tcase_add_test(tc, format_refuses_a_schema_with_errors);
    tcase_add_test(tc, compat_names_the_first_slot_that_breaks);
    tcase_add_test(tc, compat_without_a_wire_change);
    tcase_add_test(tc, compat_refuses_schemas_with_errors);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(tools_suite)
