#!/usr/bin/env bash
# --list=REGEX: jeprof's ROUTINE layout with the values on the fixture's
# marked source lines; routines are symbol-table functions (an inlined
# function has no listing of its own, as with jeprof); a missing source file
# gives one clear message and no listing (jeprof) and --path-map finds it
# again; symbolized input (no file:line) prints nothing. Byte-exact
# comparisons with jeprof: golden_list.sh.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1

"$JEHEAP" --list='^mid' --show_bytes "$PROG" "$HEAP" >"$T/l.out" 2>"$T/l.err" || fail "exited $?: $(cat "$T/l.err")"
head -1 "$T/l.out" | grep -q "^ROUTINE ====================== mid in $SRC\$" || fail "header: $(head -1 "$T/l.out")"
sed -n 2p "$T/l.out" | grep -Eq '^ *[0-9]+ +[0-9]+ Total B \(flat / cumulative\)$' || fail "totals line"
# line format "%6s %6s %4d: text"; the marked lines carry the values
mm=$(mark MARK_MID_MALLOC)
mc=$(mark MARK_MID_CALL)
grep -Eq "^ *[1-9][0-9]* +[1-9][0-9]* +$mm: .*MARK_MID_MALLOC" "$T/l.out" || fail "flat/cum on the malloc line $mm"
grep -Eq "^ *\. +[1-9][0-9]* +$mc: .*MARK_MID_CALL" "$T/l.out" || fail "cum only on the inlined call line $mc"
grep -Eq '^ +\. +\. +[0-9]+: ' "$T/l.out" || fail "no '.' for lines without samples"
grep -c '^---$' "$T/l.out" | grep -q '^2$' || fail "the routine's --- markers"
! grep -q ROUTINE.*leaf_alloc "$T/l.out" || fail "listed a routine that does not match"
# flat of mid's malloc line = mid's flat in --text
flat=$("$JEHEAP" --text --show_bytes "$PROG" "$HEAP" 2>/dev/null | awk '$6 == "mid" {print $1}')
got=$(grep -E "^ *[0-9]+ +[0-9]+ +$mm: " "$T/l.out" | awk '{print $1}')
[ "$flat" = "$got" ] || fail "flat of mid $flat vs listed $got"

# An inlined function is no routine: nothing is listed (jeprof: no nm symbol); jeheap says so
# in one line and exits 4 (jeprof: empty output, exit 0).
rc=0
"$JEHEAP" --list=inl_helper "$PROG" "$HEAP" >"$T/i.out" 2>"$T/i.err" || rc=$?
[ $rc = 4 ] || fail "--list=inl_helper: exit $rc"
[ ! -s "$T/i.out" ] || fail "--list=inl_helper listed something"
grep -qx 'jeheap: nothing to show: no sampled function matches --list=inl_helper (inlined functions are listed within their callers)' \
	"$T/i.err" || fail "--list=inl_helper: $(cat "$T/i.err")"

# Recursion: the call line of recurse has a cumulative value.
"$JEHEAP" --list='^recurse$' "$PROG" "$HEAP" >"$T/r.out" 2>/dev/null || fail "--list=recurse"
grep -Eq "^ *\. +[0-9.]+ +$(mark MARK_REC_CALL): " "$T/r.out" || fail "recursive call line"

# Missing source: a one-line message on stderr and nothing listed (jeprof); --path-map finds it.
mv "$T/src" "$T/moved"
"$JEHEAP" --list='^mid' "$PROG" "$HEAP" >"$T/m.out" 2>"$T/m.all" || fail "missing source: exit $?"
grep -v '^jeheap: [0-9.]*% of bytes fully symbolized' "$T/m.all" >"$T/m.err" # without the coverage line
[ "$(wc -l <"$T/m.err")" = 1 ] || fail "missing source: $(cat "$T/m.err")"
grep -q "^jeheap: .*$SRC.*cannot open" "$T/m.err" || fail "missing source message: $(cat "$T/m.err")"
[ ! -s "$T/m.out" ] || fail "missing source: listed $(head -1 "$T/m.out")"
"$JEHEAP" --list='^mid' --path-map="$T/src=$T/moved" "$PROG" "$HEAP" >"$T/p.out" 2>"$T/p.err" || fail "--path-map"
grep -v '^jeheap: [0-9.]*% of bytes fully symbolized' "$T/p.err" | grep -q . && fail "--path-map: $(cat "$T/p.err")"
# the header names the file as DWARF does, wherever it was found
"$JEHEAP" --list='^mid' --show_bytes --path-map="$T/src=$T/moved" "$PROG" "$HEAP" 2>/dev/null | diff "$T/l.out" - >&2 \
	|| fail "--path-map listing differs"
