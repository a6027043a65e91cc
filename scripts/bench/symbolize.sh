#!/usr/bin/env bash
# symbolize.sh - jeheap's symbolizer beside its peers on Debian's ceph-osd,
# in one run: ../shared/bench/peers.sh installs ceph-osd + ceph-osd-dbg,
# makes the dumps and times llvm-symbolizer --inlining (same unique
# addresses) and jeprof --text (same dump); then this script times jeheap on
# the same dump and writes a markdown section (docs/bench-symbolize.md).
#
# Environment:
#   JEHEAP             jeheap binary (default: build-bench/jeheap, built Release here)
#   JEHEAP_BENCH_DIR   corpus + results root of peers.sh (default /tmp/jeheap-bench)
#   JEHEAP_CASE        dump to measure (default medium: 20k unique addresses)
#   JEHEAP_RUNS        measured runs per command (default 3, after one warmup)
#   JEHEAP_SKIP_PEERS  1 = reuse the last peers.sh results instead of re-running it
#   JEHEAP_RENDER_ONLY 1 = only rewrite the markdown from the last results
#   OUT_MD             where to write the markdown (default docs/bench-symbolize.md)
#
# jeheap is timed on `--text` when the pipeline supports it. Until then it
# is timed on `--symbols` over the dump's maps and its unique caller-adjusted
# addresses (the symbolizer alone, the work llvm-symbolizer does), and the
# section says so.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PEERS=${PEERS:-$ROOT/../shared/bench}
[ -d "$PEERS" ] || PEERS=/work/shared/bench
BENCH_DIR=${JEHEAP_BENCH_DIR:-/tmp/jeheap-bench}
CASE=${JEHEAP_CASE:-medium}
RUNS=${JEHEAP_RUNS:-3}
OUT_MD=${OUT_MD:-$ROOT/docs/bench-symbolize.md}
BIN=/usr/bin/ceph-osd
export JEHEAP_BENCH_DIR=$BENCH_DIR

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if [ -z "${JEHEAP:-}" ]; then
	log "building jeheap (Release)"
	cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release -DJEHEAP_TESTS=OFF >/dev/null
	cmake --build "$ROOT/build-bench" -j2 >/dev/null
	JEHEAP=$ROOT/build-bench/jeheap
fi

RENDER_ONLY=${JEHEAP_RENDER_ONLY:-0}
[ "$RENDER_ONLY" = 1 ] && JEHEAP_SKIP_PEERS=1
# 1. peers (and the corpus) in this run
if [ "${JEHEAP_SKIP_PEERS:-0}" != 1 ]; then
	log "peers.sh: llvm-symbolizer and jeprof on the $CASE case"
	JEHEAP_CASES=$CASE JEHEAP_RUNS=$RUNS JEHEAP_COMPARE=0 JEHEAP_PARSE_ONLY_CASES=none \
		JEHEAP_TOOLS="llvm-symbolizer jeprof-text-llvm" bash "$PEERS/peers.sh" >/dev/null
fi
PR=$BENCH_DIR/results/latest
DUMP=$BENCH_DIR/ceph-synth/ceph-osd.$CASE.heap
[ -s "$DUMP" ] || { log "no dump $DUMP"; exit 1; }
OUT=$PR/jeheap
mkdir -p "$OUT"

# 2. jeheap on the same dump
mode=text
[ -s "$OUT/symbols.in" ] && [ "$RENDER_ONLY" = 1 ] && mode=symbols
probe_rc=0
[ "$RENDER_ONLY" = 1 ] || { "$JEHEAP" --text "$BIN" "$DUMP" > "$OUT/probe.out" 2> "$OUT/probe.err" || probe_rc=$?; }
# --symbols only when --text on raw dumps is missing (not when a run crashed: that is recorded)
if [ "$RENDER_ONLY" != 1 ] && [ $probe_rc != 0 ] && grep -q 'not built yet\|not supported yet' "$OUT/probe.err"; then
	mode=symbols
	# maps + unique caller-adjusted addresses (leaf as recorded, callers - 1)
	{
		sed -n '/^MAPPED_LIBRARIES:/,$p' "$DUMP" | tail -n +2
		python3 -c '
import sys
seen = set()
for l in open(sys.argv[1]):
    if l.startswith("@"):
        for i, a in enumerate(l.split()[1:]):
            seen.add(int(a, 16) - (1 if i else 0))
print("\n".join("0x%x" % a for a in sorted(seen)))' "$DUMP"
	} > "$OUT/symbols.in"
fi
[ "$RENDER_ONLY" = 1 ] || echo "$probe_rc" > "$OUT/probe.rc"
run_jeheap() {
	if [ $mode = text ]; then "$JEHEAP" --text "$BIN" "$DUMP"; else "$JEHEAP" --symbols "$BIN" < "$OUT/symbols.in"; fi
}
[ "$RENDER_ONLY" = 1 ] || {
log "jeheap --$mode: warmup + $RUNS runs"
run_jeheap > "$OUT/jeheap.out" 2> "$OUT/jeheap.err" || true
: > "$OUT/jeheap.time"
for _ in $(seq "$RUNS"); do
	/usr/bin/time -q -f '%e %U %S %M %x' -a -o "$OUT/jeheap.time" \
		bash -c "$(declare -f run_jeheap); JEHEAP='$JEHEAP' BIN='$BIN' DUMP='$DUMP' OUT='$OUT' mode=$mode run_jeheap" \
		> /dev/null 2>> "$OUT/jeheap.err" || true # a failed run is recorded (exit code), not fatal
done
# one more run with JH_TRACE=1: where the critical path goes (not timed)
JH_TRACE=1 run_jeheap > /dev/null 2> "$OUT/jeheap.trace" || true
}

