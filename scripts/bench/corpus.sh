#!/usr/bin/env bash
# corpus.sh - the benchmark corpus: real jemalloc heap dumps of Debian's ceph-osd, a 25 MB
# stripped C++ server whose separate debug file (ceph-osd-dbg, found by build ID under
# /usr/lib/debug/.build-id) holds some 600 MB of compressed DWARF 5: the largest binary
# Debian offers that runs on its own, close to what jeheap meets in production.
#
# What it does (each step skipped when its result is already there):
#   1. installs ceph-osd and ceph-osd-dbg (about 512 MB to download), libjemalloc2 and
#      jeprof, llvm, binutils and GNU time (apt-get, as root);
#   2. runs `ceph-osd --mkfs` (a BlueStore store created on a sparse file under the corpus
#      folder: the OSD formats it, writes its superblock and exits; no monitor, no network)
#      under libjemalloc2 with profiling on, twice, with address space randomisation off
#      (setarch -R) so that both runs map every file at the same addresses:
#        ceph-osd.medium.heap   lg_prof_sample:6, prof_accum:true (one sample per 64 bytes
#                               allocated on average, freed memory's stacks kept)
#        ceph-osd.large.heap    lg_prof_sample:0, prof_accum:true (every allocation: the
#                               most stacks the run gives; a superset of medium's addresses,
#                               which scripts/bench/new_addresses.py draws new ones from)
#   3. writes, per dump, the caller-adjusted addresses of every stack per mapped file
#      (pcs/CASE/manifest.tsv: PATH, COUNT, FILE of addresses), what llvm-symbolizer and
#      addr2line are given when they are timed beside jeheap.
#
# Usage: scripts/bench/corpus.sh        prints the corpus folder
# Env:   JEHEAP_BENCH_DIR  corpus root (default build/bench of the checkout)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_DIR=${JEHEAP_BENCH_DIR:-$ROOT/build/bench}
CORPUS=$BENCH_DIR/ceph
OSD=/usr/bin/ceph-osd
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
log() { printf 'corpus.sh: %s\n' "$*" >&2; }

# 1. packages
need=()
[ -x "$OSD" ] || need+=(ceph-osd)
dpkg -s ceph-osd-dbg >/dev/null 2>&1 || need+=(ceph-osd-dbg)
[ -e "$JE" ] || need+=(libjemalloc2)
command -v jeprof >/dev/null || need+=(libjemalloc-dev)
command -v llvm-symbolizer >/dev/null || need+=(llvm)
command -v addr2line >/dev/null || need+=(binutils)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	sudo=()
	[ "$(id -u)" = 0 ] || sudo=(sudo)
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >&2 ||
		{ "${sudo[@]}" apt-get update >&2 &&
			"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >&2; }
fi

# 2. dumps
capture() { # CASE MALLOC_CONF-extra
	local out=$CORPUS/ceph-osd.$1.heap run=$CORPUS/run-$1
	[ -s "$out" ] && return
	log "capturing $out (ceph-osd --mkfs under jemalloc's profiler)"
	rm -rf "$run" && mkdir -p "$run/osd" "$run/sock"
	cat >"$run/ceph.conf" <<-EOF
		[global]
		fsid = 00000000-0000-4000-8000-0000000be4c4
		mon_host = v1:127.0.0.1:1
		auth_cluster_required = none
		auth_service_required = none
		auth_client_required = none
		log_file = $run/\$name.log
		run_dir = $run/sock
		admin_socket = $run/sock/\$name.asok
		[osd]
		osd_data = $run/osd
		osd_objectstore = bluestore
		bluestore_block_path = $run/block
		bluestore_block_size = 4294967296
		bluestore_block_create = true
	EOF
	LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,$2,prof_prefix:$run/osd-prof \
		timeout 600 setarch "$(uname -m)" -R "$OSD" -c "$run/ceph.conf" --no-mon-config --mkfs -i 0 -f >"$run/mkfs.log" 2>&1 ||
		log "ceph-osd --mkfs exited $? (the dump written at exit is used all the same)"
	# prof_final writes one dump at exit; the largest is kept should there be more
	local dump
	dump=$(ls -S "$run"/osd-prof.*.heap 2>/dev/null | head -1)
	[ -n "$dump" ] || { log "no dump written (see $run/mkfs.log)"; exit 1; }
	mv "$dump" "$out"
	rm -rf "$run"
}
mkdir -p "$CORPUS"
capture medium lg_prof_sample:6,prof_accum:true
capture large lg_prof_sample:0,prof_accum:true

# 3. addresses per file, for the symbolizers timed beside jeheap
for c in medium large; do
	[ -s "$CORPUS/pcs/$c/manifest.tsv" ] ||
		python3 "$ROOT/scripts/bench/addresses.py" "$CORPUS/ceph-osd.$c.heap" "$CORPUS/pcs/$c"
done
echo "$CORPUS"
