/* readers_test.h - helpers shared by the profile-reader unit tests. */
#ifndef JEHEAP_READERS_TEST_H
#define JEHEAP_READERS_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jeheap/profile.h"

/* Reads text as a profile named "t.heap"; returns jh_profile_read_mem's result. */
static inline int read_text(struct jh_profile *p, const char *text, struct jh_diag *d)
{
	jh_profile_init(p);
	memset(d, 0, sizeof(*d));
	return jh_profile_read_mem(p, text, strlen(text), "t.heap", d);
}

/* Reads text that must parse. */
static inline void read_ok(struct jh_profile *p, const char *text)
{
	struct jh_diag d;
	int rc = read_text(p, text, &d);
	if (rc != 0)
		fail_msg("unexpected error: %s", d.msg);
}

/* Reads text that must fail with exactly msg ("t.heap:LINE: ..."). */
static inline void read_err(const char *text, const char *msg)
{
	struct jh_profile p;
	struct jh_diag d;
	assert_int_equal(read_text(&p, text, &d), -1);
	assert_string_equal(d.msg, msg);
	assert_int_equal(d.code, JH_EXIT_INPUT);
	jh_profile_release(&p);
}

/* The stack with these pcs (leaf first), or NULL. */
static inline const struct jh_stack *find_stack(const struct jh_profile *p, const uint64_t *pcs,
						uint32_t n)
{
	for (size_t i = 0; i < p->nstacks; i++)
		if (p->stacks[i].len == n && !memcmp(p->pcs + p->stacks[i].off, pcs, n * 8))
			return &p->stacks[i];
	return NULL;
}

#define assert_near(a, b, eps)                                            \
	do {                                                              \
		double a_ = (a), b_ = (b);                                \
		if (!(fabs(a_ - b_) <= (eps)))                            \
			fail_msg("%s = %.6f, expected %.6f", #a, a_, b_); \
	} while (0)

#endif
