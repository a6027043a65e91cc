#!/usr/bin/env bash
# jeprof's interactive mode, driven through a pseudo-terminal: the prompt,
# top, top --cum, focus=, list, an unknown command, history (up arrow), quit;
# and end of input on a pipe.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1

python3 - "$JEHEAP" "$PROG" "$HEAP" >"$T/pty.out" <<'PY' || fail "pty session: $(cat "$T/pty.out")"
import os, pty, select, sys, time
sys.path.insert(0, os.path.join(os.environ['JH_SRC'], 'tests', 'tools'))
from on_tty import read_to_eof
jeheap, prog, heap = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'dumb'
    os.execv(jeheap, [jeheap, prog, heap])   # no output option on a terminal: interactive
def read_prompt(timeout=30):
    """Output up to the next prompt, once the program has gone quiet."""
    out = b''
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.3)
        if r:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
        elif out.endswith(b'(jeheap) '):
            return out.decode(errors='replace')
    sys.stdout.write(out.decode(errors='replace'))
    raise SystemExit('timeout waiting for the prompt')
def cmd(line):
    if line.startswith('\x1b'):
        os.write(fd, line.encode())   # an editing key: let libedit redraw first
        time.sleep(0.5)
        os.write(fd, b'\r')
    else:
        os.write(fd, line.encode() + b'\r')
    return read_prompt()
read_prompt()
sections = {}
sections['top'] = cmd('top')
sections['top3cum'] = cmd('top3 --cum')
sections['focus'] = cmd('focus=recurse')
sections['topfocus'] = cmd('top')
sections['history'] = cmd('\x1b[A')           # up arrow: runs 'top' again
sections['unknown'] = cmd('frobnicate')
sections['list'] = cmd('list ^recurse$')
# Go pprof's views and frame filters
sections['focusclear'] = cmd('focus=')
sections['peek'] = cmd('peek ^mid$')
sections['hide'] = cmd('hide=recurse')
sections['traces'] = cmd('traces')
sections['hideclear'] = cmd('hide=')
sections['showfrom'] = cmd('show_from=mid')
sections['noinlines'] = cmd('noinlines')
sections['tree'] = cmd('tree')
os.write(fd, b'quit\r')
rest = read_to_eof(fd)
_, status = os.waitpid(pid, 0)
for k, v in sections.items():
    print('=== %s' % k)
    print(v.replace('\r', ''))
print('=== exit %d' % os.waitstatus_to_exitcode(status))
PY
sec() { awk -v s="=== $1" '$0 == s {on = 1; next} /^=== / {on = 0} on' "$T/pty.out"; }
sec top | grep -q '^Total: [0-9.]* MB$' || fail "top: no Total line"
sec top | grep -Eq '^ +[0-9.]+ +[0-9.]+% +[0-9.]+% +[0-9.]+ +[0-9.]+% leaf_alloc' || fail "top: rows"
[ "$(sec top | grep -Ec '^ +-?[0-9.]+ +-?[0-9.]+%')" = 10 ] || fail "top: not 10 rows"
[ "$(sec top3cum | grep -Ec '^ +-?[0-9.]+ +-?[0-9.]+%')" = 3 ] || fail "top3 --cum: not 3 rows"
sec top3cum | grep -Eq '^ +[0-9.]+ +[0-9.]+% +[0-9.]+% +[0-9.]+ +99\.[0-9]% ' || fail "top3 --cum: not sorted by cum"
sec topfocus | grep -q ' recurse$' || fail "focus: recurse missing"
! sec topfocus | grep -q ' mid$' || fail "focus: mid still shown"
sec history | grep -q ' recurse$' || fail "history: up arrow did not repeat top"
sec unknown | grep -q "Unknown command: try 'help'." || fail "unknown command"
sec list | grep -q '^ROUTINE ====================== recurse in ' || fail "list"
grep -q '^=== exit 0$' "$T/pty.out" || fail "quit: $(tail -1 "$T/pty.out")"
# pprof's commands print what the same options print (pprof_views.sh checks those against
# go tool pprof): the section without the command's echo and the next prompt
report() { sec "$1" | sed '1d;$d'; }
"$JEHEAP" --quiet --peek='^mid$' "$PROG" "$HEAP" >"$T/peek.want" 2>/dev/null
report peek | cmp -s - "$T/peek.want" || fail "peek: $(report peek | diff - "$T/peek.want" | head)"
grep -q '| mid$' "$T/peek.want" || fail "peek: no row for mid"
"$JEHEAP" --quiet --traces --hide=recurse "$PROG" "$HEAP" >"$T/traces.want" 2>/dev/null
report traces | cmp -s - "$T/traces.want" ||
	fail "traces: $(report traces | diff - "$T/traces.want" | head)"
! grep -q recurse "$T/traces.want" || fail "traces --hide=recurse: recurse shown"
"$JEHEAP" --quiet --tree --show_from=mid --noinlines "$PROG" "$HEAP" >"$T/tree.want" 2>/dev/null
report tree | cmp -s - "$T/tree.want" || fail "tree: $(report tree | diff - "$T/tree.want" | head)"
! grep -q '| main$' "$T/tree.want" || fail "tree --show_from=mid: main shown"
sec showfrom | grep -q "show_from = 'mid'" || fail "show_from=: $(sec showfrom)"
sec noinlines | grep -q "noinlines on" || fail "noinlines: $(sec noinlines)"

# Without a terminal the same commands work line by line; end of input exits 0.
printf 'top2\nfocus=mid\ntop2\n' | "$JEHEAP" --interactive "$PROG" "$HEAP" >"$T/pipe.out" 2>"$T/pipe.err" \
	|| fail "piped session exited $?"
[ "$(grep -c '^Total:' "$T/pipe.out")" = 2 ] || fail "piped: $(cat "$T/pipe.out")"
grep -q '(jeheap) ' "$T/pipe.err" || fail "piped: no prompt on stderr"
# Without a terminal and without an output option: --text.
"$JEHEAP" "$PROG" "$HEAP" </dev/null >"$T/d.out" 2>/dev/null
"$JEHEAP" --text "$PROG" "$HEAP" >"$T/t.out" 2>/dev/null
cmp -s "$T/d.out" "$T/t.out" || fail "default without a terminal is not --text"
echo ok
