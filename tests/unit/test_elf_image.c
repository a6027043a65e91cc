/* elf_image: segments, notes, debug links and symbol lookups, checked
 * against readelf and llvm-symbolizer on files built at test time. */
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
#include "jeheap/elf_image.h"

/* Runs a shell command built from test-controlled strings; returns its stdout. */
static char *run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		jh_sb_add(&sb, buf, n);
	assert_int_equal(pclose(p), 0);
	return jh_sb_detach(&sb);
}

static int setup(void **state)
{
	(void)state;
	return symtest_setup(
		"elf_image",
		"gcc -nostdlib -no-pie -Wl,-e,main -Wl,--build-id $S/symtab.s -o symtab"
		" && gcc -O2 -g -Wl,--build-id $S/symprog.c stub.c -o prog"
		" && objcopy --only-keep-debug prog prog.debug && strip --strip-all -o "
		"prog.stripped prog"
		" && objcopy --add-gnu-debuglink=prog.debug prog.stripped");
}

static struct jh_elf_image *open_tmp(const char *name)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", tmp, name);
	struct jh_diag d = { { 0 }, 0 };
	struct jh_elf_image *im = jh_elf_image_open(p, &d);
	assert_non_null(im);
	return im;
}

static const char *name_at(struct jh_elf_image *im, uint64_t a)
{
	const struct jh_elf_sym *s = jh_elf_image_lookup(im, a);
	return s ? s->name : "??";
}

/* The rules spelled out, then every byte compared with llvm-symbolizer. */
static void test_symbol_rules(void **state)
{
	(void)state;
	struct jh_elf_image *im = open_tmp("symtab");
	char *out = run("nm %s/symtab | awk '/ main$/{print $1}'", tmp);
	uint64_t base = strtoull(out, NULL, 16);
	free(out);
	assert_string_equal(name_at(im, base), "main");       /* size 3 beats 2; last of equals */
	assert_string_equal(name_at(im, base + 3), "zerofn"); /* zero size: up to next symbol */
	assert_string_equal(name_at(im, base + 6), "zerofn");
	assert_string_equal(name_at(im, base + 7), "notypelabel");
	assert_string_equal(name_at(im, base + 9), "notypelabel"); /* .Lhidden is no name */
	assert_string_equal(name_at(im, base + 10), "sized");
	assert_string_equal(name_at(im, base + 12), "??"); /* past a sized symbol: nothing */
	assert_string_equal(name_at(im, base + 13), "??");
	assert_string_equal(name_at(im, base + 14), "lastzero");
	assert_string_equal(name_at(im, base - 1), "??"); /* below the first symbol */

	char *want = run("for i in $(seq 0 40); do printf '0x%%x\\n' $((0x%llx + i)); done |"
			 " llvm-symbolizer --obj=%s/symtab | awk 'NR%%3==1'",
			 (unsigned long long)base, tmp);
	char *line = want;
	for (int i = 0; i <= 40; i++) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		*nl = 0;
		assert_string_equal(name_at(im, base + (uint64_t)i), line);
		line = nl + 1;
	}
	free(want);
	jh_elf_image_close(im);
}

