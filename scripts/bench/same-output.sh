#!/usr/bin/env bash
# same-output.sh OLD NEW - runs two jeheap binaries on every dump of testdata/ (and the
# bench files when present) and reports any command whose stdout or exit status differs.
# Used to show that a refactoring changes no output. Exit 0 when all agree.
#   OLD, NEW   jeheap binaries
#   JH_BENCH_DIR (default build/bench)   adds bench.heap(.symbolized) and the ceph-osd dumps
set -uo pipefail
OLD=$1 NEW=$2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
BIN=/tmp/jeheap-golden/bin; mkdir -p "$BIN"
for f in "$SRC"/testdata/golden/bin/*.xz; do
  b=$BIN/$(basename "$f" .xz)
  [ -x "$b" ] || { xz -dc "$f" > "$b.tmp" && chmod +x "$b.tmp" && mv "$b.tmp" "$b"; }
done
n=0 bad=0
run() { # args... ; compares stdout + status
  n=$((n+1))
  "$OLD" "$@" > "$T/o" 2> "$T/oe"; echo "rc=$?" >> "$T/o"
  "$NEW" "$@" > "$T/n" 2> "$T/ne"; echo "rc=$?" >> "$T/n"
  if ! cmp -s "$T/o" "$T/n"; then bad=$((bad+1)); echo "DIFFERS: jeheap $*"; diff "$T/o" "$T/n" | head -5; fi
}
mapfile -t dumps < <(find "$SRC/testdata" \( -name '*.heap' -o -name '*.symbolized' -o -name '*.heap.*' \) -type f | sort)
for d in "${dumps[@]}"; do
  case $d in *.expected|*.out) continue;; esac
  run --text "$d"
  run --collapsed "$d"
done
for c in "$SRC"/testdata/golden/*/; do
  [ -f "$c/before.heap" ] || continue
  for ext in heap heap.symbolized; do
    run --collapsed --base="$c/before.$ext" "$c/after.$ext"
    run --text --base="$c/before.$ext" "$c/after.$ext"
    run --text --show_bytes --alloc_space "$c/after.$ext"
    run --dot "$c/after.$ext"
    run --callgrind "$c/after.$ext"
    run --raw "$c/after.$ext"
    run --text --thread='*' "$c/after.$ext"
  done
done
B=${JH_BENCH_DIR:-$SRC/build/bench}
for f in "$B/parse/bench.heap.symbolized" "$B/parse/bench.heap" "$B"/ceph/ceph-osd.medium.heap; do
  [ -f "$f" ] || continue
  run --text "$f"; run --collapsed "$f"
done
[ -f "$B/parse/bench.heap.symbolized" ] && run --collapsed --base="$B/parse/bench.heap.symbolized" "$B/parse/bench.heap.symbolized"
echo "$n commands, $bad differ"
[ $bad -eq 0 ]
