#!/usr/bin/env bash
# Confined paths named by a binary: a dwz alternate file
# (.gnu_debugaltlink) and a --list source file are looked up inside --sysroot
# (and --path-map's NEW) as chroot would, like the mapped files
# (sysroot_confined.sh): a name that climbs out is refused with one warning,
# an absolute name is never taken from the host, and the file outside, which
# would change the output, is never read.
set -u
: "${JEHEAP:?}" "${JH_SRC:?}"
for t in gcc dwz objcopy objdump readelf python3; do
	command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }
done
T=$(mktemp -d /tmp/jh_confalt.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# the DWARF fixture built in /build (its DWARF names /build/dwarf_c.c), two
# copies made into a dwz -m pair: "a" names its alternate file "common"
mkdir -p "$T/build" "$T/d" "$T/root/usr/bin" "$T/outside"
cp "$JH_SRC"/tests/fixtures/dwarf/{dwarf_c.c,dwarf_c_util.h} "$T/build/"
(cd "$T/build" && gcc -O2 -g -gdwarf-4 -fno-omit-frame-pointer -no-pie \
	-fdebug-prefix-map="$T/build=/build" -o "$T/d/a" dwarf_c.c) || exit 1
cp "$T/d/a" "$T/d/b"
(cd "$T/d" && dwz -m common a b) || { echo "skip: dwz -m declined"; exit 77; }
readelf -SW "$T/d/a" | grep -q '\.gnu_debugaltlink' || bad "no .gnu_debugaltlink"

# a dump of /usr/bin/a: each return address of a (the instruction after a call)
read -r off vaddr size <<<"$(readelf -lW "$T/d/a" | awk '$1 == "LOAD" && / E / { print $2, $3, $6; exit }')"
{
	echo 'heap_v2/0'
	echo '  t*: 1: 4096 [0: 0]'
	objdump -d --no-show-raw-insn "$T/d/a" | awk '/\tcall / { getline; sub(/:$/, "", $1); print $1 }' |
		while read -r a; do
			printf '@ 0x%x\n  t*: 1: 4096 [0: 0]\n' $((0x$a))
		done
	echo
	echo 'MAPPED_LIBRARIES:'
	printf '%012x-%012x r-xp %08x 08:01 1 /usr/bin/a\n' $((vaddr & ~0xfff)) \
		$(((vaddr + size + 0xfff) & ~0xfff)) $((off & ~0xfff))
} >"$T/a.heap"

# altlink FILE NAME: FILE's .gnu_debugaltlink names NAME (its build ID kept)
altlink() {
	objcopy --dump-section .gnu_debugaltlink="$T/link" "$1" &&
		python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[1], "wb").write(sys.argv[2].encode() + d[d.index(b"\0"):])' "$T/link" "$2" &&
		objcopy --update-section .gnu_debugaltlink="$T/link" "$1"
}
# run NAME ARGS...: --text --lines of the dump with --sysroot, to NAME.out/.err
run() {
	local n=$1
	shift
	"$JEHEAP" --no-cache --text --lines --sysroot="$T/root" "$@" "$T/a.heap" >"$T/$n.out" 2>"$T/$n.err" ||
		bad "$n: exit $?: $(cat "$T/$n.err")"
}

# the references: the alternate file beside a inside the root, and none at all
cp "$T/d/a" "$T/root/usr/bin/a"
cp "$T/d/common" "$T/root/usr/bin/common"
run with
rm "$T/root/usr/bin/common"
run without
cmp -s "$T/with.out" "$T/without.out" && bad "the alternate file makes no difference: the test cannot tell"
grep -q 'dwarf_c.c:[0-9]' "$T/with.out" || bad "no file:line with the alternate file"

# a relative name that climbs out of the root, to a file that would match
cp "$T/d/common" "$T/outside/common"
altlink "$T/root/usr/bin/a" ../../../outside/common || exit 1
run climb
cmp -s "$T/climb.out" "$T/without.out" || bad "'..' out of --sysroot: the alternate file outside was read"
grep -qxF "jeheap: warning: /usr/bin/../../../outside/common climbs above $T/root: refused" "$T/climb.err" ||
	bad "'..' out of --sysroot: no refusal: $(cat "$T/climb.err")"
