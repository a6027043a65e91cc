#!/bin/bash
# jeheap --text on raw jemalloc dumps against jeprof --text on the same dumps:
# every line that names the fixture's own functions (where jeprof's names are
# right) is byte-identical; where jeprof is wrong (stripped libraries: the
# nm nearest-symbol guess) jeheap is right: the C++ fixture's top frame is
# Holder::grow, not jemalloc's malloc_usable_size.
. "$JH_SRC/tests/fixtures/sym/lib.sh"
command -v jeprof >/dev/null || { echo "SKIP: jeprof is not installed" >&2; exit 77; }
# without file(1) jeprof takes the ELF programs for Windows ones (its test of $^O is numeric)
# and names addresses from nm alone: no inline frames on its side
[ -x /usr/bin/file ] || { echo "FAIL: jeprof needs /usr/bin/file (package file, scripts/setup installs it)" >&2; exit 1; }
if "$JEHEAP" --text "$FX/prog_pie" "$(dump pie)" 2>&1 | grep -q 'not built yet'; then
	echo "SKIP: jeheap --text on raw dumps is not built yet" >&2
	exit 77
fi
own='(lib_fill|leaf_alloc|inner|middle|outer|main|lib_static_alloc|symlib_alloc|clone_site[.a-z0-9]*)( \(inline\))?$'
for v in pie:prog_pie nopie:prog_nopie; do
	name=${v%%:*} prog=$FX/${v#*:}
	jeprof --text "$prog" "$(dump "$name")" 2>/dev/null > "$W/jeprof.$name"
	"$JEHEAP" --text "$prog" "$(dump "$name")" > "$W/jeheap.$name" 2> "$W/err.$name"
	grep -E " $own" "$W/jeprof.$name" > "$W/want.$name"
	grep -E " $own" "$W/jeheap.$name" > "$W/got.$name"
	[ "$(wc -l < "$W/want.$name")" -ge 6 ] || { echo "FAIL: too few fixture lines from jeprof" >&2; exit 1; }
	compare "text-$name" "$W/want.$name" "$W/got.$name"
	# gcc's clone keeps its symbol-table name (llvm-symbolizer's and jeprof's nm choice)
	grep -q ' clone_site\.constprop' "$W/got.$name" || { echo "FAIL: clone name" >&2; exit 1; }
	head -1 "$W/jeprof.$name" > "$W/t1"; head -1 "$W/jeheap.$name" > "$W/t2"
	compare "total-$name" "$W/t1" "$W/t2"
done
jeprof --text "$FX/cxx" "$(dump cxx)" 2>/dev/null > "$W/jeprof.cxx"
"$JEHEAP" --text "$FX/cxx" "$(dump cxx)" > "$W/jeheap.cxx" 2>/dev/null
sed -n 2p "$W/jeprof.cxx"
sed -n 2p "$W/jeheap.cxx"
sed -n 2p "$W/jeprof.cxx" | grep -q 'malloc_usable_size$' || echo "note: jeprof no longer says malloc_usable_size"
sed -n 2p "$W/jeheap.cxx" | grep -q ' fix::Holder::grow$' || { echo "FAIL: top frame of the new[] stacks" >&2; exit 1; }
if grep -q malloc_usable_size "$W/jeheap.cxx"; then echo "FAIL: malloc_usable_size named" >&2; exit 1; fi
echo ok
