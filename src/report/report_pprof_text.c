/*
 * report_pprof_text.c - Go pprof's text views, line for line as
 * `go tool pprof` prints them for jeheap's --proto of the same input and
 * options (docs/formats.md §2; Go 1.19 internal/report printTraces, printTree, reportLabels;
 * internal/measurement for units and percentages):
 *
 *   --traces   the proto's samples in its order: a "-----------+----...----"
 *              separator, the sample's labels, its frames leaf first as
 *              "%10s   %s" with the value on the first line
 *   --tree     the header ("Showing nodes accounting for ...", "Dropped N
 *              nodes (cum <= X)", "Showing top N nodes out of M"), then per
 *              node (by flat, largest first): its callers ("%50s %s |   %s":
 *              edge value, share of the node's cum, name), the node's row
 *              ("%10s %s %s %10s %s                | %s": flat flat% sum%
 *              cum cum%), its callees. Nodes with |cum| < nodefraction of
 *              the total are dropped, then all but the nodecount first,
 *              then edges below edgefraction (pprof's defaults 0.005, 80,
 *              0.001, as --nodefraction, --nodecount, --edgefraction)
 *   --peek=RE  the untrimmed tree's rows of the nodes whose names match RE
 *
 * Names are the proto's: full function names ("(inline)" marks an edge to
 * an inlined callee). Values as pprof scales them: bytes in the unit of the
 * graph's smallest value ("16kB", "11.70kB", "44.71MB"), each value in its
 * own unit in --traces; "B" with --show_bytes (pprof's -unit=B); counts
 * bare. Percentages of pprof's total (before the filters).
 */
#include "pprof_graph.h"

#include "jeheap/names.h"
#include "jeheap/regex.h"
#include "jeheap/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char sep_traces[] =
	"-----------+-------------------------------------------------------\n";
static const char sep_tree[] =
	"----------------------------------------------------------+-------------\n";

/* measurement's memory units. */
static const struct {
	char name[3];
	double factor;
} units[] = { { "B", 1 },
	      { "kB", 1024.0 },
	      { "MB", 1048576.0 },
	      { "GB", 1073741824.0 },
	      { "TB", 1099511627776.0 },
	      { "PB", 1125899906842624.0 } };

enum { U_COUNT = -2, U_AUTO = -1 }; /* else an index into units */

/* measurement's autoScale of v >= 0: the largest unit v is at least one of
 * ("B" for 0). */
static int autoscale(double v)
{
	int k = 0;
	double f = 0;
	for (int i = 0; i < (int)(sizeof(units) / sizeof(units[0])); i++) {
		if (units[i].factor >= f && v / units[i].factor >= 1.0) {
			f = units[i].factor;
			k = i;
		}
	}
	return k;
}

/* measurement.ScaledLabel: "%.2f" without ".00", "0" for zero, the unit. */
static void fmt_scaled(struct jh_sb *sb, int64_t v, int unit)
{
	double a = v < 0 ? -(double)v : (double)v, x = a;
	const char *u = "";
	if (unit != U_COUNT) {
		int k = unit == U_AUTO ? autoscale(a) : unit;
		x = a / units[k].factor;
		u = units[k].name;
	}
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%.2f", v < 0 ? -x : x);
	if (n >= 3 && !strcmp(buf + n - 3, ".00"))
		buf[n -= 3] = 0;
	if (!strcmp(buf, "0") || !strcmp(buf, "-0")) {
		jh_sb_addc(sb, '0');
		return;
	}
	jh_sb_adds(sb, buf);
	jh_sb_adds(sb, u);
}

/* measurement.Percentage: "  100%", "%5.2f%%" from 1 %, else "%5.2g%%". */
static void fmt_pct(struct jh_sb *sb, int64_t v, int64_t total)
{
	double r = total != 0 ? fabs((double)v / (double)total) * 100 : 0;
	if (r >= 99.95 && r <= 100.05)
		jh_sb_adds(sb, "  100%");
	else if (r >= 1.0)
		jh_sb_addf(sb, "%5.2f%%", r);
	else
		jh_sb_addf(sb, "%5.2g%%", r);
}

