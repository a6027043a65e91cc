#!/usr/bin/env bash
# series.sh - --series on a real series: tests/fixtures/series/leaky.c
# run under jemalloc's profiler with a small lg_prof_interval, which numbers its dumps
# itself (p.<pid>.<seq>.i<n>.heap, 11 or more of them: .9. and .10. both there).
# Checks: the numeric order whatever order the files are given in (and gzip'd);
# leak_step (kept) is the first and only leak suspect, churn (freed) and keep_some
# (allocated once) are not; the values equal jeprof's --text --show_bytes of single
# dumps; filters, granularities and sample types run; dumps of two processes are
# refused with one exact line before any output (exit 1) unless --allow-mixed; the
# --svg chart is well-formed XML whose lines' points read back as the table's values.
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-series.XXXXXX")
trap '[ -n "${JH_KEEP:-}" ] || rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$JH_SRC/tests/fixtures/series/make_series.sh"
cd "$T"
jh_make_series "$T"
n=$(ls p.*.heap | wc -l)
[ "$n" -ge 11 ] || fail "only $n dumps"
pid=$(ls p.*.heap | head -1 | cut -d. -f2)

# the files given in reverse lexical order (p.PID.9 after p.PID.10 ...)
mapfile -t files < <(ls p.*.heap | sort -r)
"$JEHEAP" --series --show_bytes ./leaky "${files[@]}" >table 2>err || fail "exit $?: $(cat err)"
# the dumps' list: seq 0 .. n-1 in order, each file its own seq
awk '/^ +#  +seq  dump$/ {on=1; next} on && NF==3 {print $2, $3} on && NF!=3 {exit}' table >order
[ "$(wc -l <order)" = "$n" ] || fail "dump list has $(wc -l <order) lines, want $n"
i=0
while read -r seq file; do
	[ "$seq" = "$i" ] || fail "dump $((i + 1)) has seq $seq, want $i"
	[ "$file" = "p.$pid.$i.i$i.heap" ] || fail "dump $((i + 1)) is $file"
	i=$((i + 1))
done <order
# the leak is the first and only suspect
sus=$(sed -n '/^Leak suspects/,/^$/p' table | sed '1d;/^$/d')
[ "$(echo "$sus" | wc -l)" = 1 ] || fail "suspects: $sus"
echo "$sus" | grep -Eq '^ +1 +\+[0-9]+ B  up in [0-9]+ of '$((n - 1))' steps  leak_step(\.constprop\.0)?$' ||
	fail "first suspect: $sus"
# the table's rows: values per dump; churn goes up and down, keep_some is flat
rows() { awk '$1 == "#1" {on=1; next} on' table; }
row() { rows | awk -v name="$1" '$NF == name'; }
leak=$(rows | awk '$NF ~ /^leak_step/ {print $NF}')
churn=$(rows | awk '$NF ~ /^churn/ {print $NF}')
[ -n "$leak" ] && [ -n "$churn" ] || fail "no leak_step or churn row"
# jeprof (the oracle) on single dumps: the second and the last, Total and every function
for k in 2 $n; do
	f=$(sed -n "${k}p" order | cut -d' ' -f2)
	jeprof --text --show_bytes ./leaky "$f" >jp 2>/dev/null
	want=$(sed -n 's/^Total: \([0-9]*\) B$/\1/p' jp)
	got=$(row Total | awk -v k="$k" '{print $k}')
	[ "$got" = "$want" ] || fail "dump $k: Total $got, jeprof $want"
	for fn in "$leak" "$churn"; do
		want=$(awk -v fn="$fn" '$6 == fn {print $1}' jp)
		got=$(row "$fn" | awk -v k="$k" '{print $k}')
		[ "$got" = "${want:-0}" ] || fail "dump $k: $fn $got, jeprof ${want:-0}"
	done
