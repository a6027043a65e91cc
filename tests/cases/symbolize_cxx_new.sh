#!/bin/bash
# C++ `new` through Debian's stripped libjemalloc.so.2: jeprof names the
# jemalloc-internal frames malloc_usable_size (nm's nearest exported symbol);
# jeheap leaves them unnamed, and the first named frame above them is the
# fixture's own code.
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
d=$(dump cxx)
# the stack with the most bytes: the 16 new long[1024] of Holder::grow
stack=$(awk '/^@/{s=$0} /^  t\*:/ && s{split($0,f,": "); if (f[3]+0 > max) {max=f[3]+0; best=s}; s=""} END{print best}' "$d")
[ -n "$stack" ] || { echo "FAIL: no stack through the fixture" >&2; exit 1; }
{ sed -n '/^MAPPED_LIBRARIES:/,$p' "$d" | tail -n +2; echo "$stack" | tr ' ' '\n' | grep '^0x'; } > "$W/in"
"$JEHEAP" --symbols "$FX/cxx" < "$W/in" > "$W/got"
cat "$W/got"
if grep -q malloc_usable_size "$W/got"; then echo "FAIL: malloc_usable_size named" >&2; exit 1; fi
# outermost name of each address, in stack order; the first real one is the fixture's
first=$(awk 'BEGIN{RS=""; FS="\n"} {print $(NF-1)}' "$W/got" | grep -v '^??$' | head -1)
case $first in
"operator new"*|"fix::Holder<long>::grow(int)") echo "ok: top frame $first" ;;
*) echo "FAIL: top frame is '$first'" >&2; exit 1 ;;
esac
