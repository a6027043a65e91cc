/* jh_symbolize: mappings -> modules and load bias, allocator flag, no module
 * for [vdso]/anonymous code, one warning per missing module across calls,
 * cached answers across calls, and the coverage line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/elf_image.h"
#include "jeheap/symbolize.h"
#include "symtest.h"

#define JEMALLOC "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"

static char prog[300];

static int setup(void **state)
{
	(void)state;
	int rc = symtest_setup("symbolize", "gcc -O2 -g -fPIE -pie $S/symprog.c stub.c -o prog");
	snprintf(prog, sizeof prog, "%s/prog", tmp);
	return rc;
}

/* The r-xp mapping the kernel makes for path's executable segment at base. */
static struct jh_mapping exec_map(const char *path, uint64_t base)
{
	struct jh_diag d;
	struct jh_elf_image *im = jh_elf_image_open(path, &d);
	assert_non_null(im);
	const struct jh_elf_load *ld;
	size_t n = jh_elf_image_loads(im, &ld);
	struct jh_mapping m = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (!(ld[i].flags & PF_X))
			continue;
		uint64_t lo = ld[i].vaddr & ~0xfffULL,
			 hi = (ld[i].vaddr + ld[i].filesz + 0xfff) & ~0xfffULL;
		m.start = base + lo;
		m.end = base + hi;
		m.offset = ld[i].offset & ~0xfffULL;
	}
	jh_elf_image_close(im);
	memcpy(m.perms, "r-xp", 5);
	m.path = (char *)path;
	return m;
}

static uint64_t sym_addr(const char *path, const char *name, uint64_t *size)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "nm -S -D --defined-only %s 2>/dev/null | awk '$4==\"%s\"'; nm -S %s 2>/dev/null "
		 "| awk '$4==\"%s\"'",
		 path, name, path, name);
	FILE *p = popen(cmd, "r");
	unsigned long long a = 0, s = 0;
	int ok = fscanf(p, "%llx %llx", &a, &s) == 2;
	pclose(p);
	assert_true(ok);
	if (size)
		*size = s;
	return a;
}

struct run {
	struct jh_intern names;
	struct jh_frames fr;
	struct jh_symresult res[8];
};

static void symbolize(struct jh_symbolizer *s, const struct jh_mapping *maps, size_t nmaps,
		      const uint64_t *pcs, size_t n, struct run *r)
{
	jh_intern_init(&r->names);
	memset(&r->fr, 0, sizeof(r->fr));
	struct jh_diag d = { { 0 }, 0 };
	assert_int_equal(jh_symbolize(s, maps, nmaps, pcs, n, &r->names, r->res, &r->fr, &d), 0);
}

static void release(struct run *r)
{
	free(r->fr.items);
	jh_intern_release(&r->names);
}

static const char *outer(const struct run *r, int i)
{
	return r->res[i].nframes ? r->fr.items[r->res[i].first].func : NULL;
}

