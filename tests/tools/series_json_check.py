#!/usr/bin/env python3
"""series_json_check.py - checks of jeheap --series --json (tests/cases/series_json.sh).

  table JSON TABLE        series in JSON equals TABLE, the `--series --text --show_bytes`
                          output of the same dumps and options: the dumps (file, seq), the
                          Total row, every row's values, growth and trend (the same rows, in
                          the same order) and the leak suspects (rank, growth, steps up, name)
  single JSON K TEXT      dump K (0-based) against TEXT, `--text --show_bytes` of that dump
                          alone: series.dumps[K].total and series.total.values[K] are TEXT's
                          Total: line, and every row of TEXT has values[K] equal to its flat
                          column (rows TEXT has not: 0)
  first JSON NAME_RE      the first suspect (in suspects and as rank 1 in rows) matches NAME_RE
Exits 1 with one FAIL line per mismatch."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_check import text_rows  # noqa: E402  (the --text parser of json_check.py)


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def parse_table(path):
    """The text table: dumps [(seq or None, file)], suspects [(rank, growth, up, name)],
    rows [(name, values, growth, trend)] (Total first)."""
    dumps, suspects, rows = [], [], []
    part, ncols = None, 0
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        f = line.split()
        if line.startswith("   #       seq  dump"):
            part = "dumps"
            continue
        if line.startswith("Leak suspects"):
            part = "suspects"
            continue
        if f and f[0] == "#1":
            part, ncols = "rows", f.index("growth")
            continue
        if not f:
            continue
        if part == "dumps" and re.match(r"^ *\d+  ", line) and len(f) >= 3:
            dumps.append((None if f[1] == "-" else int(f[1]), line.split(None, 2)[2]))
        elif part == "dumps":
            part = None
        elif part == "suspects":
            m = re.match(r"^ *(\d+) +([+-]\d+) \S+  up in (\d+) of \d+ steps  (.*)$", line)
            if not m:
                raise ValueError(f"{path}: suspect line {line!r}")
            suspects.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)))
        elif part == "rows":
            p = line.split(None, ncols + 2)
            rows.append((p[ncols + 2], [int(x) for x in p[:ncols]], int(p[ncols]), p[ncols + 1]))
    return dumps, suspects, rows


def check_table(d, path, bad):
    s = d["series"]
    dumps, suspects, rows = parse_table(path)
    got = [(x["seq"], x["file"]) for x in s["dumps"]]
    if got != dumps:
        bad(f"dumps {got} != table {dumps}")
    if not rows or rows[0][0] != "Total":
        return bad(f"{path}: no Total row")
    t = s["total"]
    if (t["values"], t["growth"], t["trend"]) != tuple(rows[0][1:]):
        bad(f"Total {t['values']} {t['growth']} {t['trend']} != table {rows[0][1:]}")
    if [x["total"] for x in s["dumps"]] != t["values"]:
        bad("dumps[].total != total.values")
    jr = [(r["name"], r["values"], r["growth"], r["trend"]) for r in s["rows"]]
    if jr != [tuple(r) for r in rows[1:]]:
        diff = [(a, b) for a, b in zip(jr, rows[1:]) if a != tuple(b)][:3]
        bad(f"rows differ ({len(jr)} in JSON, {len(rows) - 1} in the table): {diff}")
    js = [(x["rank"], x["growth"], x["up"], x["name"]) for x in s["suspects"]]
    if js != suspects:
        bad(f"suspects {js} != table {suspects}")
    ranks = sorted((r["suspect"], r["name"]) for r in s["rows"] if r["suspect"] is not None)
    if ranks != [(x[0], x[3]) for x in suspects]:
        bad(f"rows' suspect ranks {ranks} != table {suspects}")
    if s["steps"] != len(dumps) - 1:
        bad(f"steps {s['steps']} with {len(dumps)} dumps")


def check_single(d, k, path, bad):
    s = d["series"]
    total, rows = text_rows(path)
    if s["dumps"][k]["total"] != total or s["total"]["values"][k] != total:
        bad(f"dump {k}: total {s['dumps'][k]['total']} / {s['total']['values'][k]} != Total {total}")
    byname = {r["name"]: r["values"][k] for r in s["rows"]}
    for name, (flat, _) in rows.items():
        if byname.get(name, 0) != flat:
            bad(f"dump {k}: {name}: {byname.get(name, 0)} in JSON, flat {flat} in {path}")
    for name, v in byname.items():
        if name not in rows and v != 0:
            bad(f"dump {k}: {name}: {v} in JSON, not in {path}")
    if not rows:
        bad(f"dump {k}: {path} has no rows")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    d = load(args[0])
    fails = []
    bad = fails.append
    if cmd == "table":
        check_table(d, args[1], bad)
    elif cmd == "single":
        check_single(d, int(args[1]), args[2], bad)
    elif cmd == "first":
        s = d["series"]
        first = s["suspects"][0]["name"] if s["suspects"] else None
        ranked = [r["name"] for r in s["rows"] if r["suspect"] == 1]
        if first is None or not re.fullmatch(args[1], first) or ranked != [first]:
            bad(f"first suspect {first!r} (rank 1 in rows: {ranked}), want {args[1]}")
    else:
        bad(f"unknown command {cmd}")
    for f in fails:
        print(f"FAIL {args[0]}: {f}")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
