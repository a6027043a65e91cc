#!/usr/bin/env bash
# symcache_debuginfod.sh - debug files by build ID from a debuginfod server, end
# to end against Debian's debuginfod started here on 127.0.0.1 over a folder
# holding the fixture's debug file:
#  1. the fixture stripped of everything (strip --strip-all) at the path its dump names is
#     symbolized through the server exactly as the unstripped file is (--raw, --text
#     --lines), by DEBUGINFOD_URLS and by --debuginfod=URL; a warm run is the same;
#  2. a build the server does not have (404) and an unreachable server (a closed port)
#     each give one warning line naming the module, and the run goes on (at most 8 s
#     longer than without a server: libdebuginfod's 5 s timeout is not even needed); the
#     404 is remembered in the symbol cache: the next run makes no connection at all;
#  3. without DEBUGINFOD_URLS no connection is made (strace: no connect to an inet
#     address; with it, strace sees the connection: the check can fail);
#  4. a missing executable is fetched too: an unsymbolized pprof profile (as Rust's
#     jemalloc_pprof writes) whose program mapping names a path that does not exist is
#     symbolized through the server (the stripped executable and the debug file, both by
#     build ID) exactly as the dump with its program in place; without the server, one
#     warning and the frames stay offsets;
#  5. on a terminal libdebuginfod shows its download progress ("Downloading from"); into a
#     file (the runs above) never.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
command -v debuginfod >/dev/null || { echo "skip: no debuginfod"; exit 77; }
command -v strace >/dev/null || { echo "skip: no strace"; exit 77; }
# a build with -DJEHEAP_DEBUGINFOD=OFF (static) has only its refusal
grep -q 'built without libdebuginfod' "$JEHEAP" && { echo "skip: built without debuginfod"; exit 77; }
cd "$T"
unset DEBUGINFOD_URLS JEHEAP_CACHE_DIR DEBUGINFOD_PROGRESS DEBUGINFOD_TIMEOUT
H=$(basename "$HEAP")
# LeakSanitizer cannot run under ptrace: the runs under strace (ASan builds) go without it
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=connect "$@"; }
source "$JH_SRC/tests/fixtures/debuginfod.sh"

"$JEHEAP" --no-cache --raw "$H" >ref.raw 2>/dev/null || fail "ref"
"$JEHEAP" --no-cache --text --lines "$H" >ref.lines 2>/dev/null || fail "ref"
grep -q 'rfix.c:[0-9]' ref.lines || fail "the reference has no file:line"
mkdir srv
objcopy --only-keep-debug "$PROG" srv/rfix.debug
"$JEHEAP" --quiet --no-cache --collapsed "$H" | grep -v ' 0$' >ref.collapsed || fail "ref"
cp "$PROG" rfix.full
strip --strip-all "$PROG"
cp "$PROG" srv/rfix.exe # served as the executable (rfix.debug has no code)
readelf -S "$PROG" | grep -q debug_info && fail "not stripped"
"$JEHEAP" --no-cache --text --lines "$H" >stripped.lines 2>/dev/null || fail "stripped"
cmp -s ref.lines stripped.lines && fail "the stripped fixture gives the same output without the server"

ID=$(readelf -n "$PROG" | sed -n 's/.*Build ID: //p')
serve "$T/srv" "$ID"

# 1. through the server
run() { # NAME CACHE ARGS...: output to NAME.out, NAME.err
	local name=$1 cache=$2
	shift 2
	DEBUGINFOD_CACHE_PATH=$T/dcache.$cache "$JEHEAP" --cache-dir="$T/cache.$cache" "$@" \
		>"$name.out" 2>"$name.err"
}
DEBUGINFOD_URLS=$URL run d1 a --raw "$H" || fail "debuginfod: exit $?: $(cat d1.err)"
cmp -s ref.raw d1.out || fail "--raw through debuginfod differs: $(diff ref.raw d1.out | head -5)"
DEBUGINFOD_URLS=$URL run d2 a --text --lines "$H" || fail "exit"
cmp -s ref.lines d2.out || fail "--lines through debuginfod differs"
run d3 b --debuginfod="$URL" --text --lines "$H" || fail "--debuginfod: exit"
cmp -s ref.lines d3.out || fail "--debuginfod=URL differs"
grep -q 'nothing for rfix' d1.err d3.err && fail "a warning about rfix: $(cat d1.err)"
DEBUGINFOD_URLS=$URL run d4 a --text --lines "$H" || fail "warm: exit"
cmp -s ref.lines d4.out || fail "warm run through debuginfod differs"

