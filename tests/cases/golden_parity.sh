#!/usr/bin/env bash
# golden_parity.sh - jeprof's quirks kept or corrected, on the golden corpus (command lists
# testdata/golden/*/cmd.parity, made by tests/gen/make-golden.sh --parity; the comparison is
# golden_symbolized.sh's):
#   - several profiles with --thread (every case, both orders of before/after): jeprof sums
#     the profiles but reads per-thread data from the FIRST profile only;
#   - parity/ (a dump of tests/fixtures/prog/parity.cpp): frames named Callback<...>::Run
#     become Run#<n> in --text/--dot (every granularity that shows names; n numbers the
#     callee, in Perl hash order in jeprof: any of jeprof's answers under 17 hash seeds,
#     stored as NAME.altN.out, is accepted), and stacks made only of allocator frames
#     (do_malloc recursing past jemalloc's 128-frame limit) are charged to '??:0:unknown'
#     in --callgrind and printed as an empty stack in --collapsed.
set -uo pipefail
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
GOLDEN_CMD=cmd.parity exec bash "$SRC/tests/cases/golden_symbolized.sh"
