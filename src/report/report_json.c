/*
 * report_json.c - --json: a versioned, machine-readable summary of the
 * analysis (docs/json.md holds its JSON Schema): the inputs, the modules,
 * the totals of the four sample types, the symbolization coverage, the top
 * functions and, with --base, the change per function and the stacks that
 * grew most. Values are integers (jeprof's %d of its unsampled doubles, as
 * --text --show_bytes prints them); every list is sorted, so the same
 * input gives the same bytes.
 */
#include "json_str.h"
#include "json_summary.h"

#include "jeheap/dump_name.h"
#include "jeheap/report.h"

#include <stdlib.h>
#include <string.h>

#define JSON_VERSION 1
#define JSON_GROWING_STACKS 10

static const char value_names[JH_NVALUES][16] = { "inuse_objects", "inuse_space", "alloc_objects",
						  "alloc_space" };

static void str(FILE *out, const char *s)
{
	putc('"', out);
	jh_json_str(out, s, strlen(s));
	putc('"', out);
}

static void str_or_null(FILE *out, const char *s)
{
	if (s)
		str(out, s);
	else
		fputs("null", out);
}

static void num(FILE *out, double v)
{
	fprintf(out, "%lld", jh_perl_int(v));
}

static const char *format_name(enum jh_format f)
{
	switch (f) {
	case JH_FMT_HEAP_V2: return "heap_v2";
	case JH_FMT_LEGACY_HEAP: return "heap_profile";
	default: return "pprof";
	}
}

static void inputs(FILE *out, const struct jh_model *m)
{
	fputs("  \"inputs\": [", out);
	for (size_t i = 0; i < m->ninputs; i++) {
		const struct jh_model_input *in = &m->inputs[i];
		struct jh_dump_name dn;
		fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", out);
		str(out, in->file);
		fprintf(out, ", \"role\": \"%s\", \"format\": \"%s\", ",
			in->is_base ? "base" : "profile", format_name(in->format));
		if (jh_dump_name_parse(in->file, &dn))
			fprintf(out, "\"pid\": %llu, \"seq\": %llu, \"tag\": \"%c\", ",
				(unsigned long long)dn.pid, (unsigned long long)dn.seq, dn.tag);
		else
			fputs("\"pid\": null, \"seq\": null, \"tag\": null, ", out);
		fprintf(out, "\"sampling_period\": %llu, \"stacks\": %zu, \"threads\": %zu}",
			(unsigned long long)in->period, in->nstacks, in->nthreads);
	}
	fputs(m->ninputs ? "\n  ],\n" : "],\n", out);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Modules: the files of the executable mappings and of the symbolized
 * locations, each once, by path; their GNU build ID when known. */
static void modules(FILE *out, const struct jh_model *m)
{
	size_t n = 0;
	const char **paths = xmalloc(jh_st_mult(m->nmaps + m->nlocs + 1, sizeof(*paths)));
	for (size_t i = 0; i < m->nmaps; i++)
		if (m->maps[i].path[0] != '[') /* not [vdso] */
			paths[n++] = m->maps[i].path;
	for (size_t i = 0; i < m->nlocs; i++)
		if (m->locs[i].module && (!i || m->locs[i].module != m->locs[i - 1].module))
			paths[n++] = m->locs[i].module;
	if (n)
		qsort(paths, n, sizeof(*paths), cmp_str);
	struct jh_sb id = JH_SB_INIT;
	jh_sb_init(&id);
	fputs("  \"modules\": [", out);
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(paths[i], paths[i - 1]))
			continue;
		jh_sb_reset(&id);
		for (size_t k = 0; k < m->nmaps && !id.len; k++) {
			const struct jh_mapping *mp = &m->maps[k];
			for (size_t b = 0; !strcmp(mp->path, paths[i]) && b < mp->build_id_len; b++)
				jh_sb_addf(&id, "%02x", mp->build_id[b]);
		}
		if (!id.len && m->sym)
			jh_symbolizer_build_id(m->sym, paths[i], &id);
		fputs(shown++ ? ",\n    {\"path\": " : "\n    {\"path\": ", out);
		str(out, paths[i]);
		fputs(", \"build_id\": ", out);
		if (id.len)
			str(out, id.buf);
		else
			fputs("null", out);
		putc('}', out);
	}
	fputs(shown ? "\n  ],\n" : "],\n", out);
	jh_sb_release(&id);
	free(paths);
}

