/* scene.c — the cube world's physics (see scene.h): gravity, a floor with bounce and friction,
 * tumbling cubes that settle flat on a face, a player cube that drives and rolls through the
 * field, and pushes passed on from cube to cube through a 1 m grid. Not a rigid-body solver:
 * just enough to give the frame-to-frame motion the challenge data has (slow settling cubes,
 * a few fast ones, most at rest). */
#include "scene.h"

#include <math.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define HALF 0.25f        /* half size of a small cube, metres */
#define PLAYER_HALF 0.75f /* half size of the player cube */
#define GRID 64

static float frand(scene *s) /* 0..1 */
{
    s->rng = s->rng * 6364136223846793005u + 1442695040888963407u;
    return (float)(s->rng >> 40) / 16777216.0f;
}

static void quat_mul(const float a[4], const float b[4], float out[4])
{
    float r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

static void quat_normalize(float q[4])
{
    float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= n;
}

/* Rotates q by the rotation vector r (axis times angle, radians). */
static void quat_rotate(float q[4], const float r[3])
{
    float angle = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    if (angle < 1e-7f) return;
    float sn = sinf(angle / 2) / angle;
    float d[4] = {r[0] * sn, r[1] * sn, r[2] * sn, cosf(angle / 2)};
    quat_mul(d, q, q);
    quat_normalize(q);
}

/* The rotation vector that turns the cube's most vertical face normal to exactly vertical:
 * zero when it lies flat. */
static void to_flat(const float q[4], float r[3])
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    /* The three local axes in world coordinates (the columns of the rotation matrix). */
    float col[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                       {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                       {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    int best = 0;
    for (int k = 1; k < 3; k++)
        if (fabsf(col[k][2]) > fabsf(col[best][2])) best = k;
    float u[3] = {col[best][0], col[best][1], col[best][2]};
    if (u[2] < 0) u[0] = -u[0], u[1] = -u[1], u[2] = -u[2];
    /* axis = u x (0,0,1) = (u.y, -u.x, 0); angle = acos(u.z) */
    float s = sqrtf(u[0] * u[0] + u[1] * u[1]);
    float angle = acosf(fminf(1.0f, u[2]));
    if (s < 1e-7f) {
        r[0] = r[1] = r[2] = 0;
        return;
    }
    r[0] = u[1] / s * angle, r[1] = -u[0] / s * angle, r[2] = 0;
}

void scene_init(scene *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->rng = seed * 0x9E3779B97F4A7C15u + 1;
    for (int i = 1; i < SCENE_CUBES; i++) {
        body *b = &s->body[i];
        int k = i - 1;
        b->p[0] = (float)(k % 30 - 15) * 1.0f + 0.5f;
        b->p[1] = (float)(k / 30 - 15) * 1.0f + 0.5f;
        b->p[2] = HALF;
        float yaw = (frand(s) - 0.5f) * 0.6f;
        b->q[2] = sinf(yaw / 2), b->q[3] = cosf(yaw / 2);
        b->touched = 1000;
    }
    body *p = &s->body[0];
    p->p[0] = -22, p->p[1] = -22, p->p[2] = PLAYER_HALF;
    p->q[3] = 1;
    p->awake = true;
    s->heading = 0.8f;
}

static int cell_of(const float p[3])
{
    int cx = (int)floorf(p[0]) + GRID / 2, cy = (int)floorf(p[1]) + GRID / 2;
    if (cx < 0) cx = 0;
    if (cx >= GRID) cx = GRID - 1;
    if (cy < 0) cy = 0;
    if (cy >= GRID) cy = GRID - 1;
    return cy * GRID + cx;
}

static void wake(body *b, int touched)
{
    if (!b->awake || touched < b->touched) b->touched = touched;
    b->awake = true;
}

/* Player drives: steady speed, a slowly wandering heading, turned back towards the middle near
 * the walls; it rolls as it goes. */
static void drive(scene *s)
{
    body *p = &s->body[0];
    s->steer += (frand(s) - 0.5f) * 0.25f;
    s->steer *= 0.97f;
    float dist = sqrtf(p->p[0] * p->p[0] + p->p[1] * p->p[1]);
    if (dist > 20) {
        float home = atan2f(-p->p[1], -p->p[0]);
        float d = remainderf(home - s->heading, 6.2831853f);
        s->steer = d * 1.5f;
    }
    s->heading += s->steer * DT;
    float speed = 6.0f + 2.0f * sinf((float)s->tick * 0.013f);
    p->v[0] = cosf(s->heading) * speed, p->v[1] = sinf(s->heading) * speed;
    p->w[0] = -p->v[1] / PLAYER_HALF * 0.5f, p->w[1] = p->v[0] / PLAYER_HALF * 0.5f, p->w[2] = s->steer;
    if (p->p[2] <= PLAYER_HALF + 1e-4f && frand(s) < 0.004f) p->v[2] = 4.0f; /* an occasional hop */
    p->touched = 0;
}

/* Pushes cube j out of the way of cube i (the player when i == 0). */
static void push(scene *s, int i, int j)
{
    body *a = &s->body[i], *b = &s->body[j];
    float reach = (i == 0 ? PLAYER_HALF : HALF) + HALF;
    float dx = b->p[0] - a->p[0], dy = b->p[1] - a->p[1], dz = b->p[2] - a->p[2];
    float d2 = dx * dx + dy * dy;
    if (d2 >= reach * reach || fabsf(dz) > reach) return;
    float d = sqrtf(d2) + 1e-4f, nx = dx / d, ny = dy / d;
    float rel = (a->v[0] - b->v[0]) * nx + (a->v[1] - b->v[1]) * ny; /* closing speed */
    /* Separate them, mostly by moving the lighter (the pushed) cube. */
    float overlap = reach - d;
    b->p[0] += nx * overlap * (i == 0 ? 1.0f : 0.5f);
    b->p[1] += ny * overlap * (i == 0 ? 1.0f : 0.5f);
    if (i != 0) a->p[0] -= nx * overlap * 0.5f, a->p[1] -= ny * overlap * 0.5f;
    if (rel <= 0.05f && b->awake) return;
    float kick = rel > 0 ? rel : 0;
    float e = i == 0 ? 1.5f : 0.8f;
    b->v[0] += nx * kick * e + (frand(s) - 0.5f) * kick * 0.3f;
    b->v[1] += ny * kick * e + (frand(s) - 0.5f) * kick * 0.3f;
    if (i == 0 && frand(s) < 0.25f) b->v[2] += 1.0f + frand(s) * 3.0f;
    if (i != 0) a->v[0] -= nx * kick * 0.4f, a->v[1] -= ny * kick * 0.4f;
    /* Tumble about the horizontal axis across the push, plus some noise. */
    float spin = kick / HALF * (0.5f + frand(s) * 0.9f);
    b->w[0] += -ny * spin + (frand(s) - 0.5f) * spin * 0.4f;
    b->w[1] += nx * spin + (frand(s) - 0.5f) * spin * 0.4f;
    b->w[2] += (frand(s) - 0.5f) * spin * 0.6f;
    wake(b, a->touched + 1);
}

static void integrate(scene *s, int i)
{
    body *b = &s->body[i];
    float half = i == 0 ? PLAYER_HALF : HALF;
    b->v[2] -= 9.81f * DT;
    for (int k = 0; k < 3; k++) b->p[k] += b->v[k] * DT;
    for (int k = 0; k < 2; k++)
        if (fabsf(b->p[k]) > 31.0f) b->p[k] = copysignf(31.0f, b->p[k]), b->v[k] = -b->v[k] * 0.5f;
    /* A tilted cube stands higher: its centre is its half extent along z above the floor. */
    float ground = half;
    if (i != 0) {
        const float *q = b->q;
        float x = q[0], y = q[1], z = q[2], w = q[3];
        ground = half * (fabsf(2 * (x * z - w * y)) + fabsf(2 * (y * z + w * x)) + fabsf(1 - 2 * (x * x + y * y)));
    }
    bool floor = b->p[2] <= ground;
    if (floor) {
        b->p[2] = ground;
        b->v[2] = b->v[2] < -1.0f ? -b->v[2] * 0.3f : 0.0f;
    }
    if (i == 0) {
        quat_rotate(b->q, (float[3]){b->w[0] * DT, b->w[1] * DT, b->w[2] * DT});
        return;
    }
    if (floor) {
        b->v[0] *= 0.975f, b->v[1] *= 0.975f;
        for (int k = 0; k < 3; k++) b->w[k] *= 0.94f;
        /* Tip over onto the nearest face. */
        float r[3];
        to_flat(b->q, r);
        for (int k = 0; k < 3; k++) r[k] *= 0.08f;
        quat_rotate(b->q, r);
    } else {
        for (int k = 0; k < 3; k++) b->w[k] *= 0.995f;
    }
    quat_rotate(b->q, (float[3]){b->w[0] * DT, b->w[1] * DT, b->w[2] * DT});
    float speed = fabsf(b->v[0]) + fabsf(b->v[1]) + fabsf(b->v[2]);
    float spin = fabsf(b->w[0]) + fabsf(b->w[1]) + fabsf(b->w[2]);
    if (floor && speed < 0.03f && spin < 0.05f) {
        float r[3];
        to_flat(b->q, r);
        if (fabsf(r[0]) + fabsf(r[1]) < 0.002f) {
            memset(b->v, 0, sizeof b->v), memset(b->w, 0, sizeof b->w);
            b->awake = false;
        }
    }
}

void scene_step(scene *s)
{
    drive(s);
    for (int c = 0; c < GRID * GRID; c++) s->cell_head[c] = -1;
    for (int i = 0; i < SCENE_CUBES; i++) {
        int c = cell_of(s->body[i].p);
        s->cell_next[i] = s->cell_head[c];
        s->cell_head[c] = i;
    }
    for (int i = 0; i < SCENE_CUBES; i++) {
        body *a = &s->body[i];
        if (!a->awake) continue;
        int reach = i == 0 ? 2 : 1;
        int cx = cell_of(a->p) % GRID, cy = cell_of(a->p) / GRID;
        for (int y = cy - reach; y <= cy + reach; y++)
            for (int x = cx - reach; x <= cx + reach; x++) {
                if (x < 0 || y < 0 || x >= GRID || y >= GRID) continue;
                for (int j = s->cell_head[y * GRID + x]; j >= 0; j = s->cell_next[j])
                    if (j != i && j != 0) push(s, i, j);
            }
    }
    for (int i = 0; i < SCENE_CUBES; i++)
        if (s->body[i].awake) {
            integrate(s, i);
            if (i != 0 && s->body[i].touched < 1000) s->body[i].touched++;
        }
    s->tick++;
}

static int32_t clampi(long v, long lo, long hi)
{
    return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

void scene_frame(const scene *s, frame *out)
{
    for (int i = 0; i < SCENE_CUBES; i++) {
        const body *b = &s->body[i];
        cref_cube *c = &out->cube[i];
        /* Smallest three, as the challenge's data: largest made positive, the others mapped from
         * -1/sqrt(2)..1/sqrt(2) to 0..511. */
        const float *q = b->q;
        int largest = 0;
        for (int k = 1; k < 4; k++)
            if (fabsf(q[k]) > fabsf(q[largest])) largest = k;
        float sign = q[largest] < 0 ? -1.0f : 1.0f;
        int32_t code[3];
        for (int k = 0, n = 0; k < 4; k++) {
            if (k == largest) continue;
            double v = (double)(q[k] * sign);
            code[n++] = clampi((long)floor((v + 0.70710678118654752) / 1.4142135623730950 * 511.0 + 0.5), 0, 511);
        }
        c->largest = largest;
        c->a = code[0], c->b = code[1], c->c = code[2];
        c->x = clampi(lroundf(b->p[0] * 512.0f), -16383, 16383);
        c->y = clampi(lroundf(b->p[1] * 512.0f), -16383, 16383);
        c->z = clampi(lroundf(b->p[2] * 512.0f), 0, 8191);
        c->interacting = i == 0 || (b->awake && b->touched < 60);
    }
}

unsigned scene_moving(const scene *s)
{
    unsigned n = 0;
    for (int i = 0; i < SCENE_CUBES; i++) n += s->body[i].awake;
    return n;
}
