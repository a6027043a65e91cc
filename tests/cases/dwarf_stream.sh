#!/bin/bash
# Streaming .debug_info (JH_DWARF_STREAM; in production for compressed
# sections of 16 MB and more): the first lookup runs on the units already
# inflated, speculating on .debug_aranges, while the rest inflates. Its
# answers must be exactly those of the plain path (JH_DWARF_STREAM=off):
# - guard mode: what is not inflated yet is PROT_NONE (an early reader
#   crashes), the inflate starts when a reader waits and goes slowly, so
#   workers wait at the frontier;
#   zlib (objcopy) and zstd, -j 1/2/3; the trace shows the speculation held;
# - a gcc + clang binary (clang writes no .debug_aranges): the speculation
#   misses a unit, is discarded, and the answers still match;
# - a corrupt compressed .debug_info: the same symbol-only answers and the
#   same "corrupt compressed section" warning as without streaming;
# - helgrind over the streaming path with 2 workers: no race.
set -u
: "${JH_SRC:?}" "${JH_BUILD:?}"
DUMP=$JH_BUILD/tests/jh_dwarf_dump
for t in objcopy objdump readelf gcc clang python3; do
	command -v $t >/dev/null || { echo "SKIP: $t missing"; exit 77; }
done
readelf -S "$DUMP" | grep -q debug_info || { echo "SKIP: test tool built without -g"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

addrs_of() { # every 3rd instruction of .text
	objdump -d --no-show-raw-insn -j .text "$1" |
		awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); if (++n % 3 == 0) print "0x" a }'
}

# same NAME MODE-ENV... : output equal to the plain path's ($b.off)
same() {
	local name=$1 out=$tmp/out.$RANDOM
	shift
	env JH_TRACE=1 "$@" "$DUMP" $J "$B" < $tmp/addrs > $out 2> $out.err
	if ! cmp -s $tmp/off $out; then
		echo "FAIL $name: differs from the unstreamed answers"; diff $tmp/off $out | head; fail=1
		return 1
	fi
	if [ "$WANT" != any ] && ! grep -q ' (speculative)' $out.err; then
		echo "FAIL $name: no speculative lookup"; fail=1; return 1
	fi
	if [ "$WANT" = held ] && grep -q 'speculation discarded' $out.err; then
		echo "FAIL $name: the speculation was discarded"; fail=1; return 1
	fi
	if [ "$WANT" = discarded ] && ! grep -q 'speculation discarded' $out.err; then
		echo "FAIL $name: the speculation should not have held"; fail=1; return 1
	fi
	echo "ok   $name ($(grep -c '^$' $out) addresses)"
}

# 1. a multi-unit binary (the test tool itself), zlib and zstd (WANT: what
# the speculation must do: held, discarded, any)
cp "$DUMP" $tmp/subject
addrs_of $tmp/subject > $tmp/addrs
for c in zlib zstd; do
	B=$tmp/subject.$c
	objcopy --compress-debug-sections=$c $tmp/subject $B || { echo "note: no $c"; continue; }
	J="-j 2" WANT=held
	[ $c = zstd ] && WANT=any # inflated in one piece: may be done before the lookup
	# built by clang (build/clang-asan), the subject has no .debug_aranges to speculate on
	readelf -SW $tmp/subject | grep -q '\.debug_aranges' || WANT=any
	JH_DWARF_STREAM=off "$DUMP" $J $B < $tmp/addrs > $tmp/off
	[ "$(grep -c '^$' $tmp/off)" -gt 500 ] || { echo "FAIL: too few answers"; fail=1; }
	grep -q 'dwarf_index.c:' $tmp/off || { echo "FAIL: no frame of the subject's sources"; fail=1; }
	same "$c guard -j 2" JH_DWARF_STREAM=guard
	J="-j 1"; same "$c guard -j 1" JH_DWARF_STREAM=guard
	J="-j 3" WANT=any; same "$c on -j 3" JH_DWARF_STREAM=on
