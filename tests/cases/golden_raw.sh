#!/usr/bin/env bash
# golden_raw.sh - jeheap on the RAW dumps of the golden corpus: it symbolizes them itself
# (DWARF, inline frames, allocator frames dropped by module) and must print what jeprof
# printed on their .symbolized forms (names from addr2line -i on the same binaries; see
# testdata/golden/README.md). Command lists: testdata/golden/*/cmd.raw (made by
# tests/gen/make-golden.sh --raw); the comparison is golden_symbolized.sh's.
#
# Names are compared after normalising the two points where the name oracles disagree:
#   - gcc clones: addr2line prints DWARF's 'realloc_site', llvm-symbolizer
#     'realloc_site (.constprop.0)', a symbol-table name demangled by libiberty
#     'ns::arrays<64>(...) [clone .isra.0]' / 'realloc_site.constprop.0': suffixes dropped;
#   - libc's entry: addr2line prints DWARF's __libc_start_main_impl, llvm-symbolizer the
#     symbol table's __libc_start_main: both read __libc_start_main.
# Whole-profile outputs --ignore the stacks through ld.so's _dl_init/allocate_dtv, whose
# names (addr2line: nearest exported symbol, e.g. std::__throw_ios_failure for the
# libstdc++ emergency pool) jeheap rightly does not guess. crossrun: two runs loaded at
# different addresses; expected = the derived (ASLR-proof) --base answers.
# mt-s0-accum/raw.text.files.worker: jeprof's --files splits 'mt.c:148 (discriminator 3)'
# off as a file of its own; the derived answer is one row, mt.c (see make-golden.sh).
# The dumps name their binaries /tmp/jeheap-golden/bin/*: the committed binaries
# (testdata/golden/bin/*.xz) are put there.
set -uo pipefail
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
source "$SRC/tests/tools/golden_bins.sh" "$SRC"
GOLDEN_CMD=cmd.raw GOLDEN_NAMES=oracle exec bash "$SRC/tests/cases/golden_symbolized.sh"
