#!/bin/bash
# jeheap --symbols on real jemalloc dumps of a PIE and a non-PIE C program
# (+ a shared library) and a C++ program: every frame of every address, inline
# frames included, must equal llvm-symbolizer --inlining (columns dropped).
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
for v in pie:prog_pie nopie:prog_nopie cxx:cxx; do
	name=${v%%:*} prog=$FX/${v#*:}
	symin "$(dump "$name")" > "$W/in.$name"
	python3 "$SYM/oracle.py" < "$W/in.$name" > "$W/want.$name"
	"$JEHEAP" --symbols "$prog" < "$W/in.$name" > "$W/got.$name" 2> "$W/err.$name"
	compare "$name" "$W/want.$name" "$W/got.$name"
done
