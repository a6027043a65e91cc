/* test_collapsed_rec.c - the 32-byte records of --collapsed's pieces
 * (collapsed_rec.h): packed pieces come back as the iovecs they were, the
 * first with the separator given, for every count, inline flag and
 * separator, lengths and addresses up to the limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "xorshift_test.h"

#include "collapsed_rec.h"

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
	return jh_test_rnd(&rnd_state);
}

static void test_limits(void **state)
{
	(void)state;
	const char *low = (const char *)(uintptr_t)0x1000;
	const char *top = (const char *)(uintptr_t)((1ULL << 47) - 1);
	const char *over = (const char *)(uintptr_t)(1ULL << 47);
	assert_true(jh_coll_rec_fits(low, 0));
	assert_true(jh_coll_rec_fits(low, 0x7fff));
	assert_false(jh_coll_rec_fits(low, 0x8000));
	assert_true(jh_coll_rec_fits(top, 0x7fff));
	assert_false(jh_coll_rec_fits(over, 1));
}

/* Packs count pieces and checks the unpacking against them. */
static void check_one(const char *const *s, const size_t *n, unsigned count, int inl, size_t sep)
{
	_Alignas(32) uint64_t r[JH_COLL_INREC];
	jh_coll_rec_pack(r, s, n, count, inl);
	assert_int_not_equal(r[0], 0); /* slot 0 zero is the caller's */
	assert_int_equal(jh_coll_rec_count(r), count);
	struct iovec at[JH_COLL_INREC + 1]; /* jh_coll_rec_next points up to at + count */
	assert_ptr_equal(jh_coll_rec_next(r, at), at + count);
	assert_int_equal(jh_coll_rec_sep(r), inl ? 9 : 1);
	struct iovec v[1][JH_COLL_INREC];
	int nv = 1;
	jh_coll_rec_unpack(r, sep, v[0]);
	for (int k = 0; k < nv; k++) {
		for (unsigned j = 0; j < count; j++) {
			size_t d = j ? 0 : sep;
			/* in integers: the pointers are made up */
			assert_ptr_equal(v[k][j].iov_base, (const char *)((uintptr_t)s[j] - d));
			assert_int_equal(v[k][j].iov_len, n[j] + d);
		}
	}
}

static void test_round_trip(void **state)
{
	(void)state;
	static const size_t seps[] = { 0, 1, 9 };
	for (int it = 0; it < 20000; it++) {
		const char *s[JH_COLL_INREC];
		size_t n[JH_COLL_INREC];
		unsigned count = 1 + (unsigned)(it % JH_COLL_INREC);
		for (unsigned j = 0; j < count; j++) {
			uint64_t a = rnd();
			/* the extremes of both fields now and then */
			switch (rnd() % 4) {
			case 0: a = (1ULL << 47) - 1 - a % 16; break;
			case 1: a = 9 + a % 64; break;
			default: a = 9 + a % ((1ULL << 47) - 9);
			}
			s[j] = (const char *)(uintptr_t)a;
			n[j] = rnd() % 3 ? rnd() % 200 : JH_COLL_REC_LEN - rnd() % 3;
			assert_true(jh_coll_rec_fits(s[j], n[j]));
		}
		check_one(s, n, count, (int)(rnd() & 1), seps[it / JH_COLL_INREC % 3]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
