/* test_names.c - jeprof's ShortFunctionName (docs/jeprof.md §2) and
 * the per-output frame names of names.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/names.h"

static void check_short(const char *full, const char *want)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_short_function_name(&sb, full);
	if (strcmp(sb.buf, want))
		print_error("ShortFunctionName(%s) = '%s', want '%s'\n", full, sb.buf, want);
	assert_string_equal(sb.buf, want);
	jh_sb_release(&sb);
}

/* Short names as jeprof makes them (docs/jeprof.md §2), each checked with jeprof's Perl. */
static void test_spec_examples(void **state)
{
	(void)state;
	check_short("void std::vector<long, std::allocator<long> >::_M_realloc_insert<long>"
		    "(__gnu_cxx::__normal_iterator<long*, std::vector<long, std::allocator<long> > "
		    ">, long&&)",
		    "std::vector::_M_realloc_insert");
	check_short("DB::Foo::bar(int) const", "DB::Foo::bar");
	check_short("operator new[](unsigned long)", "operator new[]");
	check_short("main<0000000000001110>", "main");
	check_short("ns::makeMap[abi:cxx11](int)", "ns::makeMap[abi:cxx11]");
	check_short("DB::f()::{lambda(int)#1}::operator()(int) const",
		    "DB::f::{lambda#1}::operator");
	check_short("std::operator<< <char>(std::ostream&, char const*)", "std::operator<< ");
	check_short("int (anonymous namespace)::foo(int)", "int ::foo");
	check_short("void* newImpl<false>(unsigned long)", "void* newImpl");
	check_short("std::__throw_ios_failure(char const*, int)@@GLIBCXX_3.4.26<00000000000a0a67>",
		    "std::__throw_ios_failure@@GLIBCXX_3.4.26");
}

/* The regex details: nested groups need several passes, "const" may follow
 * after whitespace, the return type goes only before "word::". */
static void test_details(void **state)
{
	(void)state;
	check_short("f(g(int))", "f");
	check_short("a<b<c<d>>>::e()", "a::e");
	check_short("x() const", "x");
	check_short("x()const", "x");
	check_short("x()   const volatile", "x volatile");
	check_short("unsigned long ns::f(int)", "ns::f");
	check_short("unsigned long f(int)", "unsigned long f");
	check_short("a b::c d::e", "d::e");
	check_short("malloc", "malloc");
	check_short("", "");
	check_short("Iter::operator", "Iter::operator");
	check_short("(int)", "");
	check_short("f(", "f(");
	check_short("f)", "f)");
	check_short("ns::Box<long>::fill(unsigned long)", "ns::Box::fill");
	check_short("long& std::vector<long, std::allocator<long> >::emplace_back<long>(long&&)",
		    "std::vector::emplace_back");
}

/* The double-"const" case where one pass over a bracket stack differs
 * from Perl's repeated innermost deletion (verified in Perl). */
static void test_double_const(void **state)
{
	(void)state;
	check_short("(())()constconst>>", ">>");
	check_short("<(()\t)()const const() ", "< ");
	check_short("f(g()) () const const", "f");
	/* deleting a group makes a "const" that an outer group eats later */
	check_short("(a(x))co(y)nstmalloc", "malloc");
	check_short("f(a(x)) co(y)n(z)st", "f");
}

/* Random strings of brackets, spaces, "const" and "::" against jeprof's
 * Perl code itself (skipped when perl is missing). */
