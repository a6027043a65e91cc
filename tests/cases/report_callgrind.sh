#!/usr/bin/env bash
# --callgrind: a well-formed callgrind file (what KCachegrind reads), the
# same records as jeprof on a .symbolized dump, file:line kept intact on a
# raw dump, deterministic.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1

"$JEHEAP" --callgrind "$PROG" "$HEAP" >"$T/a.cg" 2>"$T/a.err" || fail "exited $?: $(cat "$T/a.err")"
"$JEHEAP" --callgrind "$PROG" "$HEAP" >"$T/b.cg" 2>/dev/null
cmp -s "$T/a.cg" "$T/b.cg" || fail "not deterministic"

# checker: parses the file like KCachegrind (name compression included) and
# prints the decompressed records, one per line, for comparisons.
cat >"$T/cg.py" <<'PY'
import re, sys
def records(path):
    lines = open(path).read().split('\n')
    assert lines[0] == 'events: Hits' and lines[1] == '', lines[:2]
    names = {'fl': {}, 'fn': {}}
    out, cur = [], {}
    def name(kind, v):
        m = re.fullmatch(r'\((\d+)\)(?: (.*))?', v)
        table = names['fl' if kind in ('fl', 'cfl') else 'fn']
        if not m:
            assert len(v) <= 3, 'uncompressed long name %r' % v
            return v
        if m.group(2) is not None:
            assert m.group(1) not in table, 'index defined twice'
            assert int(m.group(1)) == len(table) + 1, 'index not sequential'
            table[m.group(1)] = m.group(2)
        assert m.group(1) in table, 'index used before definition'
        return table[m.group(1)]
    for l in lines[2:]:
        if l == '':
            cur = {}
            continue
        m = re.fullmatch(r'(fl|fn|cfl|cfn)=(.*)', l)
        if m:
            cur[m.group(1)] = name(m.group(1), m.group(2))
            assert cur[m.group(1)] != '', 'empty name: ' + l
            continue
        m = re.fullmatch(r'calls=(-?\d+) (\d+)', l)
        if m:
            cur['calls'] = m.groups()
            continue
        m = re.fullmatch(r'(\d+) (-?\d+)', l)
        assert m, 'bad line %r' % l
        assert 'fl' in cur and 'fn' in cur, 'cost line without fl/fn'
        if 'calls' in cur:
            assert 'cfl' in cur and 'cfn' in cur
            assert cur['calls'][0] == m.group(2)
            out.append('%s:%s:%s -> %s:%s:%s %s' % (cur['fl'], m.group(1), cur['fn'], cur['cfl'], cur['calls'][1], cur['cfn'], m.group(2)))
        else:
            out.append('%s:%s:%s %s' % (cur['fl'], m.group(1), cur['fn'], m.group(2)))
        cur = {k: v for k, v in cur.items() if k in ('fl', 'fn')}
    return out
for r in sorted(records(sys.argv[1])):
    print(r)
PY
python3 "$T/cg.py" "$T/a.cg" >"$T/a.rec" || fail "malformed callgrind output"
# file:line kept: mid's own malloc is charged to its source line, and mid calls leaf_alloc
# from the line of the (inlined) call.
grep -q "^$SRC:$(mark MARK_MID_MALLOC):mid [0-9]*\$" "$T/a.rec" || fail "self cost of mid at MARK_MID_MALLOC"
grep -q "^$SRC:$(mark MARK_MID_CALL):mid -> $SRC:$(mark MARK_LEAF):leaf_alloc [0-9]*\$" "$T/a.rec" \
	|| fail "call mid -> leaf_alloc at the inlined call line"
grep -q "^$SRC:$(mark MARK_REC_CALL):recurse -> $SRC:[0-9]*:recurse [0-9]*\$" "$T/a.rec" || fail "recursive call"
! grep -q 'discriminator' "$T/a.cg" || fail "discriminator text in file names"

# Self costs sum to the flat total of --text --show_bytes (up to int truncation per record).
self=$(grep -v ' -> ' "$T/a.rec" | awk '{s += $NF} END {printf "%d", s}')
flat=$("$JEHEAP" --text --show_bytes "$PROG" "$HEAP" 2>/dev/null | awk 'NR > 1 {s += $1} END {printf "%d", s}')
n=$(grep -vc ' -> ' "$T/a.rec")
[ $((flat - self)) -ge 0 ] && [ $((flat - self)) -le $((n + 1)) ] || fail "self costs $self vs flat total $flat"

# Same records as jeprof on a .symbolized file (there file:line is ??:0 for both).
if command -v jeprof >/dev/null; then
	symbolized "$T/s.sym"
	python3 "$JH_SRC/tests/gen/alloc_view.py" "$T/s.sym" >"$T/s.view"
	jeprof --callgrind "$T/s.view" >"$T/j.cg" 2>/dev/null
	"$JEHEAP" --callgrind "$T/s.sym" >"$T/h.cg" 2>/dev/null || fail "--callgrind of a .symbolized file"
	python3 "$T/cg.py" "$T/h.cg" >"$T/h.rec" || fail "malformed (symbolized)"
	# jeprof's records may repeat a key (it prints each call key separately): sum them.
	python3 "$T/cg.py" "$T/j.cg" | awk '{c=$NF; $NF=""; s[$0]+=c} END {for (k in s) print k s[k]}' | sort >"$T/j.rec"
	diff "$T/j.rec" "$T/h.rec" >&2 || fail "records differ from jeprof's"
else
	echo "SKIP (part): jeprof is not installed, records not compared with jeprof's"; exit 77
fi
echo ok
