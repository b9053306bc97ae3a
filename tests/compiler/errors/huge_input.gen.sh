#!/bin/sh
# Writes a ~10 MB schema to $1: a package line, 2000 valid components separated by long comment
# blocks, and one error at the very end (a field of unknown type).
set -eu
awk 'BEGIN {
    print "// A ~10 MB schema with one error at its end.";
    print "package huge;";
    pad = "// padding padding padding padding padding padding padding padding padding padding padding padding";
    for (i = 0; i < 2000; i++) {
        printf "component C%04d {\n    u32 a;\n    vec3 position @quantize(100);\n    string<16> name;\n}\n", i;
        for (k = 0; k < 50; k++) print pad;
    }
    print "component Last {";
    print "    u32 a;";
    print "    u23 b;";
    print "}";
}' >"$1"