# 2. a build the server does not have; an unreachable server
mkdir other && sed 's/leaf_alloc/leaf_other/g' src/rfix.c >other/rfix.c
(cd other && gcc -g -O2 -fno-omit-frame-pointer -o rfix rfix.c && strip --strip-all rfix &&
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:12,prof_prefix:p ./rfix)
OH=$(ls other/p.*.heap)
CLOSED=$(free_port)
# "within seconds": at most 8 s more than the same run without a server (on a loaded
# machine, or under ASan, the run alone can take seconds)
start=$(date +%s%N)
run n0 none --text "$(ls other/p.*.heap)" || fail "no server: exit"
alone=$((($(date +%s%N) - start) / 1000000))
for case in 404 unreachable; do
	u=$URL
	[ $case = unreachable ] && u=http://127.0.0.1:$CLOSED && OH=$H
	start=$(date +%s%N)
	DEBUGINFOD_URLS=$u run n1 $case --text "$OH" || fail "$case: exit $?: $(cat n1.err)"
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $ms -lt $((alone + 8000)) ] || fail "$case: the run took $ms ms ($alone ms without a server)"
	n=$(grep -c 'debuginfod' n1.err)
	[ "$n" = 1 ] || fail "$case: $n debuginfod lines: $(cat n1.err)"
	grep -q "warning: debuginfod ($u): nothing for rfix[ ,(]" n1.err || fail "$case: $(cat n1.err)"
	[ -s n1.out ] || fail "$case: no report"
	[ $case = 404 ] && { grep -q 'nothing for rfix, .*(not found)' n1.err || fail "404: $(cat n1.err)"; }
	cp n1.err "n1.$case.err"
done
# the 404 is remembered in the symbol cache (not only in libdebuginfod's own cache, a
# fresh one here): no connection on the next run, one line all the same
DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$T/dcache.404b traced -o strace.404 \
	"$JEHEAP" --cache-dir="$T/cache.404" --text "$(ls other/p.*.heap)" >/dev/null 2>n2.err ||
	fail "404 again: exit $?: $(cat n2.err)"
grep -q "sin_port=htons($PORT)" strace.404 && fail "404 again: asked the server again"
# the same line as the run that asked (a warm run says what a cold run said)
cmp -s n2.err n1.404.err || fail "404 again: $(diff n1.404.err n2.err)"

# 3. no DEBUGINFOD_URLS, no connection (and the check sees one when it is set)
DEBUGINFOD_CACHE_PATH=$T/dcache.c traced -o strace.none \
	"$JEHEAP" --cache-dir="$T/cache.c" --text "$H" >/dev/null 2>c.err || fail "no URLS: exit $?: $(cat c.err)"
grep -q 'AF_INET' strace.none && fail "a connection without DEBUGINFOD_URLS: $(grep AF_INET strace.none)"
DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$T/dcache.d traced -o strace.some \
	"$JEHEAP" --cache-dir="$T/cache.d" --text "$H" >/dev/null 2>d.err || fail "URLS: exit $?: $(cat d.err)"
grep -q "sin_port=htons($PORT)" strace.some || fail "strace saw no connection to the server"

# 4. a missing executable, fetched by build ID
python3 "$JH_SRC/tests/tools/make_unsym_pprof.py" "$H" u.pb.gz --rename "$PROG=$T/gone/rfix" ||
	fail "make_unsym_pprof.py"
run e0 e0 --collapsed u.pb.gz || fail "no server: exit $?: $(cat e0.err)"
grep -q "warning: 1 mapped file not found here: $T/gone/rfix; " e0.err || fail "no server: $(cat e0.err)"
grep -q 'rfix+0x' e0.out || fail "no server: the program's frames were resolved"
DEBUGINFOD_URLS=$URL run e1 e1 --collapsed u.pb.gz || fail "executable: exit $?: $(cat e1.err)"
cmp -s ref.collapsed e1.out || fail "executable through debuginfod differs: $(diff ref.collapsed e1.out | head -5)"
grep -q 'rfix\|build ID' e1.err && fail "executable through debuginfod: $(cat e1.err)"
[ -s "$T/dcache.e1/$ID/executable" ] || fail "libdebuginfod fetched no executable: $(ls -R "$T/dcache.e1")"

# 5. progress on a terminal only
DEBUGINFOD_URLS=$URL DEBUGINFOD_CACHE_PATH=$T/dcache.p python3 "$JH_SRC/tests/tools/on_tty.py" \
	"$JEHEAP" --cache-dir="$T/cache.p" --collapsed u.pb.gz >p.out
grep -q '^exit 0$' p.out || fail "pty: $(tail -c 300 p.out)"
grep -q "Downloading from $URL" p.out || fail "no progress on a terminal: $(head -c 300 p.out)"
grep -l 'Downloading' ./*.err && fail "progress into a file"
echo ok
