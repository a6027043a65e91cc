#!/bin/bash
# The DWARF resolver with 2 worker threads under helgrind: no data race.
# The subject is a multi-CU binary with DWARF, jh_dwarf_dump itself
# (libdwarf keeps static buffers in dwarf_srcfiles; this caught that).
set -u
: "${JH_BUILD:?}"
DUMP=$JH_BUILD/tests/jh_dwarf_dump
command -v valgrind >/dev/null || { echo "SKIP: valgrind missing"; exit 77; }
readelf -S "$DUMP" | grep -q debug_info || { echo "SKIP: test tool built without -g"; exit 77; }
readelf -s "$DUMP" | grep -q __asan_init && { echo "SKIP: valgrind cannot run a sanitizer build"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$DUMP" $tmp/subject
objdump -d --no-show-raw-insn -j .text $tmp/subject |
	awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); if (++n % 16 == 0) print "0x" a }' > $tmp/addrs
"$DUMP" -j 1 $tmp/subject < $tmp/addrs > $tmp/one
valgrind --tool=helgrind --error-exitcode=9 "$DUMP" -j 2 $tmp/subject < $tmp/addrs > $tmp/two 2> $tmp/hg
rc=$?
grep "ERROR SUMMARY" $tmp/hg
[ $rc -eq 0 ] || { grep -A12 "Possible data race" $tmp/hg | head -40; echo "FAIL: helgrind rc=$rc"; exit 1; }
cmp -s $tmp/one $tmp/two || { echo "FAIL: -j 1 and -j 2 answers differ"; exit 1; }
[ "$(grep -c '^$' $tmp/one)" -gt 100 ] || { echo "FAIL: too few answers"; exit 1; }
grep -q "dwarf_index.c:" $tmp/one || { echo "FAIL: no frame of the subject's own sources"; exit 1; }
echo "ok: $(grep -c '^$' $tmp/one) addresses, 2 threads, no race"
