#!/usr/bin/env bash
# cache.sh - the symbol cache side by side on Debian's ceph-osd medium dump
# (scripts/bench/corpus.sh makes it, installing ceph-osd + ceph-osd-dbg), in one run,
# runs alternated, medians of wall, CPU (user + sys) and peak RSS (GNU time):
#   base   another jeheap to compare with (BASE; default: this one with --no-cache)
#   cold   this jeheap, empty cache (emptied before each run)
#   warm   this jeheap, the cache filled by `--symbols-only` on the same dump (answers
#          and each module's unit index)
#   new20  this jeheap, that warm cache, on a copy of the dump with 20 % of its unique
#          ceph-osd addresses replaced by other return addresses of ceph-osd
#          (new_addresses.py; the cache is restored before each run): the new
#          addresses are answered from the unit index
#   symbols-only  `--symbols-only` into an empty cache (what filled warm's)
#   llvm-symbolizer  `llvm-symbolizer --inlining --demangle` on the same caller-adjusted
#          addresses of the medium dump (corpus.sh's pcs/medium, one run per mapped file);
#          LLVM=0 leaves it out
# All run `--text /usr/bin/ceph-osd DUMP`; the outputs of base, cold and warm are checked
# to be identical, and each new20 output to that of a cold run (empty cache, untimed) on
# the same new20 dump. Prints a markdown table (docs/BENCHMARKS.md, "Symbol cache").
# Env: JEHEAP (default build/release/jeheap), BASE (default: JEHEAP --no-cache),
# JEHEAP_BENCH_DIR (default build/bench), RUNS (default 3), WORK (scratch folder, default
# build/bench/cache), LLVM (default 1), RENDER_ONLY=1 (print the table of the runs already
# in WORK).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JEHEAP=${JEHEAP:-$ROOT/build/release/jeheap}
export JEHEAP_BENCH_DIR=${JEHEAP_BENCH_DIR:-$ROOT/build/bench}
RUNS=${RUNS:-3}
LLVM=${LLVM:-1}
WORK=${WORK:-$JEHEAP_BENCH_DIR/cache}
BIN=/usr/bin/ceph-osd
CORPUS=$("$ROOT/scripts/bench/corpus.sh")
DUMP=$CORPUS/ceph-osd.medium.heap
LARGE=$CORPUS/ceph-osd.large.heap
PCS=$CORPUS/pcs/medium
base() { if [ -n "${BASE:-}" ]; then "$BASE" "$@"; else "$JEHEAP" --no-cache "$@"; fi; }
llvm_peer() { # every file's addresses to one llvm-symbolizer each
	while IFS=$'\t' read -r obj _ list; do
		llvm-symbolizer --inlining --demangle --obj="$obj" <"$PCS/$list"
	done <"$PCS/manifest.tsv"
}
export -f base llvm_peer
export JEHEAP BASE PCS
for f in "$JEHEAP" ${BASE:+"$BASE"} "$BIN" "$DUMP" "$LARGE" "$PCS/manifest.tsv"; do
	[ -e "$f" ] || { echo "cache.sh: missing $f" >&2; exit 1; }
done
export DEBUGINFOD_URLS= # no server: local debug files only
mkdir -p "$WORK"
NEW20=$WORK/medium-20new.heap
[ -s "$NEW20" ] || python3 "$ROOT/scripts/bench/new_addresses.py" "$DUMP" "$LARGE" 0.2 "$NEW20"

