/*
 * parse.c - jh_profile_read: header dispatch and % commands; it calls the
 * readers of each format (parse_*.c), which call only down, into
 * parse_line.c (the line parsers they share) and the profile.
 */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Header dispatch as jeprof's ReadProfile: "--- heap" markers are skipped
 * once, then legacy "heap profile:", then "heap..." (heap_v2). */
int jh_parse_profile(struct jh_reader *r, int after_symbols)
{
	int skipped_marker = 0;
	for (;;) {
		char *line;
		size_t len;
		int rc = jh_next_line(r, &line, &len);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (after_symbols)
				return jh_diag_set(r->d, JH_EXIT_INPUT, jh_input_name(r->in),
						   jh_input_lineno(r->in),
						   "no profile after the symbol section");
			return jh_diag_set(r->d, JH_EXIT_INPUT, jh_input_name(r->in), 0,
					   jh_input_bytes(r->in) ? "no profile header"
								 : "empty file");
		}
		const char *s = line, *e = line + len;
		if (s == e || jh_rskip_space(s, e) == s || JH_STARTS(s, e, "<jemalloc>:") ||
		    *jh_skip_space(s, e) == '#')
			continue;
		if (*s == '%') {
			if (JH_STARTS(s, e, "%warn") && (len == 5 || jh_isspace(s[5]))) {
				const char *t = jh_skip_space(s + 5, e);
				jh_warn("%s:%lu: %.*s", jh_input_name(r->in),
					jh_input_lineno(r->in), (int)(e - t), t);
			}
			continue;
		}
		if (!after_symbols && jh_input_lineno(r->in) == 1 &&
		    !(*s == '\t' || ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)))
			return jh_diag_set(r->d, JH_EXIT_INPUT, jh_input_name(r->in), 1,
					   "binary data, not a text profile");
		const char *m = s;
		if (JH_STARTS(s, e, "---")) {
			m = s + 3;
			while (m < e && *m == ' ')
				m++;
			if (JH_STARTS(m, e, "symbol") && !after_symbols && !skipped_marker) {
				int rc = jh_parse_symbolized(r);
				return rc == 1 ? jh_parse_profile(r, 1) : rc;
			}
			if ((JH_STARTS(m, e, "heap") || JH_STARTS(m, e, "growth")) &&
			    !skipped_marker) {
				skipped_marker = 1;
				continue;
			}
			if (JH_STARTS(m, e, "profile") || JH_STARTS(m, e, "contention") ||
			    JH_STARTS(m, e, "Stacks:"))
				return jh_bad_line(r,
						   "unsupported profile type '%s' "
						   "(only heap profiles are read)",
						   jh_quote(r, s, len));
		}
		if (JH_STARTS(s, e, "heap profile:"))
			return jh_parse_legacy(r, s, len);
		if (JH_STARTS(s, e, "heap"))
			return jh_parse_heapv2(r, s, len);
		if (after_symbols)
			return jh_bad_line(r,
					   "cannot recognize profile section after symbols: '%s'",
					   jh_quote(r, s, len));
		return jh_bad_line(r, "unknown profile header '%s'", jh_quote(r, s, len));
	}
}

/* p->total; a sum that reaches 2^63 fails (formats without lines: the
 * text readers refuse it at the line that reaches it, jh_sum_add). */
static int profile_total(struct jh_profile *p, struct jh_diag *d)
{
	struct jh_counts t = { { 0 } };
	for (size_t i = 0; i < p->nstacks; i++)
		for (int k = 0; k < JH_NVALUES; k++)
			t.v[k] += fabs(p->stacks[i].c.v[k]);
	p->total = t;
	for (int k = 0; k < JH_NVALUES; k++)
		if (!(t.v[k] < 0x1p63))
			return jh_diag_set(d, JH_EXIT_INPUT, p->source, 0,
					   "the values add up to %.0f, more than a report can "
					   "show exactly (at most 9223372036854775807)",
					   t.v[k]);
	return 0;
}

static int read_input(struct jh_profile *p, struct jh_input *in, struct jh_diag *d)
{
	struct jh_reader r = { .p = p, .in = in, .d = d };
	jh_sb_init(&r.sb);
	jh_sb_init(&r.quote);
	free(p->source);
	p->source = xstrdup(jh_input_name(in));
	int is_pprof = jh_is_pprof(&r);
	int rc = is_pprof < 0 ? -1 : is_pprof ? jh_parse_pprof(&r) : jh_parse_profile(&r, 0);
	/* a jemalloc dump ends with its memory map: without it (or with its
	 * last line cut) the process stopped while writing it */
	int cut_maps = !r.maps && p->format == JH_FMT_HEAP_V2 && !p->has_symbols;
	p->maps_cut = cut_maps;
	if (rc < 0 && r.truncated && r.body) {
		jh_warn("%s:%lu: dump cut short: last line incomplete%s; the report covers the "
			"lines before it",
			jh_input_name(in), jh_input_lineno(in),
			r.maps     ? " (in the memory map)"
			: cut_maps ? ", no MAPPED_LIBRARIES section (addresses stay unresolved)"
				   : "");
		rc = 0;
	} else if (rc < 0 && r.truncated) {
		rc = jh_diag_set(d, JH_EXIT_INPUT, jh_input_name(in), jh_input_lineno(in),
				 "file ends before the profile");
	} else if (!rc && cut_maps && r.body_lines) {
		jh_warn("%s: dump cut short: no MAPPED_LIBRARIES section (addresses stay "
			"unresolved); the report covers the %lu lines read",
			jh_input_name(in), jh_input_lineno(in));
	}
	if (!rc)
		rc = profile_total(p, d);
	if (!rc && r.body && !r.body_lines) /* a dump cut right after its header */
		rc = jh_diag_set(d, JH_EXIT_NODATA, jh_input_name(in), 0,
				 "no samples: empty or truncated");
	jh_profile_sort_symbols(p);
	jh_profile_pc_flush(p);
	if (!rc && p->limit)
		rc = jh_diag_set(d, JH_EXIT_INTERNAL, jh_input_name(in), 0, "%s", p->limit);
	free(r.pcs);
	jh_sb_release(&r.sb);
	jh_sb_release(&r.quote);
	return rc;
}

int jh_profile_read(struct jh_profile *p, const char *path, struct jh_diag *d)
{
	struct jh_input *in = jh_input_open(path, d);
	if (!in)
		return -1;
	int rc = read_input(p, in, d);
	jh_input_close(in);
	return rc;
}

int jh_profile_read_mem(struct jh_profile *p, const void *data, size_t n, const char *name,
			struct jh_diag *d)
{
	struct jh_input *in = jh_input_mem(data, n, name);
	int rc = read_input(p, in, d);
	jh_input_close(in);
	return rc;
}
