#!/usr/bin/env bash
# flame_oracle.sh - --flamegraph draws the frames flamegraph.pl would draw from --collapsed's
# lines: tests/tools/flame_oracle.py reproduces flamegraph.pl's merge (sorted lines, each
# merged with the previous one's path), widths per count, minwidth pruning and %0.1f rounding,
# and compares every frame's name, depth, x, width and value, on the golden dumps' stacks (with
# pruning at small widths too). The SVG is well-formed XML and the same input gives the same
# bytes.
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-flame-oracle.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
G=$JH_SRC/testdata/golden
n=0
for f in "$G"/cxx-s12/after.heap.symbolized "$G"/mt-s0-accum/after.heap.symbolized \
	"$G"/mtclang-s12-accum/after.heap.symbolized; do
	for args in "" "--width=200 --minwidth=1" "--minwidth=3 --focus=main --inuse_objects" \
		"--maxframes=12"; do
		# shellcheck disable=SC2086
		"$JEHEAP" --collapsed $args "$f" >"$T/c" 2>/dev/null || fail "--collapsed $args $f"
		# shellcheck disable=SC2086
		"$JEHEAP" --flamegraph $args "$f" >"$T/a.svg" 2>"$T/err" ||
			fail "--flamegraph $args $f: $(cat "$T/err")"
		# shellcheck disable=SC2086
		"$JEHEAP" --flamegraph $args "$f" >"$T/b.svg" 2>/dev/null
		cmp -s "$T/a.svg" "$T/b.svg" || fail "--flamegraph $args $f: two runs differ"
		ow=$(sed -n 's/.*--width=\([0-9]*\).*/\1/p' <<<"$args")
		om=$(sed -n 's/.*--minwidth=\([0-9.]*\).*/\1/p' <<<"$args")
		of=$(sed -n 's/.*--maxframes=\([0-9]*\).*/\1/p' <<<"$args")
		python3 "$JH_SRC/tests/tools/flame_oracle.py" "$T/c" "$T/a.svg" \
			--width "${ow:-1200}" --minwidth "${om:-0.1}" --maxframes "${of:-25000}" >"$T/out" ||
			fail "--flamegraph $args $f: $(cat "$T/out")"
		n=$((n + 1))
	done
done
# --reverse: flamegraph.pl's graph of the reversed lines (the allocation site at the bottom)
f=$G/cxx-s12/after.heap.symbolized
"$JEHEAP" --collapsed "$f" 2>/dev/null | python3 -c '
import re, sys
for l in sys.stdin.buffer.read().split(b"\n"):
    if l:
        m = re.match(rb"^(.*) (\d+)$", l)
        sys.stdout.buffer.write(b";".join(reversed(m.group(1).split(b";"))) + b" " + m.group(2) + b"\n")
' >"$T/r"
"$JEHEAP" --flamegraph --reverse "$f" >"$T/r.svg" 2>/dev/null
python3 "$JH_SRC/tests/tools/flame_oracle.py" "$T/r" "$T/r.svg" >"$T/out" ||
	fail "--reverse: $(cat "$T/out")"
# --inverted: the same frames, the root on top; --title shown, escaped
"$JEHEAP" --collapsed "$f" >"$T/c" 2>/dev/null
"$JEHEAP" --flamegraph --inverted --title='a <b> & c' "$f" >"$T/i.svg" 2>/dev/null
python3 "$JH_SRC/tests/tools/flame_oracle.py" "$T/c" "$T/i.svg" >"$T/out" ||
	fail "--inverted: $(cat "$T/out")"
python3 - "$T/i.svg" <<'PY' || fail "--inverted: the root is not on top, or the title is wrong"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
g = [e for e in r.iter(S + "g") if e.get("class") == "f r"][0]
child = g.find(S + "g")
assert float(g.find(S + "rect").get("y")) < float(child.find(S + "rect").get("y"))
assert [t.text for t in r.iter(S + "text") if t.get("id") == "jh-title"] == ["a <b> & c"]
PY
# --web=flame: the --html page in a temporary .html file (no display: named on stderr)
"$JEHEAP" --html "$f" >"$T/p.html" 2>/dev/null
mkdir "$T/tmp"
DISPLAY='' WAYLAND_DISPLAY='' TMPDIR=$T/tmp "$JEHEAP" --web=flame "$f" >"$T/out" 2>"$T/err" ||
	fail "--web=flame: $(cat "$T/err")"
page=$(ls "$T"/tmp/jeheap.*.html) || fail "--web=flame wrote no .html file"
grep -q "the graph is in $page" "$T/err" || fail "--web=flame: not named on stderr: $(cat "$T/err")"
cmp -s "$page" "$T/p.html" || fail "--web=flame: not --html's page"
"$JEHEAP" --web=svg "$f" >/dev/null 2>&1 && fail "--web=svg accepted"
# the oracle can fail: a frame moved by one pixel is caught
sed '0,/<rect x="10.0"/s//<rect x="11.0"/' "$T/a.svg" >"$T/bad.svg"
python3 "$JH_SRC/tests/tools/flame_oracle.py" "$T/c" "$T/bad.svg" --minwidth 3 >/dev/null &&
	fail "the oracle accepted a moved frame"
# --html is deterministic too
f=$G/cxx-s12/after.heap.symbolized
"$JEHEAP" --html --base="$G/cxx-s12/before.heap.symbolized" "$f" >"$T/a.html" 2>/dev/null
"$JEHEAP" --html --base="$G/cxx-s12/before.heap.symbolized" "$f" >"$T/b.html" 2>/dev/null
cmp -s "$T/a.html" "$T/b.html" || fail "--html: two runs differ"
echo "ok: $n graphs agree with flamegraph.pl's arithmetic; deterministic"
