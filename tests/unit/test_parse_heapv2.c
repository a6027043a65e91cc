/* heap_v2 reader: jeprof's numbers (spec 2.3), threads, fix-up, maps, strictness. */
#include "readers_test.h"

/* Spec 2.3 (dumps/mt.after.heap, P = 4096): raw t* line -> jeprof's float values. */
static const struct {
	const char *line;
	double objs, bytes;
	long long shown; /* --show_bytes prints the truncated value */
} table23[] = {
	{ "200: 11468790", 200.000, 11468799.54, 11468799 },
	{ "683: 702149", 3077.04, 3163312.87, 3163312 },
	{ "294: 18816", 18963.38, 1213656.50, 1213656 },
	{ "8: 8388608", 8, 8388608, 8388608 },
	{ "1: 20485", 1.007, 20623.79, 20623 },
};

static void test_spec_table(void **state)
{
	(void)state;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_sb_adds(&sb, "heap_v2/4096\n  t*: 5319: 5809063 [0: 0]\n");
	for (size_t i = 0; i < JH_ARRAY_SIZE(table23); i++)
		jh_sb_addf(&sb, "@ 0x%zx 0x55b0b961674b\n  t*: %s [0: 0]\n", 0x100 + i,
			   table23[i].line);
	struct jh_profile p;
	read_ok(&p, sb.buf);
	assert_int_equal(p.format, JH_FMT_HEAP_V2);
	assert_int_equal(p.period, 4096);
	assert_int_equal(p.nstacks, JH_ARRAY_SIZE(table23));
	for (size_t i = 0; i < JH_ARRAY_SIZE(table23); i++) {
		uint64_t pcs[2] = { 0x100 + i, 0x55b0b961674a };
		const struct jh_stack *s = find_stack(&p, pcs, 2);
		assert_non_null(s);
		assert_near(s->c.v[JH_INUSE_OBJECTS], table23[i].objs, 0.006);
		assert_near(s->c.v[JH_INUSE_SPACE], table23[i].bytes, 0.006);
		assert_int_equal((long long)s->c.v[JH_INUSE_SPACE], table23[i].shown);
		assert_true(s->c.v[JH_ALLOC_OBJECTS] == 0 && s->c.v[JH_ALLOC_SPACE] == 0);
	}
	jh_profile_release(&p);
	jh_sb_release(&sb);
}

/* The factor is computed per line in double, exactly as jeprof's AdjustSamples. */
static void test_formula_exact(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p, "heap_v2/524288\n@ 0x1\n  t*: 3: 1000 [7: 90000]\n");
	double r1 = ((1000 * 1.0) / 3) / 524288, f1 = 1 / (1 - exp(-r1));
	double r2 = ((90000 * 1.0) / 7) / 524288, f2 = 1 / (1 - exp(-r2));
	const struct jh_counts *c = &p.stacks[0].c;
	assert_true(c->v[0] == 3 * f1 && c->v[1] == 1000 * f1);
	assert_true(c->v[2] == 7 * f2 && c->v[3] == 90000 * f2);
	jh_profile_release(&p);

	/* heap_v2/0: no correction; 0 objects: untouched */
	read_ok(&p, "heap_v2/0\n@ 0x1\n  t*: 3: 1000 [0: 0]\n");
	assert_true(p.stacks[0].c.v[0] == 3 && p.stacks[0].c.v[1] == 1000);
	jh_profile_release(&p);
	read_ok(&p, "heap_v2/4096\n@ 0x1\n  t*: 0: 1000 [0: 0]\n");
	assert_true(p.stacks[0].c.v[0] == 0 && p.stacks[0].c.v[1] == 1000);
	jh_profile_release(&p);
}

