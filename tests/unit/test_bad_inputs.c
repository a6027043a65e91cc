/*
 * Every testdata/bad/<name> with a sibling <name>.expected must fail to read
 * with exactly that line ("jeheap: <message>"); a .expected without its
 * input is the missing-file case. Every file in testdata/fuzz-regressions/
 * (crash inputs found by the fuzzers) must read or fail cleanly, from its file
 * and from memory.
 * JH_UPDATE=1 rewrites the .expected files (review the diff!).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jeheap/profile.h"

static char *dir_path(const char *sub)
{
	const char *src = getenv("JH_SRC");
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "%s/testdata/%s", src ? src : ".", sub);
	return jh_sb_detach(&sb);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the directory's files ending in suffix ("" = all). */
static char **list(const char *dir, const char *suffix, size_t *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t alloc = 0;
	*n = 0;
	if (!d)
		return NULL;
	struct dirent *e;
	size_t sl = strlen(suffix);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix))
			continue;
		JH_GROW(v, *n + 1, alloc);
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static void test_bad_inputs(void **state)
{
	(void)state;
	char *dir = dir_path("bad");
	char old[4096];
	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(dir), 0);
	size_t n;
	char **names = list(".", ".expected", &n);
	assert_true(n >= 20);
	int update = getenv("JH_UPDATE") != NULL, failed = 0;
	for (size_t i = 0; i < n; i++) {
		char *input = xstrndup(names[i], strlen(names[i]) - strlen(".expected"));
		struct jh_profile p;
		struct jh_diag d = { { 0 }, 0 };
		jh_profile_init(&p);
		int rc = jh_profile_read(&p, input, &d);
		jh_profile_release(&p);
		char got[1100];
		snprintf(got, sizeof(got), "jeheap: %s\n", d.msg);
		if (update) {
			FILE *f = fopen(names[i], "w");
			fputs(got, f);
			fclose(f);
		}
		FILE *f = fopen(names[i], "r");
		char want[1100] = "";
		if (!f || !fgets(want, sizeof(want), f))
			want[0] = 0;
		if (f)
			fclose(f);
		int code = JH_EXIT_INPUT; /* else as <name>.status says */
		char status[4096];
		snprintf(status, sizeof(status), "%s.status", input);
		if ((f = fopen(status, "r"))) {
			if (fscanf(f, "%d", &code) != 1)
				code = -1;
			fclose(f);
		}
		if (rc != -1 || d.code != code || strcmp(got, want)) {
			print_error("%s: rc %d code %d\n  got:  %s  want: %s", input, rc, d.code,
				    got, want);
			failed++;
		}
		free(input);
		free(names[i]);
	}
	free(names);
	assert_int_equal(chdir(old), 0);
	free(dir);
	assert_int_equal(failed, 0);
}

static void test_fuzz_regressions(void **state)
{
	(void)state;
	char *dir = dir_path("fuzz-regressions");
	size_t n;
	char **names = list(dir, "", &n);
	for (size_t i = 0; i < n; i++) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct jh_profile p;
		struct jh_diag d = { { 0 }, 0 };
		jh_profile_init(&p);
		int rc = jh_profile_read(&p, path, &d);
		jh_profile_release(&p);
		if (rc != 0 && (rc != -1 || !d.msg[0] || d.code != JH_EXIT_INPUT))
			fail_msg("%s: rc %d, code %d, msg '%s'", names[i], rc, d.code, d.msg);
		/* and from memory, as the fuzzers read it (another buffering) */
		struct jh_sb mem;
		jh_sb_init(&mem);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char chunk[4096];
		size_t k;
		while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
			jh_sb_add(&mem, chunk, k);
		fclose(f);
		struct jh_diag dm = { { 0 }, 0 };
		jh_profile_init(&p);
		rc = jh_profile_read_mem(&p, mem.buf, mem.len, names[i], &dm);
		jh_profile_release(&p);
		jh_sb_release(&mem);
		if (rc != 0 && (rc != -1 || !dm.msg[0] || dm.code != JH_EXIT_INPUT))
			fail_msg("%s (memory): rc %d, code %d, msg '%s'", names[i], rc, dm.code,
				 dm.msg);
		free(names[i]);
	}
	free(names);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_fuzz_regressions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
