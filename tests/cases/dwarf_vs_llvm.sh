#!/bin/bash
# DWARF accuracy: every instruction address of the fixtures' functions is
# resolved by jh_dwarf_dump (our section store + DWARF resolver) and by
# llvm-symbolizer --inlining; function (mangled), file, line and frame count
# must be identical (llvm's ":column" is dropped), and so must each frame's function
# start line (llvm's --verbose "Function start line"). Builds: gcc and clang,
# C and C++, -O2 -g, DWARF 4 and 5; variants: -gz, objcopy zlib-gnu
# (.zdebug), zstd, dwz, dwz -m (.gnu_debugaltlink), dwz -5 -m (.debug_sup).
# llvm 14 cannot read zstd and loses names after dwz, so those variants are
# compared with llvm's answer on the plain build (same addresses).
set -u
: "${JH_SRC:?}" "${JH_BUILD:?}"
DUMP=$JH_BUILD/tests/jh_dwarf_dump
FIX=$JH_SRC/tests/fixtures/dwarf
for t in llvm-symbolizer objdump objcopy gcc g++ clang clang++ python3 dwz; do
	command -v $t >/dev/null || { echo "SKIP: $t missing"; exit 77; }
done
[ -x "$DUMP" ] || { echo "FAIL: $DUMP not built"; exit 1; }
tmp=$(mktemp -d)
[ -n "${JH_KEEP:-}" ] && echo "keeping $tmp" || trap 'rm -rf "$tmp"' EXIT
fail=0 checked=0

# Instruction addresses of the fixture's functions in .text (crt code excluded).
addrs_of() {
	objdump -d --no-show-raw-insn -j .text "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ {
			name = $2; sub(/^</, "", name); sub(/>:$/, "", name)
			on = (name !~ /^(_start|_dl_relocate_static_pie|deregister_tm_clones|register_tm_clones|__do_global_dtors_aux|frame_dummy)$/)
			next
		}
		on && /^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); print "0x" a }'
}

llvm_ref() { # ELF addrs -> llvm-symbolizer's frames without columns
	llvm-symbolizer --inlining --no-demangle --obj="$1" < "$2" | sed -E 's/^(.*):([0-9]+):[0-9]+$/\1:\2/'
}

# llvm-symbolizer's "Function start line" of each frame (0 if none), as jh_dwarf_dump -s prints
llvm_starts() { # ELF addrs
	llvm-symbolizer --verbose --inlining --obj="$1" < "$2" | awk '
		/^$/ { if (have) print v; have = 0; print ""; next }
		/^[^ ]/ { if (have) print v; have = 1; v = 0; next }
		/^  Function start line: / { v = $4 }'
}

compare() { # name ref ours
	checked=$((checked + 1))
	local n
	n=$(grep -c '^$' "$2")
	if cmp -s "$2" "$3"; then
		echo "ok   $1 ($n addresses)"
	else
		echo "FAIL $1: differs from llvm-symbolizer"
		diff "$2" "$3" | head -20
		fail=1
	fi
}