measure() { # NAME CMD...: appends "wall cpu rss_kb" to $WORK/NAME.t, output to $WORK/NAME.out
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$WORK/$name.time" bash -c '"$@"' - "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/$name.time" >>"$WORK/$name.t"
}
[ "${RENDER_ONLY:-0}" = 1 ] && RUNS=0 # only print the table of the last runs in WORK
if [ "$RUNS" -gt 0 ]; then
	rm -f "$WORK"/*.t
	# the warm cache, once
	rm -rf "$WORK/warm"
	"$JEHEAP" --cache-dir="$WORK/warm" --symbols-only "$BIN" "$DUMP"
	# what new20 must print: a cold run on the new20 dump
	rm -rf "$WORK/new20ref"
	"$JEHEAP" --cache-dir="$WORK/new20ref" --text "$BIN" "$NEW20" >"$WORK/new20ref.out"
fi
NAMES="base cold warm new20 symbols-only"
[ "$LLVM" = 1 ] && NAMES="$NAMES llvm-symbolizer"
[ "$RUNS" = 0 ] && [ ! -s "$WORK/llvm-symbolizer.t" ] && NAMES="base cold warm new20 symbols-only"
for _ in $(seq 1 "$RUNS"); do
	measure base base --text "$BIN" "$DUMP"
	rm -rf "$WORK/cold"
	measure cold "$JEHEAP" --cache-dir="$WORK/cold" --text "$BIN" "$DUMP"
	measure warm "$JEHEAP" --cache-dir="$WORK/warm" --text "$BIN" "$DUMP"
	rm -rf "$WORK/new20c" && cp -a "$WORK/warm" "$WORK/new20c"
	measure new20 "$JEHEAP" --cache-dir="$WORK/new20c" --text "$BIN" "$NEW20"
	rm -rf "$WORK/symonly"
	measure symbols-only "$JEHEAP" --cache-dir="$WORK/symonly" --symbols-only "$BIN" "$DUMP"
	cmp -s "$WORK/base.out" "$WORK/cold.out" || { echo "cache.sh: cold output differs from base" >&2; exit 1; }
	cmp -s "$WORK/base.out" "$WORK/warm.out" || { echo "cache.sh: warm output differs from base" >&2; exit 1; }
	cmp -s "$WORK/new20ref.out" "$WORK/new20.out" || { echo "cache.sh: new20 output differs from a cold run's" >&2; exit 1; }
	if [ "$LLVM" = 1 ]; then
		measure llvm-symbolizer llvm_peer
	fi
done
median() { # FILE COLUMN
	cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "| run | wall s | CPU s | peak RSS MB | wall / cold | CPU / cold | RSS / cold |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
cw=$(median "$WORK/cold.t" 1)
cc=$(median "$WORK/cold.t" 2)
cr=$(median "$WORK/cold.t" 3)
for n in $NAMES; do
	w=$(median "$WORK/$n.t" 1) c=$(median "$WORK/$n.t" 2) r=$(median "$WORK/$n.t" 3)
	awk -v n="$n" -v w="$w" -v c="$c" -v r="$r" -v cw="$cw" -v cc="$cc" -v cr="$cr" \
		'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.3f | %.3f | %.3f |\n", n, w, c, r / 1024, w / cw, c / cc, r / cr }'
done
if [ -s "$WORK/llvm-symbolizer.t" ] && [ "$LLVM" = 1 ]; then
	lw=$(median "$WORK/llvm-symbolizer.t" 1) lc=$(median "$WORK/llvm-symbolizer.t" 2)
	bw=$(median "$WORK/base.t" 1) bc=$(median "$WORK/base.t" 2)
	awk -v cw="$cw" -v cc="$cc" -v bw="$bw" -v bc="$bc" -v lw="$lw" -v lc="$lc" 'BEGIN {
		printf "\nto llvm-symbolizer: cold %.3f wall, %.3f CPU; base %.3f wall, %.3f CPU\n",
			cw / lw, cc / lc, bw / lw, bc / lc }'
fi
echo
echo "($(wc -l <"$WORK/cold.t") runs each, alternated, medians; cache files: $(du -sh "$WORK/warm" | cut -f1), of which unit indexes (.jhu) $(du -cb "$WORK"/warm/*.jhu | tail -1 | cut -f1 | awk '{ printf "%.1fM", $1 / 1048576 }'))"
