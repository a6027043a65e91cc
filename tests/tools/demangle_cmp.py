#!/usr/bin/env python3
"""Compares jh_dwarf_dump -C output with llvm-symbolizer's demangled output,
line by line, after normalising the demanglers' style differences:
  libiberty {lambda(A)#1} / {lambda(A)#2}  ==  llvm 'lambda'(A) / 'lambda0'(A)
  libiberty " [clone .cold]"               ==  llvm " (.cold)"
  libiberty "operator< <T>"                ==  llvm "operator<<T>"
  llvm failed to demangle (prints _Z...)    ->  accepted (the mangled pass
                                               already proved the names equal)
  inheriting constructors: libiberty names the base class, llvm the class.
Usage: demangle_cmp.py LLVM OURS; exit 1 and print the first differences."""
import re
import sys


def lam(m):
    n = int(m.group(2))
    return "'lambda%s'(%s)" % ("" if n == 1 else str(n - 2), m.group(1))


def norm(s):
    s = re.sub(r"\{lambda\(([^{}]*)\)#(\d+)\}", lam, s)
    s = re.sub(r" \[clone (\.[^\]]+)\]", r" (\1)", s)
    s = re.sub(r"(operator(?:<<|>>|<=|>=|<|>|->)) <", r"\1<", s)
    return s


def inheriting_ctor(a, b):
    ma = re.match(r"^(.*)::([\w]+)(\(.*)$", a)
    mb = re.match(r"^(.*)::([\w]+)(\(.*)$", b)
    if not ma or not mb or ma.group(1) != mb.group(1) or ma.group(3) != mb.group(3):
        return False
    scope, depth = "", 0
    for ch in ma.group(1):  # drop template arguments, then take the class
        depth += ch == "<"
        if depth == 0:
            scope += ch
        depth -= ch == ">"
    return ma.group(2) == scope.split("::")[-1]


def main():
    a = open(sys.argv[1]).read().split("\n")
    b = open(sys.argv[2]).read().split("\n")
    if len(a) != len(b):
        print("line counts differ: llvm %d, ours %d" % (len(a), len(b)))
        return 1
    bad = 0
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y or norm(x) == norm(y):
            continue
        if x.startswith("_Z") and not y.startswith("_Z"):
            continue
        if inheriting_ctor(norm(x), norm(y)):
            continue
        bad += 1
        if bad <= 5:
            print("line %d:\n  llvm: %s\n  ours: %s" % (i + 1, x, y))
    return 1 if bad else 0


sys.exit(main())
