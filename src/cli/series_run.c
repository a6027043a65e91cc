/*
 * series_run.c - --series: the dumps in series order, each read into its
 * own model (one symbolizer for all: modules are read once) and analysed
 * with the command line's filters, added to the series table, which the
 * series reports render; then --fail-on-growth on its first and last dump.
 */
#include "builds.h"
#include "cli.h"
#include "coverage_line.h"
#include "empty.h"
#include "growth_gate.h"
#include "progress.h"

#include "jeheap/model.h"
#include "jeheap/report_series.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The options the series cannot combine with: a usage error, or 0. */
static int refuse(const struct jh_options *o, enum jh_output mode, struct jh_diag *d)
{
	if (o->nbases)
		return jh_diag_set(
			d, JH_EXIT_USAGE, NULL, 0,
			"--series: not with --base (the first dump is the series' base)");
	if (o->have_thread)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "--series: not with --thread");
	if (mode != JH_OUT_TEXT && mode != JH_OUT_SVG && mode != JH_OUT_JSON)
		return jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
				   "--series writes --text, --svg or --json, not --%s",
				   o->output_mode_name ? o->output_mode_name : "?");
	return 0;
}

/* The analysis of one dump with the command line's options. */
static int analyse(struct jh_graph *g, const struct jh_model *m, const struct jh_options *o,
		   unsigned normalize, struct jh_diag *d)
{
	struct jh_analysis_opts ao = jh_options_analysis(o, NULL);
	ao.normalize = normalize;
	if (jh_analyse(g, m, &ao, -1, d))
		return d->code ? d->code : JH_EXIT_INTERNAL;
	return JH_EXIT_OK;
}

/* Reads dump path into a model, analyses it and adds it as dump i. Keeps
 * the model in *m (the caller releases it). Returns an exit code. */
static int add_dump(struct jh_series *s, size_t i, const char *path, struct jh_model *m,
		    struct jh_symbolizer *sym, const struct jh_options *o, unsigned normalize,
		    struct jh_diag *d)
{
	char *one[1] = { (char *)path };
	struct jh_model_opts mo = jh_options_model(o);
	mo.profiles = one;
	mo.nprofiles = 1;
	if (jh_model_build(m, &mo, sym, d))
		return d->code ? d->code : JH_EXIT_INPUT;
	int code = jh_model_check(m, o, d);
	if (code)
		return code;
	struct jh_graph g;
	if ((code = analyse(&g, m, o, normalize, d)) == JH_EXIT_OK)
		jh_series_add(s, i, &g, path, m->period);
	jh_graph_release(&g);
	return code;
}

/* --series --json: the last dump's summary with the table. */
static int render_json(FILE *f, const struct jh_series *s, const struct jh_model *last,
		       const struct jh_options *o, unsigned normalize, struct jh_diag *d)
{
	struct jh_graph g;
	int code = analyse(&g, last, o, normalize, d);
	if (code == JH_EXIT_OK) {
		struct jh_report_opts ro;
		jh_report_opts_from(&ro, o);
		ro.output = JH_OUT_JSON;
		code = jh_report_series_json(f, s, &g, &ro) ? -1 : JH_EXIT_OK;
	}
	jh_graph_release(&g);
	return code;
}

static int render(const struct jh_series *s, enum jh_output mode, const struct jh_model *last,
		  const struct jh_options *o, unsigned normalize, struct jh_diag *d)
{
	struct jh_outfile of;
	if (!jh_outfile_open(&of, o->output_file, 0, d))
		return JH_EXIT_OUTPUT;
	int r = mode == JH_OUT_SVG    ? jh_report_series_svg(of.f, s, 10, o->flame.title)
		: mode == JH_OUT_JSON ? render_json(of.f, s, last, o, normalize, d)
				      : jh_report_series_text(of.f, s);
	int code = r < 0 ? jh_outfile_error(&of, errno, d) : r;
	return jh_outfile_close(&of, code, d);
}

/* --fail-on-growth over the series: the kept totals of the first and the
 * last dump; "grew most" names the three rows that grew most. */
