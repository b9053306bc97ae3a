/* scene.h — the cube world of the bandwidth challenge: 900 small cubes on a floor and a player
 * cube (cube 0) that drives through them, knocking them about, so that the frames move like
 * those of Glenn Fiedler's networked physics demo (compare with `cubes encode`'s delta table).
 * Deterministic for a given seed: the same seed gives the same frames on every machine with
 * IEEE float arithmetic and the same libm. */
#ifndef CUBES_SCENE_H
#define CUBES_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "frames.h"

#define SCENE_CUBES FRAME_CUBES

typedef struct body {
    float p[3];      /* position, metres; z is up */
    float v[3];      /* velocity, metres per second */
    float q[4];      /* orientation x, y, z, w */
    float w[3];      /* angular velocity, radians per second */
    bool  awake;
    int   touched;   /* ticks since the player's push reached it (through other cubes too) */
} body;

typedef struct scene {
    body     body[SCENE_CUBES];
    float    heading, steer; /* the player's direction and turn rate */
    unsigned tick;
    uint64_t rng;
    int      cell_head[64 * 64]; /* broad phase: 1 m cells over the 64 m x 64 m floor */
    int      cell_next[SCENE_CUBES];
} scene;

/* Lays the cubes out at rest on a 30 x 30 grid; seed varies the player's path and the details. */
void scene_init(scene *s, uint64_t seed);

/* Advances one tick (1/60 s). */
void scene_step(scene *s);

/* The current state in the challenge's quantization. */
void scene_frame(const scene *s, frame *out);

/* Cubes awake this tick. */
unsigned scene_moving(const scene *s);

#endif
