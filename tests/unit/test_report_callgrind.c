/*
 * test_report_callgrind.c - the callgrind writer on a hand-built graph:
 * outermost frame per location (short name, file:line of the call into the
 * inlined callee), self costs and per-occurrence calls, recursion, sites
 * merged across locations, names that jeprof mis-parses (spaces,
 * " (discriminator N)" file names), unknown frames, name compression and a
 * complete, deterministic order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "jeheap/report.h"

/*
 * Locations (frames outermost first):
 *   L0 main                      a.c:10
 *   L1 work(int) + inlined helper  a.c:20 (call into helper), a.h:5
 *   L2 rec                       b.c:7
 *   L3 rec                       b.c:7   (another pc, same site as L2)
 *   L4 "operator new(unsigned long)" "x y.c (discriminator 2)":3
 *   L5 no frames, no module      (bare pc 0x1234)
 * Stacks (leaf first): [L1 L0] 100, [L2 L3 L2 L0] 40, [L4 L0] 7.5, [L5 L1 L0] 2.
 */
static struct jh_frame frames[] = {
	{ "main", "a.c", 10, 0 },
	{ "work(int)", "a.c", 20, 0 },
	{ "helper", "a.h", 5, 0 },
	{ "rec", "b.c", 7, 0 },
	{ "rec", "b.c", 7, 0 },
	{ "operator new(unsigned long)", "x y.c (discriminator 2)", 3, 0 },
};
static struct jh_location locs[] = {
	{ .pc = 0x10, .status = JH_SYM_FULL, .first = 0, .nframes = 1 },
	{ .pc = 0x20, .status = JH_SYM_FULL, .first = 1, .nframes = 2 },
	{ .pc = 0x30, .status = JH_SYM_FULL, .first = 3, .nframes = 1 },
	{ .pc = 0x31, .status = JH_SYM_FULL, .first = 4, .nframes = 1 },
	{ .pc = 0x40, .status = JH_SYM_FULL, .first = 5, .nframes = 1 },
	{ .pc = 0x1234, .status = JH_SYM_UNKNOWN },
};
static uint32_t locpool[] = { 1, 0, 2, 3, 2, 0, 4, 0, 5, 1, 0 };

static void test_callgrind(void **state)
{
	(void)state;
	struct jh_model m;
	memset(&m, 0, sizeof(m));
	m.locs = locs;
	m.nlocs = 6;
	m.frames.items = frames;
	m.frames.nr = 6;
	struct jh_gstack stacks[] = {
		{ .off = 0, .len = 2, .v = 100 },
		{ .off = 2, .len = 4, .v = 40 },
		{ .off = 6, .len = 2, .v = 7.5 },
		{ .off = 8, .len = 3, .v = 2 },
	};
	struct jh_graph g;
	memset(&g, 0, sizeof(g));
	g.m = &m;
	g.unit = JH_UNIT_BYTES;
	g.unit_name = "B";
	g.stacks = stacks;
	g.nstacks = 4;
	g.locpool = locpool;
	struct jh_diag d = { { 0 }, 0 };

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(jh_report_callgrind(f, &g, &d), 0);
	fclose(f);
	const char *want =
		"events: Hits\n"
		"\n"
		/* "??" (unknown: file "??", line 0) sorts first; its fn is the bare pc */
		"fl=??\n"
		"fn=(1) 0000000000001234\n"
		"0 2\n"
		"\n"
		"fl=a.c\n"
		"fn=(2) main\n"
		"cfl=a.c\n"
		"cfn=(3) work\n"
		"calls=102 20\n"
		"10 102\n"
		"\n"
		"fl=a.c\n"
		"fn=(2)\n"
		"cfl=b.c\n"
		"cfn=rec\n"
		"calls=40 7\n"
		"10 40\n"
		"\n"
		"fl=a.c\n"
		"fn=(2)\n"
		"cfl=(1) x y.c (discriminator 2)\n"
		"cfn=(4) operator new\n"
		"calls=7 3\n"
		"10 7\n"
		"\n"
		"fl=a.c\n"
		"fn=(3)\n"
		"20 100\n"
		"\n"
		"fl=a.c\n"
		"fn=(3)\n"
		"cfl=??\n"
		"cfn=(1)\n"
		"calls=2 0\n"
		"20 2\n"
		"\n"
		/* L2 and L3 are one site: rec -> rec twice per stack, merged */
		"fl=b.c\n"
		"fn=rec\n"
		"7 40\n"
		"\n"
		"fl=b.c\n"
		"fn=rec\n"
		"cfl=b.c\n"
		"cfn=rec\n"
		"calls=80 7\n"
		"7 80\n"
		"\n"
		"fl=(1)\n"
		"fn=(4)\n"
		"3 7\n"
		"\n";
	assert_string_equal(buf, want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgrind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
