/*
 * parse_legacy.c - "heap profile:" files (gperftools' heap profiler,
 * tcmalloc's sampled heap, Go's runtime; jeprof's ReadHeapProfile,
 * docs/jeprof.md §14). What jeprof reads is read as jeprof reads it; what only
 * Go's pprof reads (its heapHeaderRE and heapSampleRE: spaces inside the
 * brackets, none after the colons, a record without addresses) is read as
 * pprof reads it, with pprof's choice of sampling correction.
 */
#include "parse.h"

/* "N:\s*N\s*[\s*N:\s*N\s*]" -> v[0..3]: both jeprof's form and pprof's.
 * *jeprof is cleared when jeprof's regexp (whitespace after the colons and
 * before '[', none before ']') does not match it. */
static int quad(struct jh_reader *r, const char **sp, const char *e, uint64_t v[4], int *jeprof)
{
	static const char fmt[] = "bad count line: expected '<objs>: <bytes> [<objs>: <bytes>]'";
	const char *s = *sp, *t;
	*jeprof = 1;
	for (int i = 0; i < 4; i++) {
		if (s >= e || (unsigned)(*s - '0') >= 10)
			return jh_bad_line(r, "%s", fmt);
		if (jh_parse_dec(r, &s, e, &v[i]))
			return -1;
		if (i % 2 == 0) {
			if (jh_expect(r, &s, e, ':', fmt))
				return -1;
		}
		t = jh_skip_space(s, e);
		if (i == 3 && t != s)
			*jeprof = 0; /* "4 ]" */
		else if (i != 3 && t == s)
			*jeprof = 0; /* "1:2", "2[" */
		s = t;
		if (i == 1) {
			if (jh_expect(r, &s, e, '[', fmt))
				return -1;
			s = jh_skip_space(s, e);
		}
	}
	if (jh_expect(r, &s, e, ']', fmt))
		return -1;
	*sp = s;
	return 0;
}

/* jeprof's reading of the tail "\s*@\s*<type>[/<period>]" of the header:
 * returns the algorithm (0 none, 1 v1, 2 v2) and the adjustment; -1 for a
 * period beyond 64 bits (an error). */
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

/* pprof's reading of the tail " *@ *<type>[/<period>]" (parseHeapHeader),
 * for the headers only pprof reads: heap_v2 and heapz_v2 are Poisson
 * sampled at the period, heap at half of it, heapprofile, growthz and
 * fragmentationz are not sampled. Returns 3 (pprof's v2 rule, see
 * jh_adjust) or 0, or -1 after an error. */
static int pprof_sampling(struct jh_reader *r, const char *s, const char *e, double *adjust)
{
	*adjust = 0;
	while (s < e && *s == ' ')
		s++;
	if (s >= e || *s != '@')
		return jh_bad_line(r,
				   "bad heap profile header: expected '@ <type>' after the counts");
	for (s++; s < e && *s == ' '; s++)
		;
	const char *type = s;
	while (s < e && (*s == '_' || (unsigned)(*s - 'a') < 26 || (unsigned)(*s - '0') < 10))
		s++;
	size_t n = (size_t)(s - type);
	uint64_t period = 0;
	if (s < e && *s == '/')
		s++;
	while (s < e && (unsigned)(*s - '0') < 10) {
		uint64_t dg = (uint64_t)(*s++ - '0');
		if (period > (INT64_MAX - dg) / 10)
			return jh_bad_line(r, "sampling period out of range");
		period = period * 10 + dg;
	}
#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(type, lit, n))
	if (IS("heap_v2") || IS("heapz_v2") || IS("heap")) {
		*adjust = (double)(IS("heap") ? period / 2 : period);
		return 3;
	}
	if (IS("heapprofile") || IS("growthz") || IS("fragmentationz"))
		return 0;
#undef IS
	return jh_bad_line(r, "unknown heap profile type '%s'", jh_quote(r, type, n));
}

int jh_parse_legacy(struct jh_reader *r, const char *h, size_t hlen)
{
	const char *s = h + 13, *e = h + hlen; /* past "heap profile:" */
	uint64_t v[4];
	int jeprof;
	s = jh_skip_space(s, e);
	if (quad(r, &s, e, v, &jeprof))
		return -1;
	double adjust;
	int algo = jeprof ? sampling(s, e, v, &adjust) : pprof_sampling(r, s, e, &adjust);
	if (algo < 0 && jeprof)
		return jh_bad_line(r, "sampling period out of range in '%s'", jh_quote(r, h, hlen));
	if (algo < 0)
		return -1;
	struct jh_profile *p = r->p;
	p->format = JH_FMT_LEGACY_HEAP;
	r->body = 1;
	/* 2^64 - 1 is 2^64 as a double, which does not convert back */
	p->period = adjust < 18446744073709551616.0 ? (uint64_t)adjust : UINT64_MAX;

	int rc;
	while ((rc = jh_body_line(r, &s, &e)) > 0) {
		struct jh_counts c;
		if (quad(r, &s, e, v, &jeprof))
			return -1;
		s = jh_skip_space(s, e);
		if (s >= e || *s != '@' || (s + 1 < e && !jh_isspace(s[1])))
			return jh_bad_line(
				r, "bad record: expected ' @ <addresses>' after the counts");
		if (jh_skip_space(s + 1, e) == e) {
			/* pprof: an allocation without a stack */
			r->npcs = 0;
			JH_GROW(r->pcs, 1, r->pcs_alloc);
			r->pcs[r->npcs++] = JH_NO_STACK_PC;
			r->pcs_hash = jh_stack_hash_step(0, JH_NO_STACK_PC);
			p->no_stack = 1;
		} else if (jh_parse_stack(r, s + 1, e)) {
			return -1;
		}
		if (jh_adjust(r, algo, adjust, v, &c))
			return -1;
		if (jh_sum_add(r, &r->sum, &c))
			return -1;
		jh_profile_add(
			p,
			jh_profile_intern_stack_hashed(p, r->pcs, (uint32_t)r->npcs, r->pcs_hash),
			&c);
	}
	return rc;
}
