#!/bin/bash
# Separate debug info: a stripped binary with a .gnu_debuglink file in .debug/,
# and a stripped binary whose debug file is found by build-id under --debug-dir.
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
symin "$(dump stripped)" > "$W/in.s"
python3 "$SYM/oracle.py" < "$W/in.s" > "$W/want.s"
"$JEHEAP" --symbols "$FX/stripped/prog_pie" < "$W/in.s" > "$W/got.s"
compare debuglink "$W/want.s" "$W/got.s"
grep -q 'symprog.c:' "$W/got.s" || { echo "FAIL: no DWARF line through the debuglink" >&2; exit 1; }

symin "$(dump bid)" > "$W/in.b"
python3 "$SYM/oracle.py" --debug-dir "$FX/debugdir" < "$W/in.b" > "$W/want.b"
"$JEHEAP" --symbols --debug-dir "$FX/debugdir" "$FX/bid/prog_pie" < "$W/in.b" > "$W/got.b"
compare build-id "$W/want.b" "$W/got.b"
grep -q 'symprog.c:' "$W/got.b" || { echo "FAIL: no DWARF line through the build-id" >&2; exit 1; }
# without the debug dir the same addresses have symbol names only
"$JEHEAP" --symbols "$FX/bid/prog_pie" < "$W/in.b" > "$W/got.nodd" 2>/dev/null
if grep -q 'symprog.c:' "$W/got.nodd"; then echo "FAIL: DWARF found without --debug-dir" >&2; exit 1; fi
echo ok
