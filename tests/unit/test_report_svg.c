/*
 * test_report_svg.c - jeprof's RewriteSvg as jh_svg_pan_zoom does it: on
 * dot's SVG layout the size becomes 100%, the viewBox goes, a script and a
 * "viewport" group come before the graph group and the group is closed
 * before </svg>; anything else is passed through unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "jeheap/report.h"

static char *rewrite(const char *in)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_svg_pan_zoom(&sb, in, strlen(in));
	jh_sb_addc(&sb, 0);
	return sb.buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* A dot -Tsvg output (graphviz 2.43), shortened. */
static const char dot_svg[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	"<!-- Title: prog; 1.0 MB Pages: 1 -->\n"
	"<svg width=\"188pt\" height=\"260pt\"\n"
	" viewBox=\"0.00 0.00 188.00 260.00\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	"<g id=\"graph0\" class=\"graph\" transform=\"translate(4 256)\">\n"
	"<title>prog</title>\n"
	"<g id=\"node1\" class=\"node\"><title>N1</title></g>\n"
	"</g>\n"
	"</svg>\n";

static void test_dot_layout(void **state)
{
	(void)state;
	char *out = rewrite(dot_svg);
	const char *want_head =
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<!-- Title: prog; 1.0 MB Pages: 1 -->\n"
		"<svg width=\"100%\" height=\"100%\"\n"
		"  xmlns=\"http://www.w3.org/2000/svg\">\n" /* jeprof keeps both spaces */
		"<script type=\"text/ecmascript\"><![CDATA[\n";
	assert_memory_equal(out, want_head, strlen(want_head));
	const char *vp = strstr(out,
				"]]></script>\n<g id=\"viewport\" transform=\"translate(0,0)\">\n"
				"<g id=\"graph0\" class=\"graph\"");
	assert_non_null(vp);
	const char *tail =
		"<g id=\"node1\" class=\"node\"><title>N1</title></g>\n</g>\n</g></svg>\n";
	assert_string_equal(out + strlen(out) - strlen(tail), tail);
	assert_int_equal(count(out, "id=\"viewport\""), 1);
	assert_int_equal(count(out, "viewBox"), 0);
	assert_int_equal(count(out, "]]>"), 1); /* the script cannot end its CDATA early */
	free(out);
}

static void test_passthrough(void **state)
{
	(void)state;
	const char *in[] = {
		"", "not svg at all", "<svg width=\"1\" height=\"2\"><g id=\"graphX\"></g></svg>",
		/* no graph group: size fixed (jeprof's first substitution), nothing else */
	};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *out = rewrite(in[i]);
		assert_string_equal(out ? out : "", in[i]);
		free(out);
	}
	char *out = rewrite("<svg width=\"1pt\" height=\"2pt\" viewBox=\"0 0 1 2\">\n</svg>\n");
	assert_string_equal(out, "<svg width=\"100%\" height=\"100%\" >\n</svg>\n");
	free(out);
	/* a group graph12 is not dot's graph0..graph9 (jeprof: graph\d then '"') */
	out = rewrite("<svg><g id=\"graph12\"></g></svg>");
	assert_string_equal(out, "<svg><g id=\"graph12\"></g></svg>");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dot_layout),
		cmocka_unit_test(test_passthrough),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