# 3. medians (wall s, peak RSS MB) of each .time file: "wall user sys maxrss_kB exit" lines
median() { # median FILE FIELD, over the runs that exited 0
	awk -v f="$2" '$5 == 0 {print $f}' "$1" | sort -g | awk '{a[NR]=$1} END{if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}
row() { # row NAME TIMEFILE: hyperfine's warmup is the first line of a peers .time
	local w r f=$2
	if grep -q 'warmup=1' "${2%.time}.note" 2>/dev/null; then
		f=$OUT/$(basename "$2").measured
		tail -n +2 "$2" > "$f"
	fi
	w=$(median "$f" 1); r=$(median "$f" 4)
	printf '| %s | %s s | %s MB |\n' "$1" "$w" "$(awk -v k="$r" 'BEGIN{printf "%.0f", k/1024}')"
}
llvm_t=$PR/${CASE}__llvm-symbolizer.time
jeprof_t=$PR/${CASE}__jeprof-text-llvm.time
naddr=$(grep -c '^0x' "$OUT/symbols.in" 2>/dev/null || awk '/^@/{for(i=2;i<=NF;i++)print $i}' "$DUMP" | sort -u | wc -l)
{
	echo "## Symbolizer: ceph-osd $CASE dump"
	echo
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, one run of \`scripts/bench/symbolize.sh\`"
	echo "(peers timed by \`../shared/bench/peers.sh\` in the same run; medians, peak RSS from /usr/bin/time)."
	echo "Dump: \`$DUMP\` ($naddr unique caller-adjusted addresses)."
	echo
	if [ $mode = symbols ]; then
		echo "**jeheap was timed on \`--symbols\`** (the maps and the unique caller-adjusted addresses of the"
		echo "dump on stdin, every inline frame printed): \`--text\` on raw dumps was not available in the build"
		echo "measured, so this is the symbolizer alone, the same work as llvm-symbolizer's row."
		echo
	fi
	echo "| command | wall (median) | peak RSS |"
	echo "|---|---|---|"
	row "jeheap --$mode" "$OUT/jeheap.time"
	[ -s "$llvm_t" ] && row "llvm-symbolizer --inlining (same addresses)" "$llvm_t"
	[ -s "$jeprof_t" ] && row "jeprof --text, LLVM tools (same dump)" "$jeprof_t"
	echo
	echo "Commands:"
	echo
	echo '```'
	if [ $mode = text ]; then echo "$JEHEAP --text $BIN $DUMP"; else echo "$JEHEAP --symbols $BIN < $OUT/symbols.in"; fi
	[ -s "$PR/${CASE}__llvm-symbolizer.cmd" ] && cat "$PR/${CASE}__llvm-symbolizer.cmd"
	[ -s "$PR/${CASE}__jeprof-text-llvm.cmd" ] && cat "$PR/${CASE}__jeprof-text-llvm.cmd"
	echo '```'
	echo
	echo "jeheap stderr (warmup and measured runs, last lines):"
	echo
	echo '```'
	tail -8 "$OUT/jeheap.err"
	echo '```'
	echo
	if [ -s "$OUT/jeheap.trace" ]; then
		echo "Timeline of one more run with \`JH_TRACE=1\` (s since start, thread, that thread's CPU s;"
		echo "ceph-osd's events). What bounds the wall time: .debug_info is ONE zlib stream (381 MB from"
		echo "174 MB), which no thread can share, so it inflates on a thread of its own from the start"
		echo "(stream ... streamed). Meanwhile the main thread inflates the other sections, then resolves"
		echo "the compile units as their bytes arrive (speculative: units from .debug_aranges, checked"
		echo "against the full index, which the last worker builds unit by unit); what is left when the"
		echo "stream ends is the last units, the report and the teardown:"
		echo
		echo '```'
		grep -E 'symbolize: [0-9]|stream(ed)? \.debug_info|speculative|full index|lookup done|discarded|symbolize: done|symbolizer: (free|modules closed)' \
			"$OUT/jeheap.trace" | awk '!(/lookup done/ && seen++)' | sed 's/^jeheap-trace *//' | head -14
		echo '```'
		echo
	fi
	echo "Exit codes of the measured jeheap runs (medians use the 0s): $(awk '{printf "%s ", $5}' "$OUT/jeheap.time")," \
		"probe run: $(cat "$OUT/probe.rc" 2>/dev/null)"
	echo "CPU (user+sys, s) of the measured runs: jeheap $(awk '{printf "%.1f ", $2+$3}' "$OUT/jeheap.time")," \
		"llvm-symbolizer $(tail -n +2 "$llvm_t" 2>/dev/null | awk '{printf "%.1f ", $2+$3}')"
	echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other jobs shared the 2 cores)."
} > "$OUT_MD"
log "wrote $OUT_MD"
cat "$OUT_MD"
