/* test_report_text.c - jeprof's number formatting (docs/jeprof.md §5) and the --text /
 * --top layout (docs/jeprof.md §6) on a hand-built model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "analyse_fixture.h"
#include "cli.h" /* jh_report_opts_from */
#include "jeheap/report.h"

static void check_value(enum jh_unit u, double v, const char *want)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_fmt_value(&sb, u, v);
	assert_string_equal(sb.buf, want);
	jh_sb_release(&sb);
}

static void check_percent(double num, double tot, const char *want)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_fmt_percent(&sb, num, tot);
	assert_string_equal(sb.buf, want);
	jh_sb_release(&sb);
}

static void test_units(void **state)
{
	(void)state;
	check_value(JH_UNIT_MB, 24822855, "23.7");
	check_value(JH_UNIT_MB, 0, "0.0");
	check_value(JH_UNIT_MB, 52428.8, "0.1"); /* 0.05 MiB rounds as the double does */
	check_value(JH_UNIT_MB, -1, "-0.0");
	check_value(JH_UNIT_MB, -11286477, "-10.8");
	check_value(JH_UNIT_BYTES, -5734399.6, "-5734399"); /* toward zero */
	check_value(JH_UNIT_BYTES, 20623.99, "20623");
	check_value(JH_UNIT_BYTES, -0.4, "0");
	check_value(JH_UNIT_OBJECTS, 2.9, "2");
	check_value(JH_UNIT_BYTES, 1e30, "9223372036854775807");
}

static void test_percent(void **state)
{
	(void)state;
	check_percent(0, 0, "nan");
	check_percent(5, 0, "+inf");
	check_percent(-5, 0, "-inf");
	check_percent(0, -11286477, "-0.0%");
	check_percent(-5734399.6, -11286477, "50.8%");
	check_percent(9622888, 12776320, "75.3%");
	check_percent(1, 3, "33.3%");
	check_percent(1, 2000, "0.1%"); /* 0.05 */
	check_percent(3, 3, "100.0%");
}

/* The printf-free formatting against printf itself on many doubles,
 * including exact ties of "%.1f" (multiples of 0.05 MiB). */
static void test_against_printf(void **state)
{
	(void)state;
	struct jh_sb a, b;
	jh_sb_init(&a);
	jh_sb_init(&b);
	srand48(7);
	for (long i = 0; i < 200000; i++) {
		double v;
		switch (i % 4) {
		case 0: v = (drand48() - 0.5) * 1e12; break;
		case 1: v = (double)(lrand48() % 100000) * 1048576.0 / 20.0; break;
		case 2: v = (double)(lrand48() % 2000000 - 1000000) * 52428.8; break;
		default: v = (drand48() - 0.3) * 1e5; break;
		}
		double t = (i & 1) ? 2000.0 : 1e9 * drand48() + 1;
		jh_sb_reset(&a);
		jh_sb_reset(&b);
		jh_fmt_value(&a, JH_UNIT_MB, v);
		jh_sb_addf(&b, "%.1f", v / 1048576.0);
		assert_string_equal(a.buf, b.buf);
		jh_sb_reset(&a);
		jh_sb_reset(&b);
		jh_fmt_percent(&a, v, t);
		jh_sb_addf(&b, "%.1f%%", v * 100.0 / t);
		assert_string_equal(a.buf, b.buf);
		jh_sb_reset(&a);
		jh_sb_reset(&b);
		jh_fmt_value(&a, JH_UNIT_BYTES, v);
		jh_sb_addf(&b, "%lld", (long long)v);
		assert_string_equal(a.buf, b.buf);
	}
	jh_sb_release(&a);
	jh_sb_release(&b);
}

static char *run_text(const struct jh_options *o, int limit)
{
	struct jh_model m;
	struct jh_diag d;
	struct jh_profile p;
	tp_init(&p);
	tp_sym(&p, 0x10, "malloc");
	tp_sym(&p, 0x20, "leaf_alloc");
	tp_sym(&p, 0x30, "rec");
	tp_sym(&p, 0x40, "main");
	tp_sym(&p, 0x60, "f(int)--inl_helper");
	tp_sym(&p, 0x80, "g");
	tp_sym(&p, 0x90, "??");
	const uint64_t s0[] = { 0x10, 0x20, 0x30, 0x30, 0x40 };
	const uint64_t s1[] = { 0x60, 0x40 };
	const uint64_t s3[] = { 0x80, 0x90, 0x40 };
	const uint64_t s4[] = { 0x10 };
	tp_stack(&p, s0, 5, 100, 1);
	tp_stack(&p, s1, 2, 40, 2);
	tp_stack(&p, s3, 3, 3, 1);
	tp_stack(&p, s4, 1, 7, 1);
	tm_single(&m, &p);
	struct jh_graph g;
	assert_int_equal(ta_analyse(&g, &m, o, -1, NULL, &d), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jh_report_opts ro;
	jh_report_opts_from(&ro, o);
	assert_int_equal(jh_report_text(f, &g, &ro, limit), 0);
	fclose(f);
	jh_graph_release(&g);
	jh_model_release(&m);
	return buf;
}

static void test_text_layout(void **state)
{
	(void)state;
	struct jh_options o;
	topts_init(&o);
	char *s = run_text(&o, -1);
	assert_string_equal(s, "Total: 150 B\n"
			       "     100  69.9%  69.9%      100  69.9% leaf_alloc\n"
			       "      40  28.0%  97.9%       40  28.0% inl_helper (inline)\n"
			       "       3   2.1% 100.0%        3   2.1% g\n"
			       "       0   0.0% 100.0%        3   2.1% ?? ?\n"
			       "       0   0.0% 100.0%       40  28.0% f\n"
			       "       0   0.0% 100.0%      143 100.0% main\n"
			       "       0   0.0% 100.0%      100  69.9% rec\n");
	free(s);

	o.cum = 1;
	s = run_text(&o, 3);
	assert_string_equal(s, "Total: 150 B\n"
			       "       0   0.0%   0.0%      143 100.0% main\n"
			       "     100  69.9%  69.9%      100  69.9% leaf_alloc\n"
			       "       0   0.0%  69.9%      100  69.9% rec\n");
	free(s);

	o.cum = 0;
	o.show_bytes = 0;
	o.focus = "nothing-matches";
	s = run_text(&o, -1);
	assert_string_equal(s, "Total: 0.0 MB\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_against_printf),
		cmocka_unit_test(test_text_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
