/*
 * report_stats.c - --stats: one screen about the profiles: the inputs, the
 * totals of the four sample types, the stacks and threads, the modules
 * holding the most in-use bytes (by allocation site) and the coverage.
 */
#include "jeheap/dump_name.h"
#include "jeheap/report.h"

#include <stdlib.h>
#include <string.h>

struct modbytes {
	const char *module; /* interned, NULL = no module */
	double bytes;
};

static int cmp_mod(const void *pa, const void *pb)
{
	const struct modbytes *a = pa, *b = pb;
	double x = jh_sort_value(a->bytes), y = jh_sort_value(b->bytes);
	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(a->module ? a->module : "", b->module ? b->module : "");
}

static void inputs(FILE *out, const struct jh_model *m)
{
	static const char fmt[][16] = { "heap_v2", "heap profile", "pprof" };
	for (size_t i = 0; i < m->ninputs; i++) {
		const struct jh_model_input *in = &m->inputs[i];
		struct jh_sb sb = JH_SB_INIT;
		jh_sb_init(&sb);
		jh_sb_add_visible(&sb, in->file);
		fprintf(out, "%-11s%s%s: %s", i ? "" : "Inputs:", sb.buf,
			in->is_base ? " (base)" : "", fmt[in->format]);
		struct jh_dump_name dn;
		if (jh_dump_name_parse(in->file, &dn))
			fprintf(out, ", pid %llu, seq %llu", (unsigned long long)dn.pid,
				(unsigned long long)dn.seq);
		fprintf(out, ", sampling period %llu, %zu stacks, %zu threads\n",
			(unsigned long long)in->period, in->nstacks, in->nthreads);
		jh_sb_release(&sb);
	}
}

/* The modules of the allocation sites (leaf frames after allocator frames
 * are removed), by the selected value (in-use bytes by default), the first 5. */
static void modules(FILE *out, const struct jh_graph *g)
{
	struct modbytes *mb = NULL;
	size_t n = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		const char *mod = gs->len ? g->m->locs[g->locpool[gs->off]].module : NULL;
		size_t i = 0;
		while (i < n && mb[i].module != mod)
			i++;
		if (i == n) {
			JH_GROW(mb, n + 1, alloc);
			mb[n++] = (struct modbytes){ mod, 0 };
		}
		mb[i].bytes += gs->v;
	}
	if (n > 1)
		qsort(mb, n, sizeof(*mb), cmp_mod);
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	for (size_t i = 0; i < n && i < 5; i++) {
		jh_sb_reset(&sb);
		jh_fmt_percent(&sb, mb[i].bytes, g->local_total);
		fprintf(out, "%-11s%14lld %s %7s  ", i ? "" : "Modules:", jh_perl_int(mb[i].bytes),
			g->unit == JH_UNIT_OBJECTS ? "objects" : "B", sb.buf);
		jh_sb_reset(&sb);
		jh_sb_add_visible(&sb, mb[i].module ? mb[i].module : "(no module)");
		fprintf(out, "%s\n", sb.buf);
	}
	if (!n)
		fprintf(out, "Modules:   (none)\n");
	jh_sb_release(&sb);
	free(mb);
}

int jh_report_stats(FILE *out, const struct jh_graph *g)
{
	const struct jh_model *m = g->m;
	inputs(out, m);
	if (m->program) {
		struct jh_sb sb = JH_SB_INIT;
		jh_sb_init(&sb);
		jh_sb_add_visible(&sb, m->program);
		fprintf(out, "Program:   %s\n", sb.buf);
		jh_sb_release(&sb);
	}
	double t[JH_NVALUES] = { 0 };
	size_t nstacks = 0;
	for (size_t s = 0; s < m->nstacks; s++) {
		if (m->stacks[s].dropped)
			continue;
		nstacks++;
		for (int v = 0; v < JH_NVALUES; v++)
			t[v] += m->stacks[s].c.v[v];
	}
	const char *minus = m->stack_base ? " (profiles - bases)" : "";
	fprintf(out, "In use:    %lld B in %lld objects%s\n", jh_perl_int(t[JH_INUSE_SPACE]),
		jh_perl_int(t[JH_INUSE_OBJECTS]), minus);
	fprintf(out, "Allocated: %lld B in %lld objects%s\n", jh_perl_int(t[JH_ALLOC_SPACE]),
		jh_perl_int(t[JH_ALLOC_OBJECTS]), minus);
	fprintf(out,
		"Stacks:    %zu unique (%zu after allocator frames and filters), %zu locations\n",
		nstacks, g->nstacks, m->nlocs);
	fprintf(out, "Threads:   %zu\n", m->nthreads);
	modules(out, g);
	struct jh_coverage c;
	if (jh_model_coverage_tally(m, &c)) {
		size_t nodebug = 0;
		for (size_t j = 0; j < c.nmods; j++)
			nodebug += c.mods[j].state == JH_MOD_SYMBOLS ||
				   c.mods[j].state == JH_MOD_NOSYMBOLS;
		fprintf(out,
			"Coverage:  %.1f%% of bytes fully symbolized, %zu module%s without debug "
			"info\n",
			c.percent, nodebug, nodebug == 1 ? "" : "s");
		jh_coverage_release(&c);
	} else {
		fprintf(out, "Coverage:  names from the profiles (.symbolized)\n");
	}
	return ferror(out) ? -1 : 0;
}
