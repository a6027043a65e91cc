#!/usr/bin/env bash
# symcache_units.sh - the unit index of the symbol cache (a dump of the same build
# with new addresses needs no DWARF). --symbols-only writes, beside each module's
# answers (.jhc), its whole unit index (.jhu); a run whose addresses are not among the
# cached answers is answered from it.
#  1. every golden dump, the answers (.jhc) removed so that every address goes to the
#     index: --raw (every frame, inline chains) and --text --lines (file:line) print the
#     bytes and stderr of --no-cache, and no run opens any debug sections (JH_TRACE=1);
#  2. new addresses: the index made from the first dump of a golden folder (before.heap,
#     run1.heap) answers the others (after.heap, run2.heap) the same way;
#  3. a fixture rebuilt at the same path never gets the old build's index;
#  4. a .jhu truncated, with a bit flipped in its header or in a unit's compressed bytes,
#     from a future version (valid checksum), or with a unit whose bytes decode to
#     nonsense under a valid zstd checksum: one warning naming the file, the right
#     output (from the DWARF), the file removed; --symbols-only writes it again and the
#     next run is silent and reads no DWARF;
#  5. concurrent --symbols-only and report runs on one empty cache all finish with the
#     right output and leave no temporary file.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
set +e
cd "$T"
unset JEHEAP_CACHE_DIR XDG_CACHE_HOME
command -v xz >/dev/null || { echo "skip: no xz"; exit 77; }
command -v zstd >/dev/null || { echo "skip: no zstd"; exit 77; }
SRC=$JH_SRC source "$JH_SRC/tests/fixtures/golden_bins.sh"
C=$T/cache
MODES=("--raw" "--text --lines --nodecount=100000")

