/*
 * pipeline.c - options -> symbolizer -> model -> analysis -> report.
 * The report of one mode is report_one.c's (shared with the interactive
 * mode).
 */
#include "builds.h"
#include "cli.h"
#include "coverage_line.h"
#include "empty.h"
#include "growth_gate.h"
#include "output_kind.h"
#include "progress.h"

#include "jeheap/model.h"
#include "jeheap/options.h"
#include "jeheap/report.h"
#include "jeheap/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* The output mode actually run: the default is interactive on a terminal
 * (stdout, as jeprof checks), else text. */
static enum jh_output effective_output(const struct jh_options *o)
{
	if (o->output == JH_OUT_DEFAULT)
		return isatty(1) ? JH_OUT_INTERACTIVE : JH_OUT_TEXT;
	return o->output;
}

static int supported(enum jh_output mode)
{
	switch (mode) {
	case JH_OUT_TEXT:
	case JH_OUT_TOP:
	case JH_OUT_COLLAPSED:
	case JH_OUT_DOT:
	case JH_OUT_SVG:
	case JH_OUT_PDF:
	case JH_OUT_PS:
	case JH_OUT_GIF:
	case JH_OUT_PNG:
	case JH_OUT_WEB:
	case JH_OUT_GV:
	case JH_OUT_EVINCE:
	case JH_OUT_CALLGRIND:
	case JH_OUT_LIST:
	case JH_OUT_RAW:
	case JH_OUT_FLAMEGRAPH:
	case JH_OUT_HTML:
	case JH_OUT_WEB_FLAME:
	case JH_OUT_INTERACTIVE:
	case JH_OUT_PROTO:
	case JH_OUT_SPEEDSCOPE:
	case JH_OUT_TRACES:
	case JH_OUT_TREE:
	case JH_OUT_PEEK:
	case JH_OUT_JSON:
	case JH_OUT_THREADS:
	case JH_OUT_STATS: return 1;
	default: return 0;
	}
}

/* Runs the analysis and the report for the whole process or each selected
 * thread. */
static int analyse_and_report(struct jh_outfile *of, enum jh_output mode, const struct jh_model *m,
			      const struct jh_options *o, struct jh_diag *d)
{
	int only = -1, empty = -1; /* the thread asked for; the first with nothing to show */
	size_t shown = 0;
	if (o->have_thread && !o->thread_all && (only = jh_thread_index(m, o, d)) < 0)
		return JH_EXIT_NODATA;
	for (size_t t = 0; t < (o->have_thread ? m->nthreads : 1); t++) {
		int thread = -1;
		if (o->have_thread) {
			if (!o->thread_all && (int)t != only)
				continue;
			thread = (int)t;
		}
		struct jh_graph g;
		int r = jh_analyse_for(&g, mode, m, o, thread, d);
		JH_TRACE("analysed");
		if (!r && jh_graph_is_empty(&g, mode)) {
			if (!shown && empty < 0)
				empty = thread;
			jh_graph_release(&g);
			continue;
		}
		shown++;
		int code = JH_EXIT_OK;
		if (!r && (r = jh_report_one(of->f, mode, &g, o, 0, d)) && !d->code)
			code = jh_outfile_error(of, errno, d); /* a write failed */
		JH_TRACE("reported");
		jh_graph_release(&g);
		if (r)
			return d->code ? d->code : code;
	}
	if (shown)
		return JH_EXIT_OK;
	if (o->have_thread && !m->nthreads)
		jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
			    "nothing to show: %s has no per-thread data",
			    o->nprofiles ? o->profiles[0] : "the profile");
	else
		jh_nothing_to_show(m, o, mode, empty, d);
	return JH_EXIT_NODATA;
}

/* --threads: the table, or nothing to show when the profile has no thread data. */
static int threads_table(struct jh_outfile *of, const struct jh_model *m,
			 const struct jh_options *o, struct jh_diag *d)
{
	if (!m->nthreads) {
		jh_diag_set(d, JH_EXIT_NODATA, NULL, 0,
			    "nothing to show: %s has no per-thread data",
			    o->nprofiles ? o->profiles[0] : "the profile");
		return JH_EXIT_NODATA;
	}
	struct jh_analysis_opts ao = jh_options_analysis(o, NULL);
	if (jh_report_threads(of->f, m, &ao, d))
		return d->code ? d->code : jh_outfile_error(of, errno, d);
	return JH_EXIT_OK;
}

/* With --base: o, or a copy of it in *copy normalising names when the
 * profiles and the bases come from different builds (builds.c). */
static const struct jh_options *normalized(const struct jh_options *o, const struct jh_model *m,
					   struct jh_symbolizer *s, struct jh_options *copy)
{
	struct jh_builds b;
	jh_builds_init(&b);
	jh_builds_add(&b, m, s);
	unsigned norm = jh_builds_normalize(o, &b);
	jh_builds_release(&b);
	if (!norm)
		return o;
	*copy = *o;
	copy->normalize = norm;
	return copy;
}

