/* test_perf_paths.c - the fast paths give the same results as the plain
 * ones: symbol lines read split into parts (split_symbols) against whole
 * lines, and --collapsed written straight to a file descriptor (writev)
 * against the buffered stream path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jeheap/analyse.h"
#include "model_internal.h"
#include "jeheap/report.h"

static const char text[] =
	"--- symbol\n"
	"binary=/bin/prog\n"
	"0x0000000000001000 main\n"
	"0x0000000000001010 f(int)--inl;semi--\n" /* trailing empty part dropped */
	"0x0000000000001020 ??\n"
	"0x0000000000001030 leaf--?"
	"?--x---y\n"                  /* leftmost "--" splits: "x", "-y" */
	"0x0000000000001040 --\n"     /* only empty parts: no frames */
	"0x0000000000001050 a----b\n" /* an empty part inside is kept */
	"0x0000000000001060 main\n"
	"0x0000000000002000 malloc\n"
	"0x0000000000002010 \x01ctl--b\n" /* sorts before the empty lines */
	"---\n"
	"--- heap\n"
	"heap_v2/524288\n"
	"  t*: 4: 400 [0: 0]\n"
	"@ 0x1030 0x1021 0x1011 0x1001\n"
	"  t*: 1: 100 [0: 0]\n"
	"  t0: 1: 100 [0: 0]\n"
	"@ 0x1010 0x1001\n"
	"  t*: 1: 100 [0: 0]\n"
	"  t0: 1: 100 [0: 0]\n"
	"@ 0x1040 0x1051 0x1061 0x1071\n"
	"  t*: 2: 200 [0: 0]\n"
	"  t0: 2: 200 [0: 0]\n"
	"@ 0x2000\n" /* emptied by allocator removal */
	"  t*: 3: 300 [0: 0]\n"
	"@ 0x2000 0x1001\n"
	"  t*: 5: 500 [0: 0]\n"
	"@ 0x2010 0x1001\n"
	"  t*: 1: 100 [0: 0]\n"
	"\n"
	"MAPPED_LIBRARIES:\n";

/* --collapsed of text; split: read with split_symbols; fd: through a
 * file (writev path), else through a memory stream (buffered path). */
static char *collapsed(int split, int fd)
{
	struct jh_diag d;
	struct jh_profile p;
	struct jh_model m;
	struct jh_analysis_opts o;
	struct jh_graph g;
	jh_profile_init(&p);
	p.split_symbols = split;
	assert_int_equal(jh_profile_read_mem(&p, text, strlen(text), "t.heap", &d), 0);
	assert_int_equal(p.nsyms, 9);
	if (split) {
		assert_null(p.syms[0].names);
		assert_null(jh_profile_symbol(&p, 0x1000));
	} else {
		assert_string_equal(jh_profile_symbol(&p, 0x1010), "f(int)--inl;semi--");
	}
	jh_model_init(&m, 0);
	assert_int_equal(jh_model_add_profile(&m, &p, 0, NULL, &d), 0);
	jh_profile_release(&p);
	jh_model_finish(&m, 0, 0);
	memset(&o, 0, sizeof(o));
	o.value = JH_INUSE_SPACE;
	o.granularity = JH_GRAN_FUNCTIONS;
	o.show_bytes = 1;
	assert_int_equal(jh_analyse_stacks(&g, &m, &o, -1, &d), 0);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = fd ? tmpfile() : open_memstream(&buf, &n);
	assert_non_null(f);
	assert_int_equal(jh_report_collapsed(f, &g), 0);
	if (fd) {
		long len = ftell(f);
		assert_true(len > 0);
		buf = xmalloc((size_t)len + 1);
		rewind(f);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		buf[len] = 0;
	}
	fclose(f);
	jh_graph_release(&g);
	jh_model_release(&m);
	return buf;
}

static void test_same_output(void **state)
{
	(void)state;
	char *plain = collapsed(0, 0);
	/* names as jeprof splits them, made safe for collapsed lines */
	assert_non_null(strstr(plain, "main;f(int);inl:semi[inline];??:0;leaf;??:0[inline];"
				      "x[inline];-y[inline] "));
	assert_non_null(strstr(plain, "main;a;[inline];b[inline];0000000000001040 "));
	/* byte-wise sorted (LC_ALL=C sort), the emptied stacks as " count" */
	size_t nlines = 0, nempty = 0;
	for (char *l = plain, *e; (e = strchr(l, '\n')); l = e + 1, nlines++) {
		nempty += *l == ' ';
		char *next = e + 1;
		if (!*next)
			continue;
		size_t a = (size_t)(e - l), b = strcspn(next, "\n");
		int r = memcmp(l, next, a < b ? a : b);
		assert_true(r < 0 || (r == 0 && a <= b));
	}
	assert_int_equal(nlines, 6);
	assert_int_equal(nempty, 1);
	for (int split = 0; split < 2; split++) {
		for (int fd = 0; fd < 2; fd++) {
			char *o = collapsed(split, fd);
			assert_string_equal(o, plain);
			free(o);
		}
	}
	free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
