#!/usr/bin/env bash
# The symbolization progress meter, under a pseudo-terminal:
# on a terminal stderr it is drawn (modules, addresses, MB of DWARF) and erased
# before the report; never when stderr is a file or TERM=dumb; not before its
# delay (1 s by default; JH_PROGRESS_DELAY=0 shows it at once, for tests). --no-cache:
# a warm symbol cache leaves nothing to resolve, hence no meter.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1

ON_TTY=$JH_SRC/tests/tools/on_tty.py # ARGV on a pty; its output as repr, then "exit N"
meter_re='\\rjeheap: symbolizing: [0-9]+/[0-9]+ modules, [0-9]+/[0-9]+ addresses, [0-9.]+ MB of DWARF\\x1b\[K'

# On a terminal, past the delay: the meter, its last state complete, erased (\r ESC[K)
# before the report's first line.
JH_PROGRESS_DELAY=0 TERM=xterm python3 "$ON_TTY" "$JEHEAP" --no-cache --text "$PROG" "$HEAP" >"$T/on.out"
grep -q '^exit 0$' "$T/on.out" || fail "meter run: $(tail -1 "$T/on.out")"
grep -Eq "$meter_re" "$T/on.out" || fail "no meter on a terminal: $(head -c 300 "$T/on.out")"
last=$(grep -Eo '[0-9]+/[0-9]+ modules, [0-9]+/[0-9]+ addresses' "$T/on.out" | tail -1)
echo "$last" | grep -Eq '^([0-9]+)/\1 modules, ([0-9]+)/\2 addresses$' || fail "last state: $last"
mods=${last%%/*}
[ "$mods" -ge 2 ] || fail "fewer than 2 modules: $last"
grep -Eq 'MB of DWARF\\x1b\[K\\r\\x1b\[KTotal: ' "$T/on.out" || fail "meter not erased before the report"
mb=$(grep -Eo '[0-9.]+ MB of DWARF' "$T/on.out" | tail -1 | cut -d' ' -f1)
awk -v m="$mb" 'BEGIN { exit !(m > 0) }' || fail "no DWARF counted: $mb MB"

# The same run's report is unchanged by the meter.
"$JEHEAP" --no-cache --text "$PROG" "$HEAP" >"$T/plain.txt" 2>/dev/null
python3 - "$T/on.out" "$T/plain.txt" <<'PY' || fail "report differs with the meter"
import ast, re, sys
out = ast.literal_eval(open(sys.argv[1]).readline()).decode()
out = re.sub(r'\rjeheap: symbolizing: [^\x1b]*\x1b\[K', '', out).replace('\r\x1b[K', '')
body = out.replace('\r\n', '\n')
plain = open(sys.argv[2]).read()
sys.exit(0 if body.startswith(plain) else 1)
PY

# Never with TERM=dumb, never when stderr is a file, never before the default 1 s delay.
TERM=dumb JH_PROGRESS_DELAY=0 python3 "$ON_TTY" "$JEHEAP" --no-cache --text "$PROG" "$HEAP" >"$T/dumb.out"
! grep -q 'symbolizing' "$T/dumb.out" || fail "meter with TERM=dumb"
grep -q 'Total: ' "$T/dumb.out" || fail "TERM=dumb: no report"
TERM=xterm JH_PROGRESS_DELAY=0 python3 "$ON_TTY" --stderr-file "$T/err.txt" \
	"$JEHEAP" --no-cache --text "$PROG" "$HEAP" >"$T/file.out"
! grep -q 'symbolizing' "$T/file.out" "$T/err.txt" || fail "meter with stderr to a file"
grep -q 'fully symbolized' "$T/err.txt" || fail "stderr file: no coverage line"
TERM=xterm python3 "$ON_TTY" "$JEHEAP" --no-cache --text "$PROG" "$HEAP" >"$T/fast.out"
! grep -q 'symbolizing' "$T/fast.out" || fail "meter before 1 s on a fast run"
# -qq (no warnings) hides it too.
JH_PROGRESS_DELAY=0 TERM=xterm python3 "$ON_TTY" "$JEHEAP" -qq --text "$PROG" "$HEAP" >"$T/qq.out"
! grep -q 'symbolizing' "$T/qq.out" || fail "meter with -qq"
echo ok
