#!/usr/bin/env bash
# ci_memory_gate.sh - the example CI memory gate end to end: examples/ci/
# memory-gate.sh builds examples/ci/demo.c, runs it under Debian's profiling jemalloc
# for 100 and 1000 requests and gates on the growth with jeheap. A build that leaks each
# reply (CFLAGS=-DLEAK: 900 more replies of 1280 bytes in use at exit) must fail with
# status 5 naming make_reply; the fixed build must pass (status 0). The workflow file
# calls the script.
set -uo pipefail
SRC=${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
JEHEAP=$(realpath -- "${JEHEAP:-$SRC/build/jeheap}")
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
[ -e "$JE" ] || { echo "ci_memory_gate: SKIP: libjemalloc2 missing" >&2; exit 77; }
command -v cc >/dev/null || { echo "ci_memory_gate: SKIP: cc missing" >&2; exit 77; }
TMP=$(mktemp -d /tmp/jh_cigate.XXXXXX); trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
GATE=$SRC/examples/ci/memory-gate.sh

# the leaking build
mkdir "$TMP/leak"
WORK=$TMP/leak CFLAGS=-DLEAK JEHEAP=$JEHEAP "$GATE" 64K > "$TMP/leak.out" 2> "$TMP/leak.err"
rc=$?
[ "$rc" = 5 ] || fail "leaking build: exit $rc, want 5 ($(cat "$TMP/leak.err"))"
# 900 replies of 256 + 1024 bytes: 1152000 bytes more in use
grep -q '^jeheap: inuse_space grew by 1152000 bytes (.*), more than --fail-on-growth=64K; grew most: make_reply (+1152000)$' "$TMP/leak.err" ||
  fail "leaking build: message: $(cat "$TMP/leak.err")"
grep -q '^memory-gate: FAIL: ' "$TMP/leak.out" || fail "leaking build: no FAIL line"
grep -q '^Total: 1152000 B$' "$TMP/leak.out" || fail "leaking build: report: $(head -3 "$TMP/leak.out")"
# the dumps are jemalloc's own, named PREFIX.<pid>.<seq>.f.heap
ls "$TMP/leak"/after.*.0.f.heap > /dev/null 2>&1 || fail "leaking build: no jemalloc dump"

# the fixed build
mkdir "$TMP/fixed"
WORK=$TMP/fixed JEHEAP=$JEHEAP "$GATE" 64K > "$TMP/fixed.out" 2> "$TMP/fixed.err"
rc=$?
[ "$rc" = 0 ] || fail "fixed build: exit $rc, want 0 ($(cat "$TMP/fixed.err"))"
grep -q '^memory-gate: PASS: ' "$TMP/fixed.out" || fail "fixed build: no PASS line"
grep -q '^jeheap: .*grew' "$TMP/fixed.err" && fail "fixed build: a growth message"

# a threshold equal to the growth (1152000 bytes) passes
WORK=$TMP/leak CFLAGS=-DLEAK JEHEAP=$JEHEAP "$GATE" 1152000 > /dev/null 2>&1
rc=$?
[ "$rc" = 0 ] || fail "leaking build at its own growth: exit $rc, want 0"

# the workflow runs the script
grep -q 'examples/ci/memory-gate.sh' "$SRC/examples/ci/github-workflow.yml" ||
  fail "github-workflow.yml does not call memory-gate.sh"
python3 -c 'import sys, yaml; w = yaml.safe_load(open(sys.argv[1])); assert w["jobs"]["memory-gate"]["steps"]' \
  "$SRC/examples/ci/github-workflow.yml" 2>/dev/null || fail "github-workflow.yml is not a workflow (YAML)"
echo "ci_memory_gate: $fails failed"
[ "$fails" -eq 0 ]
