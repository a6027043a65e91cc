/* parse_line.c - the line parsers the readers share: numbers, stacks, counts,
 * malformed-line messages. Calls nothing of the other parse*.c files. */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const unsigned char jh_space_tab[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
};

const unsigned char jh_hexval[256] = {
	['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
	['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
	['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

const char *jh_quote(struct jh_reader *r, const char *s, size_t n)
{
	jh_sb_reset(&r->quote);
	size_t k = n > 60 ? 60 : n;
	for (size_t i = 0; i < k; i++) {
		unsigned char c = (unsigned char)s[i];
		jh_sb_addc(&r->quote, c < 0x20 || c == 0x7f ? '?' : (char)c);
	}
	if (k < n)
		jh_sb_adds(&r->quote, "...");
	return r->quote.buf;
}

int jh_bad_line(struct jh_reader *r, const char *fmt, ...)
{
	const char *file = jh_input_name(r->in);
	unsigned long line = jh_input_lineno(r->in);
	if (jh_input_unterminated(r->in)) {
		r->truncated = 1; /* read_input decides: warning or error */
		return -1;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return jh_diag_set(r->d, JH_EXIT_INPUT, file, line, "%s", msg);
}

int jh_parse_dec_slow(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp, *b = s;
	uint64_t x = 0;
	while (s < e && (unsigned)(*s - '0') < 10) {
		unsigned dg = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - dg) / 10) {
			while (s < e && (unsigned)(*s - '0') < 10)
				s++;
			return jh_bad_line(r, "number '%s' out of range",
					   jh_quote(r, b, (size_t)(s - b)));
		}
		x = x * 10 + dg;
		s++;
	}
	if (s == b) {
		const char *t = s;
		while (t < e && !jh_isspace(*t))
			t++;
		return jh_bad_line(r, "bad number '%s'", jh_quote(r, b, (size_t)(t - b)));
	}
	*v = x;
	*sp = s;
	return 0;
}

int jh_parse_hex_slow(struct jh_reader *r, const char **sp, const char *e, uint64_t *v)
{
	const char *s = *sp, *b = s;
	if (e - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	const char *digits = s;
	while (s < e && *s == '0')
		s++;
	const char *sig = s;
	uint64_t x = 0;
	unsigned h;
	while (s < e && (h = jh_hexval[(unsigned char)*s])) {
		x = x << 4 | (h - 1);
		s++;
	}
	if (s == digits || (s < e && !jh_isspace(*s))) {
		while (s < e && !jh_isspace(*s))
			s++;
		return jh_bad_line(r, "bad address '%s'", jh_quote(r, b, (size_t)(s - b)));
	}
	if (s - sig > 16)
		return jh_bad_line(r, "address '%s' longer than 16 hex digits",
				   jh_quote(r, b, (size_t)(s - b)));
	*v = x;
	*sp = s;
	return 0;
}

int jh_parse_stack(struct jh_reader *r, const char *s, const char *e)
{
	size_t n = 0;
	uint64_t h = 0;
	/* locals: stores to pcs[] may alias r's size_t fields */
	uint64_t *pcs = r->pcs;
	size_t alloc = r->pcs_alloc;
	int rc = 0;
	s = jh_skip_space(s, e);
	/* room for all: an address takes a digit and a separator at least */
	if (s < e)
		JH_GROW(pcs, (size_t)(e - s) / 2 + 1, alloc);
	while (s < e) {
		uint64_t pc;
		s = jh_skip_space(s, e);
		if (s == e || (rc = jh_parse_hex(r, &s, e, &pc)))
			break;
		/* callers hold return addresses: step back into the call */
		pc -= n != 0;
		pcs[n++] = pc;
		h = jh_stack_hash_step(h, pc);
	}
	r->pcs = pcs;
	r->pcs_alloc = alloc;
	r->npcs = n;
	r->pcs_hash = h;
	if (rc)
		return -1;
	if (!n)
		return jh_bad_line(r, "stack without addresses");
	if (n > UINT32_MAX)
		return jh_bad_line(r, "stack too deep");
	return 0;
}

int jh_sum_over(struct jh_reader *r, const struct jh_counts *sum)
{
	static const char what[JH_NVALUES][24] = { "in-use objects", "in-use bytes",
						   "allocated objects", "allocated bytes" };
	int i = 0;
	while (i < JH_NVALUES - 1 && sum->v[i] < 0x1p63)
		i++;
	return jh_bad_line(r,
			   "the %s add up to %.0f, more than a report can show exactly "
			   "(at most 9223372036854775807)",
			   what[i], sum->v[i]);
}

int jh_adjust_check(struct jh_reader *r, int algo, double period, const uint64_t raw[4])
{
	for (int i = 0; i < 4; i += 2) {
		if (algo == 3) { /* pprof's parseHeapSample */
			if (raw[i] == 0 && raw[i + 1] != 0)
				return jh_bad_line(r, "%llu bytes in 0 objects",
						   (unsigned long long)raw[i + 1]);
			continue;
		}
		if (algo && period != 0 && raw[i] != 0 && raw[i + 1] == 0)
			return jh_bad_line(r, "%llu objects with 0 bytes",
					   (unsigned long long)raw[i]);
		if (algo == 1 && period != 0 && raw[i] == 0 && raw[i + 1] != 0)
			/* v1 divides by n: jeprof dies; 0 objects with 0 bytes stays 0 */
			return jh_bad_line(r, "%llu bytes in 0 objects",
					   (unsigned long long)raw[i + 1]);
	}
	return 0;
}

int jh_adjust(struct jh_reader *r, int algo, double period, const uint64_t raw[4],
	      struct jh_counts *c)
{
	if (jh_adjust_check(r, algo, period, raw))
		return -1;
	for (int i = 0; i < 4; i += 2) {
		double n = (double)raw[i], s = (double)raw[i + 1];
		if (algo == 3) {
			if (n == 0 || s == 0) {
				n = s = 0;
			} else if (period > 1) {
				double scale = 1 / (1 - exp(-(s / n) / period));
				n = trunc(n * scale);
				s = trunc(s * scale);
			}
		} else if (algo && period != 0 && n != 0) {
			double ratio = ((s * 1.0) / n) / period;
			if (algo == 2) {
				double scale = 1 / (1 - exp(-ratio));
				n *= scale;
				s *= scale;
			} else if (ratio < 1) {
				n /= ratio;
				s /= ratio;
			}
		}
		/* a period so large that 1 - exp(-ratio) is 0: no finite
		 * unsampled value (a period of 0 is taken as is, above) */
		if (algo && (!isfinite(n) || !isfinite(s)))
			return jh_bad_line(r,
					   "%llu objects of %llu bytes: the unsampled value "
					   "overflows (sampling period %llu)",
					   (unsigned long long)raw[i],
					   (unsigned long long)raw[i + 1],
					   (unsigned long long)r->p->period);
		c->v[i] = n;
		c->v[i + 1] = s;
	}
	return 0;
}
