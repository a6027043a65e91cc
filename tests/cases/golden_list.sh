#!/usr/bin/env bash
# golden_list.sh - jeheap --list=REGEX on the RAW dumps of the golden corpus against jeprof's
# recorded answers (testdata/golden/*/cmd.list, expected/list.*.out; made by
# tests/gen/make-golden-list.sh, which says how jeprof was run). jeheap symbolizes the dumps
# itself (symbol table + DWARF over each routine's whole range) and reads the fixture sources
# from the repository: the binaries' DWARF names them under the checkout they were built from
# (read by golden_bins.sh), mapped here with --path-map; the ROUTINE lines
# still name DWARF's paths, as jeprof printed them (the expected files write that directory
# @COMP_DIR@).
# Comparison: byte for byte, except that routines with equal ROUTINE lines (short names of
# template instances) are compared as a set (tests/gen/list_ties.py): jeprof prints them in
# Perl hash order. Needs neither jeprof nor jemalloc; exit 77 (skip) without xz or python3.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}" 2>/dev/null || echo "${JEHEAP:-}")
GOLDEN=$SRC/testdata/golden
BIN=/tmp/jeheap-golden/bin
TIES=$SRC/tests/gen/list_ties.py
command -v xz >/dev/null && command -v python3 >/dev/null && command -v readelf >/dev/null ||
  { echo "golden_list: SKIP: xz, python3 or readelf missing" >&2; exit 77; }
[ -x "$JEHEAP" ] || { echo "golden_list: no jeheap binary at $JEHEAP" >&2; exit 1; }
source "$SRC/tests/fixtures/golden_bins.sh"
SRCDIR=$GOLDEN_COMP_DIR/tests/fixtures/prog
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
for dir in "$GOLDEN"/*/; do
  case=$(basename "$dir")
  [ -f "$dir/cmd.list" ] || continue
  while IFS=$'\t' read -r -a f; do
    [ ${#f[@]} -ge 3 ] && [[ ${f[0]} != \#* ]] || continue
    name=${f[0]} args=("${f[@]:2}")
    (cd "$dir" && "$JEHEAP" --path-map="$SRCDIR=$SRC/tests/fixtures/prog" "${args[@]}" \
      < /dev/null > "$TMP/out" 2> "$TMP/err"); rc=$?
    # where jeprof listed nothing (exit 0), jeheap says why in one line and exits 4
    if [ $rc -eq 4 ] && [ ! -s "$dir/expected/$name.out" ] && [ ! -s "$TMP/out" ] &&
      grep -q '^jeheap: nothing to show: no sampled function matches --list=' "$TMP/err"; then
      rc=0
    fi
    sed "s|@COMP_DIR@|$GOLDEN_COMP_DIR|g" "$dir/expected/$name.out" | python3 "$TIES" > "$TMP/exp.t"
    python3 "$TIES" < "$TMP/out" > "$TMP/out.t"
    if [ $rc -eq 0 ] && cmp -s "$TMP/exp.t" "$TMP/out.t" && ! grep -q 'fixtures/prog.*cannot open' "$TMP/err"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "FAIL $case/$name: jeheap ${args[*]} (exit $rc)"
      grep -v '^jeheap: [0-9.]*% of bytes fully symbolized' "$TMP/err" | head -3 | sed 's/^/  stderr: /'
      diff -u --label expected --label jeheap "$TMP/exp.t" "$TMP/out.t" | head -40
    fi
  done < "$dir/cmd.list"
done
echo "$pass passed, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
