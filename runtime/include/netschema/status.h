/* netschema/status.h — the status codes every fallible runtime and generated function returns. */
#ifndef NETSCHEMA_STATUS_H
#define NETSCHEMA_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* One code per failure kind. Values are part of the ABI: new codes are only ever appended. */
typedef enum ns_status {
    NS_OK = 0,
    NS_ERR_TRUNCATED,   /* a read needed more bits than the buffer holds */
    NS_ERR_OVERFLOW,    /* a write needed more room than the buffer has */
    NS_ERR_RANGE,       /* a decoded value lies outside its declared range */
    NS_ERR_MALFORMED,   /* the bits do not form a valid encoding (bad code, overlong varint, ...) */
    NS_ERR_CAPACITY,    /* a count exceeds a fixed capacity */
    NS_ERR_DUPLICATE,   /* an ID or key appears twice */
    NS_ERR_UNKNOWN_ID,  /* an ID or key that the receiver does not hold */
    NS_ERR_ORDER,       /* IDs or keys out of their required order */
    NS_ERR_BASELINE,    /* baselines missing, inconsistent or of the wrong count */
    NS_ERR_ARGUMENT,    /* a caller passed an invalid argument */
    NS_ERR_MISMATCH,    /* schema hash or type id does not match */
    NS_ERR_FULL,        /* a bounded queue, window or table has no room left */
    NS_ERR_STALE,       /* a packet or record older than the receiver accepts */
    NS_ERR_NOMEM,       /* an allocation failed */
    NS_ERR_UNKNOWN_TYPE, /* a message (or component) type id the schema does not have */
    NS_ERR_DENIED,      /* a client wrote what it may not: an entity it does not own, or a server field */
    NS_STATUS_COUNT_    /* not a status: the number of codes */
} ns_status;

/* A short, static, human-readable description of a status ("ok", "buffer truncated", ...). */
const char *ns_status_str(ns_status s);

#ifdef __cplusplus
}
#endif
#endif