static void totals_obj(FILE *out, const struct jh_model *m, const double *t)
{
	putc('{', out);
	for (int v = 0; v < JH_NVALUES; v++) {
		fprintf(out, "%s\"%s\": ", v ? ", " : "", value_names[v]);
		if (m->values && !(m->values & (1u << v)))
			fputs("null", out); /* a pprof profile without that type */
		else
			num(out, t[v]);
	}
	putc('}', out);
}

/* The Total line of every sample type (profiles minus bases), and the
 * bases' and the profiles' own totals. */
static void totals(const struct jh_model *m, double *net, double *base)
{
	for (int v = 0; v < JH_NVALUES; v++)
		net[v] = base[v] = 0;
	for (size_t s = 0; s < m->nstacks; s++) {
		if (m->stacks[s].dropped)
			continue;
		for (int v = 0; v < JH_NVALUES; v++) {
			net[v] += m->stacks[s].c.v[v];
			if (m->stack_base)
				base[v] += m->stack_base[s].v[v];
		}
	}
}

static void coverage(FILE *out, const struct jh_model *m)
{
	struct jh_coverage c;
	fputs("  \"coverage\": ", out);
	if (!jh_model_coverage_tally(m, &c)) {
		fputs("null,\n", out); /* names from .symbolized files only */
		return;
	}
	jh_coverage_actions(&c, c.nmods);
	fputs("{\"weighted_bytes\": ", out);
	num(out, c.total_bytes);
	fputs(", \"weighted_bytes_full\": ", out);
	num(out, c.full_bytes);
	fprintf(out, ", \"fully_symbolized_percent\": %.1f", c.percent);
	const char **nodebug = xmalloc(jh_st_mult(c.nmods + 1, sizeof(*nodebug)));
	size_t nn = 0;
	for (size_t j = 0; j < c.nmods; j++)
		if (c.mods[j].state == JH_MOD_SYMBOLS || c.mods[j].state == JH_MOD_NOSYMBOLS)
			nodebug[nn++] = c.mods[j].module;
	if (nn)
		qsort(nodebug, nn, sizeof(*nodebug), cmp_str);
	fputs(", \"modules_without_debug_info\": [", out);
	for (size_t j = 0; j < nn; j++) {
		if (j)
			fputs(", ", out);
		str(out, nodebug[j]);
	}
	fputs("], \"modules\": [", out);
	for (size_t j = 0; j < c.nmods; j++) {
		const struct jh_coverage_module *cm = &c.mods[j];
		fputs(j ? ",\n    {\"module\": " : "\n    {\"module\": ", out);
		str(out, cm->module);
		fputs(", \"state\": ", out);
		if (cm->state >= 0)
			str(out, jh_modstate_name(cm->state));
		else
			fputs("null", out);
		fputs(", \"bytes_short\": ", out);
		num(out, cm->bytes_short);
		fprintf(out, ", \"explained\": %s, \"reason\": ", cm->explained ? "true" : "false");
		str_or_null(out, cm->reason);
		fputs(", \"action\": ", out);
		str_or_null(out, cm->action);
		fputs("}", out);
	}
	fputs(c.nmods ? "\n  ]},\n" : "]},\n", out);
	free(nodebug);
	jh_coverage_release(&c);
}

