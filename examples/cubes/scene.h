/* scene.h — a small deterministic physics scene: cubes on a floor, pushed by a player cube. */
#ifndef CUBES_SCENE_H
#define CUBES_SCENE_H

#include <stdbool.h>

#include "cubes.ns.h"

#define SCENE_CUBES 901 /* 30 x 30 cubes and the player (cube 0) */

typedef struct body {
    ns_vec3 velocity;
    float   spin;       /* radians per second around the vertical axis */
    bool    moving;
} body;

typedef struct scene {
    cubes_Cube cube[SCENE_CUBES];
    body       body[SCENE_CUBES];
    unsigned   tick;
    unsigned   seed;
} scene;

/* Lays the cubes out on the floor, at rest. */
void scene_init(scene *s);

/* Advances one tick (1/60 s). */
void scene_step(scene *s);

/* Cubes moving this tick. */
unsigned scene_moving(const scene *s);

#endif
