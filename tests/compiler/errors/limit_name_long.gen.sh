#!/bin/sh
# Writes a schema to $1 whose names are one character over the limit (1000): a field name, and a
# dotted package whose parts are short but whose whole name is long. Generated code spells both
# in string literals, which C11 only guarantees up to 4095 characters.
set -eu
long=$(printf '%1001s' '' | tr ' ' f)
part=$(printf '%200s' '' | tr ' ' p)
{
    echo "package $part.$part.$part.$part.$part;"
    echo "struct S {"
    echo "    u8 $long;"
    echo "    u8 ${long%f};"
    echo "}"
} >"$1"
