/*
 * test_analyse_run.c - jeprof's Callback::Run rule: which short names are
 * renamed Run#<n> (Perl's m/Callback.*::Run$/, results checked with perl
 * 5.36 on each string), and the numbering on a hand-built model: one number
 * per callee location (0 = leaf), given in stack order, kept across
 * analyses of one model (threads, interactive commands), inline levels
 * untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyse_internal.h"
#include "analyse_fixture.h"

static void test_callback_run(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int want;
	} cases[] = {
		{ "Callback::Run", 1 },
		{ "base::internal::CallbackImpl::Run", 1 },
		{ "MyCallback::Run", 1 },
		{ "xCallback::Run", 1 },
		{ "Callback::Run::Run", 1 },
		{ "a::Run::Callback::Run", 1 },
		{ "CallbackRun", 0 },
		{ "Foo::Run", 0 },
		{ "Callback::Run (inline)", 0 },
		{ "Callback::RunX", 0 },
		{ "Callback::Run@1f0", 0 },
		{ "::Run", 0 },
		{ "Callbac::Run", 0 },
		{ "Run", 0 },
		{ "Callback::", 0 },
		{ "", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (jh_is_callback_run(cases[i].name) != cases[i].want)
			print_error("'%s': want %d\n", cases[i].name, cases[i].want);
		assert_int_equal(jh_is_callback_run(cases[i].name), cases[i].want);
	}
}

static void check(const struct jh_graph *g, const char *key, double flat, double cum)
{
	const struct jh_node *n = tg_node(g, key);
	if (!n)
		print_error("no node '%s'\n", key);
	assert_non_null(n);
	if (n->flat != flat || n->cum != cum)
		print_error("%s: flat %g cum %g, want %g %g\n", key, n->flat, n->cum, flat, cum);
	assert_true(n->flat == flat && n->cum == cum);
}

static void test_numbering(void **state)
{
	(void)state;
	struct jh_profile p;
	tp_init(&p);
	tp_sym(&p, 0x10, "leaf");
	tp_sym(&p, 0x20, "Callback<A>::Run(unsigned long) const");
	tp_sym(&p, 0x30, "Callback<B>::Run(unsigned long) const");
	tp_sym(&p, 0x40, "main");
	tp_sym(&p, 0x50, "other");
	tp_sym(&p, 0x60, "Callback<C>::Run() const--inl");
	const uint64_t s0[] = { 0x10, 0x20, 0x40 }, s1[] = { 0x10, 0x30, 0x40 },
		       s2[] = { 0x20, 0x40 }, s3[] = { 0x50, 0x20, 0x30, 0x40 },
		       s4[] = { 0x60, 0x40 };
	tp_stack(&p, s0, 3, 100, 1);
	tp_stack(&p, s1, 3, 50, 1);
	tp_stack(&p, s2, 2, 30, 1);
	uint32_t t = tp_stack(&p, s3, 4, 7, 1);
	tp_stack(&p, s4, 2, 5, 1);
	tp_thread_sample(&p, 5, t, 7);
	struct jh_model m;
	tm_single(&m, &p);
	struct jh_options o;
	topts_init(&o);
	struct jh_diag d;
	struct jh_graph g;
	struct jh_u64map run_ids; /* shared by the analyses of the run */
	jh_u64map_init(&run_ids);
	assert_int_equal(ta_analyse(&g, &m, &o, -1, &run_ids, &d), 0);
	check(&g, "leaf", 150, 150);
	check(&g, "Run#1", 0, 150); /* A and B, both calling leaf */
	check(&g, "Run#2", 30, 35); /* A as the leaf, and C (its inlined level is the leaf) */
	check(&g, "inl (inline)", 5, 5);
	check(&g, "other", 7, 7);
	check(&g, "Run#3", 0, 7); /* A calling other */
	check(&g, "Run#4", 0, 7); /* B calling A */
	check(&g, "main", 0, 192);
	assert_null(tg_node(&g, "Callback::Run"));
	assert_int_equal(g.nnodes, 8);
	jh_graph_release(&g);
	/* thread 5 (stack s3 only) afterwards: the numbers of the run are kept */
	assert_int_equal(m.nthreads, 1);
	assert_int_equal(ta_analyse(&g, &m, &o, 0, &run_ids, &d), 0);
	check(&g, "Run#3", 0, 7);
	check(&g, "Run#4", 0, 7);
	assert_int_equal(g.nnodes, 4);
	jh_graph_release(&g);
	/* --files: the name is not shown, nothing renamed; --collapsed-style
	 * analyses (no nodes) neither */
	o.granularity = JH_GRAN_FILES;
	assert_int_equal(ta_analyse(&g, &m, &o, -1, &run_ids, &d), 0);
	for (size_t i = 0; i < g.nnodes; i++)
		assert_null(strstr(g.nodes[i].key, "Run#"));
	jh_graph_release(&g);
	jh_u64map_release(&run_ids);
	jh_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callback_run),
		cmocka_unit_test(test_numbering),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
