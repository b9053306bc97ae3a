/* table_values.c — the table mode's comparisons (netschema/table.h): whether a slot, or a whole
 * snapshot, differs, slot by slot from the descriptor, as the generated change tests of
 * compiler/src/emit_c_codec.c (nsc_cg_differs) and _snap_equal of emit_c_values.c decide. */
#include <string.h>

#include <netschema/collections.h>
#include <netschema/table.h>

#include "table_internal.h"

/* A union's snapshot: its tag in the first byte, then the member it names (docs/wire.md 12.9). */
static bool union_differs(const ns_field_desc *f, const uint8_t *a, const uint8_t *b)
{
    if (a[0] != b[0]) return true;
    const ns_type_desc *u = f->type;
    if (!u || a[0] >= u->field_count || !u->fields[a[0]].type) return false; /* as the generated switch's default */
    const ns_field_desc *m = &u->fields[a[0]];
    return !ns_table_snap_equal(m->type, a + m->snap_offset, b + m->snap_offset);
}

/* memcmp(a, b, n) != 0 for the member sizes of numbers and vectors without a call: one or two
 * loads a side (this test runs for every slot of every record written). */
static bool bytes_differ(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t x = 0, y = 0, x2 = 0, y2 = 0;
    switch (n) {
    case 1: return a[0] != b[0];
    case 2: memcpy(&x, a, 2); memcpy(&y, b, 2); return x != y;
    case 4: memcpy(&x, a, 4); memcpy(&y, b, 4); return x != y;
    case 8: memcpy(&x, a, 8); memcpy(&y, b, 8); return x != y;
    case 12: memcpy(&x, a, 8); memcpy(&y, b, 8); memcpy(&x2, a + 8, 4); memcpy(&y2, b + 8, 4); break;
    case 16: memcpy(&x, a, 8); memcpy(&y, b, 8); memcpy(&x2, a + 8, 8); memcpy(&y2, b + 8, 8); break;
    default: return memcmp(a, b, n) != 0;
    }
    return ((x ^ y) | (x2 ^ y2)) != 0;
}

bool ns__table_differs(const ns_field_desc *f, const uint8_t *a, const uint8_t *b)
{
    switch (f->encoding) {
    case NS_ENC_LIST:
    case NS_ENC_MAP:
    case NS_ENC_SET:
    case NS_ENC_FASTARRAY:
        return f->coll ? ns_coll_changed(f->coll, a, b) : memcmp(a, b, f->snap_size) != 0;
    case NS_ENC_STRING:
        return strcmp((const char *)a, (const char *)b) != 0;
    case NS_ENC_BYTES: {
        uint16_t la, lb;
        memcpy(&la, a, 2);
        memcpy(&lb, b, 2);
        return la != lb || memcmp(a + 2, b + 2, la) != 0;
    }
    case NS_ENC_COMPOSITE:
        return f->type && !ns_table_snap_equal(f->type, a, b);
    case NS_ENC_ARRAY:
        for (uint32_t k = 0; f->elem && k < f->capacity; k++)
            if (ns__table_differs(f->elem, a + k * f->elem->snap_size, b + k * f->elem->snap_size)) return true;
        return false;
    case NS_ENC_UNION:
        return union_differs(f, a, b);
    default: /* integers, floats as their bits, quantized vectors: the bytes of the member */
        return bytes_differ(a, b, f->snap_size);
    }
}

bool ns_table_snap_equal(const ns_type_desc *t, const void *a, const void *b)
{
    const uint8_t *pa = (const uint8_t *)a, *pb = (const uint8_t *)b;
    for (uint32_t i = 0; i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        const uint8_t *a_f = pa + f->snap_offset, *b_f = pb + f->snap_offset;
        switch (f->encoding) {
        case NS_ENC_LIST:
        case NS_ENC_MAP:
        case NS_ENC_SET:
        case NS_ENC_FASTARRAY: /* state only: fast-array keys are the sender's bookkeeping */
            if (f->coll ? !ns_coll_equal(f->coll, a_f, b_f) : memcmp(a_f, b_f, f->snap_size) != 0) return false;
            break;
        default:
            if (ns__table_differs(f, a_f, b_f)) return false;
        }
    }
    return true;
}