static void test_threads(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p, "heap_v2/0\n"
		    "  t*: 10: 100 [0: 0]\n"
		    "  t0: 5: 50 [0: 0] main\n"
		    "  t3: 5: 50 [0: 0]   my worker  \n"
		    "@ 0x10 0x20\n"
		    "  t*: 2: 20 [0: 0]\n"
		    "  t0: 1: 10 [0: 0]\n"
		    "  t3: 1: 10 [0: 0]\n"
		    "@ 0x11 0x21\n"
		    "  t*: 1: 10 [0: 0]\n"
		    "  t7: 1: 10 [0: 0]\n"
		    "@ 0x10 0x20\n" /* same stack again: summed */
		    "  t*: 4: 40 [0: 0]\n"
		    "  t3: 4: 40 [0: 0]\n");
	assert_int_equal(p.nthreads, 3);
	assert_int_equal(p.threads[0].uid, 0);
	assert_string_equal(p.threads[0].name, "main");
	assert_int_equal(p.threads[1].uid, 3);
	assert_string_equal(p.threads[1].name, "my worker");
	assert_int_equal(p.threads[2].uid, 7);
	assert_null(p.threads[2].name);
	assert_int_equal(p.nstacks, 2);
	uint64_t a[2] = { 0x10, 0x1f };
	const struct jh_stack *s = find_stack(&p, a, 2);
	assert_non_null(s);
	assert_true(s->c.v[0] == 6 && s->c.v[1] == 60);
	assert_int_equal(p.ntsamples, 3);
	uint32_t sid = (uint32_t)(s - p.stacks);
	for (size_t i = 0; i < p.ntsamples; i++) {
		const struct jh_tsample *t = &p.tsamples[i];
		uint64_t uid = p.threads[t->thread].uid;
		if (t->stack == sid && uid == 3)
			assert_true(t->c.v[0] == 5 && t->c.v[1] == 50);
		else if (t->stack == sid && uid == 0)
			assert_true(t->c.v[0] == 1);
		else
			assert_true(uid == 7 && t->stack != sid && t->c.v[1] == 10);
	}
	jh_profile_release(&p);
}

static void test_fixup_and_addresses(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p, "heap_v2/1\n"
		    "@ 55b0b961674b 0x0 0X00000000000000000000000ABC ffffffffff600010\n"
		    "  t*: 1: 8 [0: 0]\n");
	uint64_t want[4] = { 0x55b0b961674b, UINT64_MAX, 0xabb, 0xffffffffff60000f };
	assert_non_null(find_stack(&p, want, 4));
	jh_profile_release(&p);
}

/* Addresses of every length, case and prefix against strtoull. */
static void test_hex_lengths(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ULL;
	for (int round = 0; round < 200; round++) {
		struct jh_sb sb;
		jh_sb_init(&sb);
		jh_sb_adds(&sb, "heap_v2/0\n@");
		uint64_t want[40];
		int n = 1 + round % 40;
		for (int i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int digits = 1 + (int)((x >> 3) % 16);
			uint64_t v = digits == 16 ? x : x & ((1ULL << (4 * digits)) - 1);
			char hex[40];
			snprintf(hex, sizeof(hex), (x & 1) ? "%llX" : "%llx",
				 (unsigned long long)v);
			want[i] = strtoull(hex, NULL, 16) - (i != 0);
			jh_sb_addf(&sb, "%s%s%s", (x & 2) ? " " : "\t ", (x & 4) ? "0x" : "", hex);
		}
		jh_sb_adds(&sb, (round & 1) ? "\n  t*: 1: 1 [0: 0]\n" : "\n  t*: 1: 1 [0: 0]");
		struct jh_profile p;
		read_ok(&p, sb.buf);
		assert_int_equal(p.nstacks, 1);
		assert_int_equal(p.stacks[0].len, n);
		assert_memory_equal(p.pcs, want, (size_t)n * 8);
		jh_profile_release(&p);
		jh_sb_release(&sb);
	}
}

static void test_whitespace_crlf_and_extras(void **state)
{
	(void)state;
	struct jh_profile a, b;
	read_ok(&a,
		"heap_v2/4096\n@ 0x10 0x20\n  t*: 683: 702149 [0: 0]\n  t1: 683: 702149 [0: 0]\n"
		"MAPPED_LIBRARIES:\n"
		"55b0b9616000-55b0b9617000 r-xp 00001000 fe:00 5308633   /home/u/src/mt\n");
	read_ok(&b, "<jemalloc>: Invalid conf pair\r\n"
		    "heap_v2/4096\r\n\r\n"
		    "@\t0x10    0x20  \r\n"
		    "\tt*:\t683:  702149\t[   0:\t0]\r\n"
		    "    f: 12345 1000 1024 14 0 1\r\n"
		    "<jemalloc>: something\r\n"
		    "  t1: 683: 702149 [0: 0]\r\n"
		    "MAPPED_LIBRARIES:\r\n"
		    "55b0b9616000-55b0b9617000 r-xp 00001000 fe:00 5308633   /home/u/src/mt\r\n");
	assert_int_equal(a.nstacks, 1);
	assert_int_equal(b.nstacks, 1);
	assert_memory_equal(&a.stacks[0].c, &b.stacks[0].c, sizeof(struct jh_counts));
	assert_memory_equal(&a.tsamples[0].c, &b.tsamples[0].c, sizeof(struct jh_counts));
	assert_int_equal(b.nmaps, 1);
	assert_string_equal(b.maps[0].path, "/home/u/src/mt");
	jh_profile_release(&a);
	jh_profile_release(&b);
}