static void test_modules(void **state)
{
	(void)state;
	uint64_t pie = 0x55d0c0de0000ULL, je = 0x7f0000000000ULL;
	struct jh_mapping maps[4] = { exec_map(prog, pie), exec_map(JEMALLOC, je) };
	memcpy(maps[2].perms, "r-xp", 5); /* [vdso] */
	maps[2].start = 0x7fff00000000ULL;
	maps[2].end = maps[2].start + 0x2000;
	maps[2].path = "[vdso]";
	memcpy(maps[3].perms, "rwxp", 5); /* anonymous JIT-like code */
	maps[3].start = 0x7e0000000000ULL;
	maps[3].end = maps[3].start + 0x10000;
	maps[3].path = "";

	uint64_t leaf = sym_addr(prog, "leaf_alloc", NULL), mussz;
	uint64_t mus = sym_addr(JEMALLOC, "malloc_usable_size", &mussz);
	uint64_t pcs[5] = { pie + leaf + 1, je + mus + 2, je + mus + mussz + 8,
			    maps[2].start + 0x10, maps[3].start + 0x10 };
	struct jh_symbolizer_opts o = { 0 };
	struct jh_symbolizer *s = jh_symbolizer_new(&o);
	struct run r;
	symbolize(s, maps, 4, pcs, 5, &r);

	assert_string_equal(r.res[0].module, prog);
	assert_int_equal(r.res[0].modaddr, leaf + 1);
	assert_true(r.res[0].status == JH_SYM_FULL || r.res[0].status == JH_SYM_SYMBOL);
	assert_string_equal(outer(&r, 0), "leaf_alloc");
	assert_false(r.res[0].allocator);
	if (r.res[0].status == JH_SYM_FULL) {
		const struct jh_frame *f = &r.fr.items[r.res[0].first + r.res[0].nframes - 1];
		assert_non_null(strstr(f->file, "symprog.c"));
	}

	assert_string_equal(r.res[1].module, JEMALLOC);
	assert_int_equal(r.res[1].modaddr, mus + 2);
	assert_int_equal(r.res[1].status, JH_SYM_SYMBOL);
	assert_string_equal(outer(&r, 1), "malloc_usable_size");
	assert_true(r.res[1].allocator);
	/* just past malloc_usable_size: jeprof's nm guess, here no name */
	assert_int_equal(r.res[2].status, JH_SYM_UNKNOWN);
	assert_int_equal(r.res[2].nframes, 0);
	assert_true(r.res[2].allocator);
	assert_int_equal(r.res[2].modaddr, mus + mussz + 8);

	for (int i = 3; i < 5; i++) {
		assert_null(r.res[i].module);
		assert_int_equal(r.res[i].status, JH_SYM_UNKNOWN);
		assert_int_equal(r.res[i].modaddr, pcs[i]);
	}

	/* another process of the same binary: other load address, same answers */
	uint64_t pie2 = 0x561100000000ULL;
	struct jh_mapping maps2[1] = { exec_map(prog, pie2) };
	uint64_t pcs2[1] = { pie2 + leaf + 1 };
	struct run r2;
	symbolize(s, maps2, 1, pcs2, 1, &r2);
	assert_int_equal(r2.res[0].modaddr, leaf + 1);
	assert_int_equal(r2.res[0].nframes, r.res[0].nframes);
	for (uint32_t k = 0; k < r.res[0].nframes; k++) {
		assert_string_equal(r2.fr.items[r2.res[0].first + k].func,
				    r.fr.items[r.res[0].first + k].func);
		assert_int_equal(r2.fr.items[r2.res[0].first + k].line,
				 r.fr.items[r.res[0].first + k].line);
	}
	release(&r);
	release(&r2);
	jh_symbolizer_free(s);
}

