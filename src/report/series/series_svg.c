/*
 * series_svg.c - --series --svg (report_series.h): one self-contained SVG
 * (no script, no Graphviz) with the total and the top rows over the dumps.
 * The plot's geometry is in the attributes of <g id="plot"> (x0, y0 =
 * bottom, height, step, ymax), so that a point (x, y) of a line reads back
 * as dump (x - x0) / step and value (y0 - y) / height * ymax.
 */
#include "jeheap/report_series.h"

#include <stdlib.h>
#include <string.h>

enum { WIDTH = 1000, HEIGHT = 520, X0 = 80, TOP = 50, LEGEND = 300, BOTTOM = 60 };

static const char palette[][8] = { "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
				   "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#98df8a" };
static const char suspect_colors[][8] = { "#d62728", "#ff7f0e", "#e6550d", "#a50f15" };

struct line {
	const char *name;
	const double *v;
	int suspect; /* rank + 1, 0 = not one */
	int total;
};

static void esc(struct jh_sb *sb, const char *s)
{
	jh_markup_escape(sb, s, strlen(s));
}

/* The rows drawn: the total, the top rows by last value, every suspect. */
static size_t pick_lines(const struct jh_series *s, size_t top, struct line *out, double *tot)
{
	size_t n = 0;
	out[n++] = (struct line){ "Total", tot, 0, 1 };
	for (size_t k = 0; k < s->nrows; k++)
		if (k < top || s->rows[k].suspect)
			out[n++] = (struct line){ s->rows[k].name, s->rows[k].v, s->rows[k].suspect,
						  0 };
	return n;
}

static void dump_label(struct jh_sb *sb, const struct jh_series *s, size_t i)
{
	jh_sb_addf(sb, "#%zu", i + 1);
	if (s->dumps[i].name.ok)
		jh_sb_addf(sb, " (seq %llu)", (unsigned long long)s->dumps[i].name.seq);
}

static void value_text(struct jh_sb *sb, const struct jh_series *s, double v)
{
	jh_fmt_value(sb, s->unit, v);
	jh_sb_addf(sb, " %s", s->unit_name);
}

static void axes(struct jh_sb *sb, const struct jh_series *s, double ymax, double step,
		 double plot_h)
{
	double y0 = HEIGHT - BOTTOM;
	jh_sb_addf(sb, "<g class=\"axes\" stroke=\"#ccc\" font-size=\"11\" fill=\"#333\">\n");
	for (int t = 0; t <= 4; t++) {
		double y = y0 - plot_h * t / 4;
		jh_sb_addf(sb, "<line x1=\"%d\" y1=\"%.3f\" x2=\"%d\" y2=\"%.3f\"/>", X0, y,
			   WIDTH - LEGEND, y);
		jh_sb_addf(sb, "<text x=\"%d\" y=\"%.3f\" text-anchor=\"end\" stroke=\"none\">",
			   X0 - 6, y + 4);
		value_text(sb, s, ymax * t / 4);
		jh_sb_adds(sb, "</text>\n");
	}
	size_t every = s->ndumps > 20 ? (s->ndumps + 19) / 20 : 1;
	for (size_t i = 0; i < s->ndumps; i += every) {
		jh_sb_addf(sb,
			   "<text x=\"%.3f\" y=\"%.3f\" text-anchor=\"middle\" stroke=\"none\">#%zu"
			   "</text>\n",
			   X0 + step * (double)i, y0 + 18, i + 1);
	}
	jh_sb_adds(sb, "</g>\n");
}

static void draw_line(struct jh_sb *sb, const struct jh_series *s, const struct line *l, size_t idx,
		      double ymax, double step, double plot_h)
{
	double y0 = HEIGHT - BOTTOM;
	const char *color = l->total     ? "#000"
			    : l->suspect ? suspect_colors[(l->suspect - 1) % 4]
					 : palette[idx % (sizeof(palette) / sizeof(palette[0]))];
	jh_sb_addf(sb, "<g class=\"%s\" data-rank=\"%d\">\n",
		   l->total     ? "total"
		   : l->suspect ? "row suspect"
				: "row",
		   l->suspect);
	jh_sb_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"",
		   color, l->suspect ? "3" : "1.5", l->total ? " stroke-dasharray=\"6,3\"" : "");
	for (size_t i = 0; i < s->ndumps; i++)
		jh_sb_addf(sb, "%s%.3f,%.3f", i ? " " : "", X0 + step * (double)i,
			   y0 - (ymax > 0 ? l->v[i] / ymax * plot_h : 0));
	jh_sb_adds(sb, "\"><title>");
	esc(sb, l->name);
	if (l->suspect)
		jh_sb_addf(sb, " (leak suspect %d)", l->suspect);
	jh_sb_adds(sb, "</title></polyline>\n");
	for (size_t i = 0; i < s->ndumps; i++) {
		jh_sb_addf(sb, "<circle cx=\"%.3f\" cy=\"%.3f\" r=\"3\" fill=\"%s\"><title>",
			   X0 + step * (double)i, y0 - (ymax > 0 ? l->v[i] / ymax * plot_h : 0),
			   color);
		esc(sb, l->name);
		jh_sb_adds(sb, ": ");
		dump_label(sb, s, i);
		jh_sb_adds(sb, " ");
		value_text(sb, s, l->v[i]);
		jh_sb_adds(sb, "</title></circle>\n");
	}
	jh_sb_adds(sb, "</g>\n");
}

