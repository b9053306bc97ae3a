#!/bin/sh
# run_format.sh — tests of `netschemac --format` (idl/SPEC.md section 14).
#
#   run_format.sh NETSCHEMAC ROOT [--every K]
#
# 1. Every valid schema of the corpus (idl/examples, tests/compiler/strict, and the files of the
#    error corpus tests/compiler/errors that check without errors) is formatted twice: the second
#    run must print the same text, and the formatted file must list the same --hash lines as the
#    original (the path aside), and the same JSON descriptor (so doc comments still document what
#    they did). With --every K only every K-th file of the corpus is tried: the sanitizer build
#    passes it, where each of the seven netschemac runs per schema pays the sanitizers' start-up
#    (31 s alone for all of them); the other build of `make test` tries every file.
# 2. Each tests/compiler/format/NAME.netschema must format to NAME.expected, which must already
#    be formatted.
# 3. --check and --write change, list and exit as documented; a schema with errors is not
#    formatted; a missing file is exit status 2.
set -u
nsc=$1 root=$2
every=1
[ "${3:-}" = --every ] && every=${4:-0}
[ "$every" -ge 1 ] 2>/dev/null || { echo "run_format.sh: --every needs a count of 1 or more"; exit 2; }
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checked=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The hash listing without the schema's path, which differs between the original and the copy.
hashes() { # file import-dir
    "$nsc" --hash -I "$2" "$1" 2>/dev/null | sed 's/^\(0x[0-9a-f]*\)  .* (schema, /\1  (schema, /'
}

# 1. Idempotence and hashes over every valid schema.
k=0
for src in "$root"/idl/examples/*.netschema "$root"/tests/compiler/strict/*.netschema \
           "$root"/tests/compiler/errors/*.netschema "$root"/tests/compiler/errors/inc/*.netschema; do
    k=$((k + 1))
    [ $((k % every)) = 0 ] || continue
    dir=$(dirname "$src") base=$(basename "$src")
    (cd "$dir" && "$nsc" --check "$base" >/dev/null 2>&1) || continue
    checked=$((checked + 1))
    mkdir -p "$tmp/a" "$tmp/b"
    if ! (cd "$dir" && "$nsc" --format "$base") >"$tmp/a/$base" 2>"$tmp/err"; then
        fail "$src: --format failed"; cat "$tmp/err"; continue
    fi
    "$nsc" --format -I "$dir" "$tmp/a/$base" >"$tmp/b/$base" 2>"$tmp/err" || { fail "$src: formatting the output failed"; cat "$tmp/err"; }
    cmp -s "$tmp/a/$base" "$tmp/b/$base" || { fail "$src: formatting twice changes the text"; diff -u "$tmp/a/$base" "$tmp/b/$base" | head -20; }
    hashes "$src" "$dir" >"$tmp/h1"
    hashes "$tmp/a/$base" "$dir" >"$tmp/h2"
    cmp -s "$tmp/h1" "$tmp/h2" || { fail "$src: the formatted schema hashes differently"; diff -u "$tmp/h1" "$tmp/h2"; }
    "$nsc" --emit json -o - -I "$dir" "$src" 2>/dev/null | grep -v '"file":' >"$tmp/j1"
    "$nsc" --emit json -o - -I "$dir" "$tmp/a/$base" 2>/dev/null | grep -v '"file":' >"$tmp/j2"
    cmp -s "$tmp/j1" "$tmp/j2" || { fail "$src: the formatted schema has another JSON descriptor"; diff -u "$tmp/j1" "$tmp/j2" | head -20; }
done
# Every example and strict schema is valid, and so are a few files of the error corpus.
min=$(($(ls "$root"/idl/examples/*.netschema "$root"/tests/compiler/strict/*.netschema | wc -l) / every))
[ "$checked" -gt "$min" ] || fail "only $checked valid schemas found (expected more than $min)"

# 2. Golden pairs: the style, comments included.
for src in "$root"/tests/compiler/format/*.netschema; do
    exp=${src%.netschema}.expected
    (cd "$(dirname "$src")" && "$nsc" --format "$(basename "$src")") >"$tmp/out" 2>&1
    cmp -s "$tmp/out" "$exp" || { fail "$(basename "$src"): not formatted as expected"; diff -u "$exp" "$tmp/out" | head -40; }
    cp "$exp" "$tmp/expected.netschema"
    "$nsc" --format --check -I "$(dirname "$src")" "$tmp/expected.netschema" >"$tmp/out" 2>&1 ||
        { fail "$(basename "$exp"): the expected output is not itself formatted"; cat "$tmp/out"; }
done

# A byte-order mark and CR LF line ends: dropped, LF only.
printf '\357\273\277package p; // c\r\n\r\n\r\ncomponent C {\r\n  u8 a; /* x\r\n y */\r\n}\r\n' >"$tmp/crlf.netschema"
printf 'package p; // c\n\ncomponent C {\n    u8 a; /* x\n y */\n}\n' >"$tmp/lf.expected"
"$nsc" --format "$tmp/crlf.netschema" >"$tmp/out" 2>&1
cmp -s "$tmp/out" "$tmp/lf.expected" || { fail "BOM and CR LF"; diff -u "$tmp/lf.expected" "$tmp/out"; }

