/* test_analyse.c - the model and the analysis on tiny hand-built profiles:
 * allocator-frame removal, retain/exclude, focus/ignore, recursion counted
 * once, granularities, thread selection, --base across load addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyse_fixture.h"

/* One symbolized profile of a small program, at load address `base`:
 *   S0: malloc <- leaf_alloc <- rec <- rec <- rec <- main      100 B
 *   S1: operator new <- f(int) --inl_helper <- main            40 B
 *   S2: je_internal <- malloc (allocator only)                  7 B
 *   S3: g <- ?? <- main                                         3 B
 */
static void program(struct jh_profile *p, uint64_t base, double scale)
{
	tp_init(p);
	tp_map(p, base, base + 0x1000, "/usr/bin/prog");
	tp_sym(p, base + 0x10, "malloc");
	tp_sym(p, base + 0x20, "leaf_alloc");
	tp_sym(p, base + 0x30, "rec");
	tp_sym(p, base + 0x40, "main");
	tp_sym(p, base + 0x50, "operator new(unsigned long)");
	tp_sym(p, base + 0x60, "f(int)--inl_helper");
	tp_sym(p, base + 0x70, "je_internal");
	tp_sym(p, base + 0x80, "g");
	tp_sym(p, base + 0x90, "??");
	const uint64_t s0[] = { base + 0x10, base + 0x20, base + 0x30,
				base + 0x30, base + 0x30, base + 0x40 };
	const uint64_t s1[] = { base + 0x50, base + 0x60, base + 0x40 };
	const uint64_t s2[] = { base + 0x70, base + 0x10 };
	const uint64_t s3[] = { base + 0x80, base + 0x90, base + 0x40 };
	uint32_t a = tp_stack(p, s0, 6, 100 * scale, 1);
	uint32_t b = tp_stack(p, s1, 3, 40 * scale, 2);
	tp_stack(p, s2, 2, 7 * scale, 1);
	tp_stack(p, s3, 3, 3 * scale, 1);
	tp_thread_sample(p, 2, a, 60 * scale);
	tp_thread_sample(p, 5, a, 40 * scale);
	tp_thread_sample(p, 5, b, 40 * scale);
}

static void build(struct jh_model *m, int nbases, int drop_negative)
{
	struct jh_diag d;
	struct jh_profile p;
	jh_model_init(m, nbases > 0);
	program(&p, 0x555500000000, 1);
	assert_int_equal(jh_model_add_profile(m, &p, 0, NULL, &d), 0);
	tp_release(&p);
	for (int i = 0; i < nbases; i++) {
		/* another run: other load address, half the bytes */
		program(&p, 0x7f0000000000 + 0x100000 * i, 0.5);
		assert_int_equal(jh_model_add_profile(m, &p, 1, NULL, &d), 0);
		tp_release(&p);
	}
	jh_model_finish(m, nbases > 0, drop_negative);
}

static void analyse(struct jh_graph *g, const struct jh_model *m, const struct jh_options *o, int t)
{
	struct jh_diag d;
	assert_int_equal(ta_analyse(g, m, o, t, NULL, &d), 0);
}