static void functions(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o)
{
	uint32_t *order = jh_graph_sorted(g, o->cum);
	int space = g->value == JH_INUSE_SPACE || g->value == JH_ALLOC_SPACE;
	fprintf(out, "  \"functions\": {\"sort\": \"%s\", \"nodecount\": %d, \"count\": %zu, ",
		o->cum ? "cum" : "flat", o->nodecount, g->nnodes);
	fputs("\"total\": ", out);
	num(out, g->local_total);
	fputs(", \"rows\": [", out);
	size_t shown = 0;
	for (size_t i = 0; i < g->nnodes && shown < (size_t)o->nodecount; i++) {
		const struct jh_node *n = &g->nodes[order[i]];
		if (n->flat == 0 && n->cum == 0)
			continue;
		fputs(shown++ ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		str(out, n->label);
		double b[2] = { space ? n->flat : n->flat2, space ? n->cum : n->cum2 };
		double ob[2] = { space ? n->flat2 : n->flat, space ? n->cum2 : n->cum };
		fputs(", \"flat_bytes\": ", out);
		num(out, b[0]);
		fputs(", \"cum_bytes\": ", out);
		num(out, b[1]);
		fputs(", \"flat_objects\": ", out);
		num(out, ob[0]);
		fputs(", \"cum_objects\": ", out);
		num(out, ob[1]);
		fprintf(out, ", \"inline\": %s}", n->inl ? "true" : "false");
	}
	fputs(shown ? "\n  ]}" : "]}", out);
	free(order);
}

/* --base: per node its flat and cum before (the bases) and after (the
 * profiles), counted as the analysis counts them (the first key of a stack
 * takes flat, each key once per stack takes cum). */
struct delta {
	uint32_t node;
	double flat[2], cum[2]; /* before, after */
};

static int cmp_delta(const void *pa, const void *pb, void *ctx)
{
	const struct delta *a = pa, *b = pb;
	const struct jh_graph *g = ctx;
	double da = jh_sort_value(a->flat[1] - a->flat[0]);
	double db = jh_sort_value(b->flat[1] - b->flat[0]);
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(g->nodes[a->node].key, g->nodes[b->node].key);
}

static struct delta *node_deltas(const struct jh_graph *g)
{
	size_t nn = g->nnodes ? g->nnodes : 1;
	struct delta *dl = xcalloc(nn, sizeof(*dl));
	uint32_t *stamp = xcalloc(nn, sizeof(*stamp));
	for (size_t i = 0; i < g->nnodes; i++)
		dl[i].node = (uint32_t)i;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		const uint32_t *locs = g->locpool + gs->off;
		const double v[2] = { gs->before, gs->after };
		int first = 1;
		for (uint32_t i = 0; i < gs->len; i++) {
			uint32_t nk;
			const uint32_t *keys = jh_graph_stack_keys(g, locs, i, &nk);
			for (uint32_t j = 0; j < nk; j++) {
				uint32_t k = keys[j];
				if (stamp[k] == s + 1)
					continue;
				stamp[k] = (uint32_t)s + 1;
				for (int side = 0; side < 2; side++) {
					dl[k].flat[side] += first ? v[side] : 0;
					dl[k].cum[side] += v[side];
				}
				first = 0;
			}
		}
	}
	free(stamp);
	return dl;
}

static void delta_fields(FILE *out, const char *what, const double *v)
{
	fprintf(out, ", \"%s_before\": ", what);
	num(out, v[0]);
	fprintf(out, ", \"%s_after\": ", what);
	num(out, v[1]);
	fprintf(out, ", \"%s_delta\": ", what);
	num(out, v[1] - v[0]);
}

static int cmp_growth(const void *pa, const void *pb, void *ctx)
{
	const struct jh_graph *g = ctx;
	const struct jh_gstack *a = &g->stacks[*(const uint32_t *)pa];
	const struct jh_gstack *b = &g->stacks[*(const uint32_t *)pb];
	double da = jh_sort_value(a->after - a->before), db = jh_sort_value(b->after - b->before);
	if (da != db)
		return da < db ? 1 : -1;
	/* ties: by the frames' keys, leaf first */
	for (uint32_t i = 0; i < a->len && i < b->len; i++) {
		uint32_t na, nb;
		const uint32_t *ka = jh_graph_stack_keys(g, g->locpool + a->off, i, &na);
		const uint32_t *kb = jh_graph_stack_keys(g, g->locpool + b->off, i, &nb);
		for (uint32_t j = 0; j < na && j < nb; j++) {
			int c = strcmp(g->nodes[ka[j]].key, g->nodes[kb[j]].key);
			if (c)
				return c;
		}
		if (na != nb)
			return na < nb ? -1 : 1;
	}
	return a->len < b->len ? -1 : a->len > b->len;
}

