#!/usr/bin/env bash
# static_check.sh STATIC-BUILD RELEASE-BUILD: the JEHEAP_STATIC build (scripts/test)
#   - needs no shared library but the C library's (ldd: libc, libm, libpthread, the loader);
#   - gives jeprof's golden --text on a .symbolized dump, and the release build's output
#     on a raw dump symbolized against its committed binaries (libelf/libdwarf/zlib inside);
#   - cmake --install puts the binary, the man page and the bash completion in place, and
#     the completion offers exactly the option table's options;
#   - cpack makes a .deb that depends on libc6 alone, holding those files.
set -uo pipefail
export LC_ALL=C
S=$(realpath "$1") R=$(realpath "$2")
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL static: $*"; fails=$((fails + 1)); }

# 1. shared libraries
ldd "$S/jeheap" | awk '{print $1}' > "$T/ldd"
bad=$(grep -Ev '^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|/lib64/ld-linux-x86-64\.so\.2)$' "$T/ldd")
[ -z "$bad" ] || fail "links shared libraries: $(echo $bad)"

# 2. outputs
G=$SRC/testdata/golden/cxx-s12
(cd "$G" && "$S/jeheap" --text --show_bytes after.heap.symbolized) > "$T/text" 2>/dev/null
cmp -s "$T/text" "$G/expected/text.show_bytes.out" || fail "--text differs from jeprof's golden"
source "$SRC/tests/fixtures/golden_bins.sh"
for b in "$S" "$R"; do
  (cd "$SRC/testdata/golden/mt-s12" && "$b/jeheap" --quiet --text --lines after.heap) > "$T/raw.$(basename "$b")" 2>&1
done
cmp -s "$T/raw.$(basename "$S")" "$T/raw.$(basename "$R")" ||
  fail "--text --lines of a raw dump differs from the release build's"
grep -q 'mt\.c:' "$T/raw.$(basename "$S")" || fail "the raw dump's lines were not symbolized"

# 3. install and completion
DESTDIR=$T/root cmake --install "$S" --prefix /usr > /dev/null || fail "cmake --install"
for f in usr/bin/jeheap usr/share/man/man1/jeheap.1 usr/share/bash-completion/completions/jeheap; do
  [ -s "$T/root/$f" ] || fail "not installed: /$f"
done
bash -c '
  source "$1"
  complete -p jeheap >/dev/null || exit 1
  try() { COMP_WORDS=(jeheap "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _jeheap; }
  try --coll;        [ "${COMPREPLY[*]}" = "--collapsed" ] || { echo "--coll: ${COMPREPLY[*]}"; exit 1; }
  try --outp;        [ "${COMPREPLY[*]}" = "--output=" ] || { echo "--outp: ${COMPREPLY[*]}"; exit 1; }
  try --;            printf "%s\n" "${COMPREPLY[@]}" | sed "s/=\$//" | sort > "$2/offered"
  cd "$3" && try --base = aft; [ "${COMPREPLY[*]}" = "after.heap after.heap.symbolized after.jeprof-view.symbolized" ] ||
    { echo "--base=aft: ${COMPREPLY[*]}"; exit 1; }
' _ "$T/root/usr/share/bash-completion/completions/jeheap" "$T" "$G" > "$T/comp" 2>&1 ||
  fail "bash completion: $(cat "$T/comp")"
python3 - "$SRC/src/cli/options.c" "$T/offered" > "$T/optdiff" <<'PY' || fail "completion: $(cat "$T/optdiff")"
import re, sys
table = re.search(r'static const struct opt opts\[\] = \{(.*?)\n\};', open(sys.argv[1]).read(), re.S)
names = sorted('--' + n for n in re.findall(r'\{ "([^"]+)", K_', table.group(1)))
offered = open(sys.argv[2]).read().split()
if names != sorted(offered):
    print('offers', len(offered), 'of', len(names), 'options:', sorted(set(names) ^ set(offered))[:10])
    sys.exit(1)
PY

# 4. the .deb
if (cd "$S" && cpack -G DEB -B "$T/deb" > "$T/cpack.log" 2>&1); then
  deb=$(ls "$T"/deb/*.deb | head -1)
  dep=$(dpkg-deb -f "$deb" Depends)
  [[ "$dep" =~ ^libc6( \(>= [0-9.]+\))?$ ]] || fail ".deb Depends: '$dep' (libc6 alone expected)"
  dpkg-deb -c "$deb" > "$T/contents"
  for f in ./usr/bin/jeheap ./usr/share/man/man1/jeheap.1 ./usr/share/bash-completion/completions/jeheap; do
    grep -q " $f\$" "$T/contents" || fail ".deb lacks $f"
  done
else
  fail "cpack: $(tail -3 "$T/cpack.log")"
fi
echo "static build: ldd $(tr '\n' ' ' < "$T/ldd"); $fails failed"
[ $fails -eq 0 ]