/* Right-aligns the text appended to sb since at in width w. */
static void pad_left(struct jh_sb *sb, size_t at, size_t w)
{
	size_t n = sb->len - at;
	if (n >= w)
		return;
	for (size_t i = n; i < w; i++)
		jh_sb_addc(sb, ' ');
	memmove(sb->buf + at + (w - n), sb->buf + at, n);
	memset(sb->buf + at, ' ', w - n);
}

static void value_col(struct jh_sb *sb, int64_t v, int unit, size_t w)
{
	size_t at = sb->len;
	fmt_scaled(sb, v, unit);
	pad_left(sb, at, w);
}

static const char *value_name(enum jh_value v)
{
	switch (v) {
	case JH_INUSE_OBJECTS: return "inuse_objects";
	case JH_ALLOC_OBJECTS: return "alloc_objects";
	case JH_ALLOC_SPACE: return "alloc_space";
	default: return "inuse_space";
	}
}

/* The proto's first mapping: the program's when a stack has it, else the
 * first one a stack's frame lies in (report_proto.c). */
static const struct jh_location *main_location(const struct jh_graph *g)
{
	const struct jh_model *m = g->m;
	const struct jh_location *first = NULL;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		for (uint32_t i = 0; i < gs->len; i++) {
			const struct jh_location *l = &m->locs[g->locpool[gs->off + i]];
			const struct jh_mapping *mp = l->module && l->pc <= 0x7fffffffffffffffULL
							      ? jh_model_mapping(m, l->pc,
										 l->module)
							      : NULL;
			if (!mp || !mp->path)
				continue;
			if (m->program && !strcmp(mp->path, m->program))
				return l;
			if (!first)
				first = l;
		}
	}
	return first;
}

/* pprof's ProfileLabels: the program and its build ID, the input files,
 * the sample type (and jeheap's thread). */
static void profile_labels(struct jh_sb *sb, const struct jh_graph *g,
			   const struct jh_report_opts *o)
{
	const struct jh_model *m = g->m;
	const struct jh_location *l = main_location(g);
	const struct jh_mapping *mp = l ? jh_model_mapping(m, l->pc, l->module) : NULL;
	const char *prog = mp ? mp->path : m->program;
	if (prog && *prog) {
		const char *b = strrchr(prog, '/');
		jh_sb_adds(sb, "File: ");
		jh_sb_add_visible(sb, b ? b + 1 : prog);
		jh_sb_addc(sb, '\n');
	}
	if (mp && m->sym) {
		struct jh_sb id = JH_SB_INIT;
		jh_sb_init(&id);
		if (!jh_symbolizer_build_id(m->sym, l->module, &id) && id.len)
			jh_sb_addf(sb, "Build ID: %s\n", id.buf);
		jh_sb_release(&id);
	}
	for (size_t i = 0; o && i < o->nprofiles; i++) {
		jh_sb_add_visible(sb, o->profiles[i]);
		jh_sb_addc(sb, '\n');
	}
	for (size_t i = 0; o && i < o->nbases; i++) {
		jh_sb_adds(sb, "base: ");
		jh_sb_add_visible(sb, o->bases[i]);
		jh_sb_addc(sb, '\n');
	}
	jh_sb_addf(sb, "Type: %s\n", value_name(g->value));
	if (g->thread >= 0)
		jh_sb_addf(sb, "Thread: %llu\n", (unsigned long long)m->threads[g->thread].uid);
}

static void flush(FILE *out, struct jh_sb *sb)
{
	if (sb->len > 1 << 16) {
		fwrite(sb->buf, 1, sb->len, out);
		jh_sb_reset(sb);
	}
}

/* The proto's "bytes" label of a sample: the mean block size. */
static int64_t mean_size(const double *vals)
{
	int64_t v[JH_NVALUES];
	for (int k = 0; k < JH_NVALUES; k++)
		v[k] = isfinite(vals[k]) ? (int64_t)llround(vals[k]) : 0;
	int64_t objs = v[JH_ALLOC_OBJECTS] ? v[JH_ALLOC_OBJECTS] : v[JH_INUSE_OBJECTS];
	int64_t bytes = v[JH_ALLOC_OBJECTS] ? v[JH_ALLOC_SPACE] : v[JH_INUSE_SPACE];
	return objs ? bytes / objs : 0;
}

