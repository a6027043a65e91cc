/*
 * flame_html.c - --html: one self-contained page (no network, opens from
 * file://): the inputs, totals and symbolization coverage, the flame graph
 * inline (its frames in the page), and a flat/cum table of the functions,
 * sortable and filterable. Every name goes through jh_markup_escape and
 * only static text goes into the page's <script>.
 */
#include "flame.h"

#include "jeheap/report.h"

#include <stdlib.h>
#include <string.h>

static const char page_style[] =
	"body{font-family:sans-serif;margin:12px;color:#222}"
	"h1{font-size:20px}h2{font-size:17px;margin-top:24px}"
	"table.jh-info th{text-align:left;padding-right:12px;vertical-align:top}"
	"#jh-table{border-collapse:collapse;font-size:13px}"
	"#jh-table th{cursor:pointer;background:#eee;text-align:right;padding:3px 8px}"
	"#jh-table th:first-child,#jh-table td:first-child{text-align:left}"
	"#jh-table td{padding:2px 8px;text-align:right;border-top:1px solid #ddd;"
	"font-family:monospace}"
	"#jh-table td:first-child{max-width:70em;overflow-wrap:anywhere}"
	"table.jh-coverage{border-collapse:collapse;font-size:13px;margin-top:4px}"
	"table.jh-coverage th,table.jh-coverage td{text-align:left;padding:1px 8px;"
	"border-top:1px solid #ddd}"
	"p{margin:4px 0}"
	".jh-bar{margin:8px 0}.jh-bar input{width:28em}";

static void add_text(struct jh_sb *sb, const char *s)
{
	jh_markup_escape(sb, s, strlen(s));
}

static void add_files(struct jh_sb *sb, const char *th, char *const *files, size_t n)
{
	if (!n)
		return;
	jh_sb_addf(sb, "<tr><th>%s</th><td>", th);
	for (size_t i = 0; i < n; i++) {
		jh_sb_adds(sb, i ? "<br>" : "");
		add_text(sb, files[i]);
	}
	jh_sb_adds(sb, "</td></tr>\n");
}

/* The coverage (model.h): the share fully symbolized, then a small table of
 * the modules short of lines: module, state, share of bytes, action. */
static void add_coverage(struct jh_sb *sb, const struct jh_model *m)
{
	struct jh_coverage c;
	if (!jh_model_coverage_tally(m, &c)) {
		jh_sb_adds(sb, "every name came with the input (.symbolized)");
		return;
	}
	jh_coverage_actions(&c, c.nmods);
	jh_sb_addf(sb, "%.1f%% of bytes fully symbolized", c.percent);
	size_t rows = 0;
	for (size_t j = 0; j < c.nmods; j++) {
		const struct jh_coverage_module *cm = &c.mods[j];
		if (cm->bytes_short <= 0)
			continue;
		if (!rows++)
			jh_sb_adds(
				sb,
				"\n<table class=\"jh-coverage\"><tr><th>Module</th><th>State</th>"
				"<th>Bytes short of lines</th><th>Action</th></tr>\n");
		jh_sb_adds(sb, "<tr><td>");
		add_text(sb, cm->module);
		jh_sb_adds(sb, "</td><td>");
		add_text(sb, cm->state >= 0 ? jh_modstate_name(cm->state) : "not symbolized");
		jh_sb_addf(sb, "</td><td>%.1f%%</td><td>",
			   c.total_bytes > 0 ? 100 * cm->bytes_short / c.total_bytes : 0.0);
		if (cm->reason) {
			add_text(sb, cm->reason);
			jh_sb_adds(sb, cm->action ? "; " : "");
		}
		if (cm->action)
			add_text(sb, cm->action);
		jh_sb_adds(sb, "</td></tr>\n");
	}
	if (rows)
		jh_sb_adds(sb, "</table>");
	jh_coverage_release(&c);
}

static void add_info(struct jh_sb *sb, const struct jh_flame *f)
{
	const struct jh_graph *g = f->g;
	const struct jh_flame_opts *o = f->o;
	jh_sb_adds(sb, "<table class=\"jh-info\">\n");
	add_files(sb, "Profiles", o->inputs, o->ninputs);
	add_files(sb, "Bases (subtracted)", o->bases, o->nbases);
	jh_sb_addf(sb, "<tr><th>Sample type</th><td>%s</td></tr>\n", jh_flame_value_name(g));
	jh_sb_adds(sb, "<tr><th>Total</th><td>");
	jh_flame_int(sb, (int64_t)g->total, 0);
	jh_sb_adds(sb, " (shown: ");
	jh_flame_int(sb, f->n[0].after, 0);
	if (g->has_base) {
		jh_sb_adds(sb, ", bases: ");
		jh_flame_int(sb, f->n[0].before, 0);
		jh_sb_adds(sb, ", change: ");
		jh_flame_int(sb, f->n[0].after - f->n[0].before, 1);
	}
	jh_sb_addf(sb, ") %s; %zu stacks</td></tr>\n",
		   strstr(jh_flame_value_name(g), "objects") ? "objects" : "bytes", g->nstacks);
	jh_sb_adds(sb, "<tr><th>Symbolization</th><td>");
	add_coverage(sb, g->m);
	jh_sb_adds(sb, "</td></tr>\n</table>\n");
}

