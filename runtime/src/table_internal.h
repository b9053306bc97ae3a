/* table_internal.h — what the table mode's writer (table_write.c) shares with its value
 * functions (table_values.c): whether one slot differs between two snapshots. */
#ifndef NS_TABLE_INTERNAL_H
#define NS_TABLE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <netschema/desc.h>

/* True if slot f differs between snapshot members a and b, as the generated change test decides
 * (floats bitwise, strings up to their NUL, bytes up to their length, collections by ops). */
bool ns__table_differs(const ns_field_desc *f, const uint8_t *a, const uint8_t *b);

#endif
