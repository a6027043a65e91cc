#!/usr/bin/env bash
# pprof_read.sh - pprof profile.proto input (src/input/parse_pprof.c):
#   - round trip: --proto of every golden dump, read back, gives the original --text;
#   - an UNSYMBOLIZED profile (addresses - 1, /proc/maps-like mappings with build IDs,
#     inuse_space only, period 0; tests/tools/make_unsym_pprof.py) made from
#     every golden raw dump is symbolized by jeheap and gives the dump's own --collapsed;
#     (its stacks with nothing in use aside), with the same coverage line;
#   - a sample type the profile lacks: status 4 and one line naming the types it has;
#   - hostile files (tests/tools/hostile_pprof.py): one exact line each, status 2;
#   - a sample without locations first (a fuzz_pprof find): read; alone: status 4.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
command -v readelf >/dev/null || { echo "pprof_read: SKIP: readelf missing" >&2; exit 77; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }

cd "$SRC/testdata/golden" || exit 1
for f in */*.heap */*.heap.symbolized; do
  d=$(dirname "$f") b=$(basename "$f")
  n=$((n + 1))
  (cd "$d" && "$JEHEAP" --quiet --proto "$b" > "$TMP/p.pb.gz" &&
    "$JEHEAP" --quiet --text "$b" > "$TMP/want" && "$JEHEAP" --quiet --text "$TMP/p.pb.gz" > "$TMP/got") ||
    { fail "$f: round trip failed to run"; continue; }
  cmp -s "$TMP/want" "$TMP/got" || { fail "$f: --proto then --text differs"; diff "$TMP/want" "$TMP/got" | head -5; }
done
for f in */*.heap; do
  d=$(dirname "$f") b=$(basename "$f")
  n=$((n + 1))
  python3 "$SRC/tests/tools/make_unsym_pprof.py" "$f" "$TMP/u.pb.gz" || { fail "$f: generator"; continue; }
  # (stacks with nothing in use: not in the profile, jemalloc_pprof writes in-use data)
  (cd "$d" && "$JEHEAP" --quiet --collapsed "$b" | grep -v ' 0$' > "$TMP/want" &&
    "$JEHEAP" --quiet --collapsed "$TMP/u.pb.gz" > "$TMP/got") || { fail "$f: unsymbolized: exit $?"; continue; }
  cmp -s "$TMP/want" "$TMP/got" || { fail "$f: unsymbolized --collapsed differs"; diff "$TMP/want" "$TMP/got" | head -5; }
done
# the same one, its coverage line as for the raw dump
(cd cxx-s12 && "$JEHEAP" --verbose --collapsed after.heap 2>&1 >/dev/null | grep '^jeheap: symbolized\|% of bytes fully' > "$TMP/cov1"
  true)
python3 "$SRC/tests/tools/make_unsym_pprof.py" cxx-s12/after.heap "$TMP/u.pb.gz"
(cd cxx-s12 && "$JEHEAP" --verbose --collapsed "$TMP/u.pb.gz" 2>&1 >/dev/null | grep '^jeheap: symbolized\|% of bytes fully' > "$TMP/cov2")
[ -s "$TMP/cov2" ] && cmp -s "$TMP/cov1" "$TMP/cov2" || fail "coverage line: $(cat "$TMP/cov2")"

"$JEHEAP" --quiet --inuse_objects --text "$TMP/u.pb.gz" > "$TMP/out" 2> "$TMP/err"
st=$?
want="jeheap: $TMP/u.pb.gz: no sample type inuse_objects (the profile has: inuse_space)"
[ $st -eq 4 ] && [ "$(cat "$TMP/err")" = "$want" ] && [ ! -s "$TMP/out" ] ||
  fail "missing type: status $st, '$(cat "$TMP/err")'"

mkdir -p "$TMP/h"
python3 "$SRC/tests/tools/hostile_pprof.py" "$TMP/h" > "$TMP/cases"
while IFS=$'\t' read -r file status msg; do
  n=$((n + 1))
  "$JEHEAP" --text "$file" > "$TMP/out" 2> "$TMP/err"
  st=$?
  [ $st -eq "$status" ] && [ "$(cat "$TMP/err")" = "$msg" ] ||
    fail "$(basename "$file"): status $st (want $status): $(head -3 "$TMP/err")"
  gzip -c "$file" > "$file.gz"
  "$JEHEAP" --text "$file.gz" > /dev/null 2> "$TMP/err"
  [ $? -eq "$status" ] && [ "$(cat "$TMP/err")" = "${msg/$file/$file.gz}" ] || fail "$(basename "$file").gz"
done < "$TMP/cases"
# fuzz_pprof's find: a sample without locations (allocator frames only) coming first. It
# reads (the stack pool exists by then; testdata/fuzz-regressions/pprof-empty-first.pb is the
# same file for test_bad_inputs); with no other sample it is dropped: nothing to show.
python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from make_unsym_pprof import field_bytes, field_varint, packed
st = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))
strs = b"".join(field_bytes(6, x.encode()) for x in ("", "inuse_space", "bytes", "f"))
loc = field_bytes(4, field_varint(1, 1) + field_varint(3, 0x1000) + field_bytes(4, field_varint(1, 1)))
fn = field_bytes(5, field_varint(1, 1) + field_varint(2, 3))
empty = field_bytes(2, packed(2, [5]))
one = field_bytes(2, packed(1, [1]) + packed(2, [7]))
open(sys.argv[2] + "/empty_first.pb", "wb").write(st + empty + one + loc + fn + strs)
open(sys.argv[2] + "/empty_only.pb", "wb").write(st + empty + loc + fn + strs)
' "$SRC/tests/tools" "$TMP"
n=$((n + 1))
cmp -s "$TMP/empty_first.pb" "$SRC/testdata/fuzz-regressions/pprof-empty-first.pb" ||
  fail "empty first: testdata/fuzz-regressions/pprof-empty-first.pb is not the generated file"
"$JEHEAP" --collapsed "$TMP/empty_first.pb" > "$TMP/out" 2> "$TMP/err"
st=$?
[ $st -eq 0 ] && grep -qx 'f 7' "$TMP/out" && [ ! -s "$TMP/err" ] ||
  fail "empty first: status $st, $(head -3 "$TMP/out" "$TMP/err")"
"$JEHEAP" --text "$TMP/empty_only.pb" > "$TMP/out" 2> "$TMP/err"
st=$?
[ $st -eq 4 ] && [ "$(cat "$TMP/err")" = "jeheap: nothing to show: no samples in $TMP/empty_only.pb" ] &&
  [ ! -s "$TMP/out" ] || fail "empty only: status $st, $(head -3 "$TMP/err")"
echo "pprof_read: $n checks, $fails failed"
[ "$fails" -eq 0 ]
