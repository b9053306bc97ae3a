#!/bin/sh
# test32.sh — the test suite built for a 32-bit target (gcc -m32, i386), the third run of
# `make test`. Targets such as wasm32 and 32-bit ARM have a 4-byte size_t and pointers, and
# 4-byte-aligned 64-bit integers in structs: code that assumes otherwise (a size_t length, a
# struct's padding) passes on x86-64 and breaks there. This run found a diagnostic that read past
# its buffer (compiler/src/diag.c: unseen on x86-64, where the bytes past it were padding) and
# a batcher whose header stated the wrong bookkeeping size.
#
#   scripts/test32.sh BUILD_DIR JOBS
#
# Needs gcc-multilib and Check for i386 (`scripts/deps.sh i386`, which this tries first); where
# they cannot be had (not amd64, not root, no network) it says so and skips, exit status 0. It
# skips the same way on a kernel that cannot run 32-bit programs (built without IA-32
# emulation, or with it turned off), where the suite would build and then fail to run.
# Left out: the benchmarks, three quarters of test_e2e's random round trips and of
# soak_replication's ticks (ASan runs a tenth and a quarter), and the tests that run the host's
# compilers on generated C (the native run covers them byte for byte: netschemac's output does
# not depend on its own target) or build installed packages (editors, integration).
set -u
build=$1 jobs=$2
here=$(cd "$(dirname "$0")/.." && pwd)

"$here/scripts/deps.sh" i386 || echo "test32: could not install the i386 packages (scripts/deps.sh i386)"

# The 32-bit Check's pkg-config files, ahead of the host's.
PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig
export PKG_CONFIG_LIBDIR
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <check.h>\nint main(void){return srunner_ntests_failed(0) != 0;}\n' >"$probe/p.c"
# shellcheck disable=SC2046 # pkg-config's flags are word lists
if ! gcc -m32 "$probe/p.c" -o "$probe/p" $(pkg-config --cflags --libs check 2>/dev/null) >/dev/null 2>&1; then
    echo "test32: skipped: no 32-bit toolchain with Check (gcc-multilib, check:i386)"
    exit 0
fi
printf 'int main(void){return 0;}\n' >"$probe/run.c"
if ! gcc -m32 "$probe/run.c" -o "$probe/run" >/dev/null 2>&1 || ! "$probe/run" >/dev/null 2>&1; then
    echo "test32: skipped: this kernel cannot run 32-bit programs (no IA-32 emulation)"
    exit 0
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
    mkdir -p "$build"
    # -O2: at -O0 and -O1 i386 quiets signaling NaNs where the two codec modes differ in whether
    # a float passes through an x87 register (docs/runtime.md, "32-bit targets").
    cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
        -DCMAKE_C_FLAGS=-m32 -DCMAKE_CXX_FLAGS=-m32 -DNETSCHEMA_BUILD_BENCHMARKS=OFF \
        -DNETSCHEMA_E2E_CASES=25000 -DNETSCHEMA_SOAK_TICKS=5000 \
        >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; rm -f "$build/CMakeCache.txt"; exit 1; }
fi
cmake --build "$build" -j"$jobs" >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }
echo "test32: the test suite built for i386 (gcc -m32)"
ctest --test-dir "$build" --output-on-failure -j"$jobs" --label-exclude 'editors|integration' \
    -E '^(compiler_strict_edge_cases|compiler_generated_names_claimed|compiler_random_schemas)$'
