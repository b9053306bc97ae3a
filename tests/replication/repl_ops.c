/* repl_ops.c — the ns_schema of repl.netschema, wrapped by hand around the generated functions
 * (until netschemac emits rt_schema itself). */
#include "repl.ns.h"
#include "repl_harness.h"

#define RT_COMPONENT(T)                                                                                            \
    static void T##_snap_default_(void *s)                                                                         \
    {                                                                                                              \
        rt_##T v;                                                                                                  \
        rt_##T##_init(&v);                                                                                         \
        rt_##T##_quantize(&v, (rt_##T##_snap *)s);                                                                 \
    }                                                                                                              \
    static void T##_init_(void *v) { rt_##T##_init((rt_##T *)v); }                                                \
    static void T##_quantize_(const void *v, void *s) { rt_##T##_quantize((const rt_##T *)v, (rt_##T##_snap *)s); } \
    static void T##_dequantize_(const void *s, void *v)                                                           \
    {                                                                                                              \
        rt_##T##_dequantize((const rt_##T##_snap *)s, (rt_##T *)v);                                               \
    }                                                                                                              \
    static bool T##_snap_equal_(const void *a, const void *b)                                                     \
    {                                                                                                              \
        return rt_##T##_snap_equal((const rt_##T##_snap *)a, (const rt_##T##_snap *)b);                           \
    }                                                                                                              \
    static ns_status T##_write_(ns_writer *w, const void *c, const ns_baselines *b, ns_audience to)              \
    {                                                                                                              \
        return rt_##T##_write(w, (const rt_##T##_snap *)c, b, to);                                                \
    }                                                                                                              \
    static ns_status T##_read_(ns_reader *r, void *o, const ns_baselines *b, ns_audience to)                     \
    {                                                                                                              \
        return rt_##T##_read(r, (rt_##T##_snap *)o, b, to);                                                       \
    }                                                                                                              \
    static void T##_apply_(void *l, const void *s, const void *h, void *ctx)                                      \
    {                                                                                                              \
        rt_##T##_apply((rt_##T *)l, (const rt_##T##_snap *)s, (const rt_##T##_hooks *)h, ctx);                   \
    }                                                                                                              \
    static void T##_interpolate_(const void *a, const void *b, float t, void *o)                                  \
    {                                                                                                              \
        rt_##T##_interpolate((const rt_##T##_snap *)a, (const rt_##T##_snap *)b, t, (rt_##T *)o);                 \
    }

#define RT_OPS(T)                                                                                                  \
    {&rt_##T##_desc, 0, T##_snap_default_, T##_init_, T##_quantize_, T##_dequantize_, T##_snap_equal_, T##_write_, \
     T##_read_, T##_apply_, T##_interpolate_}

RT_COMPONENT(Body)
RT_COMPONENT(Health)
RT_COMPONENT(Secret)
RT_COMPONENT(Slow)

static const ns_component_ops components[] = {RT_OPS(Body), RT_OPS(Health), RT_OPS(Secret), RT_OPS(Slow)};

const ns_schema rt_test_schema = {"rt", RT_SCHEMA_HASH, components, 4, NULL, 0};
