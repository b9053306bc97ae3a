#!/bin/sh
# run_claims.sh — every C name the generated code defines is claimed by the checker, so that a
# schema whose types would collide with one is refused (E-name-collision) instead of producing C
# that does not compile.
#
#   run_claims.sh [--every K] NETSCHEMAC SCHEMA...
#
# Each schema (one file, no imports) is compiled in both codec modes; every identifier of the
# generated .ns.h and .ns.c that starts with the package prefix (<prefix>_X, or <PREFIX>_X for
# macros) is then declared once more by the user, as `struct X` (or `const X`, whose macro is
# <PREFIX>_X), in a copy of the schema: netschemac --check must refuse each copy, naming the
# collision. Names the schema itself declares are skipped (that is E-name-dup). With --every K
# only every K-th name is probed: the sanitizer build does that, to run the checker under ASan
# and UBSan without repeating all of the other build's thousands of runs.
set -u
every=1
if [ "${1:-}" = --every ]; then every=$2; shift 2; fi
[ "$every" -ge 1 ] 2>/dev/null || { echo "run_claims.sh: --every needs a count of 1 or more"; exit 2; }
nsc=$1
shift
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0 checked=0 seen=0
for schema in "$@"; do
    pkg=$(sed -n 's/^package  *\([A-Za-z0-9_.]*\) *;.*/\1/p' "$schema" | head -n 1)
    prefix=$(printf '%s' "$pkg" | tr . _)
    upper=$(printf '%s' "$prefix" | tr a-z A-Z)
    declared=$(sed -n 's/^ *\(extern  *\)\{0,1\}\(struct\|component\|input\|rpc\|union\|enum\|const\)  *\([A-Za-z0-9_]*\).*/\3/p' "$schema")
    rm -rf "$tmp/out" && mkdir "$tmp/out"
    for mode in inline table; do
        "$nsc" --codec $mode -o "$tmp/out/$mode" "$schema" >"$tmp/err" 2>&1 || { echo "FAIL: $schema: netschemac --codec $mode"; cat "$tmp/err"; failures=$((failures + 1)); }
    done
    cat "$tmp"/out/*/*.ns.[ch] | grep -o "\\b${prefix}_[A-Za-z0-9_]*" | sort -u | sed "s/^${prefix}_/struct /" >"$tmp/names"
    cat "$tmp"/out/*/*.ns.[ch] | grep -o "\\b${upper}_[A-Za-z0-9_]*" | sort -u | sed "s/^${upper}_/const /" >>"$tmp/names"
    while read -r kind name; do
        skip=0
        for d in $declared; do [ "$d" = "$name" ] && skip=1; done
        [ $skip = 1 ] && continue
        seen=$((seen + 1))
        [ $((seen % every)) = 0 ] || continue
        if [ "$kind" = struct ]; then line="struct $name { u8 a; }" c=${prefix}_$name; else line="const $name = 1;" c=${upper}_$name; fi
        { cat "$schema"; echo "$line"; } >"$tmp/probe.netschema"
        "$nsc" --check "$tmp/probe.netschema" >"$tmp/err" 2>&1
        rc=$?
        # A file name such as <prefix>_extern.h, not a C name: its rest is no schema name.
        grep -q "is a keyword and cannot be a name" "$tmp/err" && continue
        checked=$((checked + 1))
        if [ $rc = 0 ] || ! grep -q "would be generated twice" "$tmp/err"; then
            echo "FAIL: $schema: '$line' is not refused as a collision with $c:"
            head -n 3 "$tmp/err"
            failures=$((failures + 1))
        fi
    done <"$tmp/names"
done
echo "run_claims: $checked generated names, $failures not claimed"
[ $failures = 0 ] && [ $checked -gt 0 ]
