#!/usr/bin/env python3
"""hostile_pprof.py DIR - writes malformed profile.proto files into DIR, one per case, and
prints 'FILE<TAB>STATUS<TAB>MESSAGE' lines: what `jeheap --text FILE` must answer."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from make_unsym_pprof import field_bytes, field_varint, packed, varint  # noqa: E402


def strings(*xs):
    return b"".join(field_bytes(6, x.encode()) for x in ("",) + xs)


ST = field_bytes(1, field_varint(1, 1) + field_varint(2, 2))  # inuse_space/bytes
S = strings("inuse_space", "bytes", "f")
LOC1 = field_bytes(4, field_varint(1, 1) + field_varint(3, 0x1000))
BAD = "not a valid profile.proto message (truncated, or wrong field types or lengths)"
CASES = [
    ("truncated", ST + field_bytes(2, packed(1, [1]) + packed(2, [5]))[:-2] + LOC1 + S, BAD),
    ("wire_type", ST + varint(2 << 3 | 0) + varint(7) + LOC1 + S, BAD),
    ("huge_length", ST + varint(2 << 3 | 2) + varint(1 << 40) + b"\x08\x01", BAD),
    ("dangling_location", ST + field_bytes(2, packed(1, [9]) + packed(2, [5])) + LOC1 + S,
     "profile.proto: sample refers to location 9, not in the file"),
    ("dangling_function", ST + field_bytes(2, packed(1, [1]) + packed(2, [5])) +
     field_bytes(4, field_varint(1, 1) + field_bytes(4, field_varint(1, 7))) + S,
     "profile.proto: line refers to function 7, not in the file"),
    ("dangling_mapping", ST + field_bytes(2, packed(1, [1]) + packed(2, [5])) +
     field_bytes(4, field_varint(1, 1) + field_varint(2, 3)) + S,
     "profile.proto: location refers to mapping 3, not in the file"),
    ("duplicate_id", ST + field_bytes(2, packed(1, [1]) + packed(2, [5])) + LOC1 + LOC1 + S,
     "profile.proto: two locations with id 1"),
    ("id_zero", ST + field_bytes(2, packed(1, [1]) + packed(2, [5])) +
     field_bytes(4, field_varint(3, 5)) + S, "profile.proto: location 0 has id 0"),
    ("string_index", field_bytes(1, field_varint(1, 99) + field_varint(2, 2)) + S,
     "profile.proto: sample_type: string 99 out of the table"),
    ("value_count", ST + field_bytes(2, packed(1, [1]) + packed(2, [5, 6])) + LOC1 + S,
     "profile.proto: a sample has 2 values, not one per type"),
    ("no_types", field_bytes(2, packed(1, [1]) + packed(2, [5])) + LOC1 + S,
     "profile.proto: no sample types"),
    # jemalloc_pprof's range-less mapping (0-ffffffffffffffff) whose locations span more
    # than any object: placing it would wrap the address space
    ("span", ST + field_bytes(2, packed(1, [1, 2]) + packed(2, [5])) +
     field_bytes(3, field_varint(1, 1) + field_varint(3, (1 << 64) - 1) + field_varint(5, 3)) +
     field_bytes(4, field_varint(1, 1) + field_varint(2, 1) + field_varint(3, 0x1000)) +
     field_bytes(4, field_varint(1, 2) + field_varint(2, 1) + field_varint(3, 1 << 62)) + S,
     "profile.proto: mapping 1: its addresses span too much"),
    ("string0", ST + LOC1 + b"".join(field_bytes(6, x.encode()) for x in ("x", "y", "z")),
     "profile.proto: string_table[0] is not the empty string"),
]
for name, data, msg in CASES:
    path = os.path.join(sys.argv[1], name + ".pb")
    with open(path, "wb") as f:
        f.write(data)
    print(f"{path}\t2\tjeheap: {path}: {msg}")
