#!/usr/bin/env bash
# golden_bins.sh SRC - puts the golden corpus' committed binaries (testdata/golden/bin/*.xz)
# where its raw dumps name them, /tmp/jeheap-golden/bin/* (sourced by the tests that read
# the raw dumps). Exit 77 (skip) without xz.
BIN=/tmp/jeheap-golden/bin
command -v xz >/dev/null || { echo "$(basename "$0"): SKIP: xz missing" >&2; exit 77; }
mkdir -p "$BIN"
for f in "$1"/testdata/golden/bin/*.xz; do
  b=$BIN/$(basename "$f" .xz)
  xz -dc "$f" | cmp -s - "$b" 2>/dev/null ||
    { xz -dc "$f" > "$b.$$.tmp" && chmod +x "$b.$$.tmp" && mv "$b.$$.tmp" "$b"; }
done
