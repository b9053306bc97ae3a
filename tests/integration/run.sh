#!/bin/sh
# Integration tests: netschema used from other projects, the way users do it.
#
#   sh tests/integration/run.sh NETSCHEMA_BUILD_DIR [WORK_DIR]
#
# 1. Installs the build into a temporary prefix (cmake --install).
# 2. For the Makefile and Ninja generators, builds tests/integration/consumer against
#    (a) the installed package (find_package) and (b) the source tree (add_subdirectory); runs
#    it; touches the imported schema and checks that exactly the schemas importing it (and it)
#    are regenerated; checks that a rebuild with nothing changed regenerates nothing.
# 3. Builds the same consumer with a plain Makefile that finds everything through pkg-config
#    and tracks imports through netschemac --depfile; same checks. The program must run without
#    LD_LIBRARY_PATH (pkg-config --libs links the static runtime); linked with the libs_shared
#    variable instead, it must use libnetschema.so.1 and still run, through its rpath.
# 4. Checks that generated headers compile with only the installed headers, and that the ABI
#    guard stops a build against a runtime of another ABI with a clear message.
# Each step prints a line; any failure prints what happened and exits 1.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: run.sh NETSCHEMA_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
nsbuild=$(cd "$1" && pwd)
work=${2:-$nsbuild/integration}
rm -rf "$work"
mkdir -p "$work"

fail() {
    echo "FAIL: $*"
    exit 1
}

# run_logged LOG COMMAND...: runs quietly, shows the log on failure.
run_logged() {
    log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        cat "$log"
        fail "$* (log: $log)"
    fi
}

expected='unit at 3,-4 team blue hp 42 path 2 long; said "hello"'

check_output() { # check_output PROGRAM WHAT
    out=$("$1") || fail "$2: the consumer exited with status $?"
    case "$out" in
        "$expected"*) ;;
        *) fail "$2: unexpected output: $out" ;;
    esac
}

