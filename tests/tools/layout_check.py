#!/usr/bin/env python3
"""layout_check.py SRC BUILD - the house rules of the source tree.

- src/ holds only the stage folders; data flows cli -> report -> analysis -> model ->
  symbolize -> input -> base.
- A file includes only its own stage's private headers and the public headers
  (include/jeheap/) of its own stage or of a stage below it.
- No two files include or call each other in a loop (calls read from the object files'
  symbol tables with nm), and no call goes from a stage to one above it.
- No .c/.h file over 800 lines; no line over 100 columns.
- exit()/abort() only in src/cli/ (and the out-of-memory handler in src/base/alloc).
- No mutable global state (writable data symbols) outside src/cli/.
Prints one line per violation; exit 1 if any.
"""
import os, re, subprocess, sys

STAGES = ["base", "input", "symbolize", "model", "analysis", "report", "cli"]
RANK = {s: i for i, s in enumerate(STAGES)}
# Owner stage of every public header.
PUBLIC = {
    "base.h": "base", "trace.h": "base", "idtab.h": "base",
    "input.h": "input", "profile.h": "input", "dump_name.h": "input",
    "symbolize.h": "symbolize", "debug_find.h": "symbolize", "list_lines.h": "symbolize",
    "elf_image.h": "symbolize",
    "model.h": "model", "names.h": "model",
    "analyse.h": "analysis", "regex.h": "analysis", "series.h": "analysis",
    "gate.h": "analysis",
    "report.h": "report", "report_output.h": "report", "report_flame.h": "report",
    "report_series.h": "report",
    "options.h": "cli",
}
# Files allowed to call exit()/abort(): the command line, and the out-of-memory handler.
EXIT_OK = re.compile(r"^src/cli/|^src/base/base\.c$")

# Process-wide state that is justified, per file: symbol -> reason.
GLOBAL_OK = {
    "src/base/base.c": {
        "warn_sink": "the one diagnostics function of base: set once by cli at start-up",
        "jh_sb_empty": "never written: the empty string of every fresh strbuf",
        "oom_what": "what is being read, for the one out-of-memory line",
        "oom_cur": "which oom_what buffer is current (atomic)",
    },
    "src/symbolize/mem_budget.c": {
        "ceiling": "--max-memory: the run's DWARF memory ceiling (atomic)",
        "used": "bytes reserved against that ceiling (atomic)",
    },
    "src/base/jh_trace.c": {
        "t0": "debug trace (JEHEAP_TRACE): start time", "trace_lock": "debug trace: its lock",
        "trace_state": "debug trace: enabled or not, read once",
    },
    "src/symbolize/dwarf/dwarf_index.c": {
        "alloc_once": "pthread_once for libdwarf's process-wide init",
        "init_lock": "libdwarf init lock", "srcfiles_lock": "libdwarf is not thread-safe there",
        "oa_methods": "libdwarf object-access method table, filled once under alloc_once",
    },
    "src/analysis/analyse_skip.c": {"skip_names": "const (pointers relocated: .data.rel.ro)"},
    "src/symbolize/dwarf/dwarf_lookup.c": {
        "prefetch_names": "const (pointers relocated: .data.rel.ro)"},
    "src/symbolize/elf_image.c": {"elf_version_checked": "libelf's elf_version(), once"},
    "src/symbolize/sections.c": {"elf_ok": "libelf's elf_version(), once", "elf_once": "its pthread_once"},
}

src, build = sys.argv[1], sys.argv[2]
bad = []
def fail(msg): bad.append(msg)

for e in sorted(os.listdir(os.path.join(src, "src"))):
    if e not in STAGES and e != "CMakeLists.txt":
        fail(f"src/{e}: not a stage folder ({', '.join(STAGES)})")
for h in sorted(os.listdir(os.path.join(src, "include/jeheap"))):
    if h not in PUBLIC:
        fail(f"include/jeheap/{h}: no owner stage (add it to PUBLIC in {sys.argv[0]})")

files = []
for root, _, names in os.walk(os.path.join(src, "src")):
    for n in names:
        if n.endswith((".c", ".h")):
            files.append(os.path.relpath(os.path.join(root, n), src))
for root, _, names in os.walk(os.path.join(src, "include")):
    files += [os.path.relpath(os.path.join(root, n), src) for n in names if n.endswith(".h")]
for root, _, names in os.walk(os.path.join(src, "tests")):
    files += [os.path.relpath(os.path.join(root, n), src) for n in names if n.endswith((".c", ".h"))]
