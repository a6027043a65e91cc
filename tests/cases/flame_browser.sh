#!/usr/bin/env bash
# flame_browser.sh - --flamegraph and --html opened from file:// in headless Chromium
# (tests/tools/cdp.py, the DevTools protocol over a pipe), checked by
# tests/tools/flame_browser.py against --collapsed on golden dumps: no console error; the root
# frame's value is the profile's total; every frame's rendered width is its share of
# --collapsed within one pixel; a click zooms a frame to full width (descendants scaled, the
# rest hidden) and Reset Zoom restores it; a search marks exactly the frames Python's regex
# matches and reports their share; the --html table sorts and filters; with --base each
# frame's colour follows the sign of its inclusive change (computed here from --collapsed's
# before/after columns); every label contrasts with its fill by at least 4.5:1 as the browser
# colours it; the hover details' objects (bytes for --inuse_objects) equal the sum
# of the frame's lines of --collapsed with that sample type (inuse on cxx-s12, alloc on the
# prof_accum dump mt-s19-accum, within 1 per line with --base), and --html's objects columns
# equal --text --alloc_objects; hostile names (tests/fixtures/flame/hostile.symbolized) render as
# text in both outputs and open no dialog. Screenshots: $JH_BUILD/test-artifacts/flame_browser/.
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
export LC_ALL=C
command -v chromium >/dev/null || command -v "${CHROMIUM:-chromium}" >/dev/null ||
	{ echo "skip: no chromium (scripts/setup installs it)"; exit 77; }
shots=${JH_BUILD:-${TMPDIR:-/tmp}}/test-artifacts/flame_browser
rm -rf "$shots"
cd "$JH_SRC"
exec python3 tests/tools/flame_browser.py "$JEHEAP" testdata/golden \
	tests/fixtures/flame/hostile.symbolized "$shots"