done
# gzip'd copies: the same table (file names aside)
mkdir gz
for f in p.*.heap; do gzip -c "$f" >"gz/$f.gz"; done
"$JEHEAP" --series --show_bytes ./leaky gz/* 2>/dev/null | sed 's|gz/||; s|\.gz$||' >table.gz
cmp -s table table.gz || fail "gzip'd series differs: $(diff table table.gz | head -5)"

# filters, granularities, sample types, --cum and --stacks: the leak stays suspect 1
for opts in "--focus=leak" "--ignore=churn" "--lines" "--files" "--addresses" "--inuse_objects" \
	"--cum --focus=leak_step" "--stacks" "--retain=leak_step|churn"; do
	# shellcheck disable=SC2086
	"$JEHEAP" --series $opts ./leaky p.*.heap >out 2>err || fail "$opts: exit $?: $(cat err)"
	first=$(sed -n '/^Leak suspects/{n;p}' out)
	case $opts in
	--cum*) # its callers grow as much (ties by name): a suspect among them
		sed -n '/^Leak/,/^$/p' out | grep -Eq '^ +[0-9]+ .* leak_step[^ ]*$' ||
			fail "$opts: $(sed -n '/^Leak/,/^$/p' out)" ;;
	--files) grep -q ' [^ ]*/leaky\.c$' out || fail "$opts: no leaky.c row" ;; # churn in it too
	*) echo "$first" | grep -Eq '^ +1 .*(leak_step[^ ]*|;leak_step[^;]*)( [^ ]*)?$' ||
		fail "$opts: first suspect: $first" ;;
	esac
done
rc=0
"$JEHEAP" --series --alloc_space ./leaky p.*.heap >out 2>err || rc=$?
[ "$rc" = 4 ] && grep -q 'was dumped without prof_accum' err || fail "--alloc_space: $rc $(cat err)"
"$JEHEAP" --series --focus=churn ./leaky p.*.heap >out 2>/dev/null
grep -q '^Leak suspects (grow in most steps, never fall, by growth): none$' out ||
	fail "--focus=churn: $(sed -n '/^Leak/,+1p' out)"

# two processes: refused before any output, one line, exit 1; --allow-mixed follows them
cp "p.$pid.3.i3.heap" "p.99999999.4.i4.heap"
rc=0
"$JEHEAP" --series ./leaky "p.$pid.1.i1.heap" "p.99999999.4.i4.heap" "p.$pid.2.i2.heap" \
	>out 2>err || rc=$?
[ "$rc" = 1 ] || fail "mixed pids: exit $rc"
[ ! -s out ] || fail "mixed pids: output written"
[ "$(cat err)" = "jeheap: --series: p.$pid.1.i1.heap (pid $pid) and p.99999999.4.i4.heap (pid 99999999) are dumps of different processes; --allow-mixed follows them anyway" ] ||
	fail "mixed pids: $(cat err)"
"$JEHEAP" --series --allow-mixed ./leaky "p.$pid.1.i1.heap" "p.99999999.4.i4.heap" \
	>out 2>/dev/null || fail "--allow-mixed: exit $?"
rm "p.99999999.4.i4.heap"
# what a series does not combine with: one line, exit 1, nothing written
for args in "--dot|--series writes --text, --svg or --json, not --dot" \
	"--base=p.$pid.0.i0.heap|--series: not with --base (the first dump is the series' base)"; do
	rc=0
	"$JEHEAP" --series "${args%%|*}" ./leaky p.*.heap >out 2>err || rc=$?
	[ "$rc" = 1 ] && [ ! -s out ] && [ "$(cat err)" = "jeheap: ${args#*|}" ] ||
		fail "${args%%|*}: exit $rc: $(cat err)"
done
# files not named by jemalloc keep their place
cp "p.$pid.5.i5.heap" five.heap
"$JEHEAP" --series ./leaky "p.$pid.3.i3.heap" five.heap "p.$pid.1.i1.heap" >out 2>/dev/null
[ "$(awk '/seq  dump$/ {on=1; next} on && NF==3 {printf "%s ", $3} on && NF!=3 {exit}' out)" = \
	"p.$pid.1.i1.heap five.heap p.$pid.3.i3.heap " ] || fail "unnamed file moved: $(head -6 out)"

# the chart: well-formed, its points are the table's values, the leak highlighted
"$JEHEAP" --series --svg --show_bytes ./leaky p.*.heap >chart.svg 2>/dev/null
python3 "$JH_SRC/tests/tools/series_svg_check.py" chart.svg table >lines ||
	fail "chart and table disagree"
grep -qx '!leak_step\(\.constprop\.0\)\?' lines || fail "leak not highlighted: $(cat lines)"
grep -qx ' Total' lines || fail "no Total line"
[ "$(grep -c '^!' lines)" = 1 ] || fail "suspects in the chart: $(cat lines)"
# names are escaped for XML: a title with markup characters
"$JEHEAP" --series --svg --title='<a&b>' ./leaky p.*.heap >chart2.svg 2>/dev/null
grep -q '&lt;a&amp;b&gt; (' chart2.svg || fail "title not escaped"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' chart2.svg
echo ok
