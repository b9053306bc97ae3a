/* frames.c — reading, checking and writing the challenge's frame files (see frames.h). */
#include "frames.h"

#include <stdlib.h>
#include <string.h>

static const char *const field_name[8] = {"orientation_largest", "orientation_a", "orientation_b", "orientation_c",
                                          "position_x",          "position_y",    "position_z",    "interacting"};
static const int32_t field_lo[8] = {0, 0, 0, 0, -16383, -16383, 0, 0};
static const int32_t field_hi[8] = {3, 511, 511, 511, 16383, 16383, 8191, 1};

static int32_t le32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

int frames_parse(const uint8_t *bytes, size_t len, frame **out, size_t *count, char *err, size_t errcap)
{
    *out = NULL;
    *count = 0;
    if (len == 0 || len % FRAME_BYTES != 0) {
        snprintf(err, errcap,
                 "%zu bytes is not a whole number of frames (a frame is %d bytes: %d cubes x 8 little-endian int32)",
                 len, FRAME_BYTES, FRAME_CUBES);
        return -1;
    }
    size_t n = len / FRAME_BYTES;
    frame *f = malloc(n * sizeof *f);
    if (!f) {
        snprintf(err, errcap, "out of memory for %zu frames", n);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < FRAME_CUBES; c++) {
            const uint8_t *p = bytes + i * FRAME_BYTES + (size_t)c * 32;
            int32_t v[8];
            for (int k = 0; k < 8; k++) {
                v[k] = le32(p + 4 * k);
                if (v[k] < field_lo[k] || v[k] > field_hi[k]) {
                    snprintf(err, errcap, "frame %zu, cube %d: %s = %ld is outside %ld..%ld", i, c, field_name[k],
                             (long)v[k], (long)field_lo[k], (long)field_hi[k]);
                    free(f);
                    return -1;
                }
            }
            f[i].cube[c] = (cref_cube){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
        }
    *out = f;
    *count = n;
    return 0;
}

int frames_load(const char *path, frame **out, size_t *count, char *err, size_t errcap)
{
    *out = NULL;
    *count = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errcap, "%s: cannot open", path);
        return -1;
    }
    uint8_t *bytes = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : (size_t)FRAME_BYTES * 64;
            uint8_t *grown = realloc(bytes, cap);
            if (!grown) {
                free(bytes);
                fclose(fp);
                snprintf(err, errcap, "%s: out of memory", path);
                return -1;
            }
            bytes = grown;
        }
        size_t got = fread(bytes + len, 1, cap - len, fp);
        len += got;
        if (got == 0) break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(bytes);
        snprintf(err, errcap, "%s: read error", path);
        return -1;
    }
    char why[200];
    int rc = frames_parse(bytes, len, out, count, why, sizeof why);
    free(bytes);
    if (rc) snprintf(err, errcap, "%s: %s", path, why);
    return rc;
}

int frames_write(FILE *f, const frame *frames, size_t count)
{
    uint8_t buf[FRAME_BYTES];
    for (size_t i = 0; i < count; i++) {
        for (int c = 0; c < FRAME_CUBES; c++) {
            const cref_cube *q = &frames[i].cube[c];
            int32_t v[8] = {q->largest, q->a, q->b, q->c, q->x, q->y, q->z, q->interacting};
            for (int k = 0; k < 8; k++) {
                uint32_t u = (uint32_t)v[k];
                uint8_t *p = buf + c * 32 + 4 * k;
                p[0] = (uint8_t)u, p[1] = (uint8_t)(u >> 8), p[2] = (uint8_t)(u >> 16), p[3] = (uint8_t)(u >> 24);
            }
        }
        if (fwrite(buf, 1, sizeof buf, f) != sizeof buf) return -1;
    }
    return 0;
}

void frames_to_snap(const cref_cube *c, cubes_Cube_snap *s)
{
    s->orientation.largest = (uint8_t)c->largest;
    s->orientation.a = (uint16_t)c->a;
    s->orientation.b = (uint16_t)c->b;
    s->orientation.c = (uint16_t)c->c;
    s->position.x = (int16_t)c->x;
    s->position.y = (int16_t)c->y;
    s->position.z = (int16_t)c->z;
    s->interacting = c->interacting != 0;
}

void frames_from_snap(const cubes_Cube_snap *s, cref_cube *c)
{
    *c = (cref_cube){s->orientation.largest, s->orientation.a, s->orientation.b, s->orientation.c,
                     s->position.x,          s->position.y,    s->position.z,    s->interacting ? 1 : 0};
}
