#!/usr/bin/env python3
"""list_ties.py - puts a --list output's routines with equal ROUTINE lines in one order.

jeprof sorts the routines of a module by short name (ShortFunctionName, which drops
template arguments); routines whose short names are equal (ns::Box<int>::fill and
ns::Box<long>::fill both read ns::Box::fill) come in Perl hash order, jeheap's by address.
Runs of consecutive routine blocks with the same ROUTINE line are sorted by their whole
text; everything else is left as is. Reads stdin, writes stdout.
"""
import sys


def main():
    blocks = []
    for line in sys.stdin.buffer.read().splitlines(keepends=True):
        if line.startswith(b"ROUTINE ") or not blocks:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    out, i = [], 0
    while i < len(blocks):
        j = i + 1
        while j < len(blocks) and blocks[j][0] == blocks[i][0]:
            j += 1
        out.extend(sorted(b"".join(b) for b in blocks[i:j]))
        i = j
    sys.stdout.buffer.write(b"".join(out))


main()
