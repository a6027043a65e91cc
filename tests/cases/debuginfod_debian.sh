#!/usr/bin/env bash
# debuginfod for the files that need it, on files as Debian ships them, against Debian's
# debuginfod started here on 127.0.0.1:
#  1. libc.so.6 as installed (no .symtab, no DWARF), its debug file hidden from the run
#     (--debug-dir at an empty folder): without a server the coverage line names it with
#     its package; with the server serving libc6-dbg's own file for its build ID, libc's
#     frames get lines and it is named no more;
#  2. our fixture stripped with --strip-debug (symbols only): asked too, and served;
#  3. Debian's git and redis-server, whose debug files the server does not have: one
#     warning line for all their modules (the 404), and the coverage line is the same as
#     without DEBUGINFOD_URLS;
# every run is made twice with one fresh cache folder: the warm run says the same.
source "${JH_SRC:?}/tests/fixtures/reports/lib.sh" || exit 1
command -v debuginfod >/dev/null || fail "no debuginfod (scripts/setup installs it)"
grep -q 'built without libdebuginfod' "$JEHEAP" && { echo "skip: built without debuginfod"; exit 77; }
source "$JH_SRC/tests/fixtures/debuginfod.sh"
cd "$T"
unset DEBUGINFOD_URLS JEHEAP_CACHE_DIR DEBUGINFOD_PROGRESS DEBUGINFOD_TIMEOUT
pct='[0-9]\{1,3\}\.[0-9]'
LIBC=/usr/lib/x86_64-linux-gnu/libc.so.6
LID=$(readelf -n "$LIBC" | sed -n 's/.*Build ID: //p')
LDBG=/usr/lib/debug/.build-id/${LID:0:2}/${LID:2}.debug
[ -r "$LDBG" ] || fail "libc6-dbg's $LDBG missing (scripts/setup installs libc6-dbg)"
grep -q '\.symtab\|\.debug_info' <<<"$(readelf -SW "$LIBC")" && fail "$LIBC is not as Debian ships it"
for tool in git redis-server; do
	command -v $tool >/dev/null || fail "$tool missing (scripts/setup installs it)"
done
profile() { # PREFIX CMD...: runs CMD under jemalloc's profiler, every allocation sampled
	local p=$1
	shift
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$T/$p "$@"
}
# twice NAME ARGS...: jeheap twice with the fresh cache folder cache.NAME (and a fresh
# libdebuginfod cache); stdout in NAME.out, stderr in NAME.err; the warm run says the same
twice() {
	local name=$1
	shift
	DEBUGINFOD_CACHE_PATH=$T/dcache.$name "$JEHEAP" --cache-dir="$T/cache.$name" "$@" \
		>"$name.out" 2>"$name.err" || fail "$name: exit $?: $(cat "$name.err")"
	DEBUGINFOD_CACHE_PATH=$T/dcache.$name "$JEHEAP" --cache-dir="$T/cache.$name" "$@" \
		>"$name.out2" 2>"$name.err2" || fail "$name warm: exit $?"
	cmp -s "$name.err" "$name.err2" || fail "$name: the warm run says otherwise: $(diff "$name.err" "$name.err2")"
	cmp -s "$name.out" "$name.out2" || fail "$name: the warm run's report differs"
}

# a program whose bytes are allocated inside libc (strdup, fopen, getdelim)
cat >c.c <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *volatile keep[64];
int main(void)
{
	for (int i = 0; i < 32; i++)
		keep[i] = strdup("a string that libc copies for us");
	FILE *f = fopen("/proc/self/maps", "r");
	char *line = NULL;
	size_t n = 0;
	if (f && getline(&line, &n, f) > 0)
		keep[40] = line;
	return f == NULL;
}
C
gcc -g -O1 -fno-omit-frame-pointer -o c c.c
profile c ./c
CH=$(ls c.*.heap)
mkdir nodebug srv
cp "$LDBG" srv/libc.debug # libc6-dbg's file, as Debian's package installs it

