#!/bin/sh
# run_golden.sh — golden tests for netschemac's output.
#
#   run_golden.sh errors NETSCHEMAC DIR [--regenerate]
#       Every DIR/*.netschema (and every DIR/*.gen.sh, a script that writes a schema to the path it
#       is given) is compiled with --check from inside DIR; its stderr plus a final "[exit N]" line
#       must equal DIR/<name>.expected. Extra arguments come from DIR/<name>.args if present.
#   run_golden.sh json NETSCHEMAC SCHEMA_DIR GOLDEN_DIR [--regenerate]
#       Every SCHEMA_DIR/*.netschema must compile, and its --emit json output must equal
#       GOLDEN_DIR/<name>.json.
#   run_golden.sh c NETSCHEMAC GOLDEN_DIR ROOT [--regenerate]
#       Each schema listed in GOLDEN_DIR/schemas.txt (paths from ROOT) must generate <stem>.ns.h
#       and .ns.c equal to the files in GOLDEN_DIR, twice in a row (the output is deterministic).
#       GOLDEN_DIR/args, if present, holds further netschemac arguments ("--codec table").
#
# --regenerate (or NS_REGENERATE=1) rewrites the golden files instead of comparing: review the
# diff before committing it.
set -u
mode=$1 nsc=$2
shift 2
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
regen=${NS_REGENERATE:-0}
for a in "$@"; do [ "$a" = --regenerate ] && regen=1; done

failures=0 cases=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_output() { # name actual expected
    cases=$((cases + 1))
    if [ "$regen" = 1 ]; then
        cp "$2" "$3"
    elif ! cmp -s "$2" "$3"; then
        echo "FAIL: $1"
        diff -u "$3" "$2" | head -40
        failures=$((failures + 1))
    fi
}

case "$mode" in
errors)
    dir=$1
    cd "$dir" || exit 2
    for src in *.netschema *.gen.sh; do
        [ -e "$src" ] || continue
        case "$src" in
            *.gen.sh) name=${src%.gen.sh}; file=$tmp/$name.netschema; sh "./$src" "$file" || exit 2 ;;
            *) name=${src%.netschema}; file=$src ;;
        esac
        args=
        [ -f "$name.args" ] && args=$(cat "$name.args")
        # shellcheck disable=SC2086 # args is a word list on purpose
        "$nsc" --check $args "$file" >/dev/null 2>"$tmp/out"
        echo "[exit $?]" >>"$tmp/out"
        # Generated inputs live in a temporary directory: show them by their name.
        [ "$file" = "$src" ] || sed -i "s|$tmp/||g" "$tmp/out"
        check_output "$name" "$tmp/out" "$name.expected"
    done
    ;;
json)
    schemas=$1 golden=$2
    case "$golden" in /*) ;; *) golden=$(pwd)/$golden ;; esac
    cd "$schemas" || exit 2
    for src in *.netschema; do
        name=${src%.netschema}
        if ! "$nsc" --emit json -o - "$src" >"$tmp/out" 2>"$tmp/err"; then
            echo "FAIL: $name does not compile:"
            cat "$tmp/err"
            failures=$((failures + 1))
            continue
        fi
        # A valid example must compile without warnings too.
        if [ -s "$tmp/err" ]; then
            echo "FAIL: $name: unexpected diagnostics:"
            cat "$tmp/err"
            failures=$((failures + 1))
        fi
        check_output "$name" "$tmp/out" "$golden/$name.json"
    done
    ;;
c)
    golden=$1 root=$2
    case "$golden" in /*) ;; *) golden=$(pwd)/$golden ;; esac
    args=$(cat "$golden/args" 2>/dev/null || true)
    for src in $(grep -v '^#' "$golden/schemas.txt"); do
        src=$root/$src
        stem=$(basename "$src" .netschema)
        mkdir -p "$tmp/1" "$tmp/2"
        # shellcheck disable=SC2086 # args: words on purpose
        if ! "$nsc" $args -o "$tmp/1" "$src" 2>"$tmp/err" || ! "$nsc" $args -o "$tmp/2" "$src" 2>>"$tmp/err"; then
            echo "FAIL: $stem does not compile:"
            cat "$tmp/err"
            failures=$((failures + 1))
            continue
        fi
        for ext in h c; do
            if ! cmp -s "$tmp/1/$stem.ns.$ext" "$tmp/2/$stem.ns.$ext"; then
                echo "FAIL: $stem.ns.$ext differs between two runs"
                failures=$((failures + 1))
            fi
            check_output "$stem.ns.$ext" "$tmp/1/$stem.ns.$ext" "$golden/$stem.ns.$ext"
        done
    done
    ;;
*)
    echo "usage: run_golden.sh errors|json|c ..." >&2
    exit 2
    ;;
esac

if [ "$regen" = 1 ]; then
    echo "regenerated $cases golden files"
    exit 0
fi
echo "$cases cases, $failures failed"
[ "$failures" -eq 0 ] && [ "$cases" -gt 0 ]
