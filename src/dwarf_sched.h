/*
 * dwarf_sched.h - the range arithmetic of the DWARF resolver, free of
 * libdwarf: llvm's address->CU table (DWARFDebugAranges::construct) and the
 * "innermost subroutine covering each address" sweep.
 */
#ifndef JEHEAP_DWARF_SCHED_H
#define JEHEAP_DWARF_SCHED_H

#include <stddef.h>
#include <stdint.h>

struct jh_sched_range {
	uint64_t lo, hi; /* [lo, hi) */
	uint64_t key;    /* CU header offset, or subroutine node id (preorder) */
};

/*
 * Turns possibly overlapping [lo,hi)->key claims into sorted disjoint
 * ranges, as llvm does: where several claims overlap, the lowest key wins,
 * except that a range keeps extending while its key still claims. Returns
 * the new count; in is reordered and overwritten.
 */
size_t jh_sched_disjoint(struct jh_sched_range *in, size_t n);
/* Key of the disjoint range holding addr, or UINT64_MAX. */
uint64_t jh_sched_find(const struct jh_sched_range *r, size_t n, uint64_t addr);
/*
 * For each of the na ascending addresses, the highest key among the ranges
 * covering it (UINT64_MAX if none). r is reordered.
 */
void jh_sched_cover(struct jh_sched_range *r, size_t n, const uint64_t *addrs, size_t na,
		    uint64_t *out);

#endif
