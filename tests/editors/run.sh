#!/bin/sh
# Tests the editor support in editors/ (VS Code/TextMate, Vim, Emacs) against netschemac.
#
#   sh tests/editors/run.sh NETSCHEMAC [BUILD_DIR]
#
# Needs node, npm, vim and emacs (scripts/deps.sh test installs them). The pinned npm packages of
# textmate/package-lock.json go to $NETSCHEMA_EDITORS_NODE_DIR, else BUILD_DIR/editors-node, else
# build/editors-node; they are installed only when that directory does not match the lock file.
# Prints one "suite: N passed, N failed" line per suite and exits non-zero on any failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

die() {
    echo "tests/editors: $*" >&2
    exit 1
}

[ $# -ge 1 ] || die "usage: run.sh NETSCHEMAC [BUILD_DIR]"
case "$1" in /*) netschemac=$1 ;; *) netschemac=$(pwd)/$1 ;; esac
[ -x "$netschemac" ] || die "netschemac not found or not executable: $1"
build=${2:-$root/build}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
node_dir=${NETSCHEMA_EDITORS_NODE_DIR:-$build/editors-node}

# Every tool must be there: nothing is skipped.
need() { # need COMMAND DEBIAN-PACKAGE
    command -v "$1" >/dev/null 2>&1 ||
        die "'$1' is missing: run scripts/deps.sh test (or apt-get install $2)"
}
need node nodejs
need npm npm
need vim vim
need emacs emacs-nox
vim --version | grep -q '+syntax' ||
    die "this vim has no +syntax (vim-tiny?): apt-get install vim"
node -e 'process.exit(+process.versions.node.split(".")[0] >= 16 ? 0 : 1)' ||
    die "node $(node --version) is too old: the tests need node 16 or newer"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/netschema-editors.XXXXXX") || die "cannot make a scratch directory"
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM

# The pinned tokenizer libraries, installed only when missing or out of date.
if ! cmp -s "$here/textmate/package-lock.json" "$node_dir/package-lock.json" ||
    [ ! -f "$node_dir/node_modules/vscode-textmate/package.json" ] ||
    [ ! -f "$node_dir/node_modules/vscode-oniguruma/package.json" ]; then
    mkdir -p "$node_dir" || die "cannot create $node_dir"
    rm -f "$node_dir/package-lock.json"
    cp "$here/textmate/package.json" "$here/textmate/package-lock.json" "$node_dir/" || die "cannot copy to $node_dir"
    if ! (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >"$scratch/npm.log" 2>&1); then
        cat "$scratch/npm.log" >&2
        rm -f "$node_dir/package-lock.json"
        die "npm ci failed in $node_dir"
    fi
fi

failed_suites=""
total_passed=0
total_failed=0

# run_suite NAME COMMAND...: runs a suite, which reports on stdout (FAIL lines, then its closing
# "NAME: N passed, N failed" line); shows the report, and adds up the closing line.
run_suite() {
    name=$1
    shift
    "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
    status=$?
    cat "$scratch/$name.out"
    summary=$(grep -aE "^$name: [0-9]+ passed, [0-9]+ failed\$" "$scratch/$name.out" | tail -n 1)
    if [ -z "$summary" ]; then
        echo "FAIL $name: the suite stopped early (exit status $status); its error output:"
        cat "$scratch/$name.err"
        status=1
        total_failed=$((total_failed + 1))
    else
        set -- $summary
        total_passed=$((total_passed + $2))
        total_failed=$((total_failed + $4))
    fi
    [ "$status" -eq 0 ] || failed_suites="$failed_suites $name"
}

# The corpus is real netschema: every file checks, except invalid.netschema, which must not.
corpus_check() {
    passed=0 failed=0
    for f in "$here"/corpus/*.netschema; do
        base=$(basename "$f")
        (cd "$here/corpus" && "$netschemac" --check "$base") >"$scratch/check.log" 2>&1
        status=$?
        want=0
        [ "$base" = invalid.netschema ] && want=1
        if [ "$status" -eq "$want" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL corpus: netschemac --check $base exited $status, expected $want:"
            cat "$scratch/check.log"
        fi
    done
    echo "corpus: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

run_suite corpus corpus_check
run_suite textmate node "$here/textmate/test.js" "$node_dir/node_modules" "$netschemac"
run_suite vim env NETSCHEMAC="$netschemac" VIM_TEST_LOG="$scratch/vim-report" \
    sh -c 'vim -Nu NONE -i NONE -n -es -c "set rtp^=$1" -S "$2" </dev/null >&2; s=$?; cat "$VIM_TEST_LOG"; exit $s' \
    sh "$root/editors/vim" "$here/vim/test.vim"
run_suite emacs env NETSCHEMAC="$netschemac" EMACS_TEST_DIR="$scratch" emacs --batch -Q -l "$here/emacs/test.el"

echo "editors: $total_passed passed, $total_failed failed"
if [ -n "$failed_suites" ]; then
    echo "tests/editors: failed:$failed_suites" >&2
    exit 1
fi
exit 0
