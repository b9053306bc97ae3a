/* game.c — the one rule of the game that the server plays and each client predicts: how a player
 * moves by its input. It works on the player's snapshot, so that the server and the client that
 * predicts its player run the same code on the same bytes and agree to the bit. */
#include <math.h>

#include "arena.h"

void player_move(arena_Transform_snap *body, const arena_PlayerInput *in)
{
    arena_Transform t;
    arena_Transform_init(&t);
    arena_Transform_dequantize(body, &t);
    ns_vec3 p = t.position, v = {in->move.x * PLAYER_SPEED, 0, in->move.y * PLAYER_SPEED};
    p.x += v.x * GAME_DT, p.z += v.z * GAME_DT;
    if (fabsf(p.x) > ARENA_HALF) p.x = copysignf(ARENA_HALF, p.x), v.x = -v.x; /* bounce off the walls */
    if (fabsf(p.z) > ARENA_HALF) p.z = copysignf(ARENA_HALF, p.z), v.z = -v.z;
    t.position = p, t.velocity = v;
    bool moving = v.x != 0 || v.z != 0;
    if (moving) { /* it faces where it goes */
        float yaw = atan2f(v.x, v.z);
        t.rotation = (ns_quat){0, sinf(yaw / 2), 0, cosf(yaw / 2)};
    }
    uint64_t facing = body->rotation;
    arena_Transform_quantize(&t, body);
    if (!moving) body->rotation = facing; /* kept as it was, bit for bit */
}
