#!/bin/sh
# readme.sh — the README's C examples, compiled and run exactly as written.
#
#   sh tests/integration/readme.sh SOURCE_DIR BUILD_DIR WORK_DIR
#
# For each section named below, takes the section's ```netschema block as game.netschema, its
# ```c block as the program, generates gen/ with netschemac, compiles with the section's own
# `cc` line (run from a directory laid out as the README assumes: runtime/, gen/, build/), runs
# ./a.out and compares its output with the `# ...` comments after `./a.out` in that block.
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
        grab && $0 == "```" { grab = 0; if (all == "") exit; next }
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
    sed -n '/^\.\/a\.out/,$p' "$dir/commands.sh" | sed -n 's/^[^#]*# //p' > "$dir/expected"
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
