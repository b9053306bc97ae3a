#!/bin/sh
# Installs the Debian packages netschema needs, and only those that are missing.
#
#   scripts/deps.sh [build|test|fuzz]...
#
# build: what `make demo` needs (compiler toolchain, CMake, flex, bison, pkg-config, and Check,
#        since the default build includes the unit tests);
# test:  build + clang and its sanitizer runtime (the ASan+UBSan build), g++ (generated code
#        must compile as C++), ninja-build (tests/integration builds with Ninja and Makefiles),
#        and vim, emacs-nox, nodejs and npm for the editor tests (tests/editors);
# fuzz:  build + clang (libFuzzer);
# i386:  on an amd64 machine, gcc-multilib, g++-multilib and Check for i386 (adding the i386
#        architecture to dpkg), for the 32-bit build of the tests (scripts/test32.sh).
# Silent and fast when everything is present; runs `apt-get update` only when something
# must be installed; when not root it prints the command to run instead.
set -eu

want="gcc make cmake flex bison pkg-config check"
want32=""
for mode in "${@:-build}"; do
    case "$mode" in
        build) ;;
        i386)  [ "$(dpkg --print-architecture)" = amd64 ] && want32="gcc-multilib g++-multilib check:i386" ;;
        test)  want="$want clang libclang-rt-dev g++ ninja-build vim emacs-nox nodejs npm" ;;
        fuzz)  want="$want clang libclang-rt-dev" ;;
        *) echo "deps.sh: unknown mode '$mode' (expected build, test, fuzz or i386)" >&2; exit 2 ;;
    esac
done

# One dpkg-query for every package: a package is present when dpkg says "install ok installed".
missing=""
status=$(dpkg-query -W -f='${Package} ${Status}\n' $want 2>/dev/null || true)
for pkg in $want; do
    # Also present when its command is: NodeSource's nodejs bundles npm (and conflicts with
    # Debian's npm package), and any Emacs flavour will do.
    case "$pkg" in
        npm)       command -v npm >/dev/null 2>&1 && continue ;;
        emacs-nox) command -v emacs >/dev/null 2>&1 && continue ;;
    esac
    if ! printf '%s\n' "$status" | grep -q "^$pkg install ok installed\$"; then
        case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
    fi
done
# The i386 packages by their architecture-qualified names (check:amd64 is not check:i386).
status=$(dpkg-query -W -f='${binary:Package} ${Status}\n' $want32 2>/dev/null || true)
for pkg in $want32; do
    printf '%s\n' "$status" | grep -q "^$pkg install ok installed\$" && continue
    missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "netschema needs these Debian packages:$missing" >&2
    case "$missing" in *:i386*) echo "first add the architecture:  sudo dpkg --add-architecture i386 && sudo apt-get update" >&2 ;; esac
    echo "install them with:  sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
case "$missing" in
    *:i386*) dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386 ;;
esac
# A mirror in the middle of a sync fails one index now and then; the install below still finds
# what the other indexes list, and fails by itself if something is really missing.
apt-get update -qq >/dev/null || echo "deps.sh: apt-get update reported errors; installing anyway" >&2
apt-get install -y -qq --no-install-recommends $missing >/dev/null