static void test_maps(void **state)
{
	(void)state;
	struct jh_profile p;
	read_ok(&p, "heap_v2/1\n@ 0x1\n  t*: 1: 8 [0: 0]\n\nMAPPED_LIBRARIES:\n"
		    "55b0b9615000-55b0b9616000 r--p 00000000 fe:00 5308633                    "
		    "/home/u/my dir/mt\n"
		    "7f7e51609000-7f7e516af000 r-xp 00009000 fe:00 14884916 "
		    "/usr/lib/libjemalloc.so.2 (deleted)\n"
		    "7f7e516af000-7f7e516b0000 rw-p 00000000 00:00 0 \n"
		    "\n"
		    "7ffd1c3f2000-7ffd1c3f4000 r-xp 00000000 00:00 0                          "
		    "[vdso]\n");
	assert_int_equal(p.nmaps, 4);
	assert_true(p.maps[0].start == 0x55b0b9615000 && p.maps[0].end == 0x55b0b9616000);
	assert_string_equal(p.maps[0].perms, "r--p");
	assert_string_equal(p.maps[0].path, "/home/u/my dir/mt");
	assert_int_equal(p.maps[1].offset, 0x9000);
	assert_true(p.maps[1].deleted);
	assert_string_equal(p.maps[1].path, "/usr/lib/libjemalloc.so.2");
	assert_string_equal(p.maps[2].path, "");
	assert_false(p.maps[2].deleted);
	assert_string_equal(p.maps[3].path, "[vdso]");
	jh_profile_release(&p);

	/* "--- Memory map:" with build= */
	read_ok(&p, "heap_v2/1\n@ 0x1\n  t*: 1: 8 [0: 0]\n--- Memory map: ---\n"
		    "  build=/src/out\n"
		    "00400000-00401000 r-xp 00000000 08:01 1 $build/bin/prog\n"
		    "00500000-00501000 r-xp 00000000 08:01 1 $builder/x\n"
		    "1000-2000: /usr/lib/libfoo.so\n");
	assert_int_equal(p.nmaps, 3);
	assert_string_equal(p.maps[0].path, "/src/out/bin/prog");
	assert_string_equal(p.maps[1].path, "$builder/x");
	assert_string_equal(p.maps[2].path, "/usr/lib/libfoo.so");
	assert_int_equal(p.maps[2].offset, 0);
	assert_true(p.maps[2].brief && !p.maps[0].brief);
	jh_profile_release(&p);

	/* pprof's attr=value for any attr, comments, anonymous ---p lines, a
	 * line that is not a map line skipped */
	read_ok(&p, "heap_v2/1\n@ 0x1\n  t*: 1: 8 [0: 0]\nMAPPED_LIBRARIES:\n"
		    "source = /home/u \n# comment\n"
		    "7f0000000000-7f0000001000 ---p 00000000 00:00 0\n"
		    "not a map line\n"
		    "400000-401000: $source/prog\n"
		    "500000-501000 r-xp 00001000 08:01 7 $source/lib$sourcex.so\n");
	assert_int_equal(p.nmaps, 3);
	assert_string_equal(p.maps[0].perms, "---p");
	assert_string_equal(p.maps[0].path, "");
	assert_string_equal(p.maps[1].path, "/home/u/prog");
	assert_string_equal(p.maps[2].path, "/home/u/lib$sourcex.so");
	jh_profile_release(&p);

	struct jh_mapping m;
	assert_int_equal(jh_maps_parse_line("  ", 2, &m), 1);
	assert_int_equal(jh_maps_parse_line("nonsense", 8, &m), -1);
	assert_int_equal(jh_maps_parse_line("1000-2000 r-xp", 14, &m), -1);
}

