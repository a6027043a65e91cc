#!/usr/bin/env bash
# One state per module, and the hints that follow it, on binaries as Debian ships them:
#  1. Debian's git and redis-server (no .symtab, no debug info installed): the coverage
#     line names the program first, with the package that owns it (dpkg -S is the oracle),
#     not a library holding nothing;
#  2. our fixture stripped both ways: strip --strip-all is "no symbols", --strip-debug is
#     "symbols only", both with "-g" as the fix (no package owns them);
#  3. a debug section that is a decompression bomb: refused with one warning, which the
#     coverage line does not repeat;
#  4. a dump from another machine (--sysroot at an empty folder): one line for all missing
#     files (count, the program first, the option), the coverage line, nothing more; the
#     allocator's frames are dropped by its file name all the same; --verbose says what
#     was tried for each file;
#  5. "fully symbolized" is one figure: the line, --verbose, --json and --stats agree, and
#     the HTML report shows a table of the modules (escaped, not the joined message);
# every run is made twice with one fresh cache folder: the warm run prints the same
# stderr, byte for byte.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
cd "$T"
unset DEBUGINFOD_URLS
H=$(basename "$HEAP")
pct='[0-9]\{1,3\}\.[0-9]'
for tool in git redis-server dpkg; do
	command -v $tool >/dev/null || fail "$tool missing (scripts/setup installs it)"
done

# twice NAME ARGS...: runs jeheap twice with the fresh cache folder cache.NAME; stdout of
# the first run in NAME.out, stderr in NAME.err; the second run's stderr must be the same
twice() {
	local name=$1
	shift
	rm -rf "cache.$name"
	"$JEHEAP" --cache-dir="$T/cache.$name" "$@" >"$name.out" 2>"$name.err" || fail "$name: exit $?: $(cat "$name.err")"
	"$JEHEAP" --cache-dir="$T/cache.$name" "$@" >"$name.out2" 2>"$name.err2" || fail "$name warm: exit $?"
	# (a dump whose files are all absent has nothing to cache)
	[ "${name#away}" != "$name" ] || ls "cache.$name"/*.jhc >/dev/null 2>&1 || fail "$name: nothing cached"
	cmp -s "$name.err" "$name.err2" || fail "$name: the warm run says otherwise: $(diff "$name.err" "$name.err2")"
	cmp -s "$name.out" "$name.out2" || fail "$name: the warm run's report differs"
}
profile() { # PREFIX CMD...: runs CMD under jemalloc's profiler, every allocation sampled
	local p=$1
	shift
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$T/$p "$@"
}
owner() { # the Debian package of a file (dpkg -S), across the /usr merge
	local r
	r=$(realpath "$1")
	{ dpkg -S "$r" 2>/dev/null || dpkg -S "${r#/usr}"; } | head -1 | sed 's/[:,].*//'
}
share() { sed -n "s/.*$1 ([a-z ]*, \\([0-9.]*\\)% of bytes short of lines).*/\\1/p" "$2"; }

# 1. Debian's programs, as installed
git init -q repo && (cd repo && printf 'a\nb\n' >f && git add f &&
	git -c user.name=t -c user.email=t@t commit -q -m m) || fail "git repo"
(cd repo && profile git git blame f >/dev/null)
twice git --text "$(ls git.*.heap | head -1)"
[ "$(wc -l <git.err)" = 1 ] || fail "git: not one line: $(cat git.err)"
gp=$(owner /usr/bin/git)
[ "$gp" = git ] || fail "dpkg -S /usr/bin/git: $gp"
grep -q "^jeheap: $pct% of bytes fully symbolized; git (no symbols, $pct% of bytes short of lines): install git-dbgsym (or git-dbg), or point --debug-dir at its debug file" git.err ||
	fail "git: $(cat git.err)"
s=$(share git git.err)
awk -v s="$s" 'BEGIN { exit !(s > 50) }' || fail "git holds $s% only: $(cat git.err)"

# with no port and no socket redis starts, says "Configured to not listen anywhere,
# exiting" and exits (status 1), through exit(): jemalloc writes its final dump
profile redis redis-server --port 0 --save '' --loglevel warning >/dev/null 2>&1 || true
rp=$(owner /usr/bin/redis-server)
rb=$(basename "$(realpath /usr/bin/redis-server)")
twice redis --text "$(ls redis.*.heap | head -1)"
grep -q "^jeheap: $pct% of bytes fully symbolized; $rb (no symbols, $pct% of bytes short of lines): install $rp-dbgsym (or $rp-dbg)" redis.err ||
	fail "redis: $(cat redis.err)"

# 2. our fixture stripped both ways
mkdir all debug
strip --strip-all -o all/rfix rfix
strip --strip-debug -o debug/rfix rfix
grep -q '\.symtab' <<<"$(readelf -SW all/rfix)" && fail "strip --strip-all kept .symtab"
grep -q '\.symtab' <<<"$(readelf -SW debug/rfix)" || fail "strip --strip-debug lost .symtab"
twice all --text all/rfix "$H"
grep -q "^jeheap: $pct% of bytes fully symbolized; rfix (no symbols, $pct% of bytes short of lines): build it with -g, or point --debug-dir at its debug file" all.err ||
	fail "--strip-all: $(cat all.err)"
twice debug --text debug/rfix "$H"
grep -q "^jeheap: $pct% of bytes fully symbolized; rfix (symbols only, $pct% of bytes short of lines): build it with -g, or point --debug-dir at its debug file" debug.err ||
	fail "--strip-debug: $(cat debug.err)"
twice full --text rfix "$H"
# (jemalloc's own libstdc++ may be named: Debian ships it without debug info)
grep -q "^jeheap: $pct% of bytes fully symbolized\(; libstdc++[^;]*\)\?$" full.err || fail "-g: $(cat full.err)"

