/*
 * test_report_dot.c - jeprof's --dot rules on a hand-built graph: node
 * order and cut (--nodecount, --nodefraction), labels, font sizes,
 * --heapcheck styles, edges from the location stacks (inline keys,
 * recursion self-edges), the keep rules (reachability, --edgefraction,
 * --maxdegree), deterministic ties, pdf/svg specifics, "No nodes to print".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jeheap/report.h"

/*
 * Keys: 0 main, 1 a, 2 b, 3 "c (inline)", 4 rec. Locations: L0 main, L1 a,
 * L2 b with c inlined (keys innermost first: c, b), L3 rec.
 * Stacks (leaf first): [L2 L1 L0] 600, [L3 L3 L3 L0] 300, [L1 L0] 100.
 */
static const char *keys[] = { "main", "a", "b", "c (inline)", "rec" };
static double flat[] = { 0, 100, 0, 600, 300 };
static double cum[] = { 1000, 700, 600, 600, 300 };
static uint32_t lockey_off[] = { 0, 1, 2, 4, 5 };
static uint32_t keypool[] = { 0, 1, 3, 2, 4 };
static uint32_t locpool[] = { 2, 1, 0, 3, 3, 3, 0, 1, 0 };

struct fixture {
	struct jh_model m;
	struct jh_graph g;
	struct jh_node nodes[5];
	struct jh_gstack stacks[3];
	struct jh_report_opts o;
};

static struct fixture *make(void)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	f->m.program = "prog";
	f->m.nlocs = 4;
	for (int i = 0; i < 5; i++)
		f->nodes[i] = (struct jh_node){ .key = keys[i],
						.label = keys[i],
						.flat = flat[i],
						.cum = cum[i],
						.inl = i == 3 };
	f->stacks[0] = (struct jh_gstack){ .off = 0, .len = 3, .v = 600, .after = 600 };
	f->stacks[1] = (struct jh_gstack){ .off = 3, .len = 4, .v = 300, .after = 300 };
	f->stacks[2] = (struct jh_gstack){ .off = 7, .len = 2, .v = 100, .after = 100 };
	struct jh_graph *g = &f->g;
	g->m = &f->m;
	g->value = JH_INUSE_SPACE;
	g->unit = JH_UNIT_BYTES;
	g->unit_name = "B";
	g->thread = -1;
	g->total = 1200;
	g->local_total = 1000;
	g->stacks = f->stacks;
	g->nstacks = 3;
	g->locpool = locpool;
	g->nodes = f->nodes;
	g->nnodes = 5;
	g->lockey_off = lockey_off;
	g->keypool = keypool;
	g->nkeypool = 5;
	f->o.nodecount = 80;
	f->o.nodefraction = 0.005;
	f->o.edgefraction = 0.001;
	f->o.maxdegree = 8;
	f->o.output = JH_OUT_DOT;
	return f;
}

static char *build(struct fixture *f, enum jh_output mode, int *rc, struct jh_diag *d)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	*rc = jh_dot_build(&sb, &f->g, &f->o, mode, d);
	return jh_sb_detach(&sb);
}

static void edge(struct jh_sb *sb, int a, int b, double n, const char *w, const char *extra)
{
	jh_sb_addf(sb, "N%d -> N%d [label=%.0f, weight=%d, style=\"setlinewidth(%s)%s\"];\n", a, b,
		   n, (int)pow(n, 0.7), w, extra);
}

static const char *head =
	"digraph \"prog; 1200 B\" {\n"
	"node [width=0.375,height=0.25];\n"
	"Legend [shape=box,fontsize=24,shape=plaintext,label=\"prog\\lTotal B: 1200\\l"
	"Focusing on: 1000\\lDropped nodes with <= 5 abs(B)\\lDropped edges with <= 1 B\\l\"];\n";

static const char *node_lines =
	"N1 [label=\"main\\n0 (0.0%)\\rof 1000 (100.0%)\\r\",shape=box,fontsize=8.0];\n"
	"N2 [label=\"a\\n100 (10.0%)\\rof 700 (70.0%)\\r\",shape=box,fontsize=23.8];\n"
	"N3 [label=\"b\\n0 (0.0%)\\rof 600 (60.0%)\\r\",shape=box,fontsize=8.0];\n"
	"N4 [label=\"c\\n(inline)\\n600 (60.0%)\\r\",shape=box,fontsize=46.7];\n"
	"N5 [label=\"rec\\n300 (30.0%)\\r\",shape=box,fontsize=35.4];\n";

