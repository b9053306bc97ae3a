#!/bin/sh
# Writes to $1 an enum with 65537 values (the limit is 65536).
set -eu
awk 'BEGIN {
    print "// An enum with 65537 values; the limit is 65536.";
    print "package game;";
    print "enum Huge : u32 {";
    for (i = 0; i < 65537; i++) printf "    v%d,\n", i;
    print "}";
}' >"$1"