files.sort()

def stage_of(path):
    p = path.split("/")
    if p[0] == "src": return p[1]
    if p[0] == "include": return PUBLIC.get(p[-1])
    return None

inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
inc_graph = {}
for f in files:
    lines = open(os.path.join(src, f), encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "": lines.pop()
    if len(lines) > 800: fail(f"{f}: {len(lines)} lines (at most 800)")
    for i, l in enumerate(lines, 1):
        if len(l.expandtabs(8)) > 100: fail(f"{f}:{i}: line over 100 columns")
    st = stage_of(f)
    edges = inc_graph.setdefault(f, set())
    for i, l in enumerate(lines, 1):
        m = inc_re.match(l)
        if not m: continue
        name = m.group(1)
        if name.startswith("jeheap/"):
            target = "include/" + name
            owner = PUBLIC.get(name[len("jeheap/"):])
            if st and owner and RANK[owner] > RANK[st]:
                fail(f"{f}:{i}: includes {name} of stage {owner}, above {st}")
        else:
            target = os.path.normpath(os.path.join(os.path.dirname(f), name))
            if not os.path.exists(os.path.join(src, target)) and st:
                # a private header found through the stage's include directories
                cands = [g for g in files if g.startswith(f"src/{st}/") and g.endswith("/" + name)]
                target = cands[0] if cands else None
                if target is None and f.startswith("src/"):
                    fail(f"{f}:{i}: includes \"{name}\", not a header of stage {st}")
            if target and f.startswith("src/") and stage_of(target) != st:
                fail(f"{f}:{i}: includes private header {target} of another stage")
        if target: edges.add(target)
    if f.startswith("src/") and f.endswith(".c") and not EXIT_OK.search(f):
        for i, l in enumerate(lines, 1):
            if re.search(r"\b(exit|_exit|_Exit|abort)\s*\(", l) and not l.lstrip().startswith(("*", "/")):
                fail(f"{f}:{i}: exit/abort outside src/cli (return the error instead)")

def sccs(graph):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for v0 in graph:
        if v0 in index: continue
        work = [(v0, iter(sorted(graph.get(v0, ()))))]
        index[v0] = low[v0] = counter[0]; counter[0] += 1; stack.append(v0); on.add(v0)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on: low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work: low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == v: break
                    if len(comp) > 1: out.append(sorted(comp))
    return out

for comp in sccs(inc_graph):
    fail("include loop: " + " <-> ".join(comp))

# Calls, from the stage libraries' object files.
objs = []
for root, _, names in os.walk(os.path.join(build, "src")):
    objs += [os.path.join(root, n) for n in names if n.endswith(".o")]
if not objs:
    fail(f"no object files under {build}/src (build first)")
defs, undefs, data = {}, {}, {}
for o in sorted(objs):
    m = re.search(r"/src/CMakeFiles/jh_\w+\.dir/(.*)\.o$", o)
    if not m: continue
    f = "src/" + m.group(1)
    out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
    for l in out.splitlines():
        parts = l.split()
        if len(parts) == 2 and parts[0] == "U":
            undefs.setdefault(f, set()).add(parts[1])
        elif len(parts) == 3:
            t, sym = parts[1], parts[2]
            if sym.startswith(("__odr_asan", "__asan", "___asan", "__ubsan", "__sancov")) or \
                    re.fullmatch(r"__unnamed_\d+", sym):
                continue  # the sanitizers' own bookkeeping (clang's UBSan: __unnamed_N)
            if t in "TDBRVWC": defs[sym] = f
            base = sym.split(".")[0]
            if t in "DdBbCV" and not f.startswith("src/cli/") and \
                    base not in GLOBAL_OK.get(f, {}):
                data.setdefault(f, []).append(sym)
call_graph = {}
for f, syms in undefs.items():
    for s in syms:
        g = defs.get(s)
        if g and g != f:
            call_graph.setdefault(f, set()).add(g)
            if RANK[stage_of(g)] > RANK[stage_of(f)]:
                fail(f"{f} calls {s} of {g}, a stage above its own")
for comp in sccs(call_graph):
    fail("call loop: " + " <-> ".join(comp))
for f, syms in sorted(data.items()):
    fail(f"{f}: mutable global state outside src/cli: {', '.join(sorted(syms)[:5])}")

for b in bad: print(b)
print(f"layout: {len(files)} files, {len(objs)} objects, {len(bad)} violations")
sys.exit(1 if bad else 0)