static void growing_stacks(FILE *out, const struct jh_graph *g)
{
	uint32_t *ids = xmalloc(jh_st_mult(g->nstacks + 1, sizeof(*ids)));
	size_t n = 0;
	for (size_t s = 0; s < g->nstacks; s++)
		if (g->stacks[s].after - g->stacks[s].before > 0 && g->stacks[s].len)
			ids[n++] = (uint32_t)s;
	if (n > 1)
		qsort_r(ids, n, sizeof(*ids), cmp_growth, (void *)g);
	fputs(",\n    \"growing_stacks\": [", out);
	for (size_t r = 0; r < n && r < JSON_GROWING_STACKS; r++) {
		const struct jh_gstack *gs = &g->stacks[ids[r]];
		fputs(r ? ",\n      {\"frames\": [" : "\n      {\"frames\": [", out);
		int any = 0;
		for (uint32_t i = 0; i < gs->len; i++) {
			uint32_t nk;
			const uint32_t *keys = jh_graph_stack_keys(g, g->locpool + gs->off, i, &nk);
			for (uint32_t j = 0; j < nk; j++) {
				fputs(any++ ? ", " : "", out);
				str(out, g->nodes[keys[j]].label);
			}
		}
		fputs("]", out);
		double v[2] = { gs->before, gs->after };
		delta_fields(out, "value", v);
		putc('}', out);
	}
	fputs(n ? "\n    ]" : "]", out);
	free(ids);
}

static void diff(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		 const double *net, const double *base)
{
	const struct jh_model *m = g->m;
	double prof[JH_NVALUES];
	for (int v = 0; v < JH_NVALUES; v++)
		prof[v] = net[v] + base[v];
	fputs(",\n  \"diff\": {\n    \"base_totals\": ", out);
	totals_obj(out, m, base);
	fputs(",\n    \"profile_totals\": ", out);
	totals_obj(out, m, prof);
	struct delta *dl = node_deltas(g);
	if (g->nnodes > 1)
		qsort_r(dl, g->nnodes, sizeof(*dl), cmp_delta, (void *)g);
	fputs(",\n    \"functions\": [", out);
	size_t shown = 0;
	for (size_t i = 0; i < g->nnodes && shown < (size_t)o->nodecount; i++) {
		if (dl[i].flat[0] == dl[i].flat[1] && dl[i].cum[0] == dl[i].cum[1])
			continue;
		fputs(shown++ ? ",\n      {\"name\": " : "\n      {\"name\": ", out);
		str(out, g->nodes[dl[i].node].label);
		delta_fields(out, "flat", dl[i].flat);
		delta_fields(out, "cum", dl[i].cum);
		putc('}', out);
	}
	fputs(shown ? "\n    ]" : "]", out);
	free(dl);
	growing_stacks(out, g);
	fputs("\n  }", out);
}

void jh_json_summary_open(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o)
{
	static const char gran[][12] = { "functions", "lines", "addresses", "files" };
	const struct jh_model *m = g->m;
	double net[JH_NVALUES], base[JH_NVALUES];
	totals(m, net, base);
	fprintf(out,
		"{\n  \"format\": \"jeheap-summary\",\n  \"version\": %d,\n"
		"  \"sample_type\": \"%s\",\n  \"unit\": \"%s\",\n  \"granularity\": \"%s\",\n",
		JSON_VERSION, value_names[g->value],
		g->value == JH_INUSE_SPACE || g->value == JH_ALLOC_SPACE ? "bytes" : "objects",
		gran[g->gran]);
	fputs("  \"program\": ", out);
	str_or_null(out, m->program);
	fputs(",\n", out);
	inputs(out, m);
	modules(out, m);
	fputs("  \"totals\": ", out);
	totals_obj(out, m, net);
	fputs(",\n", out);
	coverage(out, m);
	functions(out, g, o);
	if (g->has_base)
		diff(out, g, o, net, base);
}

int jh_report_json(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o)
{
	jh_json_summary_open(out, g, o);
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}
