/* dump_internal.h — what the replication packet dump (repl_dump.c) shares with the record dump
 * (dump.c): ns_dump_record with its lines indented. */
#ifndef NS_DUMP_INTERNAL_H
#define NS_DUMP_INTERNAL_H

#include <netschema/dump.h>

/* ns_dump_record, every line indented by `indent` spaces. */
ns_status ns__dump_record(FILE *out, int indent, const ns_type_desc *t, ns_reader *r, const ns_baselines *base,
                          ns_audience to);

#endif
