#!/usr/bin/env bash
# threads_table.sh - --threads: one row per thread, most bytes first, and
# each figure equal to what --thread=N reports for that thread (itself checked against
# jeprof by the golden tests): bytes = --text --show_bytes --thread=N's Total, objects =
# --inuse_objects' (--alloc_objects' with --alloc_space), share = bytes of the sum, top
# function = --text --thread=N's first row. A profile without thread data: exit 4.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
TMP=$(mktemp -d /tmp/jh_threads.XXXXXX); trap 'rm -rf "$TMP"' EXIT
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
total() { "$JEHEAP" --quiet --text --show_bytes "$@" | sed -n 's/^Total (t[0-9]*): \(-\{0,1\}[0-9]*\) .*$/\1/p'; }
cd "$SRC/testdata/golden" || exit 1
for c in "mt-s12 after.heap.symbolized" "mt-s0-accum after.heap.symbolized --alloc_space" \
  "cxx-s12 after.heap.symbolized" "mtclang-s12-accum before.heap.symbolized"; do
  set -- $c
  d=$1 f=$2 v=${3:-}
  vo=--inuse_objects
  [ "$v" = --alloc_space ] && vo=--alloc_objects
  (cd "$d" && "$JEHEAP" --quiet --threads $v "$f") > "$TMP/t" || { fail "$d/$f: --threads"; continue; }
  sum=0 prev=
  while read -r tid name bytes objects share top; do
    [ "$tid" = thread ] && continue
    n=$((n + 1))
    u=${tid#t}
    want=$(cd "$d" && total $v --thread="$u" "$f")
    [ "$bytes" = "${want:-0}" ] || fail "$d/$f $tid: bytes $bytes, --thread says $want"
    want=$(cd "$d" && total $vo --thread="$u" "$f")
    [ "$objects" = "${want:-0}" ] || fail "$d/$f $tid: objects $objects, --thread says $want"
    want=$(cd "$d" && "$JEHEAP" --quiet --text --thread="$u" $v "$f" | sed -n '2s/^ *\S* *\S* *\S* *\S* *\S* //p')
    [ "$top" = "${want:--}" ] || fail "$d/$f $tid: top function '$top', --thread says '$want'"
    [ -z "$prev" ] || [ "$prev" -ge "$bytes" ] || fail "$d/$f: not sorted by bytes ($prev before $bytes)"
    prev=$bytes sum=$((sum + bytes))
  done < "$TMP/t"
  # shares: of the sum of the rows
  while read -r tid name bytes objects share top; do
    [ "$tid" = thread ] && continue
    want=$(awk -v b="$bytes" -v s="$sum" 'BEGIN { printf "%.1f%%", 100 * b / s }')
    [ "$share" = "$want" ] || fail "$d/$f $tid: share $share, want $want"
  done < "$TMP/t"
done
[ "$n" -ge 10 ] || fail "only $n thread rows"
"$JEHEAP" --threads "$SRC/tests/fixtures/gate/after.symbolized" > "$TMP/o" 2> "$TMP/e"
[ $? = 4 ] && [ "$(cat "$TMP/e")" = "jeheap: nothing to show: $SRC/tests/fixtures/gate/after.symbolized has no per-thread data" ] ||
  fail "no thread data: $(cat "$TMP/e")"
echo "threads_table: $n rows, $fails failed"
[ "$fails" -eq 0 ]