done

# 2. aranges cover only the gcc unit: the speculation must be discarded
S=$JH_SRC/tests/fixtures/sym
if clang -O2 -g -c "$S/symlib.c" -o $tmp/lib.o && gcc -O2 -g -c "$S/symprog.c" -o $tmp/prog.o &&
	gcc $tmp/lib.o $tmp/prog.o -o $tmp/mixed &&
	objcopy --compress-debug-sections=zlib $tmp/mixed $tmp/mixed.z; then
	B=$tmp/mixed.z J="-j 2" WANT=discarded
	objdump -d --no-show-raw-insn -j .text $tmp/mixed |
		awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); print "0x" a }' > $tmp/addrs
	JH_DWARF_STREAM=off "$DUMP" $J $B < $tmp/addrs > $tmp/off
	grep -q 'symlib.c:' $tmp/off || { echo "FAIL: no frame of the clang unit"; fail=1; }
	same "gcc+clang guard" JH_DWARF_STREAM=guard
else
	echo "FAIL: cannot build the gcc+clang binary"; fail=1
fi

# 3. corrupt compressed .debug_info: zeros in the middle of its zlib stream
B=$tmp/subject.bad J="-j 2"
cp $tmp/subject.zlib $B
read -r off size < <(readelf -SW $B | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".debug_info" { print $4, $5 }')
python3 - "$B" "$off" "$size" <<'EOF'
import sys
path, off, size = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
with open(path, "r+b") as f:
    f.seek(off + size // 2)
    f.write(bytes(2048))
EOF
addrs_of $tmp/subject > $tmp/addrs
JH_DWARF_STREAM=off "$DUMP" $J $B < $tmp/addrs > $tmp/off 2> $tmp/off.err
JH_DWARF_STREAM=guard "$DUMP" $J $B < $tmp/addrs > $tmp/bad 2> $tmp/bad.err
if ! grep -q 'corrupt compressed section .debug_info' $tmp/off.err; then
	echo "FAIL: the damaged section was not found corrupt"; cat $tmp/off.err; fail=1
elif ! grep -q 'corrupt compressed section .debug_info' $tmp/bad.err; then
	echo "FAIL corrupt, streamed: no warning"; cat $tmp/bad.err; fail=1
elif ! cmp -s $tmp/off $tmp/bad; then
	echo "FAIL corrupt, streamed: answers differ"; diff $tmp/off $tmp/bad | head; fail=1
else
	echo "ok   corrupt .debug_info, streamed: symbols only, warned"
fi

# 4. helgrind over the streaming path
if ! command -v valgrind >/dev/null; then
	echo "SKIP (part): helgrind part, valgrind missing"; skipped=1
elif ! readelf -s "$DUMP" | grep -q __asan_init; then
	addrs_of $tmp/subject | awk 'NR % 4 == 0' > $tmp/addrs
	"$DUMP" -j 1 $tmp/subject.zlib < $tmp/addrs > $tmp/one
	JH_DWARF_STREAM=on valgrind --tool=helgrind --error-exitcode=9 "$DUMP" -j 2 $tmp/subject.zlib \
		< $tmp/addrs > $tmp/two 2> $tmp/hg
	rc=$?
	if [ $rc -ne 0 ]; then
		grep -A12 "Possible data race" $tmp/hg | head -40; echo "FAIL: helgrind rc=$rc"; fail=1
	elif ! cmp -s $tmp/one $tmp/two; then
		echo "FAIL: helgrind run answers differ"; fail=1
	else
		echo "ok   helgrind, streamed, 2 workers: $(grep 'ERROR SUMMARY' $tmp/hg | sed 's/^==[0-9]*== //')"
	fi
else
	echo "note: helgrind part skipped (valgrind cannot run a sanitizer build)"
fi
[ $fail = 0 ] && [ -n "${skipped:-}" ] && exit 77 # a part did not run: skipped, not passed
exit $fail
