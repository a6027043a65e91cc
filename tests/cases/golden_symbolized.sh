#!/usr/bin/env bash
# golden_symbolized.sh - jeheap against jeprof's recorded answers on real jemalloc dumps.
#
# For every case in testdata/golden/ and every line of its `cmd` file
# (NAME<TAB>KIND<TAB>args...), runs `$JEHEAP args...` inside the case directory and compares
# with expected/NAME.out:
#   exact      byte for byte;
#   sorted     byte for byte with jeprof's --collapsed lines sorted (LC_ALL=C): jeheap prints
#              collapsed stacks sorted, jeprof in Perl hash order;
#   dot        node/legend lines byte for byte, edge lines as a multiset (jeprof orders
#              equal-weight edges by hash order); stderr must contain expected/NAME.err;
#   callgrind  records as a multiset after expanding the '(n) name' compression (on symbolized
#              input every record ties in jeprof's sort, so its order is hash order);
#   fails      jeprof refused (e.g. --lines without a binary, dot with no nodes): jeheap
#              must exit non-zero and print nothing on stdout;
#   derived    jeprof is known wrong here; the expected output was derived, not copied:
#              * crossrun/base.*: two runs of one binary have different load addresses, so
#                jeprof's --base, keyed by address, subtracts nothing: every stack of run1
#                becomes a negative stack next to run2's positive one. --text happens to
#                cancel by name on symbolized input, but --drop_negative clamps run1's
#                stacks to 0 (jeprof prints all of run2: Total 30725568 B) and --collapsed
#                prints each stack twice with opposite signs (on raw dumps jeprof also
#                names run2's frames in hex). Correct is that identical allocation patterns
#                cancel: expected = jeprof on a twin pair of the same two runs made with
#                ASLR off (same addresses, so jeprof is right there); only grow_site's extra
#                250 x 4096 B remain (hand check: Total 1024000 B, 250 objects).
#              * */base.collapsed*: with --base jeheap prints two non-negative columns
#                'stack before after' (flamegraph.pl/difffolded.pl drop negative counts),
#                joined from jeprof's --collapsed of each file (tests/gen/join_collapsed.py),
#                each made on a copy whose same-named frames share one address
#                (alloc_view.py --merge-names): stacks that read the same are one row, their
#                scaled values summed before truncation (clang unrolls recurse's loop into
#                15 call sites: 15 x int(6437.5) = 96555 would be wrong, int(sum) = 96562).
# All expected outputs were made on copies of the inputs whose libjemalloc frames are named
# 'malloc' (*.jeprof-view.symbolized): Debian's stripped jemalloc makes addr2line call them
# 'malloc_usable_size'/'??', which jeprof would wrongly keep on top of every stack; jeheap
# drops all leading allocator-library frames (see testdata/golden/README.md).
#
# Env: JEHEAP (binary), JH_SRC (source dir); GOLDEN_ONLY=REGEX limits to matching
# "case/NAME"s; GOLDEN_INPUT=view (diagnostic) gives jeheap the *.jeprof-view.symbolized
# files jeprof read, which separates allocator-frame handling from everything else.
# Used by golden_raw.sh with GOLDEN_CMD=cmd.raw (the raw-dump command lists) and
# GOLDEN_NAMES=oracle (names normalised where the name oracles disagree, see there).
# Prints a short unified diff per failure and 'N passed, N failed'.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}" 2>/dev/null || echo "${JEHEAP:-}")
GOLDEN=$SRC/testdata/golden
NORM=$SRC/tests/gen/normalize.py
[ -x "$JEHEAP" ] || { echo "golden_symbolized: no jeheap binary at $JEHEAP" >&2; exit 1; }

CMD=${GOLDEN_CMD:-cmd}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# names(FILE, KIND): applies GOLDEN_NAMES=oracle in place (normalize.py names)
names() {
  local mode=names
  [ "$2" = sorted ] && mode=names-sorted
  python3 "$NORM" $mode < "$1" > "$1.n" && mv "$1.n" "$1"
}
pass=0; fail=0; failed=()

# Where jeprof printed nothing, or only zeros (--collapsed/--callgrind --alloc_space without
# prof_accum), with exit 0, jeheap says why in one line, prints nothing and exits 4 (an
# empty answer is said): true in that case ($rc, $exp, $out, $err of the case).
nothing_to_show() {
  [ $rc -eq 4 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] &&
    grep -q '^jeheap: nothing to show: ' "$err" &&
    awk '!/^(events:|c?f[ln]=)/ && NF && $NF != 0 { exit 1 }' "$exp"
}
show_diff() { # EXPECTED ACTUAL: at most 40 lines of unified diff
  diff -u --label expected --label jeheap "$1" "$2" | head -40
}