# regenerated LOG: the schemas the build log says netschemac compiled (the last word of each
# line that runs or announces it), sorted, on one line.
regenerated() {
    grep 'netschemac .*\.netschema$' "$1" | awk '{print $NF}' | sed 's|.*/||' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

prefix=$work/prefix
run_logged "$work/install.log" cmake --install "$nsbuild" --prefix "$prefix"
[ -x "$prefix/bin/netschemac" ] || fail "install: no bin/netschemac"
for f in lib/libnetschema.a lib/libnetschema.so lib/cmake/netschema/netschemaConfig.cmake \
         lib/cmake/netschema/netschemaConfigVersion.cmake lib/cmake/netschema/Netschema.cmake \
         lib/pkgconfig/netschema.pc include/netschema/netschema.h; do
    [ -e "$prefix/$f" ] || fail "install: $f is missing"
done
soname=$(objdump -p "$prefix/lib/libnetschema.so" 2>/dev/null | awk '/SONAME/ {print $2}')
[ "$soname" = "libnetschema.so.1" ] || fail "install: soname is '$soname', want libnetschema.so.1"
echo "install: netschemac, static and shared runtime ($soname), headers, CMake package, netschema.pc"

for gen in "Unix Makefiles" Ninja; do
    for from in package source; do
        name="$(echo "$gen" | tr -d ' ')-$from"
        dir=$work/$name
        mkdir -p "$dir"
        cp -R "$here/consumer" "$dir/src"
        # Debug: what is checked here is the build's plumbing, not its optimizer; the source
        # builds compile netschemac and the runtime, which takes about twice as long at -O2.
        run_logged "$dir/configure.log" cmake -S "$dir/src" -B "$dir/build" -G "$gen" -DNETSCHEMA_FROM=$from \
            -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$prefix" -DNETSCHEMA_SOURCE_DIR="$root"
        run_logged "$dir/build1.log" cmake --build "$dir/build"
        check_output "$dir/build/consumer" "$name"
        check_output "$dir/build/consumer_split" "$name, schemas split over two sources"
        first=$(regenerated "$dir/build1.log")
        [ "$first" = "chat.netschema common.netschema game.netschema" ] || fail "$name: first build generated '$first'"
        touch "$dir/src/schemas/common.netschema"
        run_logged "$dir/build2.log" cmake --build "$dir/build"
        again=$(regenerated "$dir/build2.log")
        [ "$again" = "common.netschema game.netschema" ] ||
            fail "$name: touching common.netschema regenerated '$again', want 'common.netschema game.netschema'"
        check_output "$dir/build/consumer" "$name after the rebuild"
        run_logged "$dir/build3.log" cmake --build "$dir/build"
        [ -z "$(regenerated "$dir/build3.log")" ] || fail "$name: a build with nothing changed regenerated schemas"
        echo "$name: builds, runs; touching the imported schema regenerates common and game, not chat"
    done
done

# A plain Makefile and pkg-config.
dir=$work/makefile
mkdir -p "$dir"
cp -R "$here/consumer" "$dir/consumer"
cp "$here/makefile/Makefile" "$dir/consumer/Makefile.plain"
cd "$dir/consumer"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# As a user's shell has it: the prefix's lib directory is not on the loader's path.
unset LD_LIBRARY_PATH
[ "$(pkg-config --variable=netschemac netschema)" -ef "$prefix/bin/netschemac" ] || fail "pkg-config: wrong netschemac"
run_logged "$dir/build1.log" make -f Makefile.plain SRC=.
check_output ./consumer "Makefile"
touch schemas/common.netschema
run_logged "$dir/build2.log" make -f Makefile.plain SRC=.
again=$(regenerated "$dir/build2.log")
[ "$again" = "common.netschema game.netschema" ] ||
    fail "Makefile: touching common.netschema regenerated '$again', want 'common.netschema game.netschema'"
run_logged "$dir/build3.log" make -f Makefile.plain SRC=.
[ -z "$(regenerated "$dir/build3.log")" ] || fail "Makefile: a build with nothing changed regenerated schemas"
check_output ./consumer "Makefile after the rebuild"
needed() { objdump -p "$1" | awk '/NEEDED/ {print $2}' | grep '^libnetschema' || true; }
[ -z "$(needed ./consumer)" ] || fail "Makefile: pkg-config --libs linked the shared runtime ($(needed ./consumer))"
# shellcheck disable=SC2046 # the flags are a word list on purpose
run_logged "$dir/shared.log" cc -o consumer-shared main.o gen/*.ns.o $(pkg-config --variable=libs_shared netschema)
[ "$(needed ./consumer-shared)" = "libnetschema.so.1" ] ||
    fail "Makefile: libs_shared did not link libnetschema.so.1 (NEEDED: '$(needed ./consumer-shared)')"
check_output ./consumer-shared "Makefile, shared runtime"
echo "Makefile + pkg-config + --depfile: builds, runs without LD_LIBRARY_PATH; touching the imported schema regenerates common and game; libs_shared runs through its rpath"

# Generated code with only the installed headers, as C and as C++; the ABI guard.
cd "$dir/consumer"
for c in gen/*.ns.c; do
    cc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$prefix/include" -Igen "$c" ||
        fail "$c does not compile with the installed headers alone"
    if command -v c++ >/dev/null 2>&1; then
        c++ -x c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$prefix/include" -Igen "$c" ||
            fail "$c does not compile as C++ with the installed headers alone"
    fi
done
mkdir -p "$work/old/netschema"
printf '#define NS_RUNTIME_ABI 0\n' >"$work/old/netschema/netschema.h"
if cc -std=c11 -fsyntax-only -I"$work/old" -Igen gen/game.ns.c >"$work/abi.log" 2>&1; then
    fail "the ABI guard let a runtime of ABI 0 through"
fi
grep -q 'game.ns.h was generated for netschema runtime ABI 1: regenerate it with the netschemac that matches your libnetschema' "$work/abi.log" ||
    { cat "$work/abi.log"; fail "the ABI guard's message is not there"; }
echo "generated code: compiles with the installed headers alone (C11 and C++17); the ABI guard names the mismatch"
echo "integration: all passed"
