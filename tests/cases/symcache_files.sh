#!/usr/bin/env bash
# symcache_files.sh - the symbol cache's files:
#  1. a fixture rebuilt at the same path (a function renamed, so the old addresses would
#     give the old name) gets fresh frames, with a build ID and without one (then the
#     file's path, size, mtime and inode identify it);
#  2. a cache file truncated, with a bit flipped, or from a future version (valid
#     checksum) is ignored with one warning, the output is right, and it is rewritten
#     (the next run is silent);
#  3. four concurrent runs on one empty cache all print the right output, leave no
#     temporary file, and leave a cache the next run uses silently;
#  4. --cache-size bounds the folder, least recently used files out first.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
unset JEHEAP_CACHE_DIR
H=$(basename "$HEAP")
C=$T/cache

# 1. rebuilt at the same path
for variant in id noid; do
	flags=()
	[ $variant = noid ] && flags=(-Wl,--build-id=none)
	mkdir -p $variant && cp src/rfix.c $variant/rfix.c
	(cd $variant && gcc -g -O2 -fno-omit-frame-pointer "${flags[@]}" -o rfix rfix.c &&
		rm -f p.*.heap &&
		LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:12,prof_prefix:p ./rfix)
	if [ $variant = noid ]; then
		readelf -n $variant/rfix | grep -q 'Build ID' && fail "noid fixture has a build ID"
	fi
	"$JEHEAP" --cache-dir="$C" --text $variant/rfix $variant/p.*.heap >out1 2>/dev/null || fail "$variant: exit"
	grep -q ' leaf_alloc$' out1 || fail "$variant: leaf_alloc not named"
	sleep 0.01
	sed -i 's/leaf_alloc/leaf_allocX/g' $variant/rfix.c
	(cd $variant && gcc -g -O2 -fno-omit-frame-pointer "${flags[@]}" -o rfix rfix.c &&
		rm -f p.*.heap &&
		LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:12,prof_prefix:p ./rfix)
	"$JEHEAP" --cache-dir="$C" --text $variant/rfix $variant/p.*.heap >out2 2>/dev/null || fail "$variant: exit"
	"$JEHEAP" --no-cache --text $variant/rfix $variant/p.*.heap >ref2 2>/dev/null || fail "$variant: exit"
	grep -q ' leaf_allocX$' ref2 || fail "$variant: leaf_allocX not named without the cache"
	cmp -s out2 ref2 || fail "$variant: rebuilt fixture got stale frames: $(diff ref2 out2 | head -4)"
done

# 2. corrupt files
"$JEHEAP" --no-cache --raw "$PROG" "$H" >ref 2>referr || fail "ref"
id=$(readelf -n "$PROG" | sed -n 's/.*Build ID: //p')
[ -n "$id" ] || fail "no build id"
corrupt() { # HOW FILE
	case $1 in
	truncate) truncate -s $(($(stat -c %s "$2") / 2)) "$2" ;;
	flip) python3 -c 'import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) * 2 // 3] ^= 0x10
open(p, "wb").write(b)' "$2" ;;
	future) python3 -c 'import sys, struct, zlib
p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[8:12] = struct.pack("=I", 99)
b[-4:] = struct.pack("=I", zlib.crc32(bytes(b[:-4])))
open(p, "wb").write(b)' "$2" ;;
	esac
}
for how in truncate flip future; do
	rm -rf "$C"
	"$JEHEAP" --cache-dir="$C" --raw "$PROG" "$H" >out 2>/dev/null || fail "$how: fill"
	f=$(ls "$C"/"$id"-*.jhc) || fail "no cache file named after the build ID $id"
	before=$(md5sum <"$f")
	corrupt $how "$f"
	[ "$(md5sum <"$f")" != "$before" ] || fail "$how: not changed"
	"$JEHEAP" --cache-dir="$C" --raw "$PROG" "$H" >out 2>err || fail "$how: exit $?"
	cmp -s ref out || fail "$how: output differs"
	grep -c 'warning: symbol cache file' err | grep -qx 1 || fail "$how: not one warning: $(cat err)"
	case $how in
	truncate) grep -q 'truncated\|checksum' err || fail "$how: $(cat err)" ;;
	flip) grep -q 'checksum' err || fail "$how: $(cat err)" ;;
	future) grep -q 'another version' err || fail "$how: $(cat err)" ;;
	esac
	grep -v 'symbol cache file' err | cmp -s - referr || fail "$how: other stderr: $(cat err)"
	"$JEHEAP" --cache-dir="$C" --raw "$PROG" "$H" >out 2>err || fail "$how: exit $?"
	cmp -s ref out || fail "$how: output differs after the rewrite"
	grep -q 'symbol cache' err && fail "$how: not rewritten: $(cat err)"
