/* scene.c — the demo's physics: gravity, a floor, drag and friction, and a player cube that
 * drives in circles and knocks cubes out of its way. Deterministic, so runs compare. */
#include "scene.h"

#include <math.h>

#define DT (1.0f / 60.0f)

static float frand(scene *s)
{
    s->seed = s->seed * 1103515245u + 12345u;
    return (float)((s->seed >> 8) & 0xffff) / 65536.0f;
}

void scene_init(scene *s)
{
    s->tick = 0;
    s->seed = 1;
    for (int i = 0; i < SCENE_CUBES; i++) {
        cubes_Cube_init(&s->cube[i]);
        int k = i - 1;
        s->cube[i].position.x = i == 0 ? 0.0f : (float)(k % 30 - 15) * 1.2f;
        s->cube[i].position.y = 0.5f;
        s->cube[i].position.z = i == 0 ? 0.0f : (float)(k / 30 - 15) * 1.2f;
        s->body[i] = (body){{0, 0, 0}, 0, false};
    }
}

/* Rotates q by angle a around the vertical axis. */
static ns_quat spin(ns_quat q, float a)
{
    float c = cosf(a / 2), sn = sinf(a / 2);
    ns_quat r = {q.x * c + q.z * sn, q.y * c + q.w * sn, q.z * c - q.x * sn, q.w * c - q.y * sn};
    return ns_quat_normalize(r);
}

void scene_step(scene *s)
{
    /* The player drives a slow circle through the field. */
    float a = (float)s->tick * 0.01f;
    cubes_Cube *player = &s->cube[0];
    ns_vec3 target = {cosf(a) * 12.0f, 0.5f, sinf(a * 0.7f) * 12.0f};
    s->body[0].velocity = (ns_vec3){(target.x - player->position.x) * 2, 0, (target.z - player->position.z) * 2};
    s->body[0].moving = true;
    for (int i = 1; i < SCENE_CUBES; i++) {
        ns_vec3 *p = &s->cube[i].position;
        float dx = p->x - player->position.x, dz = p->z - player->position.z, d2 = dx * dx + dz * dz;
        if (d2 < 2.25f && p->y < 1.0f) {
            /* Knocked away, sometimes into the air, spinning. */
            float d = sqrtf(d2) + 1e-3f;
            s->body[i].velocity.x = dx / d * 4.0f;
            s->body[i].velocity.z = dz / d * 4.0f;
            if (frand(s) < 0.3f) s->body[i].velocity.y = 3.0f + frand(s) * 2.0f;
            s->body[i].spin = (frand(s) - 0.5f) * 6.0f;
            s->body[i].moving = true;
        }
    }
    for (int i = 0; i < SCENE_CUBES; i++) {
        body *b = &s->body[i];
        if (!b->moving) continue;
        cubes_Cube *c = &s->cube[i];
        if (i != 0) b->velocity.y -= 9.81f * DT;
        c->position.x += b->velocity.x * DT;
        c->position.y += b->velocity.y * DT;
        c->position.z += b->velocity.z * DT;
        if (c->position.y <= 0.5f) {
            c->position.y = 0.5f;
            b->velocity.y = b->velocity.y < -1.0f ? -b->velocity.y * 0.3f : 0.0f; /* a small bounce */
            b->velocity.x *= 0.96f, b->velocity.z *= 0.96f;                       /* friction */
            b->spin *= 0.95f;
        }
        c->orientation = spin(c->orientation, b->spin * DT);
        c->interacting = true;
        if (i != 0 && c->position.y <= 0.5f && fabsf(b->velocity.x) + fabsf(b->velocity.z) < 0.05f) {
            b->moving = false, b->velocity = (ns_vec3){0, 0, 0}, b->spin = 0;
            c->interacting = false;
        }
    }
    s->tick++;
}

unsigned scene_moving(const scene *s)
{
    unsigned n = 0;
    for (int i = 0; i < SCENE_CUBES; i++) n += s->body[i].moving;
    return n;
}
