/*
 * report.h - the report writers: each writes one format of an analysed
 * graph (or of the model, --raw; or of addresses, --symbols) to out.
 *
 * They read only their own small options struct, filled by the command
 * line (cli). Every report returns 0, or -1 on failure: d set (d->code is
 * the exit code: JH_EXIT_OUTPUT when Graphviz is missing or fails,
 * JH_EXIT_NODATA when the graph has no node) or, where there is no d, on a
 * plain write error.
 */
#ifndef JEHEAP_REPORT_H
#define JEHEAP_REPORT_H

#include "jeheap/analyse.h"
#include "jeheap/report_flame.h"
#include "jeheap/report_output.h"
#include "jeheap/symbolize.h"

#include <stdio.h>

/* What the reports read of the command line. */
struct jh_report_opts {
	enum jh_output output;   /* the graphviz format or viewer (--svg ... --evince) */
	const char *output_file; /* --output=FILE, NULL = stdout (viewers write there) */
	const char *program;     /* ELF program argument, or NULL */
	int cum;                 /* --cum: --text sorted by cumulative value */
	int diff_base;           /* --diff_base: --text signs changes, percent of the bases */
	/* --dot: the node and edge cuts, --heapcheck's styles */
	int nodecount;
	double nodefraction, edgefraction;
	int maxdegree;
	int heapcheck;
	int quiet; /* --quiet: no "Dropping nodes" note on stderr */
	/* --list, --symbols: path maps, sysroot, jobs, the modules */
	const struct jh_symbolizer_opts *sym;
	const struct jh_flame_opts *flame; /* --flamegraph --html --web=flame */
	/* --proto: the input files (comments, time) and the bases */
	char *const *profiles;
	size_t nprofiles;
	char *const *bases;
	size_t nbases;
};

/* --text (limit -1) and --top=N (limit N rows, jeprof's line limit). */
int jh_report_text(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o, int limit);
/* --collapsed: sorted folded stacks; with --base "before after" columns. */
int jh_report_collapsed(FILE *out, const struct jh_graph *g);

/* Go pprof's text views (report_pprof_text.c), as `go tool pprof` prints
 * them for jeheap's --proto of the same input and options: --traces (the
 * proto's samples, leaf first, with their values and labels), --tree (each
 * node with its callers above and callees below, pprof's node and edge
 * trimming by o->nodefraction, o->nodecount, o->edgefraction) and
 * --peek=RE (the untrimmed tree's nodes whose names match re; none: -1
 * with d set, JH_EXIT_NODATA). g is analysed with jh_analysis_opts.pprof. */
int jh_report_traces(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o);
int jh_report_tree(FILE *out, const struct jh_graph *g, const char *re,
		   const struct jh_report_opts *o, struct jh_diag *d);

/*
 * --dot: jeprof's call graph (docs/jeprof.md §8) appended to dot. mode is the
 * output mode the text is for (JH_OUT_PDF adds size="8,11", JH_OUT_SVG and
 * JH_OUT_WEB widen thin edges). Prints jeprof's "Dropping nodes..." and
 * "No nodes to print" lines on stderr; the latter returns -1 with
 * JH_EXIT_NODATA.
 */
int jh_dot_build(struct jh_sb *dot, const struct jh_graph *g, const struct jh_report_opts *o,
		 enum jh_output mode, struct jh_diag *d);
int jh_report_dot(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		  struct jh_diag *d);

/*
 * Runs `dot -T<format>` with the dot text on its stdin and its stdout on
 * out_fd. Returns 0, or -1 with d set (JH_EXIT_OUTPUT) when dot is missing,
 * cannot be run or fails; -1 with d unset and errno EPIPE when dot was
 * killed by SIGPIPE (out_fd's reader has gone: a plain write error).
 */
int jh_graphviz_run(const char *dot, size_t len, const char *format, int out_fd, struct jh_diag *d);
/*
 * The image for mode: written to out (svg pdf ps gif png) or, for
 * web/gv/evince, to output_file or a new temporary file which is opened in
 * a viewer when DISPLAY or WAYLAND_DISPLAY is set (background: do not wait
 * for the viewer) and otherwise named on stderr.
 */
