#!/usr/bin/env bash
# Empty answers are said: when a report has nothing to show because of
# the input or the options, one line on stderr says why, nothing is written on stdout,
# and the exit status is 4. Each case: the exact line, for every report it applies to.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
P=./rfix H=$(basename "$HEAP")
NOACCUM=$JH_SRC/testdata/golden/cxx-s12/after.heap.symbolized # dumped without prof_accum
# expect MESSAGE ARGS...: exit 4, nothing on stdout, exactly "jeheap: MESSAGE" on stderr
expect() {
	local msg=$1 rc=0
	shift
	"$JEHEAP" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = 4 ] || fail "$*: exit $rc, want 4 ($(cat "$T/err"))"
	[ ! -s "$T/out" ] || fail "$*: stdout not empty: $(head -2 "$T/out")"
	[ "$(cat "$T/err")" = "jeheap: $msg" ] || fail "$*: got '$(cat "$T/err")', want 'jeheap: $msg'"
}
printf 'heap_v2/524288\n  t*: 0: 0 [0: 0]\n\nMAPPED_LIBRARIES:\n' >nosamples.heap

for m in --text --top --collapsed --callgrind --list=mid; do
	expect "nothing to show: nothing matches --focus=NO_SUCH" $m --focus=NO_SUCH "$P" "$H"
	expect "nothing to show: --ignore=. drops everything" $m --ignore=. "$P" "$H"
	expect "nothing to show: nothing is left after --focus=mid --ignore=mid" \
		$m --focus=mid --ignore=mid "$P" "$H"
	expect "nothing to show: no thread 99 in $H (its threads: 0)" $m --thread=99 "$P" "$H"
	expect "nothing to show: no samples in nosamples.heap" $m nosamples.heap
done
for m in --text --collapsed --callgrind; do
	expect "nothing to show: no allocation data: $NOACCUM was dumped without prof_accum (MALLOC_CONF=prof_accum:true); --inuse_space shows what is in use" \
		$m --alloc_space "$NOACCUM"
	expect "nothing to show: no allocation data: $NOACCUM was dumped without prof_accum (MALLOC_CONF=prof_accum:true); --inuse_space shows what is in use" \
		$m --alloc_objects --thread=0 "$NOACCUM"
done
for m in --text --callgrind; do
	expect "nothing to show: the profiles minus --base leave nothing" $m --base="$H" "$P" "$H"
done
# the graph modes keep jeprof's words in front
expect "No nodes to print: nothing matches --focus=NO_SUCH" --dot --focus=NO_SUCH "$P" "$H"
expect "No nodes to print: no samples in nosamples.heap" --dot nosamples.heap
# --raw (no filters apply): a dump without samples
expect "nothing to show: no samples in nosamples.heap" --raw nosamples.heap
# --list: no routine matches; an inlined function is listed within its callers
expect "nothing to show: no sampled function matches --list=NO_SUCH (inlined functions are listed within their callers)" \
	--list=NO_SUCH "$P" "$H"

# not empty: the same reports with something to show still exit 0
for m in --text --collapsed --callgrind --raw --list=mid; do
	"$JEHEAP" $m "$P" "$H" >"$T/out" 2>/dev/null || fail "$m: exit $?"
	[ -s "$T/out" ] || fail "$m: empty"
done
# --collapsed with --base writes both columns even where they cancel
"$JEHEAP" --collapsed --base="$H" "$P" "$H" 2>/dev/null | grep -q ' \([0-9]*\) \1$' ||
	fail "--collapsed --base self: no 'before after' columns"
"$JEHEAP" --alloc_space --text "$P" "$H" >/dev/null 2>&1 || fail "--alloc_space with prof_accum: exit $?"
echo ok
