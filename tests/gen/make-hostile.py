#!/usr/bin/env python3
"""Writes tests/fixtures/hostile/names.symbolized (tests/cases/hostile_names.sh):
a .symbolized profile whose function names are as hostile as the format
allows (a symbol line cannot hold a newline; a CR inside a name is kept):
DOT's quote, backslash and statement syntax, Graphviz's own label escapes,
XML/HTML markup, control characters, the collapsed separator. Every name is
its own jeprof short name (no balanced (...) or <...>), so every report
shows it whole.

  make-hostile.py > tests/fixtures/hostile/names.symbolized
"""
NAMES = [
    'N1 -> N2',
    'quote"name',
    'esc\\"aped',
    'back\\slash\\',
    'brace}close',
    'semi];N99 [label="x" URL="http://evil.example/"]',
    '\\N\\G\\l\\L',
    'cr\rname',
    'ctl\x01char',
    'del\x7fname',
    'term\x1b[31mred',
    'tab\tname',
    'lt<script',
    'gt>script',
    'amp&amp;b',
    'a;b',
    'pct%s%n',
]
# stacks, innermost first, as indexes into NAMES; all share the root NAMES[0]
STACKS = [[1, 2, 3, 0], [4, 5, 6, 0], [7, 8, 9, 10, 0], [11, 12, 13, 0], [14, 15, 16, 0]]

out = ["--- symbol", 'binary=/bin/host"ile\\']
for i, n in enumerate(NAMES):
    out.append("0x%016x %s" % (0x400000 + 16 * i, n))
out += ["---", "--- heap", "heap_v2/1"]
body = []
tot = 0
for k, st in enumerate(STACKS):
    # the leaf's pc is its symbol's, callers' are return addresses (+1)
    pcs = [0x400000 + 16 * st[0]] + [0x400000 + 16 * i + 1 for i in st[1:]]
    b = (k + 1) * 1000000
    tot += b
    body.append("@ " + " ".join("0x%x" % p for p in pcs))
    body.append("  t*: 1: %d [0: 0]" % b)
out.append("  t*: %d: %d [0: 0]" % (len(STACKS), tot))
out += body
print("\n".join(out))
