#!/bin/bash
# --collapsed with locations that do not fit a 32-byte record (more than
# four frames, a name of 64 KiB and more), ';' in a name, a location whose
# frames begin another's, a line's last name followed by ' ' where another
# line's name has a ' ', and a stack emptied by allocator removal; and
# the boundaries of a record: exactly four and five frames, names of
# 0x7ffc to 0x8000 bytes (15 bits of length + 1 in a record) and of
# 0xfffc to 0x10000 bytes, plain and inline: the
# writev path (a file) and the buffered path (a pipe) write the same lines,
# byte-wise sorted, with the names as built here (leaf addresses exact,
# callers' one past their symbol: jeprof's caller fix-up).
set -uf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL $*"; fail=1; }

long=$(printf 'L%.0s' $(seq 70000))
# a name of n bytes: "<tag>_" and as many '#'
name() { local pad; pad=$(head -c $(($2 - ${#1} - 1)) /dev/zero | tr '\0' '#'); echo "${1}_$pad"; }
near=() inl_near=()
for n in 32764 32765 32766 32767 32768 65532 65533 65534 65535 65536; do
	near+=("$(name "n$n" $n)")
	inl_near+=("$(name "i$n" $n)")
done
{
	echo "--- symbol"
	echo "binary=/bin/prog"
	echo "0x0000000000001000 main"
	echo "0x0000000000001010 f(int)--g;h--i--j--k--l--m"
	echo "0x0000000000001020 $long(int)"
	echo "0x0000000000001030 a--$long--b"
	echo "0x0000000000001040 x--y"
	echo "0x0000000000001050 x"
	echo "0x0000000000001060 p--q--r--s"
	echo "0x0000000000001070 p--q--r--s--t"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf '0x00000000000011%d0 %s\n' "$i" "${near[$i]}"
		printf '0x00000000000012%d0 o--%s\n' "$i" "${inl_near[$i]}"
		printf '0x00000000000013%d0 o--%s--q--r\n' "$i" "${inl_near[$i]}"
	done
	echo "0x0000000000001080 op"
	echo "0x0000000000001090 op x"
	echo "0x00000000000010a0 leaf"
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
	echo "@ 0x1060 0x1001"
	echo "  t*: 7: 700 [0: 0]"
	echo "@ 0x1070 0x1001"
	echo "  t*: 8: 800 [0: 0]"
	echo "@ 0x1060 0x1071 0x1001"
	echo "  t*: 9: 900 [0: 0]"
	# "main;op N" before "main;op x;leaf M" whatever the counts (a digit
	# comes before 'x'); here N > M
	echo "@ 0x1080 0x1001"
	echo "  t*: 1: 9000 [0: 0]"
	echo "@ 0x10a0 0x1091 0x1001"
	echo "  t*: 1: 100 [0: 0]"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		for b in 11 12 13; do
			echo "@ 0x$b${i}0 0x1001"
			echo "  t*: 1: 1$b$i [0: 0]"
			echo "@ 0x1060 0x$b${i}1 0x1001"
			echo "  t*: 1: 2$b$i [0: 0]"
		done
	done
	echo ""
	echo "MAPPED_LIBRARIES:"
} > "$tmp/p.heap.symbolized"

"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" > "$tmp/file" || err "exit code (file)"
"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" | cat > "$tmp/pipe" || err "exit code (pipe)"
cmp -s "$tmp/file" "$tmp/pipe" || err "writev and buffered outputs differ"
LC_ALL=C sort -c "$tmp/file" || err "not sorted"
[ "$(wc -l < "$tmp/file")" = 71 ] || err "line count $(wc -l < "$tmp/file")"
inl="f(int);g:h[inline];i[inline];j[inline];k[inline];l[inline];m[inline]"
# the names of each line (the counts are checked elsewhere)
sed 's/ [0-9]*$//' "$tmp/file" > "$tmp/names"
has() { grep -qxF "$1" "$tmp/names" || err "$2"; }
has "main;$inl" "seven frames"
has "main;$inl;$long(int)" "long name"
has "main;a;$long[inline];b[inline]" "long inline name"
has "main;x" "x"
has "main;x;y[inline]" "x;y"
has "main;op" "op"
has "main;op x;leaf" "op x"
has "" "emptied stack"
four="p;q[inline];r[inline];s[inline]"
has "main;$four" "four frames"
has "main;$four;t[inline]" "five frames"
has "main;$four;t[inline];$four" "five then four frames"
for i in 0 1 2 3 4 5 6 7 8 9; do
	n=${near[$i]} o="o;${inl_near[$i]}[inline]"
	has "main;$n" "name of ${#n} bytes"
	has "main;$n;$four" "name of ${#n} bytes, then four frames"
	has "main;$o" "inline name of ${#o} bytes"
	has "main;$o;$four" "inline name of ${#o} bytes, then four frames"
	has "main;$o;q[inline];r[inline]" "four frames, a long one"
	has "main;$o;q[inline];r[inline];$four" "four frames, a long one, then four"
done
grep -qvE ' [0-9]+$' "$tmp/file" && err "a line without its count"
[ $fail = 0 ] || { cut -c1-120 "$tmp/file"; exit 1; }
echo "ok"
