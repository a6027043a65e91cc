/*
 * Every file in testdata/fuzz-regressions/elf/ (inputs that once crashed the
 * ELF/DWARF readers under tests/fuzz/fuzz_elf.c) goes through the same
 * exercise as the fuzzer: each must give results or a diagnostic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "../fuzz/elf_exercise.h"

static void test_regressions(void **state)
{
	(void)state;
	const char *src = getenv("JH_SRC");
	assert_non_null(src);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/testdata/fuzz-regressions/elf", src);
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	int n = 0;
	for (struct dirent *e; (e = readdir(dp));) {
		if (e->d_name[0] == '.')
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(jh_exercise_elf(path), 0);
		n++;
	}
	closedir(dp);
	assert_true(n > 0);
}

/* The file that made libdwarf double-free must still have its symbols and
 * lose only the hidden range lists: its DWARF opens and answers. */
static void test_rnglists_hidden(void **state)
{
	(void)state;
	char path[4096];
	snprintf(path, sizeof(path),
		 "%s/testdata/fuzz-regressions/elf/rnglists-length-overflow.elf", getenv("JH_SRC"));
	struct jh_diag d = { { 0 }, 0 };
	struct jh_sections *s = jh_sections_open(path, &d);
	assert_non_null(s);
	const struct jh_section *rl = jh_sections_find(s, ".debug_rnglists");
	assert_non_null(rl);
	struct jh_dwarf *dw = jh_dwarf_open(s, NULL, &d);
	assert_non_null(dw);
	jh_dwarf_close(dw);
	jh_sections_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_rnglists_hidden),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
