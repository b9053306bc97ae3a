/* test_lexer.c — the flex scanner on its own: tokens, literal values, doc comments, locations
 * and lexical errors. */
#include <string.h>

#include "diag.h"
#include "lexer.h"
#include "parser.h"
#define YYSTYPE NSC_YYSTYPE
#define YYLTYPE NSC_YYLTYPE
#include "scanner.h"

#include "nsc_test.h"

typedef struct lexed {
    int       kind[64];
    nsc_token tok[64];
    nsc_loc   loc[64];
    size_t    count;
    capture   diags;
} lexed;

/* Scans src into tokens (up to END) and keeps the lexical diagnostics. */
static void lex(const char *src, size_t len, lexed *out)
{
    memset(out, 0, sizeof *out);
    nsc_options opt;
    nsc_options_init(&opt);
    opt.sink = capture_sink;
    opt.sink_user = &out->diags;
    nsc_sources sources = {0};
    char *text = malloc(len + 2);
    memcpy(text, src, len);
    text[len] = text[len + 1] = 0;
    nsc_sources_add(&sources, "t.netschema", NULL, text, len);
    nsc_diags diags;
    nsc_diags_init(&diags, &opt, &sources);
    nsc_arena arena;
    nsc_arena_init(&arena);
    nsc_lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.diags = &diags;
    lx.arena = &arena;
    lx.text = text;
    lx.file = 1;
    yyscan_t scanner;
    nsc_yylex_init_extra(&lx, &scanner);
    YY_BUFFER_STATE b = nsc_yy_scan_bytes(text, (int)len, scanner);
    for (;;) {
        NSC_YYSTYPE val;
        nsc_loc loc;
        memset(&val, 0, sizeof val);
        int k = nsc_yylex(&val, &loc, scanner);
        if (k == END || out->count == 64) break;
        out->kind[out->count] = k;
        out->tok[out->count] = val.tok;
        /* Keep token text beyond the arena's life: tests only look at short texts. */
        static char keep[64][128];
        snprintf(keep[out->count], sizeof keep[0], "%.*s", (int)val.tok.len, val.tok.text ? val.tok.text : "");
        out->tok[out->count].text = keep[out->count];
        static char keepdoc[64][128];
        if (val.tok.doc) {
            snprintf(keepdoc[out->count], sizeof keepdoc[0], "%s", val.tok.doc);
            out->tok[out->count].doc = keepdoc[out->count];
        }
        out->loc[out->count] = loc;
        out->count++;
    }
    nsc_yy_delete_buffer(b, scanner);
    nsc_yylex_destroy(scanner);
    nsc_diags_flush(&diags);
    nsc_diags_free(&diags);
    nsc_sb_free(&lx.doc);
    nsc_sb_free(&lx.scratch);
    nsc_arena_free(&arena);
    nsc_sources_free(&sources);
}

static void lex_str(const char *src, lexed *out)
{
    lex(src, strlen(src), out);
}

START_TEST(keywords_identifiers_and_punctuation)
{
    lexed l;
    lex_str("package a.b; component Foo { u16 x @raw; } struct_ input rpcs", &l);
    int want[] = {PACKAGE, IDENT, DOT, IDENT, SEMI, COMPONENT, IDENT, LBRACE, IDENT, IDENT, AT, IDENT, SEMI,
                  RBRACE, IDENT, INPUT, IDENT};
    ck_assert_uint_eq(l.count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < l.count; i++) ck_assert_int_eq(l.kind[i], want[i]);
    ck_assert_str_eq(l.tok[14].text, "struct_");
    ck_assert_str_eq(l.tok[16].text, "rpcs");
    ck_assert_uint_eq(l.diags.count, 0);
}
END_TEST

START_TEST(integer_literals)
{
    lexed l;
    lex_str("0 42 1_000_000 0x1F 0XfF_fF 0b1010 18446744073709551615 18446744073709551616", &l);
    ck_assert_uint_eq(l.count, 8);
    uint64_t want[] = {0, 42, 1000000, 31, 65535, 10, UINT64_MAX, 0};
    for (size_t i = 0; i < 8; i++) {
        ck_assert_int_eq(l.kind[i], INT);
        ck_assert(l.tok[i].ival == want[i]);
    }
    ck_assert(!l.tok[6].bad);
    ck_assert(l.tok[7].bad);
    ck_assert_uint_eq(l.diags.count, 1);
    ck_assert_str_eq(l.diags.items[0].code, "E-lex-number");
    ck_assert_uint_eq(l.diags.items[0].column, 57);
}
END_TEST

START_TEST(float_literals)
{
    lexed l;
    lex_str("1.5 0.25 1e3 2.5e-2 1_000.5 1e999", &l);
    ck_assert_uint_eq(l.count, 6);
    double want[] = {1.5, 0.25, 1000.0, 0.025, 1000.5, 0.0};
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(l.kind[i], FLOAT);
        ck_assert_double_eq_tol(l.tok[i].fval, want[i], 1e-12);
    }
    ck_assert_uint_eq(l.diags.count, 1);
    ck_assert_str_eq(l.diags.items[0].code, "E-lex-number");
}
END_TEST

