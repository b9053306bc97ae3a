#!/bin/sh
# Writes a schema to $1 with text at the limits: 4096-byte string and bytes defaults (beyond the
# 4095 characters C guarantees in one string literal), names and a package of the longest
# accepted length, and doc comments ending in "??/" (a trigraph in C11) or holding "*/".
set -eu
python3 - "$1" <<'PY'
import sys
name = "n" * 1000
package = ".".join(["p" * 199] * 5)  # 999 characters with the dots
tail = '?\\"\\\\\'\u00e9??/'            # ? " \ ' e-acute ??/ : 10 bytes once unescaped
text = "x" * (4096 - 10) + tail
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write(f"package {package};\n\n")
    f.write("/// A doc comment that ends in a trigraph ??/\n")
    f.write("/// and one that tries to close the comment */ early\n")
    f.write(f"struct {name.upper()} {{\n")
    f.write(f"    /// ??/\n    string<4096> {name} = \"{text}\";\n")
    f.write(f"    bytes<4096> b = \"{text}\";\n")
    f.write(f"    string<4096> fits = \"{text[1:]}\";\n")
    f.write("}\n\n")
    f.write(f"enum E {{ {name} }}\n")
    f.write(f"rpc R {{ E {name}; }}\n")
PY
