/*
 * report_flame.h - --flamegraph (an interactive SVG flame graph), --html
 * (one self-contained page: the flame graph, a flat/cum table, the inputs)
 * and --web=flame (that page opened in a browser), and the escaping both
 * use for names.
 */
#ifndef JEHEAP_REPORT_FLAME_H
#define JEHEAP_REPORT_FLAME_H

#include "jeheap/analyse.h"

#include <stdio.h>

/* What the flame graph reads of the command line. */
struct jh_flame_opts {
	const char *title; /* --title, NULL: "Flame Graph" / "Icicle Graph" */
	double width;      /* --width: image width in pixels (1200) */
	double minwidth;   /* --minwidth: frames narrower (pixels) are not drawn (0.1) */
	size_t maxframes;  /* --maxframes: at most this many frames drawn, the widest (0: all) */
	int inverted;      /* --inverted: icicle, the root on top */
	int reverse;       /* --reverse: stacks merged from the allocation site down */
	int base_widths;   /* --base-widths: with --base, widths from the bases */
	char *const *inputs, *const *bases; /* the profiles and --base files, for the title */
	size_t ninputs, nbases;
};

/* Defaults of struct jh_flame_opts. */
#define JH_FLAME_WIDTH 1200.0
#define JH_FLAME_MINWIDTH 0.1
#define JH_FLAME_MAXFRAMES 25000

/* --flamegraph: the SVG of g's stacks (those of --collapsed) to out.
 * Returns 0, or -1 on a write error. */
int jh_report_flamegraph(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o);
/* --html: the page (g analysed with nodes: jh_analyse) to out. Returns 0,
 * or -1 on a write error. */
int jh_report_html(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o);

/* --web=flame: the --html page written to output_file (open as out) or a
 * temporary .html file and opened as --web opens its graph. Returns 0, or
 * -1 with d set. */
int jh_report_web_flame(FILE *out, const struct jh_graph *g, const struct jh_flame_opts *o,
			const char *output_file, int background, struct jh_diag *d);

/*
 * s[0..n) appended to sb as text safe in XML and HTML, in element content
 * and in quoted attributes alike: & < > " ' as entities, control
 * characters (and DEL) as a visible "\xNN", bytes that are not UTF-8 (and
 * U+FFFE, U+FFFF) as "\xNN" per byte, so that the output is always
 * well-formed UTF-8 XML.
 */
void jh_markup_escape(struct jh_sb *sb, const char *s, size_t n);

#endif
