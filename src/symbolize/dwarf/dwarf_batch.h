/*
 * dwarf_batch.h - one jh_dwarf_lookup batch without libdwarf: addresses
 * grouped by compile unit into tasks (biggest unit first, for balance
 * across threads), each task's frames collected, then the answers put
 * back in the caller's order. Deterministic whatever the thread timing.
 */
#ifndef JEHEAP_DWARF_BATCH_H
#define JEHEAP_DWARF_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_index.h"
#include "dwarf_lines.h"
#include "dwarf_walk.h"

struct jh_batch_query {
	uint64_t addr;
	size_t idx;   /* position in the caller's array */
	size_t unit;  /* compile unit index */
	size_t first; /* into the task's frames */
	uint32_t n;
};

struct jh_batch_task {
	size_t unit, q0, q1; /* queries [q0, q1), ascending addresses */
	struct jh_dwarf_frame *frames;
	size_t nframes, aframes;
	int failed;
};

struct jh_batch {
	struct jh_batch_query *qs;
	struct jh_batch_task *tasks;
	size_t nq, ntasks;
	size_t *order; /* task indices, biggest unit first */
};

/*
 * unit_of[i]: the unit of addrs[i], SIZE_MAX for none; unit_size[u] orders
 * the tasks (NULL: in unit order).
 */
void jh_batch_init(struct jh_batch *b, const uint64_t *addrs, const size_t *unit_of, size_t n,
		   const uint64_t *unit_size);
void jh_batch_emit(struct jh_batch_task *k, const char *name, const char *display, const char *file,
		   uint32_t line, uint32_t decl_line);

/* One unit's tables: covering subroutines, line rows, file names. */
struct jh_unit_tables {
	struct jh_walk w;
	struct jh_line_table lt;
	int have_lt;
	char **files; /* dwarf_srcfiles: [i] is file i (DWARF 5) or i+1 (older) */
	size_t nfiles;
};
/*
 * Emits query q's frames into k: the chain of subroutine nodes from leaf
 * (UINT64_MAX: none, the line row alone) outward to the first concrete
 * one, outermost first, each caller at its callee's call site, the
 * innermost at the address's line row. name(ctx, die_off, &decl_line) names
 * a node and gives its function's declaration line (0: none);
 * paths and demangled names are interned into strings, display caches
 * name -> demangled (the workers have time to spare while .debug_info
 * streams; the symbolizer's copy after the lookup has not).
 */
void jh_batch_answer(struct jh_batch_task *k, struct jh_batch_query *q,
		     const struct jh_unit_tables *t, uint64_t leaf, struct jh_intern *strings,
		     struct jh_u64map *display,
		     const char *(*name)(void *ctx, uint64_t die_off, uint32_t *decl_line),
		     void *ctx);
/*
 * Fills ans[0..n) and the frame array from the tasks and frees the batch.
 * Returns the number of failed tasks.
 */
size_t jh_batch_collect(struct jh_batch *b, size_t n, struct jh_dwarf_answer *ans,
			struct jh_dwarf_frame **frames, size_t *nframes);

#endif
