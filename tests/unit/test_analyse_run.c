/*
 * test_analyse_run.c - which short names jeprof renames Run#<n>: Perl's
 * m/Callback.*::Run$/ (results checked with perl 5.36 on each string).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analyse_internal.h"

static void test_callback_run(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		int want;
	} cases[] = {
		{"Callback::Run", 1}, {"base::internal::CallbackImpl::Run", 1},
		{"MyCallback::Run", 1}, {"xCallback::Run", 1}, {"Callback::Run::Run", 1},
		{"a::Run::Callback::Run", 1}, {"CallbackRun", 0}, {"Foo::Run", 0},
		{"Callback::Run (inline)", 0}, {"Callback::RunX", 0}, {"Callback::Run@1f0", 0},
		{"::Run", 0}, {"Callbac::Run", 0}, {"Run", 0}, {"Callback::", 0}, {"", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (jh_is_callback_run(cases[i].name) != cases[i].want)
			print_error("'%s': want %d\n", cases[i].name, cases[i].want);
		assert_int_equal(jh_is_callback_run(cases[i].name), cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callback_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
