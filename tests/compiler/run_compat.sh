#!/bin/sh
# run_compat.sh — tests of `netschemac --compat OLD NEW` (idl/SPEC.md section 15).
#
#   run_compat.sh NETSCHEMAC ROOT [--regenerate | --every K]
#
# 1. Each tests/compiler/compat/NAME.old.netschema / NAME.new.netschema pair must give the report
#    in NAME.expected (text, then "[exit N]") and NAME.json (--diagnostics json, then "[exit N]").
# 2. Errors: a schema with errors or a missing file is exit status 2, and --compat wants two files.
# 3. The verdicts agree with the protocol hash on every ordered pair of schemas among
#    idl/examples and the compat corpus: a type present in both is breaking exactly when its
#    --hash differs, the others are added or removed, the schema hashes are those of --hash, and
#    the exit status is 1 exactly when a type breaks or is removed. With --every K only every K-th
#    pair is run: the sanitizer build does that, where each of the hundreds of netschemac runs
#    pays the sanitizers' start-up; the other build of `make test` runs every pair.
set -u
nsc=$1 root=$2
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
regen=${NS_REGENERATE:-0}
[ "${3:-}" = --regenerate ] && regen=1
every=1
[ "${3:-}" = --every ] && every=${4:-0}
[ "$every" -ge 1 ] 2>/dev/null || { echo "run_compat.sh: --every needs a count of 1 or more"; exit 2; }
corpus=$root/tests/compiler/compat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

golden() { # name actual expected
    if [ "$regen" = 1 ]; then cp "$2" "$3"; return; fi
    cmp -s "$2" "$3" || { fail "$1"; diff -u "$3" "$2" | head -30; }
}

# 1. The corpus.
cd "$corpus" || exit 2
for old in *.old.netschema; do
    name=${old%.old.netschema}
    "$nsc" --compat "$old" "$name.new.netschema" >"$tmp/out" 2>&1
    echo "[exit $?]" >>"$tmp/out"
    golden "$name (text)" "$tmp/out" "$name.expected"
    "$nsc" --compat --diagnostics json "$old" "$name.new.netschema" >"$tmp/out" 2>&1
    echo "[exit $?]" >>"$tmp/out"
    golden "$name (json)" "$tmp/out" "$name.json"
done

# 2. Errors.
printf 'package p;\ncomponent C { u8 a @quantize(10); }\n' >"$tmp/bad.netschema"
"$nsc" --compat same.old.netschema "$tmp/bad.netschema" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "--compat with a schema that has errors: exit $rc, expected 2"
[ ! -s "$tmp/out" ] || { fail "--compat printed a report for a schema with errors:"; cat "$tmp/out"; }
grep -q "error: @quantize" "$tmp/err" || { fail "no diagnostic for the schema with errors:"; cat "$tmp/err"; }
"$nsc" --compat same.old.netschema "$tmp/missing.netschema" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--compat with a missing file: exit $rc, expected 2"
"$nsc" --compat same.old.netschema >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "two schemas" "$tmp/err" || fail "--compat with one file: exit $rc, expected 2 and a usage message"

# 3. Agreement with the protocol hash.
set -- "$root"/idl/examples/*.netschema "$corpus"/*.netschema
i=0
for f in "$@"; do
    i=$((i + 1))
    "$nsc" --hash "$f" 2>/dev/null | awk 'NR == 1 { print "(schema)", $1; next } { print $3, $1 }' >"$tmp/h$i" ||
        fail "--hash $f"
done
pairs=0
i=0
for a in "$@"; do
    i=$((i + 1))
    j=0
    for b in "$@"; do
        j=$((j + 1))
        k=$(((i - 1) * $# + j))
        [ $((k % every)) = 0 ] || continue
        pairs=$((pairs + 1))
        "$nsc" --compat --diagnostics json "$a" "$b" >"$tmp/c" 2>"$tmp/err"
        rc=$?
        awk -v rc="$rc" -v pair="$a -> $b" '
            FNR == 1 { file++ }
            file == 1 { old[$1] = $2; next }
            file == 2 { new[$1] = $2; next }
            function field(key,   re) {
                re = "\"" key "\":\"[^\"]*\""
                if (!match($0, re)) return ""
                return substr($0, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
            }
            {
                v = field("verdict")
                if (v == "schema") {
                    if (field("old_hash") != old["(schema)"] || field("new_hash") != new["(schema)"])
                        bad = bad "\n  schema hashes " field("old_hash") " " field("new_hash")
                    next
                }
                n = field("name")
                seen[n]++
                if (n in old && n in new) want = old[n] != new[n] ? "breaking" : "same"
                else want = n in new ? "added" : "removed"
                got = v == "unchanged" || v == "no-wire-change" ? "same" : v
                if (got != want) bad = bad "\n  " n ": " v ", the hashes say " want
                if (want == "breaking" || want == "removed") breaks = 1
            }
            END {
                for (n in old) if (n != "(schema)" && seen[n] != 1) bad = bad "\n  " n " reported " seen[n] + 0 " times"
                for (n in new) if (n != "(schema)" && seen[n] != 1) bad = bad "\n  " n " reported " seen[n] + 0 " times"
                if (rc != breaks + 0) bad = bad "\n  exit status " rc ", expected " breaks + 0
                if (bad != "") { print "FAIL: " pair ":" bad; exit 1 }
            }' "$tmp/h$i" "$tmp/h$j" "$tmp/c" || { failures=$((failures + 1)); cat "$tmp/err"; }
    done
done

echo "compat: $pairs pairs checked against the hash, $failures failure(s)"
[ "$failures" = 0 ]
