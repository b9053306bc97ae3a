#!/bin/sh
# compile_scaling.sh — netschemac's time and peak memory against schema size: `--check` and
# `-o DIR` on generated schemas of several sizes (bench/big_schema.sh), one row each, with
# memory per input byte and output size. Checking and emitting are linear: the seconds per MiB
# and bytes per input byte should stay flat as the size grows (idl/SPEC.md section 8).
#
#     bench/compile_scaling.sh [NETSCHEMAC] [SIZES_MIB] [VARIANTS]
#     bench/compile_scaling.sh build/compiler/netschemac "1 5 20" "structs components"
#
# Needs GNU time (/usr/bin/time -v) for the peak resident set size. Not part of `make test`:
# 20 MiB takes tens of seconds. Build netschemac in Release for meaningful times.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nsc=${1:-$here/../build/compiler/netschemac}
sizes=${2:-1 5 20}
variants=${3:-structs components}
[ -x "$nsc" ] || { echo "compile_scaling.sh: no netschemac at $nsc (build first, or pass its path)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "compile_scaling.sh: needs GNU time at /usr/bin/time" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# Runs a command; prints "wall_seconds cpu_seconds peak_kib" (CPU: user + system, which a busy
# machine does not inflate the way it does wall time).
measure() {
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time" >&2; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
                /User time \(seconds\)/ || /System time \(seconds\)/ { cpu += $2 }
                /Maximum resident set size/ { kb = $2 }
                END { printf "%.2f %.2f %d\n", s, cpu, kb }' "$work/time"
}

printf '%-10s %5s | %7s %7s %8s %5s | %7s %7s %8s %5s %10s\n' variant MiB "check s" "cpu s" "peak MiB" "B/B" \
    "emit s" "cpu s" "peak MiB" "B/B" "output MiB"
for v in $variants; do
    for mb in $sizes; do
        "$here/big_schema.sh" "$mb" "$v" >"$work/big.netschema"
        in=$(wc -c <"$work/big.netschema")
        set -- $(measure "$nsc" --check "$work/big.netschema"); cs=$1; cc=$2; ck=$3
        rm -rf "$work/out" && mkdir "$work/out"
        set -- $(measure "$nsc" -o "$work/out" "$work/big.netschema"); es=$1; ec=$2; ek=$3
        out=$(cat "$work/out"/* | wc -c)
        awk -v v="$v" -v mb="$mb" -v inb="$in" -v cs="$cs" -v cc="$cc" -v ck="$ck" -v es="$es" -v ec="$ec" -v ek="$ek" \
            -v out="$out" 'BEGIN {
            printf "%-10s %5s | %7.2f %7.2f %8.1f %5.1f | %7.2f %7.2f %8.1f %5.1f %10.1f\n", v, mb, cs, cc, ck / 1024,
                   ck * 1024 / inb, es, ec, ek / 1024, ek * 1024 / inb, out / 1048576 }'
        rm -rf "$work/out"
    done
done