/* A value's cell (truncated, as --collapsed prints it; plus: with its sign). */
static void add_int_cell(struct jh_sb *sb, double v, int plus)
{
	int64_t i = (int64_t)v;
	jh_sb_addf(sb, "<td data-v=\"%lld\">", (long long)i);
	jh_flame_int(sb, i, plus);
	jh_sb_adds(sb, "</td>");
}

static void add_cell(struct jh_sb *sb, double v, double total)
{
	add_int_cell(sb, v, 0);
	double p = total != 0 ? 100.0 * v / total : 0;
	jh_sb_addf(sb, "<td data-v=\"%.4f\">%.2f%%</td>", p, p);
}

/* Rows of the table: a browser lays out a long table slowly, so at most the
 * TABLE_TOP largest by flat and the TABLE_TOP largest by cum. */
enum { TABLE_TOP = 1000 };

/* The functions' flat and cum (the --text rows, in its order). */
static void add_table(struct jh_sb *sb, const struct jh_graph *g)
{
	const char *what = g->has_base ? " change" : "";
	uint32_t *order = jh_graph_sorted(g, 0), *by_cum = jh_graph_sorted(g, 1);
	uint8_t *keep = xcalloc(g->nnodes ? g->nnodes : 1, 1);
	size_t shown = 0;
	for (size_t i = 0; i < g->nnodes && i < TABLE_TOP; i++)
		keep[order[i]] = keep[by_cum[i]] = 1;
	for (size_t i = 0; i < g->nnodes; i++)
		shown += keep[i];
	jh_sb_adds(sb, "<h2>Functions</h2>\n");
	if (shown < g->nnodes)
		jh_sb_addf(sb,
			   "<p>Showing the %zu of %zu functions among the %d largest by flat or "
			   "by cum (--text lists all).</p>\n",
			   shown, g->nnodes, TABLE_TOP);
	jh_sb_addf(sb,
		   "<div class=\"jh-bar\"><input id=\"jh-filter\" "
		   "type=\"search\" placeholder=\"Filter functions (regular expression)\"> "
		   "<span id=\"jh-rows\"></span></div>\n<table id=\"jh-table\"><thead><tr>"
		   "<th data-t=\"s\">Function</th><th data-t=\"n\">Flat%s</th>"
		   "<th data-t=\"n\">Flat%%</th><th data-t=\"n\">Cum%s</th>"
		   "<th data-t=\"n\">Cum%%</th>",
		   what, what);
	/* the companion value (objects of a space profile, bytes of an objects one) */
	const char *u2 = jh_flame_unit(g->value2);
	jh_sb_addf(sb,
		   "<th data-t=\"n\">Flat %s%s</th><th data-t=\"n\">Cum %s%s</th>"
		   "</tr></thead>\n<tbody>\n",
		   u2, what, u2, what);
	for (size_t i = 0; i < g->nnodes; i++) {
		if (!keep[order[i]])
			continue;
		const struct jh_node *n = &g->nodes[order[i]];
		jh_sb_adds(sb, "<tr><td>");
		add_text(sb, n->label);
		jh_sb_adds(sb, "</td>");
		add_cell(sb, n->flat, g->local_total);
		add_cell(sb, n->cum, g->local_total);
		add_int_cell(sb, n->flat2, g->has_base);
		add_int_cell(sb, n->cum2, g->has_base);
		jh_sb_adds(sb, "</tr>\n");
	}
	free(keep);
	free(order);
	free(by_cum);
	jh_sb_adds(sb, "</tbody></table>\n");
}

int jh_flame_html(struct jh_sb *sb, const struct jh_graph *g, const struct jh_flame_opts *o)
{
	struct jh_flame f;
	jh_flame_build(&f, g, o);
	const char *title = o->title ? o->title : "jeheap heap profile";
	jh_sb_adds(sb,
		   "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
	add_text(sb, title);
	jh_sb_addf(sb, "</title>\n<style>%s</style>\n</head><body>\n<h1>", page_style);
	add_text(sb, title);
	jh_sb_adds(sb, "</h1>\n");
	add_info(sb, &f);
	jh_sb_adds(sb, "<div class=\"jh-bar\"><input id=\"jh-q\" type=\"search\" "
		       "placeholder=\"Search frames (regular expression)\"> "
		       "<button id=\"jh-reset-btn\">Reset zoom</button></div>\n");
	jh_flame_svg(sb, &f, 0);
	add_table(sb, g);
	jh_sb_addf(sb, "<script>\n%s%s</script>\n</body></html>\n", jh_flame_script,
		   jh_flame_table_script);
	jh_flame_release(&f);
	return 0;
}

int jh_report_html(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_flame_html(&sb, g, o);
	fwrite(sb.buf, 1, sb.len, out);
	jh_sb_release(&sb);
	return ferror(out) ? -1 : 0;
}

int jh_report_web_flame(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o,
			const char *output_file, int background, struct jh_diag *d)
{
	struct jh_sb sb = JH_SB_INIT;
	jh_sb_init(&sb);
	jh_flame_html(&sb, g, o);
	int r = jh_viewer_show(sb.buf, sb.len, JH_OUT_WEB_FLAME, out, output_file, background, d);
	jh_sb_release(&sb);
	return r;
}
