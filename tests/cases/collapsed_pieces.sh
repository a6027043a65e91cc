#!/bin/bash
# --collapsed written with writev (to a file) in batches of 1024 pieces: a
# piece is an element with the separator before it (";name", or
# "[inline];name" after an inline frame), and a line ending with an inline
# frame has a "[inline]" piece before its count. 20000 lines of 1 to 7
# locations of 1 to 5 frames (records hold 4), most ending inline, put
# every kind of piece at every place of a batch: the file (writev of the
# records) must be the same as what the buffered path (a pipe) writes, and as the lines built here.
set -uf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN {
	print "--- symbol"
	print "binary=/bin/prog"
	for (i = 0; i < 50; i++) { # 1 + i % 5 frames, all but the first inline
		names = "f" i
		for (j = 1; j <= i % 5; j++)
			names = names "--g" i "_" j
		printf "0x%016x %s\n", 4096 + 16 * i, names
	}
	print "---"
	print "--- heap"
	print "heap_v2/1"
	print "  t*: 1: 1 [0: 0]"
	x = 1
	for (s = 0; s < 20000; s++) {
		d = 1 + s % 7
		line = "@"
		for (k = 0; k < d; k++) { # leaf first; callers one past (caller fix-up)
			x = (x * 69069 + 1) % 4294967296
			line = line sprintf(" 0x%x", 4096 + 16 * (int(x / 65536) % 50) + (k > 0))
		}
		print line
		printf "  t*: 1: %d [0: 0]\n", 1 + s
	}
}' > "$tmp/p.heap.symbolized"
"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" > "$tmp/file" || { echo "FAIL exit code (file)"; exit 1; }
"$JEHEAP" --collapsed --show_bytes "$tmp/p.heap.symbolized" | cat > "$tmp/pipe" || { echo "FAIL exit code (pipe)"; exit 1; }
cmp "$tmp/file" "$tmp/pipe" || { echo "FAIL writev and buffered outputs differ"; exit 1; }
# the same lines from the input: names root first, merged by stack, summed
# (POSIX awk: Debian's default mawk has no strtonum, so hex() reads "0x...")
awk 'function hex(s,   i, n) {
		n = 0
		for (i = 3; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		return n }
	/^0x/ { pc = hex($1); n = split($2, f, "--"); s = f[1]
		for (j = 2; j <= n; j++) s = s ";" f[j] "[inline]"
		name[pc] = s; next }
	/^@/ { key = ""
		for (k = NF; k >= 2; k--) { pc = hex($k) - (k > 2)
			if (!(pc in name)) { print "no name for " $k > "/dev/stderr"; exit 1 }
			key = key (key == "" ? "" : ";") name[pc] }
		next }
	/^  t\*: / && key != "" { split($0, c, /[: ]+/); sum[key] += c[4]; key = "" }
	END { for (k in sum) print k " " sum[k] }' "$tmp/p.heap.symbolized" > "$tmp/want.unsorted" ||
	{ echo "FAIL awk could not build the expected lines"; exit 1; }
LC_ALL=C sort "$tmp/want.unsorted" > "$tmp/want"
cmp "$tmp/file" "$tmp/want" || { echo "FAIL lines differ from the input's"; diff "$tmp/file" "$tmp/want" | head -5; exit 1; }
[ "$(wc -l < "$tmp/file")" -gt 1000 ] || { echo "FAIL too few lines"; exit 1; }
grep -q '\[inline\] [0-9]*$' "$tmp/file" || { echo "FAIL no line ends inline"; exit 1; }
echo "ok: $(wc -l < "$tmp/file") lines"
