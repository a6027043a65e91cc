#!/usr/bin/env bash
# make-pprof-seeds.sh DIR - seeds for fuzz_pprof: uncompressed --proto output of the
# symbolized golden dumps (no binaries needed), an unsymbolized one, and the hostile cases.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$1
mkdir -p "$out"
J=build/release/jeheap
[ -x "$J" ] || J=build-fuzz/jeheap
for f in testdata/golden/*/after.heap.symbolized; do
  n=$(basename "$(dirname "$f")")
  "$J" --quiet --proto "$f" 2>/dev/null | gzip -dc > "$out/proto-$n" 2>/dev/null || rm -f "$out/proto-$n"
done
python3 tests/tools/make_unsym_pprof.py testdata/golden/cxx-s12/after.heap "$out/unsym.gz" &&
  gzip -dc "$out/unsym.gz" > "$out/unsym" && rm -f "$out/unsym.gz"
python3 tests/tools/hostile_pprof.py "$out" > /dev/null
