#!/usr/bin/env bash
# Honest diagnostics: fallbacks that were silent get one
# warning with the right reason. A debug file found by build ID but truncated
# is named ("truncated ...; debug file not used") and the binary's own symbols
# are used; a binary whose e_shnum claims 0xffff section headers that do not
# fit in the file is named; a valid SHN_XINDEX file (e_shnum 0, the count in
# section 0's sh_size, as libelf reads it) is read without a word.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
T=$(mktemp -d /tmp/jh_diag.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
cd "$T"
cat >prog.c <<'C'
#include <stdio.h>
int work(int x) { return x * 3 + 1; }
int main(int argc, char **argv) { (void)argv; printf("%d\n", work(argc)); return 0; }
C
gcc -g -O0 -Wl,--build-id -o prog prog.c || { echo "FAIL: gcc"; exit 1; }
addr=0x$(nm prog | awk '$3 == "work" { print $1 }')
echo "$addr" >addr

# check NAME WANT_STDERR WANT_FIRST_LINE CMD...: CMD runs twice with one fresh cache
# folder; the warm run must say the same, byte for byte
check() {
	local name=$1 want=$2 first=$3
	shift 3
	rm -rf "$T/cache"
	JEHEAP_CACHE_DIR=$T/cache "$@" <addr >out 2>err
	local rc=$?
	[ $rc = 0 ] || { echo "FAIL: $name: status $rc"; fail=1; }
	JEHEAP_CACHE_DIR=$T/cache "$@" <addr >out.warm 2>err.warm
	cmp -s err err.warm && cmp -s out out.warm || { echo "FAIL: $name: the warm run differs"; fail=1; }
	if [ "$(cat err)" != "$want" ]; then
		echo "FAIL: $name: stderr differs:"
		diff <(printf '%s\n' "$want") err
		fail=1
	fi
	[ "$(head -1 out)" = "$first" ] || { echo "FAIL: $name: first line '$(head -1 out)'"; fail=1; }
}

# truncated debug file under --debug-dir's .build-id
id=$(readelf -n prog | awk '/Build ID/ { print $3 }')
cp prog full && objcopy --only-keep-debug full full.debug && strip -g prog
mkdir -p "dd/.build-id/${id:0:2}"
dbg=dd/.build-id/${id:0:2}/${id:2}.debug
size=$(stat -c %s full.debug)
shoff=$(readelf -h full.debug | awk '/Start of section headers/ { print $5 }')
shnum=$(readelf -h full.debug | awk '/Number of section headers/ { print $5 }')
head -c $((size - 100)) full.debug >"$dbg"
check truncated-debug \
	"jeheap: warning: $dbg: truncated or bogus section count: $shnum section headers at byte $shoff do not fit in its $((size - 100)) bytes; debug file not used" \
	work "$JEHEAP" --symbols --debug-dir=dd ./prog
cp full.debug "$dbg"
check whole-debug "" work "$JEHEAP" --symbols --debug-dir=dd ./prog
grep -q 'prog.c:2' out || { echo "FAIL: whole-debug: no line"; fail=1; }

# e_shnum = 0xffff in a file that holds far fewer, and a valid SHN_XINDEX
python3 - <<'PY'
import struct
d = bytearray(open('full', 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
n, = struct.unpack_from('<H', d, 0x3c)
bogus = bytearray(d)
struct.pack_into('<H', bogus, 0x3c, 0xffff)
open('shnum', 'wb').write(bogus)
struct.pack_into('<H', d, 0x3c, 0)        # e_shnum 0: the count is section 0's sh_size
struct.pack_into('<Q', d, shoff + 0x20, n)
open('xindex', 'wb').write(d)
PY
fshoff=$(readelf -h full | awk '/Start of section headers/ { print $5 }')
check bogus-shnum \
	"jeheap: warning: ./shnum: truncated or bogus section count: 65535 section headers at byte $fshoff do not fit in its $(stat -c %s shnum) bytes; names from it may be missing" \
	"??" "$JEHEAP" --symbols ./shnum
check xindex "" work "$JEHEAP" --symbols ./xindex
grep -q 'prog.c:2' out || { echo "FAIL: xindex: no line"; fail=1; }

[ $fail = 0 ] && echo "ok: honest diagnostics"
exit $fail
