#!/usr/bin/env bash
# pprof_go.sh - jeheap --proto read by Debian's Go pprof (golang-go), on every golden dump
# (testdata/golden/*/*.heap and *.heap.symbolized; raw dumps against the committed binaries):
#   - `go tool pprof -top -nodecount=1000 -sample_index=T` gives jeheap --text --show_bytes
#     --T's flat and cum per function (rounding aside) for each of the four sample types;
#   - `-traces` gives jeheap --collapsed's stacks and values, inline frames included;
#   - `-raw` shows the build ID (readelf's) of every mapped file of a raw dump, and each
#     function's start line (`s=N`) is llvm-symbolizer's "Function start line" for it;
#   - with --base the values are negative where the profile shrank (a golden pair).
# The comparisons are tests/tools/pprof_oracle.py's. Go runs offline in temporary dirs.
NAME=pprof_go
source "${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fixtures/go_pprof_env.sh"

# Failures print a line starting FAIL (counted at the end: the cases run in subshells).
check() { # NAME COMMAND...
  local name=$1; shift
  "$@" > "$TMP/why" 2>&1 || { echo "FAIL $name"; head -20 "$TMP/why"; }
}
pprof() { go tool pprof -symbolize=none -unit=B -nodefraction=0 -edgefraction=0 "$@"; }

# one_file NAME PROTO-ARGS...: --proto with these arguments, then every comparison
one_file() {
  local name=$1; shift
  local pb=$TMP/p.pb.gz
  if ! "$JEHEAP" --quiet --proto "$@" > "$pb" 2> "$TMP/err"; then
    echo "FAIL $name: jeheap --proto: $(cat "$TMP/err")"; return
  fi
  pprof -raw "$pb" > "$TMP/raw" 2> "$TMP/err" ||
    { echo "FAIL $name: pprof -raw: $(head -3 "$TMP/err")"; return; }
  local n
  n=$(awk '/^Samples:/{s=1;next} /^Locations/{s=0} s && /^ *-?[0-9]+ /{n++} END{print n+0}' \
    "$TMP/raw")
  for t in alloc_objects alloc_space inuse_objects inuse_space; do
    "$JEHEAP" --quiet --text --show_bytes --$t "$@" > "$TMP/text" 2>/dev/null
    pprof -top -nodecount=1000 -sample_index=$t "$pb" > "$TMP/top" 2> "$TMP/err"
    check "$name top $t" python3 "$ORACLE" top "$TMP/text" "$TMP/top" "$n"
  done
  "$JEHEAP" --quiet --collapsed "$@" > "$TMP/collapsed" 2>/dev/null
  pprof -traces -sample_index=inuse_space "$pb" > "$TMP/traces" 2> "$TMP/err"
  check "$name traces" python3 "$ORACLE" traces "$TMP/collapsed" "$TMP/traces"
}

cd "$SRC/testdata/golden" || exit 1
for f in */*.heap */*.heap.symbolized; do
  (cd "$(dirname "$f")" && one_file "$f" "$(basename "$f")")
done > "$TMP/log"
cat "$TMP/log"
fails=$(grep -c '^FAIL' "$TMP/log")

# raw dumps: the build IDs of the mapped files
for f in */after.heap; do
  (cd "$(dirname "$f")" && "$JEHEAP" --quiet --proto after.heap > "$TMP/b.pb.gz" &&
    go tool pprof -raw "$TMP/b.pb.gz" > "$TMP/braw" 2>/dev/null &&
    python3 "$ORACLE" buildids "$TMP/braw") || { fails=$((fails + 1)); echo "FAIL $f build IDs"; }
  # the functions' start_line (`s=N`): llvm-symbolizer's "Function start line" per frame
  python3 "$SRC/tests/tools/start_line_check.py" "$TMP/braw" > "$TMP/sl" ||
    { fails=$((fails + 1)); echo "FAIL $f start lines"; head -5 "$TMP/sl"; }
done

# --base: negative values where the profile shrank, read by pprof as they are
cd cxx-s12 || exit 1
one_file "cxx-s12 --base" --base=after.heap before.heap > "$TMP/log2"
cat "$TMP/log2"
fails=$((fails + $(grep -c '^FAIL' "$TMP/log2")))
"$JEHEAP" --quiet --proto --base=after.heap before.heap > "$TMP/neg.pb.gz"
go tool pprof -raw "$TMP/neg.pb.gz" 2>/dev/null | grep -Eq '^ +-?[0-9]+ +-?[0-9]+ +-[0-9]+ +-[0-9]+:' ||
  { fails=$((fails + 1)); echo "FAIL --base: no negative sample in pprof -raw"; }

nfiles=$(cd "$SRC/testdata/golden" && ls */*.heap */*.heap.symbolized | wc -l)
echo "pprof_go: $nfiles files x (4 -top + -traces), build IDs, start lines, --base: $fails failed"
[ "$fails" -eq 0 ]
