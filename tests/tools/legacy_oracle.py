#!/usr/bin/env python3
"""legacy_oracle.py - Go's pprof reading a legacy heap profile, against jeheap.

  legacy_oracle.py stacks RAW TYPE COLLAPSED SLACK
      the stacks of `go tool pprof -raw` (sample type TYPE) against jeheap --collapsed of the
      same file without symbols (frames are the 16-hex caller-adjusted addresses, root
      first): the same stacks, each value within SLACK per sample (pprof truncates each
      sample, jeheap sums and truncates once). pprof's leaf address is one less than the
      file's (it steps back every frame); jeheap keeps the leaf as written. A sample pprof
      shows without locations is jeheap's "[no stack]".
  legacy_oracle.py total RAW TYPE
      the sum of pprof's TYPE values (integer), for the Totals.
Prints one line per difference; exit 1 if any.
"""
import re
import sys


def pprof_raw(path, typ):
    types, samples, locs, sec = [], [], {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("Samples:"):
            sec = "s"
            continue
        if line.startswith("Locations"):
            sec = "l"
            continue
        if line.startswith("Mappings"):
            sec = None
            continue
        if sec == "s" and not types and "/" in line:
            types = [t.split("/")[0] for t in line.split()]
            continue
        if sec == "s":
            m = re.match(r"^\s*([-\d ]+):((?: \d+)*)\s*$", line)
            if m:
                vals = [int(v) for v in m.group(1).split()]
                samples.append((vals, [int(x) for x in m.group(2).split()]))
        elif sec == "l":
            m = re.match(r"^\s*(\d+): (0x[0-9a-f]+)", line)
            if m:
                locs[int(m.group(1))] = int(m.group(2), 16)
    if typ not in types:
        sys.exit("%s: no sample type %s in %s" % (path, typ, types))
    k = types.index(typ)
    out = {}
    n = {}
    for vals, ids in samples:
        addrs = [locs[i] for i in ids]
        if addrs:
            addrs[0] += 1
            key = ";".join("%016x" % a for a in reversed(addrs))
        else:
            key = "[no stack]"
        out[key] = out.get(key, 0) + vals[k]
        n[key] = n.get(key, 0) + 1
    return out, n


def collapsed(path):
    out = {}
    for line in open(path):
        stack, _, v = line.rstrip("\n").rpartition(" ")
        out[stack] = out.get(stack, 0) + int(v)
    return out


def main():
    if sys.argv[1] == "total":
        print(sum(pprof_raw(sys.argv[2], sys.argv[3])[0].values()))
        return 0
    theirs, n = pprof_raw(sys.argv[2], sys.argv[3])
    ours = collapsed(sys.argv[4])
    slack = float(sys.argv[5])
    bad = 0
    for k in sorted(set(theirs) | set(ours)):
        a, b = ours.get(k), theirs.get(k)
        if (b == 0 and a is None) or (a == 0 and b is None):
            continue  # nothing of that type: one side leaves the stack out
        if a is None or b is None or abs(a - b) > slack * n.get(k, 1):
            print("stack %s: jeheap %s, pprof %s" % (k, a, b))
            bad = 1
    return bad


sys.exit(main())
