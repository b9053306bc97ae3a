// table_setters_cxx.cc — the setter macros of table-driven records (netschema/table.h) as C++17
// callers write them, braced values included, under the strict flags: compiled, never run.
#include "arrays.ns.h"
#include "mixed.ns.h"

void table_setters_cxx(mixed_Body *b, arr_Loadout *l);
void table_setters_cxx(mixed_Body *b, arr_Loadout *l)
{
    mixed_Body_set_pos(b, ns_vec3{1.0f, 2.0f, 3.0f});
    mixed_Body_set_hp(b, 7);
    mixed_Body_set_on(b, true);
    arr_Loadout_set_points(l, 1u, ns_vec3{1.0f, 2.0f, 3.0f});
    arr_Loadout_set_ammo(l, 0u, 5);
    if (mixed_Body_is_dirty(b)) mixed_Body_clear_dirty(b);
    if (arr_Loadout_is_dirty(l)) arr_Loadout_clear_dirty(l);
}
