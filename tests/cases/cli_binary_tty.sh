#!/usr/bin/env bash
# Binary outputs refuse a terminal: --pdf, --png, --gif, --ps with standard
# output on a terminal (a pty here) print one line saying to use --output=FILE or a redirect
# and exit 1, before reading anything; with --output=FILE or a pipe they still write.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
cat >"$T/pty.py" <<'PY'
# pty.py ARGS...: runs ARGS with stdout on a pty, stderr on a pipe; prints
# "STATUS<TAB>BYTES-ON-THE-PTY" then stderr
import os, subprocess, sys
master, slave = os.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
os.close(slave)
out = b''
while True:
    try:
        b = os.read(master, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
err = p.stderr.read()
p.wait()
sys.stdout.write('%d\t%d\n' % (p.returncode, len(out)))
sys.stdout.write(err.decode())
PY
for m in pdf png gif ps; do
	python3 "$T/pty.py" "$JEHEAP" --$m "$PROG" "$HEAP" >"$T/r" || fail "pty.py"
	want="1	0
jeheap: --$m writes binary data and standard output is a terminal: use --output=FILE or a redirect (> FILE)"
	[ "$(cat "$T/r")" = "$want" ] || fail "--$m on a terminal: $(cat "$T/r")"
	# also with a file that does not exist: refused before any input is read
	python3 "$T/pty.py" "$JEHEAP" --$m "$T/no-such.heap" | sed -n 1p | grep -qx '1	0' || fail "--$m read first"
done
# text outputs still go to a terminal
python3 "$T/pty.py" "$JEHEAP" --text "$PROG" "$HEAP" | sed -n 1p | grep -q '^0	[1-9]' || fail "--text on a terminal"
if command -v dot >/dev/null; then
	python3 "$T/pty.py" "$JEHEAP" --pdf --output="$T/o.pdf" "$PROG" "$HEAP" | sed -n 1p | grep -qx '0	0' ||
		fail "--pdf --output on a terminal"
	head -c 4 "$T/o.pdf" | grep -q '%PDF' || fail "--output=FILE: no PDF"
	"$JEHEAP" --png "$PROG" "$HEAP" 2>/dev/null | cat >"$T/p.png"
	head -c 4 "$T/p.png" | grep -q PNG || fail "--png to a pipe"
fi
echo ok
