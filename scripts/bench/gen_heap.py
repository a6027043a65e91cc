#!/usr/bin/env python3
"""Deterministic synthetic jemalloc heap_v2 dump for parse benchmarks.

  gen_heap.py OUT.heap [--stacks 100000] [--records 320000] [--frames 30] [--seed 1]

Writes OUT.heap (heap_v2/524288, header t*/t0..t3 lines with thread names,
records with t* and per-thread lines, a MAPPED_LIBRARIES section) and
OUT.heap.symbolized (ClickHouse layout: `--- symbol`, `binary=`, one line per
distinct caller-adjusted pc with C++-style names joined by `--` for inline
frames, `---`, `--- heap`, then the dump verbatim).

jemalloc writes one record per backtrace, so by default every stack has one
record (--records > --stacks makes later records reuse random earlier
stacks, which the readers sum as jeprof does). 100k such records are ~60 MB;
the .symbolized form reaches ~200 MB through the symbol section: ~190k
distinct pcs with ClickHouse-like names (long template arguments, 1-4 inline
levels). Same seed => identical files; a smaller --stacks run gives a
proportional cut of the same shape.
(distinct pcs: ~190k; the symbol section repeats function names the way real
binaries do: one outer name per function, inline callees from a shared pool)
"""
import argparse
import random

NS = ["DB", "DB::detail", "std", "boost::asio", "absl", "rocksdb", "folly", "Poco::Net"]
CLS = ["MergeTreeData", "IStorage", "Context", "Block", "ColumnVector", "Arena",
       "HashTable", "Aggregator", "ReadBuffer", "WriteBufferFromFile", "PipelineExecutor",
       "ExpressionActions", "QueryPlan", "IAST", "ThreadPoolImpl", "Allocator"]
TPL = ["", "<char8_t>", "<unsigned long>", "<DB::Field, std::allocator<DB::Field> >",
       "<std::shared_ptr<DB::IStorage const> >", "<true, false>",
       "<HashMapCell<unsigned long, char*, HashCRC32<unsigned long>, HashTableNoState> >"]
METH = ["read", "write", "execute", "insert", "emplace", "alloc", "realloc", "merge",
        "loadColumns", "addImpl", "operator()", "operator=", "push_back", "reserve",
        "scheduleImpl", "worker", "onFinish", "prepare", "compile", "resize"]
ARGS = ["()", "(unsigned long)", "(DB::Block const&)", "(char const*, unsigned long)",
        "(std::__1::basic_string<char, std::__1::char_traits<char>, std::__1::allocator<char> > const&)",
        "(DB::ContextPtr, bool)", "(unsigned long, unsigned long) const", "(DB::Field&&)"]

EXE_LO, EXE_HI = 0x55b0b9616000, 0x55b0bd616000
JE_LO = 0x7f7e51609000
LIBC_LO = 0x7f7e51445000


def tname(r, depth):
    t = "%s::%s" % (r.choice(NS), r.choice(CLS))
    if depth < 4 and r.random() < 0.65:
        t += "<%s>" % ", ".join(tname(r, depth + 1) for _ in range(r.randrange(1, 4)))
    return t


