#!/usr/bin/env bash
# growth_gate.sh - --fail-on-growth=SIZE|PCT: exit status 5 and one
# message saying what grew when the growth of the selected sample type between --base and
# the profile is MORE than the threshold; at the threshold and just under it the run
# passes. Exact figures on hand-made profiles (tests/fixtures/gate: +50000 bytes of
# 1000000, 5 %), sizes with K/M/G suffixes, percentages, --focus (only what matches is
# gated), another sample type; then at/under/over on a real dump pair whose growth is
# taken from --text --show_bytes of each dump alone.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
TMP=$(mktemp -d /tmp/jh_gate.XXXXXX); trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
# expect STATUS MESSAGE ARGS...: exit STATUS, stderr exactly MESSAGE ("" = nothing)
expect() {
  local want=$1 msg=$2 rc=0; shift 2
  "$JEHEAP" --quiet "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
  [ "$rc" = "$want" ] || { fail "$*: exit $rc, want $want ($(cat "$TMP/err"))"; return; }
  [ "$(cat "$TMP/err")" = "$msg" ] || fail "$*: stderr '$(cat "$TMP/err")', want '$msg'"
  [ "$want" = 1 ] || grep -q '^Total: ' "$TMP/out" || fail "$*: no report on stdout"
}
cd "$SRC/tests/fixtures/gate" || exit 1
B=(--text --base=before.symbolized after.symbolized)
over="jeheap: inuse_space grew by 50000 bytes (1000000 -> 1050000), more than --fail-on-growth"
most="; grew most: leak_site (+50000)"
expect 0 "" --fail-on-growth=50000 "${B[@]}"                    # at
expect 0 "" --fail-on-growth=50001 "${B[@]}"                    # just under
expect 5 "$over=49999$most" --fail-on-growth=49999 "${B[@]}"    # just over
expect 5 "$over=0$most" --fail-on-growth=0 "${B[@]}"
expect 0 "" --fail-on-growth=5% "${B[@]}"
expect 0 "" --fail-on-growth=5.000001% "${B[@]}"
expect 5 "$over=4.999999% (49999 bytes)$most" --fail-on-growth=4.999999% "${B[@]}"
expect 0 "" --fail-on-growth=49k "${B[@]}"                      # 50176
expect 5 "$over=48K$most" --fail-on-growth=48K "${B[@]}"        # 49152
expect 0 "" --fail-on-growth=1M "${B[@]}"
expect 0 "" --fail-on-growth=1G "${B[@]}"
# --focus: only what matches is gated; the totals are those of what matches
# (nothing changed there: the report has nothing to show, said as a warning; the gate passes)
"$JEHEAP" --fail-on-growth=0 --focus=steady "${B[@]}" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && [ "$(cat "$TMP/err")" = "jeheap: warning: nothing to show: nothing matches --focus=steady" ] ||
  fail "--focus=steady: exit $rc, $(cat "$TMP/err")"
expect 5 "jeheap: inuse_space of --focus=leak grew by 50000 bytes (600000 -> 650000), more than --fail-on-growth=49999$most" \
  --fail-on-growth=49999 --focus=leak "${B[@]}"
expect 5 "jeheap: inuse_space of --focus=leak grew by 50000 bytes (600000 -> 650000), more than --fail-on-growth=8.3333% (49999 bytes)$most" \
  --fail-on-growth=8.3333% --focus=leak "${B[@]}"
expect 0 "" --fail-on-growth=8.3334% --focus=leak "${B[@]}"
# the selected sample type: 2 -> 3 objects
expect 0 "" --fail-on-growth=1 --inuse_objects "${B[@]}"
expect 5 "jeheap: inuse_objects grew by 1 objects (2 -> 3), more than --fail-on-growth=0; grew most: leak_site (+1)" \
  --fail-on-growth=0 --inuse_objects "${B[@]}"
# any report: the JSON is written, then the gate decides
"$JEHEAP" --quiet --json --fail-on-growth=1K --base=before.symbolized after.symbolized > "$TMP/j" 2>/dev/null
[ $? = 5 ] && grep -q '"format": "jeheap-summary"' "$TMP/j" || fail "--json --fail-on-growth"
# usage errors
expect 1 "jeheap: --fail-on-growth=1K needs --base or --series (the dumps to compare)" \
  --text --fail-on-growth=1K after.symbolized
for bad in 5X 1.5K -3 %5 '' 5%% 1e3 99999999999999999999; do
  expect 1 "jeheap: --fail-on-growth: '$bad' is neither a size (bytes, with an optional K, M or G suffix) nor a percentage like 5%" \
    --fail-on-growth="$bad" "${B[@]}"
done

# a real pair (lg_prof_sample:12: unsampled values): growth from each dump's own Total
cd "$SRC/testdata/golden/mt-s12" || exit 1
total() { "$JEHEAP" --quiet --text --show_bytes "$1" | sed -n 's/^Total: \([0-9-]*\) B$/\1/p'; }
A=$(total after.heap.symbolized) Z=$(total before.heap.symbolized)
G=$((A - Z))
[ "$G" -gt 0 ] || fail "mt-s12: no growth ($Z -> $A)"
R=(--text --base=before.heap.symbolized after.heap.symbolized)
expect 0 "" --fail-on-growth=$G "${R[@]}"
expect 0 "" --fail-on-growth=$((G + 1)) "${R[@]}"
expect 5 "jeheap: inuse_space grew by $G bytes ($Z -> $A), more than --fail-on-growth=$((G - 1)); grew most: realloc_site (+11468799), leaf_alloc (+9290800), inl_leaf (inline) (+3028999)" \
  --fail-on-growth=$((G - 1)) "${R[@]}"
echo "growth_gate: $fails failed"
[ "$fails" -eq 0 ]
