#!/usr/bin/env bash
# The man page lists every option of the opts[] table in src/cli/options.c;
# --help fits on one screen (24 lines, 80 columns), names only real options
# and points to the man page for the full list.
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-man.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$JEHEAP" --help >"$T/help" || fail "--help: exit $?"
python3 - "$JH_SRC/src/cli/options.c" "$JH_SRC/man/jeheap.1" "$T/help" <<'PY'
import re, sys
src, man, help_ = (open(p).read() for p in sys.argv[1:])
table = re.search(r'static const struct opt opts\[\] = \{(.*?)\n\};', src, re.S)
if not table:
    sys.exit('FAIL: no opts[] table in options.c')
names = re.findall(r'\{ "([^"]+)", K_', table.group(1))
if len(names) < 40:
    sys.exit('FAIL: only %d options read from opts[]' % len(names))
# in roff a dash is \- : --path-map is \-\-path\-map
listed = set(m.replace('\\-', '-') for m in re.findall(r'\\-\\-((?:[a-z0-9_]|\\-)+)', man))
missing = [n for n in names if n not in listed]
if missing:
    sys.exit('FAIL: options missing from man/jeheap.1: ' + ' '.join('--' + n for n in missing))
lines = help_.splitlines()
if len(lines) > 24:
    sys.exit('FAIL: --help has %d lines (more than a 24-line screen)' % len(lines))
wide = [l for l in lines if len(l) > 80]
if wide:
    sys.exit('FAIL: --help lines over 80 columns: %r' % wide)
if 'man jeheap' not in help_:
    sys.exit('FAIL: --help does not point to man jeheap')
flags = re.findall(r'\{ "([^"]+)", K_FLAG', table.group(1))  # --no-x turns flag x off
unknown = sorted(set(o for o in re.findall(r'--([a-z][a-z0-9_-]*)', help_)) - set(names) -
                 set('no-' + f for f in flags))
if unknown:
    sys.exit('FAIL: --help names options that do not exist: ' + ' '.join(unknown))
print('%d options, all in the man page; --help %d lines' % (len(names), len(lines)))
PY
