#!/bin/bash
# --collapsed with locations that do not fit a 32-byte record (more than
# four frames, a name of 64 KiB and more), ';' in a name, a location whose
# frames begin another's, and a stack emptied by allocator removal: the
# writev path (a file) and the buffered path (a pipe) write the same lines,
# byte-wise sorted, with the names as built here (leaf addresses exact,
# callers' one past their symbol: jeprof's caller fix-up).
set -uf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL $*"; fail=1; }

long=$(printf 'L%.0s' $(seq 70000))
{
	echo "--- symbol"
	echo "binary=/bin/prog"
	echo "0x0000000000001000 main"
	echo "0x0000000000001010 f(int)--g;h--i--j--k--l--m"
	echo "0x0000000000001020 $long(int)"
	echo "0x0000000000001030 a--$long--b"
	echo "0x0000000000001040 x--y"
	echo "0x0000000000001050 x"
	echo "0x0000000000002000 malloc"
	echo "---"
	echo "--- heap"
	echo "heap_v2/524288"
	echo "  t*: 10: 1000 [0: 0]"
	echo "@ 0x1010 0x1001"
	echo "  t*: 1: 100 [0: 0]"
	echo "@ 0x1020 0x1011 0x1001"
	echo "  t*: 2: 200 [0: 0]"
	echo "@ 0x1030 0x1001"
	echo "  t*: 3: 300 [0: 0]"
	echo "@ 0x1040 0x1001"
	echo "  t*: 4: 400 [0: 0]"
	echo "@ 0x1050 0x1001"
	echo "  t*: 5: 500 [0: 0]"
	echo "@ 0x2000"
	echo "  t*: 6: 600 [0: 0]"
	echo ""
	echo "MAPPED_LIBRARIES:"
} > "$tmp/p.heap.symbolized"

"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" > "$tmp/file" || err "exit code (file)"
"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" | cat > "$tmp/pipe" || err "exit code (pipe)"
cmp -s "$tmp/file" "$tmp/pipe" || err "writev and buffered outputs differ"
LC_ALL=C sort -c "$tmp/file" || err "not sorted"
[ "$(wc -l < "$tmp/file")" = 6 ] || err "line count $(wc -l < "$tmp/file")"
inl="f(int);g:h[inline];i[inline];j[inline];k[inline];l[inline];m[inline]"
# the names of each line (the counts are checked elsewhere)
sed 's/ [0-9]*$//' "$tmp/file" > "$tmp/names"
grep -qxF "main;$inl" "$tmp/names" || err "seven frames"
grep -qxF "main;$inl;$long(int)" "$tmp/names" || err "long name"
grep -qxF "main;a;$long[inline];b[inline]" "$tmp/names" || err "long inline name"
grep -qxF "main;x" "$tmp/names" || err "x"
grep -qxF "main;x;y[inline]" "$tmp/names" || err "x;y"
grep -qxF "" "$tmp/names" || err "emptied stack"
grep -qvE ' [0-9]+$' "$tmp/file" && err "a line without its count"
[ $fail = 0 ] || { cut -c1-120 "$tmp/file"; exit 1; }
echo "ok"
