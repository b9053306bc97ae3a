#!/bin/sh
# Writes to $1 a schema importing big.netschema, made next to it as a sparse file just over the
# compiler's 64 MiB input limit: the import exists but cannot be read.
set -eu
dir=$(dirname "$1")
truncate -s 65M "$dir/big.netschema"
cat >"$1" <<'SCHEMA'
// An import of a file that exists but cannot be read (larger than 64 MiB).
package game;
import "big.netschema";

component Health { i32 hp; }
SCHEMA
