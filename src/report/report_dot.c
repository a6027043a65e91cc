/*
 * report_dot.c - --dot: jeprof's call graph (docs/jeprof.md §8).
 *
 * Nodes are the graph's granularity keys sorted by |cum|, cut at
 * --nodecount and --nodefraction; edges come from the filtered location
 * stacks translated key by key (not de-duplicated, so recursion makes
 * self-edges), kept by jeprof's reachability / --edgefraction /
 * --maxdegree rules. Where jeprof orders equal edges by Perl's hash order,
 * ties here are broken by the source then the target key, so the output is
 * the same on every run.
 */
#include "jeheap/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct edge {
	uint32_t src, dst; /* node ids of g */
	double n;
};

static int cmp_nodes(const void *a, const void *b, void *arg)
{
	const struct jh_graph *sort_graph = arg;
	const struct jh_node *x = &sort_graph->nodes[*(const uint32_t *)a];
	const struct jh_node *y = &sort_graph->nodes[*(const uint32_t *)b];
	double cx = jh_sort_value(fabs(x->cum)), cy = jh_sort_value(fabs(y->cum));
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int cmp_edges(const void *a, const void *b, void *arg)
{
	const struct jh_graph *sort_graph = arg;
	const struct edge *x = a, *y = b;
	double nx = jh_sort_value(x->n), ny = jh_sort_value(y->n);
	if (nx != ny)
		return nx > ny ? -1 : 1;
	int c = strcmp(sort_graph->nodes[x->src].key, sort_graph->nodes[y->src].key);
	if (c)
		return c;
	return strcmp(sort_graph->nodes[x->dst].key, sort_graph->nodes[y->dst].key);
}

/*
 * DOT's escaping, in one place: c inside a quoted string. '"' and '\\' are
 * escaped (a name can neither end the string nor make Graphviz's "\N",
 * "\l"... escapes), '&' is "&amp;" (Graphviz decodes entities in labels), a
 * control character is shown as its visible escape ("\\x01" in the file,
 * "\x01" in the label).
 */
static void add_dot_char(struct jh_sb *sb, char c)
{
	char esc[5];
	size_t n = jh_visible_escape((unsigned char)c, esc);
	if (n) {
		jh_sb_addc(sb, '\\');
		jh_sb_add(sb, esc, n);
		return;
	}
	if (c == '&') { /* Graphviz reads HTML entities in labels: "&amp;" is '&' */
		jh_sb_adds(sb, "&amp;");
		return;
	}
	if (c == '"' || c == '\\')
		jh_sb_addc(sb, '\\');
	jh_sb_addc(sb, c);
}

/* Appends s escaped for a quoted DOT string. */
static void add_quoted(struct jh_sb *sb, const char *s)
{
	for (; *s; s++)
		add_dot_char(sb, *s);
}

/* jeprof's label: every whitespace run and every "::" becomes "\n" (the
 * only line breaks in a label are ours). */
static void add_label(struct jh_sb *sb, const char *key)
{
	const char *s = key;
	while (*s) {
		if (strchr(" \t\n\r\f\v", *s)) {
			while (*s && strchr(" \t\n\r\f\v", *s))
				s++;
			jh_sb_adds(sb, "\\n");
		} else if (s[0] == ':' && s[1] == ':') {
			s += 2;
			jh_sb_adds(sb, "\\n");
		} else {
			add_dot_char(sb, *s++);
		}
	}
}

static void add_value(struct jh_sb *sb, const struct jh_graph *g, double v)
{
	jh_fmt_value(sb, g->unit, v);
}

static void add_percent(struct jh_sb *sb, double v, double tot)
{
	jh_fmt_percent(sb, v, tot);
}

static const char *program_name(const struct jh_graph *g, const struct jh_report_opts *o)
{
	if (g->m->program)
		return g->m->program;
	return o->program ? o->program : "(unknown)";
}

/*
 * Sums every adjacent (caller -> callee) key pair of every filtered stack
 * whose both ends are shown nodes (nodeno[id] != 0). Returns the edges.
 */
static struct edge *collect_edges(const struct jh_graph *g, const uint32_t *nodeno, size_t *nedges)
{
	struct jh_u64map idx;
	jh_u64map_init(&idx);
	struct edge *e = NULL;
	size_t nr = 0, alloc = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		const struct jh_gstack *st = &g->stacks[s];
		const uint32_t *locs = g->locpool + st->off;
		uint32_t prev = UINT32_MAX; /* the key translated just before (callee side) */
		for (uint32_t i = 0; i < st->len; i++) {
			uint32_t nk;
			const uint32_t *keys = jh_graph_stack_keys(g, locs, i, &nk);
			for (uint32_t k = 0; k < nk; k++) {
				uint32_t cur = keys[k];
				if (prev != UINT32_MAX && nodeno[prev] && nodeno[cur]) {
					int added;
					uint64_t *v = jh_u64map_put(
						&idx, (uint64_t)cur << 32 | prev, &added);
					if (added) {
						JH_GROW(e, nr + 1, alloc);
						e[nr] = (struct edge){ cur, prev, 0 };
						*v = nr++;
					}
					e[*v].n += st->v;
				}
				prev = cur;
			}
		}
	}
	jh_u64map_release(&idx);
	*nedges = nr;
	return e;
}

