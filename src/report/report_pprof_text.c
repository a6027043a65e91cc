/*
 * report_pprof_text.c - Go pprof's text views in its layout (docs/formats.md
 * §2; Go 1.19 internal/report printTraces, printTree):
 *
 *   --traces   per stack: a "-----------+----...----" separator, then its
 *              frames leaf first as "%10s   %s" with the value on the first
 *              line; stacks by value, largest first; a closing separator
 *   --tree     per function (by flat, largest first): its callers
 *              ("%50s %s |   %s": edge value, share of the function's cum,
 *              name), the function's row ("%10s %s %s %10s %s
 *              | %s": flat flat% sum% cum cum%), its callees; blocks between
 *              "----...----+-------------" lines
 *   --peek=RE  --tree of the functions whose names match RE
 *
 * As in pprof, a function inlined somewhere and called elsewhere is one
 * node; an edge to an inlined callee says " (inline)". Values are in the
 * analysis' unit with pprof's suffix ("1234B", "1.5MB"; counts bare).
 */
#include "jeheap/regex.h"
#include "jeheap/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char sep_traces[] =
	"-----------+-------------------------------------------------------\n";
static const char sep_tree[] =
	"----------------------------------------------------------+-------------\n";

/* pprof's value text in the graph's unit. */
static void fmt_value(struct jh_sb *sb, const struct jh_graph *g, double v)
{
	if (g->unit == JH_UNIT_MB) {
		if (v == 0) {
			jh_sb_addc(sb, '0');
			return;
		}
		jh_fmt_value(sb, g->unit, v);
		jh_sb_adds(sb, "MB");
		return;
	}
	long long n = jh_perl_int(v);
	jh_sb_addf(sb, "%lld", n);
	if (n && g->unit == JH_UNIT_BYTES)
		jh_sb_addc(sb, 'B');
}

/* measurement.Percentage: "  100%", "%5.2f%%" from 1 %, else "%5.2g%%". */
static void fmt_pct(struct jh_sb *sb, double v, double total)
{
	double r = total != 0 ? fabs(v / total) * 100 : 0;
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

static void value_col(struct jh_sb *sb, const struct jh_graph *g, double v, size_t w)
{
	size_t at = sb->len;
	fmt_value(sb, g, v);
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

/* pprof's first header lines: the program, the sample type (and jeheap's
 * thread). */
static void header(struct jh_sb *sb, const struct jh_graph *g)
{
	const struct jh_model *m = g->m;
	if (m->program) {
		const char *b = strrchr(m->program, '/');
		jh_sb_adds(sb, "File: ");
		jh_sb_add_visible(sb, b ? b + 1 : m->program);
		jh_sb_addc(sb, '\n');
	}
	jh_sb_addf(sb, "Type: %s\n", value_name(g->value));
	if (g->thread >= 0)
		jh_sb_addf(sb, "Thread: %llu\n", (unsigned long long)m->threads[g->thread].uid);
}

static int cmp_stacks(const void *a, const void *b, void *arg)
{
	const struct jh_graph *g = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double vx = jh_sort_value(fabs(g->stacks[x].v)), vy = jh_sort_value(fabs(g->stacks[y].v));
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x < y ? -1 : x > y;
}

int jh_report_traces(FILE *out, const struct jh_graph *g)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	header(&sb, g);
	uint32_t *order = xmalloc(jh_st_mult(g->nstacks ? g->nstacks : 1, sizeof(*order)));
	for (size_t i = 0; i < g->nstacks; i++)
		order[i] = (uint32_t)i;
	if (g->nstacks > 1)
		qsort_r(order, g->nstacks, sizeof(*order), cmp_stacks, (void *)g);
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[order[s]];
		if (gs->v == 0)
			continue;
		const uint32_t *locs = g->locpool + gs->off;
		int first = 1;
		for (uint32_t i = 0; i < gs->len; i++) {
			uint32_t nk;
			const uint32_t *keys = jh_graph_stack_keys(g, locs, i, &nk);
			for (uint32_t k = 0; k < nk; k++) {
				if (first) {
					jh_sb_adds(&sb, sep_traces);
					value_col(&sb, g, gs->v, 10);
				} else {
					jh_sb_adds(&sb, "          ");
				}
				first = 0;
				jh_sb_adds(&sb, "   ");
				jh_sb_add_visible(&sb, g->nodes[keys[k]].label);
				jh_sb_addc(&sb, '\n');
			}
		}
		if (sb.len > 1 << 16) {
			fwrite(sb.buf, 1, sb.len, out);
			jh_sb_reset(&sb);
		}
	}
	jh_sb_adds(&sb, sep_traces);
	fwrite(sb.buf, 1, sb.len, out);
	jh_sb_release(&sb);
	free(order);
	return ferror(out) ? -1 : 0;
}

/* The tree's graph: one node per name without " (inline)". */
struct pnode {
	const char *name; /* the label without " (inline)" (own copy) */
	double flat, cum;
	uint32_t stamp;
};

