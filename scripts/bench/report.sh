#!/usr/bin/env bash
# Report benchmark: jeheap --text, --collapsed and --dot on the ~200 MB
# .symbolized dump of scripts/bench/gen_heap.py (100k stacks, 30 frames, 4 threads; the
# same file as scripts/bench/parse.sh), next to jeprof on the same input.
#   - jeheap: median of N runs with hyperfine, peak RSS with /usr/bin/time -v;
#   - jeprof: takes many minutes on 200 MB, so it is timed once per report on a 1/10 cut
#     (same generator and seed, 10k stacks) and extrapolated linearly by file size (the
#     table says so); jeheap is timed on the cut too, for a same-file ratio.
# Writes build/bench/report.md (and prints it).
#   scripts/bench/report.sh [--runs=N] [--no-jeprof]
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
dir=${JH_BENCH_DIR:-$src/build/bench}/parse
build=${JH_BUILD:-$src/build/release} # where scripts/demo and scripts/test build
out=${JH_BENCH_DIR:-$src/build/bench}/report.md
runs=5 jeprof=1
for a in "$@"; do
	case $a in
	--runs=*) runs=${a#*=} ;;
	--no-jeprof) jeprof=0 ;;
	*) echo "usage: $0 [--runs=N] [--no-jeprof]" >&2; exit 1 ;;
	esac
done
for t in hyperfine python3 /usr/bin/time; do
	command -v $t >/dev/null || { echo "report.sh: $t missing (scripts/setup installs it)" >&2; exit 1; }
done
[ $jeprof = 0 ] || command -v jeprof >/dev/null || { echo "report.sh: jeprof missing" >&2; exit 1; }
mkdir -p "$dir"
sym=$dir/bench.heap.symbolized
cut=$dir/report-cut10k.heap.symbolized
[ -s "$sym" ] || { echo "generating $sym ..." >&2; python3 scripts/bench/gen_heap.py "$dir/bench.heap"; }
[ -s "$cut" ] || { echo "generating $cut ..." >&2; python3 scripts/bench/gen_heap.py "$dir/report-cut10k.heap" --stacks 10000; }
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 >/dev/null
JH=$build/jeheap

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
# timev CMD...: "<wall s> <peak RSS MB>" of one run (stdout discarded)
timev() {
	/usr/bin/time -v "$@" > /dev/null 2> "$dir/report-time.err" || { tail -5 "$dir/report-time.err" >&2; return 1; }
	awk -F': ' '/Maximum resident/ { rss = $2 / 1024 }
		/Elapsed \(wall/ { n = split($2, t, ":"); s = t[n] + (n > 1 ? t[n-1] * 60 : 0) + (n > 2 ? t[n-2] * 3600 : 0) }
		END { printf "%.2f %.1f", s, rss }' "$dir/report-time.err"
}
# median CMD...: median wall seconds over $runs hyperfine runs
median() {
	hyperfine -N --warmup 1 --runs "$runs" --export-json "$dir/report-hf.json" "$*" >/dev/null 2>&1
	python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$dir/report-hf.json"
}

full_mb=$(mb "$sym") cut_mb=$(mb "$cut")
rows=() notes=()
for r in text collapsed dot; do
	if ! "$JH" --$r "$cut" > /dev/null 2> "$dir/report-probe.err"; then
		rows+=("| --$r | $(head -1 "$dir/report-probe.err") | | | | | |")
		continue
	fi
	echo "timing jeheap --$r ..." >&2
	med=$(median "$JH" --$r "$sym")
	read -r _ rss <<<"$(timev "$JH" --$r "$sym")"
	cmed=$(median "$JH" --$r "$cut")
	jp="-" est="-" ratio="-" cratio="-"
	if [ $jeprof = 1 ]; then
		echo "timing jeprof --$r on the cut (one run) ..." >&2
		read -r jt jrss <<<"$(PERL_HASH_SEED=0 timev jeprof --$r "$cut")"
		est=$(awk -v t="$jt" -v f="$full_mb" -v c="$cut_mb" 'BEGIN { printf "%.0f", t * f / c }')
		ratio=$(awk -v e="$est" -v m="$med" 'BEGIN { printf "%.0f", e / m }')
		cratio=$(awk -v j="$jt" -v m="$cmed" 'BEGIN { printf "%.0f", j / m }')
		jp="$jt s (RSS $jrss MB)"
	fi
	thr=$(awk -v f="$full_mb" -v m="$med" 'BEGIN { printf "%.0f", f / m }')
	# the targets: >= 100x faster than jeprof, peak RSS below the input size
	if [ $jeprof = 1 ]; then
		meets=$(awk -v c="$cratio" -v e="$ratio" 'BEGIN { print (c >= 100 && e >= 100) ? "meets" : "misses" }')
		below=$(awk -v r="$rss" -v f="$full_mb" 'BEGIN { print (r < f) ? "is below" : "is NOT below" }')
		notes+=("- --$r: speed-up $meets the 100× target (${cratio}× measured on the cut, ~${ratio}× extrapolated); peak RSS $rss MB $below the input's $full_mb MB.")
	fi
	rows+=("| --$r | $med s ($thr MB/s) | $rss MB | $cmed s | $jp | ~$est s | $cratio× / ~$ratio× |")
	[ $jeprof = 1 ] || rows[-1]="| --$r | $med s ($thr MB/s) | $rss MB | $cmed s | not run | | |"
done

{
	echo "# Report benchmark: jeheap vs jeprof"
	echo
	echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), shared" \
		"with other jobs while measured); jeheap $(git rev-parse --short HEAD), RelWithDebInfo."
	echo
	echo "Input: \`scripts/bench/gen_heap.py\` (seed 1, 100k stacks, 30 frames, 4 threads):"
	echo "\`bench.heap.symbolized\` $full_mb MB. Cut: \`gen_heap.py --stacks 10000\` (same seed and"
	echo "shape) \`report-cut10k.heap.symbolized\` $cut_mb MB."
	echo
	echo "| report | jeheap, full file: median of $runs | jeheap peak RSS | jeheap, cut: median | jeprof, cut: 1 run | jeprof, full: extrapolated | speed-up (cut measured / full extrapolated) |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "jeprof's full-file time is **extrapolated**, not measured: its time on the cut ×"
	echo "($full_mb MB / $cut_mb MB), assuming time linear in file size. Commands:"
	echo "\`hyperfine -N --warmup 1 --runs $runs 'jeheap --R FILE'\` (median), \`/usr/bin/time -v jeheap --R FILE\`"
	echo "(peak RSS), \`PERL_HASH_SEED=0 /usr/bin/time -v jeprof --R CUT\`. Regenerate with \`scripts/bench/report.sh\`."
	if [ ${#notes[@]} -gt 0 ]; then
		echo
		echo "Targets (100× jeprof's speed, peak RSS below the input's size):"
		echo
		printf '%s\n' "${notes[@]}"
	fi
} > "$out"
cat "$out"
