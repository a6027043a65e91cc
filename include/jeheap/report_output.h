/*
 * report_output.h - the output modes, one per report (jeprof's option
 * names). Apart from report.h so that the command line's options.h can
 * name them without the reports' declarations.
 */
#ifndef JEHEAP_REPORT_OUTPUT_H
#define JEHEAP_REPORT_OUTPUT_H

/* The output modes (jeprof's option names). */
enum jh_output {
	JH_OUT_DEFAULT, /* none given: interactive on a terminal, else text */
	JH_OUT_TEXT,
	JH_OUT_TOP,
	JH_OUT_CALLGRIND,
	JH_OUT_LIST,
	JH_OUT_DISASM,
	JH_OUT_SYMBOLS,
	JH_OUT_GV,
	JH_OUT_EVINCE,
	JH_OUT_WEB,
	JH_OUT_DOT,
	JH_OUT_PS,
	JH_OUT_PDF,
	JH_OUT_SVG,
	JH_OUT_GIF,
	JH_OUT_PNG,
	JH_OUT_RAW,
	JH_OUT_COLLAPSED,
	JH_OUT_INTERACTIVE,
	JH_OUT_FLAMEGRAPH, /* --flamegraph */
	JH_OUT_HTML,       /* --html */
	JH_OUT_WEB_FLAME,  /* --web=flame */
	JH_OUT_PROTO,      /* pprof's profile.proto, gzipped (Go pprof's -proto) */
	JH_OUT_SPEEDSCOPE, /* speedscope's JSON file format */
	JH_OUT_TRACES,     /* Go pprof's -traces: every stack with its value */
	JH_OUT_TREE,       /* Go pprof's -tree: every function's callers and callees */
	JH_OUT_PEEK,       /* Go pprof's -peek=RE: -tree of the matching functions */
	JH_OUT_JSON,       /* --json: jeheap's summary (docs/json.md) */
	JH_OUT_THREADS,    /* --threads: the per-thread table */
	JH_OUT_STATS,      /* --stats: one screen about the profiles */
};

#endif