# 3. --check, --write, errors (style.netschema imports a file by a path relative to its directory).
fdir=$root/tests/compiler/format
w=$tmp/w
mkdir -p "$w"
cp "$root/tests/compiler/format/style.netschema" "$w/messy.netschema"
cp "$root/tests/compiler/format/style.expected" "$w/tidy.netschema"
cp "$w/messy.netschema" "$w/messy.orig"
(cd "$w" && "$nsc" -I "$fdir" --format --check tidy.netschema messy.netschema) >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "--check with an unformatted file: exit $rc, expected 1"
[ "$(cat "$tmp/out")" = "messy.netschema" ] || { fail "--check should list messy.netschema only:"; cat "$tmp/out"; }
cmp -s "$w/messy.netschema" "$w/messy.orig" || fail "--check changed the file"
(cd "$w" && "$nsc" -I "$fdir" --format --check tidy.netschema) >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/out" ] || { fail "--check on a formatted file: exit $rc, output:"; cat "$tmp/out"; }
(cd "$w" && "$nsc" -I "$fdir" --format --write messy.netschema tidy.netschema) >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/out" ] || { fail "--write: exit $rc, output:"; cat "$tmp/out"; }
cmp -s "$w/messy.netschema" "$root/tests/compiler/format/style.expected" || fail "--write did not write the formatted text"
(cd "$w" && "$nsc" -I "$fdir" --format --check messy.netschema) >/dev/null 2>&1 || fail "--check after --write still lists the file"

# A schema with errors: diagnostics, exit 1, nothing printed or written.
printf 'package p;\ncomponent C {   u8 a @quantize(10);\n}\n' >"$w/bad.netschema"
cp "$w/bad.netschema" "$w/bad.orig"
(cd "$w" && "$nsc" --format bad.netschema) >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "--format on a schema with errors: exit $rc, expected 1"
[ ! -s "$tmp/out" ] || { fail "--format printed a schema with errors:"; cat "$tmp/out"; }
grep -q "bad.netschema:2:.*error: @quantize" "$tmp/err" || { fail "no diagnostic for the schema with errors:"; cat "$tmp/err"; }
(cd "$w" && "$nsc" --format --write bad.netschema) >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] || fail "--format --write on a schema with errors: exit $rc, expected 1"
cmp -s "$w/bad.netschema" "$w/bad.orig" || fail "--write changed a schema with errors"
# One file with errors does not stop the others from being formatted.
cp "$root/tests/compiler/format/style.netschema" "$w/messy2.netschema"
(cd "$w" && "$nsc" -I "$fdir" --format --write bad.netschema messy2.netschema) >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] || fail "--write with one bad file: exit $rc, expected 1"
cmp -s "$w/messy2.netschema" "$root/tests/compiler/format/style.expected" || fail "--write skipped the good file"
# A file that does not exist: exit 2.
(cd "$w" && "$nsc" --format missing.netschema) >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--format on a missing file: exit $rc, expected 2"
"$nsc" --write "$w/tidy.netschema" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--write without --format: exit $rc, expected 2"

echo "format: $checked schemas formatted twice, $failures failure(s)"
[ "$failures" = 0 ]