static void test_full_graph(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	char *out = build(f, JH_OUT_DOT, &rc, &d);
	assert_int_equal(rc, 0);
	struct jh_sb want = JH_SB_INIT;
	jh_sb_init(&want);
	jh_sb_adds(&want, head);
	jh_sb_adds(&want, node_lines);
	/* 700 first, then the three 600s by source key (a, b, rec), then 300 */
	edge(&want, 1, 2, 700, "2.000000", "");
	edge(&want, 2, 3, 600, "2.000000", "");
	edge(&want, 3, 4, 600, "2.000000", ",dashed");
	edge(&want, 5, 5, 600, "2.000000", "");
	edge(&want, 1, 5, 300, "1.800000", "");
	jh_sb_adds(&want, "}\n");
	assert_string_equal(out, want.buf);
	jh_sb_release(&want);
	free(out);
	free(f);
}

static void test_maxdegree_and_edgefraction(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	f->o.maxdegree = 1;
	char *out = build(f, JH_OUT_DOT, &rc, &d);
	assert_int_equal(rc, 0);
	/* main -> rec: rec already has an incoming edge and main its one outgoing */
	assert_null(strstr(out, "N1 -> N5"));
	assert_non_null(strstr(out, "N5 -> N5"));
	free(out);

	f->o.maxdegree = 8;
	f->o.edgefraction =
		0.3; /* edgelimit 300: main -> rec (300) is not needed for reachability */
	out = build(f, JH_OUT_DOT, &rc, &d);
	assert_null(strstr(out, "N1 -> N5"));
	assert_non_null(strstr(out, "Dropped edges with <= 300 B"));
	free(out);
	free(f);
}

static void test_node_cut(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	f->o.nodecount = 2;
	char *out = build(f, JH_OUT_DOT, &rc, &d);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "N2 [label=\"a\\n"));
	assert_null(strstr(out, "N3 ["));
	/* edges only between shown nodes, never bridged */
	assert_non_null(strstr(out, "N1 -> N2 [label=700,"));
	assert_null(strstr(out, "N2 -> N2"));
	int nedges = 0;
	for (const char *p = out; (p = strstr(p, " -> ")); p++)
		nedges++;
	assert_int_equal(nedges, 1);
	free(out);

	f->o.nodecount = 80;
	f->o.nodefraction = 0.6; /* nodelimit 600: b and c (600) go, |cum| <= limit */
	out = build(f, JH_OUT_DOT, &rc, &d);
	assert_null(strstr(out, "label=\"b\\n"));
	assert_non_null(strstr(out, "label=\"a\\n"));
	assert_null(strstr(out, "label=\"rec\\n"));
	free(out);
	free(f);
}

static void test_no_nodes(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	f->o.nodecount = 0;
	char *out = build(f, JH_OUT_DOT, &rc, &d);
	assert_int_equal(rc, -1);
	assert_int_equal(d.code, JH_EXIT_NODATA);
	assert_non_null(strstr(d.msg, "No nodes to print"));
	assert_string_equal(out, "");
	free(out);
	free(f);
}

static void test_modes_and_heapcheck(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	char *out = build(f, JH_OUT_PDF, &rc, &d);
	assert_non_null(strstr(out, "{\nsize=\"8,11\"\nnode [width"));
	free(out);
	out = build(f, JH_OUT_DOT, &rc, &d);
	assert_null(strstr(out, "size=\"8,11\""));
	free(out);
	f->nodes[4].flat = -300;
	f->o.heapcheck = 1;
	out = build(f, JH_OUT_SVG, &rc, &d);
	assert_non_null(strstr(out, "fontsize=23.8,style=filled,fillcolor=gray];"));
	assert_non_null(strstr(out, "fontsize=8.0];\nN2"));
	assert_non_null(strstr(out, "fontsize=35.4,peripheries=3];"));
	free(out);
	free(f);
}

static void test_thin_edges_svg(void **state)
{
	(void)state;
	struct fixture *f = make();
	struct jh_diag d = { { 0 }, 0 };
	int rc;
	f->g.local_total = 10000; /* 3 * 300 / 10000 * 2 = 0.18 */
	char *out = build(f, JH_OUT_DOT, &rc, &d);
	assert_non_null(
		strstr(out, "N1 -> N5 [label=300, weight=54, style=\"setlinewidth(0.180000)\"]"));
	free(out);
	out = build(f, JH_OUT_SVG, &rc, &d);
	assert_non_null(
		strstr(out, "N1 -> N5 [label=300, weight=54, style=\"setlinewidth(1.000000)\"]"));
	free(out);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_graph),
		cmocka_unit_test(test_maxdegree_and_edgefraction),
		cmocka_unit_test(test_node_cut),
		cmocka_unit_test(test_no_nodes),
		cmocka_unit_test(test_modes_and_heapcheck),
		cmocka_unit_test(test_thin_edges_svg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
