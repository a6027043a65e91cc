/*
 * report.h - the report writers. Each writes one format of an analysed
 * graph to out and returns 0, or -1 on a write error.
 */
#ifndef JEHEAP_REPORT_H
#define JEHEAP_REPORT_H

#include "jeheap/analyse.h"

#include <stdio.h>

/* --text (limit -1) and --top=N (limit N rows, jeprof's line limit). */
int jh_report_text(FILE *out, const struct jh_graph *g, const struct jh_options *o, int limit);
/* --collapsed: sorted folded stacks; with --base "before after" columns. */
int jh_report_collapsed(FILE *out, const struct jh_graph *g);

#endif
