#!/usr/bin/env bash
# pprof_views.sh - Go pprof's text views and frame filters against Debian's Go pprof
# (golang-go) on the same profile: for each golden dump (testdata/golden/*/*.heap against
# the committed binaries, and *.heap.symbolized), `jeheap --proto DUMP` is read by
# `go tool pprof`, and jeheap's own view of DUMP must give the same stacks and values:
#   - --traces vs -traces, --tree vs -tree (every node's flat, cum, callers and callees with
#     the edge values) for inuse_space on every .symbolized file, the other three sample
#     types on the prof_accum ones;
#   - on four raw dumps (C, C++ with inline frames, clang, Callback::Run): the same, and
#     --peek=RE vs -peek=RE, and --hide, --show, --show_from, --prune_from, --noinlines
#     (jeheap's filters on the dump) vs the same pprof options on the unfiltered proto,
#     through --traces and --tree;
#   - negative controls: another sample type, a filter on one side only, must be told apart.
# pprof's full names are shortened as jeprof's (tests/tools/pprof_oracle.py vtraces/vtree);
# values are compared as numbers (jeheap --show_bytes vs pprof -unit=B), within the rounding
# of pprof's integer samples.
NAME=pprof_views
source "${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fixtures/go_pprof_env.sh"

PPROF=$(go env GOTOOLDIR)/pprof # `go tool pprof` without the go command's start-up
[ -x "$PPROF" ] || PPROF="go tool pprof"
pprof() { $PPROF -symbolize=none -unit=B -nodefraction=0 -edgefraction=0 "$@"; }
checks=0
# compare NAME KIND(vtraces|vtree) JEHEAP-VIEW-ARGS -- PPROF-ARGS: one comparison
compare() {
  local name=$1 kind=$2; shift 2
  local mine=() theirs=()
  while [ "$1" != -- ]; do mine+=("$1"); shift; done
  shift; theirs=("$@")
  checks=$((checks + 1))
  "$JEHEAP" --quiet --show_bytes "${mine[@]}" "$FILE" > "$TMP/mine" 2> "$TMP/err"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
    echo "FAIL $name: jeheap ${mine[*]}: exit $rc: $(cat "$TMP/err")"; return
  fi
  if ! pprof "${theirs[@]}" "$TMP/p.pb.gz" > "$TMP/theirs" 2> "$TMP/err"; then
    grep -q 'no matches found' "$TMP/err" && [ $rc -eq 4 ] && return
    echo "FAIL $name: pprof ${theirs[*]}: $(head -3 "$TMP/err")"; return
  fi
  local extra=()
  [ "$kind" = vtree ] && extra=("$NSAMPLES")
  python3 "$ORACLE" "$kind" "$TMP/mine" "$TMP/theirs" "${extra[@]}" > "$TMP/why" 2>&1 ||
    { echo "FAIL $name: ${mine[*]}"; head -10 "$TMP/why"; }
}

# the filters, each compared on its own
FILTERS=("hide=_site|inl_|std::|operator|_start" "show=main|leaf|site|jhlib|ns::|operator|Run|Leaf"
  "show_from=make|fill|Leaf|main" "prune_from=site|leaf|fill|arrays|operator|construct|jhlib"
  "noinlines")

one_file() { # FILE TYPES FILTERS(0|1)
  FILE=$1
  local types=$2 filters=$3
  if ! "$JEHEAP" --quiet --proto "$FILE" > "$TMP/p.pb.gz" 2> "$TMP/err"; then
    echo "FAIL $FILE: jeheap --proto: $(cat "$TMP/err")"; return
  fi
  NSAMPLES=$(pprof -raw "$TMP/p.pb.gz" 2>/dev/null |
    awk '/^Samples:/{s=1;next} /^Locations/{s=0} s && /^ *-?[0-9]+ /{n++} END{print n+0}')
  for t in $types; do
    compare "$FILE traces $t" vtraces --traces --$t -- -traces -sample_index=$t
    compare "$FILE tree $t" vtree --tree --$t -- -tree -sample_index=$t
  done
  [ "$filters" = 1 ] || return
  # (pprof matches full names: anchored, as template arguments name main too)
  compare "$FILE peek" vtree --peek='^main$|^leaf' -- -peek='^main$|^leaf' -sample_index=inuse_space
  for f in "${FILTERS[@]}"; do
    compare "$FILE traces --$f" vtraces --traces --"$f" -- -traces -"$f" -sample_index=inuse_space
    compare "$FILE tree --$f" vtree --tree --"$f" -- -tree -"$f" -sample_index=inuse_space
  done
}

