#!/bin/sh
# readme.sh — the README's C examples and build files, used exactly as written.
#
#   sh tests/integration/readme.sh SOURCE_DIR BUILD_DIR WORK_DIR
#
# For each section named in run_section below, takes the section's ```netschema block as
# game.netschema, its ```c block as the program, generates gen/ with netschemac, compiles with
# the section's own `cc` line (run from a directory laid out as the README assumes: runtime/,
# gen/, build/), runs ./a.out and compares its output with the `# ...` comments after `./a.out`
# in that block.
#
# "Tools" also has its formatter and compatibility-checker commands run as written (their output
# is the section's ```text block) and its profiled arena command run.
#
# Then installs BUILD_DIR into WORK_DIR/prefix and builds the program of "Using netschema from
# your project" twice, each in a fresh directory (no gen/, no build/): with the section's
# ```cmake block as its CMakeLists.txt, and with its ```make block as its Makefile (found through
# pkg-config, run without LD_LIBRARY_PATH). Both must build, and the program must print what it
# should.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"

# block HEADING LANG [all]: the first ```LANG block after "## HEADING" (before the next "## "),
# or with `all` every such block of the section.
block() {
    awk -v h="## $1" -v lang="$2" -v all="${3:-}" '
        $0 == h { inside = 1; next }
        inside && /^## / { exit }
        inside && (all != "" || !found) && $0 == "```" lang { grab = 1; found = 1; next }
        grab && $0 == "```" { grab = 0; if (all == "") exit; print ""; next }
        grab { print }' "$src/README.md"
}

# run_section HEADING PROGRAM_FILE: builds and runs one section's example.
run_section() {
    dir="$work/$2.d"
    mkdir -p "$dir/build/runtime" "$dir/build/compiler"
    ln -s "$src/runtime" "$dir/runtime"
    ln -s "$build/runtime/libnetschema.a" "$dir/build/runtime/libnetschema.a"
    ln -s "$build/compiler/netschemac" "$dir/build/compiler/netschemac"
    heading=$1
    # The schema may live in an earlier section ("The same game.netschema").
    block "$heading" netschema > "$dir/game.netschema"
    [ -s "$dir/game.netschema" ] || block "Generated code in five minutes" netschema > "$dir/game.netschema"
    block "$heading" c > "$dir/$2"
    [ -s "$dir/$2" ] || { echo "FAIL: no C example under '$heading'"; exit 1; }
    block "$heading" sh all > "$dir/commands.sh"
    (cd "$dir" && build/compiler/netschemac -o gen game.netschema) || { echo "FAIL: netschemac ($heading)"; exit 1; }
    cc_line=$(grep '^cc ' "$dir/commands.sh")
    (cd "$dir" && sh -c "$cc_line") || { echo "FAIL: $cc_line ($heading)"; exit 1; }
    # Expected output: the comments after ./a.out, one per line.
    sed -n '/^\.\/a\.out/,/^$/p' "$dir/commands.sh" | sed -n 's/^[^#]*# //p' > "$dir/expected"
    (cd "$dir" && ./a.out) > "$dir/actual" || { echo "FAIL: ./a.out exited non-zero ($heading)"; exit 1; }
    if ! cmp -s "$dir/expected" "$dir/actual"; then
        echo "FAIL: '$heading' printed something else:"
        diff "$dir/expected" "$dir/actual" || true
        exit 1
    fi
    echo "ok   README '$heading': compiled and printed what the README says"
}

run_section "Generated code in five minutes" main.c
run_section "A replicated game in one screen" server_client.c
run_section "Tools" dump.c

# The rest of "Tools": its first ```sh block (the formatter and the compatibility checker) run
# as written beside game.netschema, printing the ```text block and exiting with 1 (a breaking
# change); and the profiled arena, which must print its table.
dir="$work/dump.c.d"
block Tools sh > "$dir/tools.sh"
status=0
(cd "$dir" && sh tools.sh) > "$dir/tools.out" 2>&1 || status=$?
block Tools text > "$dir/tools.expected"
if [ "$status" != 1 ] || ! cmp -s "$dir/tools.expected" "$dir/tools.out"; then
    echo "FAIL: 'Tools' commands exited with $status (expected 1) or printed something else:"
    diff "$dir/tools.expected" "$dir/tools.out" || true
    exit 1