static void test_notes_and_links(void **state)
{
	(void)state;
	struct jh_elf_image *prog = open_tmp("prog"), *dbg = open_tmp("prog.debug"),
			    *str = open_tmp("prog.stripped");
	char *id = run("readelf -n %s/prog | awk '/Build ID/{printf \"%%s\", $3}'", tmp);
	size_t len;
	const unsigned char *b = jh_elf_image_build_id(prog, &len);
	assert_non_null(b);
	char hex[129] = "";
	for (size_t i = 0; i < len && i < 64; i++)
		sprintf(hex + 2 * i, "%02x", b[i]);
	assert_string_equal(hex, id);
	free(id);
	/* the stripped copy and the debug file carry the same build-id */
	size_t l2, l3;
	assert_memory_equal(jh_elf_image_build_id(str, &l2), b, len);
	assert_memory_equal(jh_elf_image_build_id(dbg, &l3), b, len);

	assert_true(jh_elf_image_has_debug_info(prog));
	assert_true(jh_elf_image_has_debug_info(dbg));
	assert_false(jh_elf_image_has_debug_info(str));
	assert_false(jh_elf_image_has_symtab(str));
	assert_true(jh_elf_image_has_symtab(prog));

	uint32_t crc, want;
	const char *link = jh_elf_image_debuglink(str, &crc);
	assert_non_null(link);
	assert_string_equal(link, "prog.debug");
	char p[512];
	snprintf(p, sizeof p, "%s/prog.debug", tmp);
	assert_int_equal(jh_file_crc32(p, &want), 0);
	assert_int_equal(crc, want);
	assert_null(jh_elf_image_debuglink(prog, &crc));

	/* PT_LOAD headers as readelf lists them */
	const struct jh_elf_load *ld;
	size_t n = jh_elf_image_loads(prog, &ld);
	char *cnt = run("readelf -lW %s/prog | grep -c '^  LOAD'", tmp);
	assert_int_equal(n, strtoul(cnt, NULL, 10));
	free(cnt);
	int exec = 0;
	for (size_t i = 0; i < n; i++)
		exec += (ld[i].flags & 1) != 0;
	assert_int_equal(exec, 1);
	jh_elf_image_close(prog);
	jh_elf_image_close(dbg);
	jh_elf_image_close(str);
}

/* .dynsym is the fallback; the allocator test is on Debian's jemalloc. */
static void test_dynsym(void **state)
{
	(void)state;
	const char *je = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";
	struct jh_diag d = { { 0 }, 0 };
	struct jh_elf_image *im = jh_elf_image_open(je, &d);
	if (!im)
		skip();
	assert_false(jh_elf_image_has_symtab(im));
	assert_true(jh_elf_image_exports(im, "mallctl"));
	assert_false(jh_elf_image_exports(im, "no_such_function"));
	char *a = run("nm -D %s | awk '$3==\"malloc_usable_size\"{print $1}'", je);
	uint64_t mus = strtoull(a, NULL, 16);
	free(a);
	assert_string_equal(name_at(im, mus), "malloc_usable_size");
	/* jeprof names everything after it malloc_usable_size; sizes say otherwise */
	char *sz = run("nm -D -S %s | awk '$4==\"malloc_usable_size\"{print $2}'", je);
	uint64_t size = strtoull(sz, NULL, 16);
	free(sz);
	const struct jh_elf_sym *s = jh_elf_image_lookup(im, mus + size);
	assert_true(s == NULL || strcmp(s->name, "malloc_usable_size") != 0);
	jh_elf_image_close(im);

	struct jh_elf_image *libc = jh_elf_image_open("/usr/lib/x86_64-linux-gnu/libc.so.6", &d);
	assert_non_null(libc);
	assert_false(jh_elf_image_exports(libc, "mallctl"));
	jh_elf_image_close(libc);
}

static void test_bad_files(void **state)
{
	(void)state;
	struct jh_diag d = { { 0 }, 0 };
	assert_null(jh_elf_image_open("/nonexistent/x.so", &d));
	assert_non_null(strstr(d.msg, "/nonexistent/x.so"));
	char p[512];
	snprintf(p, sizeof p, "%s/notelf", tmp);
	FILE *f = fopen(p, "w");
	fputs("hello, not an ELF file\n", f);
	fclose(f);
	assert_null(jh_elf_image_open(p, &d));
	assert_non_null(strstr(d.msg, "not an ELF file"));
	snprintf(p, sizeof p, "%s/trunc", tmp);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "head -c 100 %s/prog > %s", tmp, p);
	assert_int_equal(system(cmd), 0);
	struct jh_elf_image *im = jh_elf_image_open(p, &d);
	if (im) { /* a truncated header may open, but then has nothing usable */
		const struct jh_elf_load *ld;
		size_t len;
		(void)jh_elf_image_loads(im, &ld);
		assert_null(jh_elf_image_build_id(im, &len));
		assert_null(jh_elf_image_lookup(im, 0x1000));
		jh_elf_image_close(im);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_rules),
		cmocka_unit_test(test_notes_and_links),
		cmocka_unit_test(test_dynsym),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, symtest_teardown);
}
