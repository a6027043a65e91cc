#!/usr/bin/env bash
# layout.sh - the house rules of the source tree (tests/tools/layout_check.py): one folder
# per stage, includes only downwards and through public headers, no include or call loops
# between files, no file over 800 lines, exit/abort only in cli, no mutable globals outside
# cli; and the formatting: every file under src/, include/ and tests/ is as clang-format
# (Debian 12's clang-format 14, .clang-format) would write it. tests/tools/standalone_check.py:
# nothing names a place outside the repository, and no diary words.
set -uo pipefail
SRC=${JH_SRC:?} BUILD=${JH_BUILD:?}
rc=0
python3 "$SRC/tests/tools/layout_check.py" "$SRC" "$BUILD" || rc=1
python3 "$SRC/tests/tools/standalone_check.py" "$SRC" || rc=1
CF=$(command -v clang-format-14 || command -v clang-format) ||
  { echo "layout: FAIL: clang-format missing (scripts/setup installs it)"; exit 1; }
cd "$SRC"
mapfile -t files < <(find src include tests -path tests/fixtures -prune -o -name '*.[ch]' -print | sort)
if ! "$CF" --dry-run -Werror "${files[@]}" 2> /tmp/layout.$$.cf; then
  head -20 /tmp/layout.$$.cf
  echo "layout: FAIL: files not in clang-format's style: $(grep -c 'error:' /tmp/layout.$$.cf) places (run clang-format -i)"
  rc=1
fi
rm -f /tmp/layout.$$.cf
exit $rc
