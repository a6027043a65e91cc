#!/usr/bin/env bash
# Bounded resources and honest out-of-memory, each
# against its limit as man/jeheap.1 (LIMITS) documents it:
# - a compressed debug section that inflates 1024:1 (1 GiB of zeros, a bomb)
#   is refused with one warning, in bounded memory, the module's names then
#   coming from its symbol table;
# - --max-memory: a module whose debug data passes it stays unsymbolized
#   after one warning naming the file and section, the run goes on (status 0);
# - gzip and zstd decompression bombs and a zstd frame asking for a 2 GiB
#   window are refused with one line (status 2) in bounded memory;
# - a gzip stream followed by zero padding is read, as gzip does;
# - out of memory (prlimit --as) is status 70 with "out of memory while
#   reading FILE", the same on every run.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
T=$(mktemp -d /tmp/jh_bounds.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
MAXRSS=524288 # KB: 512 MB

# run NAME WANT_STATUS CMD...: runs CMD (stderr in $T/err, stdout in $T/out)
# under /usr/bin/time, checks the status and that the peak RSS stays bounded
run() {
	local name=$1 want=$2
	shift 2
	/usr/bin/time -f %M -o "$T/rss" "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	local rss
	rss=$(tail -1 "$T/rss")
	[ "$rc" = "$want" ] || { echo "FAIL: $name: status $rc, want $want"; cat "$T/err"; fail=1; }
	[ "$rss" -lt "$MAXRSS" ] || { echo "FAIL: $name: peak RSS ${rss} KB"; fail=1; }
	echo "ran: $name: status $rc, peak RSS ${rss} KB"
}
# expect NAME TEXT: $T/err is exactly TEXT
expect() {
	if [ "$(cat "$T/err")" != "$2" ]; then
		echo "FAIL: $1: stderr differs:"
		diff <(printf '%s\n' "$2") "$T/err"
		fail=1
	fi
}

cat >"$T/prog.c" <<'C'
#include <stdio.h>
int work(int x) { return x * 3 + 1; }
int main(int argc, char **argv) { (void)argv; printf("%d\n", work(argc)); return 0; }
C
gcc -g -O0 -o "$T/prog" "$T/prog.c" || { echo "FAIL: gcc"; exit 1; }
addr=0x$(nm "$T/prog" | awk '$3 == "work" { print $1 }')
cd "$T"

# 1. section bomb: 1 GiB of zeros in 1 MB
python3 "$JH_SRC/tests/fixtures/bounds/section_bomb.py" prog bomb zeros 1024 || exit 1
packed=$(($(readelf -S -W bomb | awk '$2 == ".debug_info" { print "0x" $6 }') - 24))
echo "$addr" >addr
run section-bomb 0 "$JEHEAP" --symbols ./bomb <addr
expect section-bomb "jeheap: warning: ./bomb: cannot read debug information: ./bomb: section .debug_info: $packed compressed bytes claim to inflate to 1073741824 (more than 256:1), not inflated"
[ "$(head -1 out)" = work ] || { echo "FAIL: section-bomb: the symbol table's name is lost: $(head -1 out)"; fail=1; }

# 2. --max-memory: 4 MiB of random bytes (1:1, plausible) past a 6 MiB ceiling
python3 "$JH_SRC/tests/fixtures/bounds/section_bomb.py" prog big random 4 || exit 1
run max-memory 0 "$JEHEAP" --max-memory=6M --symbols ./big <addr
expect max-memory "jeheap: warning: ./big: section .debug_info: 8 MB of debug data would pass the DWARF memory ceiling (--max-memory=6 MB, 0 MB in use); ./big left unsymbolized"
[ "$(head -1 out)" = "??" ] || { echo "FAIL: max-memory: not unsymbolized: $(head -1 out)"; fail=1; }
# the ceiling is what counts: with room, the same file gets past it (to the DWARF, random bytes)
run max-memory-room 0 "$JEHEAP" --max-memory=64M --symbols ./big <addr
if grep -q 'memory ceiling' err; then echo "FAIL: max-memory-room: ceiling hit"; fail=1; fi
run max-memory-usage 1 "$JEHEAP" --max-memory=100 --text prog
expect max-memory-usage "jeheap: --max-memory: '100' is not a size of at least 1M (bytes, or with K, M, G or T)"

# 3. input bombs: 1 GiB of empty lines after a valid header, gzip (about 1000:1) and zstd
python3 - <<'PY'
import zlib
z = zlib.compressobj(9, zlib.DEFLATED, 31)
with open('bomb.heap.gz', 'wb') as f:
    f.write(z.compress(b'heap_v2/524288\n  t*: 1: 16 [0: 0]\n'))
    for _ in range(1024):
        f.write(z.compress(b'\n' * (1 << 20)))
    f.write(z.flush())
PY
run gzip-bomb 2 "$JEHEAP" --raw bomb.heap.gz
grep -Eq '^jeheap: bomb.heap.gz: decompression bomb: [0-9]+ MB from [0-9]+ KB \(more than 500:1\), not read$' err ||
	{ echo "FAIL: gzip-bomb: $(cat err)"; fail=1; }
[ "$(wc -l <err)" = 1 ] || { echo "FAIL: gzip-bomb: not one line"; fail=1; }
if command -v zstd >/dev/null; then
	{ printf 'heap_v2/524288\n  t*: 1: 16 [0: 0]\n'; head -c 1073741824 /dev/zero | tr '\0' '\n'; } |
		zstd -q -19 -c >bomb.heap.zst
	run zstd-bomb 2 "$JEHEAP" --raw bomb.heap.zst
	grep -Eq '^jeheap: bomb.heap.zst: decompression bomb: [0-9]+ MB from [0-9]+ KB \(more than 500:1\), not read$' err ||
		{ echo "FAIL: zstd-bomb: $(cat err)"; fail=1; }
	{ printf 'heap_v2/524288\n'; head -c 100000 /dev/zero | tr '\0' '\n'; } | zstd -q --long=31 -c >window.heap.zst
	run zstd-window 2 "$JEHEAP" --raw window.heap.zst
	expect zstd-window "jeheap: window.heap.zst:1: zstd frame needs a window over 128 MiB, not read"
else
	echo "FAIL: zstd missing (scripts/setup installs it)"
	fail=1
fi

# 4. gzip + zero padding reads as the stream alone (gzip -d accepts it too)
printf 'heap_v2/524288\n  t*: 1: 16 [0: 0]\n@ 0x1 0x2\n  t*: 1: 16 [0: 0]\n\nMAPPED_LIBRARIES:\n' >small.heap
gzip -c small.heap >padded.heap.gz
head -c 10000 /dev/zero >>padded.heap.gz
gzip -dc padded.heap.gz >/dev/null 2>&1 || true # gzip: "decompression OK, trailing zero bytes ignored"
"$JEHEAP" --raw small.heap >want.raw 2>/dev/null
run gzip-padding 0 "$JEHEAP" --raw padded.heap.gz
cmp -s want.raw out || { echo "FAIL: gzip-padding: not the same as the plain file"; fail=1; }
gzip -c small.heap >garbage.heap.gz
echo garbage >>garbage.heap.gz
run gzip-garbage 2 "$JEHEAP" --raw garbage.heap.gz

# 5. out of memory under an address-space limit: status 70, one line naming the
# file, the same on 3 runs (not in a sanitizer build: ASan reserves terabytes of
# address space for its shadow, so it cannot start under prlimit --as)
if nm "$JEHEAP" 2>/dev/null | grep -q __asan_init; then
	echo "note: sanitizer build: the prlimit --as part is not run"
	[ $fail = 0 ] && echo "ok: bounded memory"
	exit $fail
fi
python3 - <<'PY'
import random
random.seed(1)
with open('big.heap', 'w') as f:
    f.write('heap_v2/524288\n  t*: 300000: 4800000 [0: 0]\n')
    for i in range(300000):
        f.write('@ ' + ' '.join('0x%x' % random.randrange(0x400000, 0x40000000) for _ in range(8)))
        f.write('\n  t*: 1: 16 [0: 0]\n')
    f.write('\nMAPPED_LIBRARIES:\n')
PY
for i in 1 2 3; do
	run "oom-$i" 70 prlimit --as=80000000 "$JEHEAP" --raw big.heap
	expect "oom-$i" "jeheap: out of memory while reading big.heap"
done

[ $fail = 0 ] && echo "ok: bounded memory"
exit $fail
