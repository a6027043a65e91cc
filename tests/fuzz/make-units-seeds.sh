#!/usr/bin/env bash
# make-units-seeds.sh DIR - seeds for fuzz_units: the uncompressed unit blobs of the
# unit indexes that `jeheap --symbols-only` writes for the golden dumps (layout:
# src/symbolize/sym_units.h), those under 64 KB.
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
J=${JEHEAP:-$root/build/release/jeheap}
[ -x "$J" ] || { echo "make-units-seeds.sh: build $J first" >&2; exit 1; }
SRC=$root source "$root/tests/fixtures/golden_bins.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$J" --cache-dir="$tmp/c" --symbols-only "$root"/testdata/golden/*/after.heap >/dev/null 2>&1
mkdir -p "$out"
python3 - "$out" "$tmp"/c/*.jhu <<'PY'
import struct, subprocess, sys
out = sys.argv[1]
for p in sys.argv[2:]:
    b = open(p, "rb").read()
    siglen, nunits, nranges = struct.unpack_from("=IIQ", b, 16)
    at = 32 + siglen + nranges * 24
    for u in range(nunits):
        off, n = struct.unpack_from("=QQ", b, at + 16 * u)
        if not off:
            continue
        raw = subprocess.run(["zstd", "-dc"], input=b[off:off + n], capture_output=True,
                             check=True).stdout
        if len(raw) < 65536:
            name = "%s/unit-%s-%d" % (out, p.rsplit("/", 1)[1][:12], u)
            open(name, "wb").write(raw)
PY