# the same name, a link inside the root: resolved inside it
mkdir -p "$T/root/outside"
cp "$T/d/common" "$T/root/outside/common"
altlink "$T/root/usr/bin/a" ../../outside/common || exit 1
run inside
cmp -s "$T/inside.out" "$T/with.out" || bad "a relative name inside --sysroot: not the alternate file"

# an absolute name: inside the root, never the host's file of that name
altlink "$T/root/usr/bin/a" "$T/outside/common" || exit 1
run absolute
cmp -s "$T/absolute.out" "$T/without.out" || bad "an absolute name with --sysroot: the host's file was read"
mkdir -p "$T/root$T/outside"
cp "$T/d/common" "$T/root$T/outside/common"
run absolute_in
cmp -s "$T/absolute_in.out" "$T/with.out" || bad "an absolute name inside --sysroot: not found"

# --list: the source /build/dwarf_c.c inside --sysroot, not on the host
altlink "$T/root/usr/bin/a" common || exit 1
cp "$T/d/common" "$T/root/usr/bin/common"
list() { # NAME ARGS...: --list=sort_and_sum of the dump, to NAME.out/.err
	local n=$1
	shift
	"$JEHEAP" --no-cache --list='^sort_and_sum$' "$@" "$T/a.heap" >"$T/$n.out" 2>"$T/$n.err"
}
mkdir -p "$T/root/build"
cp "$T/build/dwarf_c.c" "$T/root/build/dwarf_c.c"
list lin --sysroot="$T/root" || bad "--list inside --sysroot: exit $?: $(cat "$T/lin.err")"
grep -q 'ROUTINE.*sort_and_sum' "$T/lin.out" && grep -q 'qsort(v, (size_t)n' "$T/lin.out" ||
	bad "--list inside --sysroot: no listing: $(head -3 "$T/lin.out")"
# a link in the root that climbs out to a file that is not the source
sed 's/qsort(v, (size_t)n/OUTSIDE_SOURCE/' "$T/build/dwarf_c.c" >"$T/outside/dwarf_c.c"
rm "$T/root/build/dwarf_c.c"
ln -s ../../outside/dwarf_c.c "$T/root/build/dwarf_c.c"
list lout --sysroot="$T/root"
grep -q OUTSIDE_SOURCE "$T/lout.out" && bad "--list: a source link out of --sysroot was read"
grep -qxF "jeheap: warning: /build/dwarf_c.c climbs above $T/root: refused" "$T/lout.err" ||
	bad "--list: no refusal: $(cat "$T/lout.err")"
[ "$(grep -c 'dwarf_c.c' "$T/lout.err")" = 1 ] || bad "--list refused: not one line: $(cat "$T/lout.err")"
# --path-map (before --sysroot for sources): inside NEW
rm "$T/root/build/dwarf_c.c"
mkdir -p "$T/map/src"
ln -s ../../outside/dwarf_c.c "$T/map/src/dwarf_c.c"
list mout --sysroot="$T/root" --path-map=/build="$T/map/src"
grep -q OUTSIDE_SOURCE "$T/mout.out" && bad "--list: a source link out of --path-map's NEW was read"
grep -qxF "jeheap: warning: /dwarf_c.c climbs above $T/map/src: refused" "$T/mout.err" ||
	bad "--list --path-map: no refusal: $(cat "$T/mout.err")"
rm "$T/map/src/dwarf_c.c"
cp "$T/build/dwarf_c.c" "$T/map/src/dwarf_c.c"
list min --sysroot="$T/root" --path-map=/build="$T/map/src" || bad "--list --path-map: exit $?"
cmp -s "$T/min.out" "$T/lin.out" || bad "--list through --path-map differs from --sysroot's"
[ $fail = 0 ] && echo "ok: dwz alternate files and --list sources stay inside --sysroot and --path-map"
exit $fail
