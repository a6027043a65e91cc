#!/usr/bin/env python3
"""speedscope_check.py schema SCHEMA JSON | totals JSON COLLAPSED | load RELEASE_DIR JSON

schema: the file validates against speedscope's published JSON schema (python3-jsonschema).
totals: per frame, the sum of the weights of the samples holding it (once per sample) of the
        first profile equals the same sum over jeheap --collapsed's lines ('f[inline]' is
        the frame 'f (inline)').
load:   speedscope (its npm package, offline) loads the file in headless Chromium
        (tests/tools/cdp.py) with no console error, and shows the profile's name.
"""
import base64
import json
import os
import sys
import time


def totals_of(stacks):
    t = {}
    for frames, w in stacks:
        for f in set(frames):
            t[f] = t.get(f, 0) + w
    return t


def main():
    cmd = sys.argv[1]
    bad = []
    if cmd == "schema":
        import jsonschema
        schema = json.load(open(sys.argv[2]))
        doc = json.load(open(sys.argv[3]))
        try:
            jsonschema.validate(doc, schema)
        except jsonschema.ValidationError as e:
            bad.append(f"schema: {e.message} at {list(e.absolute_path)}")
    elif cmd == "totals":
        doc = json.load(open(sys.argv[2]))
        names = [f["name"] for f in doc["shared"]["frames"]]
        p = doc["profiles"][0]
        mine = totals_of(([names[i] for i in s], w) for s, w in zip(p["samples"], p["weights"]))
        col = []
        for line in open(sys.argv[3], encoding="utf-8"):
            stack, _, v = line.rstrip("\n").rpartition(" ")
            if stack and float(v) > 0:
                fr = [f[:-8] + " (inline)" if f.endswith("[inline]") else f
                      for f in stack.split(";")]
                col.append((fr, float(v)))
        theirs = totals_of(col)
        for k in sorted(set(mine) | set(theirs)):
            if abs(mine.get(k, 0) - theirs.get(k, 0)) > 0.5:
                bad.append(f"{k}: speedscope {mine.get(k)} != collapsed {theirs.get(k)}")
        if not mine:
            bad.append("no frames")
    elif cmd == "load":
        sys.path.insert(0, os.path.dirname(__file__))
        from cdp import Browser
        rel, path = sys.argv[2], os.path.abspath(sys.argv[3])
        js = path + ".load.js"
        data = base64.b64encode(open(path, "rb").read()).decode()
        with open(js, "w") as f:
            f.write(f'speedscope.loadFileFromBase64("{os.path.basename(path)}", "{data}")\n')
        url = f"file://{os.path.abspath(rel)}/index.html#localProfilePath={js}"
        with Browser(width=1200, height=700) as b:
            page = b.open(url)
            shown = ""
            for _ in range(50):
                shown = page.eval("document.body.innerText") or ""
                if "jeheap" in shown or os.path.basename(path) in shown:
                    break
                time.sleep(0.2)
            errs = page.errors()
            bad += [f"console: {e}" for e in errs]
            want = json.load(open(path))["profiles"][0]["name"]
            if want not in shown:
                bad.append(f"speedscope does not show the profile {want!r}: {shown[:200]!r}")
    for b_ in bad:
        print(b_)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
