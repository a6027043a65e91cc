/*
 * report_collapsed.c - --collapsed (jeprof-behaviour.md §8.4), in the form
 * flamegraph.pl reads: "root;...;leaf <count>", one line per distinct
 * location stack after allocator removal and filters, frames named by
 * jh_collapsed_name (full names, "[inline]", ';' in a name becomes ':' and a
 * newline a space). Unlike jeprof the lines are sorted byte-wise (LC_ALL=C
 * sort order), so the output is deterministic. A stack emptied by allocator
 * removal prints as " <count>". With --base each line carries two
 * non-negative columns "<before> <after>" (bases, profiles) as
 * difffolded.pl writes them, instead of jeprof's signed difference.
 */
#include "report.h"

#include "jeheap/names.h"

#include <stdlib.h>
#include <string.h>

struct line_ref {
	size_t off, len;
};

static const char *sort_buf;

static int cmp_lines(const void *a, const void *b)
{
	const struct line_ref *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(sort_buf + x->off, sort_buf + y->off, n);
	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

int jh_report_collapsed(FILE *out, const struct jh_graph *g)
{
	const struct jh_model *m = g->m;
	/* each location's name once */
	struct jh_sb names = JH_SB_INIT, buf = JH_SB_INIT;
	jh_sb_init(&names);
	jh_sb_init(&buf);
	size_t *noff = xcalloc(m->nlocs + 1, sizeof(*noff));
	uint8_t *have = xcalloc(m->nlocs ? m->nlocs : 1, 1);
	size_t *nlen = xcalloc(m->nlocs ? m->nlocs : 1, sizeof(*nlen));
	for (size_t s = 0; s < g->nstacks; s++) {
		for (uint32_t i = 0; i < g->stacks[s].len; i++) {
			uint32_t l = g->locpool[g->stacks[s].off + i];
			if (have[l])
				continue;
			have[l] = 1;
			noff[l] = names.len;
			jh_collapsed_name(&names, m, &m->locs[l]);
			nlen[l] = names.len - noff[l];
		}
	}
	struct line_ref *lines = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*lines)));
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		lines[s].off = buf.len;
		for (uint32_t i = gs->len; i-- > 0;) {
			uint32_t l = g->locpool[gs->off + i];
			jh_sb_add(&buf, names.buf + noff[l], nlen[l]);
			if (i)
				jh_sb_addc(&buf, ';');
		}
		jh_sb_addc(&buf, ' ');
		if (g->has_base) {
			jh_fmt_value(&buf, JH_UNIT_BYTES, gs->before);
			jh_sb_addc(&buf, ' ');
			jh_fmt_value(&buf, JH_UNIT_BYTES, gs->after);
		} else {
			jh_fmt_value(&buf, JH_UNIT_BYTES, gs->v);
		}
		jh_sb_addc(&buf, '\n');
		lines[s].len = buf.len - lines[s].off;
	}
	sort_buf = buf.buf;
	qsort(lines, g->nstacks, sizeof(*lines), cmp_lines);
	for (size_t s = 0; s < g->nstacks; s++)
		fwrite(buf.buf + lines[s].off, 1, lines[s].len, out);
	free(lines);
	free(noff);
	free(nlen);
	free(have);
	jh_sb_release(&names);
	jh_sb_release(&buf);
	return ferror(out) ? -1 : 0;
}