struct pedge {
	uint32_t src, dst;
	double w;
	int inl; /* every contribution was to an inlined callee */
	uint32_t stamp;
};

struct tree {
	const struct jh_graph *g;
	struct pnode *n;
	size_t nn, nalloc;
	uint32_t *of;           /* graph node -> pnode */
	struct jh_u64map edges; /* src << 32 | dst -> edge + 1 */
	struct pedge *e;
	size_t ne, ealloc;
};

static void tree_nodes(struct tree *t)
{
	const struct jh_graph *g = t->g;
	struct jh_intern names;
	struct jh_u64map ids;
	jh_intern_init(&names);
	jh_u64map_init(&ids);
	t->of = xmalloc(jh_st_mult(g->nnodes ? g->nnodes : 1, sizeof(*t->of)));
	static const char suffix[] = " (inline)";
	for (size_t i = 0; i < g->nnodes; i++) {
		const char *l = g->nodes[i].label;
		size_t n = strlen(l);
		if (g->nodes[i].inl && n >= sizeof(suffix) - 1 &&
		    !strcmp(l + n - (sizeof(suffix) - 1), suffix))
			n -= sizeof(suffix) - 1;
		const char *k = jh_intern_n(&names, l, n);
		int added;
		uint64_t *v = jh_u64map_put(&ids, (uint64_t)(uintptr_t)k, &added);
		if (added) {
			JH_GROW(t->n, t->nn + 1, t->nalloc);
			t->n[t->nn] = (struct pnode){ .name = xstrndup(l, n) };
			*v = t->nn++;
		}
		t->of[i] = (uint32_t)*v;
	}
	jh_u64map_release(&ids);
	jh_intern_release(&names);
}

static void add_edge(struct tree *t, uint32_t src, uint32_t dst, double w, int inl, uint32_t mark)
{
	int added;
	uint64_t *v = jh_u64map_put(&t->edges, (uint64_t)src << 32 | dst, &added);
	if (added) {
		JH_GROW(t->e, t->ne + 1, t->ealloc);
		t->e[t->ne] = (struct pedge){ src, dst, 0, 1, 0 };
		*v = ++t->ne;
	}
	struct pedge *e = &t->e[*v - 1];
	if (e->stamp == mark)
		return; /* once per stack */
	e->stamp = mark;
	e->w += w;
	if (!inl)
		e->inl = 0;
}

/* pprof's newGraph: each stack walked from the root; cum once per node and
 * edge per stack, flat on the innermost frame. */
static void tree_build(struct tree *t)
{
	const struct jh_graph *g = t->g;
	tree_nodes(t);
	jh_u64map_init(&t->edges);
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *gs = &g->stacks[s];
		if (gs->v == 0)
			continue;
		const uint32_t *locs = g->locpool + gs->off;
		uint32_t mark = (uint32_t)s + 1, parent = UINT32_MAX;
		for (uint32_t i = gs->len; i-- > 0;) {
			uint32_t nk;
			const uint32_t *keys = jh_graph_stack_keys(g, locs, i, &nk);
			for (uint32_t k = nk; k-- > 0;) {
				uint32_t p = t->of[keys[k]];
				if (t->n[p].stamp != mark) {
					t->n[p].stamp = mark;
					t->n[p].cum += gs->v;
				}
				if (parent != UINT32_MAX && parent != p)
					add_edge(t, parent, p, gs->v, g->nodes[keys[k]].inl, mark);
				parent = p;
			}
		}
		if (parent != UINT32_MAX)
			t->n[parent].flat += gs->v;
	}
}

static int cmp_pnodes(const void *a, const void *b, void *arg)
{
	const struct tree *t = arg;
	const struct pnode *x = &t->n[*(const uint32_t *)a], *y = &t->n[*(const uint32_t *)b];
	double fx = jh_sort_value(fabs(x->flat)), fy = jh_sort_value(fabs(y->flat));
	if (fx != fy)
		return fx > fy ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	double cx = jh_sort_value(fabs(x->cum)), cy = jh_sort_value(fabs(y->cum));
	return cx > cy ? -1 : cx < cy;
}

static int cmp_edges(const void *a, const void *b, void *arg)
{
	const struct tree *t = arg;
	const struct pedge *x = &t->e[*(const uint32_t *)a], *y = &t->e[*(const uint32_t *)b];
	double wx = jh_sort_value(fabs(x->w)), wy = jh_sort_value(fabs(y->w));
	if (wx != wy)
		return wx > wy ? -1 : 1;
	int c = strcmp(t->n[x->src].name, t->n[y->src].name);
	return c ? c : strcmp(t->n[x->dst].name, t->n[y->dst].name);
}

/* One caller or callee row: "%50s %s |   %s%s". */
static void edge_row(struct jh_sb *sb, const struct tree *t, const struct pedge *e, double cum,
		     uint32_t other)
{
	value_col(sb, t->g, e->w, 50);
	jh_sb_addc(sb, ' ');
	fmt_pct(sb, e->w, cum);
	jh_sb_adds(sb, " |   ");
	jh_sb_add_visible(sb, t->n[other].name);
	if (e->inl)
		jh_sb_adds(sb, " (inline)");
	jh_sb_addc(sb, '\n');
}