for cc in gcc clang; do
	for lang in c cxx; do
		if [ $lang = c ]; then
			src=$FIX/dwarf_c.c comp=$cc
		else
			src=$FIX/dwarf_cxx.cc comp=g++
			[ $cc = clang ] && comp=clang++
		fi
		for v in 4 5; do
			id=$cc-$lang-v$v
			b=$tmp/$id
			if ! $comp -O2 -g -gdwarf-$v -I"$FIX" "$src" -o $b.plain 2>$b.err; then
				echo "FAIL $id: compile"; cat $b.err; fail=1; continue
			fi
			addrs_of $b.plain > $b.addrs
			[ -s $b.addrs ] || { echo "FAIL $id: no addresses"; fail=1; continue; }
			llvm_ref $b.plain $b.addrs > $b.ref
			"$DUMP" $b.plain < $b.addrs > $b.out 2>&1
			compare "$id plain" $b.ref $b.out
			llvm_starts $b.plain $b.addrs > $b.sref
			"$DUMP" -s $b.plain < $b.addrs > $b.sout 2>&1
			compare "$id plain, function start lines" $b.sref $b.sout
			"$DUMP" -j 1 $b.plain < $b.addrs > $b.out1 2>&1
			# both DIE walkers, each alone: our scanner and libdwarf's tree
			JH_DWARF_WALK=fast "$DUMP" $b.plain < $b.addrs > $b.fast 2>&1
			compare "$id plain, scanner walk only" $b.ref $b.fast
			JH_DWARF_WALK=libdwarf "$DUMP" $b.plain < $b.addrs > $b.slow 2>&1
			compare "$id plain, libdwarf walk only" $b.ref $b.slow
			if command -v python3 >/dev/null; then # demangled, styles normalised
				llvm-symbolizer --inlining --obj=$b.plain < $b.addrs |
					sed -E 's/^(.*):([0-9]+):[0-9]+$/\1:\2/' > $b.dmref
				"$DUMP" -C $b.plain < $b.addrs > $b.dmout 2>&1
				checked=$((checked + 1))
				if python3 "$JH_SRC/tests/tools/demangle_cmp.py" $b.dmref $b.dmout > $b.dmdiff; then
					echo "ok   $id plain demangled"
				else
					echo "FAIL $id demangled names differ from llvm-symbolizer's"
					cat $b.dmdiff
					fail=1
				fi
			fi
			cmp -s $b.out $b.out1 || { echo "FAIL $id: -j 1 and -j 2 differ"; fail=1; }

			if $comp -O2 -g -gdwarf-$v -gz -I"$FIX" "$src" -o $b.gz 2>/dev/null; then
				addrs_of $b.gz > $b.gzaddrs
				llvm_ref $b.gz $b.gzaddrs > $b.gzref
				"$DUMP" $b.gz < $b.gzaddrs > $b.gzout 2>&1
				compare "$id -gz" $b.gzref $b.gzout
			fi
			for c in zlib-gnu zstd; do
				objcopy --compress-debug-sections=$c $b.plain $b.$c
				JH_DWARF_WALK=fast "$DUMP" $b.$c < $b.addrs > $b.$c.out 2>&1
				compare "$id objcopy $c" $b.ref $b.$c.out
			done
			command -v dwz >/dev/null || continue
			cp $b.plain $b.dwz
			if dwz $b.dwz 2>$b.dwzerr; then
				JH_DWARF_WALK=fast "$DUMP" $b.dwz < $b.addrs > $b.dwz.out 2>&1
				compare "$id dwz" $b.ref $b.dwz.out
			else
				echo "note $id: dwz declined: $(head -1 $b.dwzerr)"
			fi
			for mode in gnu 5; do
				d=$tmp/m$mode-$id
				mkdir -p $d
				cp $b.plain $d/a
				cp $b.plain $d/b
				flag=
				[ $mode = 5 ] && flag=-5
				if (cd $d && dwz $flag -m common a b 2>err); then
					link=$(objdump -h $d/a | grep -o -E '\.gnu_debugaltlink|\.debug_sup' | head -1)
					JH_DWARF_WALK=fast "$DUMP" --alt $d/common $d/a < $b.addrs > $d/out 2>&1
					compare "$id dwz $flag -m ($link)" $b.ref $d/out
					"$DUMP" -s --alt $d/common $d/a < $b.addrs > $d/sout 2>&1
					compare "$id dwz $flag -m ($link), function start lines" $b.sref $d/sout
					# without the alt file the names must be lost: the alt path was used
					"$DUMP" $d/a < $b.addrs > $d/noalt 2>&1
					if cmp -s $b.ref $d/noalt; then
						echo "FAIL $id dwz $flag -m: the alt file made no difference"; fail=1
					fi
				else
					echo "note $id: dwz $flag -m declined: $(head -1 $d/err)"
				fi
			done
		done
	done
done
[ $checked -ge 24 ] || { echo "FAIL: only $checked comparisons ran"; fail=1; }
exit $fail
