#!/usr/bin/env bash
# golden_raw.sh - jeheap on the RAW dumps of the golden corpus (it symbolizes them itself)
# against the expected outputs made from their .symbolized forms (names from addr2line -i
# on the same binaries; allocator frames removed, see testdata/golden/README.md).
# Only option sets whose frames are the fixtures' own code (+ libc's entry frames) are
# used: --focus keeps out frames that addr2line names wrongly (the libstdc++ emergency
# pool, which it calls std::__throw_ios_failure), where jeheap need not agree.
# Checks: allocator frames gone on raw input (leaf_alloc/new[] callers on top, not
# malloc_usable_size), inline frames and C++ names equal addr2line's, and cross-run --base
# on raw dumps with different load addresses cancelling to grow_site's 250 x 4096 B.
# The dumps name their binaries /tmp/jeheap-golden/bin/*; this test puts the committed
# binaries (testdata/golden/bin/*.xz) there.
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}" 2>/dev/null || echo "${JEHEAP:-}")
GOLDEN=$SRC/testdata/golden
BIN=/tmp/jeheap-golden/bin
command -v xz >/dev/null || { echo "golden_raw: SKIP: xz missing" >&2; exit 77; }
mkdir -p "$BIN"
for f in "$GOLDEN"/bin/*.xz; do
  b=$BIN/$(basename "$f" .xz)
  xz -dc "$f" | cmp -s - "$b" 2>/dev/null || { xz -dc "$f" > "$b.$$.tmp" && chmod +x "$b.$$.tmp" && mv "$b.$$.tmp" "$b"; }
done

TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; fail=0
check() { # CASE EXPECTED-NAME ARGS... (run in the case dir)
  local c=$1 name=$2; shift 2
  (cd "$GOLDEN/$c" && "$JEHEAP" "$@" > "$TMP/out" 2> "$TMP/err"); local rc=$?
  if [ $rc -eq 0 ] && cmp -s "$GOLDEN/$c/expected/$name.out" "$TMP/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $c: jeheap $* (exit $rc) vs expected/$name.out"
    head -3 "$TMP/err" | sed 's/^/  stderr: /'
    diff -u --label expected --label jeheap "$GOLDEN/$c/expected/$name.out" "$TMP/out" | head -30
  fi
}
for c in mt-s0-accum mt-s12 mt-s19-accum mt-s12-nounbias mtclang-s12-accum; do
  check $c text.focus --text --show_bytes --focus=recurse after.heap
  check $c text.focus.alloc_objects --text --alloc_objects --focus=recurse after.heap
done
for c in cxx-s0-accum cxx-s12; do
  check $c text.focus --text --show_bytes '--focus=ns::' after.heap
done
# the program argument given explicitly (instead of taken from MAPPED_LIBRARIES)
check mt-s12 text.focus --text --show_bytes --focus=recurse "$BIN/mt" after.heap
# cross-run --base: run1 and run2 were loaded at different addresses
check crossrun base.text.show_bytes.focus=grow_site --text --show_bytes --focus=grow_site \
  --base=run1.heap run2.heap
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
