#!/usr/bin/env bash
# mixed_inputs.sh - no silent mix-ups when profiles are summed. Profiles of different programs
# (golden dumps of two fixture programs, raw and .symbolized) are refused with one line and
# exit status 1 before any output, unless --allow-mixed (then the Total is the sum of the
# two); two dumps of one program are summed as before. pprof profiles that give build IDs:
# two builds of the fixture program at the same path (jemalloc dumps of each, written by
# jeheap --proto with the files' GNU build IDs) are refused as different builds; dumps of
# one build are summed. The same file given twice (by one name or two) is one warning.
# --series with one dump, or one dump given twice, is one line saying there is no series.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
G=$JH_SRC/testdata/golden
command -v xz >/dev/null || { echo "skip: no xz"; exit 77; }
SRC=$JH_SRC source "$JH_SRC/tests/fixtures/golden_bins.sh" # the programs the raw dumps map
# run STATUS ARGS...: jeheap ARGS exits STATUS; stdout in $T/out, stderr in $T/err
run() {
	local want=$1 rc=0
	shift
	"$JEHEAP" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want ($(cat "$T/err"))"
}
total() { sed -n 's/^Total: \([0-9]*\) B$/\1/p' "$1"; }
one_line() { [ "$(wc -l <"$T/err")" = 1 ] || fail "$1: not one line on stderr: $(cat "$T/err")"; }

# 1. different programs: refused, one line naming both files and both programs
for ext in heap heap.symbolized; do
	a=$G/cxx-s12/after.$ext b=$G/mt-s12/after.$ext
	run 1 --text "$a" "$b"
	one_line "$ext"
	[ ! -s "$T/out" ] || fail "$ext: output written"
	grep -Eqx "jeheap: '$a' is a profile of /.*/cxx and '$b' of /.*/mt: profiles of different programs are not summed \(--allow-mixed sums them, --base=OLD compares them\)" "$T/err" ||
		fail "$ext: $(cat "$T/err")"
	run 0 --text --show_bytes "$a"
	ta=$(total "$T/out")
	run 0 --text --show_bytes "$b"
	tb=$(total "$T/out")
	for spelling in --allow-mixed --allow_mixed; do
		run 0 --text --show_bytes $spelling "$a" "$b"
		d=$(($(total "$T/out") - ta - tb))
		[ "${d#-}" -le 1 ] || fail "$spelling: Total $(total "$T/out"), want $ta + $tb (within 1)"
	done
done
# one program, two dumps: summed, no refusal
run 0 --text "$G/mt-s12/before.heap" "$G/mt-s12/after.heap"
grep -q 'different' "$T/err" && fail "one program refused: $(cat "$T/err")"
# a --base of another program is a comparison, not a sum
run 0 --text --base="$G/cxx-s12/after.heap" "$G/mt-s12/after.heap"

# 2. two builds at one path, told apart by the build IDs of --proto
"$JEHEAP" --proto --output=a1.pb.gz "$PROG" "$HEAP" 2>/dev/null || fail "--proto of the first build"
mkdir first second
mv "$HEAP" first/
(cd src && sed 's/^#include <string.h>$/#include <string.h>\nint jh_extra_fn(int x) { return x * 3; }/' rfix.c >rfix2.c &&
	gcc -g -O2 -fno-omit-frame-pointer -o "$PROG" rfix2.c)
LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_accum:true,prof_final:true,lg_prof_sample:12,prof_prefix:$T/second/p "$PROG"
"$JEHEAP" --proto --output=b.pb.gz "$PROG" second/p.*.heap 2>/dev/null || fail "--proto of the second build"
id1=$(readelf -n "$PROG" | sed -n 's/.*Build ID: //p')
[ -n "$id1" ] || fail "the fixture has no GNU build ID"
run 1 --text a1.pb.gz b.pb.gz
# a1's frames without names are symbolized before b is read: the file at the path is the
# second build, which that run says in one warning; the refusal is the one line after it
grep -v "^jeheap: warning: .*/rfix has build ID $id1, not the profile's" "$T/err" >"$T/err1"
mv "$T/err1" "$T/err"
one_line "two builds"
grep -Eqx "jeheap: 'a1.pb.gz' and 'b.pb.gz' are profiles of different builds of /.*/rfix \(build IDs [0-9a-f]{40} and $id1\): they are not summed \(--allow-mixed sums them, --base=OLD compares them\)" "$T/err" ||
	fail "two builds: $(cat "$T/err")"
run 0 --text --allow-mixed a1.pb.gz b.pb.gz
"$JEHEAP" --proto --output=b2.pb.gz "$PROG" second/p.*.heap 2>/dev/null
run 0 --text b.pb.gz b2.pb.gz
grep -q 'different' "$T/err" && fail "one build refused: $(cat "$T/err")"

# 3. the same file twice: one warning
cd "$G/mt-s12"
H=after.heap.symbolized
run 0 --text --show_bytes "$H"
t1=$(total "$T/out")
run 0 --text --show_bytes -qq "$H" "$H"
d=$(($(total "$T/out") - 2 * t1))
[ "${d#-}" -le 1 ] || fail "twice: Total $(total "$T/out"), want 2 x $t1"
for pair in "$H $H" "$H ../mt-s12/$H"; do
	# shellcheck disable=SC2086
	run 0 --text $pair
	one_line "$pair"
	grep -Eqx "jeheap: warning: ('[^']*' is given twice|'[^']*' and '[^']*' are the same file): its samples are summed twice" "$T/err" ||
		fail "$pair: $(cat "$T/err")"
done
run 0 --text "$H" before.heap.symbolized
[ -s "$T/err" ] && fail "two files: $(cat "$T/err")"

# 4. --series: fewer than two dumps is no series
run 1 --series "$H"
one_line "--series one dump"
grep -qx "jeheap: --series: one dump ('$H'): there is no series (give two dumps or more)" "$T/err" ||
	fail "--series one dump: $(cat "$T/err")"
run 1 --series "$H" "$H"
one_line "--series one dump twice"
grep -qx "jeheap: --series: '$H' is given twice, one dump: there is no series" "$T/err" ||
	fail "--series one dump twice: $(cat "$T/err")"
# a series with one of its dumps given twice: one warning, the series is made
run 0 --series "$H" before.heap.symbolized "$H"
one_line "--series with a dump twice"
grep -qx "jeheap: warning: --series: '$H' is given twice: it is in the series twice" "$T/err" ||
	fail "--series with a dump twice: $(cat "$T/err")"
echo "ok"
