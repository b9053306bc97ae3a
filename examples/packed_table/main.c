/* packed_table — what a value costs on the wire: raw 32 bits, a byte-aligned varint, or the
 * packed bucket model, and what delta coding against a reference saves. */
#include <stdio.h>

#include <netschema/netschema.h>

/* Bits one packed write of a signed delta costs, measured by writing it. */
static size_t packed_delta_bits(int32_t value, int32_t ref)
{
    uint8_t buf[16];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    ns_write_delta_i32(&w, value, ref, NULL);
    return ns_writer_bits(&w);
}

static void print_values(void)
{
    static const uint32_t values[] = {0, 1, 2, 3, 12, 100, 123, 1000, 65535, 1000000, 4294967295u};
    printf("Unsigned values\n");
    printf("  %12s  %8s  %12s  %12s\n", "value", "raw", "varint bits", "packed bits");
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint32_t v = values[i];
        printf("  %12u  %8u  %12zu  %12u\n", v, 32u, 8 * ns_varint_size(v), ns_packed_u32_cost(v, NULL));
    }
}

static void print_deltas(void)
{
    /* A position in millimetres (quantize 1000) moving a little each tick. */
    static const int32_t track[] = {12000, 12000, 12016, 12033, 12049, 12066, 11800, 25000, 25001};
    printf("\nA quantized coordinate, tick by tick (reference = previous value)\n");
    printf("  %6s  %10s  %8s  %12s  %12s\n", "tick", "value", "delta", "varint bits", "packed bits");
    size_t total_varint = 0, total_packed = 0;
    for (size_t i = 1; i < sizeof track / sizeof track[0]; i++) {
        int32_t d = track[i] - track[i - 1];
        size_t vbits = 8 * ns_varint_size(ns_zigzag32(d));
        size_t pbits = packed_delta_bits(track[i], track[i - 1]);
        total_varint += vbits;
        total_packed += pbits;
        printf("  %6zu  %10d  %+8d  %12zu  %12zu\n", i, track[i], d, vbits, pbits);
    }
    printf("  %6s  %10s  %8s  %12zu  %12zu   (raw: %zu)\n", "total", "", "", total_varint,
           total_packed, 32 * (sizeof track / sizeof track[0] - 1));
}

static void print_prediction(void)
{
    ns_predictor p;
    ns_predictor_init(&p, 30, 29, 28, 31);
    int32_t v2 = 12016, v1 = 12033, v0 = 12049, now = 12066;
    int32_t ref = ns_predict_i32(&p, v0, v1, v2);
    printf("\nPredicting from three acked baselines (ticks 28, 29, 30 → 31)\n");
    printf("  baselines %d, %d, %d  predict %d  actual %d  delta %+d  packed bits %zu"
           "  (vs baseline 0: %zu)\n", v2, v1, v0, ref, now, now - ref,
           packed_delta_bits(now, ref), packed_delta_bits(now, v0));
}

int main(void)
{
    printf("netschema %s — packed integer model (docs/wire.md section 1)\n\n", NS_VERSION_STRING);
    print_values();
    print_deltas();
    print_prediction();
    return 0;
}
