/*
 * empty.h - a report with nothing to show is one line saying why, exit 4
 * (JH_EXIT_NODATA), not an empty output with status 0.
 */
#ifndef JEHEAP_EMPTY_H
#define JEHEAP_EMPTY_H

#include "jeheap/options.h"

/* No stack of g has a value to show in mode (--collapsed with --base: a
 * before or an after column); never for the summaries (--json, --stats). */
int jh_graph_is_empty(const struct jh_graph *g, enum jh_output mode);
/* No stack of m has any count (for --raw). */
int jh_model_is_empty(const struct jh_model *m);
/*
 * Sets d (JH_EXIT_NODATA) to why mode has nothing to show for thread (index
 * into m->threads, -1 = the process): no samples, no allocation data
 * without prof_accum, the filters, the bases. "No nodes to print: ..." for
 * the graph modes (jeprof's words), "nothing to show: ..." otherwise.
 * Returns -1.
 */
int jh_nothing_to_show(const struct jh_model *m, const struct jh_options *o, enum jh_output mode,
		       int thread, struct jh_diag *d);
/* The index of --thread=N in m->threads, or -1 with d set (JH_EXIT_NODATA:
 * no such thread, naming the threads there are). */
int jh_thread_index(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d);

#endif
