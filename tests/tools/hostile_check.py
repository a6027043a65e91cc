#!/usr/bin/env python3
"""Checks jeheap's reports of a profile with hostile function names
(tests/cases/hostile_names.sh).

  hostile_check.py PROFILE.symbolized DIR

PROFILE is a .symbolized file (tests/fixtures/hostile/names.symbolized or
one written by the test); DIR holds jeheap's outputs for it: text, top,
raw, raw.text (--text of the raw output read back), callgrind, collapsed,
svg (dot -Tsvg of --dot) and jsvg (--svg). Names and stacks are read from
PROFILE itself, so every expectation below comes from the input, not from
jeheap. Exits 1 with the failures listed.
"""
import re
import sys
import xml.etree.ElementTree as ET

fails = []


def check(ok, what):
    if not ok:
        fails.append(what)
    return ok


def visible(s):
    """A name as every text format must write it: control characters as
    visible escapes."""
    out = []
    for c in s:
        o = ord(c)
        if c == '\n':
            out.append('\\n')
        elif c == '\r':
            out.append('\\r')
        elif c == '\t':
            out.append('\\t')
        elif o < 0x20 or o == 0x7f:
            out.append('\\x%02x' % o)
        else:
            out.append(c)
    return ''.join(out)


def read_profile(path):
    data = open(path, 'rb').read().decode('latin-1')
    lines = data.split('\n')
    syms, stacks = {}, []
    i = 1
    while not lines[i].startswith('---'):
        m = re.match(r'0x([0-9a-f]+) (.*)$', lines[i])
        if m:
            syms[int(m.group(1), 16)] = m.group(2)
        i += 1
    for ln in lines[i:]:
        if ln.startswith('@ '):
            pcs = [int(x, 16) for x in ln[2:].split()]
            # the leaf as it is, callers' return addresses minus one
            stacks.append([syms[pcs[0]]] + [syms[p - 1] for p in pcs[1:]])
    return syms, stacks


def main():
    prof, d = sys.argv[1], sys.argv[2]
    syms, stacks = read_profile(prof)
    names = set(n for st in stacks for n in st)
    edges = set((st[i + 1], st[i]) for st in stacks for i in range(len(st) - 1))

    def out(name):
        return open('%s/%s' % (d, name), 'rb').read().decode('latin-1')

    # --text / --top: one row per name, the name written visibly
    for rep in ('text', 'top'):
        rows = out(rep).split('\n')
        check(rows[-1] == '', '%s: no final newline' % rep)
        rows = rows[1:-1]
        got = [r[39:] for r in rows]
        check(len(rows) == len(names), '%s: %d rows for %d names' % (rep, len(rows), len(names)))
        check(set(got) == set(visible(n) for n in names),
              '%s: names differ: %r' % (rep, set(got) ^ set(visible(n) for n in names)))

    # --raw: one symbol line per pc, the names visible; read back, the same --text
    raw = out('raw').split('\n')
    symlines = [l for l in raw if l.startswith('0x')]
    check(len(symlines) == len(syms), 'raw: %d symbol lines for %d pcs' % (len(symlines), len(syms)))
    for l in raw[:raw.index('---')]:
        check(l == '--- symbol' or l.startswith('binary=') or
              re.fullmatch(r'0x[0-9a-f]{16} [^\x00-\x1f\x7f]+', l), 'raw: bad line %r' % l)
    check(set(l[19:] for l in symlines) == set(visible(n) for n in syms.values()),
          'raw: names differ')
    check(out('raw.text') == out('text'), 'raw: read back, --text differs')

    # --callgrind: every line is a record of the format, names visible
    fn = set()
    table = {}
    for l in out('callgrind').split('\n'):
        if l in ('', 'events: Hits') or re.fullmatch(r'(calls=)?\d+ -?\d+', l):
            continue
        m = re.fullmatch(r'(c?f[ln])=(?:\((\d+)\)(?: (.*))?|([^(].{0,2}))', l)
        if not check(m, 'callgrind: bad line %r' % l):
            continue
        kind, idx, text, short = m.groups()
        if idx and text is not None:
            table[kind[-2:], idx] = text
        v = short if short is not None else table.get((kind[-2:], idx))
        check(v is not None and not re.search(r'[\x00-\x1f\x7f]', v), 'callgrind: %r' % l)
        if kind.endswith('fn'):
            fn.add(v)
    check(fn == set(visible(n) for n in names), 'callgrind: names differ: %r' %
          (fn ^ set(visible(n) for n in names)))

    # --collapsed: one line per stack, one field per frame
    col = out('collapsed').split('\n')
    check(col[-1] == '' and len(col) - 1 == len(stacks),
          'collapsed: %d lines for %d stacks' % (len(col) - 1, len(stacks)))
    want = sorted(';'.join(visible(n).replace(';', ':') for n in reversed(st)) for st in stacks)
    check(sorted(l.rsplit(' ', 1)[0] for l in col[:-1]) == want, 'collapsed: stacks differ')

    # --dot through dot -Tsvg, and --svg: exactly the profile's nodes and
    # edges, each label reading back as its name (jeprof's label: a line per
    # whitespace run or "::"), nothing else in the graph
    for rep in ('svg', 'jsvg'):
        root = ET.fromstring(out(rep).encode('latin-1'))
        ns = '{http://www.w3.org/2000/svg}'
        label = {}
        for g in root.iter(ns + 'g'):
            cls = g.get('class')
            title = g.find(ns + 'title').text if g.find(ns + 'title') is not None else None
            if cls == 'node' and title != 'Legend':
                texts = [t.text or '' for t in g.findall(ns + 'text')]
                label[title] = texts
        for tag in ('a', 'script', 'image', 'foreignObject'):
            # --svg adds jeprof's pan/zoom script, and nothing else
            want = 1 if rep == 'jsvg' and tag == 'script' else 0
            check(len(list(root.iter(ns + tag))) == want, '%s: unexpected <%s>' % (rep, tag))
        byname = {}
        for nid, texts in label.items():
            for n in names:
                pieces = [visible(p) for p in re.split(r'[ \t\n\r\f\v]+|::', n) if p]
                if texts[:len(pieces)] == pieces and all(
                        re.fullmatch(r'(of )?[\d.]+ \([\d.]+%\)', t) for t in texts[len(pieces):]):
                    check(n not in byname, '%s: %r twice' % (rep, n))
                    byname[n] = nid
        check(set(byname) == names and len(label) == len(names),
              '%s: nodes %r, missing %r' % (rep, sorted(label.values()), names - set(byname)))
        nodeid = {v: k for k, v in byname.items()}
        got = set()
        for g in root.iter(ns + 'g'):
            if g.get('class') == 'edge':
                a, b = g.find(ns + 'title').text.split('->')
                got.add((nodeid.get(a), nodeid.get(b)))
        check(got == edges, '%s: edges differ: %r' % (rep, got ^ edges))

    for f in fails:
        print('FAIL:', f)
    if not fails:
        print('ok: %d names, %d stacks, %d edges in every report' %
              (len(names), len(stacks), len(edges)))
    return 1 if fails else 0


sys.exit(main())
