/*
 * parse_legacy.c - gperftools "heap profile:" files (jeprof's
 * ReadHeapProfile, docs/jeprof.md §14) with jeprof's choice of sampling
 * correction from the header's "@ <type>/<period>" tail.
 */
#include "parse.h"

/* The tail "\s*@\s*<type>[/<period>]" of the header: returns the algorithm
 * (0 none, 1 v1, 2 v2) and the adjustment, as jeprof computes them; -1 for
 * a period beyond 64 bits (an error). */
static int sampling(const char *s, const char *e, const uint64_t v[4], double *adjust)
{
	*adjust = 0;
	const char *t = jh_skip_space(s, e);
	const char *type = NULL, *type_end = NULL;
	if (t < e && *t == '@') {
		type = jh_skip_space(t + 1, e);
		for (type_end = type; type_end < e && *type_end != '/'; type_end++)
			;
	}
	int algo = 0;
	if (type && type_end > type) {
		size_t n = (size_t)(type_end - type);
		int has_heap = memmem(type, n, "heap", 4) != NULL;
		if ((n == 11 && !memcmp(type, "heapprofile", 11)) || !has_heap)
			return 0;
		algo = memmem(type, n, "_v2", 3) ? 2 : 1;
		uint64_t period = 0;
		const char *d = type_end + 1;
		int have = type_end < e && d < e && (unsigned)(*d - '0') < 10;
		for (; have && d < e && (unsigned)(*d - '0') < 10; d++) {
			uint64_t dg = (uint64_t)(*d - '0');
			if (period > (UINT64_MAX - dg) / 10)
				return -1;
			period = period * 10 + dg;
		}
		if (have)
			*adjust = algo == 2 ? (double)period : (double)period / 2;
	} else if (v[0] == v[2] && v[1] == v[3]) {
		algo = 1; /* no type: old remote-heap v1 profile */
	}
	if (algo && *adjust == 0)
		*adjust = 128 * 1024;
	return algo;
}

int jh_parse_legacy(struct jh_reader *r, const char *h, size_t hlen)
{
	const char *s = h + 13, *e = h + hlen; /* past "heap profile:" */
	uint64_t v[4];
	s = jh_skip_space(s, e);
	if (jh_parse_quad(r, &s, e, v))
		return -1;
	double adjust;
	int algo = sampling(s, e, v, &adjust);
	if (algo < 0)
		return jh_bad_line(r, "sampling period out of range in '%s'", jh_quote(r, h, hlen));
	struct jh_profile *p = r->p;
	p->format = JH_FMT_LEGACY_HEAP;
	r->body = 1;
	/* 2^64 - 1 is 2^64 as a double, which does not convert back */
	p->period = adjust < 18446744073709551616.0 ? (uint64_t)adjust : UINT64_MAX;

	int rc;
	while ((rc = jh_body_line(r, &s, &e)) > 0) {
		struct jh_counts c;
		if (jh_parse_quad(r, &s, e, v) ||
		    jh_parse_space(r, &s, e, "bad record: expected ' @ ' after the counts"))
			return -1;
		if (s >= e || *s != '@' || s + 1 >= e || !jh_isspace(s[1]))
			return jh_bad_line(
				r, "bad record: expected ' @ <addresses>' after the counts");
		if (jh_parse_stack(r, s + 1, e))
			return -1;
		if (jh_adjust(r, algo, adjust, v, &c))
			return -1;
		jh_profile_add(
			p,
			jh_profile_intern_stack_hashed(p, r->pcs, (uint32_t)r->npcs, r->pcs_hash),
			&c);
	}
	return rc;
}