START_TEST(number_running_into_letters)
{
    lexed l;
    lex_str("12abc x", &l);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_int_eq(l.kind[0], INT);
    ck_assert_int_eq(l.kind[1], IDENT);
    ck_assert_uint_eq(l.diags.count, 1);
    ck_assert_uint_eq(l.diags.items[0].end_column, 5);
}
END_TEST

START_TEST(strings_and_escapes)
{
    lexed l;
    lex_str("\"a\\tb\\n\\\"q\\\\\" \"\\x41\\u{e9}\\u{1F600}\" \"h\xc3\xa9\"", &l);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_int_eq(l.kind[0], STRING);
    ck_assert_str_eq(l.tok[0].text, "a\tb\n\"q\\");
    ck_assert_str_eq(l.tok[1].text, "A\xc3\xa9\xf0\x9f\x98\x80");
    ck_assert_str_eq(l.tok[2].text, "h\xc3\xa9");
    ck_assert_uint_eq(l.diags.count, 0);
}
END_TEST

START_TEST(bad_escapes_and_unterminated_strings)
{
    lexed l;
    lex_str("\"\\q\" \"\\x4\" \"\\u{d800}\"\n\"open\nx", &l);
    ck_assert_uint_eq(l.diags.count, 4);
    ck_assert_str_eq(l.diags.items[0].code, "E-lex-escape");
    ck_assert_str_eq(l.diags.items[1].code, "E-lex-escape");
    ck_assert_str_eq(l.diags.items[2].code, "E-lex-escape");
    ck_assert_str_eq(l.diags.items[3].code, "E-lex-string");
    ck_assert_uint_eq(l.diags.items[3].line, 2);
    ck_assert_uint_eq(l.diags.items[3].column, 1);
    ck_assert_int_eq(l.kind[l.count - 1], IDENT); /* scanning went on after the bad string */
}
END_TEST

START_TEST(comments_and_doc_comments)
{
    lexed l;
    lex_str("// plain\n/* block\n * more */ /// first line\n///  second line\nstruct S //// not doc\n x", &l);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_int_eq(l.kind[0], STRUCT);
    ck_assert_str_eq(l.tok[0].doc, "first line\n second line");
    ck_assert_ptr_null(l.tok[1].doc);
    ck_assert_ptr_null(l.tok[2].doc); /* //// is a plain comment */
    ck_assert_uint_eq(l.diags.count, 0);
}
END_TEST

START_TEST(unterminated_comment_points_at_its_start)
{
    lexed l;
    lex_str("package p;\n  /* never closed\n more", &l);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_uint_eq(l.diags.count, 1);
    ck_assert_str_eq(l.diags.items[0].code, "E-lex-comment");
    ck_assert_uint_eq(l.diags.items[0].line, 2);
    ck_assert_uint_eq(l.diags.items[0].column, 3);
}
END_TEST

START_TEST(locations_are_byte_offsets)
{
    lexed l;
    lex_str("package\tp;\n  x", &l);
    ck_assert_uint_eq(l.loc[0].start, 0);
    ck_assert_uint_eq(l.loc[0].end, 7);
    ck_assert_uint_eq(l.loc[1].start, 8);
    ck_assert_uint_eq(l.loc[3].start, 13);
    ck_assert_uint_eq(l.loc[3].end, 14);
}
END_TEST

START_TEST(stray_bytes)
{
    lexed l;
    static const char src[] = "a\0b \xc3\xa9 \xff $ \x01";
    lex(src, sizeof src - 1, &l);
    ck_assert_uint_eq(l.count, 2); /* a, b */
    ck_assert_uint_eq(l.diags.count, 5);
    ck_assert_str_eq(l.diags.items[0].code, "E-lex-char");  /* NUL */
    ck_assert_str_eq(l.diags.items[1].code, "E-lex-char");  /* é outside strings */
    ck_assert(strstr(l.diags.items[1].message, "U+00E9") != NULL);
    ck_assert_str_eq(l.diags.items[2].code, "E-lex-utf8");  /* 0xff */
    ck_assert_str_eq(l.diags.items[3].code, "E-lex-char");  /* $ */
    ck_assert_str_eq(l.diags.items[4].code, "E-lex-char");  /* control character */
    ck_assert_uint_eq(l.diags.items[2].column, 7);          /* é counts one column */
}
END_TEST

START_TEST(invalid_utf8_in_comments_and_strings)
{
    lexed l;
    lex_str("// ok \xe2\x82\xac bad \xe2\x82\n\"x\xc0\xafy\" /* \xed\xa0\x80 */", &l);
    ck_assert_uint_eq(l.count, 1);
    ck_assert_uint_eq(l.diags.count, 3);
    for (int i = 0; i < 3; i++) ck_assert_str_eq(l.diags.items[i].code, "E-lex-utf8");
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, keywords_identifiers_and_punctuation);
    tcase_add_test(tc, integer_literals);
    tcase_add_test(tc, float_literals);
    tcase_add_test(tc, number_running_into_letters);
    tcase_add_test(tc, strings_and_escapes);
    tcase_add_test(tc, bad_escapes_and_unterminated_strings);
    tcase_add_test(tc, comments_and_doc_comments);
    tcase_add_test(tc, unterminated_comment_points_at_its_start);
    tcase_add_test(tc, locations_are_byte_offsets);
    tcase_add_test(tc, stray_bytes);
    tcase_add_test(tc, invalid_utf8_in_comments_and_strings);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(lexer_suite)
