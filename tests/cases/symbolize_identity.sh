#!/usr/bin/env bash
# Binary identity check: the sampled return addresses of a module must
# follow a call in the file. The fixture program rebuilt with one function added, pointed
# at a real dump of the original: one warning, and its frames are named from the file the
# dump mapped (the original) instead; with that file gone, or rebuilt too, no frame of the
# program is named (all print as rfix+0xOFF); a Debian program given for a dump of another
# one: named from the mapped file; --trust-binaries turns the check off (and the wrong names, e.g.
# padding_fn, come back: what the check prevents). No false alarm on the original (PIE),
# a stripped copy with a separate debug file (.gnu_debuglink), nor on any golden dump
# (PIE and non-PIE programs, a shared library, libc, libstdc++, the loader).
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
H=$(basename "$HEAP")
names=' (padding_fn|leaf_alloc|mid|recurse|main|inl_helper|other)( |$)'

# 1. rebuilt with one function added before the others
mkdir rb
awk 'NR == 1, /^#include <string.h>/ { print; next }
     !done { print "\n__attribute__((noinline, used)) int padding_fn(int x)\n{\n\tvolatile int a[8];";
             print "\tfor (int i = 0; i < 8; i++)\n\t\ta[i] = x * i + 3;\n\treturn a[x & 7];\n}"; done = 1 }
     { print }' src/rfix.c >rb/rfix.c
grep -q padding_fn rb/rfix.c || fail "fixture not changed"
(cd rb && gcc -g -O2 -fno-omit-frame-pointer -o rfix rfix.c)
# 1a. given as the program while the file the dump mapped (./rfix) is there: one warning, and
# the frames are named from the mapped file, exactly as without a program argument
"$JEHEAP" --text "$H" >plain 2>/dev/null || fail "no program: exit $?"
"$JEHEAP" --cache-dir="$T/c1" --text rb/rfix "$H" >out 2>err || fail "rebuilt: exit $?"
# a warm run (one fresh cache folder) says the same, byte for byte
"$JEHEAP" --cache-dir="$T/c1" --text rb/rfix "$H" >/dev/null 2>err2 || fail "rebuilt warm: exit $?"
cmp -s err err2 || fail "rebuilt: the warm run says otherwise: $(diff err err2)"
# the problem is said once: the coverage line does not name the program again
grep '% of bytes fully symbolized' err | grep -q 'rfix' && fail "rebuilt: the coverage line repeats it: $(cat err)"
grep -v '% of bytes fully symbolized' err >warn
[ "$(wc -l <warn)" = 1 ] || fail "rebuilt: not one warning: $(cat err)"
grep -Eqx 'jeheap: warning: rb/rfix differs from the program that ran \(([0-9]+) of ([0-9]+) return addresses do not follow a call\); its frames are named from /.*/rfix, the file the profile mapped, instead' warn ||
	fail "rebuilt: $(cat warn)"
n=$(sed 's/.*ran (\([0-9]*\) of \([0-9]*\) .*/\1 \2/' warn)
[ "${n% *}" -ge 3 ] && [ $((${n% *} * 20)) -gt "${n#* }" ] || fail "counts: $n"
cmp -s plain out || fail "rebuilt: not named as from the mapped file: $(diff plain out | head -5)"
grep -q ' leaf_alloc$' out || fail "rebuilt: leaf_alloc not named"
grep -q 'padding_fn' out && fail "rebuilt: a name from the wrong program"
# 1b. the mapped file gone: no name at all, every frame of the program as rfix+0xOFF
mv rfix rfix.away
"$JEHEAP" --text rb/rfix "$H" >out 2>err || fail "rebuilt, mapped file gone: exit $?"
grep -q 'differs from the program that ran' err || fail "mapped file gone: no warning: $(cat err)"
grep -Eq "$names" out && fail "mapped file gone: a frame of the program is named: $(grep -E "$names" out | head -3)"
grep -q ' rfix+0x[0-9a-f]*$' out || fail "mapped file gone: no rfix+0xOFF frame"
# --collapsed too: every frame of the program as rfix+0xOFF
"$JEHEAP" --collapsed rb/rfix "$H" 2>/dev/null | grep -Eq '(^|;)(padding_fn|leaf_alloc|mid|recurse|main)(;| )' &&
	fail "mapped file gone: --collapsed names a frame of the program"
