#!/usr/bin/env bash
# The man page lists every option of the opts[] table in src/cli/options.c,
# each named in the tag of a .TP paragraph (no option paragraph runs into the
# one before it); --help fits on one screen (24 lines, 80 columns), names only
# real options and points to the man page for the full list. --help, the man
# page and the bash completion spell each option as the table does (the
# parser takes '-' and '_' alike; the documents show one spelling).
set -euo pipefail
: "${JEHEAP:?}" "${JH_SRC:?}" "${JH_BUILD:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jh-man.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$JEHEAP" --help >"$T/help" || fail "--help: exit $?"
[ -r "$JH_BUILD/jeheap.bash" ] || fail "no $JH_BUILD/jeheap.bash (the completion is made at configure time)"
python3 - "$JH_SRC/src/cli/options.c" "$JH_SRC/man/jeheap.1" "$T/help" "$JH_BUILD/jeheap.bash" <<'PY'
import re, sys
src, man, help_, compl = (open(p).read() for p in sys.argv[1:])
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

# one spelling: a name that is a table name up to '-'/'_' must be that name
def key(n):
    return n.replace('-', '_')
canon = {key(n): n for n in names}
canon.update({key('no-' + f): 'no-' + f for f in flags})
def misspelt(where, found):
    bad = sorted(set(n for n in found if key(n) in canon and canon[key(n)] != n))
    if bad:
        sys.exit('FAIL: %s spells options other than the table: %s' % (
            where, ' '.join('--%s (--%s)' % (n, canon[key(n)]) for n in bad)))
misspelt('man/jeheap.1', listed)
misspelt('--help', re.findall(r'--([a-z][a-z0-9_-]*)', help_))
offered = re.findall(r'--([a-z][a-z0-9_-]*)', ' '.join(re.findall(r'local (?:flags|values)="([^"]*)"', compl)))
misspelt('the bash completion', offered)
if sorted(offered) != sorted(names):
    sys.exit('FAIL: the bash completion offers %s, the table has %s' % (
        sorted(set(offered) ^ set(names)), len(names)))

# each option in the tag of a .TP (the line after it); an option line
# (.B/.BI/.BR starting with --) anywhere else runs into the paragraph before
mlines = man.splitlines()
tagged = set()
for i, l in enumerate(mlines):
    opt_line = re.match(r'\.(B|BI|BR|IR|I)\s+\\-', l)
    if i > 0 and mlines[i - 1].startswith('.TP'):
        tagged |= set(m.replace('\\-', '-') for m in re.findall(r'\\-\\-((?:[a-z0-9_]|\\-)+)', l))
    elif opt_line:
        sys.exit('FAIL: man/jeheap.1 line %d: option line %r is not the tag of a .TP '
                 '(it runs into the paragraph before)' % (i + 1, l))
untagged = [n for n in names if n not in tagged and not (n in flags and 'no-' + n in tagged)]
if untagged:
    sys.exit('FAIL: options without a .TP of their own in man/jeheap.1: ' +
             ' '.join('--' + n for n in untagged))
print('%d options, each with a .TP in the man page, one spelling in the man page, '
      '--help and the completion; --help %d lines' % (len(names), len(lines)))
PY
