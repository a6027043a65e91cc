/*
 * gate.c - --fail-on-growth's threshold and decision (gate.h).
 */
#include "jeheap/analyse.h"
#include "jeheap/gate.h"

#include <ctype.h>
#include <string.h>

/* Digits at *s (at most 18, so no overflow) into *v, advancing *s; the count. */
static int digits(const char **s, uint64_t *v, int max)
{
	int n = 0;
	*v = 0;
	while (isdigit((unsigned char)**s) && n < max) {
		*v = *v * 10 + (uint64_t)(**s - '0');
		(*s)++;
		n++;
	}
	return isdigit((unsigned char)**s) ? -1 : n;
}

int jh_gate_parse(struct jh_gate *g, const char *s, const char *option, struct jh_diag *d)
{
	const char *p = s;
	uint64_t whole, frac = 0;
	int nfrac = 0;
	memset(g, 0, sizeof(*g));
	if (digits(&p, &whole, 18) <= 0)
		goto bad;
	if (*p == '.') {
		p++;
		if ((nfrac = digits(&p, &frac, 6)) <= 0)
			goto bad;
	}
	if (*p == '%' && !p[1]) {
		g->percent = 1;
		if (whole > 1000000000) /* a billion percent: far beyond any use */
			goto bad;
		for (int i = nfrac; i < 6; i++)
			frac *= 10;
		g->pct_micro = whole * 1000000 + frac;
		return 0;
	}
	if (nfrac)
		goto bad; /* a size is whole bytes (or objects) */
	static const char suffix[] = "KMG";
	const char *k = *p ? strchr(suffix, toupper((unsigned char)*p)) : NULL;
	if (*p && (!k || p[1]))
		goto bad;
	int shift = k ? 10 * (int)(k - suffix + 1) : 0;
	if (whole > (UINT64_MAX >> 2) >> shift)
		goto bad;
	g->amount = whole << shift;
	return 0;
bad:
	return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			   "%s: '%s' is neither a size (bytes, with an optional K, M or G "
			   "suffix) nor a percentage like 5%%",
			   option, s);
}

int jh_gate_exceeded(const struct jh_gate *g, double base_total, double new_total, int64_t *growth,
		     int64_t *limit)
{
	int64_t base = (int64_t)jh_perl_int(base_total), now = (int64_t)jh_perl_int(new_total);
	/* both fit in 63 bits; their difference in 64 with __int128 */
	__int128 grew = (__int128)now - base;
	*growth = grew > INT64_MAX ? INT64_MAX : grew < INT64_MIN ? INT64_MIN : (int64_t)grew;
	if (!g->percent) {
		*limit = (int64_t)g->amount;
		return grew > (__int128)g->amount;
	}
	/* grew > base * pct / 100, exactly: grew * 10^8 > base * pct_micro */
	__int128 lim = (__int128)(base < 0 ? 0 : base) * (__int128)g->pct_micro;
	*limit = (int64_t)(lim / 100000000 > INT64_MAX ? INT64_MAX : lim / 100000000);
	return grew * 100000000 > lim;
}

void jh_gate_totals(const struct jh_graph *g, double *before, double *after)
{
	*before = *after = 0;
	for (size_t s = 0; s < g->nstacks; s++) {
		*before += g->stacks[s].before;
		*after += g->stacks[s].after;
	}
}
