#!/usr/bin/env bash
# Coverage in one line: after a run on a raw dump, one line on stderr:
# the share of bytes fully symbolized (without _start and the dynamic loader, which never
# have lines) and the modules without debug info with what to do: the Debian package that
# holds a system library (-dbgsym/-dbg; the oracle is `dpkg -S`), else build with -g.
# --verbose adds the per-module detail; --quiet hides the line, not the warnings; -qq both.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
P=./rfix H=$(basename "$HEAP")
pct='[0-9]\{1,3\}\.[0-9]'

# a -g build: one line, no module named (_start and ld.so are not counted)
"$JEHEAP" --text "$P" "$H" >/dev/null 2>err || fail "exit $?"
[ "$(wc -l <err)" = 1 ] || fail "-g build: not one line: $(cat err)"
grep -qx "jeheap: $pct% of bytes fully symbolized" err || fail "-g build: $(cat err)"
# the share is the bytes of the fully symbolized addresses over all counted ones; with
# every address of the program fully named it is above 99%
grep -qx 'jeheap: 99\.[0-9]% of bytes fully symbolized\|jeheap: 100\.0% of bytes fully symbolized' err ||
	fail "-g build share: $(cat err)"

# the program without debug info (strip -g): it is named, with -g as the fix
mkdir nodbg && strip -g -o nodbg/rfix rfix
"$JEHEAP" --text nodbg/rfix "$H" >/dev/null 2>err || fail "strip -g: exit $?"
[ "$(wc -l <err)" = 1 ] || fail "strip -g: not one line: $(cat err)"
grep -qx "jeheap: $pct% of bytes fully symbolized; 1 module without debug info (rfix: build it with -g or point --debug-dir at its debug file)" err ||
	fail "strip -g: $(cat err)"
# --verbose: the line, then the per-module detail
"$JEHEAP" --verbose --text nodbg/rfix "$H" >/dev/null 2>err || fail "--verbose: exit $?"
head -1 err | grep -q "^jeheap: $pct% of bytes fully symbolized; 1 module without" || fail "--verbose: $(cat err)"
grep -q '^jeheap: symbolized [0-9]* of [0-9]* unique addresses' err || fail "--verbose: no detail"
grep -q '^jeheap:   nodbg/rfix: 0 full, [1-9][0-9]* symbol only' err || fail "--verbose: no module line"

# a system library without debug info: its Debian package (dpkg -S as the oracle)
if command -v dpkg >/dev/null && [ -r /usr/include/zlib.h ]; then
	cat >z.c <<'C'
#include <stdlib.h>
#include <zlib.h>
int main(void)
{
	z_stream s = { 0 };
	return deflateInit(&s, 9) != Z_OK;
}
C
	gcc -g -O1 -o z z.c -lz
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:8,prof_prefix:$T/z ./z
	zlib=$(grep -o '/[^ ]*libz\.so[^ ]*$' z.*.heap | head -1)
	pkg=$(dpkg -S "$(realpath "$zlib")" 2>/dev/null || dpkg -S "${zlib#/usr}" 2>/dev/null)
	pkg=${pkg%%:*}
	id=$(readelf -n "$zlib" | sed -n 's/.*Build ID: *//p')
	if [ -n "$pkg" ] && [ ! -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
		"$JEHEAP" --text ./z z.*.heap >/dev/null 2>err || fail "zlib: exit $?"
		echo "zlib: $(cat err)"
		grep -qx "jeheap: $pct% of bytes fully symbolized; 1 module without debug info ($(basename "$zlib"): install $pkg-dbgsym (or $pkg-dbg) or point --debug-dir at it)" err ||
			fail "zlib: $(cat err)"
	fi
fi

# --quiet: no coverage line, warnings stay; -qq: neither
mv rfix rfix.gone # the program named in the dump's maps is missing
"$JEHEAP" --quiet --text "$H" >/dev/null 2>err || fail "--quiet: exit $?"
[ "$(wc -l <err)" = 1 ] && grep -q '^jeheap: warning: .*rfix: file not found' err || fail "--quiet: $(cat err)"
"$JEHEAP" -qq --text "$H" >/dev/null 2>err || fail "-qq: exit $?"
[ ! -s err ] || fail "-qq: $(cat err)"
"$JEHEAP" --text "$H" >/dev/null 2>err
[ "$(wc -l <err)" = 2 ] && grep -q "^jeheap: $pct% of bytes fully symbolized" err || fail "missing program: $(cat err)"
mv rfix.gone rfix
echo ok
