/*
 * test_sections.c - the section store: compressed variants of a freshly
 * compiled program (objcopy zlib-gabi, zlib-gnu .zdebug, zstd) give the
 * same section bytes as the plain file; truncated, zero-filled, non-ELF,
 * wrong-architecture and corrupt-payload files give NULL and a one-line
 * diagnostic (or a section without bytes), never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf_index.h"
#include "sections.h"

static char dir[256];

static void path_of(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", dir, name);
}

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static unsigned char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(*n + 1);
	assert_int_equal(fread(b, 1, *n, f), *n);
	fclose(f);
	return b;
}

static void spit(const char *p, const unsigned char *b, size_t n)
{
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/jh_sections_XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	if (sh("cd %s && printf '%%s\\n' '#include <stdio.h>' "
	       "'static int sq(int x) { return x * x; }' "
	       "'int main(int c, char **v) { printf(\"%%d %%s\\\\n\", sq(c), v[0]); return 0; }' > "
	       "t.c && "
	       "cc -g -O2 t.c -o plain && "
	       "objcopy --compress-debug-sections=zlib-gabi plain gabi && "
	       "objcopy --compress-debug-sections=zlib-gnu plain gnu && "
	       "objcopy --compress-debug-sections=zstd plain zstd",
	       dir) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

static struct jh_sections *open_ok(const char *name)
{
	char p[512];
	struct jh_diag d = { { 0 }, 0 };
	path_of(p, sizeof(p), name);
	struct jh_sections *s = jh_sections_open(p, &d);
	if (!s)
		fail_msg("%s: %s", name, d.msg);
	return s;
}

static void same_debug_sections(const char *variant, int prefetch)
{
	struct jh_sections *plain = open_ok("plain"), *v = open_ok(variant);
	if (prefetch) {
		static const char *const all[] = { ".debug_info",   ".debug_line",    ".debug_str",
						   ".debug_abbrev", ".debug_aranges", NULL };
		jh_sections_prefetch(v, all, 2);
	}
	int compared = 0, compressed = 0;
	for (size_t i = 1; i < jh_sections_count(plain); i++) {
		const struct jh_section *a = jh_sections_at(plain, i);
		if (strncmp(a->name, ".debug_", 7) != 0)
			continue;
		const struct jh_section *peek = NULL;
		for (size_t j = 1; j < jh_sections_count(v); j++)
			if (!strcmp(jh_sections_peek(v, j)->name, a->name))
				peek = jh_sections_peek(v, j);
		assert_non_null(peek);
		assert_int_equal(peek->size, a->size); /* announced before inflating */
		const struct jh_section *b = jh_sections_find(v, a->name);
		assert_ptr_equal(b, peek);
		assert_non_null(b->data);
		assert_int_equal(b->size, a->size);
		assert_int_equal(b->flags, a->flags);
		assert_memory_equal(b->data, a->data, a->size);
		compared++;
		/* the plain file's bytes are zero-copy; compressed ones are not in the map */
		compressed += b->data != a->data;
	}
	assert_true(compared >= 4);
	assert_true(compressed >= 4);
	/* "debug_info" without the dot finds it too */
	assert_non_null(jh_sections_find(v, "debug_info"));
	assert_true(jh_sections_is_64bit(v));
	jh_sections_close(v);
	jh_sections_close(plain);
}

static void test_zlib_gabi(void **state)
{
	(void)state;
	same_debug_sections("gabi", 0);
}

static void test_zlib_gnu_zdebug(void **state)
{
	(void)state;
	char p[512];
	path_of(p, sizeof(p), "gnu");
	assert_int_equal(sh("readelf -S %s | grep -q '\\.zdebug_info'", p), 0);
	same_debug_sections("gnu", 0);
}

static void test_zstd(void **state)
{
	(void)state;
	same_debug_sections("zstd", 1);
}

