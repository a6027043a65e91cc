#!/usr/bin/env bash
# series_gate.sh - --series --fail-on-growth=SIZE|PCT on the real
# series of tests/fixtures/series/leaky.c (make_series.sh): the growth is the selected
# sample type's, first dump -> last dump, taken here from --text --show_bytes of those two
# dumps alone; the gate passes at the threshold and just under it, and fails just over it
# with exit 5 and one message saying what grew (the series table still written); PCT is
# of the first dump's total, at its smallest passing value (6 decimals) and one millionth
# of a percent below; --focus gates only what matches: leak_step (grows) fails, churn
# (freed again) passes a threshold the whole process fails; --stacks gates the same
# totals; --json is written, then the gate decides; usage errors.
set -uo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
fails=0
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
source "$JH_SRC/tests/fixtures/series/make_series.sh"
jh_series_fixture series-gate || { echo "FAIL: no series of 11 dumps or more"; exit 1; }
files=("${JH_SERIES[@]}") n=${#JH_SERIES[@]}
first=${files[0]} last=${files[$((n - 1))]}

# expect STATUS MESSAGE ARGS...: --series ARGS exits STATUS, stderr exactly MESSAGE ("" =
# nothing), the table on stdout (unless a usage error)
expect() {
  local want=$1 msg=$2 rc=0; shift 2
  "$JEHEAP" --quiet --series "$@" ./leaky "${files[@]}" >out 2>err || rc=$?
  [ "$rc" = "$want" ] || { fail "$*: exit $rc, want $want ($(cat err))"; return; }
  [ "$(cat err)" = "$msg" ] || fail "$*: stderr '$(cat err)', want '$msg'"
  if [ "$want" = 1 ]; then
    [ ! -s out ] || fail "$*: output written on a usage error"
  else
    grep -q '^Series of '"$n"' dumps' out || grep -q '"series": {' out || fail "$*: no series on stdout"
  fi
}
# total [OPTS] DUMP: the Total: line of --text --show_bytes; kept OPTS DUMP: the sum of
# the flat column (what --focus keeps)
total() {
  "$JEHEAP" --quiet --text --show_bytes "${@:1:$#-1}" ./leaky "${!#}" 2>/dev/null |
    sed -n 's/^Total: \([0-9-]*\) [A-Za-z]*$/\1/p'
}
kept() {
  "$JEHEAP" --quiet --text --show_bytes --nodecount=100000 "$@" 2>/dev/null |
    awk '!/^Total/ && NF >= 6 {s += $1} END {print s + 0}'
}
Z=$(total "$first") A=$(total "$last")
G=$((A - Z))
[ "$G" -gt 1048576 ] || fail "no growth over the series ($Z -> $A)"
# grew_most OPTS: "; grew most: f (+N), ..." from the table's growth column: the three
# rows that grew most (ties in the table's order), the leak first
grew_most() {
  "$JEHEAP" --quiet --series --show_bytes "$@" ./leaky "${files[@]}" |
    awk -v n="$n" '$1 == "#1" {on = 1; next}
      on && $(n + 3) != "Total" && $(n + 1) + 0 > 0 {
        name = $0; for (i = 1; i <= n + 2; i++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
        printf "%d\t%s\n", $(n + 1), name }' |
    sort -s -t$'\t' -k1,1nr | head -3 | awk -F'\t' '{printf "%s%s (+%d)", (NR > 1 ? ", " : "; grew most: "), $2, $1}'
}
most=$(grew_most)
[[ $most =~ ^"; grew most: leak_step"(\.constprop\.0)?" (+" ]] || fail "the leak did not grow most: $most"
leak=$(sed 's/^; grew most: \([^ ]*\) .*/\1/' <<<"$most")
over="jeheap: inuse_space grew by $G bytes over the series ($Z -> $A), more than --fail-on-growth"
# SIZE: at, just under, just over
expect 0 "" --fail-on-growth=$G
expect 0 "" --fail-on-growth=$((G + 1))
expect 5 "$over=$((G - 1))$most" --fail-on-growth=$((G - 1))
expect 5 "$over=0$most" --fail-on-growth=0
expect 5 "$over=1K$most" --fail-on-growth=1K
expect 0 "" --fail-on-growth=1G
# PCT of the first dump's total: P millionths of a percent, the smallest that passes
P=$(((G * 100000000 + Z - 1) / Z))
pct() { printf '%d.%06d%%' $(($1 / 1000000)) $(($1 % 1000000)); }
expect 0 "" --fail-on-growth="$(pct $P)"
expect 0 "" --fail-on-growth="$(pct $((P + 1)))"
expect 5 "$over=$(pct $((P - 1))) ($((Z * (P - 1) / 100000000)) bytes)$most" \
  --fail-on-growth="$(pct $((P - 1)))"
# --stacks, --cum, --lines: the same totals are gated
for o in --stacks --cum --lines; do
  expect 0 "" $o --fail-on-growth=$G
  rc=0
  "$JEHEAP" --quiet --series $o --fail-on-growth=$((G - 1)) ./leaky "${files[@]}" >out 2>err || rc=$?
  [ $rc = 5 ] && grep -q "^$over=$((G - 1)); grew most: " err || fail "$o: exit $rc $(cat err)"
done
# --focus: only what matches; leak_step grows, churn does not (freed again)
LZ=$(kept --focus=leak_step ./leaky "$first") LA=$(kept --focus=leak_step ./leaky "$last")
CZ=$(kept --focus=churn ./leaky "$first") CA=$(kept --focus=churn ./leaky "$last")
LG2=$((LA - LZ)) CG=$((CA - CZ)) TC=$((CA - CZ > 0 ? CA - CZ : 0))
[ "$LG2" -gt "$TC" ] && [ "$TC" -lt "$G" ] || fail "leak_step +$LG2, churn +$CG: no margin"
lmost=$(grew_most --focus=leak_step)
expect 0 "" --focus=leak_step --fail-on-growth=$LG2
expect 5 "jeheap: inuse_space of --focus=leak_step grew by $LG2 bytes over the series ($LZ -> $LA), more than --fail-on-growth=$((LG2 - 1))$lmost" \
  --focus=leak_step --fail-on-growth=$((LG2 - 1))
expect 0 "" --focus=churn --fail-on-growth=$TC  # the whole process fails at TC (< G) ...
expect 5 "$over=$TC$most" --fail-on-growth=$TC  # ... as here
expect 5 "jeheap: inuse_space of --focus=leak_step grew by $LG2 bytes over the series ($LZ -> $LA), more than --fail-on-growth=$TC$lmost" \
  --focus=leak_step --fail-on-growth=$TC
# nothing matches: the gate passes, the reason is a warning
rc=0
"$JEHEAP" --series --focus=no_such_function --fail-on-growth=0 ./leaky "${files[@]}" >out 2>err || rc=$?
[ $rc = 0 ] && [ "$(cat err)" = "jeheap: warning: nothing to show: nothing matches --focus=no_such_function" ] ||
  fail "--focus=no_such_function: exit $rc $(cat err)"
# another sample type: objects
OZ=$(total --inuse_objects "$first") OA=$(total --inuse_objects "$last")
expect 0 "" --inuse_objects --fail-on-growth=$((OA - OZ))
rc=0
"$JEHEAP" --quiet --series --inuse_objects --fail-on-growth=$((OA - OZ - 1)) ./leaky "${files[@]}" >out 2>err || rc=$?
[ $rc = 5 ] && grep -q "^jeheap: inuse_objects grew by $((OA - OZ)) objects over the series ($OZ -> $OA), more than --fail-on-growth=$((OA - OZ - 1)); grew most: $leak (+" err ||
  fail "--inuse_objects: exit $rc $(cat err)"
# --json: written (and valid), then the gate decides
expect 5 "$over=$((G - 1))$most" --json --fail-on-growth=$((G - 1))
python3 "$JH_SRC/tests/tools/json_check.py" schema "$JH_SRC/docs/json.md" out || fail "--json: schema"
# usage errors: nothing written
expect 1 "jeheap: --fail-on-growth: '5X' is neither a size (bytes, with an optional K, M or G suffix) nor a percentage like 5%" \
  --fail-on-growth=5X
rc=0
"$JEHEAP" --text --fail-on-growth=1K ./leaky "$last" >out 2>err || rc=$?
[ $rc = 1 ] && [ ! -s out ] && [ "$(cat err)" = "jeheap: --fail-on-growth=1K needs --base or --series (the dumps to compare)" ] ||
  fail "without --base or --series: exit $rc $(cat err)"
echo "series_gate: $fails failed"
[ "$fails" -eq 0 ]
