#!/usr/bin/env bash
# short_names_vs_jeprof.sh - jeheap's short function names (jeprof's ShortFunctionName:
# argument lists with their "const", template arguments, a leading type) on random names,
# byte for byte against jeprof's --text:
#   1. the committed case testdata/golden-shortnames (2000 names, tests/gen/shortnames.py
#      2000 1; expected.txt made by `jeprof --text --show_bytes` on it);
#   2. when jeprof is installed, two fresh files of 20000 random names each, live.
# Env: JEHEAP (binary), JH_SRC (source dir).
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
G=$JH_SRC/testdata/golden-shortnames
"$JEHEAP" --text --show_bytes "$G/names.symbolized" >"$T/out" 2>"$T/err" || fail "jeheap: $(cat "$T/err")"
cmp -s "$G/expected.txt" "$T/out" || { diff "$G/expected.txt" "$T/out" | head -5 >&2; fail "golden names differ"; }
command -v jeprof >/dev/null || { echo "SKIP (part): jeprof not installed, golden case only"; exit 77; }
for seed in 2 3; do
	python3 "$JH_SRC/tests/gen/shortnames.py" 20000 "$seed" >"$T/s.symbolized" || fail "generator"
	jeprof --text --show_bytes "$T/s.symbolized" >"$T/want" 2>/dev/null || fail "jeprof failed (seed $seed)"
	"$JEHEAP" --text --show_bytes "$T/s.symbolized" >"$T/got" 2>/dev/null || fail "jeheap failed (seed $seed)"
	cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got" | head -5 >&2; fail "names differ from jeprof (seed $seed)"; }
done
echo "ok: 2000 golden + 40000 live names"
