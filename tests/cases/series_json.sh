#!/usr/bin/env bash
# series_json.sh - --series --json on the real series of
# tests/fixtures/series/leaky.c (make_series.sh): the output validates against the
# schema of docs/json.md (python3-jsonschema), is the same bytes on a second run, and its
# "series" equals the --series --text --show_bytes table of the same dumps (dumps, Total
# row, every row's values, growth and trend, the suspects); independently, every dump's
# total is the Total: line of --text --show_bytes of that dump alone and every function's
# value its flat column there (a JSON tampered by one byte fails these checks: the
# negative control); the leak is the first suspect; the top-level summary is the last
# dump's. Also --stacks, --inuse_objects and --focus.
set -uo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
CHECK=$JH_SRC/tests/tools/series_json_check.py
DOC=$JH_SRC/docs/json.md
fails=0
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
source "$JH_SRC/tests/fixtures/series/make_series.sh"
jh_series_fixture series-json || { echo "FAIL: no series of 11 dumps or more"; exit 1; }
files=("${JH_SERIES[@]}") n=${#JH_SERIES[@]}
LEAK='leak_step(\.constprop\.0)?'

# json NAME OPTS...: --series --json and the text table with the same options
json() {
  local name=$1; shift
  "$JEHEAP" --quiet --series --json "$@" ./leaky "${files[@]}" >"$name.json" 2>"$name.err" ||
    { fail "$name: --json exit $?: $(cat "$name.err")"; return 1; }
  "$JEHEAP" --quiet --series --show_bytes "$@" ./leaky "${files[@]}" >"$name.table" 2>&1 ||
    { fail "$name: --text exit $?"; return 1; }
  python3 "$JH_SRC/tests/tools/json_check.py" schema "$DOC" "$name.json" || fail "$name: schema"
  python3 "$CHECK" table "$name.json" "$name.table" || fail "$name: JSON and table differ"
}

json plain && {
  "$JEHEAP" --quiet --series --json ./leaky "${files[@]}" >again.json
  cmp -s plain.json again.json || fail "two runs differ"
  python3 "$CHECK" first plain.json "$LEAK" || fail "plain: first suspect"
  # every dump against --text --show_bytes of it alone (the oracle: jeprof-equal, golden tests)
  for k in $(seq 0 $((n - 1))); do
    "$JEHEAP" --quiet --text --show_bytes ./leaky "${files[$k]}" >"single.$k" ||
      { fail "--text ${files[$k]}"; continue; }
    python3 "$CHECK" single plain.json "$k" "single.$k" || fail "dump $k"
  done
  # the summary around the series is the last dump's: its totals, as --json of it alone
  last=$((n - 1))
  python3 "$JH_SRC/tests/tools/json_check.py" text plain.json "single.$last" ||
    fail "top-level summary is not the last dump's"
  python3 - plain.json "${files[$last]}" <<'PY' || fail "inputs of the summary"
import json, sys
d = json.load(open(sys.argv[1]))
assert [i["file"] for i in d["inputs"]] == [sys.argv[2]], d["inputs"]
assert d["series"]["rows_are"] == "functions" and d["series"]["values"] == "flat"
assert d["series"]["noise"] == 4 * 16384, d["series"]["noise"]
assert all(x["sampling_period"] == 16384 and x["tag"] == "i" for x in d["series"]["dumps"])
assert [x["kept"] for x in d["series"]["dumps"]] == [x["total"] for x in d["series"]["dumps"]]
PY
  # negative control: one value off by one byte must fail the checks above
  python3 - plain.json bad.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["series"]["rows"] if r["name"].startswith("leak_step"))
r["values"][-1] += 1
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
  python3 "$CHECK" single bad.json $last "single.$last" >/dev/null &&
    fail "negative control: a wrong value passed the single-dump check"
  python3 "$CHECK" table bad.json plain.table >/dev/null &&
    fail "negative control: a wrong value passed the table check"
}
json stacks --stacks && {
  grep -Eq '"name": "[^"]*;'"$LEAK"'"' stacks.json || fail "--stacks: no leak stack row"
  python3 "$CHECK" first stacks.json ".*;$LEAK" || fail "--stacks: first suspect"
  grep -q '"rows_are": "stacks"' stacks.json || fail "--stacks: rows_are"
}
json objects --inuse_objects && python3 "$CHECK" first objects.json "$LEAK" ||
  fail "--inuse_objects: first suspect"
json focus --focus=churn && {
  grep -q '"suspects": \[\]' focus.json || fail "--focus=churn: suspects"
  # kept: what --focus keeps, below the total
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["series"]; assert all(0 <= x["kept"] < x["total"] for x in s["dumps"])' focus.json ||
    fail "--focus=churn: kept"
}
json cum --cum --focus=leak_step
# nothing to show: the summary is still written, exit 0, empty rows
"$JEHEAP" --quiet --series --json --focus=no_such_function ./leaky "${files[@]}" >none.json 2>none.err
rc=$?
[ $rc = 0 ] && grep -q '"rows": \[\]' none.json && [ ! -s none.err ] ||
  fail "--focus=no_such_function: exit $rc $(cat none.err)"
python3 "$JH_SRC/tests/tools/json_check.py" schema "$DOC" none.json || fail "none: schema"
echo "series_json: $fails failed"
[ "$fails" -eq 0 ]
