#!/usr/bin/env bash
# make-golden.sh - regenerates testdata/golden/: builds the fixture programs, profiles them
# under Debian's libjemalloc2 with several MALLOC_CONF settings, turns every dump into a
# ClickHouse-style .symbolized file with tests/tools/a2l_symbolized.py (addr2line), and records
# jeprof's output for a matrix of option sets.
#
# Layout of testdata/golden/<case>/:
#   after.heap, before.heap          raw dumps (reference; raw-dump tests)
#   *.heap.symbolized                what jeheap reads (a2l_symbolized.py output, verbatim)
#   *.jeprof-view.symbolized         what jeprof read: the same file with every libjemalloc
#                                    frame renamed 'malloc' (tests/gen/alloc_view.py), so that
#                                    jeprof's output has the allocator frames removed correctly
#   cmd                              NAME<TAB>KIND<TAB>jeheap args... (run inside the case dir)
#   expected/NAME.out [NAME.err]     expected stdout [stderr lines that must appear]
#   expected/NAME.normalized         dot/callgrind: NAME.out in the compared (normalised) form
#   expected/NAME.altN.out           dot/callgrind: jeprof's other answers under other hash seeds
#   cmd.raw, expected/raw.*          commands on the raw dumps (tests/cases/golden_raw.sh)
#   cmd.parity                       jeprof-parity checks added later (tests/cases/golden_parity.sh):
#                                    several profiles with --thread on every case, and the
#                                    'parity' case (Callback::Run frames, allocator-only stacks)
# KIND: exact (byte-for-byte), sorted (collapsed: jeprof's lines sorted with LC_ALL=C),
# dot (node lines byte-exact, edges as a multiset), callgrind (records as a multiset),
# fails (must exit non-zero), derived (expected written from jeprof outputs by a rule stated
# in tests/cases/golden_symbolized.sh, compared byte-for-byte).
#
# Usage: tests/gen/make-golden.sh [case...]      (needs jeprof, libjemalloc2, gcc, clang)
#        tests/gen/make-golden.sh --rederive     (only recompute the derived base.collapsed*)
#        tests/gen/make-golden.sh --raw          (only recompute cmd.raw and its raw.* outputs)
#        tests/gen/make-golden.sh --parity       (only recompute every cmd.parity: the committed
#                                                 cases' dumps as they are, the parity case anew)
set -euo pipefail
export LC_ALL=C PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MKSYM=$ROOT/tests/tools/a2l_symbolized.py
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
GEN=$ROOT/tests/gen
PROG=$ROOT/tests/fixtures/prog
OUT=${JH_GOLDEN_OUT:-$ROOT/testdata/golden}   # JH_GOLDEN_OUT: try the generator elsewhere
WORK=/tmp/jeheap-golden          # fixed path: it is the binary= line of every .symbolized
BIN=$WORK/bin

for t in jeprof gcc g++ clang python3 addr2line readelf setarch; do
  command -v $t >/dev/null || { echo "make-golden.sh: $t is missing" >&2; exit 1; }
done
[ -f "$JE" ] || { echo "make-golden.sh: need $JE" >&2; exit 1; }

build() {
  rm -rf "$BIN"; mkdir -p "$BIN"
  local rp='-Wl,-rpath,$ORIGIN'
  gcc -g -O2 -fPIC -shared -o "$BIN/libjhalloc.so" "$PROG/jhlib.c"
  gcc -g -O2 -pthread -o "$BIN/mt" "$PROG/mt.c" -L"$BIN" -ljhalloc "$rp" -ldl
  clang -g -O2 -pthread -o "$BIN/mt-clang" "$PROG/mt.c" -L"$BIN" -ljhalloc "$rp" -ldl
  g++ -g -O2 -pthread -o "$BIN/cxx" "$PROG/cxx.cpp" -ldl
  build_parity
}
build_parity() {
  mkdir -p "$BIN"
  g++ -g -O2 -pthread -o "$BIN/parity" "$PROG/parity.cpp" -ldl
}

