#!/usr/bin/env bash
# diff_base_pprof.sh - --diff_base=F against Go's pprof -diff_base: F is
# subtracted as --base does, and --text's percentages are of F's total, as pprof's (of the
# size of each change: a percentage has no sign, sum% adds the sizes); changes carry their
# sign (+/-). On golden dump pairs, both ways round (growth and shrinkage):
# every function both print has the same flat% and cum% (jeheap %.1f, pprof %.2f) and the
# same sign; the Total line names the base's total (its --text --show_bytes Total).
set -uo pipefail
export LC_ALL=C
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
command -v go >/dev/null || { echo "diff_base_pprof: SKIP: go missing (golang-go)" >&2; exit 77; }
TMP=$(mktemp -d /tmp/jh_diffbase.XXXXXX); trap 'rm -rf "$TMP"' EXIT
export HOME=$TMP/home GOCACHE=$TMP/gocache GOPATH=$TMP/gopath GOFLAGS= GOPROXY=off
fails=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
for c in mt-s12 cxx-s12; do
  cd "$SRC/testdata/golden/$c" || exit 1
  for dir in "before after" "after before"; do
    set -- $dir
    b=$1.heap.symbolized p=$2.heap.symbolized
    "$JEHEAP" --quiet --proto "$b" > "$TMP/b.pb.gz" && "$JEHEAP" --quiet --proto "$p" > "$TMP/p.pb.gz" ||
      { fail "$c: --proto"; continue; }
    go tool pprof -top -symbolize=none -nodecount=1000 -nodefraction=0 -edgefraction=0 \
      -sample_index=inuse_space -diff_base="$TMP/b.pb.gz" "$TMP/p.pb.gz" > "$TMP/pprof" 2>/dev/null ||
      { fail "$c: go tool pprof"; continue; }
    "$JEHEAP" --quiet --text --diff_base="$b" "$p" > "$TMP/jeheap" || { fail "$c $1->$2: jeheap"; continue; }
    base=$("$JEHEAP" --quiet --text --show_bytes "$b" | sed -n 's/^Total: \([0-9]*\) B$/\1/p')
    "$JEHEAP" --quiet --text --show_bytes --diff_base="$b" "$p" | head -1 | grep -Eq "^Total: [+-][0-9]+ B \(base: $base B\)$" ||
      fail "$c $1->$2: Total line does not name the base's total $base"
    python3 - "$TMP/jeheap" "$TMP/pprof" "$c $1->$2" <<'PY' || fail "$c $1->$2: percentages"
import re, sys
def rows(path, pprof):
    out = {}
    for line in open(path):
        if pprof:
            m = re.match(r'^\s*(-?[\d.]+\w*)\s+(-?[\d.]+)%\s+\S+\s+(-?[\d.]+\w*)\s+(-?[\d.]+)%\s+(.*)$', line)
        else:
            m = re.match(r'^\s*([+-]?[\d.]+)\s+([\d.]+)%\s+\S+\s+([+-]?[\d.]+)\s+([\d.]+)%\s(.*)$', line)
        if m:
            out[m.group(5)] = (m.group(1), float(m.group(2)), m.group(3), float(m.group(4)))
    return out
j, p = rows(sys.argv[1], False), rows(sys.argv[2], True)
common = set(j) & set(p)
bad = 0
if len(common) < 5:
    print(f"{sys.argv[3]}: only {len(common)} functions in common"); sys.exit(1)
for name in sorted(common):
    jf, jfp, jc, jcp = j[name]
    pf, pfp, pc, pcp = p[name]
    for what, a, b in (("flat%", jfp, pfp), ("cum%", jcp, pcp)):
        if abs(a - b) > 0.051:
            print(f"{sys.argv[3]}: {name}: {what} jeheap {a} pprof {b}"); bad += 1
    for what, jv, pv in (("flat", jf, pf), ("cum", jc, pc)):
        jneg, pneg = jv.startswith("-"), pv.startswith("-")
        jzero = float(jv.lstrip("+-")) == 0
        if not jzero and (jneg != pneg or (not jneg and not jv.startswith("+"))):
            print(f"{sys.argv[3]}: {name}: {what} sign: jeheap {jv} pprof {pv}"); bad += 1
sys.exit(1 if bad else 0)
PY
  done
done
echo "diff_base_pprof: $fails failed"
[ "$fails" -eq 0 ]
