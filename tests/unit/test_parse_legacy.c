/* gperftools "heap profile:" reader: the sampling rules of spec 3.1. */
#include "readers_test.h"

#include <math.h>

/* Spec 3.1 table: record "100: 102400", value shown by jeprof --show_bytes. */
static const struct {
	const char *header;
	long long shown;
	uint64_t period;
} table31[] = {
	{ "heap profile: 1: 2 [3: 4] @ heap_v2/4096", 462931, 4096 },
	{ "heap profile: 1: 2 [3: 4] @ heap_v2", 13158466, 131072 },
	{ "heap profile: 1: 2 [3: 4] @ heap/8192", 409600, 4096 },
	{ "heap profile: 1: 2 [3: 4] @ heapprofile", 102400, 0 },
	{ "heap profile: 1: 2 [3: 4] @ growthz", 102400, 0 },
	{ "heap profile:   100:   102400 [   100:   102400]", 13107200, 131072 },
	{ "heap profile: 100: 102400 [200: 204800]", 102400, 0 },
	{ "heap profile: 1: 2 [3: 4] @ heap_v2/0", 13158466, 131072 }, /* 0 = default */
};

static void test_spec_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < JH_ARRAY_SIZE(table31); i++) {
		char text[512];
		snprintf(text, sizeof(text), "%s\n100: 102400 [100: 102400] @ 0x10 0x20\n",
			 table31[i].header);
		struct jh_profile p;
		read_ok(&p, text);
		assert_int_equal(p.format, JH_FMT_LEGACY_HEAP);
		assert_int_equal(p.nstacks, 1);
		assert_int_equal(p.period, table31[i].period);
		uint64_t pcs[2] = { 0x10, 0x1f };
		const struct jh_stack *s = find_stack(&p, pcs, 2);
		assert_non_null(s);
		if ((long long)s->c.v[JH_INUSE_SPACE] != table31[i].shown)
			fail_msg("%s: %f, expected %lld", table31[i].header, s->c.v[JH_INUSE_SPACE],
				 table31[i].shown);
		/* in-use and alloc pairs are corrected alike */
		assert_true(s->c.v[JH_ALLOC_SPACE] == s->c.v[JH_INUSE_SPACE]);
		assert_int_equal(p.nthreads, 0);
		jh_profile_release(&p);
	}
}

static void test_v1_arithmetic(void **state)
{
	(void)state;
	struct jh_profile p;
	/* ratio = (s/n)/A with A = period/2 (a double); only ratio < 1 scales */
	read_ok(&p, "heap profile: 1: 2 [3: 4] @ heap/8191\n"
		    "3: 300 [7: 100000] @ 0x1\n"
		    "MAPPED_LIBRARIES:\n00400000-00401000 r-xp 00000000 08:01 1 /bin/x\n");
	double ratio = ((300 * 1.0) / 3) / (8191 / 2.0);
	assert_true(p.stacks[0].c.v[0] == 3 / ratio && p.stacks[0].c.v[1] == 300 / ratio);
	assert_true(p.stacks[0].c.v[2] == 7 && p.stacks[0].c.v[3] == 100000);
	assert_int_equal(p.nmaps, 1);
	jh_profile_release(&p);

	/* records of one stack are summed; 0 objects with 0 bytes stays 0 */
	read_ok(&p, "heap profile: 1: 2 [3: 4] @ heap/8192\n"
		    "0: 0 [1: 10000] @ 0x1 0x2\n"
		    "\t1:  10000\t[ 1: 10000]  @  0x1   0x2\n");
	assert_int_equal(p.nstacks, 1);
	assert_true(p.stacks[0].c.v[0] == 1 && p.stacks[0].c.v[2] == 2);
	jh_profile_release(&p);
}

/* Headers only Go's pprof reads (heapHeaderRE): pprof's sampling, each
 * value truncated (scaleHeapSample); '#' lines are comments; "@" without
 * addresses is a sample without a stack. */
static void test_pprof_forms(void **state)
{
	(void)state;
	static const struct {
		const char *header;
		double period;
	} h[] = {
		{ "heap profile: 2: 1024 [ 2: 1024 ] @ heap_v2/111222", 111222 },
		{ "heap profile: 2:1024 [2:1024] @heapz_v2/111222", 111222 },
		{ "heap profile: 2: 1024[2: 1024] @ heap/222444", 111222 },
		{ "heap profile: 2: 1024 [2: 1024 ] @ heapprofile", 0 },
		{ "heap profile: 2: 1024 [2: 1024 ] @ growthz", 0 },
	};
	for (size_t i = 0; i < JH_ARRAY_SIZE(h); i++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "# a comment\n%s\n# another\n  3: 1536 [ 4: 2048 ] @ 0x10 0x21\n"
			 "  #\t0x10 f\n1: 512 [ 1: 512 ] @\n",
			 h[i].header);
		struct jh_profile p;
		read_ok(&p, text);
		double scale = 1, scale1 = 1;
		if (h[i].period > 1) {
			scale = 1 / (1 - exp(-512 / h[i].period));
			scale1 = scale;
		}
		uint64_t pcs[] = { 0x10, 0x20 }, none[] = { JH_NO_STACK_PC };
		const struct jh_stack *st = find_stack(&p, pcs, 2);
		assert_non_null(st);
		assert_true(st->c.v[JH_INUSE_OBJECTS] == trunc(3 * scale));
		assert_true(st->c.v[JH_INUSE_SPACE] == trunc(1536 * scale));
		assert_true(st->c.v[JH_ALLOC_SPACE] == trunc(2048 * scale));
		assert_true(p.no_stack);
		st = find_stack(&p, none, 1);
		assert_non_null(st);
		assert_true(st->c.v[JH_INUSE_SPACE] == trunc(512 * scale1));
		assert_true(p.total.v[JH_INUSE_SPACE] == trunc(1536 * scale) + trunc(512 * scale1));
		jh_profile_release(&p);
	}
}

static void test_errors(void **state)
{
	(void)state;
	read_err("heap profile: x\n",
		 "t.heap:1: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap profile: CORRRUPTED: 2 [3: 4] @ heap_v2/8192\n",
		 "t.heap:1: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap profile: 1: 2 [ 3: 4 ] @ heapx/8192\n",
		 "t.heap:1: unknown heap profile type 'heapx'");
	read_err("heap profile: 1:2 [3: 4] heap_v2/8192\n",
		 "t.heap:1: bad heap profile header: expected '@ <type>' after the counts");
	read_err("heap profile: 1: 2 [3: 4] @ heap/8192\n1: 2 [3: 4] @ 0x1\n#c\n1: 2 [3: -4] @ "
		 "0x1\n",
		 "t.heap:4: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap profile: 1: 2 [3: 4] @ heap/8192\n5: 0 [5: 100] @ 0x1\n",
		 "t.heap:2: 5 objects with 0 bytes");
	read_err("heap profile: 1: 2 [3: 4] @ heap/8192\n0: 10 [5: 100] @ 0x1\n",
		 "t.heap:2: 10 bytes in 0 objects");
	read_err("heap profile: 1: 2 [3: 4] @ heap_v2/8192\n1: 10 [1: 10]\n",
		 "t.heap:2: bad record: expected ' @ <addresses>' after the counts");
	read_err("heap profile: 1: 2 [3: 4]\n1: 10 [1: 10] @ 0x1 zz\n",
		 "t.heap:2: bad address 'zz'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_table),
		cmocka_unit_test(test_v1_arithmetic),
		cmocka_unit_test(test_pprof_forms),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
