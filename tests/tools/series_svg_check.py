#!/usr/bin/env python3
"""series_svg_check.py SVG TABLE - reads a --series --svg chart back.

Parses SVG with Python's XML parser (well-formedness), then for every line
(<g class="total|row|row suspect"> holding a <polyline>) turns its points back
into values with the geometry of <g id="plot"> and compares them with the rows
of TABLE, the `--series --text --show_bytes` output of the same dumps (the
"Total" row and the function rows). Prints the lines' names, suspects marked
with '!', one a line; exits 1 on any mismatch."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def table_rows(path):
    rows, inside = {}, False
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if f and f[0] == "#1":
            inside, ncols = True, f.index("growth")
            continue
        if inside and len(f) >= ncols + 3:
            # values, growth, trend, name (the name may hold spaces)
            rows[" ".join(f[ncols + 2:])] = [float(x) for x in f[:ncols]]
    return rows


def main():
    svg, table = sys.argv[1], sys.argv[2]
    root = ET.parse(svg).getroot()  # raises on malformed XML
    if root.tag != NS + "svg":
        sys.exit("not an svg root: %s" % root.tag)
    plot = root.find(".//%sg[@id='plot']" % NS)
    x0, y0 = float(plot.get("data-x0")), float(plot.get("data-y0"))
    h, step = float(plot.get("data-height")), float(plot.get("data-step"))
    ymax = float(plot.get("data-ymax"))
    rows = table_rows(table)
    tol = max(2.0, ymax * 1e-5)
    bad = 0
    for g in plot.findall(NS + "g"):
        pl = g.find(NS + "polyline")
        name = pl.find(NS + "title").text
        suspect = "suspect" in g.get("class").split()
        if suspect:
            name = name[: name.rindex(" (leak suspect ")]
        pts = [tuple(map(float, p.split(","))) for p in pl.get("points").split()]
        want = rows.get(name)
        if want is None or len(want) != len(pts):
            print("no table row of %d values for %r" % (len(pts), name), file=sys.stderr)
            bad += 1
            continue
        for i, (x, y) in enumerate(pts):
            if abs((x - x0) - step * i) > 0.01:
                print("%s: point %d at x=%g, want %g" % (name, i, x, x0 + step * i), file=sys.stderr)
                bad += 1
            v = (y0 - y) / h * ymax
            if abs(v - want[i]) > tol:
                print("%s: dump #%d is %g in the chart, %g in the table" % (name, i + 1, v, want[i]),
                      file=sys.stderr)
                bad += 1
        print(("!" if suspect else " ") + name)
    sys.exit(1 if bad else 0)


main()
