#!/usr/bin/env bash
# side-by-side.sh OLD NEW RUNS -- jeheap ARGS...: runs two jeheap binaries alternately on
# the same command line, RUNS times each, and prints the medians of wall time and peak RSS
# of both and their ratios (NEW/OLD). For "at most 1.25x of the previous main" checks.
set -euo pipefail
old=$1 new=$2 runs=$3; shift 4
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
one() { /usr/bin/time -f '%e %M' -o "$t/tm" "$1" "${@:2}" > /dev/null 2>&1 || true; cat "$t/tm"; }
for i in $(seq "$runs"); do
	one "$old" "$@" >> "$t/old"
	one "$new" "$@" >> "$t/new"
done
med() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ow=$(cut -d' ' -f1 "$t/old" | med) nw=$(cut -d' ' -f1 "$t/new" | med)
om=$(cut -d' ' -f2 "$t/old" | med) nm=$(cut -d' ' -f2 "$t/new" | med)
awk -v ow="$ow" -v nw="$nw" -v om="$om" -v nm="$nm" -v cmd="$*" -v r="$runs" 'BEGIN {
	printf "| `%s` | %d | %.2f s, %.1f MB | %.2f s, %.1f MB | %.2fx | %.2fx |\n",
		cmd, r, ow, om / 1024, nw, nm / 1024, nw / ow, nm / om }'
