/* test_base_alloc.c - base.c's growable arrays and allocation helpers
 * (JH_GROW, xcalloc, xrealloc): contents kept through every move, alloc
 * never below what was asked; and jh_warn's sink. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "jeheap/base.h"

static void test_grow_keeps(void **state)
{
	(void)state;
	uint32_t *a = NULL;
	size_t nr = 0, alloc = 0;
	for (uint32_t i = 0; i < 3000000; i++) {
		JH_GROW(a, nr + 1, alloc);
		assert_true(alloc >= nr + 1);
		a[nr++] = i * 7u;
	}
	for (uint32_t i = 0; i < nr; i++)
		assert_int_equal(a[i], i * 7u);
	free(a);
}

static void test_xcalloc_zero(void **state)
{
	(void)state;
	for (size_t n = 1; n <= ((size_t)64 << 20); n *= 4) {
		unsigned char *p = xcalloc(n, 1);
		for (size_t i = 0; i < n; i += 4093)
			assert_int_equal(p[i], 0);
		assert_int_equal(p[n - 1], 0);
		memset(p, 0xab, n);
		p = xrealloc(p, 2 * n);
		assert_int_equal(p[n - 1], 0xab);
		free(p);
	}
}

static char last_warning[256];

static void sink(enum jh_msg kind, const char *msg)
{
	(void)kind;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

static void test_warn_sink(void **state)
{
	(void)state;
	jh_warn("dropped %d", 1); /* no sink yet */
	assert_string_equal(last_warning, "");
	jh_set_warn(sink);
	jh_warn("seen %d %s", 2, "x");
	assert_string_equal(last_warning, "seen 2 x");
	jh_set_warn(NULL);
	jh_warn("dropped again");
	assert_string_equal(last_warning, "seen 2 x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_keeps),
		cmocka_unit_test(test_xcalloc_zero),
		cmocka_unit_test(test_warn_sink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
