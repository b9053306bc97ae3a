#!/bin/sh
# Writes to $1 a component with 256 fields (the limit is 255) and a struct with exactly 255.
set -eu
awk 'BEGIN {
    print "// A component with 256 fields; the limit is 255.";
    print "package game;";
    print "component Big {";
    for (i = 0; i < 256; i++) printf "    u8 f%03d;\n", i;
    print "}";
    print "struct Fits {";
    for (i = 0; i < 255; i++) printf "    u8 f%03d;\n", i;
    print "}";
}' >"$1"