/* NULL, and a message that names the file and is one line. */
static void expect_reject(const char *name, const char *what)
{
	char p[512];
	struct jh_diag d = { { 0 }, 0 };
	path_of(p, sizeof(p), name);
	struct jh_sections *s = jh_sections_open(p, &d);
	assert_null(s);
	assert_non_null(strstr(d.msg, p));
	assert_null(strchr(d.msg, '\n'));
	if (!strstr(d.msg, what))
		fail_msg("%s: message '%s' lacks '%s'", name, d.msg, what);
	assert_int_equal(d.code, JH_EXIT_INPUT);
}

static void test_truncated(void **state)
{
	(void)state;
	char p[512];
	size_t n;
	path_of(p, sizeof(p), "plain");
	unsigned char *b = slurp(p, &n);
	/* Cut inside the sections (header table at the end is lost too), and
	 * cut just before the end (section header table truncated). */
	path_of(p, sizeof(p), "trunc_half");
	spit(p, b, n / 2);
	expect_reject("trunc_half", "");
	path_of(p, sizeof(p), "trunc_tail");
	spit(p, b, n - 100);
	expect_reject("trunc_tail", "");
	path_of(p, sizeof(p), "trunc_hdr");
	spit(p, b, 40);
	expect_reject("trunc_hdr", "");
	free(b);
}

static void test_zero_filled_and_not_elf(void **state)
{
	(void)state;
	char p[512];
	size_t n;
	path_of(p, sizeof(p), "plain");
	unsigned char *b = slurp(p, &n);
	memset(b, 0, n);
	path_of(p, sizeof(p), "zeros");
	spit(p, b, n);
	expect_reject("zeros", "not an ELF file");
	path_of(p, sizeof(p), "text");
	spit(p, (const unsigned char *)"hello, this is not an ELF file\n", 31);
	expect_reject("text", "not an ELF file");
	path_of(p, sizeof(p), "empty");
	spit(p, b, 0);
	expect_reject("empty", "not an ELF file");
	expect_reject("does-not-exist", "cannot open");
	free(b);
}

static void test_wrong_architecture(void **state)
{
	(void)state;
	char p[512];
	size_t n;
	path_of(p, sizeof(p), "plain");
	unsigned char *b = slurp(p, &n);
	uint16_t machine = 183; /* EM_AARCH64, or EM_X86_64 on an arm host */
	uint16_t host;
	memcpy(&host, b + 18, 2);
	if (host == machine)
		machine = 62;
	memcpy(b + 18, &machine, 2);
	path_of(p, sizeof(p), "otherarch");
	spit(p, b, n);
	expect_reject("otherarch", "another architecture");
	free(b);
}

/* Payload of a compressed .debug_info overwritten: open works (inflating is
 * lazy), the section then has no bytes, and the DWARF reader says so. */
static void test_corrupt_payload(void **state)
{
	(void)state;
	char p[512], q[512];
	size_t n;
	path_of(p, sizeof(p), "gabi");
	unsigned char *b = slurp(p, &n);
	int fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstrndx;
	assert_int_equal(elf_getshdrstrndx(e, &shstrndx), 0);
	uint64_t off = 0, size = 0;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr shdr;
		gelf_getshdr(scn, &shdr);
		if (!strcmp(elf_strptr(e, shstrndx, shdr.sh_name), ".debug_info"))
			off = shdr.sh_offset, size = shdr.sh_size;
	}
	elf_end(e);
	close(fd);
	assert_true(size > 64);
	memset(b + off + 24 + 2, 0xa5, size - 24 - 2);
	path_of(q, sizeof(q), "corrupt");
	spit(q, b, n);
	free(b);

	struct jh_diag d = { { 0 }, 0 };
	struct jh_sections *s = jh_sections_open(q, &d);
	assert_non_null(s);
	const struct jh_section *info = jh_sections_find(s, ".debug_info");
	assert_non_null(info);
	assert_null(info->data);
	struct jh_dwarf *dw = jh_dwarf_open(s, NULL, &d);
	assert_null(dw);
	assert_non_null(strstr(d.msg, "debug_info"));
	jh_sections_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zlib_gabi),
		cmocka_unit_test(test_zlib_gnu_zdebug),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_zero_filled_and_not_elf),
		cmocka_unit_test(test_wrong_architecture),
		cmocka_unit_test(test_corrupt_payload),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