static void tree_free(struct tree *t)
{
	for (size_t i = 0; i < t->nn; i++)
		free((char *)t->n[i].name);
	free(t->n);
	free(t->of);
	free(t->e);
	jh_u64map_release(&t->edges);
}

int jh_report_tree(FILE *out, const struct jh_graph *g, const char *re, struct jh_diag *d)
{
	struct jh_filter *rx = NULL;
	if (re && !(rx = jh_filter_new("peek", re, d)))
		return -1;
	struct tree t = { .g = g };
	tree_build(&t);
	size_t nn = t.nn, ne = t.ne;
	uint32_t *order = xmalloc(jh_st_mult(nn + 1, sizeof(*order)));
	for (size_t i = 0; i < nn; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, nn, sizeof(*order), cmp_pnodes, &t);
	/* each node's edges, sorted: callers then callees */
	uint32_t *eorder = xmalloc(jh_st_mult(ne + 1, sizeof(*eorder)));
	for (size_t i = 0; i < ne; i++)
		eorder[i] = (uint32_t)i;
	qsort_r(eorder, ne, sizeof(*eorder), cmp_edges, &t);
	uint32_t *in_off = xcalloc(nn + 1, sizeof(*in_off)),
		 *out_off = xcalloc(nn + 1, sizeof(*out_off));
	uint32_t *in = xmalloc(jh_st_mult(ne + 1, sizeof(*in))),
		 *outs = xmalloc(jh_st_mult(ne + 1, sizeof(*outs)));
	for (size_t i = 0; i < ne; i++) {
		in_off[t.e[i].dst + 1]++;
		out_off[t.e[i].src + 1]++;
	}
	for (size_t i = 0; i < nn; i++) {
		in_off[i + 1] += in_off[i];
		out_off[i + 1] += out_off[i];
	}
	uint32_t *fi = xcalloc(nn + 1, sizeof(*fi)), *fo = xcalloc(nn + 1, sizeof(*fo));
	for (size_t i = 0; i < ne; i++) {
		const struct pedge *e = &t.e[eorder[i]];
		in[in_off[e->dst] + fi[e->dst]++] = eorder[i];
		outs[out_off[e->src] + fo[e->src]++] = eorder[i];
	}
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	header(&sb, g);
	double shown = 0;
	for (size_t i = 0; i < nn; i++)
		if (!rx || jh_filter_match(rx, t.n[i].name, strlen(t.n[i].name)))
			shown += t.n[i].flat;
	jh_sb_adds(&sb, "Showing nodes accounting for ");
	fmt_value(&sb, g, shown);
	jh_sb_adds(&sb, ", ");
	size_t at = sb.len;
	fmt_pct(&sb, shown, g->local_total);
	while (sb.buf[at] == ' ') { /* pprof trims the percentage here */
		memmove(sb.buf + at, sb.buf + at + 1, sb.len - at);
		sb.len--;
	}
	jh_sb_adds(&sb, " of ");
	fmt_value(&sb, g, g->local_total);
	jh_sb_adds(&sb, " total\n");
	jh_sb_adds(&sb, sep_tree);
	jh_sb_adds(&sb,
		   "      flat  flat%   sum%        cum   cum%   calls calls% + context \t \t \n");
	double flat_sum = 0;
	size_t matched = 0;
	for (size_t k = 0; k < nn; k++) {
		uint32_t i = order[k];
		const struct pnode *n = &t.n[i];
		if (n->flat == 0 && n->cum == 0)
			continue;
		if (rx && !jh_filter_match(rx, n->name, strlen(n->name)))
			continue;
		matched++;
		jh_sb_adds(&sb, sep_tree);
		for (uint32_t j = in_off[i]; j < in_off[i + 1]; j++)
			edge_row(&sb, &t, &t.e[in[j]], n->cum, t.e[in[j]].src);
		flat_sum += n->flat;
		value_col(&sb, g, n->flat, 10);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, n->flat, g->local_total);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, flat_sum, g->local_total);
		jh_sb_addc(&sb, ' ');
		value_col(&sb, g, n->cum, 10);
		jh_sb_addc(&sb, ' ');
		fmt_pct(&sb, n->cum, g->local_total);
		jh_sb_adds(&sb, "                | ");
		jh_sb_add_visible(&sb, n->name);
		jh_sb_addc(&sb, '\n');
		for (uint32_t j = out_off[i]; j < out_off[i + 1]; j++)
			edge_row(&sb, &t, &t.e[outs[j]], n->cum, t.e[outs[j]].dst);
		if (sb.len > 1 << 16) {
			fwrite(sb.buf, 1, sb.len, out);
			jh_sb_reset(&sb);
		}
	}
	if (nn)
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
	free(order);
	free(eorder);
	free(in_off);
	free(out_off);
	free(in);
	free(outs);
	free(fi);
	free(fo);
	tree_free(&t);
	jh_filter_free(rx);
	return r;
}