for dir in "$GOLDEN"/*/; do
  case=$(basename "$dir")
  [ -f "$dir/$CMD" ] || continue
  while IFS=$'\t' read -r -a f; do
    [ ${#f[@]} -ge 3 ] && [[ ${f[0]} != \#* ]] || continue
    name=${f[0]} kind=${f[1]} args=("${f[@]:2}")
    [ "${GOLDEN_INPUT:-}" = view ] && args=("${args[@]//.heap.symbolized/.jeprof-view.symbolized}")
    [ -n "${GOLDEN_ONLY:-}" ] && ! [[ "$case/$name" =~ $GOLDEN_ONLY ]] && continue
    exp=$dir/expected/$name.out
    out=$TMP/out err=$TMP/err
    # fixture source paths: the checkout the binaries were built from (set by golden_bins.sh)
    if grep -q '@COMP_DIR@' "$exp"; then
      sed "s|@COMP_DIR@|${GOLDEN_COMP_DIR:?}|g" "$exp" > "$TMP/exp.dir"; exp=$TMP/exp.dir
    fi
    (cd "$dir" && "$JEHEAP" "${args[@]}" < /dev/null > "$out" 2> "$err"); rc=$?
    if [ "${GOLDEN_NAMES:-}" = oracle ]; then
      cp "$exp" "$TMP/exp.names"; exp=$TMP/exp.names
      names "$exp" "$kind"; names "$out" "$kind"
    fi
    ok=1 why=""
    case $kind in
      exact|sorted|derived)
        if nothing_to_show; then rc=0; : > "$TMP/empty"; exp=$TMP/empty; fi
        [ $rc -eq 0 ] || { ok=0; why="exit $rc"; }
        same=0
        # NAME.altN.out: jeprof's other answers under other hash seeds (cmd.parity:
        # Run#<n> numbers are given in hash order); any of them is accepted
        for e in "$exp" "$dir/expected/$name".alt*.out; do
          [ -f "$e" ] || continue
          if [ "$e" != "$exp" ] && [ "${GOLDEN_NAMES:-}" = oracle ]; then
            cp "$e" "$TMP/alt.names"; names "$TMP/alt.names" "$kind"; e=$TMP/alt.names
          fi
          cmp -s "$e" "$out" && { same=1; break; }
        done
        [ $same = 1 ] || ok=0 ;;
      dot|callgrind)
        if nothing_to_show; then rc=0; : > "$TMP/empty"; exp=$TMP/empty; : > "$out"; fi
        [ $rc -eq 0 ] || { ok=0; why="exit $rc"; }
        # NAME.altN.out: other answers jeprof gives under other hash seeds (tie order
        # decides which edges --maxdegree keeps); any of them is accepted
        python3 "$NORM" $kind < "$out" > "$TMP/out.n"
        same=0
        for e in "$exp" "$dir/expected/$name".alt*.out; do
          [ -f "$e" ] || continue
          python3 "$NORM" $kind < "$e" > "$TMP/exp.n"
          cmp -s "$TMP/exp.n" "$TMP/out.n" && { same=1; break; }
        done
        if [ $same = 0 ]; then
          ok=0; python3 "$NORM" $kind < "$exp" > "$TMP/exp.n"; exp=$TMP/exp.n; out=$TMP/out.n
        fi
        if [ -f "$dir/expected/$name.err" ]; then
          while IFS= read -r line; do
            grep -qxF -- "$line" "$err" || { ok=0; why="${why:+$why; }stderr lacks '$line'"; }
          done < "$dir/expected/$name.err"
        fi ;;
      fails)
        [ $rc -ne 0 ] || { ok=0; why="exit 0, jeprof refused this"; }
        [ ! -s "$out" ] || { ok=0; why="${why:+$why; }stdout not empty"; } ;;
      *) ok=0; why="unknown kind '$kind'" ;;
    esac
    if [ $ok = 1 ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); failed+=("$case/$name")
      echo "FAIL $case/$name ($kind): jeheap ${args[*]}${why:+ -- $why}"
      [ -s "$err" ] && sed 's/^/  stderr: /' "$err" | head -3
      [ "$kind" != fails ] && show_diff "$exp" "$out"
    fi
  done < "$dir/$CMD"
done
[ $fail -eq 0 ] || printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed"
[ $((pass + fail)) -gt 0 ] || { echo "golden: no cases found under $GOLDEN ($CMD)" >&2; exit 1; }
[ $fail -eq 0 ]
