/* test_collapsed_msort.c - the merge sort of --collapsed's keys
 * (collapsed_msort.h), sorted a cache-sized block at a time and then
 * merged: the same order as qsort's, ties kept in input order (stable),
 * for sizes around the block and run edges, of two element sizes (two
 * block sizes), random keys with many ties and without. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
