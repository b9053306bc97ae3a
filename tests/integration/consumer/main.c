/* main.c — a consumer of netschema: writes a unit and a chat message, reads them back, prints. */
#include <stdio.h>
#include <string.h>

#include "chat.ns.h"
#include "game.ns.h"

int main(void)
{
    game_Unit u;
    game_Unit_snap s, back;
    game_Unit_init(&u);
    u.at.x = 3, u.at.y = -4, u.team = common_Team_blue, u.hp = 42;
    game_Unit_path_add(&u, 7);
    game_Unit_path_add(&u, 9);
    game_Unit_quantize(&u, &s);

    uint8_t buf[GAME_UNIT_MAX_BYTES + CHAT_SAY_MAX_BYTES];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    chat_Say_snap say, heard;
    chat_Say m;
    chat_Say_init(&m);
    memcpy(m.text, "hello", sizeof "hello");
    chat_Say_quantize(&m, &say);
    if (game_Unit_write(&w, &s, NULL, NS_TO_OBSERVER) != NS_OK || chat_Say_write(&w, &say) != NS_OK) return 1;
    size_t n = ns_writer_flush(&w);

    ns_reader r;
    ns_reader_init(&r, buf, n);
    if (game_Unit_read(&r, &back, NULL, NS_TO_OBSERVER) != NS_OK || chat_Say_read(&r, &heard) != NS_OK) return 2;
    game_Unit_dequantize(&back, &u);
    printf("unit at %d,%d team %s hp %d path %u long; said \"%s\"; %zu bytes; schema %016llx\n", u.at.x, u.at.y,
           common_Team_name(u.team), u.hp, (unsigned)game_Unit_path_count(&u), heard.text, n,
           (unsigned long long)GAME_SCHEMA_HASH);
    return 0;
}
