#!/usr/bin/env bash
# Errors that teach: --top N with a space, -h, the nearest spelling of an
# unknown option, the candidates of an ambiguous one, and a one-line hint naming the
# arguments' roles when a program, a profile or a report is given in the wrong place.
# Each case: the exact stderr line, exactly one line, nothing on stdout, the exit status.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
P=./rfix H=$(basename "$HEAP")
# expect STATUS MESSAGE ARGS...: jeheap ARGS prints exactly "jeheap: MESSAGE" and exits STATUS
expect() {
	local want=$1 msg=$2 rc=0
	shift 2
	"$JEHEAP" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, want $want ($(cat "$T/err"))"
	[ ! -s "$T/out" ] || fail "$*: stdout not empty"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$*: not one line on stderr: $(cat "$T/err")"
	[ "$(cat "$T/err")" = "jeheap: $msg" ] || fail "$*: got '$(cat "$T/err")', want 'jeheap: $msg'"
}

# --top N with a space (also -top N) is --top=N, not a profile named N
"$JEHEAP" --top=3 "$P" "$H" >"$T/eq" 2>/dev/null || fail "--top=3 failed"
[ "$(grep -c '%' "$T/eq")" = 3 ] || fail "--top=3: not 3 rows"
for spelling in "--top 3" "-top 3"; do
	# shellcheck disable=SC2086
	"$JEHEAP" $spelling "$P" "$H" >"$T/sp" 2>/dev/null || fail "$spelling: exit $?"
	cmp -s "$T/eq" "$T/sp" || fail "$spelling differs from --top=3"
done
"$JEHEAP" --top "$P" "$H" 2>/dev/null | grep -c '%' | grep -qx 10 || fail "--top PROG: not 10 rows"

# '-' and '_' between words are one letter, with -- or -, in full or as a unique
# prefix: each spelling gives the canonical one's report
"$JEHEAP" --text --show_bytes "$P" "$H" >"$T/sb" 2>/dev/null || fail "--show_bytes failed"
for spelling in --show-bytes -show-bytes --show_b --show-b --show-by; do
	"$JEHEAP" --text $spelling "$P" "$H" >"$T/sp" 2>/dev/null || fail "$spelling: exit $?"
	cmp -s "$T/sb" "$T/sp" || fail "$spelling differs from --show_bytes"
done
cmp -s "$T/sb" <("$JEHEAP" --text "$P" "$H" 2>/dev/null) && fail "--show_bytes changes nothing (no control)"
"$JEHEAP" --text --inuse_objects "$P" "$H" >"$T/io" 2>/dev/null || fail "--inuse_objects failed"
for spelling in --inuse-objects -inuse-objects --inuse-o; do
	"$JEHEAP" --text $spelling "$P" "$H" >"$T/sp" 2>/dev/null || fail "$spelling: exit $?"
	cmp -s "$T/io" "$T/sp" || fail "$spelling differs from --inuse_objects"
done
# (a dump against itself: nothing to show, exit 4; the same message for each spelling)
rc=0
"$JEHEAP" --text --diff_base="$H" "$P" "$H" >"$T/db" 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "--diff_base: exit $rc, want 4"
for spelling in --diff-base -diff_base -diff-base --diff-b; do
	rc=0
	"$JEHEAP" --text $spelling="$H" "$P" "$H" >"$T/sp" 2>&1 || rc=$?
	[ "$rc" = 4 ] && cmp -s "$T/db" "$T/sp" || fail "$spelling differs from --diff_base"
done
for spelling in --fail_on_growth=0 --fail-on_growth=0 -fail_on_growth=0; do
	rc=0
	"$JEHEAP" --text $spelling --base="$H" "$P" "$H" >/dev/null 2>&1 || rc=$?
	[ "$rc" = 0 ] || fail "$spelling: exit $rc"
