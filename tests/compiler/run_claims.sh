#!/bin/sh
# run_claims.sh — every C name the generated code defines is claimed by the checker, so that a
# schema whose types would collide with one is refused (E-name-collision) instead of producing C
# that does not compile.
#
#   run_claims.sh NETSCHEMAC CLAIMS_PROBE SCHEMA...
#
# Each schema (one file, no imports) is compiled in both codec modes; every identifier of the
# generated .ns.h and .ns.c that starts with the package prefix (<prefix>_X, or <PREFIX>_X for
# macros) is then declared once more by the user, as `struct X` (or `const X`, whose macro is
# <PREFIX>_X), in a copy of the schema: the checker must refuse each copy, naming the collision.
# The copies are checked in one process per schema by CLAIMS_PROBE (claims_probe.c, the compiler
# library), not by a netschemac run each: thousands of process starts were most of this test's
# time. Names the schema itself declares are skipped (that is E-name-dup). The sanitizer build
# probes every name too: in one process a probe costs about a millisecond even under ASan.
set -u
nsc=$1 probe=$2
shift 2
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
case "$probe" in /*) ;; *) probe=$(pwd)/$probe ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0 checked=0
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
    : >"$tmp/probes"
    while read -r kind name; do
        skip=0
        for d in $declared; do [ "$d" = "$name" ] && skip=1; done
        [ $skip = 1 ] && continue
        if [ "$kind" = struct ]; then echo "struct $name { u8 a; }"; else echo "const $name = 1;"; fi >>"$tmp/probes"
    done <"$tmp/names"
    "$probe" "$schema" <"$tmp/probes" >"$tmp/verdicts" 2>&1
    rc=$?
    grep "^FAIL" "$tmp/verdicts" | head -n 30
    summary=$(sed -n 's/^claims_probe: \([0-9]*\) checked, \([0-9]*\) not claimed$/\1 \2/p' "$tmp/verdicts")
    if [ -z "$summary" ] || { [ $rc != 0 ] && [ $rc != 1 ]; }; then
        echo "FAIL: $schema: claims_probe exited $rc:"
        head -n 5 "$tmp/verdicts"
        failures=$((failures + 1))
        continue
    fi
    checked=$((checked + ${summary% *})) failures=$((failures + ${summary#* }))
done
echo "run_claims: $checked generated names, $failures not claimed"
[ $failures = 0 ] && [ $checked -gt 0 ]
