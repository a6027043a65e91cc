/*
 * dump_name.c - jemalloc's dump file names (see dump_name.h).
 */
#include "jeheap/dump_name.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A decimal number at *s (digits only, no sign), advancing *s. */
static int number(const char **s, uint64_t *out)
{
	if (!isdigit((unsigned char)**s))
		return 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(*s, &end, 10);
	if (errno)
		return 0;
	*s = end;
	*out = v;
	return 1;
}

/* The length of name without a known suffix after ".heap", or 0 without ".heap". */
static size_t heap_end(const char *name)
{
	static const char extra[][12] = { "", ".gz", ".zst", ".zstd", ".symbolized" };
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		size_t e = strlen(extra[i]);
		if (len >= 5 + e && !strcmp(name + len - e, extra[i]) &&
		    !strncmp(name + len - e - 5, ".heap", 5))
			return len - e - 5;
	}
	return 0;
}

int jh_dump_name_parse(const char *path, struct jh_dump_name *dn)
{
	memset(dn, 0, sizeof(*dn));
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	size_t end = heap_end(name);
	/* PREFIX may hold dots: try every dot as the one before <pid> */
	for (const char *p = strchr(name, '.'); p && (size_t)(p - name) < end;
	     p = strchr(p + 1, '.')) {
		struct jh_dump_name r = { 0 };
		const char *s = p + 1;
		if (!number(&s, &r.pid) || *s++ != '.' || !number(&s, &r.seq) || *s++ != '.')
			continue;
		if (!isalpha((unsigned char)*s))
			continue;
		r.tag = *s++;
		r.has_n = number(&s, &r.n);
		if ((size_t)(s - name) != end)
			continue;
		r.ok = 1;
		*dn = r;
		return 1;
	}
	return 0;
}
