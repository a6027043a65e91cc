/*
 * series.h - a series of dumps of one process (--series): the value of every
 * function (or stack) at each dump, its growth first -> last, and the leak
 * suspects. The table is built from one analysed graph per dump (same
 * options: filters, granularity, sample type) and is what the series reports
 * (text, SVG, and later JSON and the growth gates) render.
 *
 * Order: jemalloc names its dumps PREFIX.<pid>.<seq>.<tag><n>.heap (tag i,
 * m, f or u; <n> absent on the final dump; .gz/.zst may follow); such files
 * are ordered by seq (then n, then the order given), numerically, in the
 * places they were given; files named otherwise keep their place.
 *
 * Noise: jemalloc samples one allocation per P = 2^lg_prof_sample bytes on
 * average (the period of the dump's heap_v2/P header), so a value moves by
 * about P with each sample that comes or goes. A step a -> b between two
 * dumps counts as a growth only when b - a > 4 * P (a fall when a - b > 4 * P),
 * P the larger period of the two dumps; for the object counts
 * (--inuse_objects, --alloc_objects) the threshold is 4 * P divided by the
 * row's average object size at the later dump (its bytes / its objects).
 * Dumps without a period (P = 0, exact counts) have no noise.
 *
 * Leak suspect: a row that grows in more than half of the steps, falls in
 * none, and whose growth first -> last is over the noise; ranked by growth
 * (descending), ties by name.
 */
#ifndef JEHEAP_SERIES_H
#define JEHEAP_SERIES_H

#include "jeheap/analyse.h"
#include "jeheap/dump_name.h"

/* What a jemalloc dump's file name says: jh_dump_name_parse (dump_name.h). */

/*
 * Fills order[0..n) with the indexes of paths in series order (see above).
 * Returns 0; -1 with d set (JH_EXIT_USAGE, one line naming two of them) when
 * named dumps come from different processes and !allow_mixed.
 */
int jh_series_order(char *const *paths, size_t n, int allow_mixed, size_t *order,
		    struct jh_diag *d);

/* The noise threshold of a step (bytes; see above). */
static inline double jh_series_noise_bytes(uint64_t period_a, uint64_t period_b)
{
	return 4.0 * (double)(period_a > period_b ? period_a : period_b);
}

struct jh_series_dump {
	const char *source; /* as given (interned in names) */
	struct jh_dump_name name;
	uint64_t period; /* sampling period (0 = none) */
	double total;    /* the graph's total (Total: line) */
	double local;    /* sum of the rows (after filters) */
	double kept;     /* sum of the stacks --focus/--ignore keep (jh_gate_totals):
			  * what --fail-on-growth compares, the total without them */
};

struct jh_series_row {
	const char *name;  /* function key (or stack "root;...;leaf"), interned */
	double *v;         /* per dump: the value (flat, or cum with by_cum) */
	double *v2;        /* per dump: the companion value (bytes of an objects row) */
	double last;       /* v[ndumps - 1] */
	double growth;     /* v[last] - v[first] */
	double maxv;       /* max over the dumps */
	uint32_t up, down; /* steps over the noise */
	int suspect;       /* rank + 1 among the suspects, 0 = not one */
};

struct jh_series {
	struct jh_intern names;
	enum jh_value value;
	enum jh_unit unit;
	const char *unit_name;
	int stacks; /* rows are stacks */
	int by_cum; /* rows' values are cumulative */
	struct jh_series_dump *dumps;
	size_t ndumps;
	struct jh_series_row *rows; /* after jh_series_finish: by last value desc, then name */
	size_t nrows, rows_alloc;
	uint32_t *suspects; /* row ids, ranked */
	size_t nsuspects;
	void *priv;
};

void jh_series_init(struct jh_series *s, size_t ndumps, int stacks, int by_cum);
/* Adds dump i (0-based, in series order) from its analysed graph g (a full
 * jh_analyse: nodes needed), named source, with sampling period. */
void jh_series_add(struct jh_series *s, size_t i, const struct jh_graph *g, const char *source,
		   uint64_t period);
/* Growth, steps, suspects, row order. */
void jh_series_finish(struct jh_series *s);
void jh_series_release(struct jh_series *s);

/* The noise threshold of step i -> i+1 of row r, in the row's unit (see above). */
double jh_series_noise(const struct jh_series *s, const struct jh_series_row *r, size_t i);

#endif
