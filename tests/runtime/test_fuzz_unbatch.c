/* test_fuzz_unbatch.c — replays the fuzz target tests/fuzz/fuzz_unbatch.c over generated inputs
 * in every test run (libFuzzer itself only runs under `make fuzz`): batches and reliable frames
 * built to be nearly valid, then cut, bit-flipped or spliced, plus plain random bytes. The target
 * aborts on any broken invariant; ASan and UBSan catch reads past the end. */
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz_unbatch.c"
#include "ns_test.h"

enum { MAX_INPUT = 600 };

static size_t put_varint(uint8_t *buf, size_t pos, size_t cap, uint64_t v)
{
    return pos + ns_varint_encode(buf + pos, pos < cap ? cap - pos : 0, v);
}

/* A reliable frame with plausible fields for the channel fuzz_unbatch.c builds. */
static size_t make_frame(ns_rng *rng, uint8_t *buf, size_t cap)
{
    size_t pos = 0;
    uint16_t ack = (uint16_t)ns_rng_below(rng, 7);
    buf[pos++] = (uint8_t)ack;
    buf[pos++] = 0;
    pos = put_varint(buf, pos, cap, ns_rng_below(rng, 4) == 0 ? ns_rng_next(rng) & 0xf : 0);
    uint32_t count = (uint32_t)ns_rng_below(rng, 5);
    pos = put_varint(buf, pos, cap, count);
    for (uint32_t k = 0; k < count && pos + 50 < cap; k++) {
        if (k == 0) {
            buf[pos++] = (uint8_t)ns_rng_below(rng, 20);
            buf[pos++] = 0;
        } else {
            pos = put_varint(buf, pos, cap, ns_rng_below(rng, 3));
        }
        size_t len = 1 + (size_t)ns_rng_below(rng, 40);
        pos = put_varint(buf, pos, cap, len);
        for (size_t i = 0; i < len; i++) buf[pos++] = (uint8_t)ns_rng_next(rng);
    }
    return pos;
}

/* A batch (behind the mode byte) of random messages, or of reliable frames. */
static size_t make_input(ns_rng *rng, uint8_t *buf, bool frames)
{
    size_t pos = 0;
    buf[pos++] = frames ? 1 : 0;
    uint64_t ts = ns_rng_next(rng);
    memcpy(buf + pos, &ts, 8);
    pos += 8;
    uint32_t count = 1 + (uint32_t)ns_rng_below(rng, 4);
    for (uint32_t k = 0; k < count && pos + 140 < MAX_INPUT; k++) {
        uint8_t msg[128];
        size_t len = frames ? make_frame(rng, msg, sizeof msg) : 1 + (size_t)ns_rng_below(rng, 130 - 2);
        if (!frames)
            for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)ns_rng_next(rng);
        pos = put_varint(buf, pos, MAX_INPUT, len);
        memcpy(buf + pos, msg, len);
        pos += len;
    }
    return pos;
}

/* Cuts, flips bits, overwrites or duplicates a stretch: the kinds of damage libFuzzer does. */
static size_t mutate(ns_rng *rng, uint8_t *buf, size_t len)
{
    int edits = (int)ns_rng_below(rng, 4);
    for (int e = 0; e < edits && len > 1; e++) {
        size_t at = 1 + (size_t)ns_rng_below(rng, len - 1);
        switch (ns_rng_below(rng, 4)) {
        case 0: len = at; break;
        case 1: buf[at] ^= (uint8_t)(1u << ns_rng_below(rng, 8)); break;
        case 2: buf[at] = (uint8_t)ns_rng_next(rng); break;
        default: {
            size_t n = (size_t)ns_rng_below(rng, 8);
            if (len + n <= MAX_INPUT) {
                memmove(buf + at + n, buf + at, len - at);
                len += n;
            }
        }
        }
    }
    return len;
}

START_TEST(replay_generated_inputs)
{
    ns_rng rng = {31337};
    uint8_t buf[MAX_INPUT];
    for (int i = 0; i < 60000; i++) {
        size_t len;
        if (i % 10 == 0) {
            len = (size_t)ns_rng_below(&rng, 64);
            for (size_t k = 0; k < len; k++) buf[k] = (uint8_t)ns_rng_next(&rng);
        } else {
            len = mutate(&rng, buf, make_input(&rng, buf, i % 2 == 1));
        }
        /* An exact-size copy, so a read past the end is caught. */
        uint8_t *exact = malloc(len ? len : 1);
        memcpy(exact, buf, len);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
}
END_TEST

static Suite *fuzz_suite(void)
{
    Suite *s = suite_create("fuzz_unbatch");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, replay_generated_inputs);
    suite_add_tcase(s, tc);
    return s;
}

NS_TEST_MAIN(fuzz_suite)
