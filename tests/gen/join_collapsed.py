#!/usr/bin/env python3
"""Derive the two-column '--collapsed --base' expectation: for every stack in
either profile, 'stack before after', both non-negative as flamegraph.pl/difffolded.pl
read them, sorted with LC_ALL=C.  Inputs are jeprof's --collapsed outputs of the base
and of the profile, each one line '<stack> <count>' per address stack.
Identical stack texts (different addresses, same names) are summed per column.

Usage: join_collapsed.py BEFORE.collapsed AFTER.collapsed > OUT
"""
import sys


def read(path):
    res = {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            res[stack] = res.get(stack, 0) + int(count)
    return res


def main():
    before, after = read(sys.argv[1]), read(sys.argv[2])
    rows = ["%s %d %d" % (k, before.get(k, 0), after.get(k, 0))
            for k in set(before) | set(after)]
    rows.sort(key=lambda s: s.encode("latin-1"))
    sys.stdout.write("".join(r + "\n" for r in rows))


if __name__ == "__main__":
    main()