/* stderr captured around fn */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
	char path[300];
	snprintf(path, sizeof path, "%s/stderr", tmp);
	fflush(stderr);
	int saved = dup(2);
	FILE *f = fopen(path, "w+");
	dup2(fileno(f), 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	char *buf = calloc(1, 65536);
	size_t n = fread(buf, 1, 65535, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void two_calls_missing(void *arg)
{
	(void)arg;
	struct jh_mapping m = { .start = 0x7f1000000000ULL,
				.end = 0x7f1000010000ULL,
				.offset = 0x1000,
				.perms = "r-xp",
				.path = "/nonexistent/lib/libgone.so.1" };
	uint64_t pcs[2] = { m.start + 0x123, m.start + 0x456 };
	struct jh_symbolizer_opts o = { 0 };
	struct jh_symbolizer *s = jh_symbolizer_new(&o);
	struct run r;
	for (int i = 0; i < 2; i++) {
		symbolize(s, &m, 1, pcs, 2, &r);
		assert_int_equal(r.res[0].status, JH_SYM_UNKNOWN);
		assert_string_equal(r.res[0].module, "/nonexistent/lib/libgone.so.1");
		assert_int_equal(r.res[0].modaddr, 0x1123); /* file offset: libgone.so.1+0x1123 */
		assert_int_equal(r.res[1].modaddr, 0x1456);
		release(&r);
	}
	struct jh_modinfo mi;
	assert_int_equal(jh_symbolizer_modinfo(s, "/nonexistent/lib/libgone.so.1", &mi), 0);
	assert_int_equal(mi.state, JH_MOD_MISSING);
	assert_true(mi.explained);
	assert_string_equal(mi.reason, "tried: /nonexistent/lib/libgone.so.1");
	assert_int_equal(jh_symbolizer_modinfo(s, "/elsewhere/libgone.so.1", &mi), -1);
	jh_symbolizer_free(s);
}

static void warn_stderr(enum jh_msg kind, const char *msg)
{
	(void)kind;
	fprintf(stderr, "jeheap: warning: %s\n", msg);
}

static void test_missing_once(void **state)
{
	(void)state;
	jh_set_warn(warn_stderr);
	char *err = capture_stderr(two_calls_missing, NULL);
	jh_set_warn(NULL);
	const char *p = strstr(err, "libgone.so.1");
	assert_non_null(p);
	assert_null(strstr(p + 1, "libgone.so.1")); /* one warning for two calls */
	assert_string_equal(err,
			    "jeheap: warning: 1 mapped file not found here: "
			    "/nonexistent/lib/libgone.so.1; its frames stay unresolved "
			    "(--sysroot, --path-map or --lib_prefix point at copies; --verbose "
			    "says what was tried)\n");
	free(err);
}

/* One executable segment mapped in two pieces (as after an mprotect), the
 * second flagged " (deleted)" while the file is still there: one module,
 * one load bias. A mapping longer than the file's segment is a mismatch. */
static void test_split_and_deleted(void **state)
{
	(void)state;
	uint64_t base = 0x7f5500000000ULL;
	struct jh_mapping whole = exec_map(JEMALLOC, base);
	uint64_t mal = sym_addr(JEMALLOC, "malloc", NULL),
		 mus = sym_addr(JEMALLOC, "malloc_usable_size", NULL);
	uint64_t cut = (base + mus) & ~0xfffULL;
	assert_true(cut > base + mal && cut > whole.start && cut < whole.end);
	struct jh_mapping maps[2] = { whole, whole };
	maps[0].end = cut;
	maps[1].start = cut;
	maps[1].offset = whole.offset + (cut - whole.start);
	maps[1].deleted = 1;
	uint64_t pcs[2] = { base + mal + 1, base + mus + 1 };
	struct jh_symbolizer_opts o = { 0 };
	struct jh_symbolizer *s = jh_symbolizer_new(&o);
	struct run r;
	symbolize(s, maps, 2, pcs, 2, &r);
	assert_string_equal(outer(&r, 0), "malloc");
	assert_string_equal(outer(&r, 1), "malloc_usable_size");
	assert_int_equal(r.res[1].modaddr, mus + 1);
	assert_true(r.res[0].allocator && r.res[1].allocator);
	release(&r);
	jh_symbolizer_free(s);

	struct jh_mapping big = whole;
	big.end += 0x10000;
	s = jh_symbolizer_new(&o);
	symbolize(s, &big, 1, pcs, 1, &r);
	assert_int_equal(r.res[0].status, JH_SYM_UNKNOWN);
	assert_int_equal(r.res[0].nframes, 0);
	assert_true(r.res[0].allocator); /* by its name, though the file differs */
	assert_int_equal(r.res[0].modaddr, pcs[0] - whole.start + whole.offset);
	release(&r);
	jh_symbolizer_free(s);
}

/* --add_lib: addresses outside every mapping that are link-time addresses
 * of the library; and without it they stay in no module. */
static void test_add_lib(void **state)
{
	(void)state;
	uint64_t leaf = sym_addr(prog, "leaf_alloc", NULL);
	uint64_t pcs[1] = { leaf + 1 };
	char *libs[1] = { prog };
	struct jh_symbolizer_opts o = { 0 };
	struct jh_symbolizer *s = jh_symbolizer_new(&o);
	struct run r;
	symbolize(s, NULL, 0, pcs, 1, &r);
	assert_null(r.res[0].module);
	assert_int_equal(r.res[0].status, JH_SYM_UNKNOWN);
	release(&r);
	jh_symbolizer_free(s);

	o.add_libs = libs;
	o.nadd_libs = 1;
	s = jh_symbolizer_new(&o);
	symbolize(s, NULL, 0, pcs, 1, &r);
	assert_string_equal(r.res[0].module, prog);
	assert_int_equal(r.res[0].modaddr, leaf + 1);
	assert_string_equal(outer(&r, 0), "leaf_alloc");
	release(&r);
	jh_symbolizer_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_missing_once),
		cmocka_unit_test(test_add_lib),
		cmocka_unit_test(test_split_and_deleted),
	};
	return cmocka_run_group_tests(tests, setup, symtest_teardown);
}
