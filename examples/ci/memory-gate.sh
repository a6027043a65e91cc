#!/usr/bin/env bash
# memory-gate.sh - a CI memory gate with jeheap: builds a program, runs it under Debian's
# profiling jemalloc (libjemalloc2) for a small and a large workload, each run dumping its
# heap at exit (prof_final), and fails when the memory still in use at exit grew by more
# than a threshold between the two: a leak per request shows up as growth, a fixed build
# does not.
#
# Usage: examples/ci/memory-gate.sh [THRESHOLD]   (default 64K; SIZE[K|M|G] or PCT%)
# Environment:
#   JEHEAP    the jeheap binary (default: jeheap on PATH)
#   CC        the compiler (default cc); CFLAGS extra flags (the suite builds a leaking
#             variant with CFLAGS=-DLEAK)
#   PROGRAM   the C source to build (default: demo.c beside this script); it takes the
#             number of requests as its argument
#   SMALL, LARGE   the two workloads (default 100 and 1000 requests)
#   WORK      where to build and dump (default: a new temporary directory, removed)
#   JEMALLOC  the profiling jemalloc (default /usr/lib/x86_64-linux-gnu/libjemalloc.so.2)
# Exit status: jeheap's: 0 no growth over THRESHOLD, 5 grew too much (the message says
# what), others an error (1 usage, 2 bad dump, ...); 1 if the build or a run fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
THRESHOLD=${1:-64K}
JEHEAP=${JEHEAP:-jeheap}
CC=${CC:-cc}
PROGRAM=${PROGRAM:-$HERE/demo.c}
SMALL=${SMALL:-100} LARGE=${LARGE:-1000}
JEMALLOC=${JEMALLOC:-/usr/lib/x86_64-linux-gnu/libjemalloc.so.2}
if [ -z "${WORK:-}" ]; then
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
fi
[ -e "$JEMALLOC" ] || { echo "memory-gate: $JEMALLOC missing (apt-get install libjemalloc2)" >&2; exit 1; }

# -g: names and lines; -fno-omit-frame-pointer keeps jemalloc's backtraces whole
# shellcheck disable=SC2086
"$CC" -g -O1 -fno-omit-frame-pointer ${CFLAGS:-} -o "$WORK/prog" "$PROGRAM"

# run NAME N: the program with N requests, its heap at exit in $WORK/NAME.<pid>.<seq>.f.heap
# (every allocation sampled: lg_prof_sample:0)
run() {
	rm -f "$WORK/$1".*.heap
	LD_PRELOAD=$JEMALLOC MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:"$WORK/$1" \
		"$WORK/prog" "$2" > /dev/null
	local dumps=("$WORK/$1".*.heap)
	[ -f "${dumps[0]}" ] || { echo "memory-gate: the $1 run wrote no heap dump" >&2; exit 1; }
	echo "${dumps[0]}"
}
before=$(run before "$SMALL")
after=$(run after "$LARGE")

# the report of what grew, then the gate's verdict (exit 5 when over THRESHOLD)
set +e
"$JEHEAP" --text --show_bytes --fail-on-growth="$THRESHOLD" --base="$before" "$WORK/prog" "$after"
code=$?
set -e
case $code in
0) echo "memory-gate: PASS: growth from $SMALL to $LARGE requests within $THRESHOLD" ;;
5) echo "memory-gate: FAIL: memory in use grew by more than $THRESHOLD from $SMALL to $LARGE requests" ;;
*) echo "memory-gate: ERROR: jeheap exited with $code" ;;
esac
exit "$code"
