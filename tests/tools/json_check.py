#!/usr/bin/env python3
"""json_check.py - checks of jeheap --json (tests/cases/json_schema.sh).

  batch FILE                the commands of FILE, one per line, tab-separated
  schema DOC JSON...        validate each JSON file against the schema block of DOC (docs/json.md)
  text JSON TEXT [VALUE]    totals[VALUE] (default the file's sample_type) equals the Total: line
                            of TEXT (--text --show_bytes, same inputs; an empty TEXT means 0), and
                            every row's flat/cum equals TEXT's row of that name
  diff JSON TEXT            --base: diff.functions' flat_delta equal TEXT's flat column
  names JSON SYMBOLIZED     every function name is one of the .symbolized file's names (bytes as
                            given; an invalid UTF-8 byte read back as Latin-1)
  inputs JSON PID SEQ TAG   inputs[0] has that pid, seq and tag ("null" for none)
"""
import json
import re
import sys


def schema_of(doc):
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"^```json\n(.*?)^```", text, re.S | re.M)
    if not m:
        sys.exit(f"{doc}: no ```json block")
    return json.loads(m.group(1))


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return json.loads(data.decode("utf-8"))  # strict: invalid UTF-8 raises


def text_rows(path):
    total, rows = 0, {}
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\n")
        if line.startswith("Total"):
            total = int(line.split(": ")[1].split()[0])
            continue
        parts = line.split(None, 5)
        if len(parts) == 6:
            rows[parts[5]] = (int(parts[0]), int(parts[3]))
    return total, rows


class Failed(Exception):
    pass


def fail(msg):
    raise Failed(msg)


_validator = {}


def run(cmd, args):
    if cmd == "schema":
        import jsonschema
        if args[0] not in _validator:
            schema = schema_of(args[0])
            jsonschema.Draft202012Validator.check_schema(schema)
            _validator[args[0]] = jsonschema.Draft202012Validator(schema)
        for path in args[1:]:
            errs = sorted(_validator[args[0]].iter_errors(load(path)), key=lambda e: list(e.path))
            if errs:
                fail("; ".join(f"{path}: {list(e.path)}: {e.message}" for e in errs[:5]))
    elif cmd == "text":
        d = load(args[0])
        total, rows = text_rows(args[1])
        value = args[2] if len(args) > 2 else d["sample_type"]
        if d["totals"][value] != total:
            fail(f"{args[0]}: totals.{value} {d['totals'][value]} != Total {total}")
        if value != d["sample_type"]:
            return
        key = "bytes" if d["unit"] == "bytes" else "objects"
        n = 0
        for r in d["functions"]["rows"]:
            if r["name"] in rows:
                n += 1
                want = rows[r["name"]]
                if (r["flat_" + key], r["cum_" + key]) != want:
                    fail(f"{args[0]}: {r['name']}: {r['flat_' + key]} {r['cum_' + key]} != {want}")
        if n == 0 and d["functions"]["rows"]:
            fail(f"{args[0]}: no row found in the text report")
    elif cmd == "diff":
        d = load(args[0])
        _, rows = text_rows(args[1])
        for r in d["diff"]["functions"]:
            if r["name"] in rows and rows[r["name"]][0] != r["flat_delta"]:
                fail(f"{args[0]}: {r['name']}: flat_delta {r['flat_delta']} != {rows[r['name']][0]}")
            if r["flat_after"] - r["flat_before"] - r["flat_delta"] not in (-1, 0, 1):
                fail(f"{args[0]}: {r['name']}: after - before != delta")
        if not d["diff"]["functions"]:
            fail(f"{args[0]}: no changed function")
    elif cmd == "names":
        d = load(args[0])
        known = set()
        body = open(args[1], "rb").read().split(b"\n---", 1)[0]
        for line in body.split(b"\n")[2:]:
            for part in line.split(b" ", 1)[1].split(b"--"):
                known.add(_mixed(part))
        got = [r["name"] for r in d["functions"]["rows"]]
        for g in got:
            if g.removesuffix(" (inline)") not in known:
                fail(f"{args[0]}: name {g!r} is not in {args[1]}")
        if not got:
            fail(f"{args[0]}: no rows")
    elif cmd == "inputs":
        d = load(args[0])
        i = d["inputs"][0]
        want = [None if a == "null" else (a if k == "tag" else int(a))
                for k, a in zip(("pid", "seq", "tag"), args[1:4])]
        if [i["pid"], i["seq"], i["tag"]] != want:
            fail(f"{args[0]}: inputs[0] {i['pid']} {i['seq']} {i['tag']} != {want}")
    else:
        fail(f"unknown command {cmd}")


def main():
    """argv is one command, or "batch FILE": one command per line (words split on
    tabs), "# label" lines naming the ones after them in messages."""
    if sys.argv[1] != "batch":
        cmds = [("", sys.argv[1:])]
    else:
        cmds, label = [], ""
        for line in open(sys.argv[2], encoding="utf-8"):
            line = line.rstrip("\n")
            if line.startswith("# "):
                label = line[2:]
            elif line:
                cmds.append((label, line.split("\t")))
    fails = 0
    for label, argv in cmds:
        try:
            run(argv[0], argv[1:])
        except (Failed, OSError, ValueError, KeyError) as e:
            fails += 1
            print(f"FAIL {label}: {argv[0]}: {e}")
    sys.exit(1 if fails else 0)


def _mixed(b):
    """Valid UTF-8 sequences decoded, every other byte as its Latin-1 character."""
    out, i = [], 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                out.append(b[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(chr(b[i]))
            i += 1
    return "".join(out)


if __name__ == "__main__":
    main()
