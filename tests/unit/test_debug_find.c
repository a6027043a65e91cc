/* debug_find: binary lookup (--path-map, --sysroot, --lib_prefix), separate
 * debug files (build-id, .gnu_debuglink + CRC) and dwz files, on files built
 * at test time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jeheap/debug_find.h"
#include "symtest.h"

static void sh(const char *fmt, ...)
{
	char body[4096], cmd[4400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "cd %s && { %s; }", tmp, body);
	assert_int_equal(system(cmd), 0);
}

static char *path(const char *rel)
{
	char *p = xmalloc(strlen(tmp) + strlen(rel) + 2);
	sprintf(p, "%s/%s", tmp, rel);
	return p;
}

static int setup(void **state)
{
	(void)state;
	return symtest_setup("debug_find",
			     "gcc -O2 -g -Wl,--build-id $S/symprog.c stub.c -o prog"
			     " && gcc -O1 -g -Wl,--build-id $S/symprog.c stub.c -o other"
			     " && objcopy --only-keep-debug prog prog.debug"
			     " && objcopy --only-keep-debug other other.debug");
}

static void test_find_binary(void **state)
{
	(void)state;
	struct jh_symbolizer_opts o = { 0 };
	struct jh_sb tried = JH_SB_INIT;
	jh_sb_init(&tried);
	char *prog = path("prog");
	char *got = jh_find_binary(&o, prog, &tried);
	assert_string_equal(got, prog);
	free(got);

	/* --path-map: the first OLD that is a prefix (at a '/' boundary) wins */
	char *to = path("");
	struct jh_path_map pm[3] = { { "/build/outx", "/nonexistent" },
				     { "/build/out", to },
				     { "/build", "/nonexistent2" } };
	o.path_maps = pm;
	o.npath_maps = 3;
	got = jh_find_binary(&o, "/build/out/prog", NULL);
	assert_non_null(got);
	assert_string_equal(got, prog);
	free(got);
	o.npath_maps = 0;

	/* --sysroot */
	sh("mkdir -p sys/opt/app && cp prog sys/opt/app/prog");
	char *sys = path("sys");
	o.sysroot = sys;
	got = jh_find_binary(&o, "/opt/app/prog", NULL);
	char *want = path("sys/opt/app/prog");
	assert_string_equal(got, want);
	free(got);
	free(want);
	o.sysroot = NULL;

	/* --lib_prefix: all prefixes with the whole path, then minus one directory... */
	sh("mkdir -p lp/y && cp prog lp/y/lib.so");
	char *lp = path("lp");
	char *pref[2] = { "/nonexistent", lp };
	o.lib_prefixes = pref;
	o.nlib_prefixes = 2;
	jh_sb_reset(&tried);
	got = jh_find_binary(&o, "/x/y/lib.so", &tried);
	want = path("lp/y/lib.so");
	assert_string_equal(got, want);
	struct jh_sb order = JH_SB_INIT;
	jh_sb_init(&order);
	jh_sb_addf(&order,
		   "/nonexistent/x/y/lib.so, %s/x/y/lib.so, /nonexistent/y/lib.so, %s/y/lib.so", lp,
		   lp);
	assert_string_equal(tried.buf, order.buf);
	jh_sb_release(&order);
	free(got);
	free(want);

	/* missing everywhere: NULL, and the original path was tried last */
	jh_sb_reset(&tried);
	assert_null(jh_find_binary(&o, "/no/such/lib.so", &tried));
	assert_non_null(strstr(tried.buf, "/nonexistent/no/such/lib.so"));
	size_t n = strlen(tried.buf), k = strlen("/no/such/lib.so");
	assert_string_equal(tried.buf + n - k, "/no/such/lib.so");
	free(lp);
	free(sys);
	free(to);
	free(prog);
	jh_sb_release(&tried);
}

static struct jh_elf_image *img(const char *rel)
{
	char *p = path(rel);
	struct jh_diag d;
	struct jh_elf_image *im = jh_elf_image_open(p, &d);
	free(p);
	assert_non_null(im);
	return im;
}

/* Opens rel, looks for its debug file, returns the found path relative to tmp or "". */
static char *debug_of(const struct jh_symbolizer_opts *o, const char *rel)
{
	struct jh_elf_image *bin = img(rel);
	struct jh_elf_image *dbg = jh_find_debug(o, bin, NULL);
	char *r = xstrdup(dbg ? jh_elf_image_path(dbg) + strlen(tmp) + 1 : "");
	if (dbg && dbg != bin)
		jh_elf_image_close(dbg);
	jh_elf_image_close(bin);
	return r;
}

