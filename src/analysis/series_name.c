/* series_name.c - jemalloc dump file names (PREFIX.<pid>.<seq>.<tag><n>.heap)
 * and the order of a series (series.h). */
#include "jeheap/series.h"

#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, size_t n, const char *suf, size_t *cut)
{
	size_t k = strlen(suf);
	if (n < k || memcmp(s + n - k, suf, k))
		return 0;
	*cut = n - k;
	return 1;
}

/* Reads the decimal number that ends at s[end) (digits back to a '.'), its
 * start in *start. 0 when there is none or it does not fit. */
static int number_before(const char *s, size_t end, size_t *start, uint64_t *v)
{
	size_t i = end;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == end || end - i > 19)
		return 0;
	uint64_t x = 0;
	for (size_t j = i; j < end; j++)
		x = x * 10 + (uint64_t)(s[j] - '0');
	*start = i;
	*v = x;
	return 1;
}

void jh_dump_name_parse(const char *path, struct jh_dump_name *out)
{
	memset(out, 0, sizeof(*out));
	const char *s = strrchr(path, '/');
	s = s ? s + 1 : path;
	size_t n = strlen(s), cut;
	if (ends_with(s, n, ".gz", &cut) || ends_with(s, n, ".zst", &cut) ||
	    ends_with(s, n, ".zstd", &cut))
		n = cut;
	if (!ends_with(s, n, ".heap", &cut))
		return;
	size_t i;
	uint64_t num, seq, pid;
	/* .<tag><n>, or .<tag> alone (the final dump: PREFIX.<pid>.<seq>.f.heap) */
	if (!number_before(s, cut, &i, &num))
		i = cut, num = 0;
	if (i < 2 || s[i - 2] != '.')
		return;
	char tag = s[i - 1];
	if (!((tag >= 'a' && tag <= 'z') || (tag >= 'A' && tag <= 'Z')))
		return;
	/* .<seq> */
	size_t end = i - 2;
	if (!number_before(s, end, &i, &seq) || i < 1 || s[i - 1] != '.')
		return;
	/* .<pid> (after a prefix, which may be empty) */
	end = i - 1;
	if (!number_before(s, end, &i, &pid) || (i > 0 && s[i - 1] != '.'))
		return;
	*out = (struct jh_dump_name){ .ok = 1, .pid = pid, .seq = seq, .n = num, .tag = tag };
}

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