static void add_edges(struct jh_sb *sb, const struct jh_graph *g, const struct jh_report_opts *o,
		      enum jh_output mode, const uint32_t *nodeno, double edgelimit)
{
	size_t ne;
	struct edge *e = collect_edges(g, nodeno, &ne);
	if (ne)
		qsort_r(e, ne, sizeof(*e), cmp_edges, (void *)g);
	uint32_t *indeg = xcalloc(g->nnodes ? g->nnodes : 1, sizeof(*indeg));
	uint32_t *outdeg = xcalloc(g->nnodes ? g->nnodes : 1, sizeof(*outdeg));
	double total = g->local_total;
	for (size_t i = 0; i < ne; i++) {
		double n = e[i].n;
		int keep;
		if (indeg[e[i].dst] == 0)
			keep = 1; /* needed for reachability */
		else if (fabs(n) <= edgelimit)
			keep = 0;
		else if ((int)outdeg[e[i].src] >= o->maxdegree ||
			 (int)indeg[e[i].dst] >= o->maxdegree)
			keep = 0;
		else
			keep = 1;
		if (!keep)
			continue;
		outdeg[e[i].src]++;
		indeg[e[i].dst]++;
		double fraction = fabs(total != 0 ? 3 * (n / total) : 0);
		if (fraction > 1)
			fraction = 1;
		double w = fraction * 2;
		if (w < 1 && (mode == JH_OUT_WEB || mode == JH_OUT_SVG))
			w = 1;
		double weight = pow(fabs(n), 0.7);
		if (weight > 100000)
			weight = 100000;
		jh_sb_addf(sb, "N%u -> N%u [label=", nodeno[e[i].src], nodeno[e[i].dst]);
		add_value(sb, g, n);
		jh_sb_addf(sb, ", weight=%d, style=\"setlinewidth(%f)%s\"];\n", (int)weight, w,
			   strstr(g->nodes[e[i].dst].key, "(inline)") ? ",dashed" : "");
	}
	free(indeg);
	free(outdeg);
	free(e);
}

static void add_node(struct jh_sb *sb, const struct jh_graph *g, const struct jh_report_opts *o,
		     const struct jh_node *nd, uint32_t no)
{
	double total = g->local_total, f = nd->flat, c = nd->cum;
	double fs = 8;
	if (total > 0)
		fs = 8 + 50.0 * sqrt(fabs(f * 1.0 / total));
	jh_sb_addf(sb, "N%u [label=\"", no);
	add_label(sb, nd->key);
	jh_sb_adds(sb, "\\n");
	add_value(sb, g, f);
	jh_sb_adds(sb, " (");
	add_percent(sb, f, total);
	jh_sb_adds(sb, ")");
	if (f != c) {
		jh_sb_adds(sb, "\\rof ");
		add_value(sb, g, c);
		jh_sb_adds(sb, " (");
		add_percent(sb, c, total);
		jh_sb_adds(sb, ")");
	}
	jh_sb_addf(sb, "\\r\",shape=box,fontsize=%.1f", fs);
	if (o->heapcheck) {
		if (f > 0)
			jh_sb_adds(sb, ",style=filled,fillcolor=gray");
		else if (f < 0)
			jh_sb_adds(sb, ",peripheries=3");
	}
	jh_sb_adds(sb, "];\n");
}

