#!/bin/bash
# A module whose file is missing, or on disk but not the file that ran, is
# reported once on stderr (which file, what was tried) and its addresses stay
# unresolved: never a neighbour's name.
. "$JH_SRC/tests/fixtures/sym/lib.sh"
need_symbols
symin "$(dump pie)" > "$W/in"
lib=$FX/libsymlib.so
# addresses inside the library, from the maps
n_lib=$(python3 "$SYM/oracle.py" < "$W/in" | grep -c '^lib_static_alloc$\|^symlib_alloc$' || true)
[ "$n_lib" -gt 0 ] || { echo "FAIL: fixture has no library frames" >&2; exit 1; }

mv "$lib" "$lib.gone"
"$JEHEAP" --symbols "$FX/prog_pie" < "$W/in" > "$W/got.missing" 2> "$W/err.missing"
cat "$W/err.missing"
[ "$(grep -c "libsymlib.so" "$W/err.missing")" = 1 ] || { echo "FAIL: missing library not reported exactly once" >&2; exit 1; }
grep -qx "jeheap: warning: 1 mapped file not found here: $lib; its frames stay unresolved (--sysroot, --path-map or --lib_prefix point at copies; --verbose says what was tried)" "$W/err.missing" ||
	{ echo "FAIL: not the one line for missing files" >&2; exit 1; }
# --verbose: what was tried, on a line of its own; a warm run (one fresh cache folder)
# says the same
for run in cold warm; do
	"$JEHEAP" --verbose --cache-dir="$W/cache" --symbols "$FX/prog_pie" < "$W/in" > /dev/null 2> "$W/err.$run"
done
grep -qx "jeheap: warning: $lib: not found (tried: $lib)" "$W/err.cold" || { echo "FAIL: --verbose does not say what was tried" >&2; exit 1; }
cmp -s "$W/err.cold" "$W/err.warm" || { echo "FAIL: the warm run says otherwise" >&2; exit 1; }
if grep -q 'symlib\|lib_static_alloc\|lib_fill' "$W/got.missing"; then echo "FAIL: names for a missing file" >&2; exit 1; fi
grep -q '^leaf_alloc$' "$W/got.missing" || { echo "FAIL: the program's frames were lost" >&2; exit 1; }

# another library at the same path: same exported name, other code size
# (a maps line carries no build-id: the segment size is what can be checked)
cat > "$W/other.c" <<'C'
char *symlib_alloc(unsigned long n) { static char b[1 << 16]; return n ? b : 0; }
__asm__(".text\n.fill 20000,1,0x90\n");
C
gcc -O2 -g -shared -fPIC "$W/other.c" -o "$lib"
"$JEHEAP" --symbols "$FX/prog_pie" < "$W/in" > "$W/got.mismatch" 2> "$W/err.mismatch"
cat "$W/err.mismatch"
[ "$(grep -c "libsymlib.so" "$W/err.mismatch")" = 1 ] || { echo "FAIL: mismatched library not reported exactly once" >&2; exit 1; }
grep -q 'is not the file that was mapped' "$W/err.mismatch" || { echo "FAIL: mismatch not explained" >&2; exit 1; }
if grep -q 'symlib\|lib_static_alloc\|lib_fill' "$W/got.mismatch"; then echo "FAIL: guessed names from the wrong file" >&2; exit 1; fi
echo ok
