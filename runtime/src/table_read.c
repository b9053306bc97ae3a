/* table_read.c — the table mode's reader (netschema/table.h): the record walker of dump.c
 * (ns__walk, walk_internal.h) with no callback, against the reference the generated _read picks.
 * The walker already reads every slot as the generated _read does; this file adds the generated
 * entry's contract: the reference per kind, and a destination written only on success (the walk
 * decodes into scratch: on the stack for small snapshots, else on the heap). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/table.h>

#include "walk_internal.h"

/* Snapshots up to this size decode on the stack. */
#define NS__TABLE_STACK 512u

/* True if t's slots hold a collection, directly or inside a @composite struct: the generated
 * _read of such a record decodes from ref into out, so it refuses out == ref. */
static bool holds_collection(const ns_type_desc *t)
{
    for (uint32_t i = 0; t && i < t->field_count; i++) {
        const ns_field_desc *f = &t->fields[i];
        switch (f->encoding) {
        case NS_ENC_LIST:
        case NS_ENC_MAP:
        case NS_ENC_SET:
        case NS_ENC_FASTARRAY:
            return true;
        case NS_ENC_COMPOSITE:
            if (holds_collection(f->type)) return true;
            break;
        default:
            break;
        }
    }
    return false;
}

ns_status ns_table_read(ns_reader *r, const ns_type_desc *t, void *out, const void *ref,
                        const ns_baselines *base, ns_audience to)
{
    if (!r || !t || !out || !t->snap_default) return NS_ERR_ARGUMENT;
    if (t->kind == NS_KIND_COMPONENT) {
        const ns_status st = ns_baselines_check(base);
        if (st != NS_OK) return st;
        ref = ns_baselines_count(base) ? base->snap[0] : NULL;
    } else {
        base = NULL; /* inputs, structs and rpcs: no prediction, every slot sent */
    }
    if (!ref || t->kind == NS_KIND_RPC) ref = t->snap_default;
    if (out == ref && holds_collection(t)) return NS_ERR_ARGUMENT;
    union {
        max_align_t align;
        uint8_t     bytes[NS__TABLE_STACK];
    } stack;
    uint8_t *scratch = t->snap_size <= sizeof stack.bytes ? stack.bytes : (uint8_t *)malloc(t->snap_size);
    if (!scratch) return NS_ERR_NOMEM;
    const ns_status st = ns__walk(r, t, ref, base, to, scratch, NULL, NULL);
    if (st == NS_OK) memcpy(out, scratch, t->snap_size);
    if (scratch != stack.bytes) free(scratch);
    return st;
}