# profile BINARY CONF DIR [extra args]: writes DIR/before.heap and DIR/after.heap
profile() {
  local bin=$1 conf=$2 dir=$3; shift 3
  rm -f "$dir"/*.heap
  LD_PRELOAD=$JE MALLOC_CONF="prof:true,prof_final:true,prof_prefix:$dir/final,$conf" \
    "$bin" "$dir/before.heap" "$dir/after.heap" "$@"
  rm -f "$dir"/final.*.heap
  [ -s "$dir/after.heap" ] || { echo "make-golden.sh: no dump from $bin ($conf)" >&2; exit 1; }
}

# symbolize DIR NAME BINARY: NAME.heap -> NAME.heap.symbolized + NAME.jeprof-view.symbolized
symbolize() {
  python3 "$MKSYM" "$1/$2.heap" "$3" > "$1/$2.heap.symbolized"
  python3 "$GEN/alloc_view.py" "$1/$2.heap.symbolized" > "$1/$2.jeprof-view.symbolized"
}

# jeprof's input for a jeheap argument list: *.heap.symbolized -> *.jeprof-view.symbolized
to_view() {
  local a
  for a in "$@"; do printf '%s\n' "${a//.heap.symbolized/.jeprof-view.symbolized}"; done
}

# record DIR NAME KIND ARGS...: runs jeprof, stores expected/NAME.out (+ .err), appends to
# DIR/$CMDFILE (cmd by default). With EXACT_ALTS set, exact outputs get alternatives too
# (jeprof's Run#<n> numbers follow Perl's hash order).
CMDFILE=cmd
record() {
  local dir=$1 name=$2 kind=$3; shift 3
  local -a vargs; mapfile -t vargs < <(to_view "$@")
  local rc=0
  (cd "$dir" && jeprof "${vargs[@]}" > "expected/$name.out" 2> "expected/$name.err.raw") || rc=$?
  grep -v -e '^Using local file ' "$dir/expected/$name.err.raw" | sed 's/jeprof-view/heap/g' \
    > "$dir/expected/$name.err" || true
  # dot: only what the report says (not several profiles' "Fetching ..." block, or Perl's
  # "Use of uninitialized value" for an empty stack)
  [ "$kind" = dot ] && sed -i -n -E '/^(Dropping nodes|No nodes to print)/p' "$dir/expected/$name.err"
  rm -f "$dir/expected/$name.err.raw"
  # jeprof refusing (e.g. dot's "No nodes to print" when every value is 0) is recorded as
  # kind 'fails': jeheap must exit non-zero with no stdout; .err keeps jeprof's message
  [ $rc -ne 0 ] && [ "$kind" = dot ] && [ ! -s "$dir/expected/$name.out" ] && kind=fails
  if [ "$kind" = fails ]; then
    [ $rc -ne 0 ] || { echo "make-golden.sh: $name: jeprof did not fail" >&2; exit 1; }
    sed -i '1!d' "$dir/expected/$name.err"   # the reason, not the usage text after it
  else
    [ $rc -eq 0 ] || { echo "make-golden.sh: $name: jeprof exited $rc" >&2; cat "$dir/expected/$name.err"; exit 1; }
    # stderr is kept only where it says something (dot's "Dropping nodes ..." line)
    [ "$kind" = dot ] && [ -s "$dir/expected/$name.err" ] || rm -f "$dir/expected/$name.err"
  fi
  case $kind in
    sorted) sort -o "$dir/expected/$name.out" "$dir/expected/$name.out" ;;
    dot|callgrind) alternatives "$dir" "$name" "$kind" "${vargs[@]}"
      python3 "$GEN/normalize.py" "$kind" < "$dir/expected/$name.out" > "$dir/expected/$name.normalized" ;;
    exact) [ -n "${EXACT_ALTS:-}" ] && alternatives "$dir" "$name" "$kind" "${vargs[@]}" ;;
  esac
  [ "$kind" = fails ] && : > "$dir/expected/$name.out"
  # jeprof's dot/raw titles carry the binary= name, identical in both files
  local IFS=$'\t'
  printf '%s\t%s\t%s\n' "$name" "$kind" "$*" >> "$dir/$CMDFILE"
}

# alternatives DIR NAME KIND ARGS...: jeprof breaks ties in Perl hash order, and with
# --maxdegree/--nodecount limits the tie order decides which edges survive. Run it with
# other hash seeds; every normalised answer that differs is stored as NAME.altN.out and
# accepted too (jeheap must print one of jeprof's possible answers).
alternatives() {
  local dir=$1 name=$2 kind=$3; shift 3
  local seed n=0 f
  norm() { if [ "$kind" = exact ]; then cat; else python3 "$GEN/normalize.py" "$kind"; fi; }
  norm < "$dir/expected/$name.out" > "$WORK/alt.0"
  for seed in $(seq 1 "${ALT_SEEDS:-8}"); do
    (cd "$dir" && PERL_HASH_SEED=$seed jeprof "$@" 2>/dev/null) > "$WORK/alt.out" || true
    norm < "$WORK/alt.out" > "$WORK/alt.n"
    local seen=0
    for f in "$WORK"/alt.[0-9]*; do cmp -s "$f" "$WORK/alt.n" && seen=1; done
    if [ $seen = 0 ]; then
      n=$((n + 1)); cp "$WORK/alt.n" "$WORK/alt.$n"
      cp "$WORK/alt.out" "$dir/expected/$name.alt$n.out"
    fi
  done
  rm -f "$WORK"/alt.*
}

# base_collapsed_out DIR NAME BEFORE AFTER [ARGS...]: writes expected/NAME.out for the
# two-column '--collapsed --base': jeprof's --collapsed of each file, made on
# copies whose same-named frames share one address (alloc_view.py --merge-names, so stacks
# that read the same are summed before truncation), joined by join_collapsed.py.
base_collapsed_out() {
  local dir=$1 name=$2 before=$3 after=$4; shift 4
  local f
  for f in "$before" "$after"; do
    python3 "$GEN/alloc_view.py" --merge-names "$dir/$f" > "$WORK/$f.merged"
  done
  (cd "$WORK" && jeprof --collapsed "$@" "$before.merged" > b.col 2>/dev/null &&
                 jeprof --collapsed "$@" "$after.merged" > a.col 2>/dev/null)
  python3 "$GEN/join_collapsed.py" "$WORK/b.col" "$WORK/a.col" > "$dir/expected/$name.out"
  rm -f "$WORK/$before.merged" "$WORK/$after.merged"
}

# derived_base_collapsed DIR NAME BEFORE AFTER [ARGS...]: the above, plus its cmd line
derived_base_collapsed() {
  local dir=$1 name=$2 before=$3 after=$4; shift 4
  base_collapsed_out "$dir" "$name" "$before" "$after" "$@"
  local IFS=$'\t'
  printf '%s\t%s\t%s\n' "$name" derived "--collapsed${*:+$IFS$*}$IFS--base=$before$IFS$after" >> "$dir/cmd"
}

# rederive: recomputes every base.collapsed* expectation from the committed inputs
rederive() {
  local d name
  for d in "$OUT"/*/; do
    while IFS=$'\t' read -r -a f; do
      name=${f[0]}
      [[ $name == base.collapsed* ]] || continue
      local n=${#f[@]} args=("${f[@]:3:${#f[@]}-5}")
      base_collapsed_out "$d" "$name" "${f[n-2]#--base=}" "${f[n-1]}" "${args[@]}"
      echo "rederived ${d#$OUT/}$name" >&2
    done < <(sed 's/\.heap\.symbolized/.jeprof-view.symbolized/g' "$d/cmd")
  done
}

# The option matrix shared by every case. FOCUS IGNORE RETAIN EXCLUDE are per program.
matrix() {
  local d=$1 in=after.heap.symbolized base=before.heap.symbolized
  local focus=$2 ignore=$3 retain=$4 exclude=$5 threads=$6
  record $d text exact --text $in
  record $d text.show_bytes exact --text --show_bytes $in
  for v in inuse_objects alloc_space alloc_objects; do
    record $d text.$v exact --text --$v $in
    record $d text.$v.show_bytes exact --text --$v --show_bytes $in
  done
  record $d text.inuse_space.show_bytes exact --text --inuse_space --show_bytes $in
  record $d text.cum exact --text --cum $in
  record $d text.cum.show_bytes exact --text --cum --show_bytes $in
  record $d text.functions exact --text --functions $in
  record $d text.files exact --text --files $in
  record $d text.addresses.show_bytes exact --text --addresses --show_bytes $in
  record $d text.lines fails --text --lines $in
  record $d text.nodecount=3 exact --text --nodecount=3 --nodefraction=0.5 $in
  record $d text.focus exact --text --show_bytes "--focus=$focus" $in
  record $d text.ignore exact --text --show_bytes "--ignore=$ignore" $in
  record $d text.retain exact --text --show_bytes "--retain=$retain" $in
  record $d text.exclude exact --text --show_bytes "--exclude=$exclude" $in
  record $d text.focus.ignore exact --text "--focus=$focus" "--ignore=$ignore" $in
  record $d text.focus.alloc_objects exact --text --alloc_objects "--focus=$focus" $in
  record $d text.thread=all exact --text "--thread=*" $in
  record $d text.thread=all.alloc_space.show_bytes exact --text --alloc_space --show_bytes "--thread=*" $in
  for t in $threads; do
    record $d text.thread=$t.show_bytes exact --text --show_bytes --thread=$t $in
  done
  record $d text.thread=99 exact --text --thread=99 $in
  record $d collapsed sorted --collapsed $in
  record $d collapsed.inuse_objects sorted --collapsed --inuse_objects $in
  record $d collapsed.alloc_space sorted --collapsed --alloc_space $in
  record $d collapsed.alloc_objects sorted --collapsed --alloc_objects $in
  record $d collapsed.focus sorted --collapsed "--focus=$focus" $in
  record $d collapsed.exclude sorted --collapsed "--exclude=$exclude" $in
  record $d collapsed.thread=1 sorted --collapsed --thread=1 $in
  record $d dot dot --dot $in
  record $d dot.show_bytes dot --dot --show_bytes $in
  record $d dot.inuse_objects dot --dot --inuse_objects $in
  record $d dot.alloc_space dot --dot --alloc_space $in
  record $d dot.nodecount=5 dot --dot --nodecount=5 $in
  record $d dot.fractions=0 dot --dot --nodefraction=0 --edgefraction=0 $in
  record $d dot.maxdegree=1 dot --dot --maxdegree=1 --nodefraction=0 --edgefraction=0 $in
  record $d dot.focus dot --dot "--focus=$focus" $in
  record $d dot.heapcheck dot --dot --heapcheck $in
  record $d callgrind callgrind --callgrind $in
  record $d callgrind.alloc_objects callgrind --callgrind --alloc_objects $in
  # two dumps of one run (same load addresses): jeprof's --base is right here
  record $d base.text exact --text --base=$base $in
  record $d base.text.show_bytes exact --text --show_bytes --base=$base $in
  record $d base.text.alloc_space.show_bytes exact --text --alloc_space --show_bytes --base=$base $in
  record $d base.text.inuse_objects exact --text --inuse_objects --base=$base $in
  record $d base.text.drop_negative exact --text --show_bytes --drop_negative --base=$base $in
  record $d base.reverse.text.show_bytes exact --text --show_bytes --base=$in $base
  record $d base.reverse.text.drop_negative exact --text --show_bytes --drop_negative --base=$in $base
  record $d base.dot dot --dot --show_bytes --base=$base $in
  record $d sum.text.show_bytes exact --text --show_bytes $base $in
  derived_base_collapsed $d base.collapsed $base $in
  derived_base_collapsed $d base.collapsed.alloc_objects $base $in --alloc_objects
}

# one_case NAME BINARY CONF FOCUS IGNORE RETAIN EXCLUDE THREADS
one_case() {
  local name=$1 bin=$BIN/$2 conf=$3; shift 3
  local d=$OUT/$name
  echo "== $name ($conf)" >&2
  rm -rf "$d"; mkdir -p "$d/expected"
  profile "$bin" "$conf" "$d"
  symbolize "$d" before "$bin"; symbolize "$d" after "$bin"
  { echo "# made by tests/gen/make-golden.sh from $(basename "$bin") with MALLOC_CONF=$conf"
    echo "# expected/NAME.out = jeprof (5.3.0, PERL_HASH_SEED=0) with these args on *.jeprof-view.symbolized"
  } > "$d/cmd"
  matrix "$d" "$@"
}

# Cross-run --base: two runs of mt (different load addresses under ASLR), the second one
# allocating 250 more 4 KiB blocks in grow_site.  jeprof subtracts by address and prints
# nonsense here.  The expected output comes from jeprof on an identical pair of runs made
# with ASLR off (setarch -R: same addresses, so jeprof's address-keyed subtraction is
# right); the script checks that each ASLR run gives the same single-profile output as its
# no-ASLR twin, so the twins' diff is the correct diff of the ASLR runs.
crossrun_case() {
  local d=$OUT/crossrun conf="lg_prof_sample:0,prof_accum:true" r
  echo "== crossrun ($conf)" >&2
  rm -rf "$d"; mkdir -p "$d/expected" "$WORK/twin"
  for r in 1 2; do
    profile "$BIN/mt" "$conf" "$WORK" $r
    mv "$WORK/after.heap" "$d/run$r.heap"
    symbolize "$d" run$r "$BIN/mt"
    setarch "$(uname -m)" -R bash -c "$(declare -f profile); JE=$JE; profile $BIN/mt $conf $WORK/twin $r"
    mv "$WORK/twin/after.heap" "$WORK/twin/run$r.heap"
    symbolize "$WORK/twin" run$r "$BIN/mt"
    for opt in --show_bytes --alloc_objects; do
      cmp <(jeprof --text $opt "$d/run$r.jeprof-view.symbolized" 2>/dev/null) \
          <(jeprof --text $opt "$WORK/twin/run$r.jeprof-view.symbolized" 2>/dev/null) ||
        { echo "make-golden.sh: run $r differs from its no-ASLR twin" >&2; exit 1; }
    done
  done
  rm -f "$WORK"/*.heap "$WORK"/twin/*.heap
  local m1 m2
  m1=$(grep -m1 ' /tmp/jeheap-golden/bin/mt$' "$d/run1.heap" | cut -d- -f1)
  m2=$(grep -m1 ' /tmp/jeheap-golden/bin/mt$' "$d/run2.heap" | cut -d- -f1)
  [ "$m1" != "$m2" ] || { echo "make-golden.sh: both runs loaded mt at $m1 (ASLR off?)" >&2; exit 1; }
  { echo "# made by tests/gen/make-golden.sh: two ASLR runs of mt (run2: grow_site x2), MALLOC_CONF=$conf"
    echo "# derived: expected = jeprof on a no-ASLR twin pair of the same runs (see golden_symbolized.sh)"
  } > "$d/cmd"
  local opts name
  for opts in "--text" "--text --show_bytes" "--text --inuse_objects" \
              "--text --alloc_space --show_bytes" "--text --show_bytes --drop_negative" \
              "--text --show_bytes --focus=grow_site"; do
    name=base${opts//--/.}; name=${name// /}
    # shellcheck disable=SC2086
    (cd "$WORK/twin" && jeprof $opts --base=run1.jeprof-view.symbolized run2.jeprof-view.symbolized \
       > "$d/expected/$name.out" 2>/dev/null)
    printf '%s\tderived\t%s\t--base=run1.heap.symbolized\trun2.heap.symbolized\n' \
      "$name" "${opts// /$'\t'}" >> "$d/cmd"
  done
  # reversed: run1 - run2 = -grow_site
  (cd "$WORK/twin" && jeprof --text --show_bytes --base=run2.jeprof-view.symbolized run1.jeprof-view.symbolized \
     > "$d/expected/base.reverse.text.show_bytes.out" 2>/dev/null)
  printf 'base.reverse.text.show_bytes\tderived\t--text\t--show_bytes\t--base=run2.heap.symbolized\trun1.heap.symbolized\n' >> "$d/cmd"
  # by-name join: needs no twin (each file's stacks are merged by name on their own)
  base_collapsed_out "$d" base.collapsed run1.jeprof-view.symbolized run2.jeprof-view.symbolized
  printf 'base.collapsed\tderived\t--collapsed\t--base=run1.heap.symbolized\trun2.heap.symbolized\n' >> "$d/cmd"
}

# raw_case DIR NAME ARGS...: an expectation for jeheap on the RAW dumps (cmd.raw, run by
# tests/cases/golden_raw.sh). jeprof reads the .jeprof-view.symbolized form of each dump.
raw_case() {
  local dir=$1 name=$2; shift 2
  local -a vargs=() a
  local kind=exact
  for a in "$@"; do vargs+=("${a//.heap/.jeprof-view.symbolized}"); [ "$a" = --collapsed ] && kind=sorted; done
  (cd "$dir" && jeprof "${vargs[@]}" > "expected/$name.out" 2>/dev/null) ||
    { echo "make-golden.sh: raw $name: jeprof failed" >&2; exit 1; }
  [ $kind = sorted ] && sort -o "$dir/expected/$name.out" "$dir/expected/$name.out"
  [ $kind = exact ] && [ -n "${EXACT_ALTS:-}" ] && alternatives "$dir" "$name" exact "${vargs[@]}"
  local IFS=$'\t'
  printf '%s\t%s\t%s\n' "$name" $kind "$*" >> "$dir/cmd.raw"
}

# raw_all: every cmd.raw, from the committed dumps (no new profiling). Whole-profile
# outputs --ignore the two stacks through ld.so (_dl_init: the libstdc++ emergency pool,
# which addr2line misnames std::__throw_ios_failure; allocate_dtv: thread TLS), whose
# names come from nearest-symbol guesses that jeheap rightly does not make.
raw_all() {
  local c d i
  for c in mt-s0-accum mt-s12 mt-s19-accum mt-s12-nounbias mtclang-s12-accum cxx-s0-accum cxx-s12 crossrun; do
    d=$OUT/$c i=--ignore='_dl_init|allocate_dtv'
    [ -d "$d" ] || continue
    rm -f "$d"/expected/raw.*
    echo "# jeheap on the raw dumps (tests/cases/golden_raw.sh); expected = jeprof on *.jeprof-view.symbolized" > "$d/cmd.raw"
    case $c in
      mt*)
        raw_case "$d" raw.text.show_bytes --text --show_bytes "$i" after.heap
        raw_case "$d" raw.text.alloc_objects --text --alloc_objects "$i" after.heap
        raw_case "$d" raw.text.focus --text --show_bytes --focus=recurse after.heap
        raw_case "$d" raw.collapsed "$i" --collapsed after.heap
        raw_case "$d" raw.base.text.show_bytes --text --show_bytes "$i" --base=before.heap after.heap ;;
      *) ;;
    esac
    case $c in
      mt-s0-accum)
        # Discriminator noise (a jeprof failure): on raw dumps jeprof's --files keeps
        # addr2line's 'mt.c:148 (discriminator 3)' as a file of its own. Derived by hand:
        # the worker stacks without their libc frames lie wholly in mt.c, so --files has
        # one row, mt.c, flat = cum = the focused total (period 1: exact integers), taken
        # from jeprof's --text on the same selection.
        local sel=(--focus=worker '--exclude=clone3|start_thread') tot cum
        tot=$(cd "$d" && jeprof --text --show_bytes "${sel[@]}" after.jeprof-view.symbolized 2>/dev/null | head -1)
        cum=$(cd "$d" && jeprof --text --show_bytes "${sel[@]}" after.jeprof-view.symbolized 2>/dev/null |
              awk 'NR > 1 && $4 > m { m = $4 } END { print m }')
        # the path as the binary's DWARF names it, its checkout written @COMP_DIR@ (golden_bins.sh)
        printf '%s\n%8s %6s %6s %8s %6s %s\n' "$tot" "$cum" 100.0% 100.0% "$cum" 100.0% \
          "@COMP_DIR@/tests/fixtures/prog/mt.c" \
          > "$d/expected/raw.text.files.worker.out"
        printf 'raw.text.files.worker\tderived\t--text\t--show_bytes\t--files\t%s\t%s\tafter.heap\n' \
          "${sel[@]}" >> "$d/cmd.raw" ;;
    esac
    case $c in
      cxx*)
        # + the std::thread stack: addr2line names libstdc++'s thread entry after the
        # nearest exported symbol (std::error_code::default_error_condition) and _M_run
        # by its bare DWARF name; jeheap prints libstdc++.so.6.0.30+0x... and the symbol
        # table's full std::thread::_State_impl<...>::_M_run()
        i="$i|_M_invoke"
        raw_case "$d" raw.text.show_bytes --text --show_bytes "$i" after.heap
        raw_case "$d" raw.text.alloc_space.focus --text --alloc_space --show_bytes '--focus=ns::|churn' after.heap
        # --focus: the std::thread constructor's address is thread<lambda> inlined into
        # main (llvm-symbolizer, jeheap) but main inlined into main for addr2line
        raw_case "$d" raw.collapsed "$i" '--focus=ns::|churn' --collapsed after.heap ;;
      crossrun)
        # jeprof is wrong across runs: reuse the derived expectations of the symbolized pair
        # (no-ASLR twin runs; identical stacks, the ld.so ones included, cancel)
        printf '%s\tderived\t%s\n' \
          base.text.show_bytes $'--text\t--show_bytes\t--base=run1.heap\trun2.heap' \
          base.text.inuse_objects $'--text\t--inuse_objects\t--base=run1.heap\trun2.heap' \
          base.text.alloc_space.show_bytes $'--text\t--alloc_space\t--show_bytes\t--base=run1.heap\trun2.heap' \
          base.text.show_bytes.drop_negative $'--text\t--show_bytes\t--drop_negative\t--base=run1.heap\trun2.heap' \
          base.reverse.text.show_bytes $'--text\t--show_bytes\t--base=run2.heap\trun1.heap' >> "$d/cmd.raw" ;;
    esac
  done
}

# parity_threads DIR THREADS: several profiles with --thread. jeprof sums the profiles for
# the whole-process report but reads the per-thread data of the FIRST profile only (its
# Main() pops the last of its reversed file list); both orders of the two dumps.
parity_threads() {
  local d=$1 threads=$2 a=after.heap.symbolized b=before.heap.symbolized t
  record "$d" sum.text.thread=all.show_bytes exact --text --show_bytes "--thread=*" $b $a
  record "$d" sum.reverse.text.thread=all.show_bytes exact --text --show_bytes "--thread=*" $a $b
  record "$d" sum.reverse.text.thread=all.alloc_objects exact --text --alloc_objects "--thread=*" $a $b
  for t in $threads; do
    record "$d" sum.text.thread=$t.show_bytes exact --text --show_bytes --thread=$t $b $a
    record "$d" sum.reverse.text.thread=$t.show_bytes exact --text --show_bytes --thread=$t $a $b
  done
  record "$d" sum.reverse.collapsed.thread=0 sorted --collapsed --thread=0 $a $b
  record "$d" sum.reverse.dot.thread=0 dot --dot --thread=0 $a $b
}

# parity_case: a dump of tests/fixtures/prog/parity.cpp (Callback<...>::Run frames that
# jeprof renames Run#<n>, stacks made only of allocator frames) and jeprof's answers.
# Run#<n> numbers follow Perl's hash order: every output jeprof gives under 16 seeds is kept.
parity_case() {
  local d=$OUT/parity conf="lg_prof_sample:0,prof_accum:true"
  local a=after.heap.symbolized b=before.heap.symbolized
  echo "== parity ($conf)" >&2
  build_parity
  rm -rf "$d"; mkdir -p "$d/expected"
  profile "$BIN/parity" "$conf" "$d"
  symbolize "$d" before "$BIN/parity"; symbolize "$d" after "$BIN/parity"
  { echo "# made by tests/gen/make-golden.sh from parity with MALLOC_CONF=$conf"
    echo "# expected/NAME.out = jeprof (5.3.0, PERL_HASH_SEED=0) with these args on *.jeprof-view.symbolized;"
    echo "# NAME.altN.out: its outputs under other hash seeds (Run#<n> numbering)"
  } > "$d/cmd.parity"
  EXACT_ALTS=1 ALT_SEEDS=16
  record $d text exact --text $a
  record $d text.show_bytes exact --text --show_bytes $a
  record $d text.cum exact --text --cum $a
  record $d text.alloc_objects exact --text --alloc_objects $a
  record $d text.addresses.show_bytes exact --text --addresses --show_bytes $a
  record $d text.files exact --text --files $a
  record $d text.focus exact --text --show_bytes --focus=Callback $a
  record $d text.thread=all exact --text "--thread=*" $a
  record $d base.text.show_bytes exact --text --show_bytes --base=$b $a
  record $d dot dot --dot $a
  record $d dot.fractions=0 dot --dot --nodefraction=0 --edgefraction=0 $a
  record $d dot.addresses dot --dot --addresses --show_bytes $a
  record $d callgrind callgrind --callgrind $a
  record $d callgrind.alloc_objects callgrind --callgrind --alloc_objects $a
  record $d callgrind.alloc_space callgrind --callgrind --alloc_space $a
  record $d callgrind.ignore callgrind --callgrind --ignore=leaf_a $a
  record $d base.callgrind callgrind --callgrind --base=$b $a
  record $d sum.callgrind callgrind --callgrind $b $a
  record $d collapsed sorted --collapsed $a
  record $d collapsed.alloc_objects sorted --collapsed --alloc_objects $a
  parity_threads "$d" 0
  # the raw dump: jeheap symbolizes it (DWARF names: Callback<LeafA>::Run(unsigned long)
  # const -> Run#<n>; allocator frames dropped by module and by name)
  echo "# jeheap on the raw dumps (tests/cases/golden_raw.sh); expected = jeprof on *.jeprof-view.symbolized" > "$d/cmd.raw"
  raw_case "$d" raw.text.show_bytes --text --show_bytes --ignore=_dl_init after.heap
  raw_case "$d" raw.text.alloc_objects --text --alloc_objects --ignore=_dl_init after.heap
  raw_case "$d" raw.collapsed --collapsed --ignore=_dl_init after.heap
  unset EXACT_ALTS ALT_SEEDS
  mkdir -p "$OUT/bin"
  xz -9 -c "$BIN/parity" > "$OUT/bin/parity.xz"
}

# parity_all: every cmd.parity (the committed cases' dumps are used as they are)
parity_all() {
  local c
  CMDFILE=cmd.parity
  for c in mt-s0-accum mt-s12 mt-s19-accum mt-s12-nounbias mtclang-s12-accum cxx-s0-accum cxx-s12; do
    [ -d "$OUT/$c" ] || continue
    rm -f "$OUT/$c"/expected/sum.*thread=*
    echo "# jeprof-parity checks (tests/cases/golden_parity.sh); expected = jeprof on *.jeprof-view.symbolized" \
      > "$OUT/$c/cmd.parity"
    case $c in
      mt*) parity_threads "$OUT/$c" "0 1 2 3" ;;
      *) parity_threads "$OUT/$c" "0 1" ;;
    esac
  done
  parity_case
  CMDFILE=cmd
}

if [ "${1:-}" = --rederive ]; then rederive; exit 0; fi
if [ "${1:-}" = --parity ]; then mkdir -p "$WORK"; parity_all; exit 0; fi
if [ "${1:-}" = --raw ]; then raw_all; exit 0; fi
build
want() { [ ${#CASES[@]} -eq 0 ] || [[ " ${CASES[*]} " == *" $1 "* ]]; }
CASES=("$@")
mkdir -p "$OUT"
MT=("recurse" "worker" "leaf_alloc|main|worker" "inl_|small_" "0 1 2 3")
CX=("ns::" "std::vector" "main|ns::|_start" "std::" "0 1")
want mt-s0-accum         && one_case mt-s0-accum mt "lg_prof_sample:0,prof_accum:true" "${MT[@]}"
want mt-s12              && one_case mt-s12 mt "lg_prof_sample:12" "${MT[@]}"
want mt-s19-accum        && one_case mt-s19-accum mt "prof_accum:true" "${MT[@]}"
want mt-s12-nounbias     && one_case mt-s12-nounbias mt "lg_prof_sample:12,prof_unbias:false,prof_accum:true" "${MT[@]}"
want mtclang-s12-accum   && one_case mtclang-s12-accum mt-clang "lg_prof_sample:12,prof_accum:true" "${MT[@]}"
want cxx-s0-accum        && one_case cxx-s0-accum cxx "lg_prof_sample:0,prof_accum:true" "${CX[@]}"
want cxx-s12             && one_case cxx-s12 cxx "lg_prof_sample:12" "${CX[@]}"
want crossrun            && crossrun_case
raw_all
parity_all
# the binaries the raw dumps came from (their MAPPED_LIBRARIES name /tmp/jeheap-golden/bin/*),
# for raw-dump tests: xz -dc testdata/golden/bin/mt.xz > mt
if [ ${#CASES[@]} -eq 0 ]; then
  mkdir -p "$OUT/bin"
  for f in mt mt-clang cxx libjhalloc.so; do xz -9 -c "$BIN/$f" > "$OUT/bin/$f.xz"; done
fi
du -sh "$OUT" >&2
