/* test_textfmt.c — the emitters' formatter (compiler/src/textfmt.c) against vsnprintf: the same
 * text and length for every conversion it formats itself, for those it hands to vsnprintf, and
 * when the buffer is too small. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ns_test.h"
#include "textfmt.h"

/* Formats with both at every buffer size up to the text's length + 2, and compares. */
static void same(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void same(const char *fmt, ...)
{
    char want[512], got[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    ck_assert_int_lt(n, (int)sizeof want - 2);
    for (size_t cap = 0; cap <= (size_t)n + 2; cap++) {
        memset(got, '#', sizeof got);
        va_start(ap, fmt);
        size_t m = nsc_text_vformat(cap ? got : NULL, cap, fmt, ap);
        va_end(ap);
        ck_assert_uint_eq(m, (size_t)n);
        if (cap == 0) continue;
        size_t kept = cap - 1 < (size_t)n ? cap - 1 : (size_t)n;
        ck_assert_msg(memcmp(got, want, kept) == 0 && got[kept] == '\0', "\"%s\" in %zu bytes: \"%s\", not \"%.*s\"",
                      fmt, cap, got, (int)kept, want);
        ck_assert_int_eq(got[kept + 1], '#'); /* nothing past the NUL */
    }
}

START_TEST(plain_conversions)
{
    same("%s", "");
    same("no conversions at all");
    same("%s and %s", "one", "");
    same("%s", (const char *)"a longer string that goes past the small buffers");
    same("%c%c%%%c", 'a', 'b', 'z');
    same("%d %d %d %i", 0, -1, INT_MAX, INT_MIN);
    same("%u %u %x %x", 0u, UINT_MAX, 0u, 0xdeadbeefu);
    same("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
    same("%lld %lld %llu %llx", LLONG_MIN, LLONG_MAX, ULLONG_MAX, 0x0123456789abcdefull);
    same("%zu %zx", (size_t)0, SIZE_MAX);
    same("{%s, %uu, %s},", "NS_ENC_INT", 17u, "NULL");
}
END_TEST

START_TEST(widths_and_precisions)
{
    same("%016llx|%08x|%02x|%04x", 0x10a0618be2fd943ull, 0xabcu, 7u, 0x12345u);
    same("%016llx", ULLONG_MAX);
    same("%.3s|%.0s|%.40s", "abcdef", "abc", "short");
    same("%.*s|%.*s|%.*s", 2, "abcdef", 0, "x", -1, "negative: all of it");
    same("%.17g %.17g %.17g %.17g", 0.0, 100.0, -500.0, 1e14);
    same("%.17g %.17g %.17g %.17g", 0.01, 1.0 / 3.0, 1e15, 1e300);
    same("%.17g %.17g %.17g", -0.0, DBL_MAX, DBL_MIN);
    same("%.17g %.17g", (double)INFINITY, -(double)INFINITY);
    same("%.3g %.1g %.15g %.16g", 1234.0, 100.0, 123456789012345.0, 999999999999999.0);
    same("%.60g|%.*g", 1.0 / 3.0, 50, 2.0 / 3.0);
    same("%.1f %.1f %.1ff %.0f %.3f", 0.0, -0.0, 100.0, -500.0, 65535.0);
    same("%.1f %.1f %.1f %.2f", 0.5, -0.25, 1e15, 1e300);
}
END_TEST

START_TEST(others_go_to_vsnprintf)
{
    same("%-15s|%5d|%+d|% d|%p", "left", 42, 5, 7, (void *)0);
    same("%.1f %a %03o %g %e", 2.25, 1.0, 8u, 0.5, 12345.678);
    same("%zd then %s", (size_t)12, "rest");
    same("%5x|%.3u|%hhu|%hd", 0x12u, 7u, (unsigned char)200, (short)-1234);
}
END_TEST

static Suite *textfmt_suite(void)
{
    Suite *s = suite_create("textfmt");
    TCase *tc = tcase_create("vsnprintf");
    tcase_add_test(tc, plain_conversions);
    tcase_add_test(tc, widths_and_precisions);
    tcase_add_test(tc, others_go_to_vsnprintf);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(textfmt_suite)
