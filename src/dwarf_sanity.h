/*
 * dwarf_sanity.h - checks jeheap makes before handing a section to libdwarf
 * 20210528, whose readers misbehave on some malformed input (found by
 * tests/fuzz/fuzz_elf.c: a .debug_rnglists unit length larger than the
 * section makes dwarf_load_rnglists free a buffer twice).
 */
#ifndef JEHEAP_DWARF_SANITY_H
#define JEHEAP_DWARF_SANITY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Returns 1 when data[0..size) is a sequence of DWARF 5 unit headers
 * (initial length, 4 or 12 bytes, then a 2-byte version 5) each of which fits
 * in the section, as in .debug_rnglists, .debug_loclists, .debug_addr and
 * .debug_str_offsets; 0 otherwise. little_endian selects the byte order.
 */
int jh_dwarf_units_fit(const unsigned char *data, uint64_t size, int little_endian);

#endif
