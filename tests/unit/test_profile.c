/* The model (stack interning, thread samples, symbols) and jeprof's totals
 * on generated dumps, with /usr/bin/jeprof as the oracle when installed. */
#include "readers_test.h"

#include <stdio.h>
#include <unistd.h>

static void test_intern(void **state)
{
	(void)state;
	struct jh_profile p;
	jh_profile_init(&p);
	uint64_t a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 }, c[2] = { 1, 2 };
	uint32_t ia = jh_profile_intern_stack(&p, a, 3);
	uint32_t ib = jh_profile_intern_stack(&p, b, 3);
	uint32_t ic = jh_profile_intern_stack(&p, c, 2);
	assert_true(ia != ib && ib != ic && ia != ic);
	assert_int_equal(jh_profile_intern_stack(&p, a, 3), ia);
	assert_int_equal(jh_profile_intern_stack(&p, c, 2), ic);
	/* many stacks: survives rehashing, ids stay stable */
	for (uint64_t i = 0; i < 50000; i++) {
		uint64_t s[2] = { i, i * 7 };
		assert_int_equal(jh_profile_intern_stack(&p, s, 2), i + 3);
	}
	for (uint64_t i = 0; i < 50000; i += 997) {
		uint64_t s[2] = { i, i * 7 };
		assert_int_equal(jh_profile_intern_stack(&p, s, 2), i + 3);
	}
	assert_int_equal(jh_profile_intern_stack(&p, b, 3), ib);
	struct jh_counts k = { { 1, 2, 3, 4 } };
	jh_profile_add(&p, ia, &k);
	jh_profile_add(&p, ia, &k);
	assert_true(p.stacks[ia].c.v[3] == 8 && p.stacks[ib].c.v[3] == 0);

	uint32_t t5 = jh_profile_thread(&p, 5, NULL);
	uint32_t tm = jh_profile_thread(&p, UINT64_MAX, "max");
	assert_int_equal(jh_profile_thread(&p, 5, "five"), t5);
	assert_int_equal(jh_profile_thread(&p, 5, "other"), t5);
	assert_string_equal(p.threads[t5].name, "five");
	assert_int_equal(jh_profile_thread(&p, UINT64_MAX, NULL), tm);
	jh_profile_add_thread(&p, t5, ia, &k);
	jh_profile_add_thread(&p, tm, ia, &k);
	jh_profile_add_thread(&p, t5, ia, &k);
	assert_int_equal(p.ntsamples, 2);
	assert_true(p.tsamples[0].c.v[0] == 2 && p.tsamples[1].c.v[0] == 1);
	jh_profile_release(&p);
}

/* Deterministic pseudo-random dump; legacy != 0 picks the gperftools format. */
static void gen_dump(struct jh_sb *sb, unsigned seed, int legacy, const char *header)
{
	uint64_t x = seed * 2654435761u + 1;
#define RND() (x = x * 6364136223846793005ULL + 1442695040888963407ULL, x >> 33)
	jh_sb_addf(sb, "%s\n", header);
	for (int i = 0; i < 60; i++) {
		int depth = 1 + (int)(RND() % 5);
		struct jh_sb st;
		jh_sb_init(&st);
		for (int j = 0; j < depth; j++)
			jh_sb_addf(&st, " 0x%llx",
				   0x400000ULL + (unsigned long long)(RND() % 40) * 16);
		unsigned long long n = 1 + RND() % 500, size = 8ULL << (RND() % 18);
		unsigned long long an = n + RND() % 50;
		if (legacy) {
			jh_sb_addf(sb, "%llu: %llu [%llu: %llu] @%s\n", n, n * size, an,
				   an * size + RND() % 1000, st.buf);
		} else {
			jh_sb_addf(sb, "@%s\n  t*: %llu: %llu [%llu: %llu]\n", st.buf, n,
				   n * size + RND() % 100, an, an * size);
			jh_sb_addf(sb, "  t%d: %llu: %llu [0: 0]\n", (int)(RND() % 3), n, n * size);
		}
		jh_sb_release(&st);
	}
#undef RND
}

/* Runs jeprof on a symbolized copy of dump and returns its Total: number. */
static long long jeprof_total(const char *dump, const char *value, int bytes)
{
	char path[] = "/tmp/jh_test_profileXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "--- symbol\nbinary=/bin/true\n0x400000 f\n---\n--- heap\n%s", dump);
	fclose(f);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "jeprof --text %s --%s %s 2>/dev/null",
		 bytes ? "--show_bytes" : "", value, path);
	FILE *pp = popen(cmd, "r");
	assert_non_null(pp);
	long long total = -1;
	char line[4096];
	while (fgets(line, sizeof(line), pp))
		if (sscanf(line, "Total: %lld", &total) == 1)
			break;
	while (fgets(line, sizeof(line), pp))
		;
	pclose(pp);
	unlink(path);
	return total;
}

static void test_totals_against_jeprof(void **state)
{
	(void)state;
	if (access("/usr/bin/jeprof", X_OK) != 0)
		skip();
	static const struct {
		int legacy;
		const char *header;
	} cases[] = {
		{ 0, "heap_v2/4096" },
		{ 0, "heap_v2/524288" },
		{ 0, "heap_v2/1" },
		{ 1, "heap profile: 1: 2 [3: 4] @ heap_v2/4096" },
		{ 1, "heap profile: 1: 2 [3: 4] @ heap/1048576" },
		{ 1, "heap profile: 1: 2 [3: 4] @ heapprofile" },
	};
	static const char *values[] = { "inuse_objects", "inuse_space", "alloc_objects",
					"alloc_space" };
	for (size_t c = 0; c < JH_ARRAY_SIZE(cases); c++) {
		struct jh_sb sb;
		jh_sb_init(&sb);
		gen_dump(&sb, (unsigned)c, cases[c].legacy, cases[c].header);
		struct jh_profile p;
		read_ok(&p, sb.buf);
		for (int v = 0; v < JH_NVALUES; v++) {
			double sum = 0;
			for (size_t i = 0; i < p.nstacks; i++)
				sum += p.stacks[i].c.v[v];
			long long want = jeprof_total(sb.buf, values[v], v % 2);
			if ((long long)sum != want)
				fail_msg("%s --%s: jeheap %.3f, jeprof %lld", cases[c].header,
					 values[v], sum, want);
		}
		jh_profile_release(&p);
		jh_sb_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_totals_against_jeprof),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