int jh_graphviz_output(const char *dot, size_t len, enum jh_output mode, FILE *out,
		       const char *output_file, int background, struct jh_diag *d);
/* --web=flame: data[0..len) (the --html page) shown as the viewer modes
 * show their image (mode JH_OUT_WEB_FLAME: a temporary .html file). */
int jh_viewer_show(const char *data, size_t len, enum jh_output mode, FILE *out,
		   const char *output_file, int background, struct jh_diag *d);
/*
 * jeprof's RewriteSvg (report_svg.c): appends dot's SVG output svg[0..len)
 * to out, sized 100% of the window and with its graph in a "viewport"
 * group that a pan/zoom script moves; passed through if not dot's layout.
 */
void jh_svg_pan_zoom(struct jh_sb *out, const char *svg, size_t len);
/* --svg --pdf --ps --gif --png --web --gv --evince (o->output) for graph
 * g; a viewer runs in the background if background, else is waited for. */
int jh_report_graphviz(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		       int background, struct jh_diag *d);

/*
 * --raw (docs/jeprof.md §11): the symbol section of the first profile as a
 * .symbolized file with m's names ("--- symbol", "binary=", one line per
 * distinct pc, "---", "--- heap"); the caller appends the profile's body.
 */
int jh_report_raw_symbols(FILE *out, const struct jh_model *m, const struct jh_report_opts *o);

/*
 * --proto: a gzip-compressed perftools.profiles.Profile (pprof) of nviews
 * views (the whole process, or each thread: g->thread >= 0 adds a "thread"
 * label), each analysed once per value: g[view * JH_NVALUES + value]
 * (jh_analyse_stacks with the same filters). def is the default sample
 * type. Returns 0, or -1 (d set, or d->code 0 on a write error).
 */
int jh_report_proto(FILE *out, const struct jh_graph *const *g, size_t nviews, enum jh_value def,
		    const struct jh_report_opts *o, struct jh_diag *d);

/*
 * --speedscope: speedscope's JSON file format of the same views: the
 * value def, or all four (all_types), as "sampled" profiles.
 */
int jh_report_speedscope(FILE *out, const struct jh_graph *const *g, size_t nviews,
			 enum jh_value def, int all_types, const struct jh_report_opts *o,
			 struct jh_diag *d);

/*
 * --json: the versioned summary of docs/json.md (its schema there) of the
 * whole-process graph g: inputs, modules, totals, coverage, the first
 * o->nodecount functions and, with --base, the changes.
 */
int jh_report_json(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o);

/*
 * --threads: a table of m's threads (the first profile's tN: data), most
 * bytes first: thread uid and name, bytes and objects of ao's pair (in use
 * or allocated), share of all threads' bytes, and the function with the
 * largest flat value in the thread (analysed with ao's filters).
 */
int jh_report_threads(FILE *out, const struct jh_model *m, const struct jh_analysis_opts *ao,
		      struct jh_diag *d);

/*
 * --stats: one screen about the profiles of g's model (g: the whole
 * process, for the modules of the allocation sites): inputs, totals of the
 * four sample types, stacks, threads, top modules, coverage.
 */
int jh_report_stats(FILE *out, const struct jh_graph *g);

/* --callgrind: callgrind format of g's stacks (docs/jeprof.md §9, file:line parsed right). */
int jh_report_callgrind(FILE *out, const struct jh_graph *g, struct jh_diag *d);

/* --list=REGEX: annotated source of the functions matching re (docs/jeprof.md §10). */
int jh_report_list(FILE *out, const struct jh_graph *g, const struct jh_report_opts *o,
		   const char *re, struct jh_diag *d);

/*
 * --symbols: reads in as jeprof does: a line with a 0x<hex> token is an
 * address (its first such token; no caller fix-up), any other line is map
 * text. Then prints for each address, in input order, every frame
 * innermost first as a function line and a file:line line ("??" and "??:0"
 * when unknown), followed by an empty line (llvm-symbolizer --inlining /
 * addr2line -i -f layout). Symbolizes with o->sym, o->program standing for
 * the main executable. Returns an exit code (enum jh_exit), d set on
 * failure.
 */
int jh_report_symbols(const struct jh_report_opts *o, FILE *in, FILE *out, struct jh_diag *d);

#endif
