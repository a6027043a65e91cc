#!/usr/bin/env bash
# Confined paths: a mapped path is looked up inside
# --sysroot as chroot would (an absolute symbolic link inside it is resolved
# inside it), inside NEW of a --path-map, and a debug file inside --debug-dir;
# a ".." or a relative link that climbs above them is refused with one
# warning, never opened.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
for t in gcc objcopy readelf strip; do
	command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
T=$(mktemp -d /tmp/jh_confine.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0

# a static program (f1 calls f2), and a copy named otherwise (outside the root)
source "$JH_SRC/tests/fixtures/hostile/elf.sh"
chain_prog "$T/prog" || exit 1
mkdir -p "$T/root/usr/bin" "$T/root/usr/lib" "$T/outside" "$T/root/inside"
cp "$T/prog" "$T/root/inside/prog"
objcopy --redefine-sym f1=outside_f1 --redefine-sym f2=outside_f2 "$T/prog" "$T/outside/prog"
# a dump of the program mapped from PATH
dump() {
	printf 'heap_v2/0\n  t*: 1: 4096 [0: 0]\n@ 0x%x 0x%x\n  t*: 1: 4096 [0: 0]\n\n' \
		$((0x$A2)) $((0x$A1 + 5))
	echo "MAPPED_LIBRARIES:"
	maps_line "$1"
}
# check WHAT WANT-NAMES WANT-WARNING ARGS...: --text's names and the refusal
check() {
	local what=$1 names=$2 warn=$3
	shift 3
	"$JEHEAP" --text "$@" >"$T/out" 2>"$T/err"
	local got
	got=$(awk 'NR > 1 { print $6 }' "$T/out" | sort | tr '\n' ' ')
	if [ "$got" != "$names" ]; then
		echo "FAIL: $what: names '$got', want '$names'"
		fail=1
	fi
	if [ -n "$warn" ] && ! grep -qxF "$warn" "$T/err"; then
		echo "FAIL: $what: no warning '$warn':"
		sed 's/^/  /' "$T/err"
		fail=1
	fi
	if grep -q outside_ "$T/out" "$T/err"; then
		echo "FAIL: $what: the file outside the root was read"
		fail=1
	fi
}

# a refused module's frames are named by its file and offset
unknown() {
	local b=$(((SEG_VADDR & ~0xfff) - (SEG_OFF & ~0xfff)))
	printf '%s+0x%x %s+0x%x ' "$1" $((0x$A1 + 4 - b)) "$1" $((0x$A2 - b))
}

# ".." above the sysroot
dump /usr/bin/../../../outside/prog >"$T/1.heap"
check "'..' above --sysroot" "$(unknown prog)" \
	"jeheap: warning: /usr/bin/../../../outside/prog climbs above $T/root: refused" \
	--sysroot="$T/root" "$T/1.heap"
# an absolute link inside the sysroot: resolved inside it
host=/jh-confine-$$-$RANDOM
ln -s "$host/prog" "$T/root/usr/lib/libabs.so"
mkdir -p "$T/root$host"
cp "$T/prog" "$T/root$host/prog"
dump /usr/lib/libabs.so >"$T/2.heap"
check "absolute link inside --sysroot" "f1 f2 " "" --sysroot="$T/root" "$T/2.heap"
# a relative link that climbs out
ln -s ../../../outside/prog "$T/root/usr/lib/libesc.so"
dump /usr/lib/libesc.so >"$T/3.heap"
check "relative link out of --sysroot" "$(unknown libesc.so)" \
	"jeheap: warning: /usr/lib/libesc.so climbs above $T/root: refused" \
	--sysroot="$T/root" "$T/3.heap"
# --path-map: inside NEW, not above it
dump /build/prog >"$T/4.heap"
check "--path-map" "f1 f2 " "" --path-map=/build="$T/root/inside" "$T/4.heap"
dump /build/../../outside/prog >"$T/5.heap"
check "'..' above --path-map's NEW" "$(unknown prog)" \
	"jeheap: warning: /../../outside/prog climbs above $T/root/inside: refused" \
	--path-map=/build="$T/root/inside" "$T/5.heap"

# --debug-dir: a build-id debug file is looked up inside it
chain_prog "$T/g" -g || exit 1
id=$(readelf -nW "$T/g" | awk '/Build ID:/ { print $NF }')
objcopy --only-keep-debug "$T/g" "$T/outside/g.debug"
strip --strip-debug "$T/g"
mkdir -p "$T/dbg/.build-id/${id:0:2}"
rel=.build-id/${id:0:2}/${id:2}.debug
dump "$T/g" >"$T/6.heap"
# coverage WHAT FULLY WARNING: how many addresses had DWARF, the refusal
coverage() {
	"$JEHEAP" --text --verbose --debug-dir="$T/dbg" "$T/6.heap" >/dev/null 2>"$T/err"
	if ! grep -q "^jeheap: [0-9.]*% of bytes fully symbolized; of 2 unique addresses $2 with lines" "$T/err" ||
		{ [ -n "$3" ] && ! grep -qxF "$3" "$T/err"; }; then
		echo "FAIL: $1: want $2 of 2 with DWARF${3:+ and '$3'}:"
		sed 's/^/  /' "$T/err"
		fail=1
	fi
}
ln -s "../../../outside/g.debug" "$T/dbg/$rel"
coverage "a debug link out of --debug-dir" 0 "jeheap: warning: $rel climbs above $T/dbg: refused"
rm "$T/dbg/$rel"
cp "$T/outside/g.debug" "$T/dbg/$rel"
coverage "a debug file in --debug-dir" 2 ""
[ $fail = 0 ] && echo "ok: --sysroot, --path-map and --debug-dir lookups stay inside"
exit $fail