static void test_removal_and_dedup(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	topts_init(&o);
	analyse(&g, &m, &o, -1);
	assert_true(g.total == 150);
	assert_true(g.local_total == 143); /* the allocator-only stack has no key */
	/* allocator frames and everything leafward are gone */
	assert_null(tg_node(&g, "malloc"));
	assert_null(tg_node(&g, "je_internal"));
	assert_null(tg_node(&g, "operator new"));
	assert_true(tg_node(&g, "leaf_alloc")->flat == 100);
	/* recursion counted once per stack */
	assert_true(tg_node(&g, "rec")->cum == 100);
	assert_true(tg_node(&g, "rec")->flat == 0);
	assert_true(tg_node(&g, "main")->cum == 143);
	/* inline levels: innermost first, " (inline)" */
	assert_true(tg_node(&g, "inl_helper (inline)")->flat == 40);
	assert_true(tg_node(&g, "f")->cum == 40);
	assert_true(tg_node(&g, "f")->flat == 0);
	/* "??" is keyed by its pc and printed "?? ?" */
	const struct jh_node *q = tg_node(&g, "0000555500000090");
	assert_non_null(q);
	assert_string_equal(q->label, "?? ?");
	assert_true(q->cum == 3);
	/* the emptied stack is kept (collapsed prints " 7") */
	int empty = 0;
	for (size_t i = 0; i < g.nstacks; i++)
		empty += g.stacks[i].len == 0 && g.stacks[i].v == 7;
	assert_int_equal(empty, 1);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_allocator_module(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	/* mark leaf_alloc as inside the allocator's library */
	for (size_t i = 0; i < m.nlocs; i++)
		if (m.locs[i].nframes && m.frames.items[m.locs[i].first].func &&
		    !strcmp(m.frames.items[m.locs[i].first].func, "leaf_alloc"))
			m.locs[i].allocator = 1;
	topts_init(&o);
	analyse(&g, &m, &o, -1);
	assert_null(tg_node(&g, "leaf_alloc"));
	assert_true(tg_node(&g, "rec")->flat == 100);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_retain_exclude(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	topts_init(&o);
	o.retain = "leaf|main";
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "leaf_alloc")->flat == 100);
	assert_true(tg_node(&g, "main")->flat == 43); /* callers close up */
	assert_null(tg_node(&g, "rec"));
	/* the emptied allocator-only stack is dropped by the frame filter */
	for (size_t i = 0; i < g.nstacks; i++)
		assert_true(g.stacks[i].len > 0);
	jh_graph_release(&g);

	topts_init(&o);
	o.exclude = "^rec$|inl_helper"; /* inline levels are not tested */
	analyse(&g, &m, &o, -1);
	assert_null(tg_node(&g, "rec"));
	assert_non_null(tg_node(&g, "inl_helper (inline)"));
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_focus_ignore(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	topts_init(&o);
	o.focus = "inl_h"; /* short names of inline levels count */
	analyse(&g, &m, &o, -1);
	assert_true(g.total == 150); /* Total: keeps the unfiltered total */
	assert_true(g.local_total == 40);
	jh_graph_release(&g);

	o.focus = "unsigned"; /* full names are not searched */
	analyse(&g, &m, &o, -1);
	assert_true(g.local_total == 0);
	jh_graph_release(&g);

	o.focus = "555500000080"; /* the pc key */
	analyse(&g, &m, &o, -1);
	assert_true(g.local_total == 3);
	jh_graph_release(&g);

	o.focus = "main";
	o.ignore = "^rec$";
	analyse(&g, &m, &o, -1);
	assert_true(g.local_total == 43);
	jh_graph_release(&g);

	struct jh_diag d;
	o.focus = "(";
	assert_int_equal(ta_analyse(&g, &m, &o, -1, NULL, &d), -1);
	assert_int_equal(d.code, JH_EXIT_USAGE);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_granularities(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	topts_init(&o);
	o.granularity = JH_GRAN_FILES;
	analyse(&g, &m, &o, -1);
	/* symbolized input: every frame's file is "?" */
	assert_int_equal(g.nnodes, 1);
	assert_string_equal(g.nodes[0].key, "?");
	assert_true(g.nodes[0].flat == 143);
	jh_graph_release(&g);

	o.granularity = JH_GRAN_ADDRESSES;
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "0000555500000060 inl_helper (inline) ?")->flat == 40);
	assert_true(tg_node(&g, "0000555500000060 f ?")->cum == 40);
	assert_true(tg_node(&g, "0000555500000030 rec ?")->cum == 100);
	jh_graph_release(&g);

	o.granularity = JH_GRAN_LINES;
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "leaf_alloc ?")->flat == 100);
	jh_graph_release(&g);

	o.granularity = JH_GRAN_FUNCTIONS;
	o.value = JH_INUSE_OBJECTS;
	analyse(&g, &m, &o, -1);
	assert_string_equal(g.unit_name, "objects");
	assert_true(tg_node(&g, "inl_helper (inline)")->flat == 2);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_threads(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 0, 0);
	assert_int_equal(m.nthreads, 2);
	assert_true(m.threads[0].uid == 2 && m.threads[1].uid == 5);
	topts_init(&o);
	analyse(&g, &m, &o, 1);
	assert_true(g.total == 80);
	assert_true(tg_node(&g, "leaf_alloc")->flat == 40);
	assert_true(tg_node(&g, "inl_helper (inline)")->flat == 40);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_base_other_load_address(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_options o;
	struct jh_graph g;
	build(&m, 1, 0);
	topts_init(&o);
	o.nbases = 1;
	analyse(&g, &m, &o, -1);
	/* the base is the same program at another address with half the
	 * bytes: every stack matches symbolically, "??" by its mapping */
	assert_true(g.total == 75);
	assert_true(tg_node(&g, "leaf_alloc")->flat == 50);
	assert_true(tg_node(&g, "main")->cum == 71.5);
	assert_int_equal(g.nstacks, 4);
	for (size_t i = 0; i < g.nstacks; i++)
		assert_true(g.stacks[i].after - g.stacks[i].before == g.stacks[i].v);
	jh_graph_release(&g);
	/* --thread also subtracts the base (jeprof ignores it there) */
	analyse(&g, &m, &o, 1);
	assert_true(g.total == 40);
	jh_graph_release(&g);
	jh_model_release(&m);

	/* two bases: profile - 2 * half = 0 everywhere */
	build(&m, 2, 0);
	o.nbases = 2;
	analyse(&g, &m, &o, -1);
	assert_true(g.total == 0);
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_drop_negative(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_diag d;
	struct jh_profile p;
	jh_model_init(&m, 1);
	tp_init(&p);
	tp_sym(&p, 0x10, "a");
	tp_sym(&p, 0x20, "b");
	const uint64_t sa[] = { 0x10 }, sb[] = { 0x20 };
	tp_stack(&p, sa, 1, 10, 1);
	assert_int_equal(jh_model_add_profile(&m, &p, 0, NULL, &d), 0);
	tp_release(&p);
	tp_init(&p);
	tp_sym(&p, 0x10, "a");
	tp_sym(&p, 0x20, "b");
	tp_stack(&p, sa, 1, 30, 1);
	tp_stack(&p, sb, 1, 5, 1);
	assert_int_equal(jh_model_add_profile(&m, &p, 1, NULL, &d), 0);
	tp_release(&p);
	jh_model_finish(&m, 1, 1);
	struct jh_options o;
	struct jh_graph g;
	topts_init(&o);
	o.nbases = 1;
	o.drop_negative = 1;
	analyse(&g, &m, &o, -1);
	assert_true(g.total == 0);
	assert_int_equal(g.nstacks, 1); /* b only in the base: gone */
	jh_graph_release(&g);
	jh_model_release(&m);
}

static void test_missing_symbol(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_profile p;
	tp_init(&p);
	tp_sym(&p, 0x10, "a");
	const uint64_t s[] = { 0x10, 0xabc, 0xffffffffff60000fULL };
	tp_stack(&p, s, 3, 10, 1);
	tm_single(&m, &p);
	struct jh_options o;
	struct jh_graph g;
	topts_init(&o);
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "0x0000000000000abc")->cum == 10);
	/* kernel addresses are dropped from keyed output */
	assert_int_equal(g.nnodes, 2);
	jh_graph_release(&g);
	jh_model_release(&m);
}

