#!/usr/bin/env python3
"""flame_browser.py - jeheap's --flamegraph and --html pages checked in headless Chromium
(tests/tools/cdp.py), against expectations computed here from jeheap's --collapsed lines
(tests/tools/flame_oracle.py's flamegraph.pl merge).

Usage: flame_browser.py JEHEAP GOLDEN_DIR HOSTILE_FIXTURE ARTIFACT_DIR
Exits 0 when every check passes, 1 on the first failure, 77 when Chromium is missing.
Screenshots go to ARTIFACT_DIR.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import flame_oracle  # noqa: E402

W = 1200.0
XPAD = 10
CHECKS = []


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)
    CHECKS.append(what)


def run(jeheap, *args):
    r = subprocess.run([jeheap, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        raise Fail("jeheap %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()))
    return r.stdout


FRAMES_JS = """(function () {
  return jhFlame.frames().map(function (g) {
    var r = g.querySelector(':scope > rect'), b = r.getBBox(), d = 0, i = jhFlame.info(g),
        t = g.querySelector(':scope > text');
    for (var p = g.parentElement.closest('g.f'); p; p = p.parentElement.closest('g.f')) d++;
    var shown = g.getClientRects().length > 0 && getComputedStyle(g).display !== 'none';
    return [i.name, d, b.x, b.width, i.value, g.classList.contains('m'),
            r.getAttribute('fill'), shown, g.querySelector(':scope > title').textContent,
            t ? getComputedStyle(t).fill : null];
  });
})()"""


def dom_frames(page):
    return page.eval(FRAMES_JS)


def expected(collapsed):
    nodes, wpt = flame_oracle.layout(collapsed, W, 0.1)
    total = sum(c for _, _, _, c in flame_oracle.parse_lines(collapsed))
    return nodes, wpt, total


def match(frames, nodes, wpt, label):
    """Pairs each DOM frame with its oracle node (same depth and name, x within 1 px) and
    checks the widths (share of --collapsed, within 1 px) and values."""
    check(len(frames) == len(nodes), "%s: %d frames drawn, %d expected" %
          (label, len(frames), len(nodes)))
    pairs = []
    for f in frames:
        name, depth, x, w = f[0], f[1], f[2], f[3]
        cands = [n for n in nodes if n.depth == depth and
                 ("all" if depth == 0 else n.name.decode("utf-8", "replace")) == name and
                 abs(XPAD + n.start * wpt - x) <= 1]
        check(cands, "%s: frame %r at depth %d, x %.1f: no such frame in --collapsed" %
              (label, name, depth, x))
        n = cands[0]
        want = (n.end - n.start) * wpt
        check(abs(w - want) <= 1, "%s: %r is %.2f px wide, its share of --collapsed is %.2f px"
              % (label, name, w, want))
        check(f[4] == round(n.after), "%s: %r value %s, --collapsed says %s" %
              (label, name, f[4], n.after))
        pairs.append((f, n))
    check(len(pairs) == len(frames), label + ": all frames matched")
    return pairs


def rgb(fill):
    m = re.fullmatch(r"#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})", fill or "")
    check(m, "fill %r is #rrggbb" % fill)
    return tuple(int(x, 16) for x in m.groups())


def check_contrast(frames, label):
    """Every label as the browser colours it (computed style) against its frame's fill:
    at least 4.5:1 (WCAG AA)."""
    def lum(c):
        lin = [v / 255.0 / 12.92 if v / 255.0 <= 0.04045 else
               ((v / 255.0 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    n = 0
    for f in frames:
        if not f[9]:
            continue
        m = re.fullmatch(r"rgb\((\d+), (\d+), (\d+)\)", f[9])
        check(m, "%s: %r label colour %r is rgb()" % (label, f[0], f[9]))
        a, b = sorted((lum(rgb(f[6])), lum([int(x) for x in m.groups()])), reverse=True)
        check((a + 0.05) / (b + 0.05) >= 4.5, "%s: %r label %s on %s: contrast %.2f:1" %
              (label, f[0], f[9], f[6], (a + 0.05) / (b + 0.05)))
        n += 1
    check(n > 5, "%s: %d labels checked for contrast" % (label, n))


def center(page, js_elem):
    page.eval(js_elem + ".scrollIntoView({block: 'center'})")
    r = page.eval("(function (e) { var r = e.getBoundingClientRect();"
                  " return [r.left + r.width / 2, r.top + r.height / 2]; })(" + js_elem + ")")
    return r


def check_zoom(page, frames, label, shots):
    # a frame of depth >= 2, 30..700 px wide, with an unrelated frame to hide
    idx = [i for i, f in enumerate(frames) if f[1] >= 2 and 30 <= f[3] <= 700]
    check(idx, label + ": a frame to zoom")
    i = idx[0]
    sel = "jhFlame.frames()[%d].querySelector(':scope > rect')" % i
    x, y = center(page, sel)
    page.click(x, y)
    after = dom_frames(page)
    z = after[i]
    check(abs(z[3] - (W - 2 * XPAD)) <= 1, "%s: clicked %r is %.1f px wide after the zoom"
          % (label, z[0], z[3]))
    check(abs(z[2] - XPAD) <= 1, label + ": zoomed frame starts at the left edge")
    hidden = [f for f in after if not f[7]]
    check(hidden, label + ": frames outside the zoomed one are hidden")
    scale = (W - 2 * XPAD) / frames[i][3]
    shown = [(b, a) for b, a in zip(frames, after) if a[7] and a[1] > frames[i][1]]
    for b, a in shown:
        check(abs(a[3] - b[3] * scale) <= 1, "%s: descendant %r scaled" % (label, a[0]))
    page.screenshot(os.path.join(shots, label + "-zoom.png"))
    # reset through the "Reset Zoom" text (svg) or button (html)
    btn = "document.getElementById('jh-reset-btn') || document.getElementById('jh-reset')"
    x, y = center(page, "(" + btn + ")")
    page.click(x, y)
    back = dom_frames(page)
    check(all(abs(a[3] - b[3]) < 0.01 and a[7] for a, b in zip(back, frames)),
          label + ": reset restores every frame")


def check_search(page, frames, pairs, total, label, shots, html, rx):
    if html:
        page.eval("document.getElementById('jh-q').focus()")
        page.send("Input.insertText", {"text": rx})
    else:
        page.eval("jhFlame.search(%s)" % json.dumps(rx))
    got = dom_frames(page)
    want = [f[1] > 0 and re.search(rx, f[0]) is not None for f in frames]
    check(any(want), "%s: /%s/ matches some frame" % (label, rx))
    check([g[5] for g in got] == want, "%s: /%s/ marks exactly the frames it matches" %
          (label, rx))
    check(all(g[6] == "rgb(230,0,230)" for g in got if g[5]), label + ": matches highlighted")
    # share: the matched frames without a matched ancestor, of the total
    share, stack = 0.0, []
    for (f, n), m in zip(pairs, want):
        while stack and stack[-1].depth >= n.depth:
            stack.pop()
        if m and not any(s.matched for s in stack):
            share += n.after
        n.matched = m
        stack.append(n)
    share = 100.0 * share / total
    text = page.eval("document.getElementById('jh-matched').textContent")
    m = re.fullmatch(r"Matched: ([0-9.]+)%", text)
    check(m and abs(float(m.group(1)) - share) <= 0.01,
          "%s: /%s/ reports %r, expected %.2f%%" % (label, rx, text, share))
    page.screenshot(os.path.join(shots, label + "-search.png"))
    if html:
        page.eval("var q = document.getElementById('jh-q'); q.value = '';"
                  " q.dispatchEvent(new Event('input'))")
    else:
        page.eval("jhFlame.search(null)")
    check(not any(g[5] for g in dom_frames(page)), label + ": search cleared")


def check_hover(page, frames, label):
    i = max(range(len(frames)), key=lambda k: (frames[k][1], frames[k][3]))
    x, y = center(page, "jhFlame.frames()[%d].querySelector(':scope > rect')" % i)
    page.move(x, y)
    d = page.eval("document.getElementById('jh-details').textContent")
    check(d.startswith(frames[i][8]), "%s: hover shows %r, got %r" % (label, frames[i][8], d))


def check_table(page, label, text_rows):
    rows = page.eval("jhTable.rows().map(function (r) { return [r.cells[0].textContent,"
                     " +r.cells[1].getAttribute('data-v')]; })")
    check(len(rows) == text_rows, "%s: %d table rows, --text has %d" % (label, len(rows),
                                                                        text_rows))
    x, y = center(page, "document.querySelectorAll('#jh-table th')[1]")
    page.click(x, y)
    vals = page.eval("jhTable.rows().map(function (r) { return +r.cells[1]"
                     ".getAttribute('data-v'); })")
    check(vals == sorted(vals, reverse=True), label + ": a click on Flat sorts it, descending")
    page.eval("document.getElementById('jh-filter').focus()")
    page.send("Input.insertText", {"text": "^std::"})
    vis = page.eval("jhTable.rows().filter(function (r) { return r.style.display !== 'none'; })"
                    ".map(function (r) { return r.cells[0].textContent; })")
    want = [r[0] for r in rows if re.search("^std::", r[0])]
    check(sorted(vis) == sorted(want) and want, label + ": the filter keeps the matching rows")


def check_page(b, path, collapsed, label, shots, html, text_rows=None, col2=None,
               unit="objects"):
    page = b.open("file://" + path)
    check(not page.errors(), "%s: no console error (%r)" % (label, page.errors()))
    nodes, wpt, total = expected(collapsed)
    frames = dom_frames(page)
    check(frames and frames[0][1] == 0 and frames[0][4] == total,
          "%s: root value %s == the profile's total %s" % (label, frames[0][4], total))
    pairs = match(frames, nodes, wpt, label)
    check_contrast(frames, label)
    page.screenshot(os.path.join(shots, label + ".png"), full=True)
    check_hover(page, frames, label)
    if col2 is not None:
        check_companion(page, collapsed, col2, label, unit)
    check_zoom(page, frames, label, shots)
    check_search(page, frames, pairs, total, label, shots, html, r"^std::.*alloc")
    check_search(page, frames, pairs, total, label + "-2", shots, html, r"main|Box")
    if html:
        check_table(page, label, text_rows)
    check(not page.errors() and not page.dialogs, label + ": no error or dialog at the end")
    return page.load_seconds


def check_diff(b, path, collapsed, label, shots, col2):
    page = b.open("file://" + path)
    check(not page.errors(), "%s: no console error (%r)" % (label, page.errors()))
    nodes, wpt, total = expected(collapsed)
    frames = dom_frames(page)
    pairs = match(frames, nodes, wpt, label)
    signs = set()
    for f, n in pairs:
        d = round(n.after - n.before)
        r, g, bl = rgb(f[6])
        if d > 0:
            ok = r == 255 and g == bl and g < 255
        elif d < 0:
            ok = bl == 255 and r == g and r < 255
        else:
            ok = (r, g, bl) == (250, 250, 250)
        check(ok, "%s: %r changes by %d, coloured %s" % (label, f[0], d, f[6]))
        want = "%+d" % d
        want = re.sub(r"(\d)(?=(\d{3})+$)", r"\1,", want)
        check(f[8].endswith(", %s bytes)" % want), "%s: title %r has change %s" %
              (label, f[8], want))
        signs.add((d > 0) - (d < 0))
    check({1, -1} <= signs, label + ": both growth and shrinkage are shown")
    check_contrast(frames, label)
    check_companion(page, collapsed, col2, label, "objects", diff=True)
    page.screenshot(os.path.join(shots, label + ".png"), full=True)
    check(not page.errors() and not page.dialogs, label + ": no error or dialog")


PATHS_JS = """(function () {
  return jhFlame.frames().map(function (g) {
    var path = [];
    for (var p = g; p; p = p.parentElement.closest('g.f')) path.unshift(jhFlame.info(p).name);
    return [path.slice(1), g.getAttribute('data-o'), jhFlame.describe(g)];
  });
})()"""


def companion_sums(collapsed):
    """Per path of frames (a tuple of names, root first; () = the root): the sum of the counts
    of the --collapsed lines through it, and how many lines those are."""
    sums, lines = {}, {}
    for _, stack, before, count in flame_oracle.parse_lines(collapsed):
        names = stack.decode("utf-8", "replace").split(";") if stack else []
        value = count - (before or 0)
        for k in range(len(names) + 1):
            key = tuple(names[:k])
            sums[key] = sums.get(key, 0) + value
            lines[key] = lines.get(key, 0) + 1
    return sums, lines


def unique_paths(collapsed):
    """The paths that are one frame in flamegraph.pl's merge (of all frames, none left out): a
    path whose lines do not sort together is split in several frames."""
    nodes, _ = flame_oracle.layout(collapsed, W, 0.0)
    seen, stack = {}, []
    for n in nodes:
        del stack[n.depth:]
        stack.append(n.name.decode("utf-8", "replace"))
        key = tuple(stack[1:])
        seen[key] = seen.get(key, 0) + 1
    return {k for k, c in seen.items() if c == 1}


HOVER_RE = re.compile(r" \| ([-+]?[0-9,]+) (objects|bytes)( change)?(?: \||$)")


def hover_companion(text, unit, diff):
    m = HOVER_RE.search(text)
    check(m and m.group(2) == unit and bool(m.group(3)) == diff,
          "hover %r names the %s%s" % (text, unit, " change" if diff else ""))
    return int(m.group(1).replace(",", ""))


def check_companion(page, col, col2, label, unit, diff=False):
    """The companion value of each frame (objects of a space graph, bytes of an objects one;
    with --base, its change) in its hover details: the sum over the frame's lines of jeheap
    --collapsed with the companion sample type (col2, the same stacks). Frames whose path is
    split in two by the merge are left out; with --base each line's change is truncated once
    (jeheap) rather than its two columns (--collapsed), so it may differ by 1 per line."""
    sums, lines = companion_sums(col2)
    ok = unique_paths(col)
    got = page.eval(PATHS_JS)
    checked = []
    for i, (path, o, desc) in enumerate(got):
        key = tuple(path)
        if key not in ok:
            continue
        check(key in sums, "%s: frame %r is on a line of the %s --collapsed" % (label, path, unit))
        want, slack = sums[key], lines[key] if diff else 0
        v = hover_companion(desc, unit, diff)
        check(v == int(o) and abs(v - want) <= slack,
              "%s: %r shows %s %s, --collapsed's lines sum to %s" % (label, path, v, unit, want))
        checked.append((i, want, slack, len(path)))
    check(len(checked) >= 0.8 * len(got), "%s: %d of %d frames checked" %
          (label, len(checked), len(got)))
    # real hovers: the root, and the widest frame of a few depths
    frames = dom_frames(page)
    picks, depths = [checked[0]], set()
    for c in sorted(checked[1:], key=lambda c: -frames[c[0]][3]):
        if c[3] not in depths and frames[c[0]][3] >= 4 and len(picks) < 6:
            depths.add(c[3])
            picks.append(c)
    check(len(picks) >= 4, "%s: %d frames to hover" % (label, len(picks)))
    for i, want, slack, _ in picks:
        x, y = center(page, "jhFlame.frames()[%d].querySelector(':scope > rect')" % i)
        page.move(x, y)
        d = page.eval("document.getElementById('jh-details').textContent")
        v = hover_companion(d, unit, diff)
        check(abs(v - want) <= slack, "%s: hovering %r shows %s %s, expected %s" %
              (label, frames[i][0], v, unit, want))
    page.move(1, 1)


def check_table_companion(page, text, label):
    """The --html table's companion columns equal --text's flat and cum of that sample type."""
    want = {}
    for ln in text.decode().split("\n")[1:]:
        f = ln.split(None, 5)
        if len(f) == 6:
            want[f[5]] = (int(f[0]), int(f[3]))
    rows = page.eval("jhTable.rows().map(function (r) { return [r.cells[0].textContent,"
                     " +r.cells[5].getAttribute('data-v'), +r.cells[6].getAttribute('data-v')];"
                     " })")
    same = [r for r in rows if r[0] in want]
    check(len(same) == len(rows) and rows, "%s: every table row is in --text (%d of %d)" %
          (label, len(same), len(rows)))
    for name, flat, cum in rows:
        check((flat, cum) == want[name], "%s: %r flat/cum %s/%s, --text says %s" %
              (label, name, flat, cum, want[name]))


def check_alloc(b, path, collapsed, col2, text2, label, shots):
    """--html --alloc_space on a prof_accum dump: widths, the objects in the hover details and
    the table's objects columns."""
    page = b.open("file://" + path)
    check(not page.errors(), "%s: no console error (%r)" % (label, page.errors()))
    nodes, wpt, total = expected(collapsed)
    frames = dom_frames(page)
    check(frames and frames[0][4] == total, "%s: root value %s == the profile's total %s" %
          (label, frames[0][4], total))
    match(frames, nodes, wpt, label)
    check_companion(page, collapsed, col2, label, "objects")
    check_table_companion(page, text2, label)
    page.screenshot(os.path.join(shots, label + ".png"), full=True)
    check(not page.errors() and not page.dialogs, label + ": no error or dialog at the end")


