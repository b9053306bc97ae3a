#!/bin/sh
# Writes to $1 a schema with 5 errors; too_many_errors_json.args asks for JSON and --max-errors 2.
set -eu
awk 'BEGIN {
    print "// 5 errors as JSON with --max-errors 2: only two objects are printed.";
    print "package game;";
    print "component Many {";
    for (i = 0; i < 5; i++) printf "    nosuchtype%02d f%02d;\n", i, i;
    print "}";
}' >"$1"