static void legend(struct jh_sb *sb, const struct line *lines, size_t n)
{
	int x = WIDTH - LEGEND + 20;
	jh_sb_adds(sb, "<g class=\"legend\" font-size=\"12\">\n");
	for (size_t k = 0; k < n; k++) {
		const struct line *l = &lines[k];
		double y = TOP + 18.0 * (double)k;
		const char *color = l->total ? "#000"
				    : l->suspect
					    ? suspect_colors[(l->suspect - 1) % 4]
					    : palette[k % (sizeof(palette) / sizeof(palette[0]))];
		jh_sb_addf(sb, "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"4\" fill=\"%s\"/>",
			   x, y - 4, color);
		jh_sb_addf(sb, "<text x=\"%d\" y=\"%.1f\"%s>", x + 18, y,
			   l->suspect ? " font-weight=\"bold\" fill=\"#d62728\"" : "");
		if (l->suspect)
			jh_sb_addf(sb, "suspect %d: ", l->suspect);
		size_t at = sb->len;
		esc(sb, l->name);
		if (sb->len - at > 60) { /* long C++ names: the <title> has it whole */
			sb->len = at;
			size_t cut = 57;
			while (cut > 0 && ((unsigned char)l->name[cut] & 0xc0) == 0x80)
				cut--;
			jh_markup_escape(sb, l->name, cut);
			jh_sb_adds(sb, "...");
		}
		jh_sb_adds(sb, "<title>");
		esc(sb, l->name);
		jh_sb_adds(sb, "</title></text>\n");
	}
	jh_sb_adds(sb, "</g>\n");
}

int jh_report_series_svg(FILE *out, const struct jh_series *s, size_t top, const char *title)
{
	size_t nd = s->ndumps;
	double *tot = xmalloc(nd * sizeof(*tot));
	for (size_t i = 0; i < nd; i++)
		tot[i] = s->dumps[i].total;
	struct line *lines = xmalloc((s->nrows + 1) * sizeof(*lines));
	size_t n = pick_lines(s, top, lines, tot);
	double ymax = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < nd; i++)
			ymax = lines[k].v[i] > ymax ? lines[k].v[i] : ymax;
	double plot_h = HEIGHT - TOP - BOTTOM;
	double step = nd > 1 ? (double)(WIDTH - LEGEND - X0) / (double)(nd - 1) : 0;
	double height = HEIGHT > TOP + 18.0 * (double)n + 20 ? HEIGHT : TOP + 18.0 * (double)n + 20;
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_addf(&sb,
		   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		   "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		   "<text x=\"%d\" y=\"24\" font-size=\"16\">",
		   WIDTH, height, WIDTH, height, X0);
	esc(&sb, title && *title ? title : "Heap series");
	jh_sb_addf(&sb, " (%zu dumps, %zu leak suspect%s)</text>\n", nd, s->nsuspects,
		   s->nsuspects == 1 ? "" : "s");
	axes(&sb, s, ymax, step, plot_h);
	jh_sb_addf(&sb,
		   "<g id=\"plot\" data-x0=\"%d\" data-y0=\"%d\" data-height=\"%.3f\" "
		   "data-step=\"%.6f\" data-ymax=\"%.17g\" data-unit=\"%s\">\n",
		   X0, HEIGHT - BOTTOM, plot_h, step, ymax,
		   s->value == JH_INUSE_OBJECTS || s->value == JH_ALLOC_OBJECTS ? "objects"
										: "bytes");
	/* suspects last: drawn on top */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < n; k++)
			if ((lines[k].suspect != 0) == pass)
				draw_line(&sb, s, &lines[k], k, ymax, step, plot_h);
	jh_sb_adds(&sb, "</g>\n");
	legend(&sb, lines, n);
	jh_sb_adds(&sb, "</svg>\n");
	int err = fwrite(sb.buf, 1, sb.len, out) != sb.len || ferror(out);
	jh_sb_release(&sb);
	free(lines);
	free(tot);
	return err ? -1 : 0;
}
