/* series_text.c - --series --text (report_series.h). */
#include "jeheap/report_series.h"

#include <math.h>
#include <string.h>

static const char value_names[JH_NVALUES][20] = { "in-use objects", "in-use space",
						  "allocated objects", "allocated space" };

void jh_series_sparkline(struct jh_sb *sb, const double *v, size_t n, double maxv)
{
	static const char lv[] = JH_SPARK_LEVELS;
	const int top = (int)sizeof(lv) - 2;
	for (size_t i = 0; i < n; i++) {
		int k = 0;
		if (maxv > 0 && v[i] > 0)
			k = (int)floor(v[i] / maxv * top + 0.5);
		jh_sb_addc(sb, lv[k < 0 ? 0 : k > top ? top : k]);
	}
}

/* A value with its sign, in the table's unit. */
static void signed_value(struct jh_sb *sb, enum jh_unit unit, double v)
{
	if (v >= 0)
		jh_sb_addc(sb, '+');
	jh_fmt_value(sb, unit, v);
}

/* Appends s padded on the left to width w. */
static void pad_left(struct jh_sb *line, const char *s, size_t n, size_t w)
{
	for (size_t i = n; i < w; i++)
		jh_sb_addc(line, ' ');
	jh_sb_add(line, s, n);
}

static size_t value_width(const struct jh_series *s, struct jh_sb *tmp)
{
	size_t w = 5; /* the "growth" header (6 wide, padded to w + 2) keeps a blank before it */
	for (size_t i = 0; i < s->ndumps; i++) {
		jh_sb_reset(tmp);
		jh_fmt_value(tmp, s->unit, s->dumps[i].total);
		if (tmp->len > w)
			w = tmp->len;
	}
	for (size_t k = 0; k < s->nrows; k++)
		for (size_t i = 0; i < s->ndumps; i++) {
			jh_sb_reset(tmp);
			jh_fmt_value(tmp, s->unit, s->rows[k].v[i]);
			if (tmp->len > w)
				w = tmp->len;
		}
	return w;
}

/* One table row: the values, growth, sparkline and name. */
static void table_row(struct jh_sb *line, struct jh_sb *tmp, const struct jh_series *s,
		      const double *v, double maxv, const char *name, size_t w)
{
	for (size_t i = 0; i < s->ndumps; i++) {
		jh_sb_reset(tmp);
		jh_fmt_value(tmp, s->unit, v[i]);
		pad_left(line, tmp->buf, tmp->len, w + 1);
	}
	jh_sb_reset(tmp);
	signed_value(tmp, s->unit, v[s->ndumps - 1] - v[0]);
	pad_left(line, tmp->buf, tmp->len, w + 2);
	jh_sb_adds(line, "  ");
	jh_series_sparkline(line, v, s->ndumps, maxv);
	jh_sb_adds(line, "  ");
	jh_sb_add_visible(line, name);
	jh_sb_addc(line, '\n');
}

int jh_report_series_text(FILE *out, const struct jh_series *s)
{
	struct jh_sb line = JH_SB_INIT, tmp = JH_SB_INIT;
	size_t nd = s->ndumps;
	uint64_t period = 0;
	for (size_t i = 0; i < nd; i++)
		if (s->dumps[i].period > period)
			period = s->dumps[i].period;
	jh_sb_addf(&line, "Series of %zu dumps: %s (%s), %s, %s values\n", nd,
		   value_names[s->value], s->unit_name, s->stacks ? "per stack" : "per function",
		   s->by_cum ? "cumulative" : "flat");
	jh_sb_adds(&line, "   #       seq  dump\n");
	for (size_t i = 0; i < nd; i++) {
		const struct jh_series_dump *dp = &s->dumps[i];
		jh_sb_addf(&line, "%4zu  ", i + 1);
		if (dp->name.ok)
			jh_sb_addf(&line, "%8llu  ", (unsigned long long)dp->name.seq);
		else
			jh_sb_adds(&line, "       -  ");
		jh_sb_add_visible(&line, dp->source);
		jh_sb_addc(&line, '\n');
	}
	if (period)
		jh_sb_addf(&line,
			   "Noise: a step counts as a change when it is over 4 sampling intervals "
			   "(4 x %llu bytes)\n",
			   (unsigned long long)period);
	else
		jh_sb_adds(&line, "Noise: none (the dumps give no sampling interval)\n");
	jh_sb_adds(&line, "\nLeak suspects (grow in most steps, never fall, by growth):");
	if (!s->nsuspects)
		jh_sb_adds(&line, " none");
	jh_sb_addc(&line, '\n');
	for (size_t j = 0; j < s->nsuspects; j++) {
		const struct jh_series_row *r = &s->rows[s->suspects[j]];
		jh_sb_reset(&tmp);
		signed_value(&tmp, s->unit, r->growth);
		jh_sb_addf(&line, "%4zu  ", j + 1);
		pad_left(&line, tmp.buf, tmp.len, 10);
		jh_sb_addf(&line, " %s  up in %u of %zu steps  ", s->unit_name, r->up, nd - 1);
		jh_sb_add_visible(&line, r->name);
		jh_sb_addc(&line, '\n');
	}
	size_t w = value_width(s, &tmp);
	jh_sb_addc(&line, '\n');
	for (size_t i = 0; i < nd; i++) {
		jh_sb_reset(&tmp);
		jh_sb_addf(&tmp, "#%zu", i + 1);
		pad_left(&line, tmp.buf, tmp.len, w + 1);
	}
	pad_left(&line, "growth", 6, w + 2);
	jh_sb_adds(&line, "  trend");
	for (size_t i = 5; i < nd; i++)
		jh_sb_addc(&line, ' ');
	jh_sb_adds(&line, "  name\n");
	double *tot = xmalloc(nd * sizeof(*tot)), tmax = 0;
	for (size_t i = 0; i < nd; i++) {
		tot[i] = s->dumps[i].total;
		tmax = tot[i] > tmax ? tot[i] : tmax;
	}
	table_row(&line, &tmp, s, tot, tmax, "Total", w);
	free(tot);
	int err = fwrite(line.buf, 1, line.len, out) != line.len;
	for (size_t k = 0; k < s->nrows && !err; k++) {
		jh_sb_reset(&line);
		table_row(&line, &tmp, s, s->rows[k].v, s->rows[k].maxv, s->rows[k].name, w);
		err = fwrite(line.buf, 1, line.len, out) != line.len;
	}
	jh_sb_release(&line);
	jh_sb_release(&tmp);
	return err || ferror(out) ? -1 : 0;
}
