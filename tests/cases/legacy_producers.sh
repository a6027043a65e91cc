#!/usr/bin/env bash
# legacy_producers.sh - heap profiles as their producers write them, run here:
#   - Go's runtime (pprof.Lookup("heap").WriteTo(w, 1): '#' lines, "@ heap/P"): every stack
#     and value as `go tool pprof -raw` reads them (MemProfileRate 1: no sampling on either
#     side), names from the program without an identity alarm; at the default rate the
#     Total is jeprof's where jeprof reads the file;
#   - gperftools' heap profiler (HEAPPROFILE=): Totals as jeprof's and pprof's; the same
#     dump with a "--- Memory map:" of brief "start-end: path" lines and "source=" gives
#     the same --collapsed, one warning for a line that is not a map line;
#   - tcmalloc's sampled heap (GetHeapSample, "heap_v2/524288"): Total as jeprof's, pprof's
#     within a unit per sample; with spaces inside the brackets (which jeprof misreads)
#     pprof's Total exactly;
#   - jemalloc, every dump kind (prof_final, prof_gdump, prof_interval, prof.dump) with
#     lg_prof_sample 0 and 19, prof_accum on and off: Totals as jeprof's, no warning;
#     such a dump cut short (killed while dumping) warns once, counts what was read, and
#     raises no identity alarm;
#   - a sample without a stack ("@" alone) is "[no stack]" and counts in the Total;
#   - a sum no report can show exactly is refused in every output mode.
set -uo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
for c in go jeprof gcc g++; do
	command -v "$c" >/dev/null || { echo "skip: $c missing"; exit 77; }
done
[ -f /usr/include/gperftools/heap-profiler.h ] ||
	{ echo "skip: libgoogle-perftools-dev missing"; exit 77; }
