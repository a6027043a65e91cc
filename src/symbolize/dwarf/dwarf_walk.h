/*
 * dwarf_walk.h - the DWARF resolver's walk over one unit without libdwarf:
 * our .debug_info scanner (dwarf_scan.c) plus our range readers
 * (dwarf_ranges.c) find the subroutines covering query addresses. Used by
 * dwarf_index.c, which keeps libdwarf's tree walk as the fallback.
 */
#ifndef JEHEAP_DWARF_WALK_H
#define JEHEAP_DWARF_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_ranges.h"
#include "dwarf_scan.h"
#include "dwarf_sched.h"
#include "sections.h"

/* The sections the walk reads (NULL when absent). */
struct jh_dwarf_secs {
	const struct jh_section *info, *abbrev, *rnglists, *ranges, *addr;
};

struct jh_rangevec {
	struct jh_sched_range *v;
	size_t n, a;
};
void jh_rangevec_add(struct jh_rangevec *rv, uint64_t lo, uint64_t hi, uint64_t id);

/* What the range readers need to know about a unit. */
struct jh_unit_info {
	unsigned version;
	uint64_t cu_base;
	struct jh_dwarf_addrctx addr;
	int has_rl_base;
	uint64_t rl_base;
};
/* Reads the unit DIE at cu_off: u, and the DIE itself. 0 or -1. */
int jh_unit_info_scan(const struct jh_dwarf_secs *dw, uint64_t cu_off, uint64_t cu_base,
		      struct jh_unit_info *u, struct jh_scan_die *d);
/* A DW_AT_ranges list (form, value): ranges added with key id. */
void jh_list_ranges(const struct jh_dwarf_secs *dw, const struct jh_unit_info *u, unsigned form,
		    uint64_t value, struct jh_rangevec *rv, uint64_t id);
/* A scanned DIE's code ranges (low/high pc, else DW_AT_ranges). */
void jh_scan_ranges(const struct jh_dwarf_secs *dw, const struct jh_unit_info *u,
		    const struct jh_scan_die *d, struct jh_rangevec *rv, uint64_t id);

/* A subroutine covering a query address; ids are preorder. */
struct jh_walk_node {
	uint64_t die_off;
	int64_t parent; /* nearest enclosing subroutine node, -1 if none */
	uint32_t call_file, call_line;
	int inlined;
};
struct jh_walk {
	struct jh_walk_node *nodes;
	size_t nnodes, anodes;
	struct jh_rangevec rv; /* keys are node ids */
};

/* Scopes whose children can hold subroutines. */
int jh_walk_descend(unsigned tag);
/* nq for "every address": the walk keeps every subroutine with code. */
#define JH_WALK_ALL SIZE_MAX
/* Whether any of the ascending addresses qa[0..nq) is in [lo, hi) (JH_WALK_ALL: lo < hi). */
int jh_covers(const uint64_t *qa, size_t nq, uint64_t lo, uint64_t hi);
/*
 * Fills w with the unit's subroutines covering qa (ascending). -1 if the
 * scanner meets something it does not know; w then holds partial data.
 */
int jh_walk_unit(const struct jh_dwarf_secs *dw, uint64_t cu_off, uint64_t cu_base,
		 const uint64_t *qa, size_t nq, struct jh_walk *w);

#endif
