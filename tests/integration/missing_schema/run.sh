#!/bin/sh
# Configures the project next to this script (its netschema_generate() names a schema by a wrong
# path) and checks that configuring fails with a message that says where it looked and what to
# write instead.   run.sh NETSCHEMA_SOURCE_DIR WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$2"
if cmake -S "$here" -B "$2" -DNETSCHEMA_SOURCE_DIR="$1" >"$2.log" 2>&1; then
    echo "FAIL: configuring succeeded although game.netschema is not where SCHEMAS says"
    exit 1
fi
# CMake wraps messages: compare with the line breaks and indentation folded into spaces.
text=$(tr '\n' ' ' <"$2.log" | tr -s ' ')
for want in "the schema 'game.netschema' does not exist: looked for $here/game.netschema" \
            "It exists in the IMPORT_DIRS directory $here/schemas: write schemas/game.netschema."; do
    case "$text" in
        *"$want"*) ;;
        *) echo "FAIL: the message lacks: $want"; cat "$2.log"; exit 1 ;;
    esac
done
echo "netschema_generate: a missing schema stops configuring and names where it looked"
