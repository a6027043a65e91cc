#!/usr/bin/env bash
# speedscope.sh - jeheap --speedscope against speedscope itself (npm package speedscope,
# pinned, installed into build/npm by scripts/setup): on every golden dump the file validates against
# the package's file-format-schema.json (python3-jsonschema) and its per-frame totals
# equal --collapsed's (inline frames included); --all-types writes the four values; one
# file loads in speedscope in headless Chromium (tests/tools/cdp.py) with no console error,
# and a broken file (negative control) does show one.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
CHECK=$SRC/tests/tools/speedscope_check.py
REL=$SRC/build/npm/node_modules/speedscope/dist/release # the version scripts/setup pins
python3 -c 'import jsonschema' 2>/dev/null || { echo "speedscope: SKIP: python3-jsonschema missing" >&2; exit 77; }
[ -f "$REL/file-format-schema.json" ] ||
  { echo "speedscope: SKIP: no speedscope package in build/npm (scripts/setup installs it)" >&2; exit 77; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
cd "$SRC/testdata/golden" || exit 1
for f in */*.heap */*.heap.symbolized; do
  d=$(dirname "$f") b=$(basename "$f")
  n=$((n + 1))
  (cd "$d" && "$JEHEAP" --quiet --speedscope "$b" > "$TMP/s.json" &&
    "$JEHEAP" --quiet --collapsed "$b" > "$TMP/c") || { fail "$f: jeheap"; continue; }
  python3 "$CHECK" schema "$REL/file-format-schema.json" "$TMP/s.json" || fail "$f: schema"
  python3 "$CHECK" totals "$TMP/s.json" "$TMP/c" || fail "$f: totals"
done
(cd cxx-s0-accum && "$JEHEAP" --quiet --speedscope --all-types after.heap > "$TMP/all.json")
python3 "$CHECK" schema "$REL/file-format-schema.json" "$TMP/all.json" || fail "--all-types: schema"
[ "$(python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))["profiles"]))' "$TMP/all.json")" = \
  "inuse_space inuse_objects alloc_space alloc_objects" ] || fail "--all-types: profiles"
if python3 -c "import sys; sys.path.insert(0, '$SRC/tests/tools'); from cdp import find_chromium; sys.exit(0 if find_chromium() else 1)"; then
  (cd cxx-s12 && "$JEHEAP" --quiet --speedscope after.heap > "$TMP/load.json")
  timeout 300 python3 "$CHECK" load "$REL" "$TMP/load.json" || fail "speedscope in Chromium"
  # negative control: a file speedscope refuses must be reported
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["profiles"][0]["weights"].append(1); json.dump(d, open(sys.argv[2], "w"))' \
    "$TMP/load.json" "$TMP/broken.json"
  timeout 300 python3 "$CHECK" load "$REL" "$TMP/broken.json" > /dev/null && fail "negative control loaded"
else
  echo "speedscope: SKIP: chromium missing" >&2; exit 77
fi
echo "speedscope: $n files, $fails failed"
[ "$fails" -eq 0 ]
