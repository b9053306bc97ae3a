#!/bin/sh
# run_strict.sh — edge-case schemas that netschemac must accept and whose generated C must build
# with the strict flags users compile with, as C11 and as C++17, under gcc and clang.
#
#   run_strict.sh NETSCHEMAC RUNTIME_INCLUDE_DIR DIR [--emit-only]
#
# Every DIR/*.netschema (and every DIR/*.gen.sh, a script that writes a schema to the path it is
# given: for inputs too long to keep as a file) is compiled with netschemac -o, in each codec mode
# (--codec inline and --codec table, and the table mode split over three sources with --split 3);
# every generated <stem>.ns*.c is then compiled by each of gcc, clang, g++ and clang++ that is
# installed (the split sources by two of them, below): by gcc and g++ with -O2 -c, so the
# warnings of gcc's optimizer count too; by clang and clang++ with -fsyntax-only, since clang
# warns only from its front end (its code generation took a fifth of this test's time).
# Under the sanitizer build netschemac itself runs with ASan and UBSan, which catch undefined
# behaviour in the emitter; that build passes --emit-only, which skips compiling the C: the other
# build of `make test` compiles the same bytes.
# At least one C compiler must exist.
# DIR is on the include path too: a schema with extern structs keeps its <prefix>_extern.h there.
# netschemac also writes a --depfile into a directory that does not exist yet: it must create it,
# as -o creates the output directory, and list the schema.
set -u
nsc=$1 include=$2 dir=$3 emit_only=${4:-}
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
include=$(cd "$include" && pwd) || exit 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

warnings="-Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror"
compilers=
for cc in gcc clang; do command -v $cc >/dev/null 2>&1 && compilers="$compilers $cc:c"; done
[ -n "$compilers" ] || { echo "FAIL: neither gcc nor clang is installed"; exit 1; }
for cxx in g++ clang++; do command -v $cxx >/dev/null 2>&1 && compilers="$compilers $cxx:c++"; done
# The split sources hold the table mode's code, which every compiler builds whole; each part must
# build on its own, which one C and one C++ compiler check (the first C and the last C++ compiler
# found: gcc and clang++, one of each family, when all four are there). They were 45% of this
# test's time with all four.
split_compilers=
for entry in $compilers; do case $entry in *:c) split_compilers=$entry; break ;; esac; done
for entry in $compilers; do case $entry in *:c++) cxx_last=$entry ;; esac; done
[ -n "${cxx_last-}" ] && split_compilers="$split_compilers $cxx_last"

failures=0 cases=0

# generate OUT DEPFILE [OPTION...]: netschemac OPTION... -o OUT --depfile DEPFILE on the current
# schema, which must succeed without a word; else a failure is counted and 1 returned.
generate() {
    gen_out=$1 gen_dep=$2
    shift 2
    "$nsc" "$@" -o "$gen_out" --depfile "$gen_dep" "$file" >"$tmp/err" 2>&1 && [ ! -s "$tmp/err" ] && return 0
    echo "FAIL: netschemac $* on $src:"
    head -c 4000 "$tmp/err"
    failures=$((failures + 1))
    return 1
}

# lists DEPFILE NAME: the depfile names NAME (a target or a schema read), else a failure.
lists() {
    grep -q "$2" "$1" && return 0
    echo "FAIL: $src: the depfile $1 does not list $2"
    failures=$((failures + 1))
}

cd "$dir" || exit 2
for src in *.netschema *.gen.sh; do
    [ -e "$src" ] || continue
    case "$src" in
        *.gen.sh) stem=${src%.gen.sh}; file=$tmp/$stem.netschema; sh "./$src" "$file" || exit 2 ;;
        *) stem=${src%.netschema}; file=$src ;;
    esac
    cases=$((cases + 1))
    out=$tmp/$stem
    generate "$out" "$tmp/$stem.deps/$stem.ns.d" || continue
    lists "$tmp/$stem.deps/$stem.ns.d" "$stem.netschema"
    generate "$out/table" "$tmp/$stem.table.d" --codec table || continue
    # The table mode once more, split over three sources (--split): each must build on its own.
    generate "$out/split" "$tmp/$stem.split.d" --codec table --split 3 || continue
    lists "$tmp/$stem.split.d" "$stem.ns.3.c"
    [ "$emit_only" = --emit-only ] && continue
    for gen in "$out" "$out/table" "$out/split"; do
        use=$compilers
        [ "$gen" = "$out/split" ] && use=$split_compilers
        for c in "$gen/$stem".ns*.c; do
            for entry in $use; do
                cc=${entry%:*} lang=${entry#*:}
                std=-std=c11
                [ "$lang" = c++ ] && std=-std=c++17
                # shellcheck disable=SC2086 # warnings is a word list on purpose
                build="-O2 -c -o $c.o"
                case $cc in clang*) build=-fsyntax-only ;; esac
                # shellcheck disable=SC2086 # build is a word list on purpose
                if ! $cc -x "$lang" $std $warnings $build -I"$include" -I"$gen" -I. "$c" >"$tmp/cc.log" 2>&1; then
                    echo "FAIL: $c with $cc $std:"
                    cut -c1-300 "$tmp/cc.log" | head -20
                    failures=$((failures + 1))
                fi
            done
        done
    done
done
[ "$emit_only" = --emit-only ] && compilers=" none (--emit-only)"
echo "$cases schemas, compilers:$compilers (split sources: $split_compilers); $failures failed"
[ "$failures" -eq 0 ] && [ "$cases" -gt 0 ]
