#!/usr/bin/env bash
# Binary identity check (issue 17 item 1): the sampled return addresses of a module must
# follow a call in the file. The fixture program rebuilt with one function added, pointed
# at a real dump of the original: one warning, and no frame of the program is named (all
# print as rfix+0xOFF); --trust-binaries turns the check off (and the wrong names, e.g.
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
"$JEHEAP" --cache-dir="$T/c1" --text rb/rfix "$H" >out 2>err || fail "rebuilt: exit $?"
# a warm run (one fresh cache folder) says the same, byte for byte
"$JEHEAP" --cache-dir="$T/c1" --text rb/rfix "$H" >/dev/null 2>err2 || fail "rebuilt warm: exit $?"
cmp -s err err2 || fail "rebuilt: the warm run says otherwise: $(diff err err2)"
# the problem is said once: the coverage line does not name the program again
grep '% of bytes fully symbolized' err | grep -q 'rfix' && fail "rebuilt: the coverage line repeats it: $(cat err)"
grep -v '% of bytes fully symbolized' err >warn
[ "$(wc -l <warn)" = 1 ] || fail "rebuilt: not one warning: $(cat err)"
grep -Eqx 'jeheap: warning: rb/rfix differs from the program that ran \(([0-9]+) of ([0-9]+) return addresses do not follow a call\); its frames are shown as rfix\+0xOFF' warn ||
	fail "rebuilt: $(cat warn)"
n=$(sed 's/.*ran (\([0-9]*\) of \([0-9]*\) .*/\1 \2/' warn)
[ "${n% *}" -ge 3 ] && [ $((${n% *} * 20)) -gt "${n#* }" ] || fail "counts: $n"
grep -Eq "$names" out && fail "rebuilt: a frame of the program is named: $(grep -E "$names" out | head -3)"
grep -q ' rfix+0x[0-9a-f]*$' out || fail "rebuilt: no rfix+0xOFF frame"
# --collapsed too: every frame of the program as rfix+0xOFF
"$JEHEAP" --collapsed rb/rfix "$H" 2>/dev/null | grep -Eq '(^|;)(padding_fn|leaf_alloc|mid|recurse|main)(;| )' &&
	fail "rebuilt: --collapsed names a frame of the program"
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