cd "$SRC/testdata/golden" || exit 1
{
  for f in */*.heap.symbolized; do
    types=inuse_space
    case $f in *-accum/after.heap.symbolized) types="$types inuse_objects alloc_space alloc_objects" ;; esac
    (cd "$(dirname "$f")" && one_file "$(basename "$f")" "$types" 0; echo "checks $checks")
  done
  for f in cxx-s12/after.heap mt-s12/after.heap parity/after.heap mtclang-s12-accum/after.heap; do
    (cd "$(dirname "$f")" && one_file "$(basename "$f")" inuse_space 1; echo "checks $checks")
  done
} > "$TMP/log"
# the filters in the other reports: --text vs -top, --collapsed vs -traces (with the filter
# given to pprof on the unfiltered proto), and jeheap's filtered --proto read by pprof
other_reports() { # FILE
  FILE=$1
  "$JEHEAP" --quiet --proto "$FILE" > "$TMP/p.pb.gz" 2> "$TMP/err" ||
    { echo "FAIL $FILE: jeheap --proto: $(cat "$TMP/err")"; return; }
  NSAMPLES=$(pprof -raw "$TMP/p.pb.gz" 2>/dev/null |
    awk '/^Samples:/{s=1;next} /^Locations/{s=0} s && /^ *-?[0-9]+ /{n++} END{print n+0}')
  for f in "${FILTERS[@]}"; do
    checks=$((checks + 3))
    "$JEHEAP" --quiet --text --show_bytes --"$f" "$FILE" > "$TMP/text" 2>/dev/null
    pprof -top -nodecount=1000 -sample_index=inuse_space -"$f" "$TMP/p.pb.gz" > "$TMP/top" 2>/dev/null
    python3 "$ORACLE" top "$TMP/text" "$TMP/top" "$NSAMPLES" > "$TMP/why" 2>&1 ||
      { echo "FAIL $FILE --text --$f"; head -10 "$TMP/why"; }
    "$JEHEAP" --quiet --collapsed --"$f" "$FILE" > "$TMP/coll" 2>/dev/null
    pprof -traces -sample_index=inuse_space -"$f" "$TMP/p.pb.gz" > "$TMP/traces" 2>/dev/null
    python3 "$ORACLE" traces "$TMP/coll" "$TMP/traces" > "$TMP/why" 2>&1 ||
      { echo "FAIL $FILE --collapsed --$f"; head -10 "$TMP/why"; }
    "$JEHEAP" --quiet --proto --"$f" "$FILE" > "$TMP/f.pb.gz" 2>/dev/null
    pprof -traces -sample_index=inuse_space "$TMP/f.pb.gz" > "$TMP/traces" 2>/dev/null
    python3 "$ORACLE" traces "$TMP/coll" "$TMP/traces" > "$TMP/why" 2>&1 ||
      { echo "FAIL $FILE --proto --$f"; head -10 "$TMP/why"; }
  done
}
for f in cxx-s12/after.heap parity/after.heap; do
  (cd "$SRC/testdata/golden/$(dirname "$f")" && other_reports "$(basename "$f")"
    echo "checks $checks")
done >> "$TMP/log"
grep -v '^checks ' "$TMP/log"
fails=$(grep -c '^FAIL' "$TMP/log")
n=$(awk '/^checks /{n += $2} END{print n+0}' "$TMP/log")

# negative controls: the oracle tells a wrong answer apart
cd "$SRC/testdata/golden/cxx-s12" || exit 1
FILE=after.heap
"$JEHEAP" --quiet --proto "$FILE" > "$TMP/p.pb.gz"
"$JEHEAP" --quiet --show_bytes --traces "$FILE" > "$TMP/mine"
pprof -traces -sample_index=inuse_space -hide=fill "$TMP/p.pb.gz" > "$TMP/theirs" 2>/dev/null
python3 "$ORACLE" vtraces "$TMP/mine" "$TMP/theirs" > /dev/null &&
  { fails=$((fails + 1)); echo "FAIL control: --traces vs -traces -hide=fill not told apart"; }
"$JEHEAP" --quiet --show_bytes --tree --noinlines "$FILE" > "$TMP/mine"
pprof -tree -sample_index=inuse_space "$TMP/p.pb.gz" > "$TMP/theirs" 2>/dev/null
python3 "$ORACLE" vtree "$TMP/mine" "$TMP/theirs" 100 > /dev/null &&
  { fails=$((fails + 1)); echo "FAIL control: --tree --noinlines vs -tree not told apart"; }
pprof -tree -sample_index=inuse_objects "$TMP/p.pb.gz" > "$TMP/theirs" 2>/dev/null
"$JEHEAP" --quiet --show_bytes --tree "$FILE" > "$TMP/mine"
python3 "$ORACLE" vtree "$TMP/mine" "$TMP/theirs" 100 > /dev/null &&
  { fails=$((fails + 1)); echo "FAIL control: inuse_space vs inuse_objects not told apart"; }

echo "pprof_views: $n comparisons with go tool pprof, 3 controls: $fails failed"
[ "$fails" -eq 0 ] && [ "$n" -ge 100 ]
