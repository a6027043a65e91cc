#!/usr/bin/env python3
"""Normalise outputs whose line order jeprof leaves to Perl's hash order, so that two
correct outputs compare equal byte for byte:
  dot        every line except edges, in order (byte-exact), then the edge lines sorted
             (edges are a multiset: jeprof orders ties by hash order);
  callgrind  '(n) name' compression expanded, records (blank-line separated) sorted
             (jeprof sorts only by caller file and line; symbolized input has neither);
  sorted     lines sorted (LC_ALL=C order);
  names      function names where the name oracles disagree made equal: gcc clone
             suffixes dropped ('f.constprop.0' (symbol table), 'f (.isra.0)'
             (llvm-symbolizer), 'f(...) [clone .isra.0]' (libiberty) -> DWARF's 'f'), and
             libc's entry __libc_start_main_impl (DWARF) read as __libc_start_main (symbol
             table, llvm-symbolizer); 'names-sorted' also sorts the lines.
Usage: normalize.py dot|callgrind|sorted|names|names-sorted < IN > OUT
"""
import re
import sys


def dot(text):
    lines = text.split("\n")
    edges = sorted(l for l in lines if re.match(r"^N\d+ -> N\d+ ", l))
    rest = [l for l in lines if not re.match(r"^N\d+ -> N\d+ ", l)]
    return "\n".join(rest) + "\n--- edges, sorted:\n" + "\n".join(edges) + "\n"


def callgrind(text):
    names = {}  # ("fl"|"fn", number) -> name; cfl/cfn share the fl/fn numbering
    out = []
    for l in text.split("\n"):
        m = re.match(r"^(c?f[ln])=\((\d+)\)(?: (.*))?$", l)
        if m:
            kind = m.group(1).lstrip("c")
            key, val = m.group(2), m.group(3)
            if val is not None:
                names[(kind, key)] = val
            l = "%s=%s" % (m.group(1), names.get((kind, key), "(" + key + ")"))
        out.append(l)
    blocks = "\n".join(out).split("\n\n")
    head, body = blocks[0], [b.strip("\n") for b in blocks[1:] if b.strip("\n")]
    return head + "\n\n" + "\n\n".join(sorted(body)) + "\n"


def main():
    data = sys.stdin.buffer.read().decode("latin-1")
    mode = sys.argv[1]
    if mode == "dot":
        res = dot(data)
    elif mode == "callgrind":
        res = callgrind(data)
    elif mode in ("names", "names-sorted"):
        res = re.sub(r" \[clone \.[A-Za-z0-9_.]+\]| \(\.(?:constprop|isra|part|cold)\.\d+\)"
                     r"|\.(?:constprop|isra|part|cold)\.\d+", "", data)
        res = res.replace("__libc_start_main_impl", "__libc_start_main")
        if mode == "names-sorted":
            res = "".join(sorted(l + "\n" for l in res.split("\n") if l))
    elif mode == "sorted":
        res = "".join(sorted(l + "\n" for l in data.split("\n") if l))
    else:
        sys.exit("normalize.py: unknown mode " + mode)
    sys.stdout.buffer.write(res.encode("latin-1"))


if __name__ == "__main__":
    main()