T=$(mktemp -d /tmp/jh_legacy.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS= GOPROXY=off
export GOTOOLCHAIN=local PPROF_TMPDIR=$T/pprof
mkdir -p "$HOME" "$PPROF_TMPDIR"
FX=$JH_SRC/tests/fixtures/legacy
OR=$JH_SRC/tests/tools/legacy_oracle.py
fail=0
bad() { echo "FAIL $*"; fail=1; }
# Total of jeheap --text --show_bytes ARGS (an integer)
total() { "$JEHEAP" --quiet --text --show_bytes "$@" 2>/dev/null | sed -n '1s/^Total: \([0-9]*\) .*/\1/p'; }
jtotal() { jeprof --text --show_bytes "$@" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) .*/\1/p'; }
cd "$T" || exit 1

# --- Go's runtime
go build -o heapgo "$FX/heapgo.go" || { bad "go build"; exit 1; }
./heapgo go1.heap 1 && ./heapgo god.heap || bad "heapgo did not run"
grep -q '^#' go1.heap || bad "Go wrote no '#' lines"
go tool pprof -raw go1.heap > go1.raw 2>/dev/null || bad "pprof -raw go1.heap"
for t in inuse_space inuse_objects alloc_space alloc_objects; do
	"$JEHEAP" --quiet --collapsed --$t go1.heap > go1.$t 2>/dev/null || bad "jeheap go1 $t"
	python3 "$OR" stacks go1.raw $t go1.$t 0 || bad "Go rate 1: $t stacks differ from pprof"
done
[ "$(total go1.heap)" = "$(python3 "$OR" total go1.raw inuse_space)" ] || bad "Go Total"
# named from the Go program (no identity alarm: Go's stacks hold goexit+1 and
# inline marks + 1, addresses that follow no call)
"$JEHEAP" --text heapgo go1.heap > go1.text 2> go1.err
sed -n 2p go1.text | grep -q ' main\.big$' || bad "Go: main.big is not the top function"
grep -q 'differs from the program' go1.err && bad "Go: identity alarm: $(cat go1.err)"
if jt=$(jtotal heapgo god.heap) && [ -n "$jt" ]; then
	[ "$(total heapgo god.heap)" = "$jt" ] || bad "Go default rate: Total $(total god.heap), jeprof $jt"
else
	echo "note: jeprof does not read god.heap (a record with 0 objects in use divides by 0)"
fi

# --- gperftools' heap profiler
gcc -O1 -g -fno-omit-frame-pointer -o gperf "$FX/gperf.c" -ltcmalloc || { bad "gcc gperf"; exit 1; }
HEAPPROFILE=$T/gp ./gperf 2>/dev/null || bad "gperf did not run"
gp=gp.0001.heap
[ -s $gp ] || bad "no $gp"
go tool pprof -raw $gp > gp.raw 2>/dev/null || bad "pprof -raw $gp"
t=$(total gperf $gp)
[ -n "$t" ] && [ "$t" = "$(jtotal gperf $gp)" ] || bad "gperftools: Total $t, jeprof $(jtotal gperf $gp)"
[ "$t" = "$(python3 "$OR" total gp.raw space)" ] || bad "gperftools: Total $t differs from pprof's"
# brief SRC DST HEADER: SRC's memory map as brief "start-end: path" lines (one per file,
# from its first mapping's start), after HEADER, the directory of the first file as
# "source=" and "$source", and two lines that are not map lines
brief() {
	python3 - "$@" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("MAPPED_LIBRARIES:")
files, order = {}, []
for l in lines[i + 1:]:
    f = l.split()
    if len(f) < 6 or not f[5].startswith("/"):
        continue
    a, b = [int(x, 16) for x in f[0].split("-")]
    if f[5] not in files:
        files[f[5]] = [a, b]
        order.append(f[5])
    files[f[5]][1] = max(files[f[5]][1], b)
src = order[0].rsplit("/", 1)[0]
out = lines[:i] + [sys.argv[3], "source=" + src]
for p in order:
    q = "$source" + p[len(src):] if p.startswith(src + "/") else p
    out.append("%x-%x: %s" % (files[p][0], files[p][1], q))
out += ["not a map line", "another one"]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
}
brief $gp gpbrief.heap '--- Memory map: ---' || bad "could not write the brief map"
"$JEHEAP" --quiet --collapsed $gp > gp.c1 2>/dev/null
"$JEHEAP" --collapsed gpbrief.heap > gp.c2 2> gp.err
[ -s gp.c1 ] && cmp -s gp.c1 gp.c2 || bad "brief memory map: --collapsed differs"
grep -q main gp.c2 || bad "brief memory map: no names"
[ "$(grep -c 'not recognised' gp.err)" = 1 ] && grep -q "gpbrief.heap:[0-9]*: memory map line" gp.err ||
	bad "brief memory map: want one warning naming file:line"
grep -q 'not the file that was mapped' gp.err && bad "brief memory map: mismatch alarm"

# --- tcmalloc's sampled heap
g++ -O1 -g -fno-omit-frame-pointer -o tcsample "$FX/tcsample.cpp" -ltcmalloc || { bad "g++ tcsample"; exit 1; }
TCMALLOC_SAMPLE_PARAMETER=524288 ./tcsample tc.heap || bad "tcsample did not run"
head -1 tc.heap | grep -q '@ heap_v2/524288' || bad "tcmalloc header: $(head -1 tc.heap)"
go tool pprof -raw tc.heap > tc.raw 2>/dev/null || bad "pprof -raw tc.heap"
t=$(total tcsample tc.heap) n=$(grep -c '@ 0x' tc.heap) p=$(python3 "$OR" total tc.raw space)
[ -n "$t" ] && [ "$t" = "$(jtotal tcsample tc.heap)" ] || bad "tcmalloc: Total $t, jeprof $(jtotal tcsample tc.heap)"
[ $((t - p)) -ge 0 ] && [ $((t - p)) -le "$n" ] || bad "tcmalloc: Total $t, pprof $p ($n samples)"
sed 's/\[ *\([0-9]*\): *\([0-9]*\)\]/[ \1: \2 ]/' tc.heap > tcsp.heap
go tool pprof -raw tcsp.heap > tcsp.raw 2>/dev/null || bad "pprof -raw tcsp.heap"
[ "$(total tcsample tcsp.heap)" = "$(python3 "$OR" total tcsp.raw space)" ] ||
	bad "tcmalloc with '[ N: B ]': Total $(total tcsample tcsp.heap), pprof $(python3 "$OR" total tcsp.raw space)"

# --- jemalloc: every dump kind
gcc -O1 -g -fno-omit-frame-pointer -o jedump "$FX/jedump.c" -ljemalloc || { bad "gcc jedump"; exit 1; }
for s in 0 19; do
	for a in true false; do
		MALLOC_CONF="prof:true,prof_final:true,prof_gdump:true,lg_prof_interval:22,lg_prof_sample:$s,prof_accum:$a,prof_prefix:$T/je.$s.$a" \
			./jedump || bad "jedump $s $a"
	done
done
for k in f u i m; do
	ls je.*.$k*.heap >/dev/null 2>&1 || bad "no jemalloc dump of kind $k"
done
for s in 0 19; do
	for a in true false; do
		for k in f u i m; do
			f=$(ls je.$s.$a.*.$k*.heap 2>/dev/null | tail -1)
			[ -n "$f" ] || continue
			types=inuse_space
			[ $a = true ] && types="inuse_space alloc_space"
			for ty in $types; do
				mine=$("$JEHEAP" --text --show_bytes --$ty jedump "$f" 2> je.err | sed -n '1s/^Total: \([0-9]*\) .*/\1/p')
				theirs=$(jeprof --text --show_bytes --$ty jedump "$f" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) .*/\1/p')
				[ -n "$mine" ] && [ "$mine" = "$theirs" ] || bad "$f $ty: Total $mine, jeprof $theirs"
				grep -q warning je.err && bad "$f: $(cat je.err)"
			done
		done
	done
done

# jemalloc's MAPPED_LIBRARIES with brief lines (as 5.3.1 writes macOS images)
f=$(ls je.0.true.*.f.heap | head -1)
brief "$f" jebrief.heap MAPPED_LIBRARIES: || bad "could not write the brief map"
"$JEHEAP" --quiet --collapsed jedump "$f" > je.c1 2>/dev/null
"$JEHEAP" --collapsed jedump jebrief.heap > je.c2 2> je.err
[ -s je.c1 ] && cmp -s je.c1 je.c2 || bad "heap_v2 with brief map lines: --collapsed differs"
grep -q 'not the file that was mapped' je.err && bad "heap_v2 brief map: $(cat je.err)"

# --- a jemalloc dump cut short
f=$(ls je.0.true.*.f.heap | head -1)
nrec=$(grep -n '^MAPPED_LIBRARIES:' "$f" | cut -d: -f1)
head -n $((nrec / 2)) "$f" > whole.heap               # complete lines, no memory map
{ cat whole.heap; sed -n "$((nrec / 2 + 1))p" "$f" | head -c 5; } > cut.heap # and half a line
for c in whole cut; do
	"$JEHEAP" --text --show_bytes jedump $c.heap > $c.out 2> $c.all
	rc=$?
	grep -v 'fully symbolized' $c.all > $c.err
	got=$(head -1 $c.out)
	[ "$(wc -l < $c.err)" = 1 ] && grep -q "$c.heap.*dump cut short.*MAPPED_LIBRARIES" $c.err ||
		bad "$c: want one warning naming the file and the missing map: $(cat $c.err)"
	grep -q 'differs from the program' $c.err && bad "$c: identity alarm"
	[ $rc = 0 ] && [ -n "$got" ] || bad "$c: no report"
done
[ "$("$JEHEAP" --quiet --text --show_bytes jedump whole.heap 2>/dev/null | head -1)" = \
	"$("$JEHEAP" --quiet --text --show_bytes jedump cut.heap 2>/dev/null | head -1)" ] ||
	bad "cut: the Total is not that of the complete lines"
{ cat cut.heap; echo; sed -n "$((nrec / 2 + 1)),\$p" "$f"; } > cutmid.heap
"$JEHEAP" --text cutmid.heap > /dev/null 2> cutmid.err
[ $? = 2 ] && [ "$(wc -l < cutmid.err)" = 1 ] && grep -q 'cutmid.heap:[0-9]' cutmid.err ||
	bad "a cut line followed by more records: $(cat cutmid.err)"

# --- a sample without a stack
printf 'heap profile: 1: 2 [3: 4] @ heap/1048576\n# Go\n1: 2 [3: 4] @\n2: 8 [2: 8] @ 0x10 0x21\n' > nostack.heap
"$JEHEAP" --quiet --collapsed --inuse_objects nostack.heap > ns.c 2>&1
grep -qx '\[no stack\] [0-9]*' ns.c || bad "no stack: $(cat ns.c)"
sum=$(awk '{s += $NF} END {print s}' ns.c)
"$JEHEAP" --quiet --text --inuse_objects nostack.heap > ns.t 2>&1
grep -q "^Total: $sum objects" ns.t && grep -q ' \[no stack\]$' ns.t || bad "no stack --text: $(cat ns.t)"
"$JEHEAP" --quiet --json nostack.heap | grep -q '"\[no stack\]"' || bad "no stack --json"

# --- a sum no report can show exactly: refused in every mode
for m in --text --top --collapsed --callgrind --dot --json --raw --proto --traces --tree \
	--flamegraph --speedscope --svg --stats --threads; do
	for b in sum_overflow legacy_sum_overflow; do
		"$JEHEAP" $m "$JH_SRC/testdata/bad/$b.heap" > out 2> err
		rc=$?
		[ $rc = 2 ] && [ ! -s out ] && [ "$(wc -l < err)" = 1 ] && grep -q "$b.heap:[0-9]*: .*9223372036854775807" err ||
			bad "$b $m: exit $rc, $(head -c 200 err)"
	done
done
exit $fail