HOSTILE = ["<script>alert(1)</script>", "operator<<(a&, b<c>)", 'x"onload="alert(2)', "f]]>g",
           "</script><script>alert(3)</script>", "ctl\\x01\\x7fchar", "it's &amp: <b>bold</b>"]


def check_hostile(b, path, label, shots, html):
    page = b.open("file://" + path)
    names = [f[0] for f in dom_frames(page)]
    for h in HOSTILE:
        check(h in names, "%s: frame %r shown as text (frames: %r)" % (label, h, names))
    scripts = page.eval("document.getElementsByTagName('script').length")
    check(scripts == 1, "%s: %d <script> elements (only jeheap's own)" % (label, scripts))
    on = page.eval("Array.prototype.some.call(document.querySelectorAll('*'), function (e) {"
                   " return Array.prototype.some.call(e.attributes, function (a) {"
                   " return /^on/i.test(a.name); }); })")
    check(not on, label + ": no on* attribute")
    bold = page.eval("document.getElementsByTagName('b').length")
    check(bold == 0, label + ": no <b> element made from a name")
    # labels (the text drawn) and hover details hold the names as text
    texts = page.eval("Array.prototype.map.call(document.querySelectorAll('#jh-frames text'),"
                      " function (t) { return t.textContent; })")
    check("<script>alert(1)</script>" in texts or any(t.startswith("<script>") for t in texts),
          label + ": a label shows '<script>' as text")
    for i in range(len(names)):
        page.eval("jhFlame.describe(jhFlame.frames()[%d])" % i)
    r = page.eval("jhFlame.search('alert')")
    check(r and r["frames"] == 3, "%s: search /alert/ marks 3 frames (%r)" % (label, r))
    if html:
        cells = page.eval("jhTable.rows().map(function (r) { return r.cells[0].textContent; })")
        # the table shows jeprof's short names (as --text does)
        for want in ("f]]>g", 'x"onload="alert', "ctl\\x01\\x7fchar"):
            check(want in cells, "%s: a table cell shows %r (%r)" % (label, want, cells))
    x, y = center(page, "jhFlame.frames()[2].querySelector(':scope > rect')")
    page.click(x, y)
    page.eval("jhFlame.reset()")
    page.screenshot(os.path.join(shots, label + ".png"), full=True)
    check(not page.dialogs, "%s: no dialog opened (%r)" % (label, page.dialogs))
    check(not page.errors(), "%s: no console error (%r)" % (label, page.errors()))


