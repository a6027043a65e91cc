#!/usr/bin/env bash
# symcache_only.sh - --symbols-only: symbolizes the dumps' addresses into
# the cache, prints nothing and exits 0; the reports that follow read no DWARF
# (JH_TRACE=1) and print what they print without the cache. With --no-cache it is a
# usage error (exit 1).
source "${JH_SRC:?}/tests/fixtures/symcache_lib.sh" || exit 1
C=$T/cache
mapfile -t dumps < <(ls "$JH_SRC"/testdata/golden/*/*.heap)
[ ${#dumps[@]} -ge 10 ] || fail "only ${#dumps[@]} dumps"
"$JEHEAP" --cache-dir="$C" --symbols-only "${dumps[@]}" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || fail "--symbols-only: exit $rc: $(cat "$T/err")"
[ -s "$T/out" ] && fail "--symbols-only printed a report: $(head -3 "$T/out")"
ls "$C"/*.jhc >/dev/null 2>&1 || fail "--symbols-only wrote no cache file"
for h in "${dumps[@]}"; do
	"$JEHEAP" --no-cache --raw "$h" >"$T/ref" 2>/dev/null || fail "$h: exit"
	JH_TRACE=1 "$JEHEAP" --cache-dir="$C" --raw "$h" >"$T/out" 2>"$T/err" || fail "$h: exit"
	cmp -s "$T/ref" "$T/out" || fail "$h: output differs from --no-cache"
	grep -q 'dwarf open\|sections open' "$T/err" && fail "$h: DWARF read after --symbols-only"
done
"$JEHEAP" --no-cache --symbols-only "${dumps[0]}" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] || fail "--no-cache --symbols-only: exit $rc"
grep -q 'symbols-only' "$T/err" || fail "--no-cache --symbols-only: $(cat "$T/err")"
echo "ok (${#dumps[@]} dumps)"
