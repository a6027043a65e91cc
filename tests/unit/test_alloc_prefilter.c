/* test_alloc_prefilter.c - jh_may_be_allocator_name (analyse_skip.c) is
 * exact: when it says 0, jh_is_allocator_name of the short name is 0.
 * Checked on fixed tricky names and on many random ones built around the
 * listed names, against jh_short_function_name + jh_is_allocator_name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse_internal.h"

/* Whether the short name of full is an allocator's; fails the test when
 * the prefilter ruled it out. */
static int check_one(struct jh_sb *sb, const char *full)
{
	jh_sb_reset(sb);
	jh_short_function_name(sb, full);
	int alloc = jh_is_allocator_name(sb->buf);
	int may = jh_may_be_allocator_name(full);
	if (alloc && !may)
		print_error("prefilter said no to '%s' (short name '%s', an allocator)\n", full,
			    sb->buf);
	assert_true(!alloc || may);
	return alloc;
}

/* Names whose short name is an allocator's in unusual ways, and names
 * that are not. */
static void test_fixed(void **state)
{
	(void)state;
	static const char *const allocs[] = {
		"malloc", "_malloc", "malloc(unsigned long)", "void* newImpl<false>(unsigned long)",
		"operator new(unsigned long)", "operator new[](unsigned long, std::nothrow_t const&)",
		"(anonymous namespace)::do_malloc(int)", "::do_malloc()",
		"mal(x)loc", "mal<x>loc(int) const", "mallo(a(b)c)c", "m(x) constalloc",
		"_(x)malloc", "_<y>m(z)alloc<w>", "je_prof_backtrace()", "prof_backtrace_impl()",
		"tcmalloc::x", "tcmalloc::Foo<int>::bar(int) const", "void tc(x)malloc::f()",
		"a<TCMalloc>b::TCMalloc_Thing()", "x::TC(a)Malloc::y", "T<b>CMalloc",
		"std::__1::TCMalloc<int>::alloc(int)", "(a(x))co(y)nstmalloc",
		"char* simple_alloc::allocate(unsigned long)", "__malloc_alloc_template<0>::allocate(int)",
		"je_malloc_default(unsigned long)", "imalloc_body<(bool)0>(x*)",
		"malloc()const", "free()  const", "realloc(void*, unsigned long)\tconst",
		"void* fallbackNewImpl<false>(unsigned long)",
		"operator new[]", "calloc(c(x)onst)", "(x)malloc", "<x>malloc",
	};
	static const char *const others[] = {
		"DB::Foo<int>::bar(int) const", "std::vector<long, std::allocator<long> >::reserve(unsigned long)",
		"DB::IAST::clone() const", "std::__1::basic_string<char, std::__1::char_traits<char> >::append(char const*)",
		"rocksdb::Arena<DB::ThreadPoolImpl<DB::Context> >::write(DB::Block const&)",
		"operator()", "operator<", "DB::x::operator()(int) const", "a::operator<(a const&)",
		"DB::IAST<int>::x()", "Context<int>::list<long>::run()", "",
	};
	struct jh_sb sb;
	jh_sb_init(&sb);
	for (size_t i = 0; i < JH_ARRAY_SIZE(allocs); i++) {
		if (!check_one(&sb, allocs[i]))
			print_error("'%s' (short '%s') is not an allocator\n", allocs[i], sb.buf);
		assert_true(check_one(&sb, allocs[i]));
	}
	/* the prefilter rules these out (it is no use otherwise) */
	for (size_t i = 0; i < JH_ARRAY_SIZE(others); i++) {
		assert_false(check_one(&sb, others[i]));
		if (jh_may_be_allocator_name(others[i]))
			print_error("prefilter passes '%s'\n", others[i]);
		assert_false(jh_may_be_allocator_name(others[i]));
	}
	jh_sb_release(&sb);
}

static const char *pick(const char *const *v, size_t n)
{
	return v[lrand48() % (long)n];
}

/* Deleted groups and other material put between the pieces of a name. */
static const char *const groups[] = {
	"(x)", "<y>", "()", "<>", "(a<b)", "<a(b>", "() const", "()const", "(int)\tconst",
	"(a(b)c)", "<a<b>c>", "(unsigned long)", "<false>", "(x)<y>", "<(>", "(<)", ")", ">",
	"(", "<", " ", "::", "_", "t", "c", "m", "const", "co(x)nst", "cons(y)t", "(x) co(y)nst",
	"(z)const", "T", "C", "M", "x", ",", "*", "&", "\t", "[abi:cxx11]", "operator()",
	"operator<", "operator<<", "(anonymous namespace)::", "{lambda(int)#1}",
};

/* What comes before a name. */
static const char *const prefixes[] = {
	"", "", "", "void* ", "int ", "ns::", "a<b>::", "(anonymous namespace)::", "x y ",
	"std::vector<int, std::allocator<int> >::", "unsigned long ", "f() ", "T", "t", "TC",
	"tc", " ", "(x)", "<y>", "a::b c::", "const ", "x const ", ")", ">",
};

/* What comes after a name. */
static const char *const suffixes[] = {
	"", "", "()", "(unsigned long)", "<false>(unsigned long)", "(int) const", "(x)<y>",
	"<a, b<c> >::d", "(a, b)  const volatile", "::x", " const", "_", "x", "(", "<",
	")", ">", "(x)co(y)nst", "() cons(t)", "[]", "<TCMalloc>", "(TCMalloc)", "::TCMalloc",
	"Malloc", "malloc::", "(tcmalloc::x)",
};

