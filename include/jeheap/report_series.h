/*
 * report_series.h - the reports of a series table (series.h): the text
 * table (--series --text), the SVG chart (--series --svg) and the JSON
 * (--series --json).
 */
#ifndef JEHEAP_REPORT_SERIES_H
#define JEHEAP_REPORT_SERIES_H

#include "jeheap/report.h"
#include "jeheap/report_flame.h"
#include "jeheap/series.h"

#include <stdio.h>

/* The sparkline's levels, lowest first: ASCII, so that it reads the same
 * under LC_ALL=C and in any terminal or log. */
#define JH_SPARK_LEVELS "_.,:-=+*#@"

/* The sparkline of v[0..n) scaled from 0 to maxv, one character per value. */
void jh_series_sparkline(struct jh_sb *sb, const double *v, size_t n, double maxv);

/* --series --text: the dumps, the leak suspects, then one row per function
 * (or stack) with its value at each dump, its growth and its sparkline.
 * Returns 0, -1 on a write error. */
int jh_report_series_text(FILE *out, const struct jh_series *s);

/* --series --svg: a self-contained SVG chart of the total and of the top
 * rows (the top `top` by last value, and every suspect) over the dumps: one
 * polyline each, suspects highlighted, a <title> with the values on hover.
 * Returns 0, -1 on a write error. */
int jh_report_series_svg(FILE *out, const struct jh_series *s, size_t top, const char *title);

/* --series --json: the summary of the last dump's analysis `last` (docs/json.md)
 * with the table under "series". Returns 0, -1 on a write error. */
int jh_report_series_json(FILE *out, const struct jh_series *s, const struct jh_graph *last,
			  const struct jh_report_opts *o);

#endif