def main():
    jeheap, golden, hostile, shots = sys.argv[1:5]
    if not cdp.find_chromium():
        print("skip: no chromium")
        return 77
    os.makedirs(shots, exist_ok=True)
    after = os.path.join(golden, "cxx-s12", "after.heap.symbolized")
    tmp = tempfile.mkdtemp(prefix="jh-flame-browser-")
    files = {}

    def out(name, *args):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(run(jeheap, *args))
        files[name] = p
        return p

    # the differential pair: one program sampled at two rates (stacks grow and shrink)
    dprof = os.path.join(golden, "mt-s0-accum", "after.heap.symbolized")
    dbase = os.path.join(golden, "mt-s12", "after.heap.symbolized")
    col = run(jeheap, "--collapsed", after)
    col_obj = run(jeheap, "--collapsed", "--inuse_objects", after)
    cold = run(jeheap, "--collapsed", "--base=" + dbase, dprof)
    cold_obj = run(jeheap, "--collapsed", "--inuse_objects", "--base=" + dbase, dprof)
    # alloc_space of a prof_accum dump (sampled: unbiased counts), and its alloc_objects
    accum = os.path.join(golden, "mt-s19-accum", "after.heap.symbolized")
    col_alloc = run(jeheap, "--collapsed", "--alloc_space", accum)
    col_alloc_obj = run(jeheap, "--collapsed", "--alloc_objects", accum)
    text_alloc_obj = run(jeheap, "--text", "--alloc_objects", accum)
    text_rows = len([ln for ln in run(jeheap, "--text", after).decode().split("\n")[1:] if ln])
    out("a.svg", "--flamegraph", after)
    out("a.html", "--html", after)
    out("o.svg", "--flamegraph", "--inuse_objects", after)
    out("alloc.html", "--html", "--alloc_space", accum)
    out("d.svg", "--flamegraph", "--base=" + dbase, dprof)
    out("d.html", "--html", "--base=" + dbase, dprof)
    out("h.svg", "--flamegraph", hostile)
    out("h.html", "--html", hostile)
    for name in ("a.svg", "d.svg", "h.svg"):
        xml.dom.minidom.parse(files[name])  # well-formed XML, or an exception
        check(True, name + " is well-formed XML")
    try:
        with cdp.Browser(width=1280, height=900) as b:
            check_page(b, files["a.svg"], col, "svg", shots, False, col2=col_obj)
            check_page(b, files["a.html"], col, "html", shots, True, text_rows, col2=col_obj)
            check_companion(b.open("file://" + files["o.svg"]), col_obj, col, "svg-objects",
                            "bytes")
            check_alloc(b, files["alloc.html"], col_alloc, col_alloc_obj, text_alloc_obj,
                        "html-alloc", shots)
            check_diff(b, files["d.svg"], cold, "svg-diff", shots, cold_obj)
            check_diff(b, files["d.html"], cold, "html-diff", shots, cold_obj)
            check_hostile(b, files["h.svg"], "svg-hostile", shots, False)
            check_hostile(b, files["h.html"], "html-hostile", shots, True)
    except Fail as e:
        print("FAIL:", e)
        print("(outputs kept in %s)" % tmp)
        return 1
    for p in files.values():
        os.unlink(p)
    os.rmdir(tmp)
    print("ok: %d checks; screenshots in %s" % (len(CHECKS), shots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
