/* test_series.c - the pieces of --series and --normalize that need no dump:
 * jemalloc file names (series_name.c), the series order, and the clone and
 * template normalisation of names (names_normalize.c). The series itself
 * runs on real dumps in tests/cases/series.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "jeheap/names.h"
#include "jeheap/series.h"

static void test_dump_names(void **state)
{
	(void)state;
	struct jh_dump_name n;
	jh_dump_name_parse("/x/jeprof.1234.10.i10.heap", &n);
	assert_true(n.ok);
	assert_int_equal(n.pid, 1234);
	assert_int_equal(n.seq, 10);
	assert_int_equal(n.n, 10);
	assert_int_equal(n.tag, 'i');
	jh_dump_name_parse("prof.7.3.f.heap.zst", &n); /* the final dump: no <n> */
	assert_true(n.ok);
	assert_int_equal(n.pid, 7);
	assert_int_equal(n.seq, 3);
	assert_int_equal(n.tag, 'f');
	jh_dump_name_parse("a.b.c.1.2.m0.heap.gz", &n);
	assert_true(n.ok);
	assert_int_equal(n.pid, 1);
	jh_dump_name_parse(".1.2.u3.heap", &n); /* empty prefix */
	assert_true(n.ok);
	const char *bad[] = { "after.heap",        "jeprof.1234.heap", "p.12.x.i1.heap",
			      "p.1.2.i1.heap.bz2", "p.1.2.3.heap",     "p.1.2.i1.heapx",
			      "p1.2.i3.heap" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		jh_dump_name_parse(bad[i], &n);
		if (n.ok)
			print_error("%s parsed as a jemalloc name\n", bad[i]);
		assert_false(n.ok);
	}
}

static void test_order(void **state)
{
	(void)state;
	char *paths[] = { "p.5.10.i10.heap", "mine.heap", "p.5.9.i9.heap", "p.5.2.i2.heap.gz" };
	size_t order[4];
	struct jh_diag d = { { 0 }, 0 };
	assert_int_equal(jh_series_order(paths, 4, 0, order, &d), 0);
	/* named files in seq order in their places; mine.heap stays second */
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 2);
	assert_int_equal(order[3], 0);
	char *mixed[] = { "p.5.1.i1.heap", "p.6.2.i2.heap" };
	assert_int_equal(jh_series_order(mixed, 2, 0, order, &d), -1);
	assert_int_equal(d.code, JH_EXIT_USAGE);
	assert_int_equal(jh_series_order(mixed, 2, 1, order, &d), 0);
}

static void check_norm(const char *in, unsigned flags, const char *want)
{
	char buf[256];
	strcpy(buf, in);
	size_t n = jh_normalize_name(buf, strlen(buf), flags);
	if (strcmp(buf, want) || n != strlen(want))
		print_error("normalize(%s, %u) = '%s', want '%s'\n", in, flags, buf, want);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_normalize(void **state)
{
	(void)state;
	check_norm("foo.constprop.0", JH_NORM_CLONES, "foo");
	check_norm("foo", JH_NORM_CLONES, "foo");
	check_norm("foo.isra.12", JH_NORM_CLONES, "foo");
	check_norm("foo.part.0.cold", JH_NORM_CLONES, "foo");
	check_norm("foo.constprop.0.isra.0", JH_NORM_CLONES, "foo");
	check_norm("foo.cold.3", JH_NORM_CLONES, "foo");
	check_norm("ns::foo [clone .constprop.0] [clone .isra.0]", JH_NORM_CLONES, "ns::foo");
	check_norm("foo.part", JH_NORM_CLONES, "foo.part"); /* no number: a name */
	check_norm("v1.2", JH_NORM_CLONES, "v1.2");
	check_norm("cold", JH_NORM_CLONES, "cold");
	check_norm("std::vector<int>::push_back.isra.0", JH_NORM_CLONES,
		   "std::vector<int>::push_back");
	check_norm("std::vector<int>::push_back.isra.0", JH_NORM_CLONES | JH_NORM_TEMPLATES,
		   "std::vector::push_back");
	check_norm("a<b<c>>::d", JH_NORM_TEMPLATES, "a::d");
	check_norm("a<b::d", JH_NORM_TEMPLATES, "a<b::d");               /* unbalanced: kept */
	check_norm("S::operator<<", JH_NORM_TEMPLATES, "S::operator<<"); /* operators kept */
	check_norm("foo.constprop.0", 0, "foo.constprop.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_names),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_normalize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
