#!/usr/bin/env bash
# Parse benchmark: a ~200 MB heap_v2 dump (100k stacks, 30 frames,
# 4 threads) and its .symbolized form, generated once into $JH_BENCH_DIR.
# Times:
#   1. the readers alone (scripts/bench/bench_parse.c: jh_profile_read only),
#      MB/s and peak RSS, on the .heap and the .symbolized file;
#   2. `jeheap --collapsed` and `jeheap --text` on the .symbolized file: medians
#      of --runs runs (/usr/bin/time) of wall and CPU time, MB/s, peak RSS;
#   3. `jeprof --collapsed` on the same file, or with --jeprof-cut=N on a
#      proportional cut (same generator and seed, N stacks) and extrapolated
#      linearly by file size (stated in the output).
#   With --against=BIN, BIN (another jeheap, e.g. an older build) runs
#   alternately with this one in step 2, so both see the same machine.
# The machine's speed is calibrated before and after (calibrate.c: compute,
# random reads of an 8 MB table, page faults): on a shared VM it moves.
# Results go to stdout as markdown (docs/BENCHMARKS.md keeps the current figures).
#   scripts/bench/parse.sh [--jeprof-cut=STACKS|--jeprof-full|--no-jeprof] [--runs=N]
#                          [--against=BIN]
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
dir=${JH_BENCH_DIR:-$src/build/bench}/parse
build=${JH_BUILD:-$src/build/release} # where scripts/demo and scripts/test build
cut=10000
runs=3
against=
for a in "$@"; do
	case $a in
	--against=*) against=${a#*=} ;;
	--jeprof-cut=*) cut=${a#*=} ;;
	--no-jeprof) cut=none ;;
	--jeprof-full) cut=0 ;;
	--runs=*) runs=${a#*=} ;;
	*) echo "usage: $0 [--jeprof-cut=STACKS|--jeprof-full|--no-jeprof] [--runs=N] [--against=BIN]" >&2; exit 1 ;;
	esac
done
mkdir -p "$dir"
heap=$dir/bench.heap
sym=$heap.symbolized
if [ ! -s "$sym" ]; then
	echo "generating $heap (+ .symbolized) ..." >&2
	python3 "$src/scripts/bench/gen_heap.py" "$heap"
fi
[ -f "$build/CMakeCache.txt" ] ||
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 >/dev/null # never a stale binary
gcc -O2 -I"$src/include" -o "$dir/bench_parse" "$src/scripts/bench/bench_parse.c" \
	"$build/src/libjh_input.a" "$build/src/libjh_base.a" -lzstd -lz -lm
