#!/bin/sh
# fuzz.sh — `make fuzz`'s libFuzzer half: runs every fuzz target of a NETSCHEMA_FUZZ build for
# SECONDS each, one after the other, and stops at the first finding (libFuzzer then leaves a
# crash-* or leak-* file in the working directory and exits non-zero: make it a regression input
# of that target's replay, tests/fuzz/CMakeLists.txt).
#
#   scripts/fuzz.sh BUILD_DIR SECONDS
#
# The targets are found in BUILD_DIR/tests/fuzz, so a new ns_add_fuzz_target is run without
# touching this file. Each fuzzes its own corpus directory, BUILD_DIR/tests/fuzz/corpus/<target>,
# which CMake seeds (tests/fuzz/CMakeLists.txt) and libFuzzer grows from run to run. fuzz_compiler
# runs from idl/examples so that the examples' imports resolve, as in its ctest replay.
set -u
build=$1 seconds=$2
here=$(cd "$(dirname "$0")/.." && pwd)
case "$build" in /*) ;; *) build=$here/$build ;; esac
dir=$build/tests/fuzz

ran=0
for bin in "$dir"/fuzz_*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=${bin##*/}
    # Inputs larger than any the target's reader is meant for only slow it down.
    case "$name" in
        fuzz_compiler) max_len=8192 ;;
        fuzz_dispatch) max_len=1024 ;;
        fuzz_reader | fuzz_dump | fuzz_table) max_len=4096 ;;
        *) max_len=2048 ;;
    esac
    corpus=$dir/corpus/$name
    mkdir -p "$corpus" || exit 2
    workdir=$dir
    [ "$name" = fuzz_compiler ] && workdir=$here/idl/examples
    echo "fuzz.sh: $name for $seconds s (corpus $corpus)"
    (cd "$workdir" && "$bin" -max_total_time="$seconds" -max_len="$max_len" -print_final_stats=1 "$corpus") || {
        echo "fuzz.sh: $name found a failing input (see above; its file is in $workdir)" >&2
        exit 1
    }
    ran=$((ran + 1))
done
if [ "$ran" = 0 ]; then
    echo "fuzz.sh: no fuzz targets in $dir (configure with -DNETSCHEMA_FUZZ=ON and build first)" >&2
    exit 2
fi
echo "fuzz.sh: $ran targets, $seconds s each, no findings"
