#!/bin/sh
# run_imports.sh — netschemac on a schema that imports another: the note that names the imported
# schema's generated files, and --with-imports, which writes them.
#
#   run_imports.sh NETSCHEMAC EXAMPLES_DIR RUNTIME_INCLUDE_DIR
#
# Uses EXAMPLES_DIR/game.netschema, which imports common.netschema, laid out as game.netschema and
# schemas/common.netschema (found through -I schemas). Without the note, `netschemac -o gen
# game.netschema` looks fine and the user's build fails later with "common.ns.h: No such file".
set -u
nsc=$1 examples=$2 rtinc=$3
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
examples=$(cd "$examples" && pwd) && rtinc=$(cd "$rtinc" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
mkdir schemas
cp "$examples/game.netschema" game.netschema && cp "$examples/common.netschema" schemas/common.netschema || exit 2

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
# run NAME ARGS...: runs netschemac; its stderr goes to NAME.err; fails on a non-zero exit.
run() {
    name=$1
    shift
    "$nsc" "$@" >/dev/null 2>"$name.err" || { fail "$name: netschemac $* exited with $?"; cat "$name.err"; }
}
no_output() { # NAME: stderr must be empty
    [ -s "$1.err" ] && { fail "$1: expected no diagnostics, got:"; cat "$1.err"; }
    return 0
}

note='netschemac: note: game.netschema imports schemas/common.netschema; generate it too (common.ns.h, common.ns.c), or pass --with-imports'

# 1. The import is not generated: the note says which files are missing, and nothing else changes.
run plain -I schemas -o gen game.netschema
printf '%s\n' "$note" >plain.want
cmp -s plain.want plain.err || { fail "plain: the note is not what was expected:"; diff plain.want plain.err; }
[ -f gen/game.ns.h ] && [ -f gen/game.ns.c ] || fail "plain: gen/game.ns.h or .ns.c missing"
[ -e gen/common.ns.h ] && fail "plain: common.ns.h written without --with-imports"

# 2. --with-imports writes both, as generating each alone would, and the result compiles.
run with -I schemas -o gen2 --with-imports game.netschema
no_output with
for f in game.ns.h game.ns.c common.ns.h common.ns.c; do
    [ -f "gen2/$f" ] || fail "with: --with-imports did not write gen2/$f"
done
run alone -I schemas -o gen3 schemas/common.netschema
for f in common.ns.h common.ns.c; do
    cmp -s "gen2/$f" "gen3/$f" || fail "with: gen2/$f differs from generating common.netschema alone"
done
cc -std=c11 -fsyntax-only -I"$rtinc" -Igen2 gen2/game.ns.c gen2/common.ns.c >cc.err 2>&1 ||
    { fail "with: the generated files do not compile:"; cat cc.err; }

# 3. --with-imports and --depfile: the imported schema's outputs are targets too.
run dep -I schemas -o gen4 --depfile gen4/game.d --with-imports game.netschema
no_output dep
head -n 1 gen4/game.d | grep -q '^gen4/game.ns.h gen4/game.ns.c gen4/common.ns.h gen4/common.ns.c:' ||
    { fail "dep: the depfile's targets do not list the import's outputs:"; cat gen4/game.d; }

# 4. No note when the command line names the import, when a build system drives netschemac
#    (--depfile: one run per schema), or when the import's header is already in the output dir.
run both -I schemas -o gen5 game.netschema schemas/common.netschema
no_output both
run depfile -I schemas -o gen6 --depfile gen6/game.d game.netschema
no_output depfile
run already -I schemas -o gen3 game.netschema
no_output already

# 5. --help describes the flag.
"$nsc" --help | grep -q -- '--with-imports' || fail "--help does not mention --with-imports"

if [ "$failures" -eq 0 ]; then
    echo "imports: the note names the missing generated files; --with-imports writes them"
fi
[ "$failures" -eq 0 ]
