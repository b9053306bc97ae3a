/* prediction.c — a client predicts its own player: it applies each of its inputs at once with the
 * game's own rule (player_move, game.c), keeps the inputs and the predicted states in an
 * ns_prediction ring, and when the server's state of its player arrives, compares it with what it
 * predicted for the same input (the generated arena_Transform_prediction_error, gathered in an
 * ns_error_stats) and, if they differ, rolls back to the server's state and re-simulates the
 * inputs since (ns_prediction_rollback). The other entities are interpolated (client.c). */
#include <string.h>

#include "arena.h"

/* The server plays the input of client tick t at its tick t + input_delay: its state of tick s
 * is the result of the client's inputs up to s - input_delay. */
static uint32_t input_tick(const player_prediction *p, uint32_t server_tick)
{
    uint32_t delay = input_delay(&p->o->impair);
    return server_tick > delay ? server_tick - delay : 0;
}

/* ns_prediction's step: the input of client tick t, applied as the server will apply it. */
static void step(void *ctx, uint32_t tick, const void *input, void *state)
{
    const options *o = ctx;
    if (!input_played(o, tick)) return; /* the server plays it in the end's pause: nothing moves */
    arena_PlayerInput in;
    arena_PlayerInput_init(&in);
    arena_PlayerInput_dequantize((const arena_PlayerInput_snap *)input, &in);
    player_move((arena_Transform_snap *)state, &in);
}

bool prediction_init(player_prediction *p, const options *o)
{
    memset(p, 0, sizeof *p);
    p->o = o;
    return ns_prediction_init(&p->ring, p->store, sizeof(arena_Transform_snap), sizeof(arena_PlayerInput_snap),
                              PREDICTION_DEPTH) == NS_OK &&
           ns_error_stats_init(&p->errors, arena_Transform_prediction_error_names,
                               ARENA_TRANSFORM_PREDICTION_ERRORS) == NS_OK;
}

void prediction_correct(player_prediction *p, uint32_t server_tick, const arena_Transform_snap *authoritative)
{
    if (!p->active) { /* the first state of the player: from here on the client predicts it */
        arena_Transform_restore(&p->state, authoritative); /* its predicted fields: here, all of them */
        p->active = true;
        p->confirmed = server_tick;
        return;
    }
    if (server_tick - p->confirmed - 1 >= 0x80000000u) return; /* not newer than the last one */
    p->confirmed = server_tick;
    uint32_t t = input_tick(p, server_tick);
    /* A state from before the first predicted tick: no input of this client moved the player in
     * between (the bot stands still until it knows where its player is). */
    if (p->recorded && t - (p->first - 1) >= 0x80000000u) t = p->first - 1;
    const arena_Transform_snap *mine = ns_prediction_state(&p->ring, t);
    if (mine) {
        arena_Transform pv, av;
        arena_Transform_init(&pv), arena_Transform_init(&av);
        arena_Transform_dequantize(mine, &pv);
        arena_Transform_dequantize(authoritative, &av);
        float e[ARENA_TRANSFORM_PREDICTION_ERRORS];
        arena_Transform_prediction_error(&pv, &av, e);
        ns_error_stats_add(&p->errors, e);
        p->compared++;
        if (arena_Transform_snap_equal(mine, authoritative)) return; /* predicted right */
    }
    uint32_t n = 0;
    ns_status st = ns_prediction_rollback(&p->ring, t, authoritative, &p->state, step, (void *)p->o, &n);
    if (st == NS_ERR_STALE) { /* older than the ring: take the server's state as it is */
        arena_Transform_restore(&p->state, authoritative);
        p->stale++;
        return;
    }
    if (mine) p->rollbacks++;
    else p->adopted++;
    p->resimulated += n;
}

void prediction_step(player_prediction *p, uint32_t tick, const arena_PlayerInput_snap *input)
{
    if (!p->active) return;
    step((void *)p->o, tick, input, &p->state);
    ns_prediction_record(&p->ring, tick, input, &p->state);
    if (!p->recorded) p->first = tick, p->recorded = true;
}

bool prediction_settled(const player_prediction *p, const arena_Transform_snap *server_now)
{
    return p->active && arena_Transform_snap_equal(&p->state, server_now);
}
