#!/usr/bin/env bash
# pprof_views.sh - Go pprof's text views against Debian's Go pprof (golang-go), line for
# line: `jeheap --tree|--traces|--peek=RE [OPTIONS] DUMP` must print what
# `go tool pprof -tree|-traces|-peek=RE [OPTIONS]` prints for `jeheap --proto DUMP`, but
# for pprof's "Time:" line (jeheap prints none). Dumps: every golden dump
# (testdata/golden/*/*.heap against the committed binaries, and *.heap.symbolized), with
# each sample type on the prof_accum ones, in pprof's units and with --show_bytes (pprof's
# -unit=B); on four raw dumps (C, C++ with inline frames, clang, Callback::Run) also
# --hide, --show, --show_from, --prune_from, --noinlines, --nodefraction, --edgefraction,
# --nodecount, --lines, --addresses, --files; and a dump of Debian's git run under
# Debian's profiling jemalloc (libjemalloc2).
# Where jeheap has nothing to show (exit 4), pprof's view must be empty too (no node, every
# sample 0).
# Negative controls: pprof's trimming, another sample type, a filter on one side only
# must be told apart.
NAME=pprof_views
source "${JH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/fixtures/go_pprof_env.sh"

PPROF=$(go env GOTOOLDIR)/pprof # `go tool pprof` without the go command's start-up
[ -x "$PPROF" ] || PPROF="go tool pprof"
checks=0
# same NAME JEHEAP-ARGS -- PPROF-ARGS: jeheap's view of $FILE vs pprof's of its proto
same() {
  local name=$1; shift
  local mine=() theirs=()
  while [ "$1" != -- ]; do mine+=("$1"); shift; done
  shift; theirs=("$@")
  checks=$((checks + 1))
  "$JEHEAP" --quiet "${mine[@]}" "$FILE" > "$TMP/mine" 2> "$TMP/err"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
    echo "FAIL $name: jeheap ${mine[*]}: exit $rc: $(cat "$TMP/err")"; return
  fi
  $PPROF -symbolize=none "${theirs[@]}" "$TMP/p.pb.gz" 2> "$TMP/err" |
    grep -v '^Time: ' > "$TMP/theirs"
  if [ $rc -eq 4 ]; then # nothing to show: pprof's view is empty
    grep -q 'no matches found' "$TMP/err" && return
    grep -q ' 0% of 0 total$' "$TMP/theirs" && return
    # (--traces: every sample's value is 0, or there is none)
    grep -q '^-----------+' "$TMP/theirs" && ! grep -qE '^ *[^ 0][^ ]*   [^ ]' "$TMP/theirs" &&
      return
    echo "FAIL $name: jeheap ${mine[*]}: nothing to show, pprof ${theirs[*]} shows"
    head -12 "$TMP/theirs"; return
  fi
  cmp -s "$TMP/mine" "$TMP/theirs" ||
    { echo "FAIL $name: jeheap ${mine[*]} vs pprof ${theirs[*]}"
      diff "$TMP/mine" "$TMP/theirs" | head -10; }
}

proto() { # FILE
  FILE=$1
  "$JEHEAP" --quiet --proto "$FILE" > "$TMP/p.pb.gz" 2> "$TMP/err" ||
    { echo "FAIL $FILE: jeheap --proto: $(cat "$TMP/err")"; return 1; }
}

# the views of FILE for sample types TYPES, in pprof's units and in bytes
views() { # FILE TYPES PEEK
  proto "$1" || return
  local peek=$3 t
  for t in $2; do
    for v in tree traces "peek=$peek"; do
      same "$FILE $v $t" --$v --$t -- -$v -sample_index=$t
      case $t in *_space)
        same "$FILE $v $t bytes" --$v --$t --show_bytes -- -$v -sample_index=$t -unit=B ;;
      esac
    done
  done
}

OPTIONS=("hide=_site|inl_|std::|operator|_start" "show=main|leaf|site|jhlib|ns::|operator|Run|Leaf"
  "show_from=make|fill|Leaf|main" "prune_from=site|leaf|fill|arrays|operator|construct|jhlib"
  "noinlines" "nodefraction=0.05" "edgefraction=0.02" "nodecount=5" "lines" "addresses" "files")

cd "$SRC/testdata/golden" || exit 1
{
  for f in */*.heap.symbolized */*.heap; do
    types=inuse_space
    case $f in *-accum/*) types="$types inuse_objects alloc_space alloc_objects" ;; esac
    (cd "$(dirname "$f")" && views "$(basename "$f")" "$types" 'main|alloc'; echo "checks $checks")
  done
  for f in cxx-s12/after.heap parity/after.heap mt-s12/after.heap mtclang-s12-accum/after.heap; do
    (cd "$(dirname "$f")" && proto "$(basename "$f")" &&
      for o in "${OPTIONS[@]}"; do
        for v in tree traces "peek=main|alloc|fill"; do
          same "$f $v --$o" --$v --"$o" -- -$v -"$o"
        done
      done
      echo "checks $checks")
  done
} > "$TMP/log"

# a Debian program under Debian's profiling jemalloc: git adding and committing files
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
[ -e "$JE" ] || { echo "$NAME: SKIP: $JE missing (libjemalloc2)" >&2; exit 77; }
command -v git > /dev/null || { echo "$NAME: SKIP: git missing" >&2; exit 77; }
mkdir -p "$TMP/repo" "$TMP/dumps"
(
  cd "$TMP/repo" && git init -q . && for i in $(seq 1 200); do seq 1 $((i * 20)) > "f$i"; done &&
    export LD_PRELOAD=$JE MALLOC_CONF=prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$TMP/dumps/jeprof &&
    git add . && git -c user.name=t -c user.email=t@t commit -qm m && git log -p > /dev/null
) || echo "FAIL git under jemalloc" >> "$TMP/log"
GITDUMP=$(ls -S "$TMP"/dumps/jeprof.*.heap 2> /dev/null | head -1)
if [ -z "$GITDUMP" ]; then
  echo "FAIL git under jemalloc: no dump" >> "$TMP/log"
else
  (cd "$TMP" && views "$GITDUMP" "inuse_space alloc_space inuse_objects" 'alloc|main' &&
    for o in "hide=^_|libc" "show_from=main" "nodefraction=0.01" lines; do
      same "git --tree --$o" --tree --"$o" -- -tree -"$o"
    done
    echo "checks $checks") >> "$TMP/log"
fi
grep -v '^checks ' "$TMP/log"
fails=$(grep -c '^FAIL' "$TMP/log")
n=$(awk '/^checks /{n += $2} END{print n+0}' "$TMP/log")

# negative controls: the comparison tells a wrong answer apart
cd "$SRC/testdata/golden/cxx-s12" || exit 1
proto after.heap
control() { # NAME JEHEAP-ARGS -- PPROF-ARGS: must differ
  local before=$(grep -c '^FAIL' <<< "$(same "$@")")
  [ "$before" = 1 ] || { fails=$((fails + 1)); echo "FAIL control $1: not told apart"; }
}
control "untrimmed tree" --tree -- -tree -nodefraction=0 -edgefraction=0
control "noinlines" --tree --noinlines -- -tree
control "sample type" --traces -- -traces -sample_index=inuse_objects
control "hide on one side" --traces -- -traces -hide=fill
control "units" --peek=main -- -peek=main -unit=B

echo "pprof_views: $n line-for-line comparisons with go tool pprof, 5 controls: $fails failed"
[ "$fails" -eq 0 ] && [ "$n" -ge 300 ]
