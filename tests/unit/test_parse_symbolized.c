/* Symbolized files: jeprof --raw and ClickHouse layouts (spec 4.1-4.3). */
#include "readers_test.h"

static const char body[] = "heap_v2/4096\n"
			   "  t*: 5319: 5809063 [0: 0]\n"
			   "@ 0x55b0b9616425 0x55b0b961674b 0x7f7e5144524a\n"
			   "  t*: 683: 702149 [0: 0]\n"
			   "  t0: 683: 702149 [0: 0]\n"
			   "\n"
			   "MAPPED_LIBRARIES:\n"
			   "55b0b9616000-55b0b9617000 r-xp 00001000 fe:00 5308633 /home/u/src/mt\n";

static void check(const char *text, const char *binary)
{
	struct jh_profile p;
	read_ok(&p, text);
	assert_true(p.has_symbols);
	if (binary)
		assert_string_equal(p.binary, binary);
	else
		assert_null(p.binary);
	assert_int_equal(p.format, JH_FMT_HEAP_V2);
	assert_int_equal(p.nstacks, 1);
	assert_int_equal(p.nmaps, 1);
	/* the body is fixed up as usual; symbol keys are already adjusted */
	uint64_t pcs[3] = { 0x55b0b9616425, 0x55b0b961674a, 0x7f7e51445249 };
	assert_non_null(find_stack(&p, pcs, 3));
	assert_near(p.stacks[0].c.v[JH_INUSE_SPACE], 3163312.87, 0.006);
	assert_string_equal(jh_profile_symbol(&p, pcs[0]), "inlined_caller--inl_helper");
	assert_string_equal(jh_profile_symbol(&p, pcs[1]), "main");
	assert_string_equal(jh_profile_symbol(&p, pcs[2]), "??");
	assert_null(jh_profile_symbol(&p, 0x55b0b961674b));
	jh_profile_release(&p);
}

static void test_clickhouse(void **state)
{
	(void)state;
	char text[4096];
	snprintf(text, sizeof(text),
		 "--- symbol\nbinary=/usr/bin/clickhouse\n"
		 "0x000055b0b9616425 inlined_caller--inl_helper\n"
		 "0x000055b0b961674a main\n"
		 "0x00007f7e51445249 ??\n"
		 "---\n--- heap\n%s",
		 body);
	check(text, "/usr/bin/clickhouse");
}

static void test_jeprof_raw_and_optional_markers(void **state)
{
	(void)state;
	char text[4096];
	/* jeprof --raw: nm-tagged names, unpadded keys, hash order */
	snprintf(text, sizeof(text),
		 "%%warn hello\n--- symbol\nbinary= ./mt \n"
		 "0x7f7e51445249 ??\n"
		 "0x55b0b961674a main\n"
		 "0x55b0b9616425 inlined_caller--inl_helper\n"
		 "---\n--- heap\n%s",
		 body);
	check(text, "./mt");
	/* without the bare "---" */
	snprintf(text, sizeof(text),
		 "---symbols\n0x55b0b961674a main\n0x55b0b9616425 inlined_caller--inl_helper\n"
		 "0x7f7e51445249 ??\n--- heap\n%s",
		 body);
	check(text, NULL);
	/* without "--- heap", CRLF, a blank line and an unknown variable */
	snprintf(text, sizeof(text),
		 "--- symbol\r\nbuild_id=abc\r\n\r\n0x55b0b961674a main\r\n"
		 "0x55b0b9616425 inlined_caller--inl_helper\r\n0x7f7e51445249 ??\r\n---\r\n%s",
		 body);
	check(text, NULL);
}

static void test_later_wins_and_sorted(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p, "--- symbol\n0x30 c\n0x10 a\n0x0000000000000020 b1\n0x20 b2\n0x10 a2\n"
		    "0xffffffffffffffff top\n---\n--- heap\nheap_v2/1\n  t*: 0: 0 [0: 0]\n");
	assert_int_equal(p.nsyms, 4);
	for (size_t i = 1; i < p.nsyms; i++)
		assert_true(p.syms[i - 1].pc < p.syms[i].pc);
	assert_string_equal(jh_profile_symbol(&p, 0x10), "a2");
	assert_string_equal(jh_profile_symbol(&p, 0x20), "b2");
	assert_string_equal(jh_profile_symbol(&p, 0x30), "c");
	assert_string_equal(jh_profile_symbol(&p, UINT64_MAX), "top");
	assert_int_equal(p.nstacks, 0);
	jh_profile_release(&p);
}

static void test_legacy_body(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p,
		"--- symbol\n0x1f Iter::operator--(int)\n---\n--- heap\n"
		"heap profile: 1: 2 [3: 4] @ heapprofile\n100: 102400 [100: 102400] @ 0x10 0x20\n");
	assert_int_equal(p.format, JH_FMT_LEGACY_HEAP);
	assert_true(p.stacks[0].c.v[1] == 102400);
	assert_string_equal(jh_profile_symbol(&p, 0x1f), "Iter::operator--(int)");
	jh_profile_release(&p);
}

static void test_errors(void **state)
{
	(void)state;
	read_err("--- symbol\n0x10 a\n---\n--- heap\nnonsense\n",
		 "t.heap:5: cannot recognize profile section after symbols: 'nonsense'");
	read_err("--- symbol\n0x10 a\n---\n--- heap\n",
		 "t.heap:4: no profile after the symbol section");
	read_err("--- symbol\n0x10 a\n", "t.heap:2: symbol section is not followed by a profile");
	read_err("--- symbol\n0x10\n---\n", "t.heap:2: symbol line without a name '0x10'");
	read_err("--- symbol\n0x123456789abcdef01 x\n---\n",
		 "t.heap:2: address '0x123456789abcdef01' longer than 16 hex digits");
	read_err("--- symbol\n0x10 a\n0x2", "t.heap:3: file ends before the profile");
	read_err("--- symbol\nmain 0x10\n---\n",
		 "t.heap:2: unexpected line in symbol section 'main 0x10'");
	read_err("--- symbol\n---\n--- symbol\n",
		 "t.heap:3: cannot recognize profile section after symbols: '--- symbol'");
	read_err("--- symbol\n---\n--- heap\nheap_v2/1\n@ 0x1\n t*: 1: 1 [1 1]\n",
		 "t.heap:6: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clickhouse),
		cmocka_unit_test(test_jeprof_raw_and_optional_markers),
		cmocka_unit_test(test_later_wins_and_sorted),
		cmocka_unit_test(test_legacy_body),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
