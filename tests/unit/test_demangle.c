/* Demangling: addr2line -C's output (libiberty, DMGL_PARAMS|DMGL_ANSI), C++ and Rust. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "jh_demangle.h"

static void check(const char *mangled, const char *want)
{
	char *got = jh_demangle(mangled);
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_cxx(void **state)
{
	(void)state;
	check("_ZN3foo3barEi", "foo::bar(int)");
	check("_Znwm", "operator new(unsigned long)");
	check("_Znam", "operator new[](unsigned long)");
	check("_ZN3fix6HolderIlE4growEi", "fix::Holder<long>::grow(int)");
	check("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo()");
	check("_ZZ3runRN3fix6HolderIlEEENKUliE_clEi",
	      "run(fix::Holder<long>&)::{lambda(int)#1}::operator()(int) const");
	/* GCC clone suffixes stay as addr2line prints them */
	check("_Z3fooi.cold", "foo(int) [clone .cold]");
	check("_Z3fooi.isra.0", "foo(int) [clone .isra.0]");
	/* return types of templates, no DMGL_VERBOSE expansion of std::allocator */
	check("_ZNSt6vectorIlSaIlEE17_M_realloc_insertIJlEEEvN9__gnu_cxx17__normal_iteratorIPlS1_"
	      "EEDpOT_",
	      "void std::vector<long, std::allocator<long> >::_M_realloc_insert<long>"
	      "(__gnu_cxx::__normal_iterator<long*, std::vector<long, std::allocator<long> > >, "
	      "long&&)");
	check("_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_"
	      "iESt10_"
	      "Select1stIS8_ESt4lessIS5_ESaIS8_EE24_M_get_insert_unique_posERS7_",
	      "std::_Rb_tree<std::__cxx11::basic_string<char, std::char_traits<char>, "
	      "std::allocator<char> >, "
	      "std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, "
	      "std::allocator<char> > const, int>, "
	      "std::_Select1st<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, "
	      "std::allocator<char> > const, int> >, std::less<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> > >, "
	      "std::allocator<std::pair<std::__cxx11::"
	      "basic_string<char, std::char_traits<char>, std::allocator<char> > const, int> > >::"
	      "_M_get_insert_unique_pos(std::__cxx11::basic_string<char, std::char_traits<char>, "
	      "std::allocator<char> > const&)");
}

static void test_rust(void **state)
{
	(void)state;
	/* legacy: the 17h<hash>E tail is dropped */
	check("_ZN4core3ptr13drop_in_place17h0123456789abcdefE", "core::ptr::drop_in_place");
	check("_ZN3std2rt10lang_start17h8d9e2f7c6b5a4321E", "std::rt::lang_start");
	/* v0 */
	check("_RNvCs1234_7mycrate3foo", "mycrate::foo");
	check("_RNvNtCs1234_7mycrate3bar3baz", "mycrate::bar::baz");
	check("_RINvCs1234_7mycrate3fooTlmEEB2_", "mycrate::foo::<(i32, u32)>");
}

static void test_not_mangled(void **state)
{
	(void)state;
	check("main", NULL);
	check("malloc_usable_size", NULL);
	check("__cxa_throw", NULL);
	check("_start", NULL);
	check("", NULL);
	assert_null(jh_demangle(NULL));
	check("_Z", NULL);
}

/* Names nested deeper than libiberty's default recursion limit (boost/spirit
 * sized) come back NULL with PARAMS|ANSI alone; jh_demangle retries. */
static void test_deep(void **state)
{
	(void)state;
	size_t depth = 500;
	char *m = malloc(16 + depth * 7);
	strcpy(m, "_Z1fI");
	char *e = m + strlen(m);
	for (size_t i = 0; i < depth; i++)
		e = stpcpy(e, "N1aI");
	e = stpcpy(e, "i");
	for (size_t i = 0; i < depth; i++)
		e = stpcpy(e, "EE");
	strcpy(e, "Evv");
	assert_null(cplus_demangle(m, DMGL_PARAMS | DMGL_ANSI));
	char *got = jh_demangle(m);
	if (!got)
		free(m);
	assert_non_null(got);
	assert_int_equal(strncmp(got, "void f<a<a<a<", 13), 0);
	/* innermost argument and the closing brackets are all there */
	assert_non_null(strstr(got, "a<int>"));
	size_t closes = 0;
	for (const char *p = got; *p; p++)
		closes += *p == '>';
	assert_int_equal(closes, depth + 1);
	free(got);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cxx),
		cmocka_unit_test(test_rust),
		cmocka_unit_test(test_not_mangled),
		cmocka_unit_test(test_deep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
