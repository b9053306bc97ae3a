/* test_diag.c — how diagnostics look: GCC-style text with caret ranges (tabs, UTF-8, long lines),
 * notes, source order, the error cap and the closing line, and JSON lines. */
#include "nsc_test.h"

/* Compiles src with diagnostics rendered to a string in the given format. */
static char *render(const char *src, nsc_diag_format fmt, unsigned max_errors)
{
    FILE *f = tmpfile();
    nsc_options opt;
    nsc_options_init(&opt);
    opt.diag_stream = f;
    opt.diag_format = fmt;
    if (max_errors) opt.max_errors = max_errors;
    nsc_context *ctx = nsc_create(&opt);
    nsc_load_buffer(ctx, "t.netschema", src, strlen(src));
    nsc_check(ctx);
    nsc_finish_diagnostics(ctx);
    nsc_destroy(ctx);
    long n = ftell(f);
    rewind(f);
    char *out = calloc(1, (size_t)n + 1);
    ck_assert_uint_eq(fread(out, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return out;
}

START_TEST(caret_range_under_the_token)
{
    char *out = render("package p;\ncomponent A {\n    u16 kind @quantize(100);\n}\n", NSC_DIAG_TEXT, 0);
    ck_assert_str_eq(out,
                     "t.netschema:3:14: error: @quantize applies to floating-point fields, not 'u16'\n"
                     "        u16 kind @quantize(100);\n"
                     "                 ^~~~~~~~~~~~~~\n"
                     "1 error generated.\n");
    free(out);
}
END_TEST

START_TEST(tabs_and_utf8_do_not_misplace_the_caret)
{
    /* A tab and two multi-byte characters precede the error on its line. */
    char *out = render("package p;\ncomponent A {\n\tstring<8> s = \"h\xc3\xa9\xe6\x97\xa5\"; u16 k @raw(1);\n}\n",
                       NSC_DIAG_TEXT, 0);
    ck_assert_str_eq(out,
                     "t.netschema:3:29: error: @raw takes no arguments\n"
                     "            string<8> s = \"h\xc3\xa9\xe6\x97\xa5\"; u16 k @raw(1);\n"
                     "                                        ^~~~~~~\n"
                     "1 error generated.\n");
    free(out);
}
END_TEST

START_TEST(notes_follow_their_error)
{
    char *out = render("package p;\nstruct S { u8 a; u8 a; }\n", NSC_DIAG_TEXT, 0);
    ck_assert_str_eq(out,
                     "t.netschema:2:21: error: field 'a' is declared twice in struct 'S'\n"
                     "    struct S { u8 a; u8 a; }\n"
                     "                        ^\n"
                     "t.netschema:2:15: note: first declared here\n"
                     "    struct S { u8 a; u8 a; }\n"
                     "                  ^\n"
                     "1 error generated.\n");
    free(out);
}
END_TEST

START_TEST(long_lines_are_windowed)
{
    char src[1200];
    int n = sprintf(src, "package p;\nstruct S { ");
    for (int i = 0; i < 40; i++) n += sprintf(src + n, "u8 f%02d; ", i);
    sprintf(src + n, "u8 z @bogus; }\n");
    char *out = render(src, NSC_DIAG_TEXT, 0);
    char *line2 = strchr(out, '\n') + 1;
    ck_assert(strncmp(line2, "    ...", 7) == 0);
    char *line3 = strchr(line2, '\n') + 1;
    ck_assert(strlen(line2) - strlen(line3) < 170);       /* the excerpt fits a terminal */
    char *caret = strchr(line3, '^');
    ck_assert_ptr_nonnull(caret);
    ck_assert(strncmp(line2 + (caret - line3), "bogus", 5) == 0); /* still under the name */
    free(out);
}
END_TEST

START_TEST(diagnostics_come_in_source_order)
{
    /* A semantic error on line 2 is found after the syntax error on line 3, but shown first. */
    compiled c;
    test_compile(&c, "package p;\nstruct S { u8 x @nope; }\nstruct T { u8 }\n");
    ck_assert_uint_eq(c.diags.count, 2);
    ck_assert_uint_eq(c.diags.items[0].line, 2);
    ck_assert_uint_eq(c.diags.items[1].line, 3);
    test_free(&c);
}
END_TEST

START_TEST(errors_are_capped_with_a_closing_line)
{
    char src[4096];
    int n = sprintf(src, "package p;\n");
    for (int i = 0; i < 8; i++) n += sprintf(src + n, "struct S%d { u8 x @bad%d; }\n", i, i);
    char *out = render(src, NSC_DIAG_TEXT, 3);
    size_t errors = 0;
    for (const char *p = out; (p = strstr(p, ": error: ")); p++) errors++;
    ck_assert_uint_eq(errors, 3);
    ck_assert_ptr_nonnull(strstr(out, "netschemac: too many errors: showing the first 3 of 8\n8 errors generated.\n"));
    free(out);
}
END_TEST

START_TEST(json_lines)
{
    char *out = render("package p;\nstruct S { u8 a; u8 a; }\nstruct T { u8 \"x\"; }\n", NSC_DIAG_JSON, 0);
    ck_assert_str_eq(out,
                     "{\"severity\":\"error\",\"code\":\"E-field-dup\",\"message\":\"field 'a' is declared twice in "
                     "struct 'S'\",\"file\":\"t.netschema\",\"line\":2,\"column\":21,\"end_line\":2,\"end_column\":21,"
                     "\"offset\":31,\"end_offset\":32,\"notes\":[{\"severity\":\"note\",\"message\":\"first declared "
                     "here\",\"file\":\"t.netschema\",\"line\":2,\"column\":15,\"end_line\":2,\"end_column\":15,"
                     "\"offset\":25,\"end_offset\":26}]}\n"
                     "{\"severity\":\"error\",\"code\":\"E-syntax\",\"message\":\"expected identifier, '<' or '.', found string "
                     "\\\"x\\\"\",\"file\":\"t.netschema\",\"line\":3,\"column\":15,\"end_line\":3,\"end_column\":17,"
                     "\"offset\":50,\"end_offset\":53,\"notes\":[]}\n");
    free(out);
}
END_TEST

START_TEST(warnings_and_clean_runs)
{
    char *out = render("package p;\nstruct S { u8 a; }\n", NSC_DIAG_TEXT, 0);
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

static Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, caret_range_under_the_token);
    tcase_add_test(tc, tabs_and_utf8_do_not_misplace_the_caret);
    tcase_add_test(tc, notes_follow_their_error);
    tcase_add_test(tc, long_lines_are_windowed);
    tcase_add_test(tc, diagnostics_come_in_source_order);
    tcase_add_test(tc, errors_are_capped_with_a_closing_line);
    tcase_add_test(tc, json_lines);
    tcase_add_test(tc, warnings_and_clean_runs);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(diag_suite)