# 1. libc as installed, its debug file hidden: named, with its package
twice none --debug-dir="$T/nodebug" --text --lines ./c "$CH"
lp=$(dpkg -S "$(realpath "$LIBC")" 2>/dev/null || dpkg -S "$(realpath "$LIBC" | sed 's|^/usr||')")
lp=${lp%%:*}
grep -q "^jeheap: $pct% of bytes fully symbolized.*; libc.so.6 (no symbols, $pct% of bytes short of lines): install $lp-dbgsym (or $lp-dbg)" none.err ||
	fail "no server: $(cat none.err)"
grep -q ' strdup$' none.out && fail "no server: strdup named without its debug file"
serve "$T/srv" "$LID"
DEBUGINFOD_URLS=$URL twice libc --debug-dir="$T/nodebug" --text --lines ./c "$CH"
grep -q 'libc.so.6' libc.err && fail "through the server: $(cat libc.err)"
grep -q ' strdup .*strdup\.c:[0-9]*$' libc.out || fail "through the server: strdup has no line: $(head -12 libc.out)"
[ -s "$T/dcache.libc/$LID/debuginfo" ] || fail "libdebuginfod fetched nothing: $(ls -R "$T/dcache.libc")"
# libc6-dbg's file where Debian installs it gives the same libc frames
"$JEHEAP" --no-cache --text --lines ./c "$CH" >local.out 2>/dev/null || fail "local"
libc_rows() { grep -E ' (strdup|getdelim|fopen|_IO_[a-z_]*|__GI_[a-z_]*|malloc_[a-z_]*) ' "$1"; }
[ -n "$(libc_rows local.out)" ] && [ "$(libc_rows local.out)" = "$(libc_rows libc.out)" ] ||
	fail "through the server vs libc6-dbg installed: $(diff <(libc_rows local.out) <(libc_rows libc.out) | head -5)"

# 2. --strip-debug (symbols only) is asked too
cp c c.full
objcopy --only-keep-debug c srv/c.debug
strip --strip-debug c
grep -q '\.symtab' <<<"$(readelf -SW c)" || fail "--strip-debug lost .symtab"
CID=$(readelf -n c | sed -n 's/.*Build ID: //p')
kill $SRV
wait $SRV 2>/dev/null || true
serve "$T/srv" "$CID"
twice cnone --text --lines ./c "$CH"
grep -q "; c (symbols only, " cnone.err || fail "--strip-debug, no server: $(cat cnone.err)"
DEBUGINFOD_URLS=$URL twice cs --text --lines ./c "$CH"
grep -q 'c\.c:[0-9]' cs.out || fail "--strip-debug through the server: no line: $(head -8 cs.out)"
grep -q '(symbols only\|nothing for c[ ,(]\|, c[ ,(]' cs.err && fail "--strip-debug through the server: $(cat cs.err)"

# 3. Debian's git and redis-server: the server has nothing for them
git init -q repo && (cd repo && printf 'a\nb\n' >f && git add f &&
	git -c user.name=t -c user.email=t@t commit -q -m m) || fail "git repo"
(cd repo && profile git git blame f >/dev/null)
# with no port and no socket redis starts, says "Configured to not listen anywhere,
# exiting" and exits (status 1), through exit(): jemalloc writes its final dump
profile redis redis-server --port 0 --save '' --loglevel warning >/dev/null 2>&1 || true
for p in git redis; do
	h=$(ls $p.*.heap | head -1)
	twice ${p}0 --text "$h"
	DEBUGINFOD_URLS=$URL twice ${p}1 --text "$h"
	[ "$(grep -c debuginfod ${p}1.err)" = 1 ] || fail "$p: not one debuginfod line: $(cat ${p}1.err)"
	bin=$(basename "$(realpath /usr/bin/$([ $p = git ] && echo git || echo redis-server))")
	grep -q "^jeheap: warning: debuginfod ($URL): nothing for [^;]*\\b$bin\\b[^;]* (not found); frames from the local files only$" ${p}1.err ||
		fail "$p: $(cat ${p}1.err)"
	[ "$(tail -1 ${p}0.err)" = "$(tail -1 ${p}1.err)" ] || fail "$p: another coverage line with the server: $(tail -1 ${p}1.err)"
	[ "$(wc -l <${p}1.err)" = $(($(wc -l <${p}0.err) + 1)) ] || fail "$p: more than the one line: $(cat ${p}1.err)"
	cmp -s ${p}0.out ${p}1.out || fail "$p: another report with the server"
done
echo ok
