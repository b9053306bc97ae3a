#!/bin/sh
# big_schema.sh — writes a large, valid schema to stdout, for measuring netschemac's time and
# memory against input size (bench/compile_scaling.sh; idl/SPEC.md section 8 quotes the results).
#
#     bench/big_schema.sh MEGABYTES [structs|components]
#
# structs:    one-field structs, `struct S123 { u32 a; }`, until the text reaches MEGABYTES MiB:
#             the most declarations per byte, so the worst case for per-declaration costs.
# components: the same structs in groups of 15, each group followed by a component holding one
#             field of each (`component C7 { S105 f0; ... S119 f14; }`), so the emitter's
#             per-component code (codecs, deltas, dispatch) is exercised too. One component per
#             ~590 bytes stays under the 65,536 type ids up to about 36 MiB.
# The output depends only on the arguments, so every measurement can be repeated.
set -eu
mb=${1:?usage: big_schema.sh MEGABYTES [structs|components]}
kind=${2:-structs}
case $kind in structs|components) ;; *) echo "big_schema.sh: unknown variant '$kind'" >&2; exit 2 ;; esac
awk -v mb="$mb" -v kind="$kind" 'BEGIN {
    limit = mb * 1048576
    line = "package big;\n"; n = length(line); printf "%s", line
    i = 0; c = 0
    while (n < limit) {
        line = sprintf("struct S%d { u32 a; }\n", i); n += length(line); printf "%s", line; i++
        if (kind == "components" && i % 15 == 0) {
            line = sprintf("component C%d {", c)
            for (f = 0; f < 15; f++) line = line sprintf(" S%d f%d;", i - 15 + f, f)
            line = line " }\n"; n += length(line); printf "%s", line; c++
        }
    }
}'
