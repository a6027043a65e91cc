/* test_base_alloc.c - the large-array growth of base.c (JH_GROW_LARGE,
 * xcalloc): contents kept through every move, alloc never below what was
 * asked, a large block's room handed out in steps whose pages are faulted
 * in at once (mincore: resident before any write), the rest left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jeheap/base.h"

#if defined(__SANITIZE_ADDRESS__)
#define RESIDENCY 0 /* the sanitizer's allocator maps and touches on its own */
#else
#define RESIDENCY 1
#endif

/* Resident pages among the whole pages of p[0..n); -1 if mincore fails. */
static long resident(const void *p, size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t b = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	if (e <= b)
		return 0;
	size_t np = (e - b) / page;
	unsigned char *v = malloc(np);
	if (!v || mincore((void *)b, e - b, v)) {
		free(v);
		return -1;
	}
	long r = 0;
	for (size_t i = 0; i < np; i++)
		r += v[i] & 1;
	free(v);
	return r;
}

static long pages(size_t n)
{
	return (long)(n / (size_t)sysconf(_SC_PAGESIZE));
}

static void test_grow_keeps_and_steps(void **state)
{
	(void)state;
	uint32_t *a = NULL;
	size_t alloc = 0, n = 3000000, steps = 0, last = 0;
	for (size_t i = 0; i < n; i++) {
		JH_GROW_LARGE(a, i + 1, alloc);
		assert_true(alloc >= i + 1);
		if (alloc != last) {
			size_t room = malloc_usable_size(a) / sizeof(*a);
			assert_true(alloc <= room);
			if (room * sizeof(*a) >= ((size_t)1 << 20)) {
				steps++;
				/* a step, not the whole room */
				assert_true((alloc - i) * sizeof(*a) <= ((size_t)1 << 19) + 4096);
				long want = pages((alloc - i) * sizeof(*a)) - 2;
				if (RESIDENCY && want > 0)
					assert_true(resident(a + i, (alloc - i) * sizeof(*a)) >= want);
				if (RESIDENCY && room - alloc > (size_t)(1 << 20))
					assert_int_equal(resident(a + alloc + 4096, (size_t)1 << 20), 0);
			}
			last = alloc;
		}
		a[i] = (uint32_t)(i * 2654435761u);
	}
	assert_true(steps > 10); /* 12 MB in 512 KB steps */
	for (size_t i = 0; i < n; i++)
		if (a[i] != (uint32_t)(i * 2654435761u))
			fail_msg("element %zu lost", i);
	free(a);
}

/* Growth by more than a step at once still gives at least what is asked. */
static void test_grow_big_jumps(void **state)
{
	(void)state;
	uint64_t *a = NULL;
	size_t alloc = 0, n = 0;
	for (size_t want = 1000; want < 4000000; want = want * 3 + 7) {
		JH_GROW_LARGE(a, want, alloc);
		assert_true(alloc >= want);
		for (; n < want; n++)
			a[n] = n ^ 0x5555;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != (i ^ 0x5555))
			fail_msg("element %zu lost", i);
	free(a);
}

static void test_xcalloc_large(void **state)
{
	(void)state;
	size_t sizes[] = {(size_t)300 << 10, (size_t)3 << 20, (size_t)9 << 20};
	for (size_t k = 0; k < JH_ARRAY_SIZE(sizes); k++) {
		unsigned char *p = xcalloc(sizes[k], 1);
		if (RESIDENCY)
			assert_true(resident(p, sizes[k]) >= pages(sizes[k]) - 2);
		for (size_t i = 0; i < sizes[k]; i++)
			if (p[i])
				fail_msg("byte %zu of %zu not zero", i, sizes[k]);
		memset(p, 0xab, sizes[k]);
		jh_free_large(p); /* cached: the next one reuses a dirty block */
	}
	unsigned char *q = xcalloc((size_t)3 << 20, 1);
	for (size_t i = 0; i < ((size_t)3 << 20); i++)
		if (q[i])
			fail_msg("reused byte %zu not zero", i);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_keeps_and_steps),
		cmocka_unit_test(test_grow_big_jumps),
		cmocka_unit_test(test_xcalloc_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
