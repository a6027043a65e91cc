#!/usr/bin/env bash
# pprof_roundtrip.sh - --proto of dumps of programs as Debian ships them (git, redis-server,
# python3.11 under Debian's libjemalloc: tests/fixtures/debian_dumps.sh), whose frames are
# partly unnamed (stripped binaries), read back:
#   - gives the dump's own --collapsed and --text exactly (names per location: an unnamed
#     frame is a Location without Line, symbolized again from its mapping's file);
#   - no Function is named "??", and some Location has no Line (the unnamed frames);
#   - Go's pprof reads the same stacks (-traces; an unnamed frame is its mapping, [libname]).
NAME=pprof_roundtrip
source "${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fixtures/go_pprof_env.sh"
source "$SRC/tests/fixtures/debian_dumps.sh"
fails=0 n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
[ -z "$DEB_MISSING" ] || fail "no dump of:$DEB_MISSING (scripts/setup installs them)"

for w in "${DEB_DUMPS[@]}"; do
  name=${w%%=*} dump=${w#*=}
  n=$((n + 1))
  "$JEHEAP" --quiet --proto "$dump" > "$TMP/p.pb.gz" || { fail "$name: --proto"; continue; }
  "$JEHEAP" --quiet --collapsed "$dump" > "$TMP/want.c"
  grep -q '+0x[0-9a-f]*;\|+0x[0-9a-f]* ' "$TMP/want.c" || fail "$name: no unnamed frame to test"
  for mode in collapsed text; do
    "$JEHEAP" --quiet --$mode "$dump" > "$TMP/want" 2>&1
    "$JEHEAP" --quiet --$mode "$TMP/p.pb.gz" > "$TMP/got" 2>&1
    cmp -s "$TMP/want" "$TMP/got" ||
      { fail "$name: --$mode of the --proto differs"; diff "$TMP/want" "$TMP/got" | head -4 | cut -c1-200; }
  done
  python3 - "$TMP/p.pb.gz" <<'PY' || fail "$name: the proto's unnamed frames"
import gzip, sys
data = gzip.open(sys.argv[1]).read()
def fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        t = k & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 2:
            ln, i = varint(b, i)
            v, i = b[i:i + ln], i + ln
        else:
            raise SystemExit("wire type %d" % t)
        yield k >> 3, v
def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1
        r |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return r, i
top = list(fields(data))
strings = [v.decode() for f, v in top if f == 6]
fn_names = [strings[dict(fields(v)).get(2, 0)] for f, v in top if f == 5]
bare = sum(1 for f, v in top if f == 4 and not any(g == 4 for g, _ in fields(v)))
if "??" in fn_names or "" in fn_names:
    sys.exit("a function named '??' or ''")
if not bare:
    sys.exit("no location without lines")
PY
  "$JEHEAP" --quiet --collapsed "$dump" > "$TMP/collapsed"
  go tool pprof -symbolize=none -unit=B -traces -sample_index=inuse_space "$TMP/p.pb.gz" \
    > "$TMP/traces" 2>/dev/null || { fail "$name: go tool pprof -traces"; continue; }
  python3 "$ORACLE" traces "$TMP/collapsed" "$TMP/traces" > "$TMP/why" ||
    { fail "$name: pprof -traces differs"; head -5 "$TMP/why"; }
done
echo "pprof_roundtrip: ${#DEB_DUMPS[@]} Debian dumps, $fails failed"
[ "$fails" -eq 0 ]
