/*
 * dwarf_internal.h - what the lookup scheduler (dwarf_lookup.c, no
 * libdwarf) shares with the libdwarf side (dwarf_index.c): the index
 * object and per-thread handles.
 */
#ifndef JEHEAP_DWARF_INTERNAL_H
#define JEHEAP_DWARF_INTERNAL_H

#include <pthread.h>

#include "dwarf_batch.h"
#include "dwarf_index.h"
#include "dwarf_stream.h"
#include "dwarf_walk.h"

struct jh_dwh; /* one thread's libdwarf handles (main + alt file) */

/* A compile unit of the index: header and unit-DIE offsets, size in bytes. */
struct jh_cu {
	uint64_t hdr_off, die_off, size;
};

struct jh_dwarf {
	const struct jh_sections *main, *alt;
	struct jh_dwarf_secs secs; /* .debug_info, abbrev, rnglists, ranges, addr */
	const struct jh_section *line, *alt_info, *alt_str;
	struct jh_cu *cus;
	size_t ncus, acus;
	struct jh_sched_range *ranges; /* address -> CU index, sorted, disjoint */
	size_t nranges;
	char walk; /* JH_DWARF_WALK (tests): 'f' scanner only, 'l' libdwarf only */
	pthread_mutex_t pool_lock;
	struct jh_dwh **pool;
	size_t npool, apool;
	struct jh_dwh **all;
	size_t nall, aall;
	/*
	 * Streaming: .debug_info (section info_idx) still inflating after open.
	 * index_state 0: cus/ranges not built yet (spec: the index from
	 * .debug_aranges alone); 1 built; -1 the DWARF turned out unusable.
	 */
	int streaming;
	size_t info_idx;
	struct jh_units units;
	struct jh_sched_range *spec;
	size_t nspec;
	pthread_mutex_t index_lock;
	int index_state;
};

/* dwarf_index.c: libdwarf's process-wide settings, once. */
void jh_dwarf_init_once(void);
struct jh_dwh *jh_dwh_get(struct jh_dwarf *dw);
void jh_dwh_put(struct jh_dwh *h);
/*
 * Resolves task k (queries qs[k->q0 .. k->q1)) in the unit with header at
 * hdr_off and unit DIE at die_off. spec: the unit's bytes [lo, hi) are
 * final but the rest of .debug_info may not be (references outside are
 * waited for).
 */
void jh_dwh_unit(struct jh_dwh *h, struct jh_batch_task *k, struct jh_batch_query *qs,
		 uint64_t hdr_off, uint64_t die_off, int spec, uint64_t lo, uint64_t hi);
/*
 * The tables of the unit with header at hdr_off and unit DIE at die_off
 * (spec, lo, hi as for jh_dwh_unit) for the ascending addresses qa[0..nq)
 * (JH_WALK_ALL: every subroutine with code). Returns 0, or -1 when the unit
 * cannot be read; t is then to be released all the same.
 */
int jh_dwh_tables(struct jh_dwh *h, uint64_t hdr_off, uint64_t die_off, int spec, uint64_t lo,
		  uint64_t hi, const uint64_t *qa, size_t nq, struct jh_unit_tables *t);
void jh_dwh_tables_release(struct jh_dwh *h, struct jh_unit_tables *t);
/* The name of the subroutine DIE at die_off (interned in h) and its declaration line. */
const char *jh_dwh_name(struct jh_dwh *h, uint64_t die_off, uint32_t *decl_line);
/*
 * dwarf_index.c: one pass of the full index on a fresh handle. streamed:
 * each unit is waited for before libdwarf reads it, and the aranges are
 * taken without libdwarf's unit-header check (which reads anywhere in
 * .debug_info); *arv, *covered: the aranges claims and units it used.
 * Returns 0 (*partly: libdwarf stopped early), -1 with d set, or -2 when
 * a streamed unit never arrived.
 */
int jh_dwarf_index_pass(struct jh_dwarf *dw, struct jh_diag *d, int streamed,
			struct jh_rangevec *arv, struct jh_u64map *covered, int *partly);
/* The .debug_aranges claims (keys: unit header offsets); with_die: with that check. */
void jh_dwarf_aranges(struct jh_dwarf *dw, struct jh_rangevec *arv, struct jh_u64map *covered,
		      int with_die);
/* dwarf_lookup.c: builds cus/ranges (waiting for streamed units): 0 or -1 with d set. */
int jh_dwarf_build_index(struct jh_dwarf *dw, struct jh_diag *d);
/*
 * dwarf_lookup.c: builds cus/ranges once .debug_info is complete (waits for
 * it), if not yet done: 0, or -1 when the DWARF is unusable (warned once).
 */
int jh_dwarf_finish_index(struct jh_dwarf *dw);

#endif
