#!/bin/sh
# Writes to $1 a schema with 60 errors (one unknown type per field): only the first 50 are shown,
# then a line says how many there were.
set -eu
awk 'BEGIN {
    print "// 60 errors: the first 50 are shown.";
    print "package game;";
    print "component Many {";
    for (i = 0; i < 60; i++) printf "    nosuchtype%02d f%02d;\n", i, i;
    print "}";
}' >"$1"