# same  DUMP...: each mode, index only, equals --no-cache (stdout and stderr), no DWARF read
same() {
	local h mode
	for h in "$@"; do
		for mode in "${MODES[@]}"; do
			# shellcheck disable=SC2086
			"$JEHEAP" --no-cache $mode "$h" >ref 2>ref.err || fail "$h $mode: --no-cache exit $?"
			rm -f "$C"/*.jhc
			# shellcheck disable=SC2086
			JH_TRACE=1 "$JEHEAP" --cache-dir="$C" $mode "$h" >out 2>err || fail "$h $mode: exit $?"
			cmp -s ref out || fail "$h $mode: output differs: $(diff ref out | head -5)"
			grep -v '^jeheap-trace' err | cmp -s ref.err - ||
				fail "$h $mode: stderr differs: $(grep -v '^jeheap-trace' err | diff ref.err - | head -5)"
			grep -q 'sections open\|dwarf open' err && fail "$h $mode: DWARF read: $(grep open err | head -2)"
			grep -q 'from the unit index: 0' err || fail "$h $mode: nothing answered from the index"
			pairs=$((pairs + 1))
		done
	done
}

# 1, 2. per golden directory: the index made from its first dump answers every dump there
pairs=0
news=0
for d in "$JH_SRC"/testdata/golden/*/; do
	mapfile -t hs < <(ls "$d"*.heap 2>/dev/null)
	[ ${#hs[@]} -gt 0 ] || continue
	rm -rf "$C"
	"$JEHEAP" --cache-dir="$C" --symbols-only "${hs[0]}" >/dev/null 2>&1 || fail "${hs[0]}: --symbols-only"
	ls "$C"/*.jhu >/dev/null 2>&1 || fail "${hs[0]}: --symbols-only wrote no unit index"
	same "${hs[@]}"
	news=$((news + ${#hs[@]} - 1))
done
[ $pairs -ge 30 ] || fail "only $pairs dump/mode pairs"
[ $news -ge 8 ] || fail "only $news dumps with new addresses"

# 3. rebuilt at the same path: the old index is not used
rm -rf "$C"
mkdir -p rb && cp "$JH_SRC/tests/fixtures/reports/rfix.c" rb/rfix.c
build() { (cd rb && gcc -g -O2 -fno-omit-frame-pointer -o rfix rfix.c && rm -f p.*.heap &&
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:12,prof_prefix:p ./rfix); }
build || fail "rfix build"
"$JEHEAP" --cache-dir="$C" --symbols-only rb/rfix rb/p.*.heap >/dev/null 2>&1 || fail "rfix --symbols-only"
ls "$C"/*.jhu >/dev/null 2>&1 || fail "rfix: no unit index"
sed -i 's/leaf_alloc/leaf_allocX/g' rb/rfix.c
build || fail "rfix rebuild"
"$JEHEAP" --no-cache --text rb/rfix rb/p.*.heap >ref 2>/dev/null || fail "rebuilt: --no-cache"
grep -q ' leaf_allocX$' ref || fail "rebuilt: leaf_allocX not named without the cache"
rm -f "$C"/*.jhc
JH_TRACE=1 "$JEHEAP" --cache-dir="$C" --text rb/rfix rb/p.*.heap >out 2>err || fail "rebuilt: exit"
cmp -s ref out || fail "rebuilt fixture got the old index's frames: $(diff ref out | head -4)"
grep -q "addresses of [^ ]*rb/rfix from the unit index" err && fail "rebuilt: the old index was read"

# 4. corrupt index files (the fixture: one module with DWARF besides libc and jemalloc)
"$JEHEAP" --no-cache --raw "$PROG" "$HEAP" >ref 2>ref.err || fail "ref"
id=$(readelf -n "$PROG" | sed -n 's/.*Build ID: //p')
[ -n "$id" ] || fail "no build id"
# unitpatch FILE HOW: edits the .jhu (its layout: sym_units.h)
unitpatch() {
	python3 - "$1" "$2" <<'EOF'
import struct, subprocess, sys, zlib
p, how = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
siglen, nunits, nranges = struct.unpack_from("=IIQ", b, 16)
end = 32 + siglen + nranges * 24 + nunits * 16
units = [struct.unpack_from("=QQ", b, 32 + siglen + nranges * 24 + 16 * u) for u in range(nunits)]
units = [(o, n) for o, n in units if o]
off, n = max(units, key=lambda u: u[1])  # the biggest unit
def fixcrc():
    struct.pack_into("=I", b, end, zlib.crc32(bytes(b[:end])))
if how == "truncate":
    del b[len(b) // 2:]
elif how == "header":
    b[end - 8] ^= 0x10
elif how == "blob":
    b[off + n // 2] ^= 0x10
elif how == "future":
    struct.pack_into("=I", b, 8, 99)
    fixcrc()
elif how == "nonsense":  # a node's parent after itself, under a valid zstd checksum
    raw = bytearray(subprocess.run(["zstd", "-dc"], input=bytes(b[off:off + n]),
                                   capture_output=True, check=True).stdout)
    nodes = struct.unpack_from("=I", raw, 4)[0]
    assert nodes > 0
    struct.pack_into("=I", raw, 40, 5)  # node 0's parent + 1
    z = subprocess.run(["zstd", "-q", "-c", "--check"], input=bytes(raw),
                       capture_output=True, check=True).stdout
    b[off:off + n] = z
    # the units after it move by the size change
    delta = len(z) - n
    for u in range(nunits):
        at = 32 + siglen + nranges * 24 + 16 * u
        o, m = struct.unpack_from("=QQ", b, at)
        if o == off:
            struct.pack_into("=QQ", b, at, o, len(z))
        elif o > off:
            struct.pack_into("=QQ", b, at, o + delta, m)
    fixcrc()
open(p, "wb").write(b)
EOF
}
for how in truncate header blob future nonsense; do
	rm -rf "$C"
	"$JEHEAP" --cache-dir="$C" --symbols-only "$PROG" "$HEAP" >/dev/null 2>&1 || fail "$how: fill"
	rm -f "$C"/*.jhc
	f=$(ls "$C"/"$id"-*.jhu) || fail "no unit index named after the build ID $id"
	before=$(md5sum <"$f")
	unitpatch "$f" $how || fail "$how: patch"
	[ "$(md5sum <"$f")" != "$before" ] || fail "$how: not changed"
	"$JEHEAP" --cache-dir="$C" --raw "$PROG" "$HEAP" >out 2>err || fail "$how: exit $?"
	cmp -s ref out || fail "$how: output differs"
	[ "$(grep -c 'warning: symbol cache file' err)" = 1 ] || fail "$how: not one warning: $(cat err)"
	grep -q "$f" err || fail "$how: the warning does not name $f: $(cat err)"
	case $how in
	truncate) grep -q 'truncated' err || fail "$how: $(cat err)" ;;
	header) grep -q 'checksum' err || fail "$how: $(cat err)" ;;
	blob | nonsense) grep -q 'unit [0-9]* is corrupt' err || fail "$how: $(cat err)" ;;
	future) grep -q 'another version' err || fail "$how: $(cat err)" ;;
	esac
	grep -v 'symbol cache file' err | cmp -s - ref.err || fail "$how: other stderr: $(cat err)"
	[ -e "$f" ] && fail "$how: the corrupt file stayed"
	"$JEHEAP" --cache-dir="$C" --symbols-only "$PROG" "$HEAP" >/dev/null 2>err || fail "$how: rewrite"
	[ -e "$f" ] || fail "$how: --symbols-only did not write the index again"
	rm -f "$C"/*.jhc
	JH_TRACE=1 "$JEHEAP" --cache-dir="$C" --raw "$PROG" "$HEAP" >out 2>err || fail "$how: exit $?"
	cmp -s ref out || fail "$how: output differs after the rewrite"
	grep -q 'symbol cache' err && fail "$how: not rewritten: $(grep 'symbol cache' err)"
	grep -q 'sections open' err && fail "$how: DWARF read after the rewrite"
done

# 5. concurrent --symbols-only and report runs
G=$(ls "$JH_SRC"/testdata/golden/*/after.heap | head -4)
source "$JH_SRC/tests/fixtures/symcache_concurrent.sh"
run_mixed() { # odd loops write the index first; every loop's answers file is removed
	if [ $(($1 % 2)) = 1 ]; then
		"$JEHEAP" --cache-dir="$C" --symbols-only "$2" >/dev/null || return 1
	fi
	rm -f "$C"/*.jhc
	"$JEHEAP" --cache-dir="$C" --raw "$2"
}
# shellcheck disable=SC2086 # the dumps' paths have no blanks
concurrent_runs "$C" 2 run_mixed : $G
echo "ok ($pairs dump/mode pairs from the index alone, $news with new addresses)"
