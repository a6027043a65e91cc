#!/usr/bin/env bash
# json_schema.sh - jeheap --json on every golden dump, raw and
# .symbolized: the output validates against the schema block of docs/json.md
# (python3-jsonschema), is the same bytes on a second run, its totals of the four sample
# types equal the Total: lines of --text --show_bytes (jeheap's, checked against jeprof by
# the golden tests) and its rows their rows; with --base the changes per function equal
# --text's; --nodecount caps the rows; names with control characters, quotes and invalid
# UTF-8 read back as the profile's names; jemalloc's file names give pid, seq and tag.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
CHECK=$SRC/tests/tools/json_check.py
DOC=$SRC/docs/json.md
python3 -c 'import jsonschema' 2>/dev/null || { echo "json_schema: SKIP: python3-jsonschema missing" >&2; exit 77; }
command -v xz >/dev/null || { echo "json_schema: SKIP: xz missing" >&2; exit 77; }
TMP=$(mktemp -d /tmp/jh_json.XXXXXX); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
# text OUT ARGS...: --text --show_bytes ARGS into OUT; exit 4 (nothing to show) is an empty OUT
text() {
  local out=$1 rc=0; shift
  "$JEHEAP" --quiet --text --show_bytes "$@" > "$out" 2>/dev/null || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 4 ]
}

# check LABEL CMD ARGS...: a json_check.py command, run in one batch at the end
B=$TMP/batch
check() { printf '# %s\n' "$1" >> "$B"; shift; (IFS=$'\t'; echo "$*") >> "$B"; }

cd "$SRC/testdata/golden" || exit 1
# every .symbolized dump, and raw dumps of a C and a C++ program (symbolized by jeheap)
for f in */*.heap.symbolized mt-s12/after.heap cxx-s12/after.heap; do
  d=$(dirname "$f") b=$(basename "$f") o=$TMP/$n
  n=$((n + 1))
  (cd "$d" && "$JEHEAP" --quiet --json "$b" > "$o.json" &&
    "$JEHEAP" --quiet --json "$b" > "$o.2.json") || { fail "$f: jeheap --json"; continue; }
  cmp -s "$o.json" "$o.2.json" || fail "$f: two runs differ"
  check "$f" schema "$DOC" "$o.json"
  for v in inuse_space inuse_objects alloc_space alloc_objects; do
    (cd "$d" && text "$o.$v" --$v "$b") || { fail "$f: --text --$v"; continue; }
    check "$f --$v" text "$o.json" "$o.$v" $v
  done
  (cd "$d" && text "$o.t" "$b") && check "$f rows" text "$o.json" "$o.t" || fail "$f: --text"
  # another sample type and granularity
  g=--files
  case $b in *.heap) g=--lines ;; esac
  (cd "$d" && "$JEHEAP" --quiet --json --inuse_objects $g "$b" > "$o.o.json" &&
    text "$o.o.t" --inuse_objects $g "$b") || { fail "$f: --inuse_objects $g"; continue; }
  check "$f --inuse_objects $g" schema "$DOC" "$o.o.json"
  check "$f --inuse_objects $g" text "$o.o.json" "$o.o.t"
done
# --base: the changes
for f in */before.heap.symbolized mt-s12/before.heap; do
  d=$(dirname "$f") s=${f#*/before.} o=$TMP/$n
  n=$((n + 1))
  (cd "$d" && "$JEHEAP" --quiet --json --base=before.$s after.$s > "$o.json" &&
    text "$o.t" --base=before.$s after.$s) || { fail "$d/$s: --base"; continue; }
  check "$d/$s --base" schema "$DOC" "$o.json"
  check "$d/$s --base" text "$o.json" "$o.t"
  check "$d/$s --base" diff "$o.json" "$o.t"
done
python3 "$CHECK" batch "$B" || fails=$((fails + 1))
# --nodecount caps the rows; --cum sorts by cum
(cd mt-s12 && "$JEHEAP" --quiet --json --nodecount=3 after.heap > "$TMP/n.json")
[ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["functions"]["rows"]), d["functions"]["nodecount"])' "$TMP/n.json")" = "3 3" ] ||
  fail "--nodecount=3"
(cd mt-s12 && "$JEHEAP" --quiet --json --cum after.heap > "$TMP/c.json")
python3 -c 'import json,sys; r=[x["cum_bytes"] for x in json.load(open(sys.argv[1]))["functions"]["rows"]]; sys.exit(r != sorted(r, reverse=True))' "$TMP/c.json" ||
  fail "--cum: rows not sorted by cum"

# hostile names, and invalid UTF-8 (0xff, a lone continuation byte) next to valid UTF-8 (é)
FX=$SRC/tests/fixtures/hostile/names.symbolized
sed 's/^\(0x0*4000f0\) .*/\1 bad\xffutf8\x80é/' "$FX" > "$TMP/names.symbolized"
grep -q $'bad\xff' "$TMP/names.symbolized" || fail "could not make the invalid UTF-8 fixture"
for p in "$FX" "$TMP/names.symbolized"; do
  n=$((n + 1))
  "$JEHEAP" --quiet --json "$p" > "$TMP/h.json" || { fail "$p: --json"; continue; }
  python3 "$CHECK" schema "$DOC" "$TMP/h.json" || fail "$p: schema"
  python3 "$CHECK" names "$TMP/h.json" "$p" || fail "$p: names"
done
grep -q 'bad\\u00ffutf8\\u0080é' "$TMP/h.json" || fail "invalid UTF-8 not escaped as \\u00XX"
grep -q 'ctl\\u0001char' "$TMP/h.json" || fail "control character not escaped as \\u00XX"

# jemalloc's names: PREFIX.<pid>.<seq>.<tag><n>.heap, also with dots in PREFIX
cp mt-s12/after.heap.symbolized "$TMP/jeprof.4242.17.i3.heap"
cp mt-s12/after.heap.symbolized "$TMP/my.app.99.0.f.heap.symbolized"
cp mt-s12/after.heap.symbolized "$TMP/prof.x.17.i3.heap"
for c in "jeprof.4242.17.i3.heap 4242 17 i" "my.app.99.0.f.heap.symbolized 99 0 f" \
  "prof.x.17.i3.heap null null null"; do
  set -- $c
  "$JEHEAP" --quiet --json "$TMP/$1" > "$TMP/i.json" && python3 "$CHECK" inputs "$TMP/i.json" $2 $3 $4 ||
    fail "$1: pid/seq/tag"
done
# nothing to show is still a summary: exit 0, zero change, no rows
"$JEHEAP" --quiet --json --base=mt-s12/after.heap.symbolized mt-s12/after.heap.symbolized > "$TMP/z.json" ||
  fail "--json, profile equal to its base: exit $?"
python3 "$CHECK" schema "$DOC" "$TMP/z.json" || fail "--json, profile equal to its base: schema"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["totals"]["inuse_space"] == 0 and d["functions"]["rows"] == [] and d["diff"]["growing_stacks"] == []))' "$TMP/z.json" ||
  fail "--json, profile equal to its base: not an empty change"
# --thread does not apply
"$JEHEAP" --json --thread=0 mt-s12/after.heap.symbolized > /dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q 'jeheap: --json summarises the whole process: --thread does not apply' "$TMP/err" ||
  fail "--json --thread: not a usage error"
echo "json_schema: $n runs, $fails failed"
[ "$fails" -eq 0 ]
