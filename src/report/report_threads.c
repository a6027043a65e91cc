/*
 * report_threads.c - --threads: one row per thread of the first profile
 * (jemalloc's per-thread tN: data): its bytes and objects of the selected
 * pair (in use, or allocated), its share of all threads' bytes, and the
 * function with the largest flat value in it.
 */
#include "jeheap/report.h"

#include <stdlib.h>
#include <string.h>

struct row {
	size_t t;
	double bytes, objects;
};

static int cmp_row(const void *pa, const void *pb, void *ctx)
{
	const struct row *a = pa, *b = pb;
	const struct jh_model *m = ctx;
	double x = jh_sort_value(a->bytes), y = jh_sort_value(b->bytes);
	if (x != y)
		return x < y ? 1 : -1;
	return m->threads[a->t].uid < m->threads[b->t].uid ? -1 : 1;
}

int jh_report_threads(FILE *out, const struct jh_model *m, const struct jh_analysis_opts *ao,
		      struct jh_diag *d)
{
	int alloc = ao->value == JH_ALLOC_SPACE || ao->value == JH_ALLOC_OBJECTS;
	enum jh_value vb = alloc ? JH_ALLOC_SPACE : JH_INUSE_SPACE;
	enum jh_value vo = alloc ? JH_ALLOC_OBJECTS : JH_INUSE_OBJECTS;
	struct row *rows = xcalloc(m->nthreads + 1, sizeof(*rows));
	double all = 0;
	for (size_t t = 0; t < m->nthreads; t++) {
		const struct jh_mthread *th = &m->threads[t];
		rows[t].t = t;
		for (size_t i = 0; i < th->nr; i++) {
			rows[t].bytes += th->c[i].v[vb];
			rows[t].objects += th->c[i].v[vo];
		}
		all += rows[t].bytes;
	}
	if (m->nthreads > 1)
		qsort_r(rows, m->nthreads, sizeof(*rows), cmp_row, (void *)m);
	fprintf(out, "%-10s %-16s %14s %10s %7s  %s\n", "thread", "name",
		alloc ? "alloc_bytes" : "inuse_bytes", "objects", "share", "top function");
	struct jh_analysis_opts o = *ao;
	o.value = vb;
	o.show_bytes = 1;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	int r = 0;
	for (size_t i = 0; !r && i < m->nthreads; i++) {
		const struct jh_mthread *th = &m->threads[rows[i].t];
		struct jh_graph g;
		if ((r = jh_analyse(&g, m, &o, (int)rows[i].t, d)) == 0) {
			jh_sb_reset(&sb);
			jh_sb_addf(&sb, "t%llu", (unsigned long long)th->uid);
			fprintf(out, "%-10s ", sb.buf);
			jh_sb_reset(&sb);
			jh_sb_add_visible(&sb, th->name ? th->name : "-");
			fprintf(out, "%-16s %14lld %10lld ", sb.buf, jh_perl_int(rows[i].bytes),
				jh_perl_int(rows[i].objects));
			jh_sb_reset(&sb);
			jh_fmt_percent(&sb, rows[i].bytes, all);
			fprintf(out, "%7s  ", sb.buf);
			uint32_t *order = jh_graph_sorted(&g, 0);
			jh_sb_reset(&sb);
			if (g.nnodes && g.nodes[order[0]].flat != 0)
				jh_sb_add_visible(&sb, g.nodes[order[0]].label);
			else
				jh_sb_adds(&sb, "-");
			fprintf(out, "%s\n", sb.buf);
			free(order);
		}
		jh_graph_release(&g);
	}
	jh_sb_release(&sb);
	free(rows);
	if (r)
		return -1;
	return ferror(out) ? -1 : 0;
}
