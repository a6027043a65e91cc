#!/usr/bin/env python3
"""Random function names for checking jeheap's short names (jeprof's
ShortFunctionName: argument lists with a following "const", template
arguments, a leading return type) against jeprof's.

  shortnames.py N SEED > FILE.symbolized

Writes a .symbolized file with N distinct pcs, one single-frame stack each
(distinct random byte counts), named "f<i>" + 1-13 random tokens: brackets
of both kinds (balanced or not), "const" whole and in fragments, spaces,
"::", "operator<", "(anonymous namespace)"; 30% get a leading type.
"""
import random, sys
r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
n = int(sys.argv[1])
TOK = ["c", "on", "st", "ons", "operator<", "operator()", "(anonymous namespace)", "  ", "(", ")", "(", ")", "<", ">", "<", ">", " ", "const", " const", "a", "b::", "x", ", ", "*", "&", "::", "ab"]
out = ["--- symbol", "binary=/bin/shortnames"]
pcs = []
for i in range(n):
    toks = [r.choice(TOK) for _ in range(r.randrange(1, 14))]
    name = "f%d" % i + "".join(toks)
    if r.random() < 0.3:
        name = r.choice(["int ", "void ", "ns::T<a> ", "unsigned long "]) + "ns%d::" % i + name
    pc = 0x400000 + 16 * i
    pcs.append(pc)
    out.append("0x%016x %s" % (pc, name))
out += ["---", "--- heap", "heap_v2/1"]
tot = 0
body = []
for i, pc in enumerate(pcs):
    b = r.randrange(1 << 20, 1 << 36)
    body.append("@ 0x%x" % pc)
    body.append("  t*: 1: %d [0: 0]" % b)
    tot += b
out.append("  t*: %d: %d [0: 0]" % (n, tot))
out += body
print("\n".join(out))
