/* analyse_filter.c - the only file that uses PCRE2 (see analyse_filter.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "jeheap/regex.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

struct jh_filter {
	pcre2_code *code;
	pcre2_match_data *md;
	struct jh_u64map cache; /* string pointer -> 1 (no match) or 2 (match) */
};

struct jh_filter *jh_filter_new(const char *opt, const char *pattern, struct jh_diag *d)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &err, &off,
					 NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof(msg));
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "--%s: bad regex '%s' at offset %zu: %s",
			    opt, pattern, (size_t)off, (const char *)msg);
		return NULL;
	}
	(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!md) {
		pcre2_code_free(code);
		jh_diag_set(d, JH_EXIT_INTERNAL, NULL, 0, "--%s: out of memory", opt);
		return NULL;
	}
	struct jh_filter *f = xcalloc(1, sizeof(*f));
	f->code = code;
	f->md = md;
	jh_u64map_init(&f->cache);
	return f;
}

void jh_filter_free(struct jh_filter *f)
{
	if (!f)
		return;
	pcre2_match_data_free(f->md);
	pcre2_code_free(f->code);
	jh_u64map_release(&f->cache);
	free(f);
}

int jh_filter_match(struct jh_filter *f, const char *s, size_t n)
{
	int r = pcre2_match(f->code, (PCRE2_SPTR)(s ? s : ""), n, 0, 0, f->md, NULL);
	return r >= 0;
}

int jh_filter_match_interned(struct jh_filter *f, const char *s)
{
	int added;
	uint64_t *v = jh_u64map_put(&f->cache, (uint64_t)(uintptr_t)s, &added);
	if (added)
		*v = 1 + (uint64_t)jh_filter_match(f, s, strlen(s));
	return *v == 2;
}
