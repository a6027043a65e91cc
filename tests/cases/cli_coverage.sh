#!/usr/bin/env bash
# Coverage in one line: after a run on a raw dump, one line on stderr: the share of
# sampled bytes whose stacks got a name and a line for every frame (without _start and
# the dynamic loader, which never have lines) and the modules that leave the most bytes
# short of lines, with their state and what to do: the Debian package that holds a system
# library (-dbgsym/-dbg; the oracle is `dpkg -S`), else build with -g. --verbose adds the
# per-module detail; --quiet hides the line, not the warnings; -qq both. Every run is made
# twice with one fresh cache folder: the warm run's stderr is the same, byte for byte.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
P=./rfix H=$(basename "$HEAP")
pct='[0-9]\{1,3\}\.[0-9]'
# jemalloc's libstdc++ (Debian ships it without debug info) may be named after the rest
stdcxx='\(; libstdc++[^;]*\)\?'
# twice ARGS...: jeheap ARGS (stdout discarded, stderr in err), then again warm
twice() {
	local rc=0
	"$JEHEAP" --cache-dir="$T/cache" "$@" >/dev/null 2>err || rc=$?
	"$JEHEAP" --cache-dir="$T/cache" "$@" >/dev/null 2>err.warm || true
	cmp -s err err.warm || fail "$*: the warm run says otherwise: $(diff err err.warm)"
	return $rc
}

# a -g build: one line, no module named (_start and ld.so are not counted)
twice --text "$P" "$H" || fail "exit $?"
[ "$(wc -l <err)" = 1 ] || fail "-g build: not one line: $(cat err)"
grep -qx "jeheap: $pct% of bytes fully symbolized$stdcxx" err || fail "-g build: $(cat err)"
# the share is the bytes of the stacks fully symbolized over all; with every frame of the
# program fully named it is above 99%
grep -q '^jeheap: 99\.[0-9]% of bytes fully symbolized\|^jeheap: 100\.0% of bytes fully symbolized' err ||
	fail "-g build share: $(cat err)"

# the program without debug info (strip -g): it is named, with -g as the fix
mkdir nodbg && strip -g -o nodbg/rfix rfix
twice --text nodbg/rfix "$H" || fail "strip -g: exit $?"
[ "$(wc -l <err)" = 1 ] || fail "strip -g: not one line: $(cat err)"
grep -qx "jeheap: $pct% of bytes fully symbolized; rfix (symbols only, $pct% of bytes short of lines): build it with -g, or point --debug-dir at its debug file$stdcxx" err ||
	fail "strip -g: $(cat err)"
# --verbose: the line, then the per-module detail (the same share)
twice --verbose --text nodbg/rfix "$H" || fail "--verbose: exit $?"
head -1 err | grep -q "^jeheap: $pct% of bytes fully symbolized; rfix (symbols only" || fail "--verbose: $(cat err)"
share=$(sed -n '1s/^jeheap: \([0-9.]*%\) .*/\1/p' err)
grep -q "^jeheap: $share of bytes fully symbolized; of [0-9]* unique addresses" err || fail "--verbose: no detail, or another share"
grep -q '^jeheap:   nodbg/rfix: symbols only; 0 with lines, [1-9][0-9]* symbol only' err || fail "--verbose: no module line"

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
		twice --text ./z z.*.heap || fail "zlib: exit $?"
		echo "zlib: $(cat err)"
		grep -q "^jeheap: $pct% of bytes fully symbolized.*; $(basename "$zlib") (no symbols, $pct% of bytes short of lines): install $pkg-dbgsym (or $pkg-dbg), or point --debug-dir at its debug file" err ||
			fail "zlib: $(cat err)"
	fi
fi

# --quiet: no coverage line, warnings stay; -qq: neither
mv rfix rfix.gone # the program named in the dump's maps is missing
twice --quiet --text "$H" || fail "--quiet: exit $?"
[ "$(wc -l <err)" = 1 ] && grep -q '^jeheap: warning: 1 mapped file not found here: .*/rfix; ' err || fail "--quiet: $(cat err)"
"$JEHEAP" -qq --text "$H" >/dev/null 2>err || fail "-qq: exit $?"
[ ! -s err ] || fail "-qq: $(cat err)"
twice --text "$H"
[ "$(wc -l <err)" = 2 ] && grep -q "^jeheap: $pct% of bytes fully symbolized" err || fail "missing program: $(cat err)"
# the missing program is said once: the coverage line does not name it again
tail -1 err | grep -q 'rfix' && fail "missing program named twice: $(cat err)"
mv rfix.gone rfix
echo ok
