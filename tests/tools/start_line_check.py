#!/usr/bin/env python3
"""start_line_check.py RAW: the functions' start lines in jeheap's --proto, as `go tool
pprof -raw` shows them (`s=N`), against llvm-symbolizer's "Function start line" for the
same addresses (--verbose --inlining), frame by frame, innermost first.

Each location of a mapping whose file exists is asked of llvm-symbolizer at its ELF
virtual address (the file offset through the PT_LOAD headers). Locations that jeheap
left unnamed (no line, as pprof writes an unsymbolized location) are skipped. Prints one
line per difference and a summary; exit 0 when all agree and at least one location with a
start line was compared."""
import os
import re
import struct
import subprocess
import sys


def loads(path):
    """The PT_LOAD segments (offset, filesz, vaddr) of an ELF64 file."""
    with open(path, 'rb') as f:
        hdr = f.read(64)
        if hdr[:4] != b'\x7fELF' or hdr[4] != 2:
            return []
        phoff, = struct.unpack_from('<Q', hdr, 32)
        phentsize, phnum = struct.unpack_from('<HH', hdr, 54)
        out = []
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            p = f.read(56)
            ptype, _, off, vaddr, _, filesz = struct.unpack_from('<IIQQQQ', p)
            if ptype == 1:
                out.append((off, filesz, vaddr))
        return out


def vaddr_of(segs, off):
    for o, n, v in segs:
        if o <= off < o + n:
            return off - o + v
    return None


def parse_raw(text):
    maps, locs, cur = {}, [], None
    sect = None
    for line in text.splitlines():
        if line in ('Mappings', 'Locations'):
            sect = line
            continue
        if sect == 'Mappings':
            m = re.match(r'^(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x([0-9a-f]+) (\S+)', line)
            if m:
                maps[m.group(1)] = (int(m.group(2), 16), int(m.group(4), 16), m.group(5))
            continue
        if sect != 'Locations':
            continue
        m = re.match(r'^ *\d+: 0x([0-9a-f]+) M=(\d+) ?(.*)$', line)
        if m:
            cur = [int(m.group(1), 16), m.group(2), [m.group(3)]]
            locs.append(cur)
        elif cur and line.startswith(' ' * 13):
            cur[2].append(line.strip())
        else:
            cur = None
    return maps, locs


def start_of(frame):
    m = re.search(r' s=(\d+)', frame)
    return int(m.group(1)) if m else None


def llvm_starts(obj, addrs):
    """Per address, the start lines of its frames (innermost first, 0 when none)."""
    inp = ''.join('0x%x\n' % a for a in addrs)
    out = subprocess.run(['llvm-symbolizer', '--verbose', '--inlining', '--obj=' + obj],
                         input=inp, capture_output=True, text=True, check=True).stdout
    res = []
    for block in out.split('\n\n'):
        if not block.strip():
            continue
        frames = []
        for line in block.splitlines():
            if not line.startswith(' '):
                frames.append(0)
            elif line.startswith('  Function start line: ') and frames:
                frames[-1] = int(line.split(':')[1])
        res.append(frames)
    return res


def main():
    maps, locs = parse_raw(open(sys.argv[1]).read())
    by_obj = {}
    for addr, mid, frames in locs:
        if mid not in maps or not frames[0].strip():
            continue
        start, off, path = maps[mid]
        if not os.path.exists(path):
            continue
        segs = by_obj.setdefault(path, (loads(path), []))
        v = vaddr_of(segs[0], addr - start + off)
        if v is not None:
            segs[1].append((v, [start_of(f) for f in frames]))
    compared = with_start = bad = 0
    for path, (_, items) in sorted(by_obj.items()):
        ref = llvm_starts(path, [v for v, _ in items])
        for (v, ours), theirs in zip(items, ref):
            compared += 1
            with_start += any(ours)
            if ours != theirs:
                bad += 1
                print('differs: %s 0x%x: jeheap %s, llvm-symbolizer %s' % (path, v, ours, theirs))
    print('%d locations compared, %d with start lines, %d differ' % (compared, with_start, bad))
    return 0 if bad == 0 and with_start > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
