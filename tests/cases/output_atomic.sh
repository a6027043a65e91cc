#!/usr/bin/env bash
# Atomic, checked output: --output=F is written to a
# temporary file beside F and renamed only when everything (dot included)
# succeeded; on failure F keeps its old content, no temporary file is left,
# the status is 3 and the one line carries the system's reason. A full or
# closed stdout is status 3 with one line; a reader that goes away (`| head`)
# is a quiet success.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
for t in dot python3 prlimit; do
	command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
T=$(mktemp -d /tmp/jh_output.XXXXXX)
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
fail=0
FX=$JH_SRC/testdata/analysis/run1.heap.symbolized
# a profile whose reports are larger than a pipe's buffer
python3 - >"$T/big.symbolized" <<'PY'
n = 3000
print("--- symbol\nbinary=/bin/big")
for i in range(n):
    print("0x%016x function_number_%d_with_a_rather_long_name" % (0x400000 + 16 * i, i))
print("---\n--- heap\nheap_v2/0\n  t*: %d: %d [0: 0]" % (n, n * (n + 1) // 2))
for i in range(n):
    print("@ 0x%x\n  t*: 1: %d [0: 0]" % (0x400000 + 16 * i, i + 1))
PY

# expect WHAT STATUS STDERR-LINE: the last command's status and stderr ($T/err)
expect() {
	local what=$1 want=$2 line=$3 got=$4
	if [ "$got" != "$want" ] || [ "$(cat "$T/err")" != "$line" ]; then
		echo "FAIL: $what: exit $got (want $want), stderr:"
		sed 's/^/  /' "$T/err"
		echo "  want: $line"
		fail=1
	fi
}
# unchanged WHAT: F still holds its old content, nothing else is in its directory
unchanged() {
	local dir=${2:-$T/d}
	if [ "$(cat "$dir/F")" != "old content" ]; then
		echo "FAIL: $1: F changed: $(head -c 80 "$dir/F")"
		fail=1
	fi
	if [ "$(ls -A "$dir")" != "F" ]; then
		echo "FAIL: $1: left behind: $(ls -A "$dir")"
		fail=1
	fi
}
reset() {
	rm -rf "$T/d"
	mkdir "$T/d"
	echo "old content" >"$T/d/F"
	chmod 640 "$T/d/F"
}

# success: the report, F's mode kept, nothing left behind
reset
"$JEHEAP" --quiet --text --output="$T/d/F" "$FX" 2>"$T/err"
expect "--output" 0 "" $?
"$JEHEAP" --quiet --text "$FX" >"$T/want" 2>/dev/null
cmp -s "$T/want" "$T/d/F" || { echo "FAIL: --output: F is not the report"; fail=1; }
[ "$(stat -c %a "$T/d/F")" = 640 ] || { echo "FAIL: --output: mode $(stat -c %a "$T/d/F")"; fail=1; }
[ "$(ls -A "$T/d")" = F ] || { echo "FAIL: --output: left behind: $(ls -A "$T/d")"; fail=1; }
# a new file gets the umask's mode; a symbolic link's target is replaced
rm -f "$T/d/F"
(umask 027 && "$JEHEAP" --quiet --text --output="$T/d/F" "$FX")
[ "$(stat -c %a "$T/d/F")" = 640 ] || { echo "FAIL: new F: mode $(stat -c %a "$T/d/F")"; fail=1; }
reset
ln -s F "$T/d/link"
"$JEHEAP" --quiet --text --output="$T/d/link" "$FX" 2>"$T/err"
expect "--output=link" 0 "" $?
{ [ -L "$T/d/link" ] && cmp -s "$T/want" "$T/d/F"; } || { echo "FAIL: link replaced"; fail=1; }

# a failing dot (a PATH shim that writes half an image and fails)
reset
mkdir -p "$T/shim"
printf '#!/bin/sh\ncat >/dev/null\necho "<svg partial"\nexit 1\n' >"$T/shim/dot"
chmod +x "$T/shim/dot"
for mode in svg png; do
	PATH="$T/shim:$PATH" "$JEHEAP" --quiet --$mode --output="$T/d/F" "$FX" 2>"$T/err"
	expect "--$mode, dot fails" 3 "jeheap: 'dot -T$mode' failed (exit status 1)" $?
	unchanged "--$mode, dot fails"
done

# a file size limit (SIGXFSZ ignored: the write fails with EFBIG)
reset
(
	trap '' XFSZ
	prlimit --fsize=8192 "$JEHEAP" --quiet --text --output="$T/d/F" "$T/big.symbolized" 2>"$T/err"
)
expect "--output past RLIMIT_FSIZE" 3 "jeheap: cannot write $T/d/F: File too large" $?
unchanged "--output past RLIMIT_FSIZE"

# a full file system (a 16k tmpfs, where the machine lets us mount one)
mkdir "$T/mnt"
if mount -t tmpfs -o size=16k tmpfs "$T/mnt" 2>/dev/null; then
	echo "old content" >"$T/mnt/F"
	for mode in text svg; do
		"$JEHEAP" --quiet --$mode --nodecount=400 --nodefraction=0 --output="$T/mnt/F" "$T/big.symbolized" 2>"$T/err"
		expect "--$mode on a full disk" 3 \
			"jeheap: cannot write $T/mnt/F: No space left on device" $?
		unchanged "--$mode on a full disk" "$T/mnt"
	done
	umount "$T/mnt"
else
	echo "note: cannot mount a tmpfs here; the full disk is shown by RLIMIT_FSIZE only"
fi

# a directory where nobody can create a file: an existing writable F is
# written in place, a new one is refused (as another user: root may write)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$T/ro"
	chmod 755 "$T" "$T/ro"
	echo "old content" >"$T/ro/F"
	chown 65534:65534 "$T/ro/F"
	cp "$FX" "$T/ro/p"
	chmod 644 "$T/ro/p"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	as_nobody "$JEHEAP" --quiet --text --output="$T/ro/F" "$T/ro/p" 2>"$T/err"
	expect "--output=F in a closed directory" 0 "" $?
	cmp -s "$T/want" "$T/ro/F" || { echo "FAIL: F in a closed directory: not the report"; fail=1; }
	as_nobody "$JEHEAP" --quiet --text --output="$T/ro/G" "$T/ro/p" 2>"$T/err"
	expect "--output=G in a closed directory" 3 \
		"jeheap: cannot open $T/ro/G for writing: Permission denied" $?
	[ "$(ls -A "$T/ro")" = "F
p" ] || { echo "FAIL: closed directory: left behind: $(ls -A "$T/ro")"; fail=1; }
fi

# an output that is not a regular file is written in place
"$JEHEAP" --quiet --text --output=/dev/full "$FX" 2>"$T/err"
expect "--output=/dev/full" 3 "jeheap: cannot write /dev/full: No space left on device" $?

# stdout full or closed: status 3, one line, every report
for mode in --text --top --collapsed --callgrind --dot --svg --png --raw; do
	"$JEHEAP" --quiet $mode "$FX" >/dev/full 2>"$T/err"
	expect "$mode >/dev/full" 3 "jeheap: cannot write standard output: No space left on device" $?
	"$JEHEAP" --quiet $mode "$FX" 2>"$T/err" >&-
	expect "$mode >&-" 3 "jeheap: cannot write standard output: Bad file descriptor" $?
done
echo 0x1 | "$JEHEAP" --quiet --symbols /bin/true >/dev/full 2>"$T/err"
expect "--symbols >/dev/full" 3 "jeheap: cannot write standard output: No space left on device" $?
"$JEHEAP" --help >/dev/full 2>"$T/err"
expect "--help >/dev/full" 3 "jeheap: cannot write standard output: No space left on device" $?

# a reader that goes away: quiet; killed by SIGPIPE (141) as coreutils are,
# or, with SIGPIPE ignored, status 0
for mode in --text --collapsed --raw --svg; do
	"$JEHEAP" --quiet $mode --nodecount=400 --nodefraction=0 "$T/big.symbolized" 2>"$T/err" | head -1 >/dev/null
	st=${PIPESTATUS[0]}
	[ "$st" = 141 ] || [ "$st" = 0 ] || { echo "FAIL: $mode | head: exit $st"; fail=1; }
	expect "$mode | head" "$st" "" "$st"
	(
		trap '' PIPE
		"$JEHEAP" --quiet $mode --nodecount=400 --nodefraction=0 "$T/big.symbolized" 2>"$T/err" | head -1 >/dev/null
		exit "${PIPESTATUS[0]}"
	)
	expect "$mode | head, SIGPIPE ignored" 0 "" $?
done
[ $fail = 0 ] && echo "ok: atomic --output, checked stdout"
exit $fail
