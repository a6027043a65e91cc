#!/usr/bin/env bash
# Hostile function names through every report: DOT's and Graphviz's syntax,
# markup, control characters (a .symbolized fixture), and newlines (a
# crafted ELF's symbol table: a symbol line cannot hold one). Each format
# escapes by its own rules; one record is always one line; `--dot` passes
# `dot -Tsvg` with exactly the profile's nodes and edges, each label reading
# back as its name (tests/tools/hostile_check.py).
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
for t in dot python3 gcc objcopy readelf; do
	command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
T=$(mktemp -d /tmp/jh_hostile.XXXXXX)
trap 'rm -rf "$T"' EXIT
CHECK=$JH_SRC/tests/tools/hostile_check.py
fail=0

# reports PROFILE DIR [PROGRAM]: every report of PROFILE into DIR
reports() {
	local p=$1 d=$2 prog=${3:-}
	mkdir -p "$d"
	local args=()
	[ -n "$prog" ] && args=("$prog")
	"$JEHEAP" --text "${args[@]}" "$p" >"$d/text" 2>"$d/err" &&
		"$JEHEAP" --top=100 "${args[@]}" "$p" >"$d/top" 2>>"$d/err" &&
		"$JEHEAP" --raw "${args[@]}" "$p" >"$d/raw" 2>>"$d/err" &&
		"$JEHEAP" --text "$d/raw" >"$d/raw.text" 2>>"$d/err" &&
		"$JEHEAP" --callgrind "${args[@]}" "$p" >"$d/callgrind" 2>>"$d/err" &&
		"$JEHEAP" --collapsed "${args[@]}" "$p" >"$d/collapsed" 2>>"$d/err" &&
		"$JEHEAP" --dot "${args[@]}" "$p" >"$d/dot" 2>>"$d/err" &&
		dot -Tsvg "$d/dot" >"$d/svg" 2>>"$d/err" &&
		"$JEHEAP" --svg "${args[@]}" "$p" >"$d/jsvg" 2>>"$d/err" ||
		{
			echo "FAIL: a report of $p failed:"
			cat "$d/err"
			return 1
		}
	# the only stderr: the coverage line, jeprof's "Dropping nodes" note
	if grep -v '^Dropping nodes\|^jeheap: [0-9.]*% of bytes \|^jeheap: symbolized \|^jeheap:   ' "$d/err" | grep -q .; then
		echo "FAIL: unexpected messages:"
		cat "$d/err"
		return 1
	fi
}

# 1. the .symbolized fixture (tests/gen/make-hostile.py)
FX=$JH_SRC/tests/fixtures/hostile/names.symbolized
reports "$FX" "$T/sym" && python3 "$CHECK" "$FX" "$T/sym" || fail=1

# 2. names with newlines, from a crafted ELF's symbol table: a static
# non-PIE program whose functions are renamed by objcopy (argv holds any
# byte but NUL), and a heap_v2 dump that maps it
source "$JH_SRC/tests/fixtures/hostile/elf.sh"
chain_prog "$T/h" || exit 1
# the leaf is f3's first byte, callers return after their 5-byte call
objcopy --redefine-sym f1=$'one\nforged() line' --redefine-sym f2=$'two\r\n0x0000000000400000 fake' \
	--redefine-sym f3=$'three\x01\x02 end' "$T/h" || exit 1
{
	echo "heap_v2/1"
	echo "  t*: 1: 1000000 [0: 0]"
	printf '@ 0x%x 0x%x 0x%x\n' $((0x$A3)) $((0x$A2 + 5)) $((0x$A1 + 5))
	echo "  t*: 1: 1000000 [0: 0]"
	echo
	echo "MAPPED_LIBRARIES:"
	maps_line "$T/h"
} >"$T/h.heap"
# the expected names, as a .symbolized file the checker reads (its lines
# split there too: the checker gets them from --raw's pcs and objcopy's names)
if reports "$T/h.heap" "$T/elf" "$T/h"; then
	python3 - "$T" <<'PY' || fail=1
import re, subprocess, sys
t = sys.argv[1]
names = {'f1': 'one\nforged() line', 'f2': 'two\r\n0x0000000000400000 fake', 'f3': 'three\x01\x02 end'}
vis = lambda s: s.replace('\n', '\\n').replace('\r', '\\r').replace('\x01', '\\x01').replace('\x02', '\\x02')
text = open(t + '/elf/text', encoding='latin-1').read().split('\n')
rows = [r[39:] for r in text[1:-1]]
ok = True
# jeprof's short names drop the "()"
want = {vis(n).replace('()', '') for n in names.values()}
if set(rows) != want or len(rows) != 3:
    print('FAIL: elf --text rows %r, want %r' % (rows, want)); ok = False
raw = open(t + '/elf/raw', encoding='latin-1').read().split('\n')
sym = [l for l in raw if l.startswith('0x')]
if len(sym) != 3 or {l[19:] for l in sym} != {vis(n) for n in names.values()}:
    print('FAIL: elf --raw symbol lines %r' % sym); ok = False
if open(t + '/elf/raw.text').read() != open(t + '/elf/text').read():
    print('FAIL: elf --raw read back differs'); ok = False
for rep in ('callgrind', 'collapsed'):
    for l in open('%s/elf/%s' % (t, rep), encoding='latin-1').read().split('\n'):
        if re.search(r'fake|forged', l) and not re.search(r'(one\\nforged|two\\r\\n0x0{10}400000 fake)', l):
            print('FAIL: elf --%s: forged line %r' % (rep, l)); ok = False
col = open(t + '/elf/collapsed').read().split('\n')
if len(col) != 2:
    print('FAIL: elf --collapsed: %d lines for one stack' % (len(col) - 1)); ok = False
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(t + '/elf/svg').getroot()
nodes = [g for g in root.iter(ns + 'g') if g.get('class') == 'node'
         and g.find(ns + 'title').text != 'Legend']
edges = [g for g in root.iter(ns + 'g') if g.get('class') == 'edge']
if len(nodes) != 3 or len(edges) != 2:
    print('FAIL: elf svg: %d nodes, %d edges' % (len(nodes), len(edges))); ok = False
print('ok: names with newlines from an ELF symbol table' if ok else '')
sys.exit(0 if ok else 1)
PY
else
	fail=1
fi
# --symbols: addr2line's layout, one line per name; --list's warning (no
# line information there) is one line too
got=$(printf '0x%x\n' $((0x$A1)) | "$JEHEAP" --symbols "$T/h" 2>/dev/null | od -c)
want=$(printf '%s\n??:0\n\n' 'one\nforged() line' | od -c)
[ "$got" = "$want" ] || { echo "FAIL: --symbols wrote:"; echo "$got"; fail=1; }
"$JEHEAP" --list=e "$T/h" "$T/h.heap" >"$T/list" 2>"$T/list.err"
n=$(grep -c 'no line information' "$T/list.err")
if [ "$n" -ne 3 ] || [ "$(grep -vc "% of bytes" "$T/list.err")" -ne 3 ]; then
	echo "FAIL: --list: $n warnings for 3 names:"
	cat "$T/list.err"
	fail=1
fi
exit $fail
