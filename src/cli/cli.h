/*
 * cli.h - what the files of the command line share (private to src/cli/):
 * the analysis and report of one output mode (report_one.c), the --raw
 * body (raw_body.c) and the interactive mode (interactive.c).
 */
#ifndef JEHEAP_CLI_H
#define JEHEAP_CLI_H

#include "jeheap/options.h"
#include "jeheap/report.h"

/* The report options of o (valid while o is). */
void jh_report_opts_from(struct jh_report_opts *ro, const struct jh_options *o);

/* The Run#n table every analysis of the run shares (jh_run inits and releases it). */
void jh_run_ids_init(void);
void jh_run_ids_release(void);

/* Prints, once per run, that --focus or --ignore matched full signatures
 * (g->fullnames). */
void jh_fullnames_note(const struct jh_graph *g);
/*
 * The analysis report mode needs: the stacks only (jh_analyse_stacks) for
 * --list, --collapsed and --callgrind, else the full graph (jh_analyse).
 * thread -1 = the whole process.
 */
int jh_analyse_for(struct jh_graph *g, enum jh_output mode, const struct jh_model *m,
		   const struct jh_options *o, int thread, struct jh_diag *d);
/*
 * Writes report mode for g, analysed by jh_analyse_for (--list lists
 * o->list_re). A graphviz viewer (--web --gv --evince) runs in the
 * background if background (interactive mode), else is waited for.
 * Returns 0, or -1 (d set, or d->code 0 on a plain write error).
 */
int jh_report_one(FILE *out, enum jh_output mode, const struct jh_graph *g,
		  const struct jh_options *o, int background, struct jh_diag *d);

/* Whether the built model can give o's report: the sample type is there,
 * --lines has lines. JH_EXIT_OK, else the exit code with d set. */
int jh_model_check(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d);

/*
 * --series (series_run.c): one model and analysis per dump, in series
 * order, the series table, its report (--text or --svg). Returns an exit
 * code.
 */
int jh_series_run(const struct jh_options *o, enum jh_output mode, struct jh_diag *d);

/* The summing guard (sum_guard.c): one warning when the profiles summed
 * are jemalloc dumps of one process at different times or of several
 * processes; one warning when a file is given twice. */
void jh_sum_guard(const struct jh_options *o);
/* The number of distinct files among o's profiles (stdin always distinct);
 * *again is the first profile that repeats an earlier one, *first that one
 * (both o->nprofiles when none does). */
size_t jh_profiles_twice(const struct jh_options *o, size_t *first, size_t *again);

struct jh_outfile;
/*
 * --proto (views.c): every value of the whole process or of each selected
 * thread, analysed and written in one file. Returns an exit code.
 */
int jh_views_report(struct jh_outfile *of, enum jh_output mode, const struct jh_model *m,
		    const struct jh_options *o, struct jh_diag *d);

/*
 * --raw: the first profile of o as a .symbolized file with m's names: the
 * symbol part (jh_report_raw_symbols), then the profile's body read again,
 * verbatim. Returns 0, or -1 with d set (d->code 0 and errno set on a
 * write error).
 */
int jh_raw_write(FILE *out, const struct jh_model *m, const struct jh_options *o,
		 struct jh_diag *d);
/*
 * --raw reads its first profile twice. When that is stdin ("-"), this copies
 * stdin into a temporary file and returns options naming it instead (valid
 * until jh_raw_spool_release, which removes the file); otherwise returns o.
 * NULL with d set on error. Call before the model is built.
 */
struct jh_raw_spool {
	struct jh_options o;
	char **profiles;
	char *path;
};
const struct jh_options *jh_raw_spool_stdin(struct jh_raw_spool *sp, const struct jh_options *o,
					    struct jh_diag *d);
void jh_raw_spool_release(struct jh_raw_spool *sp);

/*
 * jeprof's interactive mode on the built model m: reads commands (libedit
 * when stdin is a terminal), each one re-runs the analysis with changed
 * options and prints a report. Returns the exit code.
 */
int jh_interactive(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d);

/*
 * The report's destination (output.c): stdout (file NULL) or --output=FILE,
 * written to a temporary file beside FILE and renamed over it by
 * jh_outfile_close only if code is JH_EXIT_OK and every write, the flush
 * and the close succeeded (else FILE is untouched, the temporary file
 * removed; in_place: FILE is written directly, as a viewer opens it before
 * the close). jh_outfile_open returns NULL with d set. jh_outfile_error turns
 * a failed write (its errno) into the exit code, d set with the reason;
 * EPIPE on stdout is a quiet success. jh_outfile_close returns the final
 * exit code.
 */
struct jh_outfile {
	FILE *f;
	const char *name;  /* FILE or "standard output", for messages */
	char *final, *tmp; /* renamed tmp -> final; NULL: written in place */
	int quiet;         /* stdout's reader has gone (EPIPE) */
};
FILE *jh_outfile_open(struct jh_outfile *of, const char *file, int in_place, struct jh_diag *d);
int jh_outfile_error(struct jh_outfile *of, int err, struct jh_diag *d);
int jh_outfile_close(struct jh_outfile *of, int code, struct jh_diag *d);

#endif
