#!/usr/bin/env python3
"""make_unsym_pprof.py DUMP OUT - writes an UNSYMBOLIZED perftools.profiles.Profile, gzipped,
for a jemalloc heap_v2 dump, with the mappings as /proc/maps has them (pprof's own layout:
one Mapping per executable file mapping of MAPPED_LIBRARIES, runtime start/limit/offset, the
build ID readelf reads): one sample type inuse_space/bytes, period 0 (values already
unsampled: jeprof's Poisson correction of the t*: line), one location per distinct address
holding address - 1 (every frame, the leaf too) and no functions. The forms Rust's
jemalloc_pprof crate writes are tests/tools/jemalloc_pprof_gen.py's. Protobuf is written by
hand (varints).
Options after OUT: --rename OLD=NEW names mapped file OLD as NEW (its build ID still OLD's);
--build-id PATH=HEX gives mapped file PATH (as named in the dump) that build ID instead."""
import gzip
import math
import re
import subprocess
import sys


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v) if v else b""


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, vals):
    return field_bytes(num, b"".join(varint(v) for v in vals)) if vals else b""


def build_id(path):
    try:
        out = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
    except OSError:
        return ""
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return m.group(1) if m else ""


def string_table():
    """(the table, s): s(x) is the index of string x, added if new; entry 0 is ""."""
    strings, index = [""], {"": 0}

    def s(x):
        if x not in index:
            index[x] = len(strings)
            strings.append(x)
        return index[x]
    return strings, s


def read_heap_v2(path):
    """(sampling period, [(stack leaf first, t*: count, t*: bytes)], the file mappings of
    MAPPED_LIBRARIES as [(start, end, perms, offset, path)]) of a heap_v2 dump."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    period = int(re.match(r"heap_v2/(\d+)", lines[0]).group(1))
    records, maps, stack, in_maps = [], [], None, False
    for line in lines[1:]:
        if line.startswith("MAPPED_LIBRARIES:"):
            in_maps = True
            continue
        if in_maps:
            m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+) ([0-9a-f]+) \S+ \S+\s+(/\S.*)$", line)
            if m:
                maps.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3),
                             int(m.group(4), 16), m.group(5)))
            continue
        if line.startswith("@"):
            stack = [int(a, 16) for a in line[1:].split()]
            continue
        m = re.match(r"\s*t\*: (\d+): (\d+) \[", line)
        if m and stack is not None:
            records.append((stack, int(m.group(1)), int(m.group(2))))
            stack = None
    return period, records, maps


def main():
    dump, out = sys.argv[1], sys.argv[2]
    opts = {"--rename": {}, "--build-id": {}}
    for k, v in zip(sys.argv[3::2], sys.argv[4::2]):
        old_name, new = v.split("=", 1)
        opts[k][old_name] = new
    strings, s = string_table()

    period, records, all_maps = read_heap_v2(dump)
    maps = [(start, end, off, path) for start, end, perms, off, path in all_maps if "x" in perms]
    samples = []
    for stack, count, size in records:
        if count:
            ratio = (size / count) / period
            scale = 1 / (1 - math.exp(-ratio)) if period > 1 else 1
            samples.append((stack, int(size * scale)))
    locs, loc_ids = [], {}
    prof = field_bytes(1, field_varint(1, s("inuse_space")) + field_varint(2, s("bytes")))
    for st, v in samples:
        ids = []
        for a in st:
            if a not in loc_ids:
                loc_ids[a] = len(loc_ids) + 1
                locs.append(a)
            ids.append(loc_ids[a])
        prof += field_bytes(2, packed(1, ids) + packed(2, [v]))
    for i, (start, end, off, path) in enumerate(maps):
        prof += field_bytes(3, field_varint(1, i + 1) + field_varint(2, start) +
                            field_varint(3, end) + field_varint(4, off) +
                            field_varint(5, s(opts["--rename"].get(path, path))) +
                            field_varint(6, s(opts["--build-id"].get(path, build_id(path)))))
    for i, a in enumerate(locs):
        mid = next((k + 1 for k, mp in enumerate(maps) if mp[0] <= a - 1 < mp[1]), 0)
        prof += field_bytes(4, field_varint(1, i + 1) + field_varint(2, mid) +
                            field_varint(3, a - 1))
    prof += field_bytes(11, field_varint(1, s("space")) + field_varint(2, s("bytes")))
    body = b"".join(field_bytes(6, x.encode()) for x in strings)
    with gzip.open(out, "wb") as f:
        f.write(prof[:0] + prof + body)


if __name__ == "__main__":
    main()
