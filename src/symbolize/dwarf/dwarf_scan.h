/*
 * dwarf_scan.h - a fast forward scanner over one unit of .debug_info.
 *
 * libdwarf allocates a Dwarf_Die per DIE visited; walking a 380 MB
 * .debug_info that way dominates the symbolizer's time. This scanner reads
 * the abbreviations and skips attribute values by form, decoding only what
 * the resolver's walk needs (tag, children, sibling, and for subroutines
 * low/high pc, ranges presence, call file/line). Anything it does not
 * understand makes it fail, and the caller falls back to libdwarf.
 */
#ifndef JEHEAP_DWARF_SCAN_H
#define JEHEAP_DWARF_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_read.h"

struct jh_abbrev;

struct jh_scan {
	const unsigned char *info; /* the section */
	struct jh_cur c;           /* cursor; c.end = end of the unit */
	uint64_t info_size;
	unsigned version, addr_size, offsz;
	uint64_t cu_off;
	struct jh_abbrev *ab; /* by code - 1 when dense */
	size_t nab;
	struct jh_scan_attr *attrs;
	size_t nattrs;
	struct jh_scan_op *ops; /* skip plans of the variable-size abbreviations */
	size_t nops;
};

/* One DIE as the scanner saw it. */
struct jh_scan_die {
	uint64_t off; /* global .debug_info offset */
	unsigned tag; /* 0 for the null entry that ends a sibling list */
	int has_children;
	uint64_t sibling; /* global offset of DW_AT_sibling, 0 if none */
	/*
	 * decoded for subprograms, inlined subroutines and the unit DIE only
	 * (other DIEs: the kinds and has_ flags are 0, call_file/line 0, the
	 * values they qualify not set):
	 */
	int lo_kind; /* 0 none, 1 address, 2 .debug_addr index, 3 other */
	int hi_kind; /* 0 none, 1 address, 2 offset from low_pc, 3 other, 4 index */
	uint64_t lo, hi;
	int has_ranges;
	unsigned ranges_form;
	uint64_t ranges; /* DW_AT_ranges value (offset or rnglistx index) */
	uint64_t call_file, call_line;
	/* unit DIE: DW_AT_addr_base, DW_AT_rnglists_base (or GNU forms) */
	int has_addr_base, has_rnglists_base;
	uint64_t addr_base, rnglists_base;
};

/*
 * Starts at the unit header at global offset cu_off. Returns 0, or -1 if the
 * header or abbreviations are not understood.
 */
int jh_scan_open(struct jh_scan *s, const unsigned char *info, uint64_t info_size,
		 const unsigned char *abbrev, uint64_t abbrev_size, uint64_t cu_off);
/* Next DIE in preorder: 1 = *d filled, 0 = end of unit, -1 = error. */
int jh_scan_next(struct jh_scan *s, struct jh_scan_die *d);
/* Skips the children of the DIE just returned (it had children). 0 or -1. */
int jh_scan_skip_children(struct jh_scan *s, const struct jh_scan_die *d);
void jh_scan_close(struct jh_scan *s);

#endif