/* Whether stack s is one of the proto's samples: a value not 0. */
static int is_sample(const struct jh_graph *g, size_t s)
{
	if (!g->values)
		return jh_pg_value(g, s) != 0;
	for (int k = 0; k < JH_NVALUES; k++)
		if (isfinite(g->values[s][k]) && llround(g->values[s][k]) != 0)
			return 1;
	return 0;
}

static int unit_of(const struct jh_graph *g)
{
	return g->unit == JH_UNIT_OBJECTS ? U_COUNT : g->unit == JH_UNIT_BYTES ? 0 : U_AUTO;
}

int jh_report_traces(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o)
{
	struct jh_pg p;
	jh_pg_init(&p, g);
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	profile_labels(&sb, g, o);
	int unit = unit_of(g);
	const struct jh_model *m = g->m;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		if (!is_sample(g, s))
			continue;
		const uint32_t *locs = g->locpool + gs->off;
		int first = 1;
		for (uint32_t i = 0; i < gs->len; i++) {
			uint32_t nl;
			const uint32_t *ids = jh_pg_lines(&p, locs[i], &nl);
			for (uint32_t k = 0; k < nl; k++) {
				if (first) {
					jh_sb_adds(&sb, sep_traces);
					if (g->thread >= 0) {
						const struct jh_mthread *t = &m->threads[g->thread];
						jh_sb_addf(&sb, "%10s:  %llu\n", "thread",
							   (unsigned long long)t->uid);
						if (t->name) {
							jh_sb_adds(&sb, "thread_name:  ");
							jh_sb_add_visible(&sb, t->name);
							jh_sb_addc(&sb, '\n');
						}
					}
					int64_t b = g->values ? mean_size(g->values[s]) : 0;
					if (b) {
						jh_sb_addf(&sb, "%10s:  ", "bytes");
						fmt_scaled(&sb, b, U_AUTO);
						jh_sb_addc(&sb, '\n');
					}
					value_col(&sb, jh_pg_value(g, s), unit, 10);
				} else {
					jh_sb_adds(&sb, "          ");
				}
				first = 0;
				jh_sb_adds(&sb, "   ");
				jh_sb_add_visible(&sb, p.name[ids[k]]);
				if (k != nl - 1)
					jh_sb_adds(&sb, " (inline)");
				jh_sb_addc(&sb, '\n');
			}
		}
		flush(out, &sb);
	}
	jh_sb_adds(&sb, sep_traces);
	fwrite(sb.buf, 1, sb.len, out);
	jh_sb_release(&sb);
	jh_pg_release(&p);
	return ferror(out) ? -1 : 0;
}

/* pprof's edgeList order: |weight| descending, source name, destination name. */
static int cmp_edges(const void *a, const void *b, void *arg)
{
	const struct jh_pg *p = arg;
	const struct jh_pg_edge *x = &p->e[*(const uint32_t *)a], *y = &p->e[*(const uint32_t *)b];
	int64_t wx = x->w < 0 ? -x->w : x->w, wy = y->w < 0 ? -y->w : y->w;
	if (wx != wy)
		return wx > wy ? -1 : 1;
	int c = strcmp(p->name[x->src], p->name[y->src]);
	return c ? c : strcmp(p->name[x->dst], p->name[y->dst]);
}

/* One caller or callee row: "%50s %s |   %s%s". */
static void edge_row(struct jh_sb *sb, const struct jh_pg *p, const struct jh_pg_edge *e,
		     int64_t cum, uint32_t other, int unit)
{
	value_col(sb, e->w, unit, 50);
	jh_sb_addc(sb, ' ');
	fmt_pct(sb, e->w, cum);
	jh_sb_adds(sb, " |   ");
	jh_sb_add_visible(sb, p->name[other]);
	if (e->inl)
		jh_sb_adds(sb, " (inline)");
	jh_sb_addc(sb, '\n');
}

/* report's selectOutputUnit for bytes: the unit of the smallest value (or
 * of a hundred times it, when the total is in a larger unit). */
