#!/usr/bin/env python3
"""Write the "allocator view" of a .symbolized file: every symbol line whose address lies in
a mapping of libjemalloc (from the embedded dump's MAPPED_LIBRARIES) is renamed 'malloc'.

Why: Debian's libjemalloc.so.2 is stripped, so addr2line names its frames after the nearest
exported symbol ('malloc_usable_size') or '??', and jeprof's name-based allocator-frame
removal then leaves them on top of every stack (a known jeprof failure).  The
correct answer removes every leading frame inside the allocator library.  jeprof removes
everything up to the outermost frame named 'malloc', so running jeprof on this view yields
exactly the correct (module-based) answer with jeprof's numbers and layout.

With --merge-names, additionally every address is replaced by one canonical address per
distinct name (inline chain), in the symbol section and in the dump's '@' lines (leaf as
is, callers +1, undoing jeprof's caller fix-up), so stacks that read the same merge into
one: jeprof then sums their scaled values before truncating them, as a by-name
aggregation (e.g. the two columns of '--collapsed --base') must.

Usage: alloc_view.py [--merge-names] IN.symbolized > OUT.symbolized
"""
import re
import sys


def merge_names(lines):
    canon = {}   # adjusted address -> canonical adjusted address (first one with that name)
    first = {}   # name -> canonical adjusted address
    in_syms = True
    for i, l in enumerate(lines):
        if i > 0 and l.startswith("---"):
            in_syms = False
        m = re.match(r"0x([0-9a-f]+) (.*)$", l) if in_syms else None
        if m:
            a = int(m.group(1), 16)
            canon[a] = first.setdefault(m.group(2), a)
    out = []
    in_syms = True
    for i, l in enumerate(lines):
        if i > 0 and l.startswith("---"):
            in_syms = False
        if in_syms:
            m = re.match(r"0x([0-9a-f]+) ", l)
            if m and canon[int(m.group(1), 16)] != int(m.group(1), 16):
                continue  # an alias: its stacks now use the canonical address
        elif l.startswith("@"):
            toks = l[1:].split()
            new = []
            for k, t in enumerate(toks):
                adj = int(t, 16) - (0 if k == 0 else 1)
                new.append("0x%x" % (canon.get(adj, adj) + (0 if k == 0 else 1)))
            l = "@ " + " ".join(new)
        out.append(l)
    return out


def main():
    merge = len(sys.argv) > 2 and sys.argv[1] == "--merge-names"
    if merge:
        del sys.argv[1]
    with open(sys.argv[1], encoding="latin-1") as f:
        lines = f.read().split("\n")
    ranges = []
    in_maps = False
    for l in lines:
        if l.startswith("MAPPED_LIBRARIES:"):
            in_maps = True
            continue
        if in_maps:
            m = re.match(r"([0-9a-f]+)-([0-9a-f]+)\s+\S+\s+[0-9a-f]+\s+\S+\s+\d+\s+(\S+)$", l)
            if m and "/libjemalloc" in m.group(3):
                ranges.append((int(m.group(1), 16), int(m.group(2), 16)))
    if not ranges:
        sys.exit("alloc_view.py: no libjemalloc mapping in " + sys.argv[1])
    out = []
    in_syms = True
    for i, l in enumerate(lines):
        if i > 0 and l.startswith("---"):
            in_syms = False
        m = re.match(r"0x([0-9a-f]+) ", l) if in_syms else None
        if m and any(s <= int(m.group(1), 16) < e for s, e in ranges):
            l = "0x%s malloc" % m.group(1)
        out.append(l)
    if merge:
        out = merge_names(out)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
