#!/usr/bin/env python3
"""addresses.py DUMP OUTDIR - the caller-adjusted stack addresses of a heap_v2 dump, per
mapped file, as file virtual addresses: OUTDIR/N.addr (one 0x address a line) and
OUTDIR/manifest.tsv (PATH<TAB>COUNT<TAB>N.addr). These are the addresses jeheap symbolizes
for the dump; llvm-symbolizer and addr2line are given the same ones when timed beside it.
The address arithmetic is tests/tools/a2l_symbolized.py's (the test oracle)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "tools"))
import a2l_symbolized as a2l  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: addresses.py DUMP OUTDIR")
    dump, outdir = sys.argv[1:]
    with open(dump, encoding="latin-1") as f:
        lines = f.read().split("\n")
    maps = a2l.mappings(lines)
    per_file = {}
    for pc in a2l.stack_addresses(lines):
        for start, end, offset, path in maps:
            if start <= pc < end:
                per_file.setdefault(path, set()).add(a2l.file_vaddr(path, pc - start + offset))
                break
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "manifest.tsv"), "w") as manifest:
        for n, path in enumerate(sorted(per_file)):
            name = "%d.addr" % n
            with open(os.path.join(outdir, name), "w") as f:
                f.write("".join("%#x\n" % v for v in sorted(per_file[path])))
            manifest.write("%s\t%d\t%s\n" % (path, len(per_file[path]), name))


if __name__ == "__main__":
    main()