def fname(r):
    return "%s%s::%s%s" % (tname(r, 0), r.choice(TPL), r.choice(METH), r.choice(ARGS))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--stacks", type=int, default=100000)
    ap.add_argument("--records", type=int, default=0, help="default: --stacks")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    r = random.Random(a.seed)
    a.records = a.records or a.stacks

    # call sites (return addresses) in the main executable, grouped by function
    nfunc = max(50, a.stacks // 2)
    # names as ClickHouse writes them: the function's own name, then 0-3
    # inlined callees (drawn from a shared pool) joined by "--"
    sites = []
    site_name = {}
    inl_pool = [fname(r) for _ in range(max(20, nfunc // 4))]
    for _ in range(nfunc):
        base = r.randrange(EXE_LO, EXE_HI - 0x1000) & ~0xf
        own = fname(r)
        fs = [base + r.randrange(5, 0x400) for _ in range(r.randrange(1, 11))]
        for ra in fs:
            chain = [own] + [r.choice(inl_pool) for _ in range(min(3, int(r.expovariate(0.6))))]
            site_name[ra] = "--".join(chain)
        sites.append(fs)
    je = [JE_LO + 0x99630, JE_LO + 0x99d21, JE_LO + 0x8cf24, JE_LO + 0x14f07]
    libc = [LIBC_LO + 0x24a, LIBC_LO + 0x305]

    stacks = []
    for i in range(a.stacks):
        body = [r.choice(sites[min(int(r.paretovariate(1.2)) - 1 + (j * 7919 + i) % nfunc, nfunc - 1)])
                for j in range(a.frames - len(je) - len(libc))]
        stacks.append(je + body + libc)
    lines = ["@ " + " ".join("0x%x" % pc for pc in s) + "\n" for s in stacks]

    threads = ["main", "QueryPipelineEx", "MergeMutate", "BgSchPool"]
    out = open(a.out, "w")
    recs = []
    tot = [0, 0]
    for k in range(a.records):
        si = k if k < a.stacks else r.randrange(a.stacks)
        n = int(r.paretovariate(1.5))
        size = r.choice((16, 32, 48, 64, 128, 256, 1024, 4096, 16384, 65536, 1 << 20))
        ths = sorted(r.sample(range(4), r.randrange(1, 5)))
        parts = [n // len(ths) + (1 if t < n % len(ths) else 0) for t in range(len(ths))]
        an = n + r.randrange(0, 50)
        rec = [lines[si], "  t*: %d: %d [%d: %d]\n" % (n, n * size, an, an * size)]
        for t, c in zip(ths, parts):
            rec.append("  t%d: %d: %d [%d: %d]\n" % (t, c, c * size, c, c * size))
        recs.append("".join(rec))
        tot[0] += n
        tot[1] += n * size
        if len(recs) >= 4096:
            recs_out = "".join(recs)
            recs = []
            if k < 4096:
                out.write(header(tot, threads))
            out.write(recs_out)
    if recs:
        if a.records <= 4096:
            out.write(header(tot, threads))
        out.write("".join(recs))
    out.write("\nMAPPED_LIBRARIES:\n")
    out.write("%x-%x r-xp 00001000 fe:00 5308633                    /usr/bin/clickhouse-bench\n" % (EXE_LO, EXE_HI))
    out.write("%x-%x r-xp 00009000 fe:00 14884916                   /usr/lib/x86_64-linux-gnu/libjemalloc.so.2\n" % (JE_LO, JE_LO + 0xa6000))
    out.write("%x-%x r-xp 00022000 fe:00 14876231                   /usr/lib/x86_64-linux-gnu/libc.so.6\n" % (LIBC_LO, LIBC_LO + 0x155000))
    out.write("7ffd1c3f2000-7ffd1c3f4000 r-xp 00000000 00:00 0                          [vdso]\n")
    out.close()

    # symbolized form: names for every distinct caller-adjusted pc
    pcs = set()
    for s in stacks:
        pcs.add(s[0])
        pcs.update(pc - 1 for pc in s[1:])
    names = {}
    for pc in sorted(pcs):
        if JE_LO <= pc < JE_LO + 0xa6000:
            names[pc] = r.choice(["je_prof_backtrace", "je_malloc_default", "imalloc_body--prof_alloc_prep", "operator new(unsigned long)"])
        elif pc < EXE_LO or pc >= EXE_HI:
            names[pc] = "??" if r.random() < 0.5 else "__libc_start_call_main"
        else:
            names[pc] = site_name.get(pc + 1, "??")
    with open(a.out + ".symbolized", "w") as f:
        f.write("--- symbol\nbinary=/usr/bin/clickhouse-bench\n")
        f.write("".join("0x%016x %s\n" % (pc, names[pc]) for pc in sorted(pcs)))
        f.write("---\n--- heap\n")
        with open(a.out) as src:
            while True:
                b = src.read(1 << 22)
                if not b:
                    break
                f.write(b)


def header(tot, threads):
    h = ["heap_v2/524288\n", "  t*: %d: %d [0: 0]\n" % (tot[0], tot[1])]
    for i, name in enumerate(threads):
        h.append("  t%d: %d: %d [0: 0] %s\n" % (i, tot[0] // 4, tot[1] // 4, name))
    return "".join(h)


if __name__ == "__main__":
    main()