int jh_dot_build(struct jh_sb *sb, const struct jh_graph *g, const struct jh_report_opts *o,
		 enum jh_output mode, struct jh_diag *d)
{
	double total = g->local_total;
	/* Perl's int(): truncation toward zero. */
	double nodelimit = trunc(o->nodefraction * total);
	double edgelimit = trunc(o->edgefraction * total);

	uint32_t *list = xmalloc((g->nnodes ? g->nnodes : 1) * sizeof(*list));
	for (size_t i = 0; i < g->nnodes; i++)
		list[i] = (uint32_t)i;
	qsort_r(list, g->nnodes, sizeof(*list), cmp_nodes, (void *)g);
	long last = (long)o->nodecount - 1;
	if (last > (long)g->nnodes - 1)
		last = (long)g->nnodes - 1;
	while (last >= 0 && fabs(g->nodes[list[last]].cum) <= nodelimit)
		last--;
	if (last < 0) {
		free(list);
		return jh_diag_set(d, JH_EXIT_NODATA, NULL, 0, "No nodes to print");
	}

	struct jh_sb tmp = JH_SB_INIT;
	jh_sb_init(&tmp);
	if ((nodelimit > 0 || edgelimit > 0) && !o->quiet) {
		jh_sb_adds(&tmp, "Dropping nodes with <= ");
		add_value(&tmp, g, nodelimit);
		jh_sb_addf(&tmp, " %s; edges with <= ", g->unit_name);
		add_value(&tmp, g, edgelimit);
		jh_sb_addf(&tmp, " abs(%s)", g->unit_name);
		jh_note("%s", tmp.buf);
	}

	const char *prog = program_name(g, o);
	jh_sb_adds(sb, "digraph \"");
	add_quoted(sb, prog);
	jh_sb_adds(sb, "; ");
	add_value(sb, g, g->total);
	jh_sb_addf(sb, " %s\" {\n", g->unit_name);
	if (mode == JH_OUT_PDF)
		jh_sb_adds(sb, "size=\"8,11\"\n");
	jh_sb_adds(sb, "node [width=0.375,height=0.25];\n");
	jh_sb_adds(sb, "Legend [shape=box,fontsize=24,shape=plaintext,label=\"");
	add_quoted(sb, prog);
	jh_sb_addf(sb, "\\lTotal %s: ", g->unit_name);
	add_value(sb, g, g->total);
	jh_sb_adds(sb, "\\lFocusing on: ");
	add_value(sb, g, total);
	jh_sb_adds(sb, "\\lDropped nodes with <= ");
	add_value(sb, g, nodelimit);
	jh_sb_addf(sb, " abs(%s)\\lDropped edges with <= ", g->unit_name);
	add_value(sb, g, edgelimit);
	jh_sb_addf(sb, " %s\\l\"];\n", g->unit_name);

	/* nodeno[id] = the N<i> number of node id, 0 = not shown. */
	uint32_t *nodeno = xcalloc(g->nnodes, sizeof(*nodeno));
	for (long i = 0; i <= last; i++) {
		nodeno[list[i]] = (uint32_t)i + 1;
		add_node(sb, g, o, &g->nodes[list[i]], (uint32_t)i + 1);
	}
	add_edges(sb, g, o, mode, nodeno, edgelimit);
	jh_sb_adds(sb, "}\n");
	free(nodeno);
	free(list);
	jh_sb_release(&tmp);
	return 0;
}

int jh_report_dot(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		  struct jh_diag *d)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	int r = jh_dot_build(&sb, g, o, JH_OUT_DOT, d);
	if (r == 0)
		fwrite(sb.buf, 1, sb.len, out);
	jh_sb_release(&sb);
	return r;
}

int jh_report_graphviz(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		       int background, struct jh_diag *d)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	int r = jh_dot_build(&sb, g, o, o->output, d);
	if (r == 0)
		r = jh_graphviz_output(sb.buf, sb.len, o->output, out, o->output_file, background,
				       d);
	jh_sb_release(&sb);
	return r;
}
