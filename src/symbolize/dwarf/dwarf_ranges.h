/*
 * dwarf_ranges.h - address ranges of a DIE from .debug_rnglists (DWARF 5)
 * and .debug_ranges (DWARF 2-4), and indexed addresses from .debug_addr,
 * decoded by jeheap with every offset checked (libdwarf 20210528 crashes on
 * some corrupt rnglistx values). llvm's rules: entries in DWARF order,
 * empty ranges and tombstone (-1) starts dropped by the caller.
 */
#ifndef JEHEAP_DWARF_RANGES_H
#define JEHEAP_DWARF_RANGES_H

#include <stddef.h>
#include <stdint.h>

struct jh_dwarf_addrctx {
	const unsigned char *addr; /* .debug_addr, may be NULL */
	uint64_t addr_size_sec;
	uint64_t addr_base; /* DW_AT_addr_base (0: none) */
	unsigned addr_size; /* 4 or 8 */
	unsigned offsz;     /* 4 or 8 (DWARF 32/64) */
};

typedef void (*jh_range_fn)(void *ctx, uint64_t lo, uint64_t hi);

/* Address number idx of .debug_addr. 0 or -1. */
int jh_dwarf_addrx(const struct jh_dwarf_addrctx *a, uint64_t idx, uint64_t *out);
/* Section offset of list idx (DW_FORM_rnglistx) given DW_AT_rnglists_base. */
int jh_rnglistx_offset(const unsigned char *sec, uint64_t size, uint64_t base, uint64_t idx,
		       unsigned offsz, uint64_t *off);
/* Calls fn for each range of the DWARF 5 list at off; base = CU base. 0 or -1. */
int jh_rnglist_read(const unsigned char *sec, uint64_t size, uint64_t off,
		    const struct jh_dwarf_addrctx *a, uint64_t base, jh_range_fn fn, void *ctx);
/* Same for a DWARF 2-4 .debug_ranges list. */
int jh_ranges_read(const unsigned char *sec, uint64_t size, uint64_t off, unsigned addr_size,
		   uint64_t base, jh_range_fn fn, void *ctx);

#endif
