/* test_flame_escape.c - jh_markup_escape, the one escaping of names in the
 * flame graph's SVG and the --html page: entities for & < > " ', visible
 * "\xNN" for control characters and bytes that are not UTF-8 (the output
 * is always well-formed UTF-8 XML), everything else as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "jeheap/report_flame.h"

static void check_n(const char *in, size_t n, const char *want)
{
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_sb_adds(&sb, "[");
	jh_markup_escape(&sb, in, n);
	jh_sb_adds(&sb, "]");
	char w[512];
	snprintf(w, sizeof(w), "[%s]", want);
	assert_string_equal(sb.buf, w);
	jh_sb_release(&sb);
}

static void check(const char *in, const char *want)
{
	check_n(in, strlen(in), want);
}

static void test_entities(void **state)
{
	(void)state;
	check("", "");
	check("plain name_1::f(int)", "plain name_1::f(int)");
	check("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	check("operator<<(a&, b<c>)", "operator&lt;&lt;(a&amp;, b&lt;c&gt;)");
	check("x\"onload=\"alert(2)", "x&quot;onload=&quot;alert(2)");
	check("f]]>g", "f]]&gt;g");
	check("it's", "it&#39;s");
	check("&amp;", "&amp;amp;");
}

static void test_controls(void **state)
{
	(void)state;
	check("a\x01"
	      "b",
	      "a\\x01b");
	check("tab\there\nnl\r", "tab\\x09here\\x0anl\\x0d");
	check("del\x7f", "del\\x7f");
	check_n("nul\0x", 5, "nul\\x00x");
}

static void test_utf8(void **state)
{
	(void)state;
	check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5",
	      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
	check("bad\xff", "bad\\xff");
	check("lone\xc3", "lone\\xc3");                    /* truncated sequence */
	check("\xc3(", "\\xc3(");                          /* bad continuation */
	check("\xc0\xaf", "\\xc0\\xaf");                   /* overlong '/' */
	check("\xe0\x80\xaf", "\\xe0\\x80\\xaf");          /* overlong, 3 bytes */
	check("\xed\xa0\x80", "\\xed\\xa0\\x80");          /* a surrogate */
	check("\xef\xbf\xbe", "\\xef\\xbf\\xbe");          /* U+FFFE */
	check("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	check("\xef\xbf\xbd", "\xef\xbf\xbd");             /* U+FFFD is fine */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entities),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
