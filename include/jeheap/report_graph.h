/*
 * report_graph.h - the graph, raw, callgrind and listing reports and the
 * interactive mode (report_dot.c, report_graphviz.c, report_raw.c,
 * report_callgrind.c, report_list.c, interactive.c).
 *
 * Every report writes to out and returns 0, or -1 with d set (d->code is
 * the exit code: JH_EXIT_OUTPUT when Graphviz is missing or fails,
 * JH_EXIT_NODATA when the graph has no node).
 */
#ifndef JEHEAP_REPORT_GRAPH_H
#define JEHEAP_REPORT_GRAPH_H

#include "jeheap/analyse.h"
#include "jeheap/options.h" /* until the report stage has options of its own */

/*
 * --dot: jeprof's call graph (spec §8.3) appended to dot. mode is the
 * output mode the text is for (JH_OUT_PDF adds size="8,11", JH_OUT_SVG and
 * JH_OUT_WEB widen thin edges). Prints jeprof's "Dropping nodes..." and
 * "No nodes to print" lines on stderr; the latter returns -1 with
 * JH_EXIT_NODATA.
 */
int jh_dot_build(struct jh_sb *dot, const struct jh_graph *g, const struct jh_options *o,
		 enum jh_output mode, struct jh_diag *d);
int jh_report_dot(FILE *out, const struct jh_graph *g, const struct jh_options *o,
		  struct jh_diag *d);

/*
 * Runs `dot -T<format>` with the dot text on its stdin and its stdout on
 * out_fd. Returns 0, or -1 with d set (JH_EXIT_OUTPUT) when dot is missing,
 * cannot be run or fails.
 */
int jh_graphviz_run(const char *dot, size_t len, const char *format, int out_fd,
		    struct jh_diag *d);
/*
 * The image for mode: written to out (svg pdf ps gif png) or, for
 * web/gv/evince, to output_file or a new temporary file which is opened in
 * a viewer when DISPLAY or WAYLAND_DISPLAY is set (background: do not wait
 * for the viewer) and otherwise named on stderr.
 */
int jh_graphviz_output(const char *dot, size_t len, enum jh_output mode, FILE *out,
		       const char *output_file, int background, struct jh_diag *d);
/*
 * jeprof's RewriteSvg (report_svg.c): appends dot's SVG output svg[0..len)
 * to out, sized 100% of the window and with its graph in a "viewport"
 * group that a pan/zoom script moves; passed through if not dot's layout.
 */
void jh_svg_pan_zoom(struct jh_sb *out, const char *svg, size_t len);
/* --svg --pdf --ps --gif --png --web --gv --evince for graph g; a viewer
 * runs in the background if background, else is waited for. */
int jh_report_graphviz(FILE *out, const struct jh_graph *g, const struct jh_options *o,
		       int background, struct jh_diag *d);

/* --raw: the first profile as a .symbolized file with m's names (spec §4.2). */
int jh_report_raw(FILE *out, const struct jh_model *m, const struct jh_options *o,
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

/* --callgrind: callgrind format of g's stacks (spec §8.6, file:line parsed right). */
int jh_report_callgrind(FILE *out, const struct jh_graph *g, const struct jh_options *o,
			struct jh_diag *d);

/* --list=REGEX: annotated source of the functions matching re (spec §8.7). */
int jh_report_list(FILE *out, const struct jh_graph *g, const struct jh_options *o,
		   const char *re, struct jh_diag *d);

/*
 * jeprof's interactive mode on the built model m: reads commands (libedit
 * when stdin is a terminal), each one re-runs the analysis with changed
 * options and prints a report. Returns the exit code.
 */
int jh_interactive(const struct jh_model *m, const struct jh_options *o, struct jh_diag *d);

#endif
