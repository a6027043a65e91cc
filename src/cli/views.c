/*
 * views.c - the reports that write every value of every selected view in
 * one file (--proto): each view (the whole process, or each thread of
 * --thread) is analysed once per value, with the same filters.
 */
#include "cli.h"

#include <errno.h>
#include <string.h>

int jh_views_report(struct jh_outfile *of, enum jh_output mode, const struct jh_model *m,
		    const struct jh_options *o, struct jh_diag *d)
{
	size_t nviews = 0, cap = o->have_thread ? m->nthreads : 1;
	struct jh_graph *g = xcalloc(cap * JH_NVALUES + 1, sizeof(*g));
	const struct jh_graph **gp = xcalloc(cap * JH_NVALUES + 1, sizeof(*gp));
	struct jh_u64map run_ids;
	jh_u64map_init(&run_ids);
	int r = 0, code = JH_EXIT_INTERNAL;
	for (size_t t = 0; !r && t < cap; t++) {
		int thread = -1;
		if (o->have_thread) {
			if (!o->thread_all && m->threads[t].uid != o->thread)
				continue;
			thread = (int)t;
		}
		struct jh_analysis_opts ao = jh_options_analysis(o, &run_ids);
		for (int v = 0; !r && v < JH_NVALUES; v++) {
			ao.value = (enum jh_value)v;
			struct jh_graph *gv = &g[nviews * JH_NVALUES + (size_t)v];
			r = jh_analyse_stacks(gv, m, &ao, thread, d);
			gp[nviews * JH_NVALUES + (size_t)v] = gv;
			if (!r)
				jh_fullnames_note(gv);
		}
		nviews++;
	}
	if (!r) {
		struct jh_report_opts ro;
		jh_report_opts_from(&ro, o);
		ro.output = mode;
		if (mode == JH_OUT_SPEEDSCOPE)
			r = jh_report_speedscope(of->f, gp, nviews, o->value, o->all_types, &ro, d);
		else
			r = jh_report_proto(of->f, gp, nviews, o->value, &ro, d);
		if (r && !d->code)
			code = jh_outfile_error(of, errno, d); /* a write failed */
	}
	for (size_t i = 0; i < nviews * JH_NVALUES; i++)
		if (gp[i])
			jh_graph_release(&g[i]);
	jh_u64map_release(&run_ids);
	free(g);
	free(gp);
	return r ? (d->code ? d->code : code) : JH_EXIT_OK;
}
