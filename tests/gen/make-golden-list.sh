#!/usr/bin/env bash
# make-golden-list.sh - records jeprof's --list answers on the RAW dumps of the golden
# corpus (testdata/golden/*/after.heap, before.heap and the committed binaries
# testdata/golden/bin/*.xz) for tests/cases/golden_list.sh.
#
# Writes, per case, cmd.list (NAME<TAB>list<TAB>jeheap args..., run inside the case
# directory) and expected/NAME.out: jeprof's stdout, verbatim, from
#   jeprof --tools=tests/gen/jeprof-tools/ ARGS /tmp/jeheap-golden/bin/PROG after.heap
# The --tools wrappers correct two jeprof failures jeheap does not copy (see
# testdata/golden/README.md, "--list"):
#   - ' (discriminator N)' after addr2line's and objdump's file:line, which jeprof's
#     parsers do not recognise (it then charges the samples to the previous or next line);
#   - Debian's stripped libjemalloc, whose frames nm names after the nearest exported
#     symbol (e.g. malloc_usable_size) so that jeprof keeps them on top of C++ stacks: the
#     wrapper names the whole library 'malloc', and jeprof drops those frames as jeheap does.
# The binaries' DWARF names their sources under SRCDIR (where they were built); the wrappers
# show jeprof the repository's copies instead (JH_SRCMAP_FROM/TO), and the ROUTINE lines are
# given back DWARF's paths, which jeheap prints (golden_list.sh maps them with --path-map),
# with the checkout the binaries were built from written @COMP_DIR@ (the test puts back the
# directory it reads from the binary, as this script does).
# Regexes are chosen to match routines of the fixtures only: libc's and libstdc++'s
# sources are not on the machine, and jeprof names their routines after nm -D's nearest
# exported symbol.
#
# Usage: tests/gen/make-golden-list.sh        (needs jeprof, binutils, xz)
set -euo pipefail
export LC_ALL=C PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GOLDEN=$ROOT/testdata/golden
TOOLS=$ROOT/tests/gen/jeprof-tools/

for t in jeprof objdump addr2line nm readelf xz; do
  command -v $t >/dev/null || { echo "make-golden-list.sh: $t is missing" >&2; exit 1; }
done
SRC=$ROOT
source "$ROOT/tests/fixtures/golden_bins.sh"   # BIN (the dumps' MAPPED_LIBRARIES name it), GOLDEN_COMP_DIR
SRCDIR=$GOLDEN_COMP_DIR/tests/fixtures/prog   # DW_AT_name of the fixtures' CUs
export JH_SRCMAP_FROM=$SRCDIR JH_SRCMAP_TO=$ROOT/tests/fixtures/prog

# start CASE: a fresh cmd.list and no list.* expectations
start() {
  rm -f "$GOLDEN/$1"/expected/list.*
  echo "# jeheap --list on the raw dump (tests/cases/golden_list.sh); expected = jeprof, see tests/gen/make-golden-list.sh" \
    > "$GOLDEN/$1/cmd.list"
}

# record CASE PROG NAME ARGS...: jeprof ARGS on the case's after.heap
record() {
  local c=$1 prog=$BIN/$2 name=$3; shift 3
  local dir=$GOLDEN/$c
  (cd "$dir" && jeprof --tools="$TOOLS" "$@" "$prog" after.heap > "$BIN/list.out" 2>/dev/null) ||
    { echo "make-golden-list.sh: $c/$name: jeprof failed" >&2; exit 1; }
  sed "s|^\(ROUTINE .* in \)$JH_SRCMAP_TO/|\1@COMP_DIR@/tests/fixtures/prog/|" "$BIN/list.out" > "$dir/expected/$name.out"
  rm -f "$BIN/list.out"
  # only the fixtures' own sources: they are committed, system headers are not
  if grep '^ROUTINE' "$dir/expected/$name.out" | grep -v " in @COMP_DIR@/tests/fixtures/prog/" >&2; then
    echo "make-golden-list.sh: $c/$name lists a routine outside the fixtures" >&2; exit 1
  fi
  local IFS=$'\t'
  printf '%s\tlist\t%s\t%s\tafter.heap\n' "$name" "$*" "$prog" >> "$dir/cmd.list"
}

start mt-s12
record mt-s12 mt list.inlined --list=inlined_caller            # always_inline chain inside
record mt-s12 mt list.sites --list=_site                       # several routines
record mt-s12 mt list.modules '--list=^(main|worker|jhlib)'    # program and libjhalloc.so
record mt-s12 mt list.none --list=no_such_routine              # nothing
record mt-s12 mt list.recurse.bytes --list=recurse --show_bytes
record mt-s12 mt list.objects '--list=_site|_few|_many' --inuse_objects
record mt-s12 mt list.focus --list=worker --focus=recurse --show_bytes
record mt-s12 mt list.ignore --list=worker --ignore=recurse --show_bytes
record mt-s12 mt list.thread '--list=_site|recurse|worker' --thread=0
record mt-s12 mt list.threads '--list=_site|recurse|worker' '--thread=*'   # one listing per thread

start mt-s0-accum
record mt-s0-accum mt list.zero '--list=freed_site|grow_site' --show_bytes  # freed: 0 in use
record mt-s0-accum mt list.alloc_space --list=_site --alloc_space
record mt-s0-accum mt list.base '--list=_site|recurse' --show_bytes --base=before.heap

start mtclang-s12-accum
record mtclang-s12-accum mt-clang list.inlined '--list=inlined_caller|recurse'
record mtclang-s12-accum mt-clang list.all '--list=_site|_few|_many|inlined|recurse|leaf|worker|main|jhlib|hold'

start cxx-s12
record cxx-s12 cxx list.ns '--list=^(ns::|main|churn)'          # templates: equal short names
record cxx-s12 cxx list.template '--list=Box<long>|\(unsigned long\)'  # matched on full names

start cxx-s0-accum
record cxx-s0-accum cxx list.ns.bytes '--list=^(ns::|churn)' --show_bytes
record cxx-s0-accum cxx list.alloc_objects '--list=^main' --alloc_objects
echo "make-golden-list.sh: done"
