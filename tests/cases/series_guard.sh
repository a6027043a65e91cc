#!/usr/bin/env bash
# series_guard.sh - the summing guard and matching across builds, on real dumps of
# tests/fixtures/series/leaky.c.
# Summing guard: several jemalloc dumps of one process at different times, or of two
# processes, are still summed (the Total is the sum of the single dumps' Totals) with
# exactly one warning line naming what was mixed and pointing at --series and --base (two
# builds at two paths are different programs: refused, then summed with --allow-mixed);
# none for one dump, for --base, for --series, or for files jemalloc did not name.
# Matching across builds: leaky.c built at -O2 (gcc clones leak_step into
# leak_step.constprop.0) and at -O0 (plain leak_step) are different builds (their GNU
# build IDs differ): --base=old new matches leak_step with leak_step.constprop.0
# (one warning), --normalize=none keeps them apart, --normalize=clones matches them
# explicitly; two dumps of the same build give the same bytes with and without the check.
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
JE=${JH_JEMALLOC:-/usr/lib/x86_64-linux-gnu/libjemalloc.so.2}
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-series-guard.XXXXXX")
trap '[ -n "${JH_KEEP:-}" ] || rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$T"
mkdir new old
gcc -g -O2 -fno-omit-frame-pointer -o new/leaky "$JH_SRC/tests/fixtures/series/leaky.c"
gcc -g -O0 -fno-omit-frame-pointer -o old/leaky "$JH_SRC/tests/fixtures/series/leaky.c"
# the new build runs longer: leak_step grows by about 3 MiB from the old one's last dump
for b in "new 10" "old 4"; do
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_prefix:$T/${b% *}/p,lg_prof_interval:21,lg_prof_sample:14 \
		"${b% *}/leaky" "${b#* }"
done
nm new/leaky | grep -q ' leak_step\.constprop\.0$' || fail "gcc -O2 made no leak_step.constprop.0"
nm old/leaky | grep -q ' leak_step$' || fail "gcc -O0 made no plain leak_step"
mapfile -t N < <(ls new/p.*.heap | sort -t. -k3,3n)
mapfile -t O < <(ls old/p.*.heap | sort -t. -k3,3n)
[ "${#N[@]}" -ge 3 ] && [ "${#O[@]}" -ge 2 ] || fail "too few dumps: ${#N[@]} ${#O[@]}"
total() { sed -n 's/^Total: \([0-9]*\) B$/\1/p' "$1"; }

# one process at different times: summed, one warning
"$JEHEAP" --text --show_bytes "${N[0]}" "${N[1]}" "${N[2]}" >sum 2>err
pidn=$(basename "${N[0]}" | cut -d. -f2)
want="jeheap: warning: summing 3 dumps of process $pidn taken at different times: --series follows them over time, --base=OLD shows what changed"
[ "$(grep -c 'warning: summing' err)" = 1 ] || fail "warnings: $(cat err)"
grep -qxF "$want" err || fail "warning: $(cat err)"
s=0
for f in "${N[0]}" "${N[1]}" "${N[2]}"; do
	"$JEHEAP" --text --show_bytes "$f" >one 2>err1
	! grep -q 'warning: summing' err1 || fail "one dump warned"
	s=$((s + $(total one)))
done
d=$(($(total sum) - s)) # each Total is truncated to whole bytes
[ "${d#-}" -le 3 ] || fail "sum $(total sum), single dumps $s"
# two processes (of two builds at two paths: different programs, summed with --allow-mixed)
pido=$(basename "${O[0]}" | cut -d. -f2)
rc=0
"$JEHEAP" --text "${N[1]}" "${O[1]}" >/dev/null 2>err || rc=$?
[ "$rc" = 1 ] && grep -q 'profiles of different programs are not summed' err ||
	fail "2 programs summed without --allow-mixed: exit $rc, $(cat err)"
