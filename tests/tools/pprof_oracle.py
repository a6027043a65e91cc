#!/usr/bin/env python3
"""pprof_oracle.py - compares Go's pprof reading jeheap's --proto with jeheap itself.

  pprof_oracle.py top TEXT TOP NSAMPLES    jeheap --text --show_bytes rows vs pprof -top
  pprof_oracle.py traces COLLAPSED TRACES  jeheap --collapsed vs pprof -traces
  pprof_oracle.py buildids RAW             pprof -raw shows the files' build IDs (readelf)

pprof runs with -symbolize=none (names exactly as written: the full demangled names) and
-unit=B; names are then shortened with jeprof's ShortFunctionName, as jeheap's --text does.
Values: jeheap sums unrounded doubles and truncates once; the proto holds each sample
rounded to an integer, so a row may differ by half a unit per sample (NSAMPLES / 2 + 1).
jeheap's Run#n rows (jeprof's names for Callback<...>::Run, one per callee) are compared as
one group with pprof's Callback...::Run rows (flat summed; cum within [max, sum]).
A frame jeheap could not name, "libname+0xOFF", is a location without lines in the proto,
which pprof shows as its mapping, "[libname]": jeheap's are compared as that (merged).
Prints one line per difference; exit 1 if any.
"""
import re
import sys


def short_name(f):
    """jeprof's ShortFunctionName."""
    while True:
        g = re.sub(r"\([^()]*\)(\s*const)?", "", f)
        if g == f:
            break
        f = g
    while True:
        g = re.sub(r"<[^<>]*>", "", f)
        if g == f:
            break
        f = g
    return re.sub(r"^.*\s+(\w+::)", r"\1", f, count=1)


UNNAMED = re.compile(r"^(\S+)\+0x[0-9a-f]+$")


def as_pprof(name):
    """jeheap's name of an unnamed frame (libname+0xOFF) as pprof shows it: [libname]."""
    m = UNNAMED.match(name)
    return f"[{m.group(1)}]" if m else name


def num(s):
    s = s.strip()
    if s.endswith("B"):
        s = s[:-1]
    return float(s)


def jeheap_text(path):
    rows = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^\s*(-?\d+)\s+\S+%\s+\S+%\s+(-?\d+)\s+\S+%\s(.*)$", line.rstrip("\n"))
        if m:
            rows.setdefault(as_pprof(m.group(3)), []).append((float(m.group(1)), float(m.group(2))))
    return rows


def pprof_top(path):
    rows = {}
    started = False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if re.match(r"^\s+flat\s+flat%", line):
            started = True
            continue
        if not started:
            continue
        m = re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s\s(.*)$", line)
        if not m:
            continue
        name = m.group(3)
        inl = name.endswith(" (inline)")
        if inl:
            name = name[: -len(" (inline)")]
        key = short_name(name) + (" (inline)" if inl else "")
        rows.setdefault(key, []).append((num(m.group(1)), num(m.group(2))))
    return rows


def strip_inline(k):
    return k[: -len(" (inline)")] if k.endswith(" (inline)") else k


def group(rows):
    """name without ' (inline)' -> [(flat, cum)]: a function inlined somewhere and called
    elsewhere is two rows in jeheap ('f', 'f (inline)') and one node in pprof."""
    out = {}
    for k, vs in rows.items():
        out.setdefault(strip_inline(k), []).extend(vs)
    return out


def cum_range(vs):
    """The cum a merged row can have: one stack counts once, so between the largest
    part and the sum of the parts (the other way round for negative values)."""
    cums = [c for _, c in vs]
    if len(cums) == 1:
        return cums[0], cums[0]
    if all(c >= 0 for c in cums):
        return max(cums), sum(cums)
    return sum(cums), min(cums)


