/* netschema/netschema.h — the umbrella header: everything generated code and users call.
 *
 *   bits.h     ns_writer / ns_reader bit streams
 *   packed.h   zigzag, packed integers (ns_model), deltas
 *   varint.h   byte-aligned varints
 *   quant.h    quantization, smallest-three quaternions
 *   predict.h  the three-baseline predictor
 *   floats.h   unquantized floats (XOR-coded bit patterns)
 *   text.h     string and bytes fields
 *   baselines.h  ns_baselines, ns_audience
 *   history.h  snapshot history, acks and the choice of baselines
 *   collections.h  list, set, map and fastarray fields
 *   interp.h   interpolation and extrapolation helpers
 *   desc.h     type descriptors for generic tools
 *   dump.h     snapshots and packets as text, with the bits of every field
 *   profile.h  the per-field bandwidth profile (counting with -DNS_PROFILE)
 *   codec.h    checked building blocks of generated serializers
 *   schema.h   the dispatch tables generated per schema (ns_schema)
 *   replication.h  entities, spawn/despawn, relevancy, priority: ns_world and ns_replica
 *   types.h    ns_vec2/3/4, ns_quat, ns_entity
 *   status.h   ns_status
 *   batch.h    timestamp batching: ns_batcher, ns_unbatcher
 *   reliable.h reliable, ordered message channel
 *   inputs.h   redundant tick-stamped inputs
 *   timeline.h snapshot interpolation timeline
 *   version.h  NS_VERSION_*, NS_RUNTIME_ABI */
#ifndef NETSCHEMA_NETSCHEMA_H
#define NETSCHEMA_NETSCHEMA_H

#include "version.h"
#include "status.h"
#include "types.h"
#include "bits.h"
#include "packed.h"
#include "varint.h"
#include "quant.h"
#include "predict.h"
#include "floats.h"
#include "text.h"
#include "baselines.h"
#include "history.h"
#include "collections.h"
#include "interp.h"
#include "desc.h"
#include "dump.h"
#include "table.h"
#include "profile.h"
#include "codec.h"
#include "batch.h"
#include "reliable.h"
#include "inputs.h"
#include "timeline.h"
#include "prediction.h"
#include "schema.h"
#include "replication.h"

#endif
