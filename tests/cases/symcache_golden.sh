#!/usr/bin/env bash
# symcache_golden.sh - the symbol cache changes no output: on every raw
# dump of the golden corpus, --raw (every frame, inline chains, names), --text --lines
# (file:line) and --collapsed --lines are byte-identical with --no-cache, with a cold cache
# and with a warm one, and so is stderr (warnings, coverage line). A warm run reads no
# DWARF at all (JH_TRACE=1 shows when a module's debug sections and DWARF are opened).
# --no-cache writes nothing anywhere: a run with a fresh HOME (and XDG_CACHE_HOME,
# JEHEAP_CACHE_DIR unset) in a fresh working directory leaves both empty; without it the
# cache appears in $HOME/.cache/jeheap, and in $XDG_CACHE_HOME/jeheap when that is set.
source "${JH_SRC:?}/tests/fixtures/symcache_lib.sh" || exit 1
unset JEHEAP_CACHE_DIR XDG_CACHE_HOME
C=$T/cache
n=0
for h in "$JH_SRC"/testdata/golden/*/*.heap; do
	for mode in "--raw" "--text --lines --nodecount=100000" "--collapsed --lines"; do
		# shellcheck disable=SC2086
		"$JEHEAP" --no-cache $mode "$h" >"$T/ref" 2>"$T/ref.err" || fail "$h $mode: exit $?"
		for run in cold warm; do
			[ $run = cold ] && rm -rf "$C"
			# shellcheck disable=SC2086
			JH_TRACE=1 "$JEHEAP" --cache-dir="$C" $mode "$h" >"$T/out" 2>"$T/err" ||
				fail "$h $mode $run: exit $?"
			cmp -s "$T/ref" "$T/out" || fail "$h $mode $run: output differs: $(diff "$T/ref" "$T/out" | head -5)"
			grep -v '^jeheap-trace' "$T/err" >"$T/err.user"
			cmp -s "$T/ref.err" "$T/err.user" || fail "$h $mode $run: stderr differs: $(diff "$T/ref.err" "$T/err.user" | head -5)"
			if [ $run = cold ]; then
				ls "$C"/*.jhc >/dev/null 2>&1 || fail "$h: cold run wrote no cache file"
			else
				grep -q 'sections open\|dwarf open' "$T/err" &&
					fail "$h $mode: the warm run read DWARF: $(grep 'open' "$T/err" | head -3)"
			fi
		done
		n=$((n + 1))
	done
done
[ $n -ge 30 ] || fail "only $n dump/mode pairs"
# the cold runs did read DWARF (the trace check above can fail)
h=$JH_SRC/testdata/golden/mt-s12/after.heap
[ -f "$h" ] || h=$(ls "$JH_SRC"/testdata/golden/*/*.heap | head -1)
rm -rf "$C"
JH_TRACE=1 "$JEHEAP" --cache-dir="$C" --raw "$h" >/dev/null 2>"$T/err" || fail "trace run"
grep -q 'dwarf open' "$T/err" || fail "a cold run shows no 'dwarf open' in its trace"

# --no-cache writes nothing anywhere; the default places do get the cache
mkdir -p "$T/home" "$T/cwd"
(cd "$T/cwd" && HOME=$T/home TMPDIR=$T/cwd "$JEHEAP" --no-cache --text "$h" >/dev/null 2>&1) ||
	fail "--no-cache: exit"
[ -z "$(find "$T/home" "$T/cwd" -mindepth 1)" ] || fail "--no-cache wrote: $(find "$T/home" "$T/cwd" -mindepth 1)"
(cd "$T/cwd" && HOME=$T/home "$JEHEAP" --text "$h" >/dev/null 2>&1) || fail "default: exit"
ls "$T"/home/.cache/jeheap/*.jhc >/dev/null 2>&1 || fail "no cache in \$HOME/.cache/jeheap"
(cd "$T/cwd" && HOME=$T/home XDG_CACHE_HOME=$T/xdg "$JEHEAP" --text "$h" >/dev/null 2>&1) ||
	fail "XDG: exit"
ls "$T"/xdg/jeheap/*.jhc >/dev/null 2>&1 || fail "no cache in \$XDG_CACHE_HOME/jeheap"
(cd "$T/cwd" && HOME=$T/home JEHEAP_CACHE_DIR=$T/env "$JEHEAP" --text "$h" >/dev/null 2>&1) ||
	fail "JEHEAP_CACHE_DIR: exit"
ls "$T"/env/*.jhc >/dev/null 2>&1 || fail "no cache in \$JEHEAP_CACHE_DIR"
[ -z "$(find "$T/cwd" -mindepth 1)" ] || fail "a run wrote into its working directory"
echo "ok ($n dump/mode pairs byte-identical cold and warm)"
