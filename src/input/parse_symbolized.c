/*
 * parse_symbolized.c - "--- symbol" sections (jeprof --raw, ClickHouse
 * .symbolized): "0x<hex> name[--name...]" lines, "binary=" and other
 * variables, ended by the first line starting with "---"; then the embedded
 * profile (heap_v2 or legacy), optionally after a "--- heap" marker.
 */
#include "parse.h"
#include "jeheap/trace.h"

#include <stdlib.h>

/* "key=value" where key starts with a lowercase letter (jeprof's variables). */
static int variable(struct jh_reader *r, const char *s, const char *e)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));
	if (!eq || *s < 'a' || *s > 'z')
		return 0;
	const char *k = s, *ke = jh_rskip_space(s, eq);
	const char *v = jh_skip_space(eq + 1, e), *ve = jh_rskip_space(v, e);
	if (ke - k == 6 && !memcmp(k, "binary", 6)) {
		free(r->p->binary);
		r->p->binary = xstrndup(v, (size_t)(ve - v));
	}
	return 1; /* other variables are ignored, as by jeprof */
}

/* The "--" separators of a symbol line's names: offsets from the line's start. */
struct seps {
	uint32_t *v;
	size_t n, alloc;
};

/* The separators of line[from..len), as jh_names_part splits (Perl's
 * split /--/: the leftmost "--", then the leftmost after it). */
static void find_seps(struct seps *sp, const char *line, size_t from, size_t len)
{
	const char *q = line + from, *e = line + len;
	sp->n = 0;
	while ((q = memchr(q, '-', (size_t)(e - q))) && q + 1 < e) {
		if (q[1] != '-') {
			q++;
			continue;
		}
		JH_GROW(sp->v, sp->n + 1, sp->alloc);
		sp->v[sp->n++] = (uint32_t)(q - line);
		q += 2;
	}
}

static int symbol_line(struct jh_reader *r, struct jh_symbatch *batch, const char *line, size_t len,
		       struct seps *sp)
{
	uint64_t pc;
	const char *s = line, *e = line + len;
	if (jh_parse_hex(r, &s, e, &pc))
		return -1;
	s = jh_skip_space(s, e);
	if (s == e)
		return jh_bad_line(r, "symbol line without a name '%s'", jh_quote(r, line, len));
	size_t from = (size_t)(s - line);
	sp->n = 0;
	if (r->p->split_symbols)
		find_seps(sp, line, from, len);
	jh_symbatch_add(r->p, batch, pc, line, from, len, sp->v, sp->n);
	return 0;
}

/* The symbol lines up to the end of the section (1: a "---" line came) or
 * to an error (-1); the lines read are in the batch, which is stored
 * before the input's buffer is refilled (the names are not copied). */
static int symbol_lines(struct jh_reader *r, struct jh_symbatch *b)
{
	struct seps sp = { NULL, 0, 0 };
	char *line;
	size_t len;
	int rc;
	for (;;) {
		if (!jh_input_line_buffered(r->in, &line, &len)) {
			jh_symbatch_flush(r->p, b);
			if ((rc = jh_input_line_refill(r->in, &line, &len, r->d)) <= 0)
				break;
		}
		const char *s = line, *e = line + len;
		if (len >= 2 && s[0] == '0' && s[1] == 'x') {
			if ((rc = symbol_line(r, b, line, len, &sp)) < 0)
				break;
			continue;
		}
		/* the first "---" line ends the symbols (even "--- heap"); the
		 * next header may still be one "--- heap" marker, as in jeprof */
		if (JH_STARTS(s, e, "---")) {
			rc = 1;
			break;
		}
		if (jh_rskip_space(s, e) == s || variable(r, s, e))
			continue;
		rc = jh_bad_line(r, "unexpected line in symbol section '%s'", jh_quote(r, s, len));
		break;
	}
	free(sp.v);
	if (rc)
		return rc;
	return jh_diag_set(r->d, JH_EXIT_INPUT, jh_input_name(r->in), jh_input_lineno(r->in),
			   "symbol section is not followed by a profile");
}

int jh_parse_symbolized(struct jh_reader *r)
{
	r->p->has_symbols = 1;
	struct jh_symbatch b;
	jh_symbatch_init(&b);
	int rc = symbol_lines(r, &b);
	jh_symbatch_flush(r->p, &b); /* also on errors: a truncated tail keeps them */
	jh_symbatch_release(&b);
	JH_TRACE("symbols read");
	return rc; /* 1: the dispatcher reads the embedded profile */
}
