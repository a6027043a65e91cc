/* xorshift_test.h - a small deterministic random number generator for unit
 * tests (xorshift64: the same inputs on every run). */
#ifndef JEHEAP_XORSHIFT_TEST_H
#define JEHEAP_XORSHIFT_TEST_H

#include <stdint.h>

static inline uint64_t jh_test_rnd(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

#endif