# 1c. the mapped file rebuilt too: it fails the check in turn (its own warning), no name
cp rb/rfix rfix
"$JEHEAP" --text rb/rfix "$H" >out 2>err || fail "both rebuilt: exit $?"
grep -Eq 'warning: /.*/rfix differs from the program that ran .*; its frames are shown as rfix\+0xOFF$' err ||
	fail "both rebuilt: no warning about the mapped file: $(cat err)"
grep -Eq "$names" out && fail "both rebuilt: a frame of the program is named"
grep -q ' rfix+0x[0-9a-f]*$' out || fail "both rebuilt: no rfix+0xOFF frame"
mv rfix.away rfix
# 1d. Debian's binaries as shipped (stripped): a dump of /usr/bin/sort given /usr/bin/gzip as
# the program (its segments differ from the mapping): one warning, and every frame is named
# as from the dump alone, none as gzip+0xOFF
mkdir sort
seq 1 200000 | tac >nums
LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$T/sort/s \
	/usr/bin/sort -S 50M nums >/dev/null
S=$(ls sort/s.*.heap)
"$JEHEAP" --text "$S" >plain 2>/dev/null || fail "sort dump: exit $?"
grep -q ' sort+0x' plain || fail "sort dump: no frame in /usr/bin/sort (the test proves nothing)"
"$JEHEAP" --text /usr/bin/gzip "$S" >out 2>err || fail "gzip for sort: exit $?"
grep -qx 'jeheap: warning: /usr/bin/gzip: /usr/bin/gzip is not the file that was mapped at .*; the file the profile mapped is used instead' err ||
	fail "gzip for sort: $(cat err)"
grep -q 'gzip+0x' out && fail "gzip for sort: frames labelled gzip+0xOFF"
cmp -s plain out || fail "gzip for sort: not as from the dump alone: $(diff plain out | head -4)"
# --trust-binaries: no check, no warning (and the names it would have shown are wrong)
"$JEHEAP" --text --trust-binaries rb/rfix "$H" >out 2>err || fail "--trust-binaries: exit $?"
grep -q 'differs' err && fail "--trust-binaries: $(cat err)"
grep -q ' padding_fn$' out || fail "--trust-binaries: padding_fn not shown (the test proves nothing)"

# 2. no false alarms: the original (a PIE), a stripped copy with a separate debug file
"$JEHEAP" --text ./rfix "$H" >out 2>err || fail "original: exit $?"
grep -q 'differs\|warning' err && fail "original: $(cat err)"
grep -q ' leaf_alloc$' out || fail "original: leaf_alloc not named"
readelf -h rfix | grep -q 'DYN' || fail "the fixture is not a PIE"
objcopy --only-keep-debug rfix rfix.debug
objcopy --strip-debug --add-gnu-debuglink=rfix.debug rfix rfix.s
"$JEHEAP" --text ./rfix.s "$H" >out 2>err || fail "separate debug: exit $?"
grep -q 'differs\|warning' err && fail "separate debug: $(cat err)"
grep -q ' inl_helper (inline)$' out || fail "separate debug: no DWARF names"

# 3. no false alarms on the golden dumps (their binaries, as golden_raw.sh unpacks them)
command -v xz >/dev/null || { echo "skip: no xz"; exit 77; }
SRC=$JH_SRC source "$JH_SRC/tests/fixtures/golden_bins.sh"
checked=0
for h in "$JH_SRC"/testdata/golden/*/*.heap; do
	"$JEHEAP" --text "$h" >/dev/null 2>err || fail "$h: exit $?"
	grep -q 'differs from the program' err && fail "false alarm on $h: $(cat err)"
	checked=$((checked + 1))
done
[ $checked -ge 10 ] || fail "only $checked golden dumps"
echo "ok ($checked golden dumps, rebuilt: $n)"
