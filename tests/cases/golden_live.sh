#!/usr/bin/env bash
# golden_live.sh - jeheap next to jeprof on a dump made right now: rebuilds the C fixture
# (tests/fixtures/prog/mt.c + libjhalloc.so), runs it under Debian's libjemalloc2 with
# profiling, turns the dump into a .symbolized file with tests/tools/a2l_symbolized.py (addr2line),
# and compares jeheap with jeprof on it (same rules as golden_symbolized.sh: jeprof reads
# the copy whose libjemalloc frames are named 'malloc', see testdata/golden/README.md).
# `jeheap --text --focus=... PROG DUMP` on the raw dump is compared too
# (names of the fixture's own code and libc's entry frames: DWARF's, as addr2line prints).
# Exit 77 (skip) only when jeprof, libjemalloc2, a compiler, python3 or addr2line is absent.
set -uo pipefail
export LC_ALL=C PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}" 2>/dev/null || echo "${JEHEAP:-}")
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
MKSYM=$SRC/tests/tools/a2l_symbolized.py
GEN=$SRC/tests/gen
PROG=$SRC/tests/fixtures/prog
skip() { echo "golden_live: SKIP: $*" >&2; exit 77; }
command -v jeprof >/dev/null || skip "jeprof is not installed"
[ -f "$JE" ] || skip "$JE is not installed"
command -v gcc >/dev/null && command -v python3 >/dev/null || skip "gcc or python3 missing"
command -v addr2line >/dev/null && command -v readelf >/dev/null || skip "binutils missing"

W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

gcc -g -O2 -fPIC -shared -o "$W/libjhalloc.so" "$PROG/jhlib.c" &&
gcc -g -O2 -pthread -o "$W/mt" "$PROG/mt.c" -L"$W" -ljhalloc '-Wl,-rpath,$ORIGIN' -ldl ||
  { echo "golden_live: fixture build failed" >&2; exit 1; }
LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_accum:true,lg_prof_sample:12,prof_prefix:$W/f \
  "$W/mt" "$W/before.heap" "$W/after.heap" || { echo "golden_live: fixture run failed" >&2; exit 1; }
[ -s "$W/after.heap" ] || { echo "golden_live: no dump (is libjemalloc built with profiling?)" >&2; exit 1; }
for n in before after; do
  python3 "$MKSYM" "$W/$n.heap" "$W/mt" > "$W/$n.heap.symbolized" &&
  python3 "$GEN/alloc_view.py" "$W/$n.heap.symbolized" > "$W/$n.view.symbolized" ||
    { echo "golden_live: symbolizing $n.heap failed" >&2; exit 1; }
done

pass=0; fail=0
check() { # KIND ARGS... (ARGS name *.heap.symbolized; jeprof gets the *.view.symbolized copy)
  local kind=$1; shift
  local -a jargs=() a
  for a in "$@"; do jargs+=("${a//.heap.symbolized/.view.symbolized}"); done
  [ -n "${JEPROF_ARGS:-}" ] && read -r -a jargs <<< "$JEPROF_ARGS"
  (cd "$W" && jeprof "${jargs[@]}" > exp 2>/dev/null)
  (cd "$W" && "$JEHEAP" "$@" < /dev/null > out 2> err); local rc=$?
  case $kind in
    sorted) sort -o "$W/exp" "$W/exp" ;;
    names) python3 "$GEN/normalize.py" names < "$W/exp" > "$W/exp.n"; mv "$W/exp.n" "$W/exp"
           python3 "$GEN/normalize.py" names < "$W/out" > "$W/out.n"; mv "$W/out.n" "$W/out" ;;
    dot) python3 "$GEN/normalize.py" dot < "$W/exp" > "$W/exp.n"; mv "$W/exp.n" "$W/exp"
         python3 "$GEN/normalize.py" dot < "$W/out" > "$W/out.n"; mv "$W/out.n" "$W/out" ;;
  esac
  if [ $rc -eq 0 ] && cmp -s "$W/exp" "$W/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL jeheap $* (exit $rc)"; head -3 "$W/err" | sed 's/^/  stderr: /'
    diff -u --label jeprof --label jeheap "$W/exp" "$W/out" | head -30
  fi
}
S=after.heap.symbolized
check exact --text $S
check exact --text --show_bytes $S
check exact --text --inuse_objects $S
check exact --text --alloc_space --show_bytes $S
check exact --text --alloc_objects $S
check exact --text --cum $S
check exact --text "--thread=*" $S
check exact --text --show_bytes --focus=worker --ignore=small $S
check exact --text --show_bytes --base=before.heap.symbolized $S
check sorted --collapsed $S
check sorted --collapsed --alloc_space $S
check dot --dot $S

# Raw dump: jeheap symbolizes it itself; names of the fixture's code must equal addr2line's.
# --focus keeps out the libstdc++ emergency-pool frame, which addr2line misnames
# (std::__throw_ios_failure, nearest exported symbol) and jeheap need not copy.
RF=--focus='recurse|grow_site|inlined_caller'
# expected: jeprof on the .symbolized copy (addr2line's names, allocator frames removed)
# (names normalised where addr2line and llvm-symbolizer disagree: normalize.py names)
JEPROF_ARGS="--text --show_bytes $RF after.view.symbolized" check names --text --show_bytes "$RF" "$W/mt" after.heap
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
