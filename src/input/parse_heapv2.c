/*
 * parse_heapv2.c - jemalloc "heap_v2/<period>" dumps (jeprof's
 * ReadThreadedHeapProfile, docs/jeprof.md §13), stricter than jeprof: a line
 * jeprof would silently skip (malformed count line, stray text) is an error
 * here, since skipping it silently changes the numbers.
 */
#include "parse.h"

#include <stdlib.h>

#define NO_STACK UINT32_MAX

/* "t*:" or "t<uid>:" followed by whitespace; *uid = UINT64_MAX for '*'. */
static int parse_thread(struct jh_reader *r, const char **sp, const char *e, uint64_t *uid)
{
	const char *s = *sp + 1; /* past 't' */
	if (s < e && *s == '*') {
		*uid = UINT64_MAX;
		s++;
	} else if (jh_parse_dec(r, &s, e, uid)) {
		return -1;
	} else if (*uid == UINT64_MAX) {
		return jh_bad_line(r, "thread id out of range");
	}
	if (s >= e || *s != ':')
		return jh_bad_line(r, "bad count line: expected ':' after the thread id");
	s++;
	if (jh_parse_space(r, &s, e, "bad count line: expected a space after 't<id>:'"))
		return -1;
	*sp = s;
	return 0;
}

/* jh_profile_thread with a cache for small uids (the common case) */
static uint32_t thread_index(struct jh_reader *r, uint64_t uid, const char *name)
{
	if (uid >= JH_ARRAY_SIZE(r->tcache))
		return jh_profile_thread(r->p, uid, name);
	if (!r->tcache[uid] || name)
		r->tcache[uid] = jh_profile_thread(r->p, uid, name) + 1;
	return r->tcache[uid] - 1;
}

/* A summary line before the first '@': thread names are taken from it. */
static int header_line(struct jh_reader *r, const char *s, const char *e)
{
	uint64_t uid, v[4];
	if (parse_thread(r, &s, e, &uid) || jh_parse_quad(r, &s, e, v))
		return -1;
	if (s < e && !jh_isspace(*s))
		return jh_bad_line(r, "bad count line: text after ']'");
	s = jh_skip_space(s, e);
	if (uid == UINT64_MAX) {
		if (s < e)
			return jh_bad_line(r, "bad count line: text after ']'");
		return 0;
	}
	char *name = s < e ? xstrndup(s, (size_t)(e - s)) : NULL;
	thread_index(r, uid, name);
	free(name);
	return 0;
}

static int record_line(struct jh_reader *r, const char *s, const char *e, double period,
		       uint32_t *stack)
{
	uint64_t uid, v[4];
	struct jh_counts c;
	if (parse_thread(r, &s, e, &uid) || jh_parse_quad(r, &s, e, v))
		return -1;
	if (s != e)
		return jh_bad_line(r, "bad count line: text after ']'");
	int keep = uid == UINT64_MAX || !r->p->no_threads;
	if (keep ? jh_adjust(r, 2, period, v, &c) : jh_adjust_check(r, 2, period, v))
		return -1;
	/* interned at its first count line: a record without one adds nothing */
	if (*stack == NO_STACK)
		*stack = jh_profile_intern_stack_hashed(r->p, r->pcs, (uint32_t)r->npcs,
							r->pcs_hash);
	if (!keep)
		return 0;
	if (jh_sum_add(r, uid == UINT64_MAX ? &r->sum : &r->tsum, &c))
		return -1;
	if (uid == UINT64_MAX)
		jh_profile_add(r->p, *stack, &c);
	else
		jh_profile_add_thread(r->p, thread_index(r, uid, NULL), *stack, &c);
	return 0;
}

int jh_parse_heapv2(struct jh_reader *r, const char *h, size_t hlen)
{
	const char *s = h, *e = h + hlen;
	if (!JH_STARTS(s, e, "heap_v2/") || s + 8 == e || (unsigned)(s[8] - '0') >= 10)
		return jh_bad_line(r, "bad heap profile header '%s' (expected heap_v2/<period>)",
				   jh_quote(r, h, hlen));
	s += 8;
	uint64_t period;
	if (jh_parse_dec(r, &s, e, &period))
		return -1;
	struct jh_profile *p = r->p;
	p->format = JH_FMT_HEAP_V2;
	r->body = 1;
	p->period = period;
	double pd = (double)period;
	int in_record = 0;
	uint32_t stack = NO_STACK;

	int rc;
	while ((rc = jh_body_line(r, &s, &e)) > 0) {
		if (*s == 't') {
			if (in_record ? record_line(r, s, e, pd, &stack) : header_line(r, s, e))
				return -1;
		} else if (*s == '@') {
			if (s + 1 < e && !jh_isspace(s[1]))
				return jh_bad_line(r, "bad stack line: expected a space after '@'");
			if (jh_parse_stack(r, s + 1, e))
				return -1;
			jh_profile_prefetch_stack(p, (uint32_t)r->npcs, r->pcs_hash);
			in_record = 1;
			stack = NO_STACK;
		} else if (JH_STARTS(s, e, "f:") || JH_STARTS(s, e, "<jemalloc>:")) {
			continue; /* ClickHouse per-allocation records; jemalloc messages */
		} else {
			return jh_bad_line(r, "unexpected line '%s'",
					   jh_quote(r, s, (size_t)(e - s)));
		}
	}
	return rc;
}
