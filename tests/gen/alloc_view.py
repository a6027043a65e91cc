#!/usr/bin/env python3
"""Write the "allocator view" of a .symbolized file: every symbol line whose address lies in
a mapping of libjemalloc (from the embedded dump's MAPPED_LIBRARIES) is renamed 'malloc'.

Why: Debian's libjemalloc.so.2 is stripped, so addr2line names its frames after the nearest
exported symbol ('malloc_usable_size') or '??', and jeprof's name-based allocator-frame
removal then leaves them on top of every stack (a known jeprof failure, issue 4).  The
correct answer removes every leading frame inside the allocator library.  jeprof removes
everything up to the outermost frame named 'malloc', so running jeprof on this view yields
exactly the correct (module-based) answer with jeprof's numbers and layout.

Usage: alloc_view.py IN.symbolized > OUT.symbolized
"""
import re
import sys


def main():
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
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
