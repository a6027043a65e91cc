#!/bin/bash
# --base on two RAW dumps of one binary from two runs (ASLR: different load
# addresses; testdata/golden/crossrun, run2 allocates 250 more 4 KiB blocks in
# grow_site): each dump is symbolized against its own mappings and stacks are
# matched on function/file/line, so everything but grow_site's 1024000 B
# cancels (jeprof subtracts raw addresses here and prints every stack twice).
set -uf
G=$JH_SRC/testdata/golden
D=$G/crossrun
command -v xz > /dev/null || { echo "xz missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xz -dc "$G/bin/mt.xz" > "$tmp/mt" && chmod +x "$tmp/mt"
fail=0
err() { echo "FAIL $*"; fail=1; }

"$JEHEAP" --quiet --text --show_bytes --base="$D/run1.heap" "$tmp/mt" "$D/run2.heap" > "$tmp/text" ||
	err "exit code"
head -2 "$tmp/text" | cmp -s - <(head -2 "$D/expected/base.text.show_bytes.out") ||
	{ err "Total/grow_site rows"; head -3 "$tmp/text"; }
# every other row: flat 0, cum the whole difference (the callers of grow_site)
awk 'NR > 2 && !($1 == 0 && $4 == 1024000)' "$tmp/text" | grep -q . && err "rows that did not cancel"

"$JEHEAP" --quiet --collapsed --base="$D/run1.heap" "$tmp/mt" "$D/run2.heap" > "$tmp/col" ||
	err "collapsed exit code"
awk '$(NF-1) != $NF { n++; if ($(NF-2) !~ /;grow_site$/ || $NF - $(NF-1) != 1024000) bad = 1 }
     END { exit bad || n != 1 }' "$tmp/col" || { err "collapsed"; cat "$tmp/col"; }

# objects: 250 blocks
"$JEHEAP" --quiet --text --inuse_objects --base="$D/run1.heap" "$tmp/mt" "$D/run2.heap" |
	head -1 | grep -qx 'Total: 250 objects' || err "objects"
exit $fail
