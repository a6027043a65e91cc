#!/usr/bin/env python3
"""standalone_check.py SRC - the repository stands alone and its text is current.

- No committed file (text or binary) names a place outside the repository: no relative
  path into a `shared` folder beside the checkout, no absolute path into the machine's
  work folder (a clone has nothing beside it).
- No diary words in docs/, README.md, man/, src/, include/, tests/, scripts/: no "issue N",
  no "session" (the interactive prompt's and the browser protocol's sessions excepted,
  below), and no dates in the user documentation (README.md, docs/).
Prints one line per place; exit 1 if any.
"""
import os
import re
import subprocess
import sys

# written in two pieces so that this file does not match itself
OUTSIDE = re.compile(rb"\.\./" + b"shared|/wo" + b"rk/")
ISSUE = re.compile(r"\bissues? #?[0-9]", re.I)
SESSION = re.compile(r"\bsessions?\b", re.I)
DATE = re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b")
PROSE = ("docs/", "README.md", "man/", "src/", "include/", "tests/", "scripts/")
# Files where "session" is the thing itself, not a diary entry.
SESSION_OK = {
    "src/cli/interactive.c": "the interactive prompt's session",
    "tests/cases/interactive_pty.sh": "an interactive session under a terminal",
    "tests/tools/cdp.py": "Chrome DevTools Protocol sessions",
}
THIS = "tests/tools/standalone_check.py"


def tracked(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True,
                             check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(root, n), src) for n in names]
        return files


def main():
    src = sys.argv[1]
    bad = []
    for f in sorted(tracked(src)):
        path = os.path.join(src, f)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as fh:
            data = fh.read()
        for m in OUTSIDE.finditer(data):
            line = data.count(b"\n", 0, m.start()) + 1
            bad.append(f"{f}:{line}: names a place outside the repository "
                       f"({m.group().decode()})")
        if not f.startswith(PROSE) or b"\0" in data or f == THIS:
            continue
        text = data.decode("utf-8", "replace")
        for n, line in enumerate(text.split("\n"), 1):
            if ISSUE.search(line):
                bad.append(f"{f}:{n}: diary word \"{ISSUE.search(line).group()}\": say what is done")
            if SESSION.search(line) and f not in SESSION_OK:
                bad.append(f"{f}:{n}: diary word \"session\"")
            if f.startswith(("docs/", "README.md")) and DATE.search(line):
                bad.append(f"{f}:{n}: a date in the documentation: state what is true now")
    for b in bad:
        print("standalone: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