static int gate(const struct jh_series *s, const struct jh_options *o, struct jh_diag *d)
{
	const struct jh_series_row *top[3] = { NULL, NULL, NULL };
	for (size_t k = 0; k < s->nrows; k++) {
		const struct jh_series_row *r = &s->rows[k];
		if (jh_perl_int(r->growth) <= 0)
			continue;
		for (int j = 0; j < 3; j++) /* rows are in a stable order: ties keep it */
			if (!top[j] || r->growth > top[j]->growth) {
				memmove(&top[j + 1], &top[j], (size_t)(2 - j) * sizeof(*top));
				top[j] = r;
				break;
			}
	}
	struct jh_sb most = JH_SB_INIT;
	jh_sb_init(&most);
	for (int j = 0; j < 3 && top[j]; j++) {
		jh_sb_adds(&most, j ? ", " : "; grew most: ");
		jh_sb_add_visible(&most, top[j]->name);
		jh_sb_addf(&most, " (+%lld)", jh_perl_int(top[j]->growth));
	}
	int code = jh_growth_gate_totals(o, s->dumps[0].kept, s->dumps[s->ndumps - 1].kept,
					 " over the series", most.buf, d);
	jh_sb_release(&most);
	return code;
}

int jh_series_run(const struct jh_options *o, enum jh_output mode, struct jh_diag *d)
{
	if (refuse(o, mode, d))
		return JH_EXIT_USAGE;
	size_t first, again, distinct = jh_profiles_twice(o, &first, &again);
	if (distinct < 2 && again < o->nprofiles) {
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			    "--series: '%s' is given twice, one dump: there is no series",
			    o->profiles[first]);
		return JH_EXIT_USAGE;
	}
	if (distinct < 2) {
		jh_diag_set(
			d, JH_EXIT_USAGE, NULL, 0,
			"--series: one dump ('%s'): there is no series (give two dumps or more)",
			o->profiles[0]);
		return JH_EXIT_USAGE;
	}
	if (again < o->nprofiles)
		jh_warn("--series: '%s' is given twice: it is in the series twice",
			o->profiles[again]);
	int code = JH_EXIT_OK;
	size_t n = o->nprofiles, *order = xmalloc(n * sizeof(*order));
	if (jh_series_order(o->profiles, n, o->allow_mixed, order, d)) {
		free(order);
		return JH_EXIT_USAGE;
	}
	struct jh_symbolizer_opts so = o->sym;
	if (o->quiet < 2)
		jh_progress_begin(&so);
	struct jh_symbolizer *sym = jh_symbolizer_new(&so);
	struct jh_series s;
	struct jh_model m = { 0 };
	struct jh_builds b;
	jh_builds_init(&b);
	unsigned normalize = jh_builds_normalize(o, &b);
	for (int pass = 0; pass < 2; pass++) {
		int again = 0;
		jh_series_init(&s, n, o->stacks, o->cum);
		for (size_t i = 0; i < n && !code && !again; i++) {
			jh_model_release(&m);
			code = add_dump(&s, i, o->profiles[order[i]], &m, sym, o, normalize, d);
			/* different builds: matched by normalised names, from the start */
			if (!code && !pass && !o->normalize && jh_builds_add(&b, &m, sym))
				again = (normalize = jh_builds_normalize(o, &b)) != 0;
		}
		if (!again)
			break;
		jh_series_release(&s);
	}
	jh_builds_release(&b);
	jh_progress_end();
	int finished = !code;
	if (!code) {
		jh_series_finish(&s);
		if (!s.nrows && mode != JH_OUT_JSON) { /* why, as said of the last dump */
			jh_nothing_to_show(&m, o, JH_OUT_TEXT, -1, d);
			code = JH_EXIT_NODATA;
		} else {
			code = render(&s, mode, &m, o, normalize, d);
		}
	}
	if (code == JH_EXIT_OK && !o->quiet)
		jh_coverage_line(&m, stderr); /* the last dump's */
	/* the gate after the table, as with --base: nothing to show is then a warning */
	if (o->fail_on_growth && finished && (code == JH_EXIT_OK || code == JH_EXIT_NODATA)) {
		struct jh_diag gd = { { 0 }, 0 };
		code = jh_growth_gate_verdict(code, gate(&s, o, &gd), &gd, d);
	}
	jh_model_release(&m);
	jh_series_release(&s);
	if (sym)
		jh_symbolizer_free(sym);
	free(order);
	return code;
}
