#!/bin/sh
# run_random.sh — random valid schemas (tests/compiler/gen_schema.c) must be accepted by netschemac,
# and the C it generates for them must build warning-free with the strict flags users compile
# with, as C11 and as C++17, under gcc and clang.
#
#   run_random.sh NETSCHEMAC GEN_SCHEMA RUNTIME_INCLUDE_DIR [COUNT [SEED]]
#
# COUNT schemas (default $NS_RANDOM_COUNT, else 200: about 40 s on two busy cores) are generated from seeds SEED.. (default
# $NS_RANDOM_SEED, else 1), so a failure is reproduced by its seed: `gen_schema SEED 1 DIR`. Each
# one must pass `netschemac --check` and `netschemac -o` without a word on stderr. The generated
# sources are then compiled in batches, one translation unit of #includes per batch (every schema
# has its own package, so their C names never meet), by each of gcc and clang (C11) that is
# installed, and as C++17 (the source includes its header) by g++ or clang++: with both installed
# they take turns, batch by batch, as C++ takes twice as long. A batch that fails is compiled again
# schema by schema to name the seeds at fault. The front end gives every warning of these flags
# but the optimizer's, so batches are compiled -fsyntax-only: gcc -O2 takes ten times as long.
# $NS_RANDOM_O2=K has gcc compile every Kth batch at -O2 -c instead (the optimizer's warnings:
# -Warray-bounds, -Wmaybe-uninitialized, -Wstringop-*; `make fuzz` does this).
# Batches run $NS_RANDOM_JOBS (default 2) at a time.
# $NS_RANDOM_KEEP=DIR keeps the schemas and the generated C in DIR. `make fuzz` runs many more.
set -u

# Worker mode (run by xargs below): one batch, from the first seed to the last.
if [ "${1-}" = --batch ]; then
    first=$2 last=$3 batch=$4
    cd "$NS_RANDOM_TMP" || exit 2
    out=out listed=
    : >"batch$batch.fail"
    seed=$first
    while [ "$seed" -le "$last" ]; do
        f=schemas/g$seed.netschema
        if ! "$NS_RANDOM_NSC" --check "$f" >"err$batch" 2>&1 || [ -s "err$batch" ]; then
            { echo "FAIL: seed $seed: netschemac --check rejects a generated schema:"; head -c 3000 "err$batch"; } >>"batch$batch.fail"
        elif ! "$NS_RANDOM_NSC" -o "$out" "$f" >"err$batch" 2>&1 || [ -s "err$batch" ]; then
            { echo "FAIL: seed $seed: netschemac -o:"; head -c 3000 "err$batch"; } >>"batch$batch.fail"
        else
            listed="$listed $seed"
        fi
        seed=$((seed + 1))
    done
    : >"batch$batch.c"
    for seed in $listed; do echo "#include \"g$seed.ns.c\"" >>"batch$batch.c"; done
    warnings="-Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror"
    bad='' cxx=0
    [ -n "$listed" ] && for entry in $NS_RANDOM_COMPILERS; do
        cc=${entry%:*} lang=${entry#*:}
        # The C++ compilers take turns, batch by batch: C++ costs twice what C does.
        if [ "$lang" = c++ ]; then
            cxx=$((cxx + 1))
            [ "$NS_RANDOM_CXX" -eq 2 ] && [ $((batch % 2 + 1)) -ne "$cxx" ] && continue
        fi
        std=-std=c11
        [ "$lang" = c++ ] && std=-std=c++17
        mode=-fsyntax-only
        if [ "$cc" = gcc ] && [ "${NS_RANDOM_O2-0}" -gt 0 ] && [ $((batch % NS_RANDOM_O2)) -eq 0 ]; then
            mode="-O2 -c -o batch$batch.o"
        fi
        # shellcheck disable=SC2086 # warnings and mode are word lists on purpose
        $cc -x "$lang" $std $warnings $mode -I"$NS_RANDOM_INCLUDE" -I"$out" "batch$batch.c" >/dev/null 2>&1 && continue
        for seed in $listed; do
            echo "#include \"g$seed.ns.c\"" >"one$batch.c"
            # shellcheck disable=SC2086
            if ! $cc -x "$lang" $std $warnings $mode -I"$NS_RANDOM_INCLUDE" -I"$out" "one$batch.c" >"cc$batch.log" 2>&1; then
                { echo "FAIL: seed $seed: g$seed.ns.c with $cc $std $mode:"; cut -c1-300 "cc$batch.log" | head -20; } >>"batch$batch.fail"
                bad="$bad $seed"
            fi
        done
    done
    rm -f "batch$batch.o"
    # Schemas compiled by every compiler.
    n=0
    for seed in $listed; do
        case " $bad " in *" $seed "*) ;; *) n=$((n + 1)) ;; esac
    done
    echo $n >"batch$batch.count"
    exit 0
