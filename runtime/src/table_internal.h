/* table_internal.h — what the table mode's files share: whether one slot differs between two
 * snapshots (table_values.c, used by table_write.c), and one member's dequantization
 * and value sizes (table_quant.c, used by _interpolate's jumps and the setters in table_motion.c). */
#ifndef NS_TABLE_INTERNAL_H
#define NS_TABLE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <netschema/desc.h>
#include <netschema/table.h>

/* True if slot f differs between snapshot members a and b, as the generated change test decides
 * (floats bitwise, strings up to their NUL, bytes up to their length, collections by ops). */
bool ns__table_differs(const ns_field_desc *f, const uint8_t *a, const uint8_t *b);

/* Sets the value member v from the snapshot member s as _dequantize does (f: their entry). */
void ns__table_dequantize_field(const ns_value_field *f, const uint8_t *s, uint8_t *v);

/* Bytes of a number, bool, enum, vector or quaternion value member: what _equal and the setters
 * compare bitwise (table_quant.c). */
size_t ns__table_value_bytes(const ns_value_field *f);

#endif
