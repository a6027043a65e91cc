#!/usr/bin/env bash
# filter_fullnames.sh - names copied from any output work in every filter, on the golden
# C++ dump (tests/fixtures/prog/cxx.cpp: templates, overloads, inline frames):
#   - --focus/--ignore with a full signature (as --collapsed, the flame graph and the HTML
#     page show it, argument list included) that matches no name under jeprof's rules keep
#     and drop the same stacks as the short name, in every report, with one line saying so;
#   - a regex that jeprof's rules match keeps its result byte for byte and prints nothing;
#   - --peek and --list with a name as --text shows it (short name) that matches no full
#     name list the same as with the full names, with one line saying so;
#   - a regex that matches nothing under either rule still has nothing to show (exit 4).
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
command -v xz > /dev/null || { echo "filter_fullnames: SKIP: xz missing" >&2; exit 77; }
source "$SRC/tests/fixtures/golden_bins.sh"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
cd "$SRC/testdata/golden/cxx-s12" || exit 1
fails=0 checks=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
run() { # OUT-NAME ARGS...: stdout to $TMP/NAME, stderr to $TMP/NAME.err, exit status echoed
  local n=$1; shift
  "$JEHEAP" --quiet "$@" > "$TMP/$n" 2> "$TMP/$n.err"
  echo $?
}
# same A B: the two runs printed the same, A's stderr is the one note, B's is empty
same_noted() {
  checks=$((checks + 1))
  cmp -s "$TMP/$1" "$TMP/$2" || { fail "$1 vs $2: outputs differ"; diff "$TMP/$1" "$TMP/$2" | head -5; }
  [ -s "$TMP/$1" ] || fail "$1: empty output"
  [ "$(wc -l < "$TMP/$1.err")" = 1 ] && grep -qF -- "$3" "$TMP/$1.err" ||
    fail "$1: want one line '$3' on stderr, got: $(cat "$TMP/$1.err")"
  [ ! -s "$TMP/$2.err" ] || fail "$2: stderr: $(cat "$TMP/$2.err")"
}

FULL='fill\(unsigned' SHORT='Box::fill'
for mode in --collapsed --text --traces --json; do
  m=${mode#--}
  [ "$(run "focus-full.$m" $mode --focus="$FULL" after.heap)" = 0 ] || fail "--focus=$FULL $mode: exit"
  [ "$(run "focus-short.$m" $mode --focus="$SHORT" after.heap)" = 0 ] || fail "--focus=$SHORT $mode: exit"
  same_noted "focus-full.$m" "focus-short.$m" "jeheap: --focus='$FULL' matches no name as --text shows them"
  run "ignore-full.$m" $mode --ignore="$FULL" after.heap > /dev/null
  run "ignore-short.$m" $mode --ignore="$SHORT" after.heap > /dev/null
  same_noted "ignore-full.$m" "ignore-short.$m" "jeheap: --ignore='$FULL' matches no name"
done
# the focus kept something and dropped something: the fill stacks only
grep -q 'Box<long>::fill(unsigned long)' "$TMP/focus-full.collapsed" || fail "focus: no fill stack"
! grep -qv 'fill(unsigned long)' "$TMP/focus-full.collapsed" || fail "focus: a stack without fill"
! grep -q 'fill(unsigned long)' "$TMP/ignore-full.collapsed" || fail "ignore: a fill stack left"
[ -s "$TMP/ignore-full.collapsed" ] || fail "ignore: nothing left"
# --proto (every value analysed): the note once
run proto --proto --focus="$FULL" after.heap > /dev/null
[ "$(grep -c 'matches no name' "$TMP/proto.err")" = 1 ] || fail "--proto: $(cat "$TMP/proto.err")"
checks=$((checks + 1))
# a full signature narrower than any short name: Box<long> only
run narrow --collapsed --focus='Box<long>::fill\(' after.heap > /dev/null
grep -q 'Box<long>::fill' "$TMP/narrow" && ! grep -q 'Box<int>' "$TMP/narrow" &&
  [ "$(wc -l < "$TMP/narrow")" -lt "$(wc -l < "$TMP/focus-full.collapsed")" ] ||
  fail "--focus='Box<long>::fill\\(': $(cat "$TMP/narrow")"
# jeprof's rules first: a short-name match is unchanged (the golden tests hold the bytes)
# and says nothing, even where full signatures would match more
run jr --text --focus='fill' after.heap > /dev/null
[ ! -s "$TMP/jr.err" ] || fail "--focus=fill: stderr: $(cat "$TMP/jr.err")"
checks=$((checks + 1))
# nothing under either rule: nothing to show, as before
[ "$(run none --text --focus='nosuchname\(' after.heap)" = 4 ] || fail "--focus=nosuchname: exit"
grep -q 'nothing matches --focus' "$TMP/none.err" || fail "--focus=nosuchname: $(cat "$TMP/none.err")"
[ "$(run nonep --peek='nosuchname' after.heap)" = 4 ] || fail "--peek=nosuchname: exit"
checks=$((checks + 2))

# --peek: pprof's names are full; a short name from --text is matched against short names
run peek-short --peek='^ns::Box::fill$' after.heap > /dev/null
run peek-full --peek='^ns::Box<(int|long)>::fill\(unsigned long\)$' after.heap > /dev/null
same_noted peek-short peek-full "jeheap: --peek='^ns::Box::fill\$' matches no full name"
# --list: jeprof's names are the symbol table's full ones; a short name from --text too
PM=(--path-map="$GOLDEN_COMP_DIR"="$SRC")
run list-short "${PM[@]}" --list='^ns::Box::fill$' "$BIN/cxx" after.heap > /dev/null
run list-full "${PM[@]}" --list='^ns::Box<(int|long)>::fill\(unsigned long\)$' "$BIN/cxx" after.heap > /dev/null
same_noted list-short list-full "jeheap: --list='^ns::Box::fill\$' matches no full name"
grep -q 'ROUTINE.*fill' "$TMP/list-full" || fail "--list: no routine listed"

echo "filter_fullnames: $checks checks: $fails failed"
[ "$fails" -eq 0 ]
