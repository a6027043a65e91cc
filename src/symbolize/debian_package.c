/*
 * debian_package.c - which Debian package installed a file: dpkg's file
 * lists (/var/lib/dpkg/info/PACKAGE[:ARCH].list) read as files, so the
 * coverage reports can name the debug package to install.
 */
#include "jeheap/symbolize.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* dpkg's path a names b, also across the /usr merge (/lib = /usr/lib). */
static int same_file(const char *a, const char *b)
{
	return !strcmp(a, b) || (!strncmp(b, "/usr/", 5) && !strcmp(a, b + 4)) ||
	       (!strncmp(a, "/usr/", 5) && !strcmp(a + 4, b));
}

/* Under the folders Debian's packages install programs and libraries in? (a
 * build tree or /tmp is not: its lists are not read for it at all) */
static int packaged(const char *p)
{
	return !strncmp(p, "/usr/", 5) || !strncmp(p, "/lib", 4) || !strncmp(p, "/bin/", 5) ||
	       !strncmp(p, "/sbin/", 6) || !strncmp(p, "/opt/", 5);
}

/* The start of a file's name a package of it is likely named by: "libstdc++"
 * of libstdc++.so.6.0.30 (libstdc++6), "redis" of redis-check-rdb (redis-tools). */
static size_t stem(const char *path, const char **b)
{
	const char *s = strrchr(path, '/');
	*b = s ? s + 1 : path;
	return strcspn(*b, ".-_");
}

/* The lists of dpkg's folder, those likely to hold one of paths first. */
static char **lists(const char *dir, const char *const *paths, char *const *real, size_t n,
		    size_t *count)
{
	DIR *dp = opendir(dir);
	char **v = NULL;
	size_t nv = 0, av = 0, likely = 0;
	struct dirent *e;
	while (dp && (e = readdir(dp))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".list"))
			continue;
		JH_GROW(v, nv + 1, av);
		v[nv++] = xstrdup(e->d_name);
		for (size_t i = 0; i < 2 * n; i++) {
			const char *p = i < n ? paths[i] : real[i - n], *b;
			size_t k = p ? stem(p, &b) : 0;
			if (k && !strncmp(e->d_name, b, k)) {
				char *t = v[likely];
				v[likely++] = v[nv - 1];
				v[nv - 1] = t;
				break;
			}
		}
	}
	if (dp)
		closedir(dp);
	*count = nv;
	return v;
}

size_t jh_debian_packages(const char *const *paths, size_t n, char (*pkg)[JH_PKG_NAME])
{
	static const char dir[] = "/var/lib/dpkg/info";
	size_t left = n;
	char **real = xcalloc(n + 1, sizeof(*real));
	char *done = xcalloc(n + 1, 1); /* not looked for: a path no package installs */
	for (size_t i = 0; i < n; i++) {
		pkg[i][0] = 0;
		real[i] = realpath(paths[i], NULL);
		if (!packaged(paths[i]) && !(real[i] && packaged(real[i]))) {
			done[i] = 1;
			left--;
		}
	}
	size_t nl = 0;
	char **names = left ? lists(dir, paths, real, n, &nl) : NULL;
	char line[4096];
	for (size_t li = 0; li < nl && left; li++) {
		const char *name = names[li];
		size_t len = strlen(name);
		char file[sizeof(dir) + 256 + 2];
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		FILE *f = fopen(file, "r");
		if (!f)
			continue;
		/* the package: the name without ".list" and ":ARCH" */
		const char *colon = memchr(name, ':', len - 5);
		int plen = (int)(colon ? (size_t)(colon - name) : len - 5);
		while (left && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			for (size_t i = 0; i < n; i++)
				if (!done[i] && !pkg[i][0] &&
				    (same_file(line, paths[i]) ||
				     (real[i] && same_file(line, real[i])))) {
					snprintf(pkg[i], JH_PKG_NAME, "%.*s", plen, name);
					left--;
				}
		}
		fclose(f);
	}
	for (size_t li = 0; li < nl; li++)
		free(names[li]);
	free(names);
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		free(real[i]);
		found += pkg[i][0] != 0;
	}
	free(real);
	free(done);
	return found;
}
