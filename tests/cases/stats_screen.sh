#!/usr/bin/env bash
# stats_screen.sh - --stats on golden dumps, raw and .symbolized: one
# screen (at most 24 lines); the totals equal the Total lines of --text --show_bytes for
# each sample type; the unique stacks and the threads are the dump's own (its '@' lines,
# its header's tN: lines); the modules' bytes add up to the in-use total (fewer than 5); the coverage
# figure is the coverage line's; jemalloc's file names give pid and seq.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
command -v xz >/dev/null || { echo "stats_screen: SKIP: xz missing" >&2; exit 77; }
TMP=$(mktemp -d /tmp/jh_stats.XXXXXX); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
total() { { "$JEHEAP" --quiet --text --show_bytes "$@" 2>/dev/null || :; } | sed -n 's/^Total: \(-\{0,1\}[0-9]*\) .*$/\1/p'; }
cd "$SRC/testdata/golden" || exit 1
for f in mt-s12/after.heap cxx-s0-accum/after.heap mt-s0-accum/after.heap.symbolized \
  mtclang-s12-accum/before.heap.symbolized cxx-s12/after.heap.symbolized; do
  n=$((n + 1))
  "$JEHEAP" --stats "$f" > "$TMP/s" 2> "$TMP/err" || { fail "$f: --stats"; continue; }
  [ "$(wc -l < "$TMP/s")" -le 24 ] || fail "$f: more than one screen"
  field() { sed -n "s/^$1 *//p" "$TMP/s"; }
  inuse=$(field 'In use:') alloc=$(field 'Allocated:')
  [ "$inuse" = "$(total "$f") B in $(total --inuse_objects "$f") objects" ] || fail "$f: In use: $inuse"
  a=$(total --alloc_space "$f") o=$(total --alloc_objects "$f")
  [ "$alloc" = "${a:-0} B in ${o:-0} objects" ] || fail "$f: Allocated: $alloc"
  stacks=$(grep -c '^@' "$f")
  field 'Stacks:' | grep -q "^$stacks unique " || fail "$f: Stacks: $(field 'Stacks:'), the dump has $stacks"
  threads=$(awk '/^@/ { exit } /^  t[0-9]+:/ { n++ } END { print n + 0 }' "$f")
  [ "$(field 'Threads:')" = "$threads" ] || fail "$f: Threads: $(field 'Threads:'), the dump has $threads"
  # each row truncated to whole bytes: the sum may be short by one per row
  read -r sum rows < <(awk '/^Modules:/ { on = 1; sub(/^Modules:/, "") } /^Coverage:/ { on = 0 } on { s += $1; r++ } END { print s + 0, r + 0 }' "$TMP/s")
  short=$(( $(total "$f") - sum ))
  [ "$rows" -lt 5 ] && { [ "$short" -ge 0 ] && [ "$short" -lt "$rows" ] || fail "$f: $rows modules add up to $sum, not $(total "$f")"; }
  case $f in
  *.symbolized) grep -q '^Coverage:  names from the profiles (.symbolized)$' "$TMP/s" || fail "$f: Coverage" ;;
  *) pct=$(sed -n 's/^jeheap: \([0-9.]*%\) of bytes fully symbolized.*/\1/p' "$TMP/err")
     grep -q "^Coverage:  $pct of bytes fully symbolized, [0-9]* modules\{0,1\} without debug info$" "$TMP/s" ||
       fail "$f: Coverage: $(field 'Coverage:'), the coverage line says $pct" ;;
  esac
done
cp mt-s12/after.heap.symbolized "$TMP/jeprof.4242.17.i3.heap"
"$JEHEAP" --quiet --stats "$TMP/jeprof.4242.17.i3.heap" | grep -q "^Inputs:    $TMP/jeprof.4242.17.i3.heap: heap_v2, pid 4242, seq 17, sampling period 4096, 12 stacks, 4 threads$" ||
  fail "pid and seq from the name"
echo "stats_screen: $n files, $fails failed"
[ "$fails" -eq 0 ]