# 3. a bomb in place of the debug info: the warning, said by the warm run too
python3 "$JH_SRC/tests/fixtures/bounds/section_bomb.py" rfix bomb zeros 1024 || fail "section_bomb.py"
twice bomb --text ./bomb "$H"
[ "$(wc -l <bomb.err)" = 2 ] || fail "bomb: not two lines: $(cat bomb.err)"
grep -q "^jeheap: warning: \./bomb: cannot read debug information: .*not inflated$" bomb.err || fail "bomb: $(cat bomb.err)"
grep -q "^jeheap: $pct% of bytes fully symbolized\(; libstdc++[^;]*\)\?$" bomb.err || fail "bomb: the line repeats the warning: $(cat bomb.err)"
twice bombv --verbose --text ./bomb "$H"
grep -q "^jeheap:   \./bomb: refused; .*not inflated; reinstall or rebuild its debug file$" bombv.err || fail "bomb --verbose: $(cat bombv.err)"

# 4. a dump from another machine: none of its files here
mkdir empty
twice away --sysroot="$T/empty" --collapsed "$H"
[ "$(wc -l <away.err)" = 2 ] || fail "away: not two lines: $(cat away.err)"
maps() { awk '/^MAPPED_LIBRARIES/ { m = 1; next } m && $2 ~ /x/ && $6 ~ /^\// { print $6 }' "$H"; }
n=$(maps | sort -u | wc -l)
first=$(maps | head -1)
[ "$first" = "$PROG" ] || fail "the dump's first executable mapping is $first"
grep -q "^jeheap: warning: $n mapped files not found here: $PROG, /.*libjemalloc.*; their frames stay unresolved (--sysroot, --path-map or --lib_prefix point at copies; --verbose says what was tried)$" away.err ||
	fail "away ($n files): $(cat away.err)"
grep -qx "jeheap: 0.0% of bytes fully symbolized" away.err || fail "away: $(head -2 away.err | tail -1)"
grep -q 'libjemalloc' away.out && fail "away: allocator frames kept: $(grep libjemalloc away.out | head -3)"
grep -q 'rfix+0x' away.out || fail "away: no program frames: $(head -3 away.out)"
# the same with the library's file at hand (negative control of the name rule: the frames
# come out as names there, and are dropped by the mallctl export)
"$JEHEAP" --no-cache --collapsed "$H" 2>/dev/null | grep -q 'libjemalloc\|je_prof\|imalloc' && fail "allocator frames kept"
twice awayv --verbose --sysroot="$T/empty" --text "$H"
grep -qx "jeheap: warning: $PROG: not found (tried: $T/empty$PROG)" awayv.err || fail "away --verbose: $(cat awayv.err)"
[ "$(grep -c ': not found (tried: ' awayv.err)" = "$n" ] || fail "away --verbose: not $n files: $(cat awayv.err)"
grep -q "^jeheap:   $PROG: missing; .*tried: $T/empty$PROG" awayv.err || fail "away --verbose: $(cat awayv.err)"

# 5. one figure everywhere
"$JEHEAP" --no-cache --verbose --text debug/rfix "$H" >/dev/null 2>v.err || fail "verbose"
line=$(sed -n '1s/^jeheap: \([0-9.]*\)% of bytes fully symbolized.*/\1/p' v.err)
verb=$(sed -n '2s/^jeheap: \([0-9.]*\)% of bytes fully symbolized; of .*/\1/p' v.err)
[ -n "$line" ] && [ "$line" = "$verb" ] || fail "line $line vs --verbose $verb: $(cat v.err)"
"$JEHEAP" --no-cache --json debug/rfix "$H" 2>/dev/null >j.json || fail "json"
js=$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["coverage"]
print("%.1f" % c["fully_symbolized_percent"])
assert abs(100 * c["weighted_bytes_full"] / c["weighted_bytes"] - c["fully_symbolized_percent"]) < 0.051
m = c["modules"][0]
assert m["module"].endswith("/rfix") and m["state"] == "symbols only" and "-g" in m["action"], m' j.json) ||
	fail "json: $(grep -A12 '"coverage"' j.json)"
[ "$js" = "$line" ] || fail "json $js vs line $line"
"$JEHEAP" --no-cache --stats debug/rfix "$H" 2>/dev/null | grep -q "^Coverage:  $line% of bytes fully symbolized, [1-9][0-9]* modules\? without debug info$" ||
	fail "--stats: $("$JEHEAP" --no-cache --stats debug/rfix "$H" 2>/dev/null | grep Coverage)"
"$JEHEAP" --no-cache --html --output=r.html debug/rfix "$H" 2>/dev/null || fail "html"
python3 - r.html "$line" debug/rfix <<'PY' || fail "html coverage: $(grep -o '<th>Symbolization.*' r.html | head -c 800)"
import html, re, sys
doc, line, mod = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
cell = re.search(r'<th>Symbolization</th><td>(.*?)</td></tr>\n</table>', doc, re.S).group(1)
assert cell.startswith(line + '% of bytes fully symbolized'), cell[:200]
assert '\\x0a' not in cell and 'jeheap:' not in cell, cell
rows = re.findall(r'<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>', cell)
assert rows and html.unescape(rows[0][0]) == mod and rows[0][1] == 'symbols only', rows
assert '-g' in rows[0][3], rows
PY
# a module path with markup is escaped in the table
mkdir '<b>' && cp debug/rfix '<b>/rfix'
"$JEHEAP" --no-cache --html --output=e.html '<b>/rfix' "$H" 2>/dev/null || fail "html <b>"
grep -q '<td>[^<]*&lt;b&gt;/rfix</td>' e.html || fail "html: the path is not escaped"
echo ok
