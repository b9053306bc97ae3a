/* frames.h — the challenge's frame files (README.md beside this file): no header, frames of 901 cubes, each cube
 * 8 little-endian int32 (largest, a, b, c, x, y, z, interacting), 28,832 bytes per frame.
 * Reading checks the size and every value's range, so a malformed file is refused with a
 * message that names the frame, the cube and the field. */
#ifndef CUBES_FRAMES_H
#define CUBES_FRAMES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cubes_reference.h"
#include "cubes.ns.h"

#define FRAME_CUBES CREF_CUBES
#define FRAME_BYTES (FRAME_CUBES * 8 * 4)

typedef struct frame {
    cref_cube cube[FRAME_CUBES];
} frame;

/* Checks and decodes `len` bytes of a frame file into frames (allocated, *count of them).
 * Returns 0, or -1 with a message in err. The caller frees *out. */
int frames_parse(const uint8_t *bytes, size_t len, frame **out, size_t *count, char *err, size_t errcap);

/* Reads and parses a whole file; the message in err starts with the path. */
int frames_load(const char *path, frame **out, size_t *count, char *err, size_t errcap);

/* Writes frames in the challenge format. Returns 0, or -1 on an I/O error. */
int frames_write(FILE *f, const frame *frames, size_t count);

/* The cube as the schema's snapshot, and back (both exact for values in range). */
void frames_to_snap(const cref_cube *c, cubes_Cube_snap *s);
void frames_from_snap(const cubes_Cube_snap *s, cref_cube *c);

#endif