fi
profile_line=$(block Tools sh all | grep '^build/examples/arena/arena_profile ' | sed 's/ *#.*//')
[ -n "$profile_line" ] || { echo "FAIL: no arena_profile command under 'Tools'"; exit 1; }
mkdir -p "$dir/build/examples/arena"
ln -s "$build/examples/arena/arena_profile" "$dir/build/examples/arena/arena_profile"
(cd "$dir" && sh -c "$profile_line") > "$dir/profile.out" 2>&1 || { cat "$dir/profile.out"; echo "FAIL: $profile_line"; exit 1; }
grep -q '  bits   share     writes    changed  field' "$dir/profile.out" && grep -q ' total (' "$dir/profile.out" ||
    { cat "$dir/profile.out"; echo "FAIL: '$profile_line' printed no profile table"; exit 1; }
echo "ok   README 'Tools': the formatter, the compatibility checker and the profile run as written"

# The program of "Using netschema from your project": main.c and schemas/{game,common}.netschema
# (game imports common), from tests/integration/consumer.
using_tree() {
    mkdir -p "$1/schemas"
    cp "$src/tests/integration/consumer/schemas/game.netschema" \
       "$src/tests/integration/consumer/schemas/common.netschema" "$1/schemas/"
    cat > "$1/main.c" <<'EOF'
/* main.c — the README's "Using netschema from your project" program: a unit through the wire. */
#include <stdio.h>
#include "game.ns.h"

int main(void)
{
    game_Unit u;
    game_Unit_snap s, back;
    game_Unit_init(&u);
    u.at.x = 3, u.at.y = -4, u.team = common_Team_blue, u.hp = 42;
    game_Unit_quantize(&u, &s);
    uint8_t buf[GAME_UNIT_MAX_BYTES];
    ns_writer w;
    ns_writer_init(&w, buf, sizeof buf);
    if (game_Unit_write(&w, &s, NULL, NS_TO_OBSERVER) != NS_OK) return 1;
    ns_reader r;
    ns_reader_init(&r, buf, ns_writer_flush(&w));
    if (game_Unit_read(&r, &back, NULL, NS_TO_OBSERVER) != NS_OK) return 2;
    game_Unit_dequantize(&back, &u);
    printf("unit at %d,%d team %s hp %d\n", u.at.x, u.at.y, common_Team_name(u.team), u.hp);
    return 0;
}
EOF
}

# run_logged LOG WHAT COMMAND...: runs quietly, shows the log on failure.
run_logged() {
    log=$1 what=$2
    shift 2
    "$@" > "$log" 2>&1 || { cat "$log"; echo "FAIL: $what: $* (log: $log)"; exit 1; }
}

check_server() { # check_server PROGRAM WHAT
    out=$("$1") || { echo "FAIL: $2: $1 exited with status $?"; exit 1; }
    [ "$out" = "unit at 3,-4 team blue hp 42" ] || { echo "FAIL: $2: $1 printed '$out'"; exit 1; }
}

using="Using netschema from your project"
prefix=$work/prefix
run_logged "$work/install.log" "install" cmake --install "$build" --prefix "$prefix"
# As a user's shell has it: the prefix's lib directory is not on the loader's path.
unset LD_LIBRARY_PATH

dir=$work/using-cmake
using_tree "$dir"
block "$using" cmake > "$dir/CMakeLists.txt"
grep -q netschema_generate "$dir/CMakeLists.txt" || { echo "FAIL: no netschema_generate in '$using'"; exit 1; }
run_logged "$dir/configure.log" "README CMakeLists.txt" cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix"
run_logged "$dir/build.log" "README CMakeLists.txt" cmake --build "$dir/build"
check_server "$dir/build/server" "README CMakeLists.txt"
echo "ok   README '$using' CMakeLists.txt: configures, builds and runs on a fresh tree"

dir=$work/using-make
using_tree "$dir"
block "$using" make > "$dir/Makefile"
grep -q pkg-config "$dir/Makefile" || { echo "FAIL: no pkg-config in the Makefile of '$using'"; exit 1; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
run_logged "$dir/make.log" "README Makefile" make -C "$dir"
check_server "$dir/server" "README Makefile"
# Nothing changed: make has nothing to do (the depfiles and the generated files agree).
run_logged "$dir/make2.log" "README Makefile" make -C "$dir"
if grep -q netschemac "$dir/make2.log"; then
    cat "$dir/make2.log"
    echo "FAIL: README Makefile: a second make with nothing changed ran netschemac again"
    exit 1
fi
echo "ok   README '$using' Makefile: builds with pkg-config on a fresh tree, runs without LD_LIBRARY_PATH"