static void test_truncated_tail(void **state)
{
	(void)state;
	struct jh_profile p;
	/* the last line is cut off: warned about and dropped, the rest kept */
	read_ok(&p, "heap_v2/1\n@ 0x1\n  t*: 1: 8 [0: 0]\n@ 0x2\n  t*: 1: 8 [0:");
	assert_int_equal(p.nstacks, 1);
	jh_profile_release(&p);
	read_ok(&p, "heap_v2/1\n@ 0x1\n  t*: 1: 8 [0: 0]\n@ 0x2 0x");
	assert_int_equal(p.nstacks, 1);
	jh_profile_release(&p);
	/* an unterminated but complete last line counts */
	read_ok(&p, "heap_v2/0\n@ 0x1\n  t*: 1: 8 [0: 0]");
	assert_true(p.nstacks == 1 && p.stacks[0].c.v[1] == 8);
	jh_profile_release(&p);
}

static void test_strict_errors(void **state)
{
	(void)state;
	read_err("heap_v2/abc\n",
		 "t.heap:1: bad heap profile header 'heap_v2/abc' (expected heap_v2/<period>)");
	read_err("heapz/4096\n",
		 "t.heap:1: bad heap profile header 'heapz/4096' (expected heap_v2/<period>)");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5:100 [0: 0]\n",
		 "t.heap:3: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5: 100 [0:0]\n",
		 "t.heap:3: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5: 100 [0: 0 ]\n",
		 "t.heap:3: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5: 100 [0: 0] extra\n",
		 "t.heap:3: bad count line: text after ']'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5: 100\n",
		 "t.heap:3: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 5: 1x0 [0: 0]\n",
		 "t.heap:3: bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'");
	read_err("heap_v2/1\n@ 0x1\n  t*: -5: 100 [0: 0]\n", "t.heap:3: bad number '-5:'");
	read_err("heap_v2/1\n@ 0x1\n  t*: 18446744073709551616: 100 [0: 0]\n",
		 "t.heap:3: number '18446744073709551616' out of range");
	read_err("heap_v2/1\n@ 0x1\n  tx: 5: 100 [0: 0]\n", "t.heap:3: bad number 'x:'");
	read_err("heap_v2/4096\n@ 0x1\n  t*: 5: 0 [0: 0]\n", "t.heap:3: 5 objects with 0 bytes");
	read_err("heap_v2/4096\n@ 0x1\n  t*: 0: 0 [3: 0]\n", "t.heap:3: 3 objects with 0 bytes");
	read_err("heap_v2/1\n@ 0x12345678901234567\n  t*: 1: 1 [0: 0]\n",
		 "t.heap:2: address '0x12345678901234567' longer than 16 hex digits");
	read_err("heap_v2/1\n@ 0x12g4\n", "t.heap:2: bad address '0x12g4'");
	read_err("heap_v2/1\n@\n  t*: 1: 1 [0: 0]\n", "t.heap:2: stack without addresses");
	read_err("heap_v2/1\n@0x1\n", "t.heap:2: bad stack line: expected a space after '@'");
	read_err("heap_v2/1\n@ 0x1\nhello\n", "t.heap:3: unexpected line 'hello'");
	/* a map line not recognised is skipped (with a warning); a sum that
	 * no report can show exactly is refused */
	read_err("heap_v2/1\n@ 0x1\n  t*: 1: 4611686018427387904 [0: 0]\n@ 0x2\n"
		 "  t*: 1: 4611686018427387904 [0: 0]\nMAPPED_LIBRARIES:\nfoo bar\n",
		 "t.heap:5: the in-use bytes add up to 9223372036854775808, more than a report "
		 "can show exactly (at most 9223372036854775807)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_table),
		cmocka_unit_test(test_formula_exact),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_fixup_and_addresses),
		cmocka_unit_test(test_hex_lengths),
		cmocka_unit_test(test_whitespace_crlf_and_extras),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_truncated_tail),
		cmocka_unit_test(test_strict_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
