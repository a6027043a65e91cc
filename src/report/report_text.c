/*
 * report_text.c - --text and --top (jeprof-behaviour.md §8.2): the Total
 * line, then "%8s %6s %6s %8s %6s %s" rows sorted by flat (or cum).
 */
#include "jeheap/report.h"

#include <stdlib.h>

int jh_report_text(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o, int limit)
{
	const struct jh_model *m = g->m;
	struct jh_sb line = JH_SB_INIT;
	jh_sb_init(&line);
	if (g->total != 0) {
		jh_sb_adds(&line, "Total");
		if (g->thread >= 0)
			jh_sb_addf(&line, " (t%llu)",
				   (unsigned long long)m->threads[g->thread].uid);
		jh_sb_adds(&line, ": ");
		jh_fmt_value(&line, g->unit, g->total);
		jh_sb_addf(&line, " %s\n", g->unit_name);
		fwrite(line.buf, 1, line.len, out);
	}
	uint32_t *order = jh_graph_sorted(g, o->cum);
	double running = 0;
	struct jh_sb col[5];
	for (int k = 0; k < 5; k++)
		jh_sb_init(&col[k]);
	int lines = 0;
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct jh_node *n = &g->nodes[order[i]];
		running += n->flat;
		if (n->flat != 0 || n->cum != 0) {
			const double vals[5] = { n->flat, n->flat, running, n->cum, n->cum };
			for (int k = 0; k < 5; k++) {
				jh_sb_reset(&col[k]);
				if (k == 0 || k == 3)
					jh_fmt_value(&col[k], g->unit, vals[k]);
				else
					jh_fmt_percent(&col[k], vals[k], g->local_total);
			}
			static const int width[5] = { 8, 6, 6, 8, 6 };
			jh_sb_reset(&line);
			for (int k = 0; k < 5; k++) { /* "%8s %6s %6s %8s %6s %s\n" */
				for (size_t w = col[k].len; w < (size_t)width[k]; w++)
					jh_sb_addc(&line, ' ');
				jh_sb_add(&line, col[k].buf, col[k].len);
				jh_sb_addc(&line, ' ');
			}
			jh_sb_add_visible(&line, n->label);
			jh_sb_addc(&line, '\n');
			fwrite(line.buf, 1, line.len, out);
		}
		lines++;
		if (limit >= 0 && lines >= limit)
			break;
	}
	free(order);
	for (int k = 0; k < 5; k++)
		jh_sb_release(&col[k]);
	jh_sb_release(&line);
	return ferror(out) ? -1 : 0;
}
