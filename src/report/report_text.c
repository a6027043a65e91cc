/*
 * report_text.c - --text and --top (docs/jeprof.md §6): the Total
 * line, then "%8s %6s %6s %8s %6s %s" rows sorted by flat (or cum).
 */
#include "jeheap/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --diff_base: the bases' total of the selected value (of the thread shown). */
static double base_total(const struct jh_graph *g)
{
	const struct jh_model *m = g->m;
	double t = 0;
	if (g->thread >= 0) {
		const struct jh_mthread *th = &m->threads[g->thread];
		for (size_t i = 0; th->base && i < th->nr; i++)
			t += th->base[i].v[g->value];
		return t;
	}
	for (size_t s = 0; m->stack_base && s < m->nstacks; s++)
		if (!m->stacks[s].dropped)
			t += m->stack_base[s].v[g->value];
	return t;
}

/* A change with its sign: "+1.5", "-2", "0". */
static void add_signed(struct jh_sb *sb, enum jh_unit unit, double v)
{
	struct jh_sb t = JH_SB_INIT;
	jh_sb_init(&t);
	jh_fmt_value(&t, unit, v);
	if (v > 0 && strspn(t.buf, "0.") != t.len)
		jh_sb_addc(sb, '+'); /* not on what prints as zero */
	jh_sb_add(sb, t.buf, t.len);
	jh_sb_release(&t);
}

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
		if (o->diff_base) {
			add_signed(&line, g->unit, g->total);
			jh_sb_addf(&line, " %s (base: ", g->unit_name);
			jh_fmt_value(&line, g->unit, base_total(g));
			jh_sb_addf(&line, " %s)\n", g->unit_name);
		} else {
			jh_fmt_value(&line, g->unit, g->total);
			jh_sb_addf(&line, " %s\n", g->unit_name);
		}
		fwrite(line.buf, 1, line.len, out);
	}
	uint32_t *order = jh_graph_sorted(g, o->cum);
	double running = 0;
	struct jh_sb col[5];
	for (int k = 0; k < 5; k++)
		jh_sb_init(&col[k]);
	int lines = 0;
	/* --diff_base: pprof's percentages, of the bases' total */
	const double pct_of = o->diff_base ? base_total(g) : g->local_total;
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct jh_node *n = &g->nodes[order[i]];
		running += o->diff_base ? fabs(n->flat) : n->flat;
		if (n->flat != 0 || n->cum != 0) {
			/* --diff_base: pprof's percentages, of the size of a change */
			const double a = o->diff_base ? fabs(n->flat) : n->flat,
				     c = o->diff_base ? fabs(n->cum) : n->cum;
			const double vals[5] = { n->flat, a, running, n->cum, c };
			for (int k = 0; k < 5; k++) {
				jh_sb_reset(&col[k]);
				if (o->diff_base && (k == 0 || k == 3))
					add_signed(&col[k], g->unit, vals[k]);
				else if (k == 0 || k == 3)
					jh_fmt_value(&col[k], g->unit, vals[k]);
				else
					jh_fmt_percent(&col[k], vals[k], pct_of);
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
