#!/usr/bin/env python3
"""new_addresses.py DUMP OTHER FRACTION OUT - a copy of the jemalloc heap dump DUMP in
which FRACTION of its unique stack addresses inside the module MODULE (default
/usr/bin/ceph-osd) are replaced, everywhere they occur, by other valid return addresses
of the same module: addresses of the dump OTHER (same maps, e.g. a larger dump of the
same run) that DUMP does not have. For the cache benchmark (scripts/bench/cache.sh):
a dump of the same binary with that share of new addresses. Seeded, reproducible."""
import os
import random
import sys


def maps_range(lines, module):
    """The r-xp mappings of module: [(start, end)]."""
    out, inmaps = [], False
    for l in lines:
        if l.startswith('MAPPED_LIBRARIES:'):
            inmaps = True
            continue
        if inmaps:
            f = l.split()
            if len(f) >= 6 and f[1] == 'r-xp' and f[5] == module:
                a, b = f[0].split('-')
                out.append((int(a, 16), int(b, 16)))
    return out


def stack_addrs(lines):
    s = set()
    for l in lines:
        if l.startswith('@'):
            s.update(int(a, 16) for a in l.split()[1:])
    return s


def main():
    dump, other, frac, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    module = os.environ.get('MODULE', '/usr/bin/ceph-osd')
    lines = open(dump).read().split('\n')
    rng = maps_range(lines, module)
    if not rng:
        sys.exit('no r-xp mapping of %s in %s' % (module, dump))
    inmod = lambda a: any(lo <= a < hi for lo, hi in rng)
    mine = sorted(a for a in stack_addrs(lines) if inmod(a))
    have = set(mine)
    with open(other) as f:
        theirs = sorted(a for a in stack_addrs(f) if a not in have and inmod(a))
    r = random.Random(20261202)
    n = int(len(mine) * frac)
    if len(theirs) < n:
        sys.exit('only %d new addresses in %s, %d needed' % (len(theirs), other, n))
    old = r.sample(mine, n)
    new = r.sample(theirs, n)
    swap = {a: b for a, b in zip(old, new)}
    with open(out, 'w') as f:
        for i, l in enumerate(lines):
            if l.startswith('@'):
                l = '@ ' + ' '.join('0x%x' % swap.get(int(a, 16), int(a, 16))
                                     for a in l.split()[1:])
            f.write(l + ('\n' if i < len(lines) - 1 else ''))
    print('%d of %d unique %s addresses replaced' % (n, len(mine), module), file=sys.stderr)


if __name__ == '__main__':
    main()
