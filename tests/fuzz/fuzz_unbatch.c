/* fuzz_unbatch.c — libFuzzer target: any bytes through the unbatcher (batch.h) and the reliable
 * channel's frame reader (reliable.h). The first byte picks the mode:
 *   even: the input (after that byte) is one batch. A rejected batch must yield nothing; an
 *         accepted one must yield messages that lie inside it and add up to it exactly.
 *   odd:  the input is a batch whose messages are frames for a reliable channel that has sent
 *         and received a few messages. A rejected frame must leave the channel exactly as it
 *         was (same counters, same ack frame); delivered messages must fit max_message. A
 *         channel with quiet frames (quiet_after) reads each the same way.
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined, and replayed over
 * generated inputs by tests/runtime/test_fuzz_unbatch.c in every test run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <netschema/netschema.h>

#define FUZZ_WINDOW 16u
#define FUZZ_MAX_MESSAGE 32u

static void check_batch(const uint8_t *data, size_t size)
{
    ns_unbatcher u;
    ns_status s = ns_unbatcher_init(&u, data, size);
    const uint8_t *m;
    size_t len, total = NS_BATCH_TIMESTAMP_BYTES;
    uint32_t count = 0;
    uint64_t ts;
    while (ns_unbatcher_next(&u, &m, &len, &ts)) {
        if (len == 0 || m < data || m + len > data + size) abort();
        if (ts != ns_unbatcher_timestamp(&u)) abort();
        total += len + ns_varint_size(len);
        count++;
    }
    if (s == NS_OK && (total != size || count != ns_unbatcher_count(&u) || count == 0)) abort();
    if (s != NS_OK && count != 0) abort();
}

/* A channel that sent 5 messages (the peer acked none) and received 0, 1 and 3. */
static ns_reliable *make_channel(uint32_t quiet_after)
{
    ns_reliable_config cfg = {.window = FUZZ_WINDOW, .max_message = FUZZ_MAX_MESSAGE, .resend_interval = 1000000,
                              .quiet_after = quiet_after};
    ns_reliable *ch = NULL;
    if (ns_reliable_create(&cfg, &ch) != NS_OK) abort();
    for (int i = 0; i < 5; i++)
        if (ns_reliable_send(ch, "msg", 3) != NS_OK) abort();
    uint8_t frame[64];
    size_t n;
    if (ns_reliable_write(ch, 0, frame, sizeof frame, &n) != NS_OK) abort();
    static const uint8_t in[] = {0, 0, 0, 3, 0, 0, 1, 'a', 0, 1, 'b', 1, 1, 'd'};
    if (ns_reliable_read(ch, in, sizeof in) != NS_OK) abort();
    return ch;
}

static void check_frames(const uint8_t *data, size_t size)
{
    ns_unbatcher u;
    if (ns_unbatcher_init(&u, data, size) != NS_OK) return;
    ns_reliable *ch = make_channel(0), *quiet = make_channel(2);
    const uint8_t *frame;
    size_t len;
    while (ns_unbatcher_next(&u, &frame, &len, NULL)) {
        uint8_t before[256], after[256];
        size_t nb, na;
        ns_reliable_stats sb = ns_reliable_get_stats(ch);
        if (ns_reliable_write(ch, 0, before, sizeof before, &nb) != NS_OK) abort();
        /* A copy of exactly the frame's length, so ASan sees any read past its end. */
        uint8_t *exact = (uint8_t *)malloc(len);
        memcpy(exact, frame, len);
        ns_status s = ns_reliable_read(ch, exact, len);
        if (ns_reliable_read(quiet, exact, len) != s) abort();
        free(exact);
        if (s != NS_OK) {
            ns_reliable_stats sa = ns_reliable_get_stats(ch);
            if (memcmp(&sa, &sb, sizeof sa) != 0) abort();
            if (ns_reliable_write(ch, 0, after, sizeof after, &na) != NS_OK) abort();
            if (na != nb || memcmp(after, before, na) != 0) abort();
        }
        const uint8_t *m;
        size_t mlen;
        while (ns_reliable_receive(ch, &m, &mlen))
            if (mlen == 0 || mlen > FUZZ_MAX_MESSAGE) abort();
        while (ns_reliable_receive(quiet, &m, &mlen))
            if (mlen == 0 || mlen > FUZZ_MAX_MESSAGE) abort();
    }
    ns_reliable_stats st = ns_reliable_get_stats(ch);
    if (st.in_flight > FUZZ_WINDOW || st.acked > st.sent) abort();
    ns_reliable_destroy(ch);
    ns_reliable_destroy(quiet);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1u) check_frames(data + 1, size - 1);
    else check_batch(data + 1, size - 1);
    return 0;
}
