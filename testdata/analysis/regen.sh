#!/bin/bash
# Regenerates the jeprof-made expected outputs of tests/cases/analysis_reports.sh.
# The dumps: prog.c built with gcc -g -O2 -pthread, run under Debian's libjemalloc2 with
# MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0 (run1: no argument, one worker
# thread; run2: one argument, two worker threads), then
# /work/shared/tools/make_symbolized.py DUMP prog > runN.heap.symbolized.
# jeprof runs on the "allocator view" (tests/gen/alloc_view.py: libjemalloc frames named
# malloc), so that it drops the stripped allocator's frames as jeheap does; see
# testdata/golden/README.md.
set -euf
cd "$(dirname "$0")"
view=$(mktemp)
trap 'rm -f "$view"' EXIT
python3 ../../tests/gen/alloc_view.py run2.heap.symbolized > "$view"
while read -r name opts; do
	jeprof $opts "$view" 2>/dev/null > "$name.expected"
done < cases.txt
jeprof --collapsed "$view" 2>/dev/null | LC_ALL=C sort > collapsed.expected
jeprof --collapsed --retain='leaf|main|worker' "$view" 2>/dev/null | LC_ALL=C sort > collapsed_retain.expected
