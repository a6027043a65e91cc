/*
 * series_json.c - --series --json (report_series.h): the last dump's
 * summary (docs/json.md) with the series table under "series": the dumps
 * and their totals, every row's values, growth and trend, the suspects.
 * Numbers are the integers the text table prints with --show_bytes.
 */
#include "json_str.h"
#include "json_summary.h"

#include "jeheap/report_series.h"

#include <stdlib.h>
#include <string.h>

static void str(FILE *out, const char *s)
{
	putc('"', out);
	jh_json_str(out, s, strlen(s));
	putc('"', out);
}

/* "values": [...], "growth": N, "trend": "..." of v[0..n). */
static void values(FILE *out, struct jh_sb *tmp, const double *v, size_t n, double maxv)
{
	fputs("\"values\": [", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ", %lld" : "%lld", jh_perl_int(v[i]));
	fprintf(out, "], \"growth\": %lld, \"trend\": \"", jh_perl_int(v[n - 1] - v[0]));
	jh_sb_reset(tmp);
	jh_series_sparkline(tmp, v, n, maxv);
	jh_json_str(out, tmp->buf, tmp->len);
	putc('"', out);
}

static void dumps(FILE *out, const struct jh_series *s)
{
	fputs("    \"dumps\": [", out);
	for (size_t i = 0; i < s->ndumps; i++) {
		const struct jh_series_dump *dp = &s->dumps[i];
		fputs(i ? ",\n      {\"file\": " : "\n      {\"file\": ", out);
		str(out, dp->source);
		if (dp->name.ok)
			fprintf(out, ", \"pid\": %llu, \"seq\": %llu, \"tag\": \"%c\"",
				(unsigned long long)dp->name.pid, (unsigned long long)dp->name.seq,
				dp->name.tag);
		else
			fputs(", \"pid\": null, \"seq\": null, \"tag\": null", out);
		fprintf(out, ", \"sampling_period\": %llu, \"total\": %lld, \"kept\": %lld}",
			(unsigned long long)dp->period, jh_perl_int(dp->total),
			jh_perl_int(dp->kept));
	}
	fputs("\n    ],\n", out);
}

static void rows(FILE *out, const struct jh_series *s, struct jh_sb *tmp)
{
	fputs("    \"rows\": [", out);
	for (size_t k = 0; k < s->nrows; k++) {
		const struct jh_series_row *r = &s->rows[k];
		fputs(k ? ",\n      {\"name\": " : "\n      {\"name\": ", out);
		str(out, r->name);
		fputs(", ", out);
		values(out, tmp, r->v, s->ndumps, r->maxv);
		fprintf(out, ", \"up\": %u, \"down\": %u, \"suspect\": ", r->up, r->down);
		if (r->suspect)
			fprintf(out, "%d}", r->suspect);
		else
			fputs("null}", out);
	}
	fputs(s->nrows ? "\n    ],\n" : "],\n", out);
	fputs("    \"suspects\": [", out);
	for (size_t j = 0; j < s->nsuspects; j++) {
		const struct jh_series_row *r = &s->rows[s->suspects[j]];
		fprintf(out, "%s{\"rank\": %zu, \"name\": ", j ? ",\n      " : "\n      ", j + 1);
		str(out, r->name);
		fprintf(out, ", \"growth\": %lld, \"up\": %u}", jh_perl_int(r->growth), r->up);
	}
	fputs(s->nsuspects ? "\n    ]\n" : "]\n", out);
}

int jh_report_series_json(FILE *out, const struct jh_series *s, const struct jh_graph *last,
			  const struct jh_report_opts *o)
{
	struct jh_sb tmp = JH_SB_INIT;
	jh_sb_init(&tmp);
	size_t nd = s->ndumps;
	uint64_t period = 0;
	for (size_t i = 0; i < nd; i++)
		if (s->dumps[i].period > period)
			period = s->dumps[i].period;
	jh_json_summary_open(out, last, o);
	fprintf(out,
		",\n  \"series\": {\n    \"rows_are\": \"%s\",\n    \"values\": \"%s\",\n"
		"    \"steps\": %zu,\n    \"noise\": %llu,\n",
		s->stacks ? "stacks" : "functions", s->by_cum ? "cum" : "flat", nd ? nd - 1 : 0,
		4ULL * (unsigned long long)period);
	dumps(out, s);
	double *tot = xmalloc((nd ? nd : 1) * sizeof(*tot)), tmax = 0;
	for (size_t i = 0; i < nd; i++) {
		tot[i] = s->dumps[i].total;
		tmax = tot[i] > tmax ? tot[i] : tmax;
	}
	fputs("    \"total\": {", out);
	if (nd)
		values(out, &tmp, tot, nd, tmax);
	fputs("},\n", out);
	free(tot);
	rows(out, s, &tmp);
	fputs("  }\n}\n", out);
	jh_sb_release(&tmp);
	return ferror(out) ? -1 : 0;
}