def top(text, toppath, nsamples):
    tol = nsamples / 2 + 1
    mine = jeheap_text(text)
    theirs = pprof_top(toppath)
    bad = []
    if not mine and theirs:
        bad.append("no rows in jeheap's text")
    run_re = re.compile(r"^Run#\d+( \(inline\))?$")
    cb = [k for k in theirs if re.search(r"Callback.*::Run( \(inline\))?$", k)]
    runs = [k for k in mine if run_re.match(k)]
    if runs or cb:
        mine["Run#n"] = [v for k in runs for v in mine.pop(k)]
        theirs["Run#n"] = [v for k in cb for v in theirs.pop(k)]
    mine, theirs = group(mine), group(theirs)
    for k in sorted(set(mine) | set(theirs)):
        a, b = mine.get(k, []), theirs.get(k, [])
        if not any(f or c for f, c in a + b):
            continue
        if not a or not b:
            bad.append(f"{k!r}: only in {'pprof' if a == [] else 'jeheap'} {a or b}")
            continue
        fa, fb = sum(f for f, _ in a), sum(f for f, _ in b)
        if abs(fa - fb) > tol:
            bad.append(f"{k!r}: flat {fa:.0f} != pprof {fb:.0f}")
        (alo, ahi), (blo, bhi) = cum_range(a), cum_range(b)
        if alo > bhi + tol or blo > ahi + tol:
            bad.append(f"{k!r}: cum {a} vs pprof {b}")
    return bad


def collapsed_safe(name):
    return name.replace(";", ":").replace("\n", " ")


def pprof_traces(path):
    stacks, count = {}, {}
    cur, val = [], None

    def flush():
        if cur:
            key = ";".join(reversed(cur))
            stacks[key] = stacks.get(key, 0) + val
            count[key] = count.get(key, 0) + 1

    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("-----------+"):
            flush()
            cur, val = [], None
            continue
        if len(line) > 10 and line[10] == ":":
            continue  # a label line: '%10s:  %s'
        if line[:10].strip() and line[10:13] == "   " and not cur:
            val = num(line[:10])  # '%10s   %s': the value on the leaf's line
            name = line[13:]
        elif cur and line.startswith(" " * 13):
            name = line[13:]
        else:
            continue
        if name.endswith(" (inline)"):
            name = collapsed_safe(name[: -len(" (inline)")]) + "[inline]"
        else:
            name = collapsed_safe(name)
        cur.append(name)
    flush()
    return stacks, count


def traces(collapsed, tracespath):
    mine, nmine = {}, {}
    for line in open(collapsed, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if not line:
            continue
        stack, _, v = line.rpartition(" ")
        m = re.match(r"^(.*) (-?\d+)$", stack)
        if m:  # with --base: 'stack before after'
            stack, v = m.group(1), float(v) - float(m.group(2))
        stack = ";".join(as_pprof(f) for f in stack.split(";")) if stack else stack
        if stack:  # allocator frames only: a sample without locations, not in -traces
            mine[stack] = mine.get(stack, 0) + float(v)
            nmine[stack] = nmine.get(stack, 0) + 1
    theirs, ntheirs = pprof_traces(tracespath)
    bad = []
    for k in sorted(set(mine) | set(theirs)):
        a, b = mine.get(k), theirs.get(k)
        if a is None or b is None:
            if (a or 0) != 0 or (b or 0) != 0:
                bad.append(f"stack only in {'pprof' if a is None else 'jeheap'}: {k} {a or b}")
        elif abs(a - b) > (nmine[k] + ntheirs[k]) / 2 + 1:  # each line or sample rounded
            bad.append(f"stack {k}: jeheap {a} != pprof {b}")
    if not mine:
        bad.append("no stacks in jeheap's --collapsed")
    return bad


def buildids(raw):
    """Every mapping line of pprof -raw whose file exists names the build ID readelf reads."""
    import subprocess
    bad, seen = [], 0
    for line in open(raw, encoding="utf-8", errors="replace"):
        m = re.match(r"^\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S+)\s?(\S*)", line)
        if not m or not m.group(1).startswith("/"):
            continue
        try:
            out = subprocess.run(["readelf", "-n", m.group(1)], capture_output=True,
                                 text=True).stdout
        except OSError:
            continue
        want = re.search(r"Build ID: ([0-9a-f]+)", out)
        if not want:
            continue
        seen += 1
        if m.group(2) != want.group(1):
            bad.append(f"{m.group(1)}: pprof -raw shows build ID {m.group(2)!r}, "
                       f"readelf {want.group(1)}")
    if not seen:
        bad.append("no mapping with a build ID in pprof -raw")
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == "top":
        bad = top(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "traces":
        bad = traces(sys.argv[2], sys.argv[3])
    elif cmd == "buildids":
        bad = buildids(sys.argv[2])
    else:
        sys.exit(f"usage: {sys.argv[0]} top|traces|buildids ...")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
