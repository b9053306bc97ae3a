/* netschema/table.h — the runtime of the table mode (`netschemac --codec table`, docs/generated-api.md
 * "Table mode"): generic functions driven by a type's descriptor (netschema/desc.h) that the
 * generated _write, _read and _snap_equal call instead of straight-line code. They put on the wire
 * exactly the bits the default mode's generated code puts there, and accept and reject exactly
 * what it does (tests/e2e test_table_*). Records holding extern structs (NS_ENC_CUSTOM) are not
 * table-driven: the generator keeps their straight-line code. */
#ifndef NETSCHEMA_TABLE_H
#define NETSCHEMA_TABLE_H

#include <stdbool.h>

#include "baselines.h"
#include "bits.h"
#include "desc.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes cur (a snapshot of t) into w as t's generated _write does. Components code against
 * base (ref ignored); other kinds against ref (NULL: t's defaults). A bad snapshot, baseline set,
 * collection or union returns its error: the caller then keeps its own writer unmoved. NS_OK
 * otherwise; the writer's own status (overflow) is the caller's to return. */
ns_status ns_table_write(ns_writer *w, const ns_type_desc *t, const void *cur, const void *ref,
                         const ns_baselines *base, ns_audience to);

/* Reads a record of t written by ns_table_write (or the generated _write) with the same ref,
 * base and to into out, as t's generated _read does: r advanced (or failed) as it advances it,
 * out written on NS_OK only. Records holding collections refuse out == the reference
 * (NS_ERR_ARGUMENT); snapshots over 512 bytes decode into heap scratch (NS_ERR_NOMEM without). */
ns_status ns_table_read(ns_reader *r, const ns_type_desc *t, void *out, const void *ref,
                        const ns_baselines *base, ns_audience to);

/* True if snapshots a and b of t hold the same values, as t's generated _snap_equal decides. */
bool ns_table_snap_equal(const ns_type_desc *t, const void *a, const void *b);

#ifdef __cplusplus
}
#endif
#endif
