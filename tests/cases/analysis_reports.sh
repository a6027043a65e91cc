#!/bin/bash
# --text (every value, filter and granularity), --top and --collapsed on a
# .symbolized dump of testdata/analysis/prog.c, byte for byte against the
# outputs jeprof 5.3.0 printed for the same file with its libjemalloc frames
# named malloc (testdata/analysis/regen.sh);
# --collapsed against jeprof's lines sorted, since jeheap sorts them.
set -uf
D=$JH_SRC/testdata/analysis
IN=$D/run2.heap.symbolized
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$JEHEAP" --text "$IN" 2>&1 >/dev/null | grep -q 'not built yet'; then
	echo "profile readers not in this build"
	exit 77
fi
fail=0
check() { # name expected-file jeheap-args...
	local name=$1 exp=$2
	shift 2
	"$JEHEAP" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	# where jeprof printed nothing (exit 0: --alloc_* on a dump without prof_accum),
	# jeheap says why in one line and exits 4
	if [ $rc = 4 ] && [ ! -s "$exp" ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -q '^jeheap: nothing to show: no allocation data: ' "$tmp/err"; then
		rc=0
	fi
	if [ $rc != 0 ]; then
		echo "FAIL $name: exit code $rc: $(cat "$tmp/err")"
		fail=1
	elif ! cmp -s "$exp" "$tmp/out"; then
		echo "FAIL $name ($*)"
		diff "$exp" "$tmp/out" | head -20
		fail=1
	fi
}
while read -r name opts; do
	check "$name" "$D/$name.expected" $opts "$IN"
done < "$D/cases.txt"
check collapsed "$D/collapsed.expected" --collapsed "$IN"
check collapsed_retain "$D/collapsed_retain.expected" --collapsed --retain='leaf|main|worker' "$IN"

# --top=N: jeprof's text header and its first N rows
head -n 4 "$D/text_bytes.expected" > "$tmp/top3"
check top3 "$tmp/top3" --top=3 --show_bytes "$IN"
head -n 11 "$D/text.expected" > "$tmp/top"
check top_default "$tmp/top" --top "$IN"

# output to a file
"$JEHEAP" --text --output="$tmp/file.txt" "$IN" > "$tmp/stdout" || fail=1
cmp -s "$D/text.expected" "$tmp/file.txt" && [ ! -s "$tmp/stdout" ] || { echo "FAIL --output"; fail=1; }

# deterministic collapsed output
"$JEHEAP" --collapsed "$IN" > "$tmp/c1"
"$JEHEAP" --collapsed "$IN" > "$tmp/c2"
cmp -s "$tmp/c1" "$tmp/c2" || { echo "FAIL collapsed not deterministic"; fail=1; }
LC_ALL=C sort -c "$tmp/c1" || { echo "FAIL collapsed not sorted"; fail=1; }

# a bad regex is a usage error
"$JEHEAP" --text --focus='(' "$IN" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^jeheap: --focus: bad regex" "$tmp/err" || { echo "FAIL bad regex: $(cat "$tmp/err")"; fail=1; }

# live comparison when jeprof is installed (the expected files may be stale)
if command -v jeprof > /dev/null; then
	python3 "$JH_SRC/tests/gen/alloc_view.py" "$IN" > "$tmp/view.sym"
	jeprof --text --show_bytes --focus=worker "$tmp/view.sym" 2>/dev/null > "$tmp/jp"
	check live_focus "$tmp/jp" --text --show_bytes --focus=worker "$IN"
else
	echo "SKIP (part): jeprof is not installed, no live comparison"
	[ $fail = 0 ] && exit 77 # a part did not run: skipped, not passed
fi
exit $fail
