#!/usr/bin/env bash
# pprof_buildid.sh - unsymbolized pprof input finds its modules by build ID first
# (Mapping.build_id; src/symbolize/sym_module.c jh_module_open_id):
#   - the program's mapping names a path that does not exist and its debug file (objcopy
#     --only-keep-debug: .symtab and DWARF, no code) is only at DIR/.build-id/xx/rest.debug:
#     with --debug-dir=DIR the profile gives the raw dump's own --collapsed;
#   - a build ID that no file has: the module stays unresolved, one warning naming the ID;
#   - the path exists but its file has another build ID than the profile's: not used, one
#     warning naming both IDs (before build IDs were read, the file was used as it is).
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
for t in readelf objcopy python3; do
  command -v $t >/dev/null || { echo "pprof_buildid: SKIP: $t missing" >&2; exit 77; }
done
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
source "$SRC/tests/fixtures/golden_bins.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
GEN=$SRC/tests/tools/make_unsym_pprof.py
BADID=00112233445566778899aabbccddeeff00112233

cd "$SRC/testdata/golden" || exit 1
# unresolved WHAT WARNING GEN-ARGS...: the profile made with GEN-ARGS gives exactly WARNING
# and leaves the program's frames as offsets (output in $TMP/got)
unresolved() {
  local what=$1 w=$2
  shift 2
  n=$((n + 1))
  python3 "$GEN" "$f" "$TMP/w.pb.gz" "$@"
  (cd "$d" && "$JEHEAP" --collapsed "${dirs[@]}" "$TMP/w.pb.gz" > "$TMP/got" 2> "$TMP/err") ||
    fail "$d: $what: exit $?"
  [ "$(grep -c warning "$TMP/err")" = 1 ] && grep -qxF "$w" "$TMP/err" ||
    fail "$d: $what: $(head -3 "$TMP/err")"
  grep -q "$(basename "$prog")+0x" "$TMP/got" || fail "$d: $what: frames not left as offsets"
}
for d in cxx-s12 mt-s12 mtclang-s12-accum; do
  f=$(ls "$d"/*.heap | head -1) b=$(basename "$f")
  prog=$(grep -m1 -o '/tmp/jeheap-golden/bin/[^ ]*$' "$f")
  id=$(readelf -n "$prog" | sed -n 's/.*Build ID: \([0-9a-f]*\)/\1/p')
  [ -n "$id" ] || { fail "$d: $prog has no build ID"; continue; }
  dbg=$TMP/dbg-$d
  mkdir -p "$dbg/.build-id/${id:0:2}"
  objcopy --only-keep-debug "$prog" "$dbg/.build-id/${id:0:2}/${id:2}.debug"
  # /usr/lib/debug too, as the raw dump's run uses it (libc's debug files)
  dirs=(--debug-dir="$dbg" --debug-dir=/usr/lib/debug)
  gone=$TMP/gone/$(basename "$prog")

  n=$((n + 1))
  python3 "$GEN" "$f" "$TMP/u.pb.gz" --rename "$prog=$gone" || { fail "$d: generator"; continue; }
  (cd "$d" && "$JEHEAP" --quiet --collapsed "$b" | grep -v ' 0$' > "$TMP/want")
  (cd "$d" && "$JEHEAP" --collapsed "${dirs[@]}" "$TMP/u.pb.gz" > "$TMP/got" 2> "$TMP/err") ||
    fail "$d: by build ID: exit $?"
  cmp -s "$TMP/want" "$TMP/got" ||
    { fail "$d: by build ID: --collapsed differs"; diff "$TMP/want" "$TMP/got" | head -5 | cut -c1-200; }
  grep -q "warning" "$TMP/err" && fail "$d: by build ID: $(grep warning "$TMP/err")"
  # without the debug dir: not found, and the frames say so
  "$JEHEAP" --collapsed "$TMP/u.pb.gz" > "$TMP/got" 2> "$TMP/err"
  [ "$(grep -c "^jeheap: warning: 1 mapped file not found here: $gone; " "$TMP/err")" = 1 ] ||
    fail "$d: no debug dir: $(head -2 "$TMP/err")"

  tried="$dbg/.build-id/00/${BADID:2}.debug, /usr/lib/debug/.build-id/00/${BADID:2}.debug"
  unresolved "wrong ID" "jeheap: warning: 1 mapped file not found here: $gone; its frames stay unresolved (--sysroot, --path-map or --lib_prefix point at copies; --verbose says what was tried)" \
    --rename "$prog=$gone" --build-id "$prog=$BADID"
  cmp -s "$TMP/want" "$TMP/got" && fail "$d: wrong ID: symbolized all the same"
  unresolved "other file" "jeheap: warning: $prog: $prog has build ID $id, not the profile's $BADID (tried: $tried, $prog); its frames stay unresolved" \
    --build-id "$prog=$BADID"
done
echo "pprof_buildid: $n checks, $fails failed"
[ "$fails" -eq 0 ]
