/* series_name.c - the order of a series by jemalloc's dump file names
 * (PREFIX.<pid>.<seq>.<tag><n>.heap, dump_name.h; series.h). */
#include "jeheap/series.h"

#include <stdlib.h>
#include <string.h>

struct named {
	size_t idx;
	struct jh_dump_name nm;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	if (x->nm.seq != y->nm.seq)
		return x->nm.seq < y->nm.seq ? -1 : 1;
	if (x->nm.n != y->nm.n)
		return x->nm.n < y->nm.n ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int jh_series_order(char *const *paths, size_t n, int allow_mixed, size_t *order, struct jh_diag *d)
{
	struct named *nm = xcalloc(n ? n : 1, sizeof(*nm));
	size_t k = 0, first = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		struct jh_dump_name dn;
		jh_dump_name_parse(paths[i], &dn);
		if (!dn.ok)
			continue;
		if (first == SIZE_MAX) {
			first = i;
		} else if (!allow_mixed && nm[0].nm.pid != dn.pid) {
			jh_diag_set(
				d, JH_EXIT_USAGE, NULL, 0,
				"--series: %s (pid %llu) and %s (pid %llu) are dumps of different "
				"processes; --allow-mixed follows them anyway",
				paths[first], (unsigned long long)nm[0].nm.pid, paths[i],
				(unsigned long long)dn.pid);
			free(nm);
			return -1;
		}
		nm[k++] = (struct named){ i, dn };
	}
	/* the named files' places, refilled in sequence order */
	size_t *slots = xmalloc((k ? k : 1) * sizeof(*slots));
	for (size_t j = 0; j < k; j++)
		slots[j] = nm[j].idx;
	jh_qsort(nm, k, sizeof(*nm), cmp_named);
	for (size_t j = 0; j < k; j++)
		order[slots[j]] = nm[j].idx;
	free(slots);
	free(nm);
	return 0;
}
