#!/usr/bin/env bash
# Numbers are finite or refused: a sampling period of 0
# means the values are already unsampled (taken as they are); values whose
# sum reaches 2^63 are refused (no report could show them exactly), never
# clamped or cast; no report holds inf or nan. The periods and counts whose unsampled value
# overflows are refused: testdata/bad/{huge_period,count_overflow,
# legacy_huge_period}.heap (tests/cases/bad_inputs.sh).
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
command -v jeprof >/dev/null || { echo "skip: jeprof missing"; exit 77; }
T=$(mktemp -d /tmp/jh_finite.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0

# period 0: 3 objects of 300 bytes stay 3 and 300
printf 'heap_v2/0\n  t*: 3: 300 [0: 0]\n@ 0x1 0x2\n  t*: 3: 300 [0: 0]\n' >"$T/p0.heap"
got=$("$JEHEAP" --text --show_bytes "$T/p0.heap" 2>/dev/null | head -1)
[ "$got" = "Total: 300 B" ] || { echo "FAIL: period 0: '$got'"; fail=1; }
got=$("$JEHEAP" --text --inuse_objects "$T/p0.heap" 2>/dev/null | head -1)
[ "$got" = "Total: 3 objects" ] || { echo "FAIL: period 0 objects: '$got'"; fail=1; }

# the largest period with a 1 MiB object: 2^64 bytes unsampled
cat >"$T/big.symbolized" <<'EOF'
--- symbol
binary=/bin/big
0x0000000000000001 leaf
0x0000000000000002 caller
---
--- heap
heap_v2/18446744073709551615
  t*: 1: 1048576 [0: 0]
@ 0x1 0x3
  t*: 1: 1048576 [0: 0]
EOF
# 2^64 bytes: no report can show that exactly, so the file is refused at its
# line (jeprof prints the double, 1.84467440737096e+19)
for r in --text --collapsed --callgrind --dot --raw --json; do
	"$JEHEAP" $r "$T/big.symbolized" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 2 ] || [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
		! grep -q 'big.symbolized:10: the in-use bytes add up to' "$T/err"; then
		echo "FAIL: $r of 2^64 bytes: exit $rc, $(cat "$T/err")"
		fail=1
	fi
done
for r in --text --top --collapsed --dot --raw --callgrind "--text --base=$T/p0.heap"; do
	# shellcheck disable=SC2086
	if "$JEHEAP" $r "$T/big.symbolized" 2>&1 | grep -qiw 'inf\|nan\|-nan'; then
		echo "FAIL: $r prints inf or nan"
		fail=1
	fi
done
exit $fail