fi

nsc=$1 gen=$2 include=$3
count=${4-${NS_RANDOM_COUNT-200}} first=${5-${NS_RANDOM_SEED-1}} jobs=${NS_RANDOM_JOBS-2}
batch_size=10
case "$nsc" in /*) ;; *) nsc=$(pwd)/$nsc ;; esac
include=$(cd "$include" && pwd) || exit 2
[ "$count" -gt 0 ] || { echo "FAIL: COUNT must be positive"; exit 2; }

if [ -n "${NS_RANDOM_KEEP-}" ]; then
    tmp=$NS_RANDOM_KEEP
    mkdir -p "$tmp" || exit 2
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/schemas" "$tmp/out" || exit 2

compilers=
for cc in gcc clang; do command -v $cc >/dev/null 2>&1 && compilers="$compilers $cc:c"; done
[ -n "$compilers" ] || { echo "FAIL: neither gcc nor clang is installed"; exit 1; }
cxx_count=0
for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 && compilers="$compilers $cxx:c++" cxx_count=$((cxx_count + 1))
done

start=$(date +%s)
"$gen" "$first" "$count" "$tmp/schemas" || { echo "FAIL: $gen $first $count"; exit 1; }

NS_RANDOM_TMP=$tmp NS_RANDOM_NSC=$nsc NS_RANDOM_INCLUDE=$include NS_RANDOM_COMPILERS=$compilers
NS_RANDOM_CXX=$cxx_count
export NS_RANDOM_TMP NS_RANDOM_NSC NS_RANDOM_INCLUDE NS_RANDOM_COMPILERS NS_RANDOM_CXX
last=$((first + count - 1)) batches=$(((count + batch_size - 1) / batch_size))
batch=0
while [ "$batch" -lt "$batches" ]; do
    seed=$((first + batch * batch_size)) end=$((first + batch * batch_size + batch_size - 1))
    [ "$end" -gt "$last" ] && end=$last
    echo "$seed $end $batch"
    batch=$((batch + 1))
done | xargs -P "$jobs" -n 3 sh "$0" --batch

compiled=0 failed=0 i=0
while [ "$i" -lt "$batches" ]; do
    if [ -f "$tmp/batch$i.count" ]; then
        compiled=$((compiled + $(cat "$tmp/batch$i.count")))
        cat "$tmp/batch$i.fail"
    else
        echo "FAIL: batch $i did not finish"
    fi
    i=$((i + 1))
done
failed=$((count - compiled))
echo "$compiled of $count random schemas (seeds $first..$last) checked, generated and compiled by$compilers in $(($(date +%s) - start)) s; $failed failed"
[ "$cxx_count" -eq 2 ] && echo "(g++ and clang++ took turns: each compiled half of the batches)"
[ "$failed" -eq 0 ] || echo "reproduce one: $gen SEED 1 DIR && $nsc -o DIR DIR/gSEED.netschema"
[ "$failed" -eq 0 ]