gcc -O2 -o "$dir/calibrate" "$src/scripts/bench/calibrate.c"

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
# peak RSS (MB) and wall seconds of a command, via /usr/bin/time -v
timev() {
	/usr/bin/time -v "$@" > /dev/null 2> "$dir/time.err" || { cat "$dir/time.err" >&2; return 1; }
	awk -F': ' '/Maximum resident/ { rss = $2 / 1024 }
		/Elapsed \(wall/ { n = split($2, t, ":"); s = t[n] + (n > 1 ? t[n-1] * 60 : 0) + (n > 2 ? t[n-2] * 3600 : 0) }
		END { printf "%.2f s, peak RSS %.1f MB", s, rss }' "$dir/time.err"
}

echo "## Parse benchmark ($(date -u +%F), $(nproc) cores, $(uname -m))"
echo
echo "Input: \`scripts/bench/gen_heap.py\` (seed 1): bench.heap $(mb "$heap") MB, bench.heap.symbolized $(mb "$sym") MB."
echo
echo "Machine before: $("$dir/calibrate")"
echo
echo "Readers alone: best of $runs by CPU time; MB/s = file size / time (CPU time is the"
echo "one-core figure; wall time also counts waiting for a shared CPU)."
echo
echo "| what | file | wall | CPU | MB/s (CPU) | MB/s (wall) | peak RSS |"
echo "|---|---|---|---|---|---|---|"
for f in "$heap" "$sym"; do
	best=
	for _ in $(seq "$runs"); do
		line=$("$dir/bench_parse" "$f" | head -1)
		c=$(sed -E 's/.*cpu ([0-9.]+) s.*/\1/' <<<"$line")
		if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$c
			bestline=$line
		fi
	done
	wall=$(sed -E 's/^[^:]*: ([0-9.]+) s,.*/\1/' <<<"$bestline")
	wrate=$(sed -E 's/^[^:]*: [0-9.]+ s, ([0-9.]+) MB\/s.*/\1/' <<<"$bestline")
	crate=$(sed -E 's/.*= ([0-9.]+) MB\/s$/\1/' <<<"$bestline")
	rss=$(sed -E 's/.*peak RSS ([0-9.]+) MB.*/\1/' <<<"$bestline")
	echo "| readers only (jh_profile_read) | $(basename "$f") | $wall s | $best s | $crate | $wrate | $rss MB |"
done
echo
echo "| what | file | time | MB/s | |"
echo "|---|---|---|---|---|"

# one timed run (/usr/bin/time: wall, user, sys, peak RSS) appended to file $1
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' "$@" > /dev/null 2> "$dir/time.err" ||
		{ cat "$dir/time.err" >&2; return 1; }
	tail -1 "$dir/time.err" >> "$out"
}
# medians of the runs in file $1: wall, CPU (user + sys), peak RSS; and all walls
medians() {
	awk '{ w[NR] = $1; c[NR] = $2 + $3; if ($4 > r) r = $4 }
		function med(a, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { printf "%.3f %.3f %.1f ", med(w, NR), med(c, NR), r / 1024
			for (i = 1; i <= NR; i++) printf "%s%s", w[i], i < NR ? "," : "" }' "$1"
}
row() { # label wall cpu rss walls
	echo "| $1 (median of $runs) | $(basename "$sym") | $2 s wall, $3 s CPU, peak RSS $4 MB (runs: $5) | $(awk -v b="$size" -v s="$2" 'BEGIN { printf "%.0f", b / 1e6 / s }') (wall), $(awk -v b="$size" -v s="$3" 'BEGIN { printf "%.0f", b / 1e6 / s }') (CPU) | |"
}
size=$(stat -c %s "$sym")
jeheap_wall=
for mode in collapsed text; do
	rm -f "$dir/runs.this" "$dir/runs.against"
	for _ in $(seq "$runs"); do
		timed "$dir/runs.this" "$build/jeheap" --$mode "$sym"
		[ -z "$against" ] || timed "$dir/runs.against" "$against" --$mode "$sym"
	done
	read -r w c r ws <<<"$(medians "$dir/runs.this")"
	[ "$mode" = collapsed ] && jeheap_wall=$w
	row "jeheap --$mode" "$w" "$c" "$r" "$ws"
	if [ -n "$against" ]; then
		read -r w c r ws <<<"$(medians "$dir/runs.against")"
		row "$(basename "$against") --$mode, alternating" "$w" "$c" "$r" "$ws"
	fi
done
echo
echo "Machine after the jeheap runs: $("$dir/calibrate")"

if [ "$cut" != none ] && command -v jeprof > /dev/null; then
	if [ "$cut" = 0 ]; then
		jf=$sym
	else
		jf=$dir/cut$cut.heap
		[ -s "$jf.symbolized" ] || python3 "$src/scripts/bench/gen_heap.py" "$jf" \
			--stacks "$cut" --records $((cut * 32 / 10))
		jf=$jf.symbolized
	fi
	r=$(timev jeprof --collapsed "$jf")
	s=${r%% s,*}
	rate=$(awk -v b="$(stat -c %s "$jf")" -v s="$s" 'BEGIN { printf "%.2f", b / 1e6 / s }')
	echo "| jeprof --collapsed | $(basename "$jf") ($(mb "$jf") MB) | $r | $rate | |"
	if [ "$jf" != "$sym" ]; then
		est=$(awk -v b="$(stat -c %s "$sym")" -v r="$rate" 'BEGIN { printf "%.0f", b / 1e6 / r }')
		echo
		echo "jeprof was timed on a proportional cut (same generator and seed, $cut stacks);"
		echo "extrapolated linearly by size to the full file: ~$est s."
	else
		echo
		echo "jeheap --collapsed is $(awk -v j="$s" -v h="$jeheap_wall" 'BEGIN { printf "%.0f", j / h }')x faster than jeprof on the same file (wall)."
	fi
fi
