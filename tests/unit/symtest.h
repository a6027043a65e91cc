/*
 * symtest.h - scratch directory for the symbolizer unit tests: created by
 * symtest_setup, which runs a build snippet there (shell variable S = the
 * fixture directory; stub.c defines the symlib_alloc that symprog.c calls),
 * and removed by symtest_teardown. Include once per test program.
 */
#ifndef JEHEAP_SYMTEST_H
#define JEHEAP_SYMTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmp[256];

static int symtest_setup(const char *name, const char *build)
{
	snprintf(tmp, sizeof tmp, "/tmp/jh_%s.XXXXXX", name);
	if (!mkdtemp(tmp))
		return -1;
	size_t n = strlen(build) + 1024;
	char *cmd = malloc(n);
	snprintf(cmd, n,
		 "cd %s && S=%s/tests/fixtures/sym"
		 " && printf 'char *symlib_alloc(unsigned long n){return (char *)n;}\\n' > stub.c "
		 "&& %s",
		 tmp, getenv("JH_SRC"), build);
	int rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

static int symtest_teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
	return system(cmd);
}

#endif
