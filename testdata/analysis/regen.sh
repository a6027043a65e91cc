#!/bin/bash
# Regenerates the jeprof-made expected outputs of tests/cases/analysis_reports.sh.
# The dumps: prog.c built with gcc -g -O2 -pthread, run under Debian's libjemalloc2 with
# MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0 (run1: no argument, one worker
# thread; run2: one argument, two worker threads), then
# tests/tools/a2l_symbolized.py DUMP prog > runN.heap.symbolized.
# jeprof reads the "allocator view" of the file (tests/gen/alloc_view.py: frames inside
# libjemalloc renamed 'malloc'), so that it drops every leading allocator frame as jeheap
# does by module; the numbers and layout stay jeprof's. base_*.expected are jeheap's own
# (jeprof cannot diff across runs; see tests/cases/analysis_base.sh).
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