done
rc=0
"$JEHEAP" --text --fail_on_growth=zz --base="$H" "$P" "$H" >/dev/null 2>"$T/e" || rc=$?
[ "$rc" = 1 ] || fail "--fail_on_growth=zz: exit $rc, want 1 (the option's own check)"
"$JEHEAP" --text "$P" "$H" >"$T/plain" 2>/dev/null
for spelling in --no-show-bytes --no_show_bytes --noshow-bytes; do
	"$JEHEAP" --text --show_bytes $spelling "$P" "$H" >"$T/sp" 2>/dev/null || fail "$spelling: exit $?"
	cmp -s "$T/plain" "$T/sp" || fail "$spelling does not turn --show_bytes off"
done
expect 1 "option '--show_' is ambiguous: --show_bytes --show_from" --show_ "$H"
expect 1 "option '--show-' is ambiguous: --show_bytes --show_from" --show- "$H"

# -h is --help
"$JEHEAP" -h >"$T/h" 2>"$T/he" || fail "-h: exit $?"
"$JEHEAP" --help >"$T/h2"
cmp -s "$T/h" "$T/h2" && [ ! -s "$T/he" ] || fail "-h is not --help"

# unknown options: the nearest spellings; ambiguous ones: the candidates
expect 1 "unknown option '--colapsed'; did you mean --collapsed? (see --help)" --colapsed "$H"
expect 1 "unknown option '--show-bites'; did you mean --show_bytes? (see --help)" --show-bites "$H"
expect 1 "unknown option '--fail_on_grwth'; did you mean --fail-on-growth? (see --help)" \
	--fail_on_grwth=1 "$H"
expect 1 "unknown option '--foucs'; did you mean --focus? (see --help)" --foucs=x "$H"
expect 1 "unknown option '--zzzzzz' (see --help)" --zzzzzz "$H"
expect 1 "option '--t' is ambiguous: --text --top --thread --total_delay --tools --test --test_stride --title --trust-binaries --traces --tree --threads" \
	--t "$H"
expect 1 "option '--in' is ambiguous: --interactive --inuse_space --inuse_objects --inverted" -in "$H"

# the program after the profile; two programs
expect 1 "'$P' is a program but comes after the profile '$H' (taken as the profile); the program goes first: jeheap [options] $P $H" \
	--text "$H" "$P"
expect 1 "'$P' is a program too: '$P' was taken as the program and the arguments after it as profiles" \
	--text "$P" "$P" "$H"
# a first argument that is no program: missing, a script (libtool wrapper)
expect 2 "./rfx: cannot open: No such file or directory (taken as a profile; a program must be an existing ELF file given before the profiles)" \
	--text ./rfx "$H"
printf '#!/bin/sh\nexec .libs/rfix "$@"\n' >wrapper
expect 1 "'./wrapper' is a script, not an ELF program, so it was taken as a profile; give the program's binary (a libtool wrapper's is in .libs/) before the profiles" \
	--text ./wrapper "$H"
# a profile where --symbols wants the program
expect 1 "--symbols takes the program, and '$H' is a profile (--symbols reads the maps and addresses from stdin; for a report: jeheap [options] [program] $H)" \
	--symbols "$H"

# a report (or the program) given as --base or as a profile
"$JEHEAP" --text "$P" "$H" >report.txt 2>/dev/null
"$JEHEAP" --collapsed "$P" "$H" >report.folded 2>/dev/null
"$JEHEAP" --dot "$P" "$H" >report.dot 2>/dev/null
base_msg="not a profile; --base takes a heap profile (.heap, .symbolized) to subtract"
expect 2 "report.txt: a --text report, $base_msg" --text --base=report.txt "$P" "$H"
expect 2 "report.folded: a --collapsed report, $base_msg" --text --base report.folded "$P" "$H"
expect 2 "report.dot: a --dot graph, $base_msg" --text --base=report.dot "$P" "$H"
expect 2 "$P: a program, $base_msg" --text --base="$P" "$P" "$H"
expect 2 "report.txt: a --text report, not a profile; jeheap reads heap profiles (.heap, .symbolized)" \
	--text report.txt
# the right forms still work
"$JEHEAP" --collapsed --base="$H" "$P" "$H" >/dev/null 2>&1 || fail "--base=HEAP failed"
"$JEHEAP" --text "$H" "$H" >/dev/null 2>&1 || fail "two profiles failed"
echo "ok"