static void test_find_debug(void **state)
{
	(void)state;
	char *dd = path("dd");
	char *dirs[1] = { dd };
	struct jh_symbolizer_opts o = { 0 };
	o.debug_dirs = dirs;
	o.ndebug_dirs = 1;
	char *r;

	assert_string_equal(r = debug_of(&o, "prog"), "prog"); /* has its own DWARF */
	free(r);

	/* .gnu_debuglink next to the binary, in .debug/, under the debug dir */
	sh("mkdir -p a b/.debug c && strip --strip-all -o a/p prog && objcopy "
	   "--add-gnu-debuglink=prog.debug a/p"
	   " && cp a/p b/p && cp a/p c/p && cp prog.debug a/ && cp prog.debug b/.debug/"
	   " && mkdir -p dd%s/c && cp prog.debug dd%s/c/",
	   tmp, tmp);
	assert_string_equal(r = debug_of(&o, "a/p"), "a/prog.debug");
	free(r);
	assert_string_equal(r = debug_of(&o, "b/p"), "b/.debug/prog.debug");
	free(r);
	struct jh_sb want = JH_SB_INIT; /* <debug-dir>/<absolute dir of the binary>/<link> */
	jh_sb_init(&want);
	jh_sb_addf(&want, "dd%s/c/prog.debug", tmp);
	assert_string_equal(r = debug_of(&o, "c/p"), want.buf);
	free(r);
	jh_sb_release(&want);

	/* a file of that name with another CRC is refused */
	sh("mkdir -p e && cp a/p e/p && cp other.debug e/prog.debug");
	assert_string_equal(r = debug_of(&o, "e/p"), "");
	free(r);

	/* build-id: <debug-dir>/.build-id/xx/rest.debug, without any debuglink */
	sh("mkdir -p f && strip --strip-all -o f/p prog"
	   " && id=$(readelf -n prog | awk '/Build ID/{print $3}')"
	   " && a=$(echo $id | cut -c1-2) && b=$(echo $id | cut -c3-)"
	   " && mkdir -p dd/.build-id/$a && cp prog.debug dd/.build-id/$a/$b.debug");
	r = debug_of(&o, "f/p");
	assert_int_equal(strncmp(r, "dd/.build-id/", 13), 0);
	free(r);
	/* same build-id path holding the wrong file: refused */
	sh("id=$(readelf -n prog | awk '/Build ID/{print $3}')"
	   " && cp other.debug dd/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug");
	assert_string_equal(r = debug_of(&o, "f/p"), "");
	free(r);
	free(dd);
}

static char *alt_of(const char *rel)
{
	struct jh_symbolizer_opts o = { 0 };
	char *dd = path("nodd");
	char *dirs[1] = { dd };
	o.debug_dirs = dirs;
	o.ndebug_dirs = 1;
	struct jh_elf_image *dbg = img(rel);
	struct jh_elf_image *alt = jh_find_alt(&o, dbg, NULL);
	char *r = xstrdup(alt ? jh_elf_image_path(alt) + strlen(tmp) + 1 : "");
	jh_elf_image_close(alt);
	jh_elf_image_close(dbg);
	free(dd);
	return r;
}

static void test_find_alt(void **state)
{
	(void)state;
	if (system("command -v dwz >/dev/null") != 0)
		skip();
	char *r;
	/* .gnu_debugaltlink relative to the debug file's directory, build-id checked */
	sh("mkdir -p z && cp prog z/x && cp other z/y && cd z && dwz -m common.debug -M "
	   "common.debug x y");
	assert_string_equal(r = alt_of("z/x"), "z/common.debug");
	free(r);
	sh("cd z && mv common.debug common.good && cp ../prog.debug common.debug");
	assert_string_equal(r = alt_of("z/x"), "");
	free(r);
	sh("cd z && mv common.good common.debug");
	/* DWARF 5 .debug_sup with an absolute name, checked by its checksum */
	sh("mkdir -p z5 && cp prog z5/x && cp other z5/y && cd z5 && dwz -5 -m %s/z5/sup.debug -M "
	   "%s/z5/sup.debug x y",
	   tmp, tmp);
	assert_string_equal(r = alt_of("z5/x"), "z5/sup.debug");
	free(r);
	assert_string_equal(r = alt_of("prog"), ""); /* no link at all */
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_binary),
		cmocka_unit_test(test_find_debug),
		cmocka_unit_test(test_find_alt),
	};
	return cmocka_run_group_tests(tests, setup, symtest_teardown);
}