"$JEHEAP" --text --allow-mixed "${N[1]}" "${O[1]}" >/dev/null 2>err
[ "$(grep -c 'warning: summing' err)" = 1 ] || fail "2 pids: $(cat err)"
grep -qxF "jeheap: warning: summing 2 dumps of different processes (pids $pidn, $pido): --series follows dumps over time, --base=OLD shows what changed" err ||
	fail "2 pids: $(cat err)"
# no warning: --base, --series, files jemalloc did not name, -qq
for args in "--base=${N[0]} ${N[1]}" "--series ${N[0]} ${N[1]}"; do
	# shellcheck disable=SC2086
	"$JEHEAP" --text $args >/dev/null 2>err
	! grep -q 'summing' err || fail "$args warned: $(cat err)"
done
cp "${N[0]}" a.heap
cp "${N[1]}" b.heap
"$JEHEAP" --text a.heap b.heap >/dev/null 2>err
! grep -q 'summing' err || fail "unnamed files warned"
"$JEHEAP" -qq --text "${N[0]}" "${N[1]}" >/dev/null 2>err
[ ! -s err ] || fail "-qq: $(cat err)"

# across builds: old -O0 (leak_step) as the base, new -O2 (leak_step.constprop.0)
B=${O[-1]} A=${N[-1]}
"$JEHEAP" --text --show_bytes --base="$B" "$A" >auto 2>err
[ "$(grep -c 'differs in build ID' err)" = 1 ] || fail "no build warning: $(cat err)"
grep -q "^jeheap: warning: leaky differs in build ID between the profiles: functions are matched by name without clone suffixes (--normalize=none to keep them apart)$" err ||
	fail "build warning: $(cat err)"
awk '$6 ~ /^leak_step/' auto >rows
[ "$(wc -l <rows)" = 1 ] && [ "$(awk '{print $6}' rows)" = leak_step ] ||
	fail "leak_step not matched: $(grep -E 'leak_step|Total' auto)"
"$JEHEAP" --text --show_bytes --normalize=none --base="$B" "$A" >none 2>err
grep -q ' leak_step$' none && grep -q ' leak_step\.constprop\.0$' none ||
	fail "--normalize=none merged them: $(grep leak_step none)"
! grep -q 'build ID' err || fail "--normalize=none warned"
# the matched row is the difference of the two sides' rows (jeprof on each dump alone)
jeprof --text --show_bytes new/leaky "$A" >jn 2>/dev/null
jeprof --text --show_bytes old/leaky "$B" >jo 2>/dev/null
vn=$(awk '$6 == "leak_step.constprop.0" {print $1}' jn)
vo=$(awk '$6 == "leak_step" {print $1}' jo)
[ -n "$vn" ] && [ -n "$vo" ] || fail "jeprof rows: '$vn' '$vo'"
d=$(($(awk '{print $1}' rows) - (vn - vo))) # jeprof's two values are truncated each
[ "${d#-}" -le 1 ] || fail "leak_step $(awk '{print $1}' rows), jeprof $vn - $vo"
"$JEHEAP" --text --show_bytes --normalize=clones --base="$B" "$A" >explicit 2>/dev/null
cmp -s auto explicit || fail "--normalize=clones differs from the automatic match"
# the series across the two builds: one leak_step row
"$JEHEAP" --series --allow-mixed --show_bytes "${O[@]}" "${N[@]}" >ser 2>err
awk '$1 == "#1" {on=1; next} on' ser | grep -c ' leak_step' | grep -qx 1 ||
	fail "series rows: $(grep leak_step ser)"
# the same build: no warning, the same bytes as --normalize=none
"$JEHEAP" --text --show_bytes --base="${N[0]}" "$A" >same 2>err
! grep -q 'build ID' err || fail "same build warned"
"$JEHEAP" --text --show_bytes --normalize=none --base="${N[0]}" "$A" >same2 2>/dev/null
cmp -s same same2 || fail "same build: output changed"
grep -q ' leak_step\.constprop\.0$' same || fail "same build: names normalised"
echo ok
