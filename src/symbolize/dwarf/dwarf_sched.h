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
/* jh_sched_cover on ranges already in ascending lo (jh_sched_sort_lo); r is not touched. */
void jh_sched_cover_sorted(const struct jh_sched_range *r, size_t n, const uint64_t *addrs,
			   size_t na, uint64_t *out);
void jh_sched_sort_lo(struct jh_sched_range *r, size_t n);

/*
 * Runs run(ctx, w, i) for i in [0, n) on up to jobs threads (0 = all cores;
 * the calling thread is one of them). Each thread first calls start(ctx) for
 * its own state w (NULL: that thread takes no work) and ends with
 * stop(ctx, w); start/stop may be NULL. Items are handed out in order.
 * Returns how many items were run (< n only when every start failed).
 */
size_t jh_sched_parallel(size_t n, int jobs, void *ctx, void *(*start)(void *ctx),
			 void (*run)(void *ctx, void *w, size_t i),
			 void (*stop)(void *ctx, void *w));

#endif