static int output_unit(const struct jh_pg *p, const uint32_t *v, size_t n, int64_t total)
{
	int64_t lo = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t x = p->flat[v[i]] < 0 ? -p->flat[v[i]] : p->flat[v[i]];
		if (!x)
			x = p->cum[v[i]] < 0 ? -p->cum[v[i]] : p->cum[v[i]];
		if (x > 0 && (!lo || x < lo))
			lo = x;
	}
	if (!lo)
		lo = total;
	int ulo = autoscale((double)lo), uhi = autoscale((double)total);
	if (ulo != uhi && lo * 100 < total)
		ulo = autoscale((double)(lo * 100));
	return ulo;
}

/* "Active filters:" as pprof lists them (each cut at 80 bytes). */
static void active_filters(struct jh_sb *sb, const struct jh_graph *g)
{
	static const char names[][10] = { "focus", "ignore", "hide", "show", "show_from" };
	const char *res[] = { g->focus_re, g->ignore_re, g->hide_re, g->show_re, g->show_from_re };
	int any = 0;
	for (int i = 0; i < 5; i++) {
		if (!res[i] || !*res[i])
			continue;
		if (!any++)
			jh_sb_adds(sb, "Active filters:\n");
		jh_sb_addf(sb, "   %s=", names[i]);
		size_t at = sb->len;
		jh_sb_adds(sb, res[i]);
		if (sb->len - at > 80) {
			sb->len = at + 80;
			jh_sb_adds(sb, "\xe2\x80\xa6"); /* "…" */
		}
		jh_sb_addc(sb, '\n');
	}
}

/* --peek's rows: the nodes v[0..n) whose names match rx; when none does,
 * those whose names as --text shows them (jeprof's short names) match,
 * which a note says. */
static uint8_t *peek_hits(struct jh_pg *p, const uint32_t *v, size_t n, struct jh_filter *rx,
			  const char *re)
{
	uint8_t *hit = xcalloc(n + 1, 1);
	int any = 0;
	for (size_t k = 0; k < n; k++)
		any |= hit[k] = (uint8_t)jh_filter_match(rx, p->name[v[k]], strlen(p->name[v[k]]));
	if (any || p->g->gran != JH_GRAN_FUNCTIONS)
		return hit;
	struct jh_intern names;
	struct jh_namer namer;
	jh_intern_init(&names);
	jh_namer_init(&namer, &names);
	for (size_t k = 0; k < n; k++) {
		const char *s = jh_namer_short(&namer, p->name[v[k]]);
		any |= hit[k] = (uint8_t)jh_filter_match(rx, s, strlen(s));
	}
	jh_namer_release(&namer);
	jh_intern_release(&names);
	if (any)
		jh_note("jeheap: --peek='%s' matches no full name: matched against the names "
			"--text shows",
			re);
	return hit;
}

