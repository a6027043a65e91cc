#!/usr/bin/env bash
# Every testdata/bad/<name> (with <name>.expected): `jeheap --text <name>` must
# print exactly the expected single line on stderr, nothing on stdout, and
# exit non-zero (with <name>.status: exactly that status). Skipped (77) while the analysis pipeline is not built.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
cd "$JH_SRC/testdata/bad" || exit 1
good=$(mktemp)
trap 'rm -f "$good" "$good.out" "$good.err"' EXIT
printf 'heap_v2/0\n@ 0x1\n  t*: 1: 8 [0: 0]\n' > "$good"
if "$JEHEAP" --text "$good" 2>&1 | grep -q 'analysis is not built yet'; then
	echo "skip: the pipeline is not built yet"
	exit 77
fi
fail=0
for exp in *.expected; do
	f=${exp%.expected}
	"$JEHEAP" --text "$f" > "$good.out" 2> "$good.err"
	rc=$?
	want=$(cat "$exp")
	status=$rc
	[ -f "$f.status" ] && status=$(cat "$f.status")
	if [ "$rc" -eq 0 ] || [ "$rc" -ne "$status" ] || [ -s "$good.out" ] ||
		[ "$(cat "$good.err")" != "$want" ] ||
		[ "$(wc -l < "$good.err")" -ne 1 ]; then
		echo "FAIL $f: exit $rc (want $status, non-zero)"
		echo "  want: $want"
		sed 's/^/  got:  /' "$good.err"
		[ -s "$good.out" ] && echo "  (stdout was not empty)"
		fail=1
	fi
done
exit $fail
