#!/bin/bash
# Every instruction address of the fixtures' own functions (C and C++, gcc
# and clang, DWARF 4 and 5, -no-pie so that link-time addresses need no maps
# and go through jeprof's program catch-all) symbolized by jeheap --symbols
# and by llvm-symbolizer --inlining: identical function, file:line and frame
# count for every address.
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
command -v clang >/dev/null || exit 77
cd "$W"
n=0
for cc in gcc clang; do
	cxx=g++; [ $cc = clang ] && cxx=clang++
	for dw in 4 5; do
		b=$W/$cc.v$dw
		$cc -O2 -g -gdwarf-$dw -no-pie "$SYM/symprog.c" "$SYM/symlib.c" -o $b.c
		$cxx -O2 -g -gdwarf-$dw -no-pie "$SYM/symcxx.cc" -o $b.cxx
		for prog in $b.c $b.cxx; do
			# instruction addresses inside the fixture's own functions
			objdump -d --no-show-raw-insn "$prog" | awk '
				/^[0-9a-f]+ <.*>:$/ { keep = ($2 !~ /^<(_start|_init|_fini|deregister_tm_clones|register_tm_clones|__do_global_dtors_aux|frame_dummy|_dl_relocate_static_pie|.*@plt)>:$/) }
				keep && /^ *[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }' > $prog.addrs
			# llvm-symbolizer 14 leaves some names mangled that libiberty
			# demangles (normalised here with c++filt, the test's oracle only), and
			# prints clone suffixes as " (.cold)" where addr2line -C says " [clone .cold]"
			llvm-symbolizer --inlining --obj="$prog" < $prog.addrs |
				sed -E 's/^(.*):([0-9]+):[0-9]+$/\1:\2/; s/^\?\?:0:0$/??:0/' | c++filt | sed -E 's/ \((\.[A-Za-z0-9_.]+)\)/ [clone \1]/g' > $prog.want
			"$JEHEAP" --symbols "$prog" < $prog.addrs > $prog.got
			compare "$(basename $prog)" $prog.want $prog.got
			n=$((n + $(wc -l < $prog.addrs)))
		done
	done
done
echo "ok: $n addresses"
