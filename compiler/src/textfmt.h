/* textfmt.h — a fast vsnprintf for the emitters (textfmt.c): same results, same contract. */
#ifndef NSC_TEXTFMT_H
#define NSC_TEXTFMT_H

#include <stdarg.h>
#include <stddef.h>

/* Formats like vsnprintf: writes at most cap bytes, the last a NUL, and returns the length of
 * the whole text (so a result >= cap means it was cut). ap is left indeterminate. */
size_t nsc_text_vformat(char *buf, size_t cap, const char *fmt, va_list ap);

#endif
