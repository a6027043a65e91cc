#!/usr/bin/env python3
"""flame_contrast.py - every frame of a jeheap flame graph (--flamegraph's SVG, or the graph
inside --html's page) has a label colour that contrasts with its fill by at least 4.5:1
(WCAG 2.x AA: contrast (L1 + 0.05) / (L2 + 0.05) of the relative luminances
L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB channels).

The label colour is computed as a browser's cascade would from the file's own <style>: of
the rules whose selector matches a frame's <text> (`#id type`, `#id type.class>type`), the
most specific wins, the later one on a tie.

Usage: flame_contrast.py FILE [--diff] [--needs-white]
  --diff         the file is a differential graph (--base): each fill must also be
                 flamegraph.pl's shade of the frame's change (its title's third amount):
                 v = int(210 * (max - |change|) / max), #ffvvvv for growth, #vvvvff for
                 shrinkage, #fafafa for none, max the largest |change| of the non-root frames.
  --needs-white  at least one frame must be one on which black text would fail (contrast
                 under 4.5 with the page's default label colour), so that the file exercises
                 the choice.
Prints the number of frames and the smallest contrast; exits 1 on the first failure.
"""

import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def rgb(colour):
    m = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", colour)
    if m:
        return tuple(int(x, 16) for x in m.groups())
    m = re.fullmatch(r"#([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])", colour)
    if m:
        return tuple(int(x * 2, 16) for x in m.groups())
    fail("colour %r is not #rgb or #rrggbb" % colour)


def luminance(c):
    def lin(v):
        x = v / 255.0
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_rules(style):
    """[(specificity, order, selector parts, fill)] of the rules that set a text's fill."""
    rules = []
    for i, (sel, body) in enumerate(re.findall(r"([^{}]+)\{([^}]*)\}", style)):
        fill = re.search(r"(?:^|;)\s*fill\s*:\s*(#[0-9a-fA-F]+)", body)
        if not fill:
            continue
        for s in sel.split(","):
            s = s.strip()
            m = re.fullmatch(r"#([\w-]+)\s+(?:g((?:\.[\w-]+)+)>)?text", s)
            if not m:
                continue  # #jh-title etc.: not a frame's label
            classes = [c for c in (m.group(2) or "").split(".") if c]
            spec = (1, len(classes), 1 + (1 if m.group(2) else 0))
            rules.append((spec, i, m.group(1), classes, fill.group(1)))
    return rules


def label_colour(rules, ancestors_ids, frame_classes):
    best = None
    for spec, order, anc, classes, fill in rules:
        if anc not in ancestors_ids:
            continue
        if classes and not set(classes) <= frame_classes:
            continue
        if best is None or (spec, order) >= best[0]:
            best = ((spec, order), fill)
    if best is None:
        fail("no style rule gives the frames' labels a colour")
    return best[1]


def default_colour(rules, ancestors_ids):
    return label_colour([r for r in rules if not r[3]], ancestors_ids, set())


def load_svg(path):
    data = open(path, encoding="utf-8").read()
    if not data.lstrip().startswith("<svg") and not data.lstrip().startswith("<?xml"):
        m = re.search(r"<svg\b.*?</svg>", data, re.S)  # --html: the graph inside the page
        if not m:
            fail("%s: no <svg> in the page" % path)
        data = m.group(0)
        style = "".join(re.findall(r"<style>(.*?)</style>", open(path).read(), re.S))
    else:
        style = ""
    root = ET.fromstring(data)
    style += "".join(s.text or "" for s in root.iter(SVG + "style"))
    return root, style


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: flame_contrast.py FILE [--diff] [--needs-white]")
    path, diff, needs_white = args[0], "--diff" in args, "--needs-white" in args
    root, style = load_svg(path)
    rules = text_rules(style)
    frames_g = [g for g in root.iter(SVG + "g") if g.get("id") == "jh-frames"]
    if not frames_g:
        fail("%s: no #jh-frames group" % path)
    ids = {root.get("id"), "jh-frames"}
    black = rgb(default_colour(rules, ids))
    frames = []

    def walk(g, depth):
        rect, title = g.find(SVG + "rect"), g.find(SVG + "title").text
        frames.append((g, depth, rect.get("fill"), title))
        for c in g.findall(SVG + "g"):
            walk(c, depth + 1)

    for g in frames_g[0].findall(SVG + "g"):
        walk(g, 0)
    if len(frames) < 10:
        fail("%s: only %d frames" % (path, len(frames)))
    worst, dark = 99.0, 0
    for g, depth, fill, title in frames:
        text = rgb(label_colour(rules, ids, set(g.get("class", "").split())))
        c = contrast(rgb(fill), text)
        if c < 4.5:
            fail("%s: frame %r: label %s on %s, contrast %.2f:1 < 4.5:1" %
                 (path, title, "#%02x%02x%02x" % text, fill, c))
        worst = min(worst, c)
        dark += contrast(rgb(fill), black) < 4.5
    if needs_white and not dark:
        fail("%s: no frame on which the default label colour fails (nothing exercised)" % path)
    if diff:
        changes = []
        for g, depth, fill, title in frames:
            m = re.search(r", ([+-]?[\d,]+) \w+\)$", title)
            if not m:
                fail("%s: title %r has no change" % (path, title))
            changes.append(int(m.group(1).replace(",", "")))
        dmax = max([abs(d) for d in changes[1:]] + [1])
        for (g, depth, fill, title), d in zip(frames, changes):
            v = max(0, int(210.0 * (dmax - abs(d)) / dmax))
            want = ("#ff%02x%02x" % (v, v) if d > 0 else "#%02x%02xff" % (v, v)
                    if d < 0 else "#fafafa")
            if fill != want:
                fail("%s: frame %r changes by %d: fill %s, flamegraph.pl's shade is %s" %
                     (path, title, d, fill, want))
    print("%s: %d frames, smallest contrast %.2f:1, %d would fail with black labels" %
          (path, len(frames), worst, dark))


if __name__ == "__main__":
    main()
