/* json.h — a small pretty-printing JSON writer: deterministic output, two-space indentation,
 * keys in the order written. */
#ifndef NSC_JSON_H
#define NSC_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

#define NSC_JSON_MAX_DEPTH 32

typedef struct nsc_json {
    nsc_strbuf *out;
    int         depth;
    bool        first[NSC_JSON_MAX_DEPTH];
    bool        inline_[NSC_JSON_MAX_DEPTH];  /* short arrays of scalars stay on one line */
    bool        after_key;
} nsc_json;

void nsc_json_init(nsc_json *j, nsc_strbuf *out);
void nsc_json_object(nsc_json *j);
void nsc_json_array(nsc_json *j);
void nsc_json_array_inline(nsc_json *j);   /* an array printed on one line: [0, 99] */
void nsc_json_end_object(nsc_json *j);
void nsc_json_end_array(nsc_json *j);
void nsc_json_key(nsc_json *j, const char *key);
void nsc_json_string(nsc_json *j, const char *s);
void nsc_json_string_n(nsc_json *j, const char *s, size_t n);
void nsc_json_int(nsc_json *j, int64_t v);
void nsc_json_uint(nsc_json *j, uint64_t v);
void nsc_json_double(nsc_json *j, double v);
void nsc_json_bool(nsc_json *j, bool v);
void nsc_json_null(nsc_json *j);
void nsc_json_hex64(nsc_json *j, uint64_t v);   /* "0x0123456789abcdef" */

#endif
