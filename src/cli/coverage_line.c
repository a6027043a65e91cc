/*
 * coverage_line.c - the one line a run on raw dumps ends with: the share of
 * bytes whose addresses got names with lines, and the modules that have no
 * debug info, with what to do (the Debian debug package that holds it, or
 * -g). What is normal is left out: _start (crt1 has no line table) and the
 * dynamic loader. --verbose adds the per-module detail (jh_model_coverage).
 */
#include "coverage_line.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* dpkg's path a names b, also across the /usr merge (/lib = /usr/lib). */
static int same_file(const char *a, const char *b)
{
	return !strcmp(a, b) || (!strncmp(b, "/usr/", 5) && !strcmp(a, b + 4)) ||
	       (!strncmp(a, "/usr/", 5) && !strcmp(a + 4, b));
}

/* The Debian package that installed path (dpkg's file lists, read as
 * files), into pkg; 0 if none. */
static int dpkg_owner(const char *path, char *pkg, size_t size)
{
	static const char dir[] = "/var/lib/dpkg/info";
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	char line[4096], *real = realpath(path, NULL);
	int found = 0;
	struct dirent *e;
	while (!found && (e = readdir(dp))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".list"))
			continue;
		char file[sizeof(dir) + 256 + 2];
		snprintf(file, sizeof(file), "%s/%s", dir, e->d_name);
		FILE *f = fopen(file, "r");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			found = same_file(line, path) || (real && same_file(line, real));
		}
		fclose(f);
		if (found) {
			size_t l = strcspn(e->d_name, ":.");
			snprintf(pkg, size, "%.*s", (int)(l < n - 5 ? l : n - 5), e->d_name);
		}
	}
	free(real);
	closedir(dp);
	return found;
}

/* What to do about a module without debug info. */
static void hint(struct jh_sb *sb, const char *module)
{
	char pkg[256];
	if (dpkg_owner(module, pkg, sizeof(pkg)))
		jh_sb_addf(sb, "%s: install %s-dbgsym (or %s-dbg) or point --debug-dir at it",
			   base_name(module), pkg, pkg);
	else
		jh_sb_addf(sb, "%s: build it with -g or point --debug-dir at its debug file",
			   base_name(module));
}

static int cmp_short(const void *pa, const void *pb)
{
	const struct jh_coverage_module *a = pa, *b = pb;
	return a->bytes_short < b->bytes_short ? 1 : a->bytes_short > b->bytes_short ? -1 : 0;
}

void jh_coverage_line(const struct jh_model *m, FILE *f)
{
	struct jh_coverage c;
	if (!jh_model_coverage_tally(m, &c))
		return; /* names from .symbolized files only: nothing to say */
	struct jh_coverage_module *mods = c.mods;
	size_t nmods = c.nmods;
	double full = c.full_bytes, total = c.total_bytes;
	/* without debug info: names from the symbol table only, no line
	 * anywhere (a missing file was warned about already) */
	size_t nodebug = 0;
	for (size_t j = 0; j < nmods; j++)
		if (!mods[j].full && mods[j].symbol)
			mods[nodebug++] = mods[j];
	if (nodebug)
		qsort(mods, nodebug, sizeof(*mods), cmp_short);
	struct jh_sb sb;
	jh_sb_init(&sb);
	jh_sb_addf(&sb, "jeheap: %.1f%% of bytes fully symbolized",
		   total > 0 ? 100 * full / total : 100.0);
	if (nodebug) {
		jh_sb_addf(&sb, "; %zu module%s without debug info (", nodebug,
			   nodebug > 1 ? "s" : "");
		hint(&sb, mods[0].module);
		jh_sb_adds(&sb, nodebug > 1 ? "; --verbose names them all)" : ")");
	}
	fprintf(f, "%s\n", sb.buf);
	jh_sb_release(&sb);
	free(mods);
}
