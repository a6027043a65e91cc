/* test_collapsed_msort.c - the sorts of --collapsed's keys
 * (collapsed_msort.h): the merge sort, sorted a cache-sized block at a
 * time and then merged, gives the same order as qsort's, ties kept in
 * input order (stable), for sizes around the block and run edges, of two
 * element sizes (two block sizes), random keys with many ties and
 * without; the radix split (most significant digit first) on 128-bit
 * keys that differ in either half or both gives qsort's order of keys,
 * every element kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "xorshift_test.h"

#include "collapsed_msort.h"

static uint64_t rnd_state = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void)
{
	return jh_test_rnd(&rnd_state);
}

struct small {
	uint32_t key, idx;
};
struct big { /* as large as collapsed_sort.c's rank keys */
	uint64_t key;
	uint32_t idx;
	char pad[20];
};

#define KEY_LE(x, y) ((x)->key <= (y)->key)
JH_MSORT(sort_small, struct small, KEY_LE)
JH_MSORT(sort_big, struct big, KEY_LE)

/* The order a stable sort gives: by key, then input position. */
#define CMP_KEY_IDX(T)                                                         \
	static int cmp_##T(const void *a, const void *b)                           \
	{                                                                          \
		const struct T *x = a, *y = b;                                         \
		if (x->key != y->key)                                                  \
			return x->key < y->key ? -1 : 1;                                   \
		return (x->idx > y->idx) - (x->idx < y->idx);                          \
	}
CMP_KEY_IDX(small)
CMP_KEY_IDX(big)

/* Sizes: small ones, and around 1, 2, 3 and 4 blocks of b. */
static size_t sizes(size_t b, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i <= 17; i++)
		out[n++] = i;
	static const size_t mult[] = {1, 2, 3, 4};
	static const long off[] = {-5, -4, -3, -1, 0, 1, 3, 4, 5, 9};
	for (size_t m = 0; m < 4; m++)
		for (size_t o = 0; o < sizeof(off) / sizeof(*off); o++)
			out[n++] = (size_t)((long)(mult[m] * b) + off[o]);
	out[n++] = 5 * b / 2 + 7;
	return n;
}

#define CHECK_SORT(T, sortfn)                                                  \
	static void check_##T(size_t n, uint64_t range)                            \
	{                                                                          \
		struct T *a = calloc(n + 1, sizeof(*a)), *want = calloc(n + 1, sizeof(*a)); \
		struct T *tmp = calloc(n + 1, sizeof(*a));                             \
		for (size_t i = 0; i < n; i++) {                                       \
			a[i].key = range ? (uint32_t)(rnd() % range) : (uint32_t)rnd();     \
			a[i].idx = (uint32_t)i;                                            \
		}                                                                      \
		memcpy(want, a, n * sizeof(*a));                                       \
		qsort(want, n, sizeof(*a), cmp_##T);                                   \
		sortfn(a, n, tmp);                                                     \
		for (size_t i = 0; i < n; i++) {                                       \
			assert_int_equal(a[i].key, want[i].key);                           \
			assert_int_equal(a[i].idx, want[i].idx);                           \
		}                                                                      \
		free(a);                                                               \
		free(want);                                                            \
		free(tmp);                                                             \
	}
CHECK_SORT(small, sort_small)
CHECK_SORT(big, sort_big)

static void test_small(void **state)
{
	(void)state;
	size_t sz[64], n = sizes(JH_MSORT_BLOCK(struct small), sz);
	assert_int_equal(JH_MSORT_BLOCK(struct small), 16384);
	for (size_t i = 0; i < n; i++) {
		check_small(sz[i], 0);
		check_small(sz[i], 50);
	}
}

static void test_big(void **state)
{
	(void)state;
	size_t sz[64], n = sizes(JH_MSORT_BLOCK(struct big), sz);
	assert_int_equal(JH_MSORT_BLOCK(struct big), 4096);
	for (size_t i = 0; i < n; i++) {
		check_big(sz[i], 0);
		check_big(sz[i], 3);
	}
}

struct wide {
	uint64_t hi, lo;
	uint32_t idx;
};
#define WIDE_KEY(x) ((unsigned __int128)(x)->hi << 64 | (x)->lo)
/* ties broken beyond the key (as the stack keys' are) */
#define WIDE_LE(x, y) (WIDE_KEY(x) < WIDE_KEY(y) || (WIDE_KEY(x) == WIDE_KEY(y) && (x)->idx <= (y)->idx))
JH_MSORT(msort_wide, struct wide, WIDE_LE)
JH_MSD_SORT(sort_wide, struct wide, WIDE_KEY, msort_wide, 1)
JH_MSD_SORT(sort_wide_anyhow, struct wide, WIDE_KEY, msort_wide, 0)

static int cmp_wide(const void *a, const void *b)
{
	const struct wide *p = a, *q = b;
	unsigned __int128 x = WIDE_KEY(p), y = WIDE_KEY(q);
	return x != y ? (x > y) - (x < y) : (p->idx > q->idx) - (p->idx < q->idx);
}

/* n keys: hi below hr and lo below lr (0: any), the lo bits shifted by
 * ls; sorted with ties broken (qsort's order exactly) or left. */
static void check_wide(size_t n, uint64_t hr, uint64_t lr, int ls, int ties)
{
	struct wide *a = calloc(n + 1, sizeof(*a)), *orig = calloc(n + 1, sizeof(*a));
	struct wide *tmp = calloc(n + 1, sizeof(*a));
	uint32_t *seen = calloc(n + 1, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		a[i].hi = hr ? rnd() % hr : rnd();
		a[i].lo = (lr ? rnd() % lr : rnd()) << ls;
		a[i].idx = (uint32_t)i;
	}
	memcpy(orig, a, n * sizeof(*a));
	if (ties)
		sort_wide(a, n, tmp);
	else
		sort_wide_anyhow(a, n, tmp);
	struct wide *want = tmp; /* done with */
	memcpy(want, orig, n * sizeof(*a));
	qsort(want, n, sizeof(*a), cmp_wide);
	for (size_t i = 0; i < n; i++) {
		assert_true(WIDE_KEY(&a[i]) == WIDE_KEY(&want[i]));
		if (ties)
			assert_int_equal(a[i].idx, want[i].idx);
		assert_true(a[i].idx < n);
		assert_true(WIDE_KEY(&a[i]) == WIDE_KEY(&orig[a[i].idx]));
		assert_int_equal(seen[a[i].idx]++, 0);
	}
	free(a);
	free(orig);
	free(tmp);
	free(seen);
}

static void test_msd(void **state)
{
	(void)state;
	static const size_t n[] = {0, 1, 2, 15, 16, 17, 18, 63, 64, 65, 100, 1000, 2047, 2048, 2049, 40000};
	for (size_t i = 0; i < sizeof(n) / sizeof(*n); i++) {
		for (int ties = 0; ties < 2; ties++) {
			check_wide(n[i], 0, 0, 0, ties);   /* differ in the high half */
			check_wide(n[i], 1, 0, 0, ties);   /* only in the low half */
			check_wide(n[i], 3, 5, 60, ties);  /* both, few values, top bits */
			check_wide(n[i], 2, 1000, 0, ties); /* both, ties */
			check_wide(n[i], 1, 1, 0, ties);   /* all equal */
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_msd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