done

# 3. concurrent runs (the golden dumps too: several modules each)
command -v xz >/dev/null || { echo "skip: no xz"; exit 77; }
SRC=$JH_SRC source "$JH_SRC/tests/fixtures/golden_bins.sh"
G=$(ls "$JH_SRC"/testdata/golden/*/*.heap | head -6)
source "$JH_SRC/tests/fixtures/symcache_concurrent.sh"
run_raw() { "$JEHEAP" --cache-dir="$C" --raw "$2"; }
reread() { # every dump again, now from the cache the concurrent runs left
	local g
	for g in "$@"; do
		"$JEHEAP" --cache-dir="$C" --raw "$g" >out 2>err
		cmp -s "ref.$(echo "$g" | md5sum | cut -c1-8)" out || fail "after concurrent runs: $g"
		if grep -q 'symbol cache' err; then fail "after concurrent runs: $(cat err)"; fi
	done
}
# shellcheck disable=SC2086 # the dumps' paths have no blanks
concurrent_runs "$C" 3 run_raw reread $G

# 4. the size bound: least recently used out first. The last run (the fixture) adds
# `grown` bytes (measured on a copy), so the bound total + grown - 1 needs exactly one
# file out: the oldest of those the run does not use.
rm -rf "$C" "$T/C2" "$T/C3"
"$JEHEAP" --cache-dir="$T/C2" --raw "$PROG" "$H" >/dev/null 2>&1 || fail "C2"
for g in $G; do "$JEHEAP" --cache-dir="$C" --raw "$g" >/dev/null 2>&1; done
total=$(du -cb "$C"/*.jhc | tail -1 | cut -f1)
cp -a "$C" "$T/C3"
"$JEHEAP" --cache-dir="$T/C3" --raw "$PROG" "$H" >/dev/null 2>&1 || fail "C3"
grown=$(($(du -cb "$T"/C3/*.jhc | tail -1 | cut -f1) - total))
others=$(cd "$C" && ls -tr *.jhc | grep -vxF -f <(cd "$T/C2" && ls *.jhc))
[ "$(echo "$others" | wc -l)" -ge 3 ] || fail "only $(echo "$others" | wc -l) cache files"
oldest=$(echo "$others" | sed -n 2p)
newest=$(echo "$others" | tail -1)
touch -d '2000-01-01' "$C/$oldest"
limit=$((total + grown - 1))
"$JEHEAP" --cache-dir="$C" --cache-size=$limit --raw "$PROG" "$H" >/dev/null 2>&1 || fail "bound: exit"
after=$(du -cb "$C"/*.jhc | tail -1 | cut -f1)
[ "$after" -le $limit ] || fail "bound: $after bytes > $limit"
[ -e "$C/$oldest" ] && fail "bound: the least recently used file stayed"
[ -e "$C/$newest" ] || fail "bound: a recent file went before the oldest"
[ "$(ls "$C"/*.jhc | wc -l)" = $(($(echo "$others" | wc -l) - 1 + $(ls "$T"/C2/*.jhc | wc -l))) ] ||
	fail "bound: more than one file out: $(ls "$C")"
ls "$C"/"$id"-*.jhc >/dev/null || fail "bound: the file just written went"
"$JEHEAP" --cache-size=12Q --text "$H" >/dev/null 2>err && fail "--cache-size=12Q accepted"
grep -q "cache-size" err || fail "--cache-size error: $(cat err)"
echo ok
