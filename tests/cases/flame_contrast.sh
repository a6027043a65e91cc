#!/usr/bin/env bash
# flame_contrast.sh - every frame's label is readable on its fill: at least 4.5:1 (WCAG AA,
# relative luminance) in --flamegraph and --html, differential (--base) and plain, on the
# golden dumps (real jemalloc dumps: before/after pairs, and one program sampled at two
# rates, whose frames both grow and shrink). tests/tools/flame_contrast.py reads the label
# colour from each file's own style rules and, with --base, checks that the fills are still
# flamegraph.pl's shades of each frame's change. Negative control: the same file without the
# white-label rule fails (black on the most shrunk frame's blue).
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-flame-contrast.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
G=$JH_SRC/testdata/golden
CHECK=$JH_SRC/tests/tools/flame_contrast.py
n=0 white=0
for pair in "mt-s12/after mt-s0-accum/after" "cxx-s12/before cxx-s12/after" \
	"mt-s12/before mt-s12/after" "mtclang-s12-accum/before mtclang-s12-accum/after" \
	"cxx-s12/after cxx-s0-accum/after"; do
	read -r base prof <<<"$pair"
	for mode in --flamegraph --html; do
		for args in "" "--inverted" "--inuse_objects"; do
			# shellcheck disable=SC2086
			"$JEHEAP" $mode $args --base="$G/$base.heap.symbolized" \
				"$G/$prof.heap.symbolized" >"$T/d" 2>"$T/err" || fail "$mode $args $pair: $(cat "$T/err")"
			python3 "$CHECK" "$T/d" --diff >"$T/out" || fail "$mode $args --base $pair: $(cat "$T/out")"
			n=$((n + 1))
			grep -q ', 0 would fail' "$T/out" || white=$((white + 1))
		done
	done
done
[ "$white" -gt 0 ] || fail "no differential graph has a frame that needs a white label"
# plain graphs: the program's dark reds need white labels too
for d in cxx-s12 mt-s0-accum mtclang-s12-accum; do
	for mode in --flamegraph --html; do
		"$JEHEAP" $mode "$G/$d/after.heap.symbolized" >"$T/p" 2>/dev/null || fail "$mode $d"
		python3 "$CHECK" "$T/p" >"$T/out" || fail "$mode $d: $(cat "$T/out")"
		n=$((n + 1))
	done
done
# the most shrunk frame of a two-rate diff is dark blue: black on it fails, white passes
"$JEHEAP" --flamegraph --base="$G/mt-s12/after.heap.symbolized" \
	"$G/mt-s0-accum/after.heap.symbolized" >"$T/d.svg" 2>/dev/null
python3 "$CHECK" "$T/d.svg" --diff --needs-white >"$T/out" || fail "$(cat "$T/out")"
grep -q 'class="f w"' "$T/d.svg" || fail "no frame has a white label"
sed 's/#jh-frames g\.w>text{fill:#fff}//' "$T/d.svg" >"$T/bad.svg"
cmp -s "$T/d.svg" "$T/bad.svg" && fail "negative control: no white-label rule to remove"
python3 "$CHECK" "$T/bad.svg" --diff >"$T/out" && fail "negative control: black labels passed"
grep -q 'contrast 2\.[0-9]*:1 < 4.5:1' "$T/out" || fail "negative control: $(cat "$T/out")"
echo "ok: $n graphs, every frame's label at least 4.5:1"
