#!/usr/bin/env bash
# pprof_jemalloc_pprof.sh - profiles as Rust's jemalloc_pprof crate writes them, in each form
# it has written (tests/tools/jemalloc_pprof_gen.py, from the crate's source: 0.7, 2025-07,
# 2025-11, 0.8), made from real heap_v2 dumps: the golden dumps of the fixture programs and
# fresh dumps of Debian's git, redis-server and python3.11 (tests/fixtures/debian_dumps.sh).
#   - every form gives the dump's own --collapsed (its stacks with nothing in use aside: the
#     crate writes in-use data), with no warning that a mapped file is not the one mapped;
#   - the crate's `symbolize` feature (Lines with names) on a third of the addresses, a
#     function named "??" on another third: the names are kept, the locations without one
#     are symbolized from the files (each on its own), same --collapsed again;
#   - 2025-07 wrote file offsets where the others write ELF addresses, and the file cannot
#     tell: read as ELF addresses, a binary whose code is not at its file offset (Debian's
#     python3.11 is not PIE) is said to differ, never given wrong names.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
GEN=$SRC/tests/tools/jemalloc_pprof_gen.py
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
source "$SRC/tests/fixtures/debian_dumps.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
[ -z "$DEB_MISSING" ] || fail "no dump of:$DEB_MISSING (scripts/setup installs them)"

# exec_at_offset FILE: its executable segments are at their file offsets (p_vaddr = p_offset)
exec_at_offset() {
  readelf -lW "$1" | awk '$1 == "LOAD" && / E / {print $2, $3}' | while read -r o v; do
    [ $((o)) = $((v)) ] || return 1
  done
}

# one NAME DIR DUMP: every form of DUMP (run in DIR) against the dump's --collapsed
one() {
  local name=$1 dir=$2 dump=$3
  (cd "$dir" && "$JEHEAP" --quiet --collapsed "$dump" | grep -v ' 0$') > "$TMP/want" ||
    { fail "$name: the dump's --collapsed"; return; }
  for form in 0.7 2025-07 2025-11 0.8; do
    n=$((n + 1))
    python3 "$GEN" "$dump" "$TMP/c.pb.gz" --form $form || { fail "$name $form: generator"; continue; }
    (cd "$dir" && "$JEHEAP" --collapsed "$TMP/c.pb.gz" > "$TMP/got" 2> "$TMP/err") ||
      { fail "$name $form: exit $?: $(head -2 "$TMP/err")"; continue; }
    grep -q 'is not the file that was mapped' "$TMP/err" &&
      fail "$name $form: $(grep -m1 'is not the file' "$TMP/err")"
    if [ $form = 2025-07 ]; then
      local off=1 p
      for p in $(awk '/^MAPPED_LIBRARIES:/{m=1} m && $2 ~ /x/ && $6 ~ /^\//{print $6}' "$dump" | sort -u); do
        [ -r "$p" ] && ! exec_at_offset "$p" && off=0 &&
          { grep -q "^jeheap: warning: $p differs from the program that ran" "$TMP/err" ||
            fail "$name $form: $p (code not at its file offset) not said to differ"; }
      done
      [ $off = 0 ] && continue
    fi
    cmp -s "$TMP/want" "$TMP/got" ||
      { fail "$name $form: --collapsed differs"; diff "$TMP/want" "$TMP/got" | head -4 | cut -c1-300; }
  done
  # the symbolize feature: names (the dump's own, from a .symbolized) on every other address
  n=$((n + 1))
  (cd "$dir" && "$JEHEAP" --quiet --raw "$dump" > "$TMP/sym.heap") || { fail "$name: --raw"; return; }
  # (names of unknown frames, module+0xOFF, are no names: backtrace-rs gives none)
  # one address in three: its names; one in three: a function named "??" (no name, as a
  # symbolizer that found none may write it)
  awk '/^--- symbol/{s=1;next} /^---/{s=0} s && /^0x/ && !/\+0x[0-9a-f]+$/ && (k++ % 3) {
    a = $1; sub(/^[^ ]+ /, ""); printf "%s\t%s\n", a, k % 3 ? $0 : "??"}' "$TMP/sym.heap" \
    > "$TMP/names.tsv"
  python3 "$GEN" "$dump" "$TMP/s.pb.gz" --form 0.8 --symbolize "$TMP/names.tsv" ||
    { fail "$name symbolize: generator"; return; }
  (cd "$dir" && "$JEHEAP" --collapsed "$TMP/s.pb.gz" > "$TMP/got" 2> "$TMP/err") ||
    { fail "$name symbolize: exit $?"; return; }
  cmp -s "$TMP/want" "$TMP/got" ||
    { fail "$name symbolize: --collapsed differs"; diff "$TMP/want" "$TMP/got" | head -4 | cut -c1-300; }
}

# one dump per fixture folder (the others are more of the same programs)
for d in "$SRC"/testdata/golden/*/; do
  f=$(ls "$d"*.heap 2>/dev/null | head -1)
  [ -n "$f" ] || continue
  one "$(basename "$(dirname "$f")")/$(basename "$f")" "$(dirname "$f")" "$f"
done
for w in "${DEB_DUMPS[@]}"; do
  one "${w%%=*}" "$TMP" "${w#*=}"
done
echo "pprof_jemalloc_pprof: $n cases, $fails failed"
[ "$fails" -eq 0 ]
