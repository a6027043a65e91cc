#!/usr/bin/env bash
# pprof_roundtrip.sh - --proto of dumps of programs as Debian ships them (git, redis-server,
# python3.11 under Debian's libjemalloc: tests/fixtures/debian_dumps.sh), whose frames are
# partly unnamed (stripped binaries), read back:
#   - gives the dump's own --collapsed and --text exactly (names per location: an unnamed
#     frame is a Location without Line, symbolized again from its mapping's file);
#   - no Function is named "??", and some Location has no Line (the unnamed frames);
#   - Go's pprof reads the same stacks (-traces; an unnamed frame is its mapping, [libname]);
# and Go's runtime's own heap profile (pprof.Lookup("heap").WriteTo, whose first field is
# period_type, not sample_type) is read as a profile.proto with its names, as Go reads it.
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
mkdir -p "$TMP/goheap"
cat > "$TMP/goheap/main.go" <<'GO'
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var keep [][]byte

func alloc(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 4096))
	}
}

func main() {
	runtime.MemProfileRate = 1
	alloc(2000)
	runtime.GC()
	f, _ := os.Create(os.Args[1])
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
}
GO
n=$((n + 1))
if (cd "$TMP/goheap" && GO111MODULE=off go run main.go "$TMP/go.pb.gz") > "$TMP/err" 2>&1; then
  "$JEHEAP" --quiet --collapsed "$TMP/go.pb.gz" > "$TMP/collapsed" 2> "$TMP/err" ||
    fail "Go heap profile: exit $?: $(head -2 "$TMP/err")"
  go tool pprof -symbolize=none -unit=B -traces -sample_index=inuse_space "$TMP/go.pb.gz" \
    > "$TMP/traces" 2>/dev/null
  python3 "$ORACLE" traces "$TMP/collapsed" "$TMP/traces" > "$TMP/why" ||
    { fail "Go heap profile: pprof -traces differs"; head -5 "$TMP/why"; }
  grep -q 'main\.alloc' "$TMP/collapsed" || fail "Go heap profile: no main.alloc"
else
  fail "Go heap profile: go run: $(head -3 "$TMP/err")"
fi
echo "pprof_roundtrip: ${#DEB_DUMPS[@]} Debian dumps and a Go heap profile, $fails failed"
[ "$fails" -eq 0 ]
