#!/usr/bin/env python3
"""a2l_symbolized.py DUMP PROGRAM > DUMP.symbolized

An oracle for jeheap's own symbolizer: turns a raw jemalloc heap_v2 dump into the
'.symbolized' form jeheap reads, with names from binutils' addr2line only (nothing of
jeheap's). The output is

    --- symbol
    binary=PROGRAM
    0x<16 hex digits> outermost--...--innermost     (one line per address, ascending)
    ---
    --- heap
    <the dump, unchanged>

Addresses are the stack addresses of the dump's '@' lines, the first (the allocation
site itself) as written and every other one less 1 (a return address minus one lies in
the call instruction, as jeprof does it). Each address is placed in the
MAPPED_LIBRARIES mapping that holds it, turned into the file's virtual address through
its PT_LOAD program headers (readelf -lW), and every file's addresses go to one
`addr2line -a -f -C -i` run. An address no file names is written '??'.
"""
import re
import subprocess
import sys

MAPS_LINE = re.compile(
    r"^([0-9a-f]+)-([0-9a-f]+)\s+\S+\s+([0-9a-f]+)\s+\S+\s+\d+\s+(/\S*)$")


def stack_addresses(lines):
    found = set()
    for line in lines:
        if not line.startswith("@"):
            continue
        for pos, word in enumerate(line[1:].split()):
            pc = int(word, 16)
            found.add(pc - 1 if pos else pc)
    return found


def mappings(lines):
    """[(start, end, file offset, path)] from the MAPPED_LIBRARIES section."""
    out = []
    try:
        first = lines.index("MAPPED_LIBRARIES:") + 1
    except ValueError:
        return out
    for line in lines[first:]:
        m = MAPS_LINE.match(line)
        if m:
            out.append((int(m[1], 16), int(m[2], 16), int(m[3], 16), m[4]))
    return out


def load_segments(path, cache={}):
    """[(file offset, vaddr, file size)] of PATH's PT_LOAD headers."""
    if path not in cache:
        segs = []
        try:
            text = subprocess.run(["readelf", "-lW", path], capture_output=True,
                                  text=True, errors="replace").stdout
        except OSError:
            text = ""
        for row in text.splitlines():
            cols = row.split()
            if len(cols) >= 5 and cols[0] == "LOAD":
                segs.append((int(cols[1], 16), int(cols[2], 16), int(cols[4], 16)))
        cache[path] = segs
    return cache[path]


def file_vaddr(path, offset):
    for off, vaddr, size in load_segments(path):
        if off <= offset < off + max(size, 1):
            return vaddr + offset - off
    return offset


def addr2line_names(path, vaddrs):
    """{vaddr: [names, innermost first]} for one file."""
    query = "".join("%#x\n" % v for v in vaddrs)
    try:
        text = subprocess.run(["addr2line", "-a", "-f", "-C", "-i", "-e", path],
                              input=query, capture_output=True, text=True,
                              errors="replace").stdout
    except OSError:
        return {}
    names, current, pending = {}, None, []
    for row in text.split("\n"):
        if re.fullmatch(r"0x[0-9a-f]{16}", row):
            if current is not None:
                names[current] = pending[0::2]
            current, pending = int(row, 16), []
        elif current is not None and row:
            pending.append(row)  # function, then file:line, per frame
    if current is not None:
        names[current] = pending[0::2]
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: a2l_symbolized.py DUMP PROGRAM")
    dump, program = sys.argv[1:]
    with open(dump, encoding="latin-1") as f:
        text = f.read()
    lines = text.split("\n")
    maps = mappings(lines)
    placed, per_file = {}, {}
    for pc in stack_addresses(lines):
        for start, end, offset, path in maps:
            if start <= pc < end:
                vaddr = file_vaddr(path, pc - start + offset)
                placed[pc] = (path, vaddr)
                per_file.setdefault(path, set()).add(vaddr)
                break
    names = {path: addr2line_names(path, sorted(v)) for path, v in per_file.items()}
    out = ["--- symbol", "binary=" + program]
    for pc in sorted(stack_addresses(lines)):
        frames = ["??"]
        if pc in placed:
            path, vaddr = placed[pc]
            frames = names[path].get(vaddr) or frames
        out.append("0x%016x %s" % (pc, "--".join(frames[::-1])))
    out += ["---", "--- heap"]
    sys.stdout.write("\n".join(out) + "\n" + text)


if __name__ == "__main__":
    main()