/*
 * The readers and the model grow and free many large arrays: glibc would
 * give each freed large block back to the kernel (munmap, or trimming the
 * heap) and take fresh pages for the next, so that a quarter of all page
 * faults were pages faulted in a second time. Freed memory is kept for
 * reuse instead (arrays below 4 MB come from the heap, which is not
 * trimmed; bigger ones are mapped on their own, in huge pages: see
 * xmalloc in src/base/base.c).
 */
static void tune_malloc(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, 16 << 20);
#endif
}

int jh_run(const struct jh_options *o, struct jh_diag *d)
{
	tune_malloc();
	enum jh_output mode = effective_output(o);
	if (mode == JH_OUT_SYMBOLS) {
		struct jh_report_opts ro;
		jh_report_opts_from(&ro, o);
		struct jh_outfile of;
		jh_outfile_open(&of, NULL, 0, d);
		int code = jh_report_symbols(&ro, stdin, stdout, d);
		if (code == JH_EXIT_OK && ferror(stdout))
			code = jh_outfile_error(&of, errno, d);
		return jh_outfile_close(&of, code, d);
	}
	if (o->series)
		return jh_series_run(o, o->output == JH_OUT_DEFAULT ? JH_OUT_TEXT : mode, d);
	if (!supported(mode)) {
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0, "--%s: not supported yet",
			    o->output_mode_name ? o->output_mode_name : "?");
		return JH_EXIT_USAGE;
	}
	if ((mode == JH_OUT_JSON || mode == JH_OUT_STATS) && o->have_thread) {
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			    "--%s summarises the whole process: --thread does not apply",
			    o->output_mode_name);
		return JH_EXIT_USAGE;
	}
	if (jh_output_is_binary(mode) && !o->output_file && isatty(1)) {
		jh_diag_set(d, JH_EXIT_USAGE, NULL, 0,
			    "--%s writes binary data and standard output is a terminal: use "
			    "--output=FILE or a redirect (> FILE)",
			    o->output_mode_name ? o->output_mode_name : "?");
		return JH_EXIT_USAGE;
	}
	jh_sum_guard(o);
	struct jh_raw_spool spool;
	if (mode == JH_OUT_RAW && !(o = jh_raw_spool_stdin(&spool, o, d)))
		return d->code;
	struct jh_symbolizer_opts so = o->sym;
	if (o->quiet < 2)
		jh_progress_begin(&so);
	struct jh_symbolizer *s = jh_symbolizer_new(&so);
	struct jh_model m;
	struct jh_options onorm;
	struct jh_model_opts mo = jh_options_model(o);
	int code = JH_EXIT_OK;
	jh_run_ids_init();
	int failed = jh_model_build(&m, &mo, s, d);
	jh_progress_end();
	if (failed) {
		code = d->code ? d->code : JH_EXIT_INPUT;
	} else if (o->symbols_only) {
		code = JH_EXIT_OK; /* the symbolizer wrote the cache: no report */
	} else if ((code = jh_model_check(&m, o, d)) != JH_EXIT_OK) {
		/* d set */
	} else {
		if (o->nbases && !o->normalize)
			o = normalized(o, &m, s, &onorm);
		struct jh_outfile of;
		/* a viewer opens the file before the report returns */
		int viewer = mode == JH_OUT_WEB || mode == JH_OUT_GV || mode == JH_OUT_EVINCE;
		if (!jh_outfile_open(&of, o->output_file, viewer, d)) {
			code = JH_EXIT_OUTPUT;
		} else {
			if (mode == JH_OUT_RAW && jh_model_is_empty(&m)) {
				code = jh_nothing_to_show(&m, o, mode, -1, d) ? JH_EXIT_NODATA : 0;
			} else if (mode == JH_OUT_RAW) {
				if (jh_raw_write(of.f, &m, o, d))
					code = d->code ? d->code : jh_outfile_error(&of, errno, d);
			} else if (mode == JH_OUT_THREADS) {
				code = threads_table(&of, &m, o, d);
			} else if (mode == JH_OUT_INTERACTIVE) {
				code = jh_interactive(&m, o, d);
			} else if (mode == JH_OUT_PROTO || mode == JH_OUT_SPEEDSCOPE) {
				code = jh_views_report(&of, mode, &m, o, d);
			} else {
				code = analyse_and_report(&of, mode, &m, o, d);
			}
			code = jh_outfile_close(&of, code, d);
			if (code == JH_EXIT_OK && !o->quiet)
				jh_coverage_line(&m, stderr);
			if (code == JH_EXIT_OK && !o->quiet && o->verbose)
				jh_model_coverage(&m, stderr);
			/* the gate after the report (what grew is in the report too);
			 * its verdict is the exit status, also when nothing changed
			 * (a report with nothing to show says so as a warning) */
			if (o->fail_on_growth && mode != JH_OUT_INTERACTIVE &&
			    (code == JH_EXIT_OK || code == JH_EXIT_NODATA)) {
				struct jh_diag gd = { { 0 }, 0 };
				code = jh_growth_gate_verdict(code, jh_growth_gate(&m, o, &gd), &gd,
							      d);
			}
		}
	}
	JH_TRACE("done");
	jh_model_release(&m);
	jh_run_ids_release();
	if (s)
		jh_symbolizer_free(s);
	if (mode == JH_OUT_RAW)
		jh_raw_spool_release(&spool);
	return code;
}
