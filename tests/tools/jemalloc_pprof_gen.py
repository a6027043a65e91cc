#!/usr/bin/env python3
"""jemalloc_pprof_gen.py DUMP OUT --form FORM - writes the profile.proto (gzipped) that
Rust's jemalloc_pprof crate writes for a jemalloc heap_v2 dump, in one of the forms the
crate has written. Written from the crate's source, github.com/polarsignals/rust-jemalloc-pprof:
  util/src/lib.rs      StackProfile::to_pprof, parse_jeheap   (commit 605dd84a188e88c8b18bfdf18935db1c6247622c)
  mappings/src/lib.rs  collect_shared_objects (dl_iterate_phdr) (commit 0025efb6e4fdb71f5f33d0745592c9be68215071)
and, for the later forms, the changes to util/src/lib.rs's location addresses and
mappings in commits 2dcd38a (2025-07), de3596b (2025-11) and 1561b15 (2026-02, 0.8.x).

FORM:
  0.7      up to 0.7: one Mapping per PT_LOAD of every loaded object (non-executable ones
           too): memory_start = load bias + p_vaddr, memory_limit = start + p_memsz,
           file_offset = p_offset, file name, build ID in hex; one comment
           "executableInfo=3;<p_offset>;<p_vaddr>" (hex) per mapping, in mapping order;
           location address = runtime address - 1 (every frame, the leaf too);
           mapping_id = the first mapping holding that address.
  2025-07  (2dcd38a): every mapping 0-0 at offset 0, no comments; the address is
           address - 1 - segment start + p_offset (file-relative), mapping_id its segment's.
  2025-11  (de3596b): as 2025-07 with + p_vaddr instead of + p_offset.
  0.8      (1561b15, 0.8.x): as 2025-11 with memory_limit = 2^64-1.
In every form: locations deduplicated on the address written (across objects), sample
type inuse_space/bytes only, period_type space/bytes, period 0, value = trunc(weight)
with parse_jeheap's weight (jeprof's correction of the t*: line). A record with no
object in use (t*: 0: 0) is left out (the crate's weight is NaN there).

What dl_iterate_phdr gives the crate in the live process is taken from the dump: the
objects are the files of MAPPED_LIBRARIES (first seen first: the program), their PT_LOAD
and PT_NOTE headers are read from the files, the load bias is where the maps put the
file's first segment. Options: --symbolize NAMES.tsv adds Lines as the crate's
`symbolize` feature does (lines "ADDRESS<TAB>outer--inner": the names of the address the
crate resolves, return address - 1, or of the dump's address: jeheap --raw's symbol lines).
"""
import argparse
import gzip
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_unsym_pprof import field_bytes, field_varint, packed, read_heap_v2, string_table  # noqa: E402

PT_LOAD, PT_NOTE = 1, 4


