/*
 * report.h - the report writers. Each writes one format of an analysed
 * graph to out and returns 0, or -1 on a write error.
 */
#ifndef JEHEAP_REPORT_H
#define JEHEAP_REPORT_H

#include "jeheap/analyse.h"
#include "jeheap/options.h" /* until the report stage has options of its own */

#include <stdio.h>

/* --text (limit -1) and --top=N (limit N rows, jeprof's line limit). */
int jh_report_text(FILE *out, const struct jh_graph *g, const struct jh_options *o, int limit);
/* --collapsed: sorted folded stacks; with --base "before after" columns. */
int jh_report_collapsed(FILE *out, const struct jh_graph *g);

/*
 * The analysis report mode needs (pipeline.c): the stacks only
 * (jh_analyse_stacks) for --list, --collapsed and --callgrind, else the
 * full graph (jh_analyse). thread -1 = the whole process.
 */
int jh_analyse_for(struct jh_graph *g, enum jh_output mode, const struct jh_model *m,
		   const struct jh_options *o, int thread, struct jh_diag *d);
/*
 * Writes report mode for g, analysed by jh_analyse_for (--list lists
 * o->list_re). A graphviz viewer (--web --gv --evince) runs in the
 * background if background (interactive mode), else is waited for.
 * Returns 0, or -1 (d set, or d->code 0 on a plain write error).
 */
int jh_report_one(FILE *out, enum jh_output mode, const struct jh_graph *g,
		  const struct jh_options *o, int background, struct jh_diag *d);

#endif
