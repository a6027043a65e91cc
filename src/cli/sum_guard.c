/*
 * sum_guard.c - several profiles without --series or --base are summed, as
 * jeprof does; when their jemalloc file names say they are dumps of one
 * process at different times, or of several processes, one warning says
 * so and points at --series and --base. A file given twice is said once.
 */
#include "cli.h"

#include "jeheap/series.h"

#include <string.h>
#include <sys/stat.h>

size_t jh_profiles_twice(const struct jh_options *o, size_t *first, size_t *again)
{
	size_t n = o->nprofiles, distinct = 0;
	struct stat *st = xcalloc(n ? n : 1, sizeof(*st));
	int *ok = xcalloc(n ? n : 1, sizeof(*ok));
	*first = *again = n;
	for (size_t i = 0; i < n; i++) {
		ok[i] = strcmp(o->profiles[i], "-") && !stat(o->profiles[i], &st[i]);
		size_t k = 0;
		while (k < i && !(ok[i] && ok[k] && st[k].st_dev == st[i].st_dev &&
				  st[k].st_ino == st[i].st_ino))
			k++;
		if (k == i)
			distinct++;
		else if (*again == n)
			*first = k, *again = i;
	}
	free(st);
	free(ok);
	return distinct;
}

void jh_sum_guard(const struct jh_options *o)
{
	size_t one, two;
	jh_profiles_twice(o, &one, &two);
	if (two < o->nprofiles && !strcmp(o->profiles[one], o->profiles[two]))
		jh_warn("'%s' is given twice: its samples are summed twice", o->profiles[one]);
	else if (two < o->nprofiles)
		jh_warn("'%s' and '%s' are the same file: its samples are summed twice",
			o->profiles[one], o->profiles[two]);
	if (o->nprofiles < 2 || o->nbases || o->series)
		return;
	size_t named = 0, seqs = 1, pids = 0;
	struct jh_dump_name first = { 0 };
	uint64_t pid[3] = { 0 }; /* the first distinct pids, for the message */
	for (size_t i = 0; i < o->nprofiles; i++) {
		struct jh_dump_name dn;
		jh_dump_name_parse(o->profiles[i], &dn);
		if (!dn.ok)
			continue;
		if (!named++)
			first = dn;
		else
			seqs += dn.pid == first.pid && dn.seq != first.seq;
		size_t k = 0;
		while (k < pids && k < 3 && pid[k] != dn.pid)
			k++;
		if (k == pids && k < 3)
			pid[pids++] = dn.pid;
		else if (k == 3)
			pids = 4; /* more than three */
	}
	if (named < 2 || (pids == 1 && seqs == 1))
		return;
	if (pids > 1)
		jh_warn("summing %zu dumps of different processes (pids %llu, %llu%s): --series "
			"follows dumps over time, --base=OLD shows what changed",
			named, (unsigned long long)pid[0], (unsigned long long)pid[1],
			pids > 2 ? ", ..." : "");
	else
		jh_warn("summing %zu dumps of process %llu taken at different times: "
			"--series follows them over time, --base=OLD shows what changed",
			named, (unsigned long long)first.pid);
}