mv "$T/moved" "$T/src"

# Symbolized input has no file:line: nothing is printed (as jeprof), one line says why, exit 4.
"$JEHEAP" --raw "$PROG" "$HEAP" >"$T/s.sym" 2>/dev/null || fail "--raw"
rc=0
"$JEHEAP" --list=mid "$T/s.sym" >"$T/s.out" 2>"$T/s.err" || rc=$?
[ $rc = 4 ] || fail "--list on symbolized input: exit $rc"
[ ! -s "$T/s.out" ] || fail "--list on symbolized input printed something"
[ "$(cat "$T/s.err")" = 'jeheap: nothing to show: --list needs the raw dump and its binaries (no sampled address has a symbol with lines)' ] ||
	fail "--list on symbolized input: $(cat "$T/s.err")"

# A bad regex is a usage error.
set +e
"$JEHEAP" --list='(' "$PROG" "$HEAP" >/dev/null 2>&1
rc=$?
set -e
[ $rc = 1 ] || fail "bad regex: exit $rc"

# Byte for byte against jeprof on this dump, when jeprof is installed (the committed
# goldens: golden_list.sh). jeprof runs with the tool wrappers of
# tests/gen/make-golden-list.sh (discriminators and allocator names corrected).
if command -v jeprof >/dev/null && command -v objdump >/dev/null; then
	# without file(1) jeprof takes the ELF program for a Windows one (its test of $^O is
	# numeric) and lists nothing: say so instead of a bare "jeprof --list" failure
	[ -x /usr/bin/file ] || fail "jeprof needs /usr/bin/file (package file, scripts/setup installs it)"
	for re in '^(mid|recurse|other|main)' leaf_alloc inl_helper; do
		(cd "$T" && PERL_HASH_SEED=0 jeprof --tools="$JH_SRC/tests/gen/jeprof-tools/" \
			--list="$re" --show_bytes "$PROG" "$HEAP" >"$T/j.exp" 2>/dev/null) || fail "jeprof --list=$re"
		# where jeprof lists nothing, jeheap exits 4 (nothing to show)
		rc=0
		"$JEHEAP" --list="$re" --show_bytes "$PROG" "$HEAP" >"$T/j.out" 2>/dev/null || rc=$?
		[ $rc = 0 ] || { [ $rc = 4 ] && [ ! -s "$T/j.exp" ]; } || fail "--list=$re: exit $rc"
		diff -u "$T/j.exp" "$T/j.out" >&2 || fail "--list=$re differs from jeprof"
	done
	grep -q ROUTINE "$T/j.exp" && fail "jeprof listed the inlined inl_helper"
	# jeprof's reading of the source: '\r' dropped; chop takes the last character of
	# a last line without newline; the routine's --- after the end of the file is lost
	cp "$SRC" "$T/rfix.orig"
	for form in crlf nonl; do
		case $form in
		crlf) sed 's/$/\r/' "$T/rfix.orig" >"$SRC" ;;
		nonl) printf '%s' "$(cat "$T/rfix.orig")" >"$SRC" ;;
		esac
		(cd "$T" && PERL_HASH_SEED=0 jeprof --tools="$JH_SRC/tests/gen/jeprof-tools/" \
			--list='^(main|other)' "$PROG" "$HEAP" >"$T/j.exp" 2>/dev/null) || fail "jeprof ($form)"
		grep -q ROUTINE "$T/j.exp" || fail "jeprof listed nothing ($form)"
		"$JEHEAP" --list='^(main|other)' "$PROG" "$HEAP" 2>/dev/null | diff -u "$T/j.exp" - >&2 ||
			fail "source with $form: differs from jeprof"
	done
	cp "$T/rfix.orig" "$SRC"
else
	echo "SKIP (part): jeprof or objdump missing, no byte-exact comparison with jeprof"; exit 77
fi
echo ok