/* jeprof's rule for nm-tagged names (files written by jeprof --raw): two
 * full names with "<hex>" tags and one short name become short@hex keys;
 * output checked against jeprof 5.3.0 on the same symbol section. */
static void test_tag_collisions(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_profile p;
	tp_init(&p);
	tp_sym(&p, 0x1100, "make(int)<00000000000011f0>");
	tp_sym(&p, 0x1200, "make(long)<0000000000001210>");
	tp_sym(&p, 0x1300, "main<0000000000001000>--make(int)<00000000000011f0>");
	tp_sym(&p, 0x1400, "solo(int)<0000000000001400>");
	const uint64_t s1[] = { 0x1100, 0x1300 }, s2[] = { 0x1200, 0x1300 },
		       s3[] = { 0x1400, 0x1300 };
	tp_stack(&p, s1, 2, 100, 1);
	tp_stack(&p, s2, 2, 100, 1);
	tp_stack(&p, s3, 2, 100, 1);
	tm_single(&m, &p);
	struct jh_options o;
	struct jh_graph g;
	topts_init(&o);
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "make@11f0")->flat == 100);
	assert_true(tg_node(&g, "make@1210")->flat == 100);
	assert_true(tg_node(&g, "make@11f0 (inline)")->cum == 300);
	assert_true(tg_node(&g, "solo")->flat == 100);
	assert_true(tg_node(&g, "main")->cum == 300);
	assert_null(tg_node(&g, "make"));
	jh_graph_release(&g);
	jh_model_release(&m);
}

/* Values that differ only by summation-order noise tie and sort by key
 * (jeprof's order of such rows depends on its hash seed). */
static void test_sort_ties(void **state)
{
	(void)state;
	struct jh_model m;
	struct jh_profile p;
	tp_init(&p);
	tp_sym(&p, 0x10, "zeta");
	tp_sym(&p, 0x20, "alpha");
	tp_sym(&p, 0x30, "main");
	tp_sym(&p, 0x40, "other");
	const uint64_t z1[] = { 0x10, 0x30 }, z2[] = { 0x10, 0x40 }, a[] = { 0x20, 0x30 };
	tp_stack(&p, z1, 2, 0.1, 1);
	tp_stack(&p, z2, 2, 0.2, 1);
	tp_stack(&p, a, 2, 0.3, 1);
	tm_single(&m, &p);
	struct jh_options o;
	struct jh_graph g;
	topts_init(&o);
	analyse(&g, &m, &o, -1);
	assert_true(tg_node(&g, "zeta")->flat > tg_node(&g, "alpha")->flat); /* 0.1 + 0.2 */
	uint32_t *order = jh_graph_sorted(&g, 0);
	assert_string_equal(g.nodes[order[0]].key, "alpha");
	assert_string_equal(g.nodes[order[1]].key, "zeta");
	free(order);
	jh_graph_release(&g);
	jh_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_removal_and_dedup),
		cmocka_unit_test(test_allocator_module),
		cmocka_unit_test(test_retain_exclude),
		cmocka_unit_test(test_focus_ignore),
		cmocka_unit_test(test_granularities),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_base_other_load_address),
		cmocka_unit_test(test_drop_negative),
		cmocka_unit_test(test_missing_symbol),
		cmocka_unit_test(test_tag_collisions),
		cmocka_unit_test(test_sort_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