/* 100 harmless characters. */
static const char pad[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

/* A listed name (or a TCMalloc one) cut into pieces with groups and junk
 * between them, a prefix and a suffix. */
static void random_name(struct jh_sb *out, const char *const *names, size_t nnames)
{
	static const char *const tc[] = {"TCMalloc", "tcmalloc::", "tcmalloc::x", "xTCMallocy"};
	const char *name = lrand48() % 8 ? pick(names, nnames) : pick(tc, JH_ARRAY_SIZE(tc));
	if (lrand48() % 2) /* a group that vanishes: the rest moves across the scan's blocks */
		jh_sb_addf(out, "(%.*s)", (int)(lrand48() % 100), pad);
	jh_sb_adds(out, pick(prefixes, JH_ARRAY_SIZE(prefixes)));
	if (lrand48() % 4 == 0)
		jh_sb_addc(out, '_');
	size_t n = strlen(name);
	long cuts = lrand48() % 4;
	for (size_t i = 0; i < n; i++) {
		jh_sb_addc(out, name[i]);
		if (cuts > 0 && lrand48() % (long)n < cuts) {
			/* mostly groups that vanish, sometimes junk that stays */
			for (long k = 1 + lrand48() % 2; k > 0; k--)
				jh_sb_adds(out, lrand48() % 4 ? pick(groups, 12)
							  : pick(groups, JH_ARRAY_SIZE(groups)));
		}
	}
	for (long k = lrand48() % 3; k > 0; k--)
		jh_sb_adds(out, pick(suffixes, JH_ARRAY_SIZE(suffixes)));
	if (lrand48() % 2)
		jh_sb_addf(out, "<%.*s>", (int)(lrand48() % 100), pad);
}

/* Token soup: brackets, "const" parts, name parts and whitespace. */
static void random_soup(struct jh_sb *out, const char *const *names, size_t nnames)
{
	for (long k = lrand48() % 14; k > 0; k--) {
		long r = lrand48() % 10;
		if (r < 2) {
			const char *name = pick(names, nnames);
			size_t n = strlen(name), a = (size_t)lrand48() % (n + 1);
			size_t b = a + (size_t)lrand48() % (n - a + 1);
			jh_sb_add(out, name + a, b - a);
		} else if (r < 8) {
			jh_sb_adds(out, pick(groups, JH_ARRAY_SIZE(groups)));
		} else {
			jh_sb_adds(out, pick(suffixes, JH_ARRAY_SIZE(suffixes)));
		}
	}
}

static void test_random(void **state)
{
	(void)state;
	size_t nnames;
	const char *const *names = jh_allocator_names(&nnames);
	struct jh_sb full, sb;
	jh_sb_init(&full);
	jh_sb_init(&sb);
	srand48(11);
	enum { N = 400000 };
	size_t allocs = 0, said_no = 0;
	for (long i = 0; i < N; i++) {
		jh_sb_reset(&full);
		if (i % 2)
			random_name(&full, names, nnames);
		else
			random_soup(&full, names, nnames);
		allocs += (size_t)check_one(&sb, full.buf);
		said_no += !jh_may_be_allocator_name(full.buf);
	}
	print_message("%d names: %zu allocators, prefilter no to %zu\n", N, allocs, said_no);
	/* the generator makes both kinds in numbers */
	assert_true(allocs > N / 20);
	assert_true(said_no > N / 20);
	jh_sb_release(&full);
	jh_sb_release(&sb);
}

/* jh_is_allocator_name against a plain reading of its rule: a listed name,
 * '_' and one, or "TCMalloc" inside, or "tcmalloc::" first. */
static int is_allocator_ref(const char *s, const char *const *names, size_t nnames)
{
	for (size_t i = 0; i < nnames; i++)
		if (!strcmp(s, names[i]) || (s[0] == '_' && !strcmp(s + 1, names[i])))
			return 1;
	return strstr(s, "TCMalloc") || !strncmp(s, "tcmalloc::", 10);
}

static void test_is_allocator_name(void **state)
{
	(void)state;
	size_t nnames;
	const char *const *names = jh_allocator_names(&nnames);
	static const char *const around[] = {"", "", "_", "__", "x", ":", " ", "::", "a_", "t"};
	struct jh_sb sb, full;
	jh_sb_init(&sb);
	jh_sb_init(&full);
	srand48(3);
	size_t yes = 0;
	for (long i = 0; i < 200000; i++) {
		jh_sb_reset(&sb);
		if (i % 2) { /* a listed name, perhaps cut or with more around it */
			const char *name = pick(names, nnames);
			size_t n = strlen(name), a = lrand48() % 4 ? 0 : (size_t)lrand48() % (n + 1);
			size_t b = lrand48() % 4 ? n : a + (size_t)lrand48() % (n - a + 1);
			jh_sb_adds(&sb, pick(around, JH_ARRAY_SIZE(around)));
			jh_sb_add(&sb, name + a, b - a);
			jh_sb_adds(&sb, pick(around, JH_ARRAY_SIZE(around)));
		} else { /* the short name of a random one */
			jh_sb_reset(&full);
			random_name(&full, names, nnames);
			jh_short_function_name(&sb, full.buf);
		}
		int want = is_allocator_ref(sb.buf, names, nnames);
		if (jh_is_allocator_name(sb.buf) != want)
			print_error("jh_is_allocator_name('%s') != %d\n", sb.buf, want);
		assert_int_equal(jh_is_allocator_name(sb.buf), want);
		yes += (size_t)want;
	}
	assert_true(yes > 20000);
	jh_sb_release(&sb);
	jh_sb_release(&full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_is_allocator_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
