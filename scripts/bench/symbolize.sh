#!/usr/bin/env bash
# symbolize.sh - jeheap beside its peers on Debian's ceph-osd (scripts/bench/corpus.sh makes
# the dumps, installing ceph-osd and ceph-osd-dbg), in one run, runs alternated:
#   jeheap --no-cache --text /usr/bin/ceph-osd DUMP (the symbol cache would answer from disk)
#   llvm-symbolizer --inlining --demangle on the same caller-adjusted addresses, per file
#   jeprof --text with LLVM's tools (addr2line = llvm-addr2line, nm = llvm-nm) on the dump
# Medians of wall time and peak RSS (GNU time); writes a markdown table to
# build/bench/symbolize-CASE.md and prints it.
#
# Env: JEHEAP (default build/release/jeheap), JEHEAP_BENCH_DIR (default build/bench),
#      JEHEAP_CASE (medium or large, default medium), JEHEAP_RUNS (default 3),
#      JEPROF=0 leaves jeprof out (minutes per run on the large dump).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JEHEAP=${JEHEAP:-$ROOT/build/release/jeheap}
export JEHEAP_BENCH_DIR=${JEHEAP_BENCH_DIR:-$ROOT/build/bench}
CASE=${JEHEAP_CASE:-medium}
RUNS=${JEHEAP_RUNS:-3}
CORPUS=$("$ROOT/scripts/bench/corpus.sh")
DUMP=$CORPUS/ceph-osd.$CASE.heap
PCS=$CORPUS/pcs/$CASE
OSD=/usr/bin/ceph-osd
WORK=$JEHEAP_BENCH_DIR/symbolize-$CASE
OUT_MD=$JEHEAP_BENCH_DIR/symbolize-$CASE.md
LLVM_TOOLS=addr2line:/usr/bin/llvm-addr2line,nm:/usr/bin/llvm-nm,objdump:/usr/bin/objdump,c++filt:/usr/bin/llvm-cxxfilt
[ -x "$JEHEAP" ] || { echo "symbolize.sh: no jeheap at $JEHEAP" >&2; exit 1; }
export DEBUGINFOD_URLS= # local debug files only
rm -rf "$WORK" && mkdir -p "$WORK"

llvm_peer() { # every file's addresses to one llvm-symbolizer each
	while IFS=$'\t' read -r obj _ list; do
		llvm-symbolizer --inlining --demangle --obj="$obj" <"$PCS/$list"
	done <"$PCS/manifest.tsv"
}
measure() { # NAME CMD...: appends "wall rss_kB" to WORK/NAME.t
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" ||
		{ echo "symbolize.sh: $name failed, see $WORK/$name.err" >&2; exit 1; }
	cat "$WORK/$name.time" >>"$WORK/$name.t"
}
export -f llvm_peer
export PCS
NAMES="jeheap llvm-symbolizer"
[ "${JEPROF:-1}" = 1 ] && NAMES="$NAMES jeprof"
for _ in $(seq "$RUNS"); do
	measure jeheap "$JEHEAP" --no-cache --text "$OSD" "$DUMP"
	measure llvm-symbolizer bash -c llvm_peer
	[ "${JEPROF:-1}" = 1 ] && measure jeprof jeprof --tools="$LLVM_TOOLS" --text "$OSD" "$DUMP"
done
median() { # FILE COLUMN
	cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
naddr=$(awk -F'\t' '{ n += $2 } END { print n }' "$PCS/manifest.tsv")
{
	echo "| ceph-osd $CASE dump ($naddr addresses) | wall s | peak RSS MB |"
	echo "| --- | ---: | ---: |"
	for n in $NAMES; do
		printf '| %s | %s | %s |\n' "$n" "$(median "$WORK/$n.t" 1)" \
			"$(awk -v k="$(median "$WORK/$n.t" 2)" 'BEGIN { printf "%.0f", k / 1024 }')"
	done
	echo
	echo "($RUNS runs each, alternated, medians; $(nproc) cores)"
} >"$OUT_MD"
cat "$OUT_MD"