def elf_info(path):
    """(PT_LOAD segments as (p_offset, p_vaddr, p_memsz), build ID hex) of an ELF64 file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads, bid = [], ""
    for i in range(phnum):
        p_type, _flags, off, vaddr, _pa, filesz, memsz, _al = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD:
            loads.append((off, vaddr, memsz))
        elif p_type == PT_NOTE and not bid:
            n = off
            while n + 12 <= off + filesz:
                namesz, descsz, ntype = struct.unpack_from("<III", data, n)
                name = data[n + 12:n + 12 + namesz]
                desc_at = n + 12 + ((namesz + 3) & ~3)
                if ntype == 3 and name == b"GNU\0" and descsz:
                    bid = data[desc_at:desc_at + descsz].hex()
                    break
                n = desc_at + ((descsz + 3) & ~3)
    return loads, bid


def read_dump(path):
    """The crate's parse_jeheap: [(stack leaf first, trunc(weight))] (records with no object
    in use left out), and the file mappings as [(start, offset, path)]."""
    rate, records, maps = read_heap_v2(path)
    stacks = []
    for stack, n_objs, nbytes in records:
        if n_objs == 0:
            continue
        ratio = (float(nbytes) / n_objs) / rate
        stacks.append((stack, math.trunc(nbytes * (1.0 / (1.0 - math.exp(-ratio))))))
    return stacks, [(start, off, p) for start, _end, _perms, off, p in maps]


def shared_objects(maps):
    """[(path, bias, loads, build_id)] in the order dl_iterate_phdr would give them."""
    objs, seen = [], set()
    for start, off, path in maps:
        if path in seen:
            continue
        seen.add(path)
        info = elf_info(path)
        if not info or not info[0]:
            continue
        loads, bid = info
        # the mapping of this file at `off` is its segment whose page holds off
        seg = next((l for l in loads if l[0] & ~0xfff == off), None)
        if seg is None:
            continue
        objs.append((path, start - (seg[1] & ~0xfff), loads, bid))
    return objs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("out")
    ap.add_argument("--form", required=True, choices=["0.7", "2025-07", "2025-11", "0.8"])
    ap.add_argument("--symbolize")
    a = ap.parse_args()
    stacks, maps = read_dump(a.dump)
    names = {}
    if a.symbolize:
        for line in open(a.symbolize):
            addr, _, n = line.rstrip("\n").partition("\t")
            names[int(addr, 16)] = n.split("--")
    strings, s = string_table()

    prof = field_bytes(1, field_varint(1, s("inuse_space")) + field_varint(2, s("bytes")))
    period_type = field_bytes(11, field_varint(1, s("space")) + field_varint(2, s("bytes")))
    # mappings: one per PT_LOAD of every object, as the crate's Mapping list
    segs, mappings, comments = [], b"", []
    for path, bias, loads, bid in shared_objects(maps):
        for off, vaddr, memsz in loads:
            mid = len(segs) + 1
            start, end = bias + vaddr, bias + vaddr + memsz
            segs.append((mid, start, end, off, vaddr))
            if a.form == "0.7":
                m = (field_varint(2, start) + field_varint(3, end) + field_varint(4, off))
                comments.append(s("executableInfo=%x;%x;%x" % (3, off, vaddr)))
            else:
                m = field_varint(3, (1 << 64) - 1) if a.form == "0.8" else b""
            mappings += field_bytes(3, field_varint(1, mid) + m + field_varint(5, s(path)) +
                                    field_varint(6, s(bid) if bid else 0))
    locs, loc_ids, functions, fn_ids = b"", {}, b"", {}
    samples = b""
    for st, value in stacks:
        ids = []
        for raw in st:
            addr = raw - 1
            seg = next((g for g in segs if g[1] <= addr < g[2]), None)
            mid = seg[0] if seg else 0
            if a.form != "0.7" and seg:
                addr = addr - seg[1] + (seg[3] if a.form == "2025-07" else seg[4])
            if addr not in loc_ids:
                loc_ids[addr] = len(loc_ids) + 1
                lines = b""
                for fn in reversed(names.get(raw - 1, names.get(raw, []))):  # innermost first
                    if fn not in fn_ids:
                        fn_ids[fn] = len(fn_ids) + 1
                        functions += field_bytes(5, field_varint(1, fn_ids[fn]) +
                                                 field_varint(2, s(fn)) + field_varint(3, s(fn)))
                    lines += field_bytes(4, field_varint(1, fn_ids[fn]))
                locs += field_bytes(4, field_varint(1, loc_ids[addr]) + field_varint(2, mid) +
                                    field_varint(3, addr) + lines)
            ids.append(loc_ids[addr])
        samples += field_bytes(2, packed(1, ids) + packed(2, [value & ((1 << 64) - 1)]))
    prof += samples + mappings + locs + functions
    prof += field_varint(9, 1700000000 * 10**9) + period_type
    prof += packed(13, comments)
    body = b"".join(field_bytes(6, x.encode()) for x in strings)
    with gzip.open(a.out, "wb") as f:
        f.write(prof + body)


if __name__ == "__main__":
    main()
