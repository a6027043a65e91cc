#!/bin/bash
# The files of a dump analysed elsewhere: under --sysroot, and moved to a
# directory named with --path-map OLD=NEW (the original paths are gone).
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
# only the fixture's own mappings: system libraries are not in the sysroot
symin "$(dump pie)" | grep -v '^[0-9a-f]*-.* /usr/' > "$W/in"
python3 "$SYM/oracle.py" < "$W/in" > "$W/want"
mkdir -p "$W/root$FX" "$W/moved"
cp "$FX/prog_pie" "$FX/libsymlib.so" "$W/root$FX/"
mv "$FX/prog_pie" "$FX/libsymlib.so" "$W/moved/"
# --sysroot (the program argument stands for the executable; the library is found in the sysroot)
"$JEHEAP" --symbols --sysroot "$W/root" "$W/root$FX/prog_pie" < "$W/in" > "$W/got.sysroot"
compare sysroot "$W/want" "$W/got.sysroot"
# --path-map; a first non-matching map must not get in the way
"$JEHEAP" --symbols --path-map "/nonexistent=/x" --path-map "$FX=$W/moved" "$W/moved/prog_pie" < "$W/in" > "$W/got.pathmap"
compare path-map "$W/want" "$W/got.pathmap"
