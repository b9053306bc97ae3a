/* table_setter_types.c — compiled by table_setter_types.cmake: as is it must compile under the
 * strict flags; with -DWRONG_RECORD a setter macro is given another record, with -DCONST_RECORD a
 * const one, and each must be refused (netschema/table.h NS_TABLE_SET's check). */
#include "mixed.ns.h"

void set_some(mixed_Body *b, mixed_Plain *p, const mixed_Body *cb);
void set_some(mixed_Body *b, mixed_Plain *p, const mixed_Body *cb)
{
    mixed_Body_set_hp(b, 3);
#if defined(WRONG_RECORD)
    mixed_Body_set_hp(p, 3);
#elif defined(CONST_RECORD)
    mixed_Body_set_hp(cb, 3);
#endif
    (void)p;
    (void)cb;
}
