#!/usr/bin/env bash
# flame.sh - time and size of --flamegraph and --html (and --collapsed for reference) on the
# big benchmark inputs, and Chromium's load time for the files (tests/tools/cdp.py: from
# Page.navigate to the load event, fresh tab each time). Medians of N runs (default 3).
# Usage: scripts/bench/flame.sh [JEHEAP]   Env: N, BENCH_SYM, CEPH_HEAP, CEPH_BIN, OUT
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
J=${1:-$here/build/release/jeheap}
N=${N:-3}
BENCH_SYM=${BENCH_SYM:-$here/build/bench/parse/bench.heap.symbolized}  # scripts/bench/parse.sh
CEPH_HEAP=${CEPH_HEAP:-$here/build/bench/ceph/ceph-osd.large.heap}     # scripts/bench/corpus.sh
CEPH_BIN=${CEPH_BIN:-/usr/bin/ceph-osd}
OUT=${OUT:-$here/build/bench/flame}
mkdir -p "$OUT"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
one() { # label mode args...
	local label=$1 mode=$2 t=() out
	shift 2
	out=$OUT/$label.$mode.out
	[ "$mode" = collapsed ] && out=/dev/null # (over 1 GB on the bench file)
	for _ in $(seq "$N"); do
		/usr/bin/time -f %e -o "$OUT/t" "$J" "--$mode" --quiet --no-cache "$@" >"$out" 2>/dev/null
		t+=("$(cat "$OUT/t")")
	done
	local size=0
	[ "$out" = /dev/null ] || size=$(stat -c %s "$out")
	printf '%s\t--%s\t%s s\t%.1f MB\n' "$label" "$mode" "$(printf '%s\n' "${t[@]}" | median)" \
		"$(echo "$size / 1048576" | bc -l)"
}
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for input in bench ceph; do
	if [ $input = bench ]; then
		[ -r "$BENCH_SYM" ] || continue
		args=("$BENCH_SYM")
	else
		[ -r "$CEPH_HEAP" ] && [ -x "$CEPH_BIN" ] || continue
		args=("$CEPH_BIN" "$CEPH_HEAP")
	fi
	for mode in collapsed flamegraph html; do one $input $mode "${args[@]}"; done
	grep -o '[0-9]* frames* hidden[^<]*' "$OUT/$input.flamegraph.out" || true
	for mode in flamegraph html; do
		ext=$([ $mode = html ] && echo html || echo svg)
		mv "$OUT/$input.$mode.out" "$OUT/$input.$ext"
		python3 - "$OUT/$input.$ext" "$N" <<'PY'
import os, statistics, sys
sys.path.insert(0, os.path.join(os.environ.get("JH_SRC", "."), "tests", "tools"))
import cdp
path, n = sys.argv[1], int(sys.argv[2])
loads, frames = [], 0
with cdp.Browser() as b:
    for _ in range(n):
        p = b.open("file://" + path, timeout=300)
        loads.append(p.load_seconds)
        frames = p.eval("jhFlame.frames().length")
        assert not p.errors(), p.errors()
        p.send("Page.close")
print("%s\tchromium load %.2f s (median of %d)\t%d frames" %
      (os.path.basename(path), statistics.median(loads), n, frames))
PY
	done
done