int jh_report_tree(FILE *out, const struct jh_graph *g, const char *re,
		   const struct jh_report_opts *o, struct jh_diag *d)
{
	struct jh_filter *rx = NULL;
	if (re && !(rx = jh_filter_new("peek", re, d)))
		return -1;
	struct jh_pg p;
	jh_pg_init(&p, g);
	size_t n = 0, dropped = 0, orig = 0;
	/* --peek: pprof does not trim */
	double nf = rx || !o ? 0 : o->nodefraction, ef = rx || !o ? 0 : o->edgefraction;
	int nc = rx || !o ? 0 : o->nodecount;
	uint32_t *v = jh_pg_trimmed(&p, nf, ef, nc, &n, &dropped, &orig);
	int64_t total = g->pprof_total;
	int unit = unit_of(g);
	if (unit == U_AUTO)
		unit = output_unit(&p, v, n, total);

	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	profile_labels(&sb, g, o);
	active_filters(&sb, g);
	int64_t flat_sum = 0;
	for (size_t i = 0; i < n; i++)
		flat_sum += p.flat[v[i]];
	jh_sb_adds(&sb, "Showing nodes accounting for ");
	fmt_scaled(&sb, flat_sum, unit);
	jh_sb_adds(&sb, ", ");
	size_t at = sb.len;
	fmt_pct(&sb, flat_sum, total);
	while (sb.buf[at] == ' ') { /* pprof trims the percentage here */
		memmove(sb.buf + at, sb.buf + at + 1, sb.len - at);
		sb.len--;
	}
	jh_sb_adds(&sb, " of ");
	fmt_scaled(&sb, total, unit);
	jh_sb_adds(&sb, " total\n");
	if (total != 0 && dropped) {
		jh_sb_addf(&sb, "Dropped %zu node%s (cum <= ", dropped, dropped > 1 ? "s" : "");
		int64_t cut = (int64_t)((double)total * nf);
		fmt_scaled(&sb, cut < 0 ? -cut : cut, unit);
		jh_sb_adds(&sb, ")\n");
	}
	if (total != 0 && n > 0 && n < orig)
		jh_sb_addf(&sb, "Showing top %zu nodes out of %zu\n", n, orig);
	jh_sb_adds(&sb, sep_tree);
	jh_sb_adds(&sb,
		   "      flat  flat%   sum%        cum   cum%   calls calls% + context \t \t \n");

	/* each node's live edges, sorted */
	uint32_t *eo = xmalloc(jh_st_mult(p.ne + 1, sizeof(*eo)));
	size_t ne = 0;
	for (size_t i = 0; i < p.ne; i++)
		if (p.e[i].alive)
			eo[ne++] = (uint32_t)i;
	if (ne > 1)
		qsort_r(eo, ne, sizeof(*eo), cmp_edges, &p);
	uint32_t *in_off = xcalloc(p.nn + 2, sizeof(*in_off)),
		 *out_off = xcalloc(p.nn + 2, sizeof(*out_off));
	for (size_t i = 0; i < ne; i++) {
		in_off[p.e[eo[i]].dst + 1]++;
		out_off[p.e[eo[i]].src + 1]++;
	}
	for (size_t i = 0; i < p.nn; i++) {
		in_off[i + 1] += in_off[i];
		out_off[i + 1] += out_off[i];
	}
	uint32_t *in = xmalloc(jh_st_mult(ne + 1, sizeof(*in))),
		 *outs = xmalloc(jh_st_mult(ne + 1, sizeof(*outs)));
	uint32_t *fi = xcalloc(p.nn + 1, sizeof(*fi)), *fo = xcalloc(p.nn + 1, sizeof(*fo));
	for (size_t i = 0; i < ne; i++) {
		const struct jh_pg_edge *e = &p.e[eo[i]];
		in[in_off[e->dst] + fi[e->dst]++] = eo[i];
		outs[out_off[e->src] + fo[e->src]++] = eo[i];
	}

	uint8_t *hit = rx ? peek_hits(&p, v, n, rx, re) : NULL;
	int64_t shown = 0;
	size_t matched = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t i = v[k];
		const char *name = p.name[i];
		if (hit && !hit[k])
			continue;
		matched++;
		jh_sb_adds(&sb, sep_tree);
		for (uint32_t j = in_off[i]; j < in_off[i + 1]; j++)
			edge_row(&sb, &p, &p.e[in[j]], p.cum[i], p.e[in[j]].src, unit);
		shown += p.flat[i];
		value_col(&sb, p.flat[i], unit, 10);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, p.flat[i], total);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, shown, total);
		jh_sb_addc(&sb, ' ');
		value_col(&sb, p.cum[i], unit, 10);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, p.cum[i], total);
		jh_sb_adds(&sb, "                | ");
		jh_sb_add_visible(&sb, name);
		jh_sb_addc(&sb, '\n');
		for (uint32_t j = out_off[i]; j < out_off[i + 1]; j++)
			edge_row(&sb, &p, &p.e[outs[j]], p.cum[i], p.e[outs[j]].dst, unit);
		flush(out, &sb);
	}
	if (n)
		jh_sb_adds(&sb, sep_tree);
	int r = 0;
	if (rx && !matched) {
		r = jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
				"nothing to show: no function matches --peek=%s", re);
	} else {
		fwrite(sb.buf, 1, sb.len, out);
		r = ferror(out) ? -1 : 0;
	}
	jh_sb_release(&sb);
	free(hit);
	free(v);
	free(eo);
	free(in_off);
	free(out_off);
	free(in);
	free(outs);
	free(fi);
	free(fo);
	jh_pg_release(&p);
	jh_filter_free(rx);
	return r;
}
