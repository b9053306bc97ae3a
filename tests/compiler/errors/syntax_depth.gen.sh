#!/bin/sh
# Writes to $1 a constant wrapped in 20000 parentheses: deeper than the parser's stack.
set -eu
awk 'BEGIN {
    print "// A constant expression nested 20000 parentheses deep.";
    print "package game;";
    s = "";
    for (i = 0; i < 20000; i++) s = s "(";
    t = "";
    for (i = 0; i < 20000; i++) t = t ")";
    print "const DEEP = " s "1" t ";";
    print "component Health { i32 hp; }";
}' >"$1"
