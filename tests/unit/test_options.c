/* Command-line parsing: jeprof's spellings, prefixes, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/options.h"

static int parse(struct jh_options *o, struct jh_diag *d, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	va_start(ap, d);
	argv[argc++] = "jeheap";
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	memset(d, 0, sizeof(*d));
	return jh_options_parse(o, argc, argv, d);
}

static void test_spellings(void **state)
{
	(void)state;
	struct jh_options o;
	struct jh_diag d;
	assert_int_equal(parse(&o, &d, "-text", "--base", "b1", "-base=b2", "--show_byte",
			       "--focus=a|b", "-thread", "3", "p.heap", NULL),
			 0);
	assert_int_equal(o.output, JH_OUT_TEXT);
	assert_int_equal(o.nbases, 2);
	assert_string_equal(o.bases[0], "b1");
	assert_string_equal(o.bases[1], "b2");
	assert_true(o.show_bytes);
	assert_string_equal(o.focus, "a|b");
	assert_true(o.have_thread);
	assert_int_equal(o.thread, 3);
	assert_int_equal(o.nprofiles, 1);
	assert_string_equal(o.profiles[0], "p.heap");
	assert_null(o.program);
	jh_options_release(&o);

	assert_int_equal(parse(&o, &d, "--collapsed", "--no-show_bytes", "--thread=*",
			       "--nodefraction=0.01", "--alloc_objects", "-", "x", NULL),
			 0);
	assert_int_equal(o.output, JH_OUT_COLLAPSED);
	assert_true(o.thread_all);
	assert_int_equal(o.value, JH_ALLOC_OBJECTS);
	assert_true(o.nodefraction == 0.01);
	assert_int_equal(o.nprofiles, 2);
	assert_string_equal(o.profiles[0], "-");
	jh_options_release(&o);

	/* Go pprof's: --show exact (not a prefix of --show_bytes), -peek RE */
	assert_int_equal(parse(&o, &d, "--show=a", "-hide", "b", "--show_from=c", "--prune_from=d",
			       "--noinlines", "-peek", "main", "p.heap", NULL),
			 0);
	assert_int_equal(o.output, JH_OUT_PEEK);
	assert_string_equal(o.list_re, "main");
	assert_string_equal(o.show, "a");
	assert_string_equal(o.hide, "b");
	assert_string_equal(o.show_from, "c");
	assert_string_equal(o.prune_from, "d");
	assert_true(o.noinlines);
	assert_false(o.show_bytes);
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--tree", "--no-noinlines", "p.heap", NULL), 0);
	assert_int_equal(o.output, JH_OUT_TREE);
	assert_false(o.noinlines);
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--traces", "p.heap", NULL), 0);
	assert_int_equal(o.output, JH_OUT_TRACES);
	jh_options_release(&o);
}

static void test_program_detection(void **state)
{
	(void)state;
	struct jh_options o;
	struct jh_diag d;
	/* /proc/self/exe is an ELF file: it is the program argument. */
	assert_int_equal(parse(&o, &d, "--text", "/proc/self/exe", "a.heap", "b.heap", NULL), 0);
	assert_string_equal(o.program, "/proc/self/exe");
	assert_string_equal(o.sym.program, "/proc/self/exe");
	assert_int_equal(o.nprofiles, 2);
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--text", "/proc/self/exe", NULL), -1);
	assert_non_null(strstr(d.msg, "is a program"));
}

static void test_top_and_symbols(void **state)
{
	(void)state;
	struct jh_options o;
	struct jh_diag d;
	assert_int_equal(parse(&o, &d, "--top", "p", NULL), 0);
	assert_int_equal(o.output, JH_OUT_TOP);
	assert_int_equal(o.top_n, 10);
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--top=25", "p", NULL), 0);
	assert_int_equal(o.top_n, 25);
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--symbols", "/bin/true", NULL), 0);
	assert_int_equal(o.output, JH_OUT_SYMBOLS);
	assert_string_equal(o.program, "/bin/true");
	jh_options_release(&o);
	assert_int_equal(parse(&o, &d, "--list=foo", "--lib_prefix=/a/,/b", "--path-map=/x=/y",
			       "--debug-dir", "/d", "p", NULL),
			 0);
	assert_int_equal(o.output, JH_OUT_LIST);
	assert_string_equal(o.list_re, "foo");
	assert_int_equal(o.sym.nlib_prefixes, 2);
	assert_string_equal(o.sym.lib_prefixes[0], "/a");
	assert_string_equal(o.sym.path_maps[0].from, "/x");
	assert_string_equal(o.sym.path_maps[0].to, "/y");
	assert_string_equal(o.sym.debug_dirs[0], "/d");
	jh_options_release(&o);
}

static void test_errors(void **state)
{
	(void)state;
	struct jh_options o;
	struct jh_diag d;
	assert_int_equal(parse(&o, &d, "--t", "p", NULL), -1);
	assert_string_equal(
		d.msg,
		"option '--t' is ambiguous: --text --top --thread --total_delay "
		"--tools --test --test_stride --title --trust-binaries --traces --tree --threads");
	assert_int_equal(d.code, JH_EXIT_USAGE);
	/* pprof's options made these prefixes ambiguous */
	assert_int_equal(parse(&o, &d, "--sh", "p", NULL), -1);
	assert_string_equal(d.msg, "option '--sh' is ambiguous: --show_bytes --show --show_from");
	assert_int_equal(parse(&o, &d, "--pr", "p", NULL), -1);
	assert_string_equal(d.msg, "option '--pr' is ambiguous: --proto --prune_from");
	assert_int_equal(parse(&o, &d, "--text", "--dot", "p", NULL), -1);
	assert_string_equal(d.msg, "only specify one output mode (--text and --dot)");
	assert_int_equal(parse(&o, &d, "--disasm=x", "p", NULL), -1);
	assert_string_equal(d.msg, "--disasm: not supported yet");
	assert_int_equal(parse(&o, &d, "--contentions", "p", NULL), -1);
	assert_string_equal(d.msg, "--contentions: not supported yet");
	assert_int_equal(parse(&o, &d, "--inuse_objects", "--alloc_space", "p", NULL), -1);
	assert_int_equal(parse(&o, &d, "--lines", "--files", "p", NULL), -1);
	assert_int_equal(parse(&o, &d, "--nodecount=x", "p", NULL), -1);
	assert_string_equal(d.msg, "--nodecount: 'x' is not a non-negative integer");
	assert_int_equal(parse(&o, &d, "--thread=abc", "p", NULL), -1);
	assert_int_equal(parse(&o, &d, "--bogus", "p", NULL), -1);
	assert_string_equal(d.msg, "unknown option '--bogus' (see --help)");
	assert_int_equal(parse(&o, &d, "--colapsed", "p", NULL), -1);
	assert_string_equal(d.msg,
			    "unknown option '--colapsed'; did you mean --collapsed? (see --help)");
	assert_int_equal(parse(&o, &d, "--nodefracton", "p", NULL), -1);
	assert_string_equal(d.msg, "unknown option '--nodefracton'; did you mean --nodefraction? "
				   "(see --help)");
	assert_int_equal(parse(&o, &d, "--focs=x", "p", NULL), -1);
	assert_string_equal(d.msg, "unknown option '--focs'; did you mean --focus? (see --help)");
	assert_int_equal(parse(&o, &d, "--base", NULL), -1);
	assert_string_equal(d.msg, "option --base requires a value");
	assert_int_equal(parse(&o, &d, "--text", NULL), -1);
	assert_int_equal(parse(&o, &d, "--text=1", "p", NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_program_detection),
		cmocka_unit_test(test_top_and_symbols),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
