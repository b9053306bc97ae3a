/* status.c — human-readable names for ns_status codes. */
#include "netschema/status.h"

const char *ns_status_str(ns_status s)
{
    switch (s) {
    case NS_OK:             return "ok";
    case NS_ERR_TRUNCATED:  return "input truncated";
    case NS_ERR_OVERFLOW:   return "output buffer too small";
    case NS_ERR_RANGE:      return "value out of range";
    case NS_ERR_MALFORMED:  return "malformed encoding";
    case NS_ERR_CAPACITY:   return "count exceeds capacity";
    case NS_ERR_DUPLICATE:  return "duplicate id or key";
    case NS_ERR_UNKNOWN_ID: return "unknown id or key";
    case NS_ERR_ORDER:      return "ids or keys out of order";
    case NS_ERR_BASELINE:   return "invalid baselines";
    case NS_ERR_ARGUMENT:   return "invalid argument";
    case NS_ERR_MISMATCH:   return "schema or type mismatch";
    case NS_ERR_FULL:       return "queue or window full";
    case NS_ERR_STALE:      return "too old to accept";
    case NS_ERR_NOMEM:      return "out of memory";
    case NS_ERR_UNKNOWN_TYPE: return "unknown message or component type";
    case NS_ERR_DENIED:     return "write denied: not the owner";
    case NS_STATUS_COUNT_:  break;
    }
    return "unknown status";
}
