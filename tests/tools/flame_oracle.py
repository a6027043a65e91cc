#!/usr/bin/env python3
"""flame_oracle.py - flamegraph.pl's layout arithmetic, reproduced (not copied), as an oracle
for jeheap --flamegraph.

flamegraph.pl (FlameGraph 41fee1f; docs/formats.md section 3): the folded lines
are sorted as strings; each stack gets a synthetic root "" at depth 0; walking the sorted lines,
the common prefix with the previous line stays open, the frames that differ are closed at the
running total and new ones opened there; the total advances by the line's count (the second
count on a differential "before after" line). widthpertime = (width - 2*xpad) / timemax,
xpad = 10; a frame narrower than minwidth pixels (minwidth / widthpertime in count units) is
left out; x1 = xpad + start*widthpertime, x2 = xpad + end*widthpertime; the rect's x is
"%0.1f" of x1 and its width "%0.1f" of the two rounded ends' difference.

Library use:  nodes = layout(lines, width=1200, minwidth=0.1)  -> list of Node
Command line: flame_oracle.py COLLAPSED_FILE SVG_FILE [--width W] [--minwidth PX] [--maxframes N]
              compares every frame of jeheap's SVG (name, depth, x, width, value) with the
              oracle's and exits 1 on the first difference (0 when they all agree).
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET

XPAD = 10
LINE_RE = re.compile(rb"^(.*)\s+?(\d+(?:\.\d*)?)$")


class Node:
    __slots__ = ("name", "depth", "start", "end", "before", "after", "matched")

    def __init__(self, name, depth, start):
        self.name, self.depth, self.start, self.end = name, depth, start, None
        self.before = self.after = 0

    def __repr__(self):
        return "Node(%r, depth %d, %s..%s)" % (self.name, self.depth, self.start, self.end)


def parse_lines(data):
    """Folded lines -> [(frames, before, after)]; before is None without a second column."""
    out = []
    for raw in data.split(b"\n"):
        if not raw:
            continue
        m = LINE_RE.match(raw)
        if not m:
            raise ValueError("bad folded line %r" % raw)
        stack, count = m.group(1), float(m.group(2))
        before = None
        m2 = LINE_RE.match(stack)  # differential: "stack before after"
        if m2:
            stack, before = m2.group(1), float(m2.group(2))
        out.append((raw, stack, before, count))
    return out


def layout(data, width=1200.0, minwidth=0.1, maxframes=0):
    """The frames flamegraph.pl would draw for folded text `data` (bytes): a list of Node with
    start/end in count units, the root (name "") first; plus the pixels per count unit.
    maxframes (jeheap's --maxframes, not flamegraph.pl's): when more frames than that remain
    besides the root, only those wider than the (maxframes+1)-th widest are kept."""
    lines = parse_lines(data)
    lines.sort(key=lambda t: t[0])  # whole lines, as strings (bytes)
    nodes, open_, last = [], [], []
    total = 0.0

    def flow(this, t):
        same = 0
        while same < len(last) and same < len(this) and last[same] == this[same]:
            same += 1
        for d in range(len(last) - 1, same - 1, -1):
            open_[d].end = t
            open_.pop()
        for d in range(same, len(this)):
            n = Node(this[d], d, t)
            nodes.append(n)
            open_.append(n)

    for _, stack, before, count in lines:
        frames = [b""] + (stack.split(b";") if stack else [])
        flow(frames, total)
        for n in open_:
            n.after += count
            n.before += before or 0
        total += count
        last = frames
    flow([], total)
    wpt = (width - 2 * XPAD) / (total if total else 1)
    min_time = minwidth / wpt
    kept = [n for n in nodes if not (n.end - n.start < min_time)]
    if maxframes and len(kept) > maxframes + 1:
        thr = sorted((n.end - n.start for n in kept[1:]), reverse=True)[maxframes]
        kept = kept[:1] + [n for n in kept[1:] if n.end - n.start > thr]
    return kept, wpt


def rect_of(n, wpt):
    """flamegraph.pl's x and width attributes of a frame, as strings."""
    x1 = XPAD + n.start * wpt
    x2 = XPAD + n.end * wpt
    return "%0.1f" % x1, "%0.1f" % (float("%0.1f" % x2) - float("%0.1f" % x1))


SVG = "{http://www.w3.org/2000/svg}"


def svg_frames(path):
    """jeheap's frames: (name, depth, x, width, value) from the nested <g class="f"> groups."""
    root = ET.parse(path).getroot()
    frames_g = [g for g in root.iter(SVG + "g") if g.get("id") == "jh-frames"][0]
    out = []

    def walk(g, depth):
        title = g.find(SVG + "title").text
        i = title.rfind(" (")
        value = int(title[i + 2:].split(" ")[0].replace(",", ""))
        rect = g.find(SVG + "rect")
        out.append((title[:i], depth, rect.get("x"), rect.get("width"), value))
        for c in g.findall(SVG + "g"):
            walk(c, depth + 1)

    for g in frames_g.findall(SVG + "g"):
        walk(g, 0)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("collapsed")
    ap.add_argument("svg")
    ap.add_argument("--width", type=float, default=1200.0)
    ap.add_argument("--minwidth", type=float, default=0.1)
    ap.add_argument("--maxframes", type=int, default=25000)
    a = ap.parse_args()
    nodes, wpt = layout(open(a.collapsed, "rb").read(), a.width, a.minwidth,
                       a.maxframes)
    want = []
    for n in nodes:
        x, w = rect_of(n, wpt)
        name = "all" if n.depth == 0 else n.name.decode("utf-8", "replace")
        want.append((name, n.depth, x, w, int(round(n.end - n.start))))
    got = svg_frames(a.svg)
    key = lambda f: (f[1], float(f[2]), f[0])
    want.sort(key=key)
    got.sort(key=key)
    if len(want) != len(got):
        print("flame_oracle: %d frames drawn, flamegraph.pl would draw %d" % (len(got), len(want)))
    for w, g in zip(want, got):
        if w != g:
            print("flame_oracle: differs:\n  flamegraph.pl %r\n  jeheap        %r" % (w, g))
            return 1
    if len(want) != len(got):
        return 1
    print("flame_oracle: %d frames agree (x, width, value)" % len(got))
    return 0


if __name__ == "__main__":
    sys.exit(main())