static void test_against_perl(void **state)
{
	(void)state;
	if (system("perl -e 1 2>/dev/null") != 0) {
		print_message("perl not found: skipped\n");
		return;
	}
	static const char *const toks[] = { "(",      ")",          "<",   ">",    " ",
					    "a",      "b",          "::",  "x::",  "\t",
					    "()",     "<>",         "((",  ")) ",  "w ",
					    "const",  " const",     "co",  "cons", "nst",
					    "t",      "c",          "(x)", "onst", "co(x)nst",
					    "(a(x))", "c(x)o(y)nst" };
	char in[] = "/tmp/jh_sfn_XXXXXX";
	int fd = mkstemp(in);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	struct jh_sb want;
	jh_sb_init(&want);
	srand48(5);
	enum { N = 20000 };
	char *lines[N];
	for (int i = 0; i < N; i++) {
		struct jh_sb l;
		jh_sb_init(&l);
		for (long k = lrand48() % 16; k > 0; k--)
			jh_sb_adds(&l, toks[lrand48() % JH_ARRAY_SIZE(toks)]);
		fprintf(f, "%s\n", l.buf);
		lines[i] = jh_sb_detach(&l);
	}
	fclose(f);
	char cmd[256];
	snprintf(cmd, sizeof(cmd),
		 "perl -ne 'chomp; while (s/\\([^()]*\\)(\\s*const)?//g) {} "
		 "while (s/<[^<>]*>//g) {} s/^.*\\s+(\\w+::)/$1/; print \"$_\\n\"' %s",
		 in);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *buf = NULL;
	size_t cap = 0;
	for (int i = 0; i < N; i++) {
		ssize_t n = getline(&buf, &cap, p);
		assert_true(n > 0);
		buf[n - 1] = 0;
		jh_sb_reset(&want);
		jh_short_function_name(&want, lines[i]);
		if (strcmp(want.buf, buf))
			print_error("'%s': jeheap '%s', perl '%s'\n", lines[i], want.buf, buf);
		assert_string_equal(want.buf, buf);
		free(lines[i]);
	}
	free(buf);
	assert_int_equal(pclose(p), 0);
	unlink(in);
	jh_sb_release(&want);
}

static void test_namer_cache(void **state)
{
	(void)state;
	struct jh_intern in;
	jh_intern_init(&in);
	struct jh_namer n;
	jh_namer_init(&n, &in);
	const char *full = jh_intern(&in, "DB::Foo::bar(int) const");
	const char *a = jh_namer_short(&n, full);
	const char *b = jh_namer_short(&n, full);
	assert_string_equal(a, "DB::Foo::bar");
	assert_ptr_equal(a, b);
	assert_ptr_equal(a, jh_intern(&in, "DB::Foo::bar"));
	jh_namer_release(&n);
	jh_intern_release(&in);
}

static void test_location_names(void **state)
{
	(void)state;
	struct jh_model m;
	memset(&m, 0, sizeof(m));
	jh_intern_init(&m.names);
	struct jh_frame fr[4] = {
		{ jh_intern(&m.names, "outer(int)"), NULL, 0, 0 },
		{ NULL, NULL, 0, 0 },
		{ jh_intern(&m.names, "a;b\nc"), NULL, 0, 0 },
		{ NULL, jh_intern(&m.names, "/src/x.c"), 12, 0 },
	};
	m.frames.items = fr;
	m.frames.nr = 4;
	struct jh_sb sb;
	jh_sb_init(&sb);

	struct jh_location emb = {
		.pc = 0x1234, .status = JH_SYM_EMBEDDED, .first = 0, .nframes = 3
	};
	jh_collapsed_name(&sb, &m, &emb);
	assert_string_equal(sb.buf, "outer(int);??:0[inline];a:b\\nc[inline]");

	jh_sb_reset(&sb);
	jh_frame_fileline(&sb, &m, &emb, 0);
	assert_string_equal(sb.buf, "?");

	struct jh_location full = { .pc = 0x1234, .status = JH_SYM_FULL, .first = 3, .nframes = 1 };
	jh_sb_reset(&sb);
	jh_frame_fileline(&sb, &m, &full, 0);
	assert_string_equal(sb.buf, "/src/x.c:12");
	jh_sb_reset(&sb);
	jh_collapsed_name(&sb, &m, &full);
	assert_string_equal(sb.buf, "/src/x.c:12");

	struct jh_location unk = { .pc = 0x7f00001234,
				   .module = "/usr/lib/libfoo.so.1",
				   .modaddr = 0x1234,
				   .status = JH_SYM_UNKNOWN };
	jh_sb_reset(&sb);
	jh_unknown_name(&sb, &unk);
	assert_string_equal(sb.buf, "libfoo.so.1+0x1234");
	unk.module = NULL;
	jh_sb_reset(&sb);
	jh_collapsed_name(&sb, &m, &unk);
	assert_string_equal(sb.buf, "0000007f00001234");

	jh_sb_release(&sb);
	jh_intern_release(&m.names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_examples), cmocka_unit_test(test_details),
		cmocka_unit_test(test_double_const),  cmocka_unit_test(test_against_perl),
		cmocka_unit_test(test_namer_cache),   cmocka_unit_test(test_location_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
